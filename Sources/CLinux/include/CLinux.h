/// C declarations for touchwire's Linux backends: the I2C character device, termios,
/// pseudo-terminals and libgpiod v1. Swift cannot call variadic `ioctl`, so the few
/// ioctls used are wrapped here with fixed signatures; nothing else in the package
/// calls ioctl.
#ifndef TOUCHWIRE_CLINUX_H
#define TOUCHWIRE_CLINUX_H

#include <stdint.h>
#include <stddef.h>
#include <termios.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <i2c/smbus.h>
#include <gpiod.h>

/// Binds the descriptor to a 7-bit slave address (`ioctl(fd, I2C_SLAVE, addr)`).
int tw_i2c_set_slave(int fd, uint16_t address);

/// One combined transfer (`ioctl(fd, I2C_RDWR, …)`): a write of `wlen` bytes followed,
/// after a repeated start, by a read of `rlen` bytes from the same address. With
/// `rlen == 0` only the write message is sent. Returns the ioctl result (-1 + errno).
int tw_i2c_write_read(int fd, uint16_t address, const uint8_t *wbuf, uint16_t wlen,
                      uint8_t *rbuf, uint16_t rlen);

/// Adapter capabilities (`ioctl(fd, I2C_FUNCS, &funcs)`).
int tw_i2c_funcs(int fd, unsigned long *funcs);

/// Opens a pseudo-terminal main (`posix_openpt(flags)`, an XSI function Swift's Glibc module hides).
int tw_pty_open(int flags);
/// Sets the subordinate's owner and mode (`grantpt`).
int tw_pty_grant(int fd);
/// Unlocks the subordinate side of a pseudo-terminal main (`unlockpt`).
int tw_pty_unlock(int fd);
/// The subordinate device path of a pseudo-terminal main (`ptsname_r`, a GNU extension).
int tw_pty_name(int fd, char *buf, size_t len);

/// `pipe2(fds, O_CLOEXEC)` (a GNU extension Swift's Glibc module does not export).
int tw_pipe_cloexec(int fds[2]);

/// `fcntl(fd, F_GETFL)` (fcntl is variadic, which Swift cannot call).
int tw_fcntl_getfl(int fd);
/// `fcntl(fd, F_SETFL, flags)`.
int tw_fcntl_setfl(int fd, int flags);

#endif

#ifndef TOUCHWIRE_GPIO_SHIMS
#define TOUCHWIRE_GPIO_SHIMS
/// libgpiod v1 constants as plain ints (Swift imports the enum poorly across versions).
static inline int tw_gpiod_flag_active_low(void) { return GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW; }
static inline int tw_gpiod_event_rising(void) { return GPIOD_LINE_EVENT_RISING_EDGE; }

/// Pins the calling thread to the CPUs whose bits are set in `mask` (`words` 64-bit words, CPU n
/// at bit n % 64 of word n / 64) with `sched_setaffinity(0, …)`, a GNU function Swift's Glibc
/// module hides. Returns 0 or -1 with errno.
int tw_set_thread_affinity(const uint64_t *mask, int words);
/// The calling thread's CPUs into `mask` (`sched_getaffinity(0, …)`). Returns 0 or -1 with errno.
int tw_get_thread_affinity(uint64_t *mask, int words);
/// User + system CPU time of the calling thread in µs (`getrusage(RUSAGE_THREAD, …)`), -1 on error.
long long tw_thread_cpu_us(void);
/// User + system CPU time of the process in µs and its peak RSS in kB (`getrusage(RUSAGE_SELF, …)`).
long long tw_process_cpu_us(long *max_rss_kb);
#endif

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
#include <linux/input.h>
#include <linux/uinput.h>
#include <malloc.h>

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

/// uinput (`linux/uinput.h`): creating a virtual input device on /dev/uinput. Each returns the ioctl result.
/// `UI_SET_EVBIT`, `UI_SET_KEYBIT`, `UI_SET_ABSBIT`, `UI_SET_PROPBIT`: declare an event type, key, axis or property.
int tw_uinput_set_bit(int fd, int which, int bit);
/// `UI_DEV_SETUP`: name and ids (bus USB-virtual, vendor/product as given).
int tw_uinput_setup(int fd, const char *name, uint16_t vendor, uint16_t product);
/// `UI_ABS_SETUP`: an absolute axis's range (and resolution, units per mm).
int tw_uinput_abs_setup(int fd, uint16_t code, int32_t minimum, int32_t maximum, int32_t resolution);
/// `UI_DEV_CREATE` (create = 1) or `UI_DEV_DESTROY` (create = 0).
int tw_uinput_create(int fd, int create);
/// `UI_GET_SYSNAME`: the device's name under /sys/devices/virtual/input (e.g. "input7").
int tw_uinput_sysname(int fd, char *buf, size_t len);

/// `accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)` (a GNU extension Swift's Glibc module does not export).
int tw_accept_nonblocking(int fd);

/// evdev (`linux/input.h`): one wrapper per ioctl touchwire uses on /dev/input/eventN.
/// Each returns the ioctl result (-1 + errno on failure).
/// `EVIOCGABS(code)`: an absolute axis's value, minimum, maximum, fuzz, flat, resolution into `info`.
int tw_evdev_get_abs(int fd, unsigned int code, struct input_absinfo *info);
/// `EVIOCGNAME(len)`: the device name, NUL-terminated, into `buf`.
int tw_evdev_get_name(int fd, char *buf, size_t len);
/// `EVIOCGBIT(type, len)`: the event codes of `type` the device reports, as a bit array
/// (`type` 0 gives the event types).
int tw_evdev_get_bits(int fd, unsigned int type, uint8_t *buf, size_t len);
/// `EVIOCGPROP(len)`: the device properties (INPUT_PROP_DIRECT, …) as a bit array.
int tw_evdev_get_props(int fd, uint8_t *buf, size_t len);
/// `EVIOCGRAB`: 1 takes the device exclusively, 0 releases it.
int tw_evdev_grab(int fd, int grab);
/// `EVIOCGMTSLOTS(len)`: the current value of multi-touch axis `code` in each of `count` slots.
int tw_evdev_get_mt_slots(int fd, unsigned int code, int32_t *values, unsigned int count);
/// `EVIOCGKEY(len)`: the keys currently down, as a bit array.
int tw_evdev_get_keys(int fd, uint8_t *buf, size_t len);
/// `EVIOCSCLOCKID` with `CLOCK_MONOTONIC`: the device's event times on the pipeline's clock.
int tw_evdev_set_clock_monotonic(int fd);
/// `fcntl(fd, F_GETFL)` (fcntl is variadic, which Swift cannot call).
int tw_fcntl_getfl(int fd);
/// `fcntl(fd, F_SETFL, flags)`.
int tw_fcntl_setfl(int fd, int flags);
/// `prctl(PR_SET_NAME, name)`: names the calling thread (the kernel keeps 15 bytes).
int tw_set_thread_name(const char *name);
/// `prctl(PR_SET_TIMERSLACK, nanoseconds)`: how late the kernel may fire the calling thread's timers.
int tw_set_timer_slack(unsigned long nanoseconds);
/// For the thread that starts child programs: clears its ambient capabilities
/// (`PR_CAP_AMBIENT_CLEAR_ALL`) and sets `PR_SET_NO_NEW_PRIVS`; children inherit both. 0 or -1 (errno).
int tw_restrict_spawning_thread(void);
/// Adds to `actions` (a `posix_spawn_file_actions_t *`) the closing of every descriptor from
/// `lowest` up, so a child gets none of the parent's descriptors above stderr even where one
/// lacks FD_CLOEXEC: `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+), else one
/// `addclose` per descriptor listed in /proc/self/fd. 0 or an errno value.
int tw_spawn_close_from(void *actions, int lowest);

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

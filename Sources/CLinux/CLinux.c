#define _GNU_SOURCE
#include "CLinux.h"
#include <sys/ioctl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/prctl.h>
#include <errno.h>
#include <spawn.h>
#include <dirent.h>

int tw_i2c_set_slave(int fd, uint16_t address) {
    return ioctl(fd, I2C_SLAVE, (unsigned long)address);
}

int tw_i2c_write_read(int fd, uint16_t address, const uint8_t *wbuf, uint16_t wlen,
                      uint8_t *rbuf, uint16_t rlen) {
    struct i2c_msg msgs[2];
    struct i2c_rdwr_ioctl_data data;
    msgs[0].addr = address;
    msgs[0].flags = 0;
    msgs[0].len = wlen;
    msgs[0].buf = (uint8_t *)wbuf;
    msgs[1].addr = address;
    msgs[1].flags = I2C_M_RD;
    msgs[1].len = rlen;
    msgs[1].buf = rbuf;
    data.msgs = msgs;
    data.nmsgs = rlen > 0 ? 2 : 1;
    return ioctl(fd, I2C_RDWR, &data);
}

int tw_i2c_funcs(int fd, unsigned long *funcs) {
    return ioctl(fd, I2C_FUNCS, funcs);
}

int tw_pty_open(int flags) { return posix_openpt(flags); }

int tw_pty_grant(int fd) { return grantpt(fd); }

int tw_pty_unlock(int fd) { return unlockpt(fd); }

int tw_pty_name(int fd, char *buf, size_t len) { return ptsname_r(fd, buf, len); }

int tw_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int tw_fcntl_getfl(int fd) { return fcntl(fd, F_GETFL); }

int tw_fcntl_setfl(int fd, int flags) { return fcntl(fd, F_SETFL, flags); }

#include <sched.h>
#include <sys/resource.h>

int tw_set_thread_affinity(const uint64_t *mask, int words) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int i = 0; i < words * 64 && i < CPU_SETSIZE; i++) {
        if (mask[i / 64] & (1ULL << (i % 64))) CPU_SET(i, &set);
    }
    return sched_setaffinity(0, sizeof(set), &set);
}

int tw_get_thread_affinity(uint64_t *mask, int words) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0) return -1;
    for (int w = 0; w < words; w++) mask[w] = 0;
    for (int i = 0; i < words * 64 && i < CPU_SETSIZE; i++) {
        if (CPU_ISSET(i, &set)) mask[i / 64] |= 1ULL << (i % 64);
    }
    return 0;
}

static long long tw_usage_us(int who, long *max_rss_kb) {
    struct rusage u;
    if (getrusage(who, &u) != 0) return -1;
    if (max_rss_kb) *max_rss_kb = u.ru_maxrss;
    return (long long)u.ru_utime.tv_sec * 1000000 + u.ru_utime.tv_usec
         + (long long)u.ru_stime.tv_sec * 1000000 + u.ru_stime.tv_usec;
}

long long tw_thread_cpu_us(void) { return tw_usage_us(RUSAGE_THREAD, NULL); }

long long tw_process_cpu_us(long *max_rss_kb) { return tw_usage_us(RUSAGE_SELF, max_rss_kb); }

int tw_evdev_get_abs(int fd, unsigned int code, struct input_absinfo *info) {
    return ioctl(fd, EVIOCGABS(code), info);
}

int tw_evdev_get_name(int fd, char *buf, size_t len) {
    return ioctl(fd, EVIOCGNAME(len), buf);
}

int tw_evdev_get_bits(int fd, unsigned int type, uint8_t *buf, size_t len) {
    return ioctl(fd, EVIOCGBIT(type, len), buf);
}

int tw_evdev_get_props(int fd, uint8_t *buf, size_t len) {
    return ioctl(fd, EVIOCGPROP(len), buf);
}

int tw_evdev_grab(int fd, int grab) {
    return ioctl(fd, EVIOCGRAB, grab);
}

int tw_evdev_get_mt_slots(int fd, unsigned int code, int32_t *values, unsigned int count) {
    /* The kernel's layout: { __u32 code; __s32 values[count]; }. */
    size_t len = sizeof(int32_t) * ((size_t)count + 1);
    int32_t req[count + 1];
    req[0] = (int32_t)code;
    int r = ioctl(fd, EVIOCGMTSLOTS(len), req);
    if (r >= 0) memcpy(values, req + 1, sizeof(int32_t) * count);
    return r;
}

int tw_evdev_get_keys(int fd, uint8_t *buf, size_t len) {
    return ioctl(fd, EVIOCGKEY(len), buf);
}

int tw_evdev_set_clock_monotonic(int fd) {
    int clock = CLOCK_MONOTONIC;
    return ioctl(fd, EVIOCSCLOCKID, &clock);
}

int tw_accept_nonblocking(int fd) {
    return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int tw_uinput_set_bit(int fd, int which, int bit) {
    unsigned long request;
    switch (which) {
    case 0: request = UI_SET_EVBIT; break;
    case 1: request = UI_SET_KEYBIT; break;
    case 2: request = UI_SET_ABSBIT; break;
    default: request = UI_SET_PROPBIT; break;
    }
    return ioctl(fd, request, bit);
}

int tw_uinput_setup(int fd, const char *name, uint16_t vendor, uint16_t product) {
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.vendor = vendor;
    setup.id.product = product;
    strncpy(setup.name, name, UINPUT_MAX_NAME_SIZE - 1);
    return ioctl(fd, UI_DEV_SETUP, &setup);
}

int tw_uinput_abs_setup(int fd, uint16_t code, int32_t minimum, int32_t maximum, int32_t resolution) {
    struct uinput_abs_setup abs;
    memset(&abs, 0, sizeof abs);
    abs.code = code;
    abs.absinfo.minimum = minimum;
    abs.absinfo.maximum = maximum;
    abs.absinfo.resolution = resolution;
    return ioctl(fd, UI_ABS_SETUP, &abs);
}

int tw_uinput_create(int fd, int create) {
    return ioctl(fd, create ? UI_DEV_CREATE : UI_DEV_DESTROY);
}

int tw_uinput_sysname(int fd, char *buf, size_t len) {
    return ioctl(fd, UI_GET_SYSNAME(len), buf);
}

int tw_set_thread_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

int tw_set_timer_slack(unsigned long nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0);
}

int tw_restrict_spawning_thread(void) {
    /* Ambient capabilities would pass to every program this thread starts: clear them (allowed
       without privilege). no_new_privs: no program started from this thread gains privileges
       through set-user-ID bits or file capabilities. Both are per thread and inherited by the
       children; the service's other threads keep their permitted/effective sets. */
#ifdef PR_CAP_AMBIENT
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) return -1;
#endif
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
}

int tw_spawn_close_from(void *actions, int lowest) {
    posix_spawn_file_actions_t *a = actions;
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    return posix_spawn_file_actions_addclosefrom_np(a, lowest);
#else
    /* Older C libraries: close what is open now (the spawning thread is the only one that
       opens descriptors for children; others are opened with O_CLOEXEC). */
    DIR *d = opendir("/proc/self/fd");
    if (d == NULL) return errno;
    int own = dirfd(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char *end = NULL;
        long fd = strtol(e->d_name, &end, 10);
        if (end == e->d_name || *end != 0 || fd < lowest || fd == own) continue;
        int r = posix_spawn_file_actions_addclose(a, (int)fd);
        if (r != 0) { closedir(d); return r; }
    }
    closedir(d);
    return 0;
#endif
}

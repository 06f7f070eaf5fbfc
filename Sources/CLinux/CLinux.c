#define _GNU_SOURCE
#include "CLinux.h"
#include <sys/ioctl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

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

// SPDX-License-Identifier: GPL-2.0
/*
 * twwatch: the GT911's side of its reset/INT address selection, for the touchwire VM tests.
 *
 * Polls two gpio-sim lines through sysfs (sim_gpioN/value: the level the consumer drives, or
 * the pull when it is an input) as fast as it can and logs every change with a monotonic
 * timestamp. Like the chip: while RST is low the device is off the bus (NACK); when RST goes
 * high the level of INT at that moment selects the address (high: 0x14, low: 0x5D), which it
 * applies to the tw-i2c-sim adapter through its debugfs ctl file.
 *
 * usage: twwatch RST_VALUE_PATH INT_VALUE_PATH CTL_PATH CURRENT_ADDR   (runs until SIGTERM)
 * output lines: "T_US RST|INT 0|1", "T_US LATCH 0xNN".
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;
static void on_term(int s) { (void)s; stop = 1; }

static int level(int fd)
{
	char c = '?';
	if (pread(fd, &c, 1, 0) != 1)
		return -1;
	return c == '1';
}

static long long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void ctl(const char *path, const char *cmd)
{
	int fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, cmd, strlen(cmd)) < 0)
		fprintf(stderr, "twwatch: %s: %s failed\n", path, cmd);
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: twwatch RST_VALUE INT_VALUE CTL ADDR\n");
		return 2;
	}
	int rfd = open(argv[1], O_RDONLY), ifd = open(argv[2], O_RDONLY);
	if (rfd < 0 || ifd < 0) {
		perror("twwatch: open");
		return 2;
	}
	unsigned addr = strtoul(argv[4], NULL, 0);
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	setvbuf(stdout, NULL, _IOLBF, 0);
	int r = level(rfd), i = level(ifd);
	printf("%lld RST %d\n%lld INT %d\n", now_us(), r, now_us(), i);
	printf("READY\n");
	char cmd[64];
	while (!stop) {
		int r2 = level(rfd), i2 = level(ifd);
		long long t = now_us();
		if (i2 != i) {
			printf("%lld INT %d\n", t, i2);
			i = i2;
		}
		if (r2 != r) {
			printf("%lld RST %d\n", t, r2);
			if (r2 == 0) {
				snprintf(cmd, sizeof cmd, "nack 0x%x 1", addr);
				ctl(argv[3], cmd);
			} else {
				unsigned next = i2 ? 0x14 : 0x5d;
				snprintf(cmd, sizeof cmd, "move 0x%x 0x%x", addr, next);
				ctl(argv[3], cmd);
				addr = next;
				snprintf(cmd, sizeof cmd, "nack 0x%x 0", addr);
				ctl(argv[3], cmd);
				printf("%lld LATCH 0x%02x\n", t, addr);
			}
			r = r2;
		}
	}
	return 0;
}

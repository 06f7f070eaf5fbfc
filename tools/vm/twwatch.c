// SPDX-License-Identifier: GPL-2.0
/*
 * twwatch: the GT911's side of its reset/INT address selection, for the touchwire VM tests.
 *
 * Follows the kernel's gpio tracepoints (events/gpio/gpio_value, gpio_direction in tracefs)
 * for two lines, so every level a consumer sets is seen in order with the kernel's own
 * timestamp, however late this process gets scheduled (under TCG on a loaded host that can be
 * milliseconds). Like the chip: while RST is low the device is off the bus (NACK); when RST
 * rises, the level INT had at that moment selects the address (high: 0x14, low: 0x5D), which
 * it applies to the tw-i2c-sim adapter through its debugfs ctl file. The driver reads the
 * chip 60 ms after that, which is all the slack this needs.
 *
 * usage: twwatch TRACE_PIPE RST_GPIO INT_GPIO INT_LEVEL CTL ADDR   (runs until SIGTERM)
 *   RST_GPIO/INT_GPIO: global gpio numbers; INT_LEVEL: INT's level (pull) before the start.
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
	if (argc != 7) {
		fprintf(stderr, "usage: twwatch TRACE_PIPE RST_GPIO INT_GPIO INT_LEVEL CTL ADDR\n");
		return 2;
	}
	FILE *trace = fopen(argv[1], "r");
	if (!trace) {
		perror("twwatch: trace_pipe");
		return 2;
	}
	int rst_gpio = atoi(argv[2]), int_gpio = atoi(argv[3]);
	int rst = -1, intl = atoi(argv[4]);
	const char *ctlpath = argv[5];
	unsigned addr = strtoul(argv[6], NULL, 0);
	struct sigaction sa = { .sa_handler = on_term }; /* no SA_RESTART: a signal ends the read */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("READY\n");
	char line[512], cmd[64];
	while (!stop && fgets(line, sizeof line, trace)) {
		char *ev = strstr(line, ": gpio_value: ");
		int gpio, value;
		char op[8];
		if (!ev || sscanf(ev + 14, "%d %7s %d", &gpio, op, &value) != 3 || strcmp(op, "set"))
			continue;
		/* the timestamp ends just before ": gpio_value" and starts after the last space */
		*ev = 0;
		char *ts = strrchr(line, ' ');
		long long t = ts ? (long long)(strtod(ts + 1, NULL) * 1e6) : 0;
		if (gpio == int_gpio && value != intl) {
			intl = value;
			printf("%lld INT %d\n", t, value);
		} else if (gpio == rst_gpio && value != rst) {
			printf("%lld RST %d\n", t, value);
			if (value == 0) {
				snprintf(cmd, sizeof cmd, "nack 0x%x 1", addr);
				ctl(ctlpath, cmd);
			} else if (rst == 0) {
				unsigned next = intl ? 0x14 : 0x5d;
				snprintf(cmd, sizeof cmd, "move 0x%x 0x%x", addr, next);
				ctl(ctlpath, cmd);
				addr = next;
				snprintf(cmd, sizeof cmd, "nack 0x%x 0", addr);
				ctl(ctlpath, cmd);
				printf("%lld LATCH 0x%02x\n", t, addr);
			}
			rst = value;
		}
	}
	return 0;
}

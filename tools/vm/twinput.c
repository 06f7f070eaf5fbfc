// SPDX-License-Identifier: GPL-2.0
/*
 * twinput: the kernel-side fixtures of touchwire's kiosk tests (issue 14) in the test VM.
 *
 *   twinput panel NAME XMAX YMAX SCRIPT
 *       Creates a direct multi-touch touchscreen (protocol B, 10 slots, axes 0..XMAX x 0..YMAX,
 *       INPUT_PROP_DIRECT, BTN_TOUCH) through /dev/uinput, prints "READY /dev/input/eventN",
 *       then plays SCRIPT, one command a line:
 *         waitfile PATH          wait (up to 60 s) until PATH exists
 *         sleep MS
 *         down SLOT X Y | move SLOT X Y | up SLOT     one frame each (ends with SYN_REPORT)
 *         drag SLOT X0 Y0 X1 Y1 STEPS MS             down at X0,Y0 then STEPS moves, MS apart
 *         burst SLOT N           N frames moving SLOT by one unit back and forth, no pause
 *         stop PIDFILE | cont PIDFILE                SIGSTOP / SIGCONT the process in PIDFILE
 *         watch | watchcheck     open a reader on this device now; later, drain it and print
 *                                "DROPPED yes|no" (whether the kernel told it SYN_DROPPED)
 *         unplug | replug        UI_DEV_DESTROY / create the same device again
 *         touch PATH             create PATH (a signal to the test script)
 *         mark LABEL             print "MARK LABEL US": CLOCK_MONOTONIC in microseconds, right
 *                                after the frame before it was written (the kernel's time of it)
 *       Every frame written is printed as "FRAME x,y x,y ..." (the contacts down, by slot).
 *   twinput keyboard NAME SECONDS
 *       A keyboard (EV_KEY, KEY_A..KEY_Z) that exists for SECONDS: an input device that is not
 *       a touchscreen.
 *   twinput read NAME SECONDS
 *       Waits (up to SECONDS) for an input device called NAME, prints "READY /dev/input/eventN",
 *       then for SECONDS prints what it reads: "FRAME ..." at each SYN_REPORT (as above, from
 *       the slot state), "KEY CODE VALUE", "DROPPED" for SYN_DROPPED, "CANCEL x,y" when a
 *       contact turns into a palm (ABS_MT_TOOL_TYPE = MT_TOOL_PALM: libinput's TOUCH_CANCEL);
 *       a report that only changes tool types prints no FRAME (its contacts did not change).
 *   twinput asuser UID GID PROGRAM ARGS...
 *       Drops to UID:GID (no supplementary groups) and executes PROGRAM.
 *
 * Written for the VM only (static, busybox initramfs); exits non-zero with a message on errors.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SLOTS 10

static void die(const char *what)
{
	fprintf(stderr, "twinput: %s: %s\n", what, strerror(errno));
	exit(2);
}

static long long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

static void sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&t, &t) < 0 && errno == EINTR)
		;
}

/* ---- the panel ------------------------------------------------------------------------- */

static int ufd = -1;
static char panel_name[80];
static int xmax, ymax;
static int ids[SLOTS], xs[SLOTS], ys[SLOTS];
static int next_id = 1;
static int watch_fd = -1;
static char panel_node[300];

static void emit(int type, int code, int value)
{
	struct input_event e;
	memset(&e, 0, sizeof e);
	e.type = type;
	e.code = code;
	e.value = value;
	if (write(ufd, &e, sizeof e) != sizeof e)
		die("write /dev/uinput");
}

static void print_frame(const int *id, const int *x, const int *y)
{
	printf("FRAME");
	for (int s = 0; s < SLOTS; s++)
		if (id[s] >= 0)
			printf(" %d,%d", x[s], y[s]);
	printf("\n");
}

static int down_count(void)
{
	int n = 0;
	for (int s = 0; s < SLOTS; s++)
		n += ids[s] >= 0;
	return n;
}

/* One frame: slot SLOT goes to (x, y) (id >= 0) or lifts (id < 0); BTN_TOUCH follows. */
static void frame(int slot, int down, int x, int y, int print)
{
	int before = down_count();
	emit(EV_ABS, ABS_MT_SLOT, slot);
	if (down && ids[slot] < 0) {
		ids[slot] = next_id++;
		emit(EV_ABS, ABS_MT_TRACKING_ID, ids[slot]);
	} else if (!down && ids[slot] >= 0) {
		ids[slot] = -1;
		emit(EV_ABS, ABS_MT_TRACKING_ID, -1);
	}
	if (down) {
		xs[slot] = x;
		ys[slot] = y;
		emit(EV_ABS, ABS_MT_POSITION_X, x);
		emit(EV_ABS, ABS_MT_POSITION_Y, y);
	}
	int after = down_count();
	if ((before == 0) != (after == 0))
		emit(EV_KEY, BTN_TOUCH, after > 0);
	emit(EV_SYN, SYN_REPORT, 0);
	if (print)
		print_frame(ids, xs, ys);
}

static void abs_setup(int code, int max)
{
	struct uinput_abs_setup a;
	memset(&a, 0, sizeof a);
	a.code = code;
	a.absinfo.maximum = max;
	if (ioctl(ufd, UI_SET_ABSBIT, code) < 0 || ioctl(ufd, UI_ABS_SETUP, &a) < 0)
		die("UI_ABS_SETUP");
}

static void create_device(int keyboard)
{
	ufd = open("/dev/uinput", O_WRONLY | O_CLOEXEC);
	if (ufd < 0)
		die("open /dev/uinput");
	if (keyboard) {
		if (ioctl(ufd, UI_SET_EVBIT, EV_KEY) < 0)
			die("UI_SET_EVBIT");
		for (int k = KEY_Q; k <= KEY_M; k++)
			ioctl(ufd, UI_SET_KEYBIT, k);
	} else {
		if (ioctl(ufd, UI_SET_PROPBIT, INPUT_PROP_DIRECT) < 0 || ioctl(ufd, UI_SET_EVBIT, EV_KEY) < 0 ||
		    ioctl(ufd, UI_SET_KEYBIT, BTN_TOUCH) < 0 || ioctl(ufd, UI_SET_EVBIT, EV_ABS) < 0)
			die("UI_SET_*BIT");
		abs_setup(ABS_MT_SLOT, SLOTS - 1);
		abs_setup(ABS_MT_TRACKING_ID, 65535);
		abs_setup(ABS_MT_POSITION_X, xmax);
		abs_setup(ABS_MT_POSITION_Y, ymax);
	}
	struct uinput_setup u;
	memset(&u, 0, sizeof u);
	u.id.bustype = BUS_VIRTUAL;
	u.id.vendor = 0x7477;
	u.id.product = keyboard ? 0x10 : 0x11;
	snprintf(u.name, sizeof u.name, "%s", panel_name);
	if (ioctl(ufd, UI_DEV_SETUP, &u) < 0)
		die("UI_DEV_SETUP");
	if (ioctl(ufd, UI_DEV_CREATE) < 0)
		die("UI_DEV_CREATE");
	/* /sys/devices/virtual/input/inputN/eventM: the node the kernel made for it. */
	char sys[64], dir[160], *node = panel_node;
	node[0] = 0;
	if (ioctl(ufd, UI_GET_SYSNAME(sizeof sys), sys) < 0)
		die("UI_GET_SYSNAME");
	snprintf(dir, sizeof dir, "/sys/devices/virtual/input/%s", sys);
	for (int tries = 0; tries < 500 && !node[0]; tries++) {
		DIR *d = opendir(dir);
		struct dirent *e;
		while (d && (e = readdir(d)))
			if (!strncmp(e->d_name, "event", 5))
				snprintf(node, sizeof panel_node, "/dev/input/%s", e->d_name);
		if (d)
			closedir(d);
		if (!node[0])
			sleep_ms(10);
	}
	for (int tries = 0; tries < 500 && node[0] && access(node, F_OK) < 0; tries++)
		sleep_ms(10);
	printf("READY %s\n", node[0] ? node : "?");
	for (int s = 0; s < SLOTS; s++)
		ids[s] = -1;
}

static int read_pid(const char *path)
{
	FILE *f = fopen(path, "r");
	int pid = 0;
	if (!f || fscanf(f, "%d", &pid) != 1)
		die(path);
	fclose(f);
	return pid;
}

static int panel(const char *script)
{
	FILE *f = fopen(script, "r");
	if (!f)
		die(script);
	create_device(0);
	char line[256], arg[200];
	int a, b, c, d, e, g, h;
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "waitfile %199s", arg) == 1) {
			long long until = now_ms() + 60000;
			while (access(arg, F_OK) < 0 && now_ms() < until)
				sleep_ms(20);
		} else if (sscanf(line, "sleep %d", &a) == 1) {
			sleep_ms(a);
		} else if (sscanf(line, "down %d %d %d", &a, &b, &c) == 3 || sscanf(line, "move %d %d %d", &a, &b, &c) == 3) {
			frame(a, 1, b, c, 1);
		} else if (sscanf(line, "up %d", &a) == 1) {
			frame(a, 0, 0, 0, 1);
		} else if (sscanf(line, "drag %d %d %d %d %d %d %d", &a, &b, &c, &d, &e, &g, &h) == 7) {
			frame(a, 1, b, c, 1);
			for (int i = 1; i <= g; i++) {
				sleep_ms(h);
				frame(a, 1, b + (d - b) * i / g, c + (e - c) * i / g, 1);
			}
		} else if (sscanf(line, "burst %d %d", &a, &b) == 2) {
			int x = xs[a], y = ys[a];
			for (int i = 0; i < b; i++)
				frame(a, 1, x + (i & 1), y, 0);
			printf("BURST %d frames\n", b);
		} else if (sscanf(line, "stop %199s", arg) == 1) {
			if (kill(read_pid(arg), SIGSTOP) < 0)
				die("SIGSTOP");
		} else if (sscanf(line, "cont %199s", arg) == 1) {
			if (kill(read_pid(arg), SIGCONT) < 0)
				die("SIGCONT");
		} else if (!strncmp(line, "watchcheck", 10)) {
			struct input_event ev;
			int dropped = 0;
			while (watch_fd >= 0 && read(watch_fd, &ev, sizeof ev) == sizeof ev)
				dropped |= ev.type == EV_SYN && ev.code == SYN_DROPPED;
			printf("DROPPED %s\n", dropped ? "yes" : "no");
		} else if (!strncmp(line, "watch", 5)) {
			watch_fd = open(panel_node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
			if (watch_fd < 0)
				die(panel_node);
		} else if (!strncmp(line, "unplug", 6)) {
			if (ioctl(ufd, UI_DEV_DESTROY) < 0)
				die("UI_DEV_DESTROY");
			close(ufd);
			printf("UNPLUGGED\n");
		} else if (!strncmp(line, "replug", 6)) {
			create_device(0);
		} else if (sscanf(line, "mark %199s", arg) == 1) {
			struct timespec t;
			clock_gettime(CLOCK_MONOTONIC, &t);
			printf("MARK %s %lld\n", arg, t.tv_sec * 1000000LL + t.tv_nsec / 1000);
			fflush(stdout);
		} else if (sscanf(line, "touch %199s", arg) == 1) {
			int fd = open(arg, O_WRONLY | O_CREAT, 0644);
			if (fd >= 0)
				close(fd);
		}
	}
	fclose(f);
	ioctl(ufd, UI_DEV_DESTROY);
	return 0;
}

/* ---- the reader ------------------------------------------------------------------------ */

static int find_device(const char *name, char *node, size_t size)
{
	DIR *d = opendir("/dev/input");
	struct dirent *e;
	int fd = -1;
	while (d && fd < 0 && (e = readdir(d))) {
		if (strncmp(e->d_name, "event", 5))
			continue;
		snprintf(node, size, "/dev/input/%s", e->d_name);
		int f = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		char n[256] = "";
		if (f >= 0 && ioctl(f, EVIOCGNAME(sizeof n - 1), n) >= 0 && !strcmp(n, name))
			fd = f;
		else if (f >= 0)
			close(f);
	}
	if (d)
		closedir(d);
	return fd;
}

static int reader(const char *name, int seconds)
{
	char node[300];
	long long until = now_ms() + seconds * 1000LL;
	int fd;
	while ((fd = find_device(name, node, sizeof node)) < 0) {
		if (now_ms() > until) {
			printf("NOTFOUND %s\n", name);
			return 1;
		}
		sleep_ms(20);
	}
	printf("READY %s\n", node);
	int id[SLOTS], x[SLOTS], y[SLOTS], slot = 0;
	/* In the report being read: a tool type changed; something else did. */
	int tools = 0, others = 0;
	for (int s = 0; s < SLOTS; s++)
		id[s] = -1, x[s] = y[s] = 0;
	until = now_ms() + seconds * 1000LL;
	while (now_ms() < until) {
		struct pollfd p = { fd, POLLIN, 0 };
		if (poll(&p, 1, 100) <= 0)
			continue;
		struct input_event ev;
		while (read(fd, &ev, sizeof ev) == sizeof ev) {
			if (ev.type == EV_SYN && ev.code == SYN_REPORT) {
				if (!tools || others)
					print_frame(id, x, y);
				tools = others = 0;
			} else if (ev.type == EV_SYN && ev.code == SYN_DROPPED) {
				printf("DROPPED\n");
			} else if (ev.type == EV_ABS && ev.code == ABS_MT_TOOL_TYPE) {
				tools = 1;
				if (ev.value == MT_TOOL_PALM)
					printf("CANCEL %d,%d\n", x[slot], y[slot]);
			} else {
				if (!(ev.type == EV_ABS && ev.code == ABS_MT_SLOT))
					others = 1;
				if (ev.type == EV_KEY && ev.code != BTN_TOUCH)
					printf("KEY %d %d\n", ev.code, ev.value);
				else if (ev.type == EV_ABS && ev.code == ABS_MT_SLOT)
					slot = ev.value >= 0 && ev.value < SLOTS ? ev.value : 0;
				else if (ev.type == EV_ABS && ev.code == ABS_MT_TRACKING_ID)
					id[slot] = ev.value;
				else if (ev.type == EV_ABS && ev.code == ABS_MT_POSITION_X)
					x[slot] = ev.value;
				else if (ev.type == EV_ABS && ev.code == ABS_MT_POSITION_Y)
					y[slot] = ev.value;
			}
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 6 && !strcmp(argv[1], "panel")) {
		snprintf(panel_name, sizeof panel_name, "%s", argv[2]);
		xmax = atoi(argv[3]);
		ymax = atoi(argv[4]);
		return panel(argv[5]);
	}
	if (argc == 4 && !strcmp(argv[1], "keyboard")) {
		snprintf(panel_name, sizeof panel_name, "%s", argv[2]);
		create_device(1);
		sleep_ms(atoi(argv[3]) * 1000L);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "read"))
		return reader(argv[2], atoi(argv[3]));
	if (argc >= 5 && !strcmp(argv[1], "asuser")) {
		gid_t gid = (gid_t)atoi(argv[3]);
		if (setgroups(1, &gid) < 0 || setgid(gid) < 0 || setuid((uid_t)atoi(argv[2])) < 0)
			die("drop privileges");
		execv(argv[4], argv + 4);
		die(argv[4]);
	}
	fprintf(stderr, "usage: twinput panel NAME XMAX YMAX SCRIPT | keyboard NAME SECONDS | read NAME SECONDS | "
			"asuser UID GID PROGRAM ARGS...\n");
	return 2;
}

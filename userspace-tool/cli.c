// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl: what every command shares: messages and exit codes, signals,
 * the device, JSON, sysfs, the progress line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

const char *prog = "hwtimerctl";
const char *cmd_name;
volatile sig_atomic_t stop;

void close_stdout(void)
{
	/* a full disk or a closed pipe must not pass for success */
	if (fflush(stdout) || ferror(stdout) || fclose(stdout)) {
		if (errno == EPIPE)
			_exit(EXIT_FAILURE);
		fprintf(stderr, "%s: write error: %s\n", prog, strerror(errno));
		_exit(EXIT_FAILURE);
	}
}

/* "hwtimerctl: MESSAGE" on stderr */
static void __attribute__((format(printf, 1, 0))) vwarnx(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void __attribute__((format(printf, 1, 2), noreturn)) die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
	exit(EXIT_FAILURE);
}

/* a bad command line: what was wrong, where to look, exit EXIT_USAGE */
void __attribute__((format(printf, 1, 2), noreturn)) usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s%s%s --help' for more information.\n", prog,
		cmd_name ? " " : "", cmd_name ? cmd_name : "");
	exit(EXIT_USAGE);
}

/**
 * cmd_args() - act on what a command's parser said
 * @ret: its return: ARGS_RUN returns, ARGS_HELP and ARGS_VERSION print and
 *	exit 0, ARGS_BAD exits EXIT_USAGE with @err
 * @err: the parser's message
 */
void cmd_args(int ret, const char *err)
{
	switch (ret) {
	case ARGS_RUN:
		return;
	case ARGS_HELP:
		usage_command(stdout, cmd_name);
		exit(EXIT_SUCCESS);
	case ARGS_VERSION:
		print_version();
		exit(EXIT_SUCCESS);
	default:
		usage_error("%s", err);
	}
}

void print_version(void)
{
	printf("%s from hwtimer %s\n", prog, HWTIMERCTL_VERSION);
}

static void on_signal(int sig)
{
	stop = sig;
}

/* The shell's convention: killed by signal N, exit 128 + N. */
int exit_status(void)
{
	return stop ? 128 + stop : 0;
}

void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* Open the device, or explain what to do about it. */
int open_dev(void)
{
	int fd = hwtimer_open(HWTIMER_OPEN_CLOEXEC);

	if (fd >= 0)
		return fd;
	switch (-fd) {
	case ENOENT:
		die("%s does not exist: the hwtimer kernel module is not loaded.\n"
		    "Load it with 'sudo modprobe hwtimer' (the hwtimer-dkms package or\n"
		    "'make install' installs it), or 'sudo insmod hwtimer.ko' from the\n"
		    "build tree.", HWTIMER_DEVICE);
	case ENODEV:
	case ENXIO:
		die("%s exists but no driver answers: the hwtimer module was unloaded.\n"
		    "Load it with 'sudo modprobe hwtimer'.", HWTIMER_DEVICE);
	case EACCES:
	case EPERM:
		die("cannot open %s: permission denied.\n"
		    "An administrator restricted it to a group (a udev rule in\n"
		    "/etc/udev/rules.d, e.g. 60-hwtimer.rules): see 'ls -l %s',\n"
		    "join that group ('sudo usermod -aG GROUP $USER') and log in again.",
		    HWTIMER_DEVICE, HWTIMER_DEVICE);
	default:
		die("cannot open %s: %s", HWTIMER_DEVICE, strerror(-fd));
	}
}

void check(int ret, const char *what)
{
	if (ret < 0)
		die("%s: %s", what, hwtimer_strerror(ret));
}

const char *clock_name(uint32_t clk)
{
	switch (clk) {
	case CLOCK_MONOTONIC: return "monotonic";
	case CLOCK_BOOTTIME: return "boottime";
	case CLOCK_REALTIME: return "realtime";
	default: return "?";
	}
}

char *dur(char *buf, uint64_t ns)
{
	return format_duration(buf, 32, ns);
}

/*
 * Every JSON object hwtimerctl prints opens with its version. (Nanosecond
 * values that may pass 2^53 follow as strings: see hwtimerctl(1).)
 */
void json_begin(void)
{
	printf("{\"version\":\"%s\"", HWTIMERCTL_VERSION);
}

/* @s as a JSON string, quoted and escaped */
void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", (unsigned char)*s);
		else
			putchar(*s);
	}
	putchar('"');
}

/* A number from a file under SYSFS_DIR; false if it cannot be read. */
bool sysfs_u64(const char *name, uint64_t *v)
{
	char path[PATH_MAX], buf[64];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), SYSFS_DIR "/%s", name);
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	if (ok)
		*v = strtoull(buf, NULL, 10);
	return ok;
}

/* What the wheels of every base hold on level @l, from sysfs. */
bool level_occupancy(unsigned int l, uint64_t *slots, uint64_t *timers)
{
	char name[64];

	snprintf(name, sizeof(name), "level%u/occupied_slots", l);
	if (!sysfs_u64(name, slots))
		return false;
	snprintf(name, sizeof(name), "level%u/timers", l);
	return sysfs_u64(name, timers);
}

/* the progress line */

#define PROGRESS_AFTER_NS	NSEC_PER_SEC		/* runs shorter show none */
#define PROGRESS_EVERY_NS	(250 * NSEC_PER_MSEC)

/**
 * progress_start() - a run begins
 * @p: its progress line
 * @what: what runs
 * @total: how many steps it takes, 0 if not known
 * @quiet: --quiet: no line
 *
 * The line shows on stderr, and only if it is a terminal, once the run
 * has lasted a second; progress_end() erases it.
 */
void progress_start(struct progress *p, const char *what, uint64_t total, bool quiet)
{
	*p = (struct progress){
		.what = what, .total = total, .start = now_ns(CLOCK_MONOTONIC),
		.on = !quiet && isatty(STDERR_FILENO),
	};
}

/* @done steps of the run are done: redraw the line, at most 4 times a second */
void progress_update(struct progress *p, uint64_t done)
{
	uint64_t t, spent;
	char line[160], a[32], b[32];
	int n;

	if (!p->on)
		return;
	t = now_ns(CLOCK_MONOTONIC);
	spent = t - p->start;
	if (spent < PROGRESS_AFTER_NS || t - p->last < PROGRESS_EVERY_NS)
		return;
	p->last = t;
	if (p->total && done && done <= p->total)
		n = snprintf(line, sizeof(line), "\r%s: %llu of %llu (%llu%%), %s, about %s "
			     "left\033[K", p->what, (unsigned long long)done,
			     (unsigned long long)p->total,
			     (unsigned long long)(done * 100 / p->total), dur(a, spent),
			     dur(b, (uint64_t)((double)spent * (double)(p->total - done) /
					       (double)done)));
	else
		n = snprintf(line, sizeof(line), "\r%s: %llu, %s\033[K", p->what,
			     (unsigned long long)done, dur(a, spent));
	if (n > 0)
		p->shown = write(STDERR_FILENO, line, strnlen(line, sizeof(line) - 1)) > 0;
}

/* the run is over: erase the line */
void progress_end(struct progress *p)
{
	/* nothing to do about a terminal that cannot be written to */
	if (p->shown)
		(void)!write(STDERR_FILENO, "\r\033[K", 4);
	p->shown = false;
}

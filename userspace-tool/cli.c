// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl: what every command shares: messages and exit codes, signals,
 * the device, argument parsing, sysfs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char *prog = "hwtimerctl";
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

void __attribute__((noreturn)) errtryhelp(void)
{
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
	exit(EXIT_FAILURE);
}

void __attribute__((format(printf, 1, 2), noreturn)) usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
	errtryhelp();
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
		    "Load it with 'sudo modprobe hwtimer' (after 'make install'),\n"
		    "or 'sudo insmod hwtimer.ko' from the build tree.", HWTIMER_DEVICE);
	case ENODEV:
	case ENXIO:
		die("%s exists but no driver answers: the hwtimer module was unloaded.\n"
		    "Load it with 'sudo modprobe hwtimer'.", HWTIMER_DEVICE);
	case EACCES:
	case EPERM:
		die("cannot open %s: permission denied.\n"
		    "The udev rule 60-hwtimer.rules gives the group 'hwtimer' access;\n"
		    "add yourself with 'sudo usermod -aG hwtimer $USER' and log in again.",
		    HWTIMER_DEVICE);
	default:
		die("cannot open %s: %s", HWTIMER_DEVICE, strerror(-fd));
	}
}

void check(int ret, const char *what)
{
	if (ret < 0)
		die("%s: %s", what, hwtimer_strerror(ret));
}

uint64_t arg_duration(const char *opt, const char *s)
{
	uint64_t ns;
	int ret = parse_duration(s, &ns);

	if (ret == -ERANGE)
		usage_error("%s '%s' is too long: at most 584 years (2^64 ns)", opt, s);
	if (ret)
		usage_error("invalid %s '%s': expected %s", opt, s, DURATION_FORMS);
	return ns;
}

uint64_t arg_count(const char *opt, const char *s, uint64_t max)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || !v || v > max)
		usage_error("invalid %s '%s': expected a whole number from 1 to %" PRIu64,
			    opt, s, max);
	return v;
}

clockid_t arg_clock(const char *s)
{
	if (!strcmp(s, "monotonic"))
		return CLOCK_MONOTONIC;
	if (!strcmp(s, "boottime"))
		return CLOCK_BOOTTIME;
	if (!strcmp(s, "realtime"))
		return CLOCK_REALTIME;
	usage_error("invalid clock '%s': expected monotonic, boottime or realtime", s);
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

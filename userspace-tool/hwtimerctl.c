// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl: schedule timers on /dev/hwtimer from the shell, measure them,
 * and look inside the module. See hwtimerctl(1).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hist.h"
#include "libhwtimer.h"
#include "parse.h"

#define SYSFS_DIR	"/sys/class/misc/hwtimer"

static const char *prog = "hwtimerctl";
static volatile sig_atomic_t stop;	/* the signal that asked us to stop */

static void close_stdout(void)
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

static void __attribute__((format(printf, 1, 2), noreturn)) die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
	exit(EXIT_FAILURE);
}

static void __attribute__((noreturn)) errtryhelp(void)
{
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
	exit(EXIT_FAILURE);
}

static void __attribute__((format(printf, 1, 2), noreturn)) usage_error(const char *fmt, ...)
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
static int exit_status(void)
{
	return stop ? 128 + stop : 0;
}

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* Open the device, or explain what to do about it. */
static int open_dev(void)
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

static void check(int ret, const char *what)
{
	if (ret < 0)
		die("%s: %s", what, hwtimer_strerror(ret));
}

static uint64_t arg_duration(const char *opt, const char *s)
{
	uint64_t ns;
	int ret = parse_duration(s, &ns);

	if (ret == -ERANGE)
		usage_error("%s '%s' is too long: at most 584 years (2^64 ns)", opt, s);
	if (ret)
		usage_error("invalid %s '%s': expected %s", opt, s, DURATION_FORMS);
	return ns;
}

static uint64_t arg_count(const char *opt, const char *s, uint64_t max)
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

static clockid_t arg_clock(const char *s)
{
	if (!strcmp(s, "monotonic"))
		return CLOCK_MONOTONIC;
	if (!strcmp(s, "boottime"))
		return CLOCK_BOOTTIME;
	if (!strcmp(s, "realtime"))
		return CLOCK_REALTIME;
	usage_error("invalid clock '%s': expected monotonic, boottime or realtime", s);
}

static const char *clock_name(uint32_t clk)
{
	switch (clk) {
	case CLOCK_MONOTONIC: return "monotonic";
	case CLOCK_BOOTTIME: return "boottime";
	case CLOCK_REALTIME: return "realtime";
	default: return "?";
	}
}

static char *dur(char *buf, uint64_t ns)
{
	return format_duration(buf, 32, ns);
}

/* A number from a file under SYSFS_DIR; false if it cannot be read. */
static bool sysfs_u64(const char *name, uint64_t *v)
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
static bool level_occupancy(unsigned int l, uint64_t *slots, uint64_t *timers)
{
	char name[64];

	snprintf(name, sizeof(name), "level%u/occupied_slots", l);
	if (!sysfs_u64(name, slots))
		return false;
	snprintf(name, sizeof(name), "level%u/timers", l);
	return sysfs_u64(name, timers);
}

/* info */

static void cmd_info(int json)
{
	struct hwtimer_info in;
	char version[64] = "unknown", a[32], b[32], c[32];
	static const struct { uint64_t bit; const char *name; } feats[] = {
		{ HWTIMER_FEAT_BATCH, "batch" },
		{ HWTIMER_FEAT_PERIODIC, "periodic" },
		{ HWTIMER_FEAT_FIXED_DELAY, "fixed-delay" },
		{ HWTIMER_FEAT_SLACK, "slack" },
		{ HWTIMER_FEAT_EVENTFD, "eventfd" },
		{ HWTIMER_FEAT_DRAIN, "drain" },
		{ HWTIMER_FEAT_CLOCK_BOOTTIME, "boottime" },
		{ HWTIMER_FEAT_CLOCK_REALTIME, "realtime" },
		{ HWTIMER_FEAT_AUTOREMOVE, "autoremove" },
		{ HWTIMER_FEAT_SLACK_DEFAULT, "default-slack" },
		{ HWTIMER_FEAT_CLOCK_POSIX, "posix-clocks" },
		{ HWTIMER_FEAT_CANCEL_ON_SET, "cancel-on-set" },
	};
	FILE *f;
	unsigned int l, i;
	int fd = open_dev();

	check(hwtimer_info(fd, &in), "HWTIMER_IOC_INFO");
	close(fd);
	f = fopen("/sys/module/hwtimer/version", "r");
	if (f) {
		if (fgets(version, sizeof(version), f))
			version[strcspn(version, "\n")] = 0;
		fclose(f);
	}

	if (json) {
		printf("{\"module_version\":\"%s\",\"api_version\":%u,\"tick_ns\":%llu,"
		       "\"levels\":%u,\"slots_per_level\":%u,\"max_delay_ns\":%llu,"
		       "\"record_size\":%u,\"max_timers_per_fd\":%u,"
		       "\"max_timers_per_user\":%u,\"max_batch\":%u,\"features\":[",
		       version, in.api_version, (unsigned long long)in.tick_ns,
		       in.levels, in.slots_per_level,
		       (unsigned long long)in.max_delay_ns, in.record_size,
		       in.max_timers_per_fd, in.max_timers_per_user, in.max_batch);
		for (i = 0, l = 0; i < sizeof(feats) / sizeof(feats[0]); i++)
			if (in.features & feats[i].bit)
				printf("%s\"%s\"", l++ ? "," : "", feats[i].name);
		printf("],\"geometry\":[");
	} else {
		printf("module version   %s\n", version);
		printf("api version      %u\n", in.api_version);
		printf("tick             %s (%llu ns)\n", dur(a, in.tick_ns),
		       (unsigned long long)in.tick_ns);
		printf("levels           %u x %u slots\n", in.levels, in.slots_per_level);
		printf("longest delay    %s\n", dur(a, in.max_delay_ns));
		printf("timers per fd    %u\n", in.max_timers_per_fd);
		printf("timers per user  %u\n", in.max_timers_per_user);
		printf("batch            %u operations\n", in.max_batch);
		printf("features        ");
		for (i = 0; i < sizeof(feats) / sizeof(feats[0]); i++)
			if (in.features & feats[i].bit)
				printf(" %s", feats[i].name);
		printf("\n\nLevel  Granularity   Range                    Slots used  Timers\n");
	}
	for (l = 0; l < in.levels; l++) {
		/* level L's slots are tick * slots^L long; it covers slots of them */
		double gran = (double)in.tick_ns, span;
		unsigned int k;
		uint64_t g, lo, hi;

		for (k = 0; k < l; k++)
			gran *= in.slots_per_level;
		span = gran * in.slots_per_level;
		uint64_t slots = 0, timers = 0;
		bool occ;
		char range[64];

		g = gran < 1.8e19 ? (uint64_t)gran : UINT64_MAX;
		lo = l ? g : 0;
		hi = span < 1.8e19 ? (uint64_t)span : UINT64_MAX;
		/* sysfs may be hidden (a container): the geometry still shows */
		occ = level_occupancy(l, &slots, &timers);

		if (json) {
			printf("%s{\"level\":%u,\"granularity_ns\":%llu,\"from_ns\":%llu,"
			       "\"to_ns\":%llu", l ? "," : "", l,
			       (unsigned long long)g, (unsigned long long)lo,
			       (unsigned long long)hi);
			if (occ)
				printf(",\"occupied_slots\":%llu,\"timers\":%llu",
				       (unsigned long long)slots,
				       (unsigned long long)timers);
			printf("}");
		} else {
			snprintf(range, sizeof(range), "%s - %s", dur(b, lo),
				 hi == UINT64_MAX ? "584 y" : dur(c, hi));
			printf("%3u    %-12s  %-24s", l, dur(a, g), range);
			if (occ)
				printf(" %10llu  %llu", (unsigned long long)slots,
				       (unsigned long long)timers);
			printf("\n");
		}
	}
	if (json)
		printf("]}\n");
}

/* after / at */

struct after_opts {
	uint64_t expires;
	uint64_t period;
	uint64_t slack;
	uint64_t count;
	clockid_t clock;
	unsigned int flags;
	const char *exec;
	int json;
};

static void run_exec(const char *cmd, const struct hwtimer_record *r)
{
	char id[16], late[24];
	pid_t pid;
	int status;

	snprintf(id, sizeof(id), "%u", r->id);
	snprintf(late, sizeof(late), "%llu",
		 (unsigned long long)(r->fired - r->deadline));
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		setenv("HWTIMER_ID", id, 1);
		setenv("HWTIMER_LATE_NS", late, 1);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

static int run_timer(const struct after_opts *o)
{
	struct hwtimer_op op = {
		.op = HWTIMER_OP_ADD, .flags = o->flags,
		.clockid = (uint32_t)o->clock, .expires = o->expires,
		.period = o->period, .slack = o->slack,
	};
	uint64_t fires = 0, limit = o->count ? o->count : (o->period ? 0 : 1);
	int fd = open_dev(), id;
	char a[32], b[32];

	catch_signals();
	id = hwtimer_submit_op(fd, &op);
	if (id == -ERANGE)
		die("the deadline is beyond the wheel's horizon: see 'hwtimerctl info' "
		    "for the longest delay");
	check(id, "HWTIMER_IOC_ADD");
	if (!o->json) {
		printf("timer %d armed on %s: %s%s\n", id, clock_name(op.clockid),
		       o->flags & HWTIMER_F_ABS ? "at " : "in ",
		       o->flags & HWTIMER_F_ABS ? "the given time" : dur(a, o->expires));
		fflush(stdout);
	}
	while (!stop && (!limit || fires < limit)) {
		struct hwtimer_record r;
		int n = hwtimer_read(fd, &r, 1);

		if (n == -EINTR)
			continue;
		check(n, "read");
		fires += 1 + r.overruns;
		if (o->json)
			printf("{\"id\":%u,\"gen\":%u,\"deadline_ns\":%llu,\"fired_ns\":%llu,"
			       "\"late_ns\":%llu,\"overruns\":%llu}\n", r.id, r.gen,
			       (unsigned long long)r.deadline,
			       (unsigned long long)r.fired,
			       (unsigned long long)(r.fired - r.deadline),
			       (unsigned long long)r.overruns);
		else
			printf("fired: timer %u, %s late%s%s\n", r.id,
			       dur(b, r.fired - r.deadline),
			       r.overruns ? ", overruns " : "",
			       r.overruns ? (snprintf(a, sizeof(a), "%llu",
						      (unsigned long long)r.overruns), a) : "");
		fflush(stdout);
		if (o->exec)
			run_exec(o->exec, &r);
	}
	close(fd);	/* cancels the timer if it is still armed */
	return exit_status();
}

static int cmd_after(int argc, char **argv, bool at)
{
	static const struct option longopts[] = {
		{ "every", required_argument, NULL, 'e' },
		{ "count", required_argument, NULL, 'n' },
		{ "fixed-delay", no_argument, NULL, 'D' },
		{ "slack", required_argument, NULL, 's' },
		{ "clock", required_argument, NULL, 'c' },
		{ "exec", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'J' },
		{ NULL, 0, NULL, 0 },
	};
	struct after_opts o = { .clock = CLOCK_MONOTONIC };
	bool clock_given = false;
	int c;

	while ((c = getopt_long(argc, argv, "+e:n:Ds:c:x:J", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			o.period = arg_duration("period", optarg);
			if (!o.period)
				usage_error("the period must be longer than 0");
			break;
		case 'n':
			o.count = arg_count("count", optarg, UINT64_MAX);
			break;
		case 'D':
			o.flags |= HWTIMER_F_FIXED_DELAY;
			break;
		case 's':
			o.slack = arg_duration("slack", optarg);
			break;
		case 'c':
			o.clock = arg_clock(optarg);
			clock_given = true;
			break;
		case 'x':
			o.exec = optarg;
			break;
		case 'J':
			o.json = 1;
			break;
		default:
			errtryhelp();
		}
	}
	if (optind + 1 != argc)
		usage_error(at ? "'at' takes one TIME (%s)" : "'after' takes one DURATION (%s)",
			    at ? TIME_FORMS : DURATION_FORMS);
	if ((o.flags & HWTIMER_F_FIXED_DELAY) && !o.period)
		usage_error("--fixed-delay needs --every PERIOD");
	if (o.count > 1 && !o.period)
		usage_error("--count above 1 needs --every PERIOD");
	if (at && clock_given)
		usage_error("'at' takes a wall-clock time, on the realtime clock: "
			    "drop --clock, or use 'after' for another clock");
	if (at) {
		int ret = parse_time(argv[optind], &o.expires);

		if (ret == -ERANGE)
			usage_error("time '%s' is out of range (before 1970 or after 2554)",
				    argv[optind]);
		if (ret)
			usage_error("invalid time '%s': expected %s", argv[optind], TIME_FORMS);
		o.clock = CLOCK_REALTIME;
		o.flags |= HWTIMER_F_ABS;
	} else {
		o.expires = arg_duration("duration", argv[optind]);
	}
	return run_timer(&o);
}

/* latency */

static void print_hist_json(const char *name, const struct hist *h)
{
	unsigned int b;

	printf("\"%s\":{\"count\":%llu,\"early\":%llu,\"max_ns\":%llu,"
	       "\"p50_ns\":%llu,\"p99_ns\":%llu,\"buckets\":[", name,
	       (unsigned long long)h->count, (unsigned long long)h->early,
	       (unsigned long long)h->max,
	       (unsigned long long)hist_percentile(h, 50),
	       (unsigned long long)hist_percentile(h, 99));
	for (b = 0; b < HIST_BUCKETS; b++)
		printf("%s%llu", b ? "," : "", (unsigned long long)h->bucket[b]);
	printf("]}");
}

/* the deadline of timer @i of @n, as latency spreads them from @start */
static uint64_t latency_deadline(uint64_t start, uint64_t delay,
				 uint64_t spread, uint64_t i, uint64_t n)
{
	/* spread evenly, in a scrambled order */
	return start + delay + (i * 7919 % n) * (spread / n);
}

/*
 * The same deadlines on timerfds, one each, waited for with epoll: what a
 * program would use instead, in the same run. Lateness as this reader saw
 * it goes into @h.
 */
static void latency_timerfd(uint64_t n, uint64_t delay, uint64_t spread,
			    struct hist *h)
{
	int ep = epoll_create1(EPOLL_CLOEXEC), *fds = calloc(n, sizeof(*fds));
	struct epoll_event evs[256];
	uint64_t i, got = 0, start;

	if (ep < 0 || !fds)
		die("timerfd comparison: %s", strerror(errno));
	for (i = 0; i < n; i++) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u64 = i };

		fds[i] = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		if (fds[i] < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &ev))
			die("timerfd comparison: %s", strerror(errno));
	}
	start = now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < n; i++) {
		uint64_t d = latency_deadline(start, delay, spread, i, n);
		struct itimerspec its = {
			.it_value = { .tv_sec = (time_t)(d / NSEC_PER_SEC),
				      .tv_nsec = (long)(d % NSEC_PER_SEC) },
		};

		if (timerfd_settime(fds[i], TFD_TIMER_ABSTIME, &its, NULL))
			die("timerfd_settime: %s", strerror(errno));
	}
	while (got < n && !stop) {
		int k = epoll_wait(ep, evs, 256, -1), j;
		uint64_t t = now_ns(CLOCK_MONOTONIC), ticks;

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			die("epoll_wait: %s", strerror(errno));
		for (j = 0; j < k; j++) {
			i = evs[j].data.u64;
			if (read(fds[i], &ticks, sizeof(ticks)) != sizeof(ticks))
				continue;
			hist_add(h, (int64_t)(t - latency_deadline(start, delay,
								   spread, i, n)));
			close(fds[i]);
			fds[i] = -1;
			got++;
		}
	}
	for (i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	close(ep);
}

/* --compare needs a descriptor per timer: raise the soft limit if need be */
static void latency_fd_room(uint64_t n)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		die("getrlimit: %s", strerror(errno));
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < n + 64) {
		rl.rlim_cur = rl.rlim_max == RLIM_INFINITY ||
			      rl.rlim_max >= n + 64 ? n + 64 : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < n + 64)
		usage_error("--compare needs one file descriptor per timer, and this "
			    "process may open %llu: use a --count of at most %llu, or "
			    "raise the limit (ulimit -n)", (unsigned long long)rl.rlim_cur,
			    (unsigned long long)(rl.rlim_cur > 64 ? rl.rlim_cur - 64 : 0));
}

static int cmd_latency(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'n' },
		{ "delay", required_argument, NULL, 'd' },
		{ "spread", required_argument, NULL, 's' },
		{ "plot", required_argument, NULL, 'p' },
		{ "slack", required_argument, NULL, 'S' },
		{ "compare", no_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'J' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t n = 1000, delay = 10 * NSEC_PER_MSEC, spread = 100 * NSEC_PER_MSEC;
	uint64_t i, got = 0, start, slack = 0;
	const char *plot = NULL;
	struct hist fire = { 0 }, wake = { 0 }, tfd = { 0 };
	struct hwtimer_record recs[256];
	struct hwtimer_info in;
	struct hwtimer_vec v;
	int c, json = 0, compare = 0, fd;
	char a[32], b[32], m[32];

	while ((c = getopt_long(argc, argv, "n:d:s:p:S:cJ", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			n = arg_count("count", optarg, 10000000);
			break;
		case 'd':
			delay = arg_duration("delay", optarg);
			break;
		case 's':
			spread = arg_duration("spread", optarg);
			break;
		case 'p':
			plot = optarg;
			break;
		case 'S':
			slack = arg_duration("slack", optarg);
			break;
		case 'c':
			compare = 1;
			break;
		case 'J':
			json = 1;
			break;
		default:
			errtryhelp();
		}
	}
	if (optind != argc)
		usage_error("'latency' takes no arguments");
	if (compare)
		latency_fd_room(n);

	fd = open_dev();
	check(hwtimer_info(fd, &in), "HWTIMER_IOC_INFO");
	if (n > in.max_timers_per_fd)
		usage_error("--count %llu is more than a file may hold (%u, the module's "
			    "max_timers_per_fd)", (unsigned long long)n, in.max_timers_per_fd);
	if (slack > in.max_delay_ns)
		usage_error("--slack %s is more than the longest the module takes (%s)",
			    dur(a, slack), dur(b, in.max_delay_ns));
	/* the file's default slack applies to every timer added below */
	if (slack)
		check(hwtimer_slack(fd, &slack, NULL), "HWTIMER_IOC_SLACK");
	catch_signals();
	check(hwtimer_vec_init(&v, 4096), "allocating a batch");
	start = now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < n;) {
		int ret;

		hwtimer_vec_reset(&v);
		for (; i < n && v.count < v.capacity; i++)
			hwtimer_vec_add(&v, CLOCK_MONOTONIC,
					latency_deadline(start, delay, spread, i, n),
					0, HWTIMER_F_ABS | HWTIMER_F_AUTOREMOVE, i);
		ret = hwtimer_vec_submit(fd, &v, HWTIMER_BATCH_STOP_ON_ERROR);
		check(ret, "HWTIMER_IOC_BATCH");
		/* every timer must be in, or the wait below never ends */
		if (ret < 1 || v.ops[ret - 1].result < 0)
			check(ret < 1 ? -EIO : v.ops[ret - 1].result, "adding timers");
		if ((uint32_t)ret < v.count)
			die("adding timers: the batch stopped after %d of %u", ret, v.count);
	}
	hwtimer_vec_free(&v);
	while (got < n && !stop) {
		int k = hwtimer_read(fd, recs, 256);
		uint64_t t;

		if (k == -EINTR)
			continue;
		check(k, "read");
		t = now_ns(CLOCK_MONOTONIC);
		for (c = 0; c < k; c++) {
			hist_add(&fire, (int64_t)(recs[c].fired - recs[c].deadline));
			hist_add(&wake, (int64_t)(t - recs[c].deadline));
		}
		got += (uint64_t)k;
	}
	close(fd);
	if (compare && !stop)
		latency_timerfd(n, delay, spread, &tfd);

	if (json) {
		printf("{\"timers\":%llu,\"delay_ns\":%llu,\"spread_ns\":%llu,"
		       "\"slack_ns\":%llu,", (unsigned long long)got,
		       (unsigned long long)delay, (unsigned long long)spread,
		       (unsigned long long)slack);
		print_hist_json("fire", &fire);
		printf(",");
		print_hist_json("wakeup", &wake);
		if (compare) {
			printf(",");
			print_hist_json("timerfd", &tfd);
		}
		printf("}\n");
	} else {
		printf("%llu timers, delays %s .. %s\n\n", (unsigned long long)got,
		       dur(a, delay), dur(b, delay + spread));
		hist_print(stdout, &fire, "lateness at expiry (kernel: fire time - deadline)");
		printf("  p50 <= %s, p99 <= %s, max %s\n\n",
		       dur(a, hist_percentile(&fire, 50)),
		       dur(b, hist_percentile(&fire, 99)), dur(m, fire.max));
		hist_print(stdout, &wake, "lateness seen by this reader (read() return - deadline)");
		printf("  p50 <= %s, p99 <= %s, max %s\n",
		       dur(a, hist_percentile(&wake, 50)),
		       dur(b, hist_percentile(&wake, 99)), dur(m, wake.max));
		if (compare && tfd.count) {
			printf("\n");
			hist_print(stdout, &tfd, "the same deadlines on timerfds, as this "
				   "reader saw them (epoll_wait() return - deadline)");
			printf("  p50 <= %s, p99 <= %s, max %s\n",
			       dur(a, hist_percentile(&tfd, 50)),
			       dur(b, hist_percentile(&tfd, 99)), dur(m, tfd.max));
			printf("\nhwtimer / timerfd, as this reader saw them: p50 %.2fx, "
			       "p99 %.2fx\n",
			       (double)hist_percentile(&wake, 50) /
			       (double)(hist_percentile(&tfd, 50) ?: 1),
			       (double)hist_percentile(&wake, 99) /
			       (double)(hist_percentile(&tfd, 99) ?: 1));
		}
	}
	if (plot) {
		int ret = hist_svg(plot, &fire, "hwtimer lateness at expiry");

		if (ret)
			die("cannot write %s: %s", plot, strerror(-ret));
		if (!json)
			printf("\nplot written to %s\n", plot);
	}
	if (fire.early || wake.early || tfd.early)
		die("%llu timers fired early: this is a bug, please report it",
		    (unsigned long long)(fire.early + wake.early + tfd.early));
	return exit_status();
}

/* bench */

static double bench_hwtimer_single(int fd, uint64_t n)
{
	uint64_t i, t0 = now_ns(CLOCK_MONOTONIC);

	for (i = 0; i < n; i++) {
		int id = hwtimer_add(fd, CLOCK_MONOTONIC, 3600 * NSEC_PER_SEC + i, 0, 0, 0);

		check(id, "HWTIMER_IOC_ADD");
		check(hwtimer_cancel(fd, (uint32_t)id), "HWTIMER_IOC_CANCEL");
	}
	return (double)(now_ns(CLOCK_MONOTONIC) - t0) / (double)n;
}

static double bench_hwtimer_batch(int fd, uint64_t n, uint32_t batch)
{
	struct hwtimer_vec v;
	uint64_t i, t0;

	check(hwtimer_vec_init(&v, batch), "allocating a batch");
	t0 = now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < n; i += batch) {
		uint32_t k;

		hwtimer_vec_reset(&v);
		for (k = 0; k < batch; k++)
			hwtimer_vec_add(&v, CLOCK_MONOTONIC, 3600 * NSEC_PER_SEC + k, 0, 0, 0);
		check(hwtimer_vec_submit(fd, &v, 0), "HWTIMER_IOC_BATCH");
		for (k = 0; k < batch; k++) {
			uint32_t id = v.ops[k].id;

			check(v.ops[k].result, "adding a timer");
			v.ops[k] = (struct hwtimer_op){
				.op = HWTIMER_OP_CANCEL, .id = id,
			};
		}
		check(hwtimer_vec_submit(fd, &v, 0), "HWTIMER_IOC_BATCH");
	}
	hwtimer_vec_free(&v);
	return (double)(now_ns(CLOCK_MONOTONIC) - t0) / (double)((n + batch - 1) / batch * batch);
}

static double bench_timerfd(uint64_t n)
{
	struct itimerspec its = { .it_value = { .tv_sec = 3600 } };
	uint64_t i, t0 = now_ns(CLOCK_MONOTONIC);

	for (i = 0; i < n; i++) {
		int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);

		if (tfd < 0 || timerfd_settime(tfd, 0, &its, NULL))
			die("timerfd: %s", strerror(errno));
		close(tfd);
	}
	return (double)(now_ns(CLOCK_MONOTONIC) - t0) / (double)n;
}

static double bench_timerfd_rearm(uint64_t n)
{
	struct itimerspec arm = { .it_value = { .tv_sec = 3600 } }, off = { 0 };
	int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	uint64_t i, t0;

	if (tfd < 0)
		die("timerfd_create: %s", strerror(errno));
	t0 = now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < n; i++)
		if (timerfd_settime(tfd, 0, &arm, NULL) ||
		    timerfd_settime(tfd, 0, &off, NULL))
			die("timerfd_settime: %s", strerror(errno));
	close(tfd);
	return (double)(now_ns(CLOCK_MONOTONIC) - t0) / (double)n;
}

static int cmd_bench(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'J' },
		{ NULL, 0, NULL, 0 },
	};
	struct {
		const char *name;
		double ns;
	} r[5];
	uint64_t n = 20000;
	int c, json = 0, fd;
	unsigned int i;

	while ((c = getopt_long(argc, argv, "n:J", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			n = arg_count("count", optarg, 100000000);
			break;
		case 'J':
			json = 1;
			break;
		default:
			errtryhelp();
		}
	}
	if (optind != argc)
		usage_error("'bench' takes no arguments");
	fd = open_dev();
	r[0].name = "timerfd create+settime+close";
	r[0].ns = bench_timerfd(n);
	r[1].name = "timerfd settime arm+disarm";
	r[1].ns = bench_timerfd_rearm(n);
	r[2].name = "hwtimer ADD+CANCEL, one ioctl each";
	r[2].ns = bench_hwtimer_single(fd, n);
	r[3].name = "hwtimer ADD+CANCEL, batches of 16";
	r[3].ns = bench_hwtimer_batch(fd, n, 16);
	r[4].name = "hwtimer ADD+CANCEL, batches of 256";
	r[4].ns = bench_hwtimer_batch(fd, n, 256);
	close(fd);

	if (json) {
		printf("{\"timers\":%llu,\"results\":[", (unsigned long long)n);
		for (i = 0; i < 5; i++)
			printf("%s{\"name\":\"%s\",\"ns_per_timer\":%.1f,"
			       "\"speedup_vs_timerfd\":%.2f}", i ? "," : "",
			       r[i].name, r[i].ns, r[0].ns / r[i].ns);
		printf("]}\n");
		return 0;
	}
	printf("arm + cancel of one timer, %llu timers each, on this machine:\n\n",
	       (unsigned long long)n);
	printf("%-38s %12s %10s\n", "method", "ns/timer", "vs timerfd");
	for (i = 0; i < 5; i++)
		printf("%-38s %12.1f %9.2fx\n", r[i].name, r[i].ns, r[0].ns / r[i].ns);
	printf("\nFor lateness, run 'hwtimerctl latency'. Inside a VM without KVM the\n"
	       "absolute figures are emulated; only the ratios mean something.\n");
	return 0;
}

/* stats and top: sysfs (global) and /proc/PID/fdinfo (per file) */

struct counter {
	char name[256];
	char value[1024];	/* lateness_hist: 32 numbers */
};

static int cmp_counter(const void *a, const void *b)
{
	return strcmp(((const struct counter *)a)->name,
		      ((const struct counter *)b)->name);
}

/* Read every file of a sysfs directory; returns how many, or -errno. */
static int read_dir(const char *path, struct counter *c, int max)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d)) && n < max) {
		char file[PATH_MAX];
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "%s/%s", path, e->d_name);
		f = fopen(file, "r");
		if (!f)
			continue;
		snprintf(c[n].name, sizeof(c[n].name), "%s", e->d_name);
		if (!fgets(c[n].value, sizeof(c[n].value), f))
			c[n].value[0] = 0;
		c[n].value[strcspn(c[n].value, "\n")] = 0;
		fclose(f);
		n++;
	}
	closedir(d);
	qsort(c, (size_t)n, sizeof(*c), cmp_counter);
	return n;
}

static void need_sysfs(int ret)
{
	if (ret == -ENOENT)
		die("%s/stats does not exist: the hwtimer kernel module is not loaded.\n"
		    "Load it with 'sudo modprobe hwtimer'.", SYSFS_DIR);
	if (ret < 0)
		die("cannot read %s/stats: %s", SYSFS_DIR, strerror(-ret));
}

/* The hwtimer files of every process whose fdinfo we may read. */
static void for_each_hwtimer_fd(void (*fn)(int pid, int fd, FILE *info, void *arg),
				void *arg)
{
	struct stat dev;
	DIR *proc = opendir("/proc");
	struct dirent *p;

	if (!proc || stat(HWTIMER_DEVICE, &dev))
		goto out;
	while ((p = readdir(proc))) {
		char path[PATH_MAX];
		struct dirent *f;
		DIR *fds;
		int pid = atoi(p->d_name);

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fd", pid);
		fds = opendir(path);
		if (!fds)
			continue;
		while ((f = readdir(fds))) {
			struct stat st;
			FILE *info;
			int fd = atoi(f->d_name);

			if (f->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, fd);
			if (stat(path, &st) || !S_ISCHR(st.st_mode) ||
			    st.st_rdev != dev.st_rdev)
				continue;
			snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", pid, fd);
			info = fopen(path, "r");
			if (!info)
				continue;
			fn(pid, fd, info, arg);
			fclose(info);
		}
		closedir(fds);
	}
out:
	if (proc)
		closedir(proc);
}

/* A number, a list of numbers (an array), or a string. */
static void print_json_value(const char *v)
{
	size_t len = strlen(v);
	const char *p;

	if (len && strspn(v, "0123456789") == len) {
		printf("%s", v);
	} else if (len && strspn(v, "0123456789 ") == len) {
		putchar('[');
		for (p = v; *p; p++)
			putchar(*p == ' ' ? ',' : *p);
		putchar(']');
	} else {
		putchar('"');
		for (p = v; *p; p++) {
			if (*p == '"' || *p == '\\')
				putchar('\\');
			if ((unsigned char)*p >= 0x20)
				putchar(*p);
		}
		putchar('"');
	}
}

static bool fdinfo_generic(const char *key)
{
	return !strcmp(key, "pos") || !strcmp(key, "flags") ||
	       !strcmp(key, "mnt_id") || !strcmp(key, "ino");
}

static void print_fdinfo(int pid, int fd, FILE *info, void *arg)
{
	int *json = arg, first = 1;
	char line[512];

	if (*json > 0)
		printf("%s{\"pid\":%d,\"fd\":%d", *json > 1 ? "," : "", pid, fd);
	else
		printf("\npid %d fd %d:", pid, fd);
	while (fgets(line, sizeof(line), info)) {
		char *colon = strchr(line, ':'), *v;

		if (!colon)
			continue;
		*colon = 0;
		v = colon + 1 + strspn(colon + 1, " \t");
		v[strcspn(v, "\n")] = 0;
		if (fdinfo_generic(line))
			continue;
		if (*json > 0) {
			printf(",\"%s\":", line);
			print_json_value(v);
		} else
			printf("%s %s=%s", first ? "" : ",", line, v);
		first = 0;
	}
	if (*json > 0) {
		printf("}");
		*json = 2;
	} else {
		printf("\n");
	}
}

static int cmd_stats(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ NULL, 0, NULL, 0 },
	};
	struct counter c[64];
	int i, n, ch, json = 0;

	while ((ch = getopt_long(argc, argv, "J", longopts, NULL)) != -1) {
		if (ch != 'J')
			errtryhelp();
		json = 1;
	}
	if (optind != argc)
		usage_error("'stats' takes no arguments");
	n = read_dir(SYSFS_DIR "/stats", c, 64);
	need_sysfs(n);
	if (json) {
		printf("{\"global\":{");
		for (i = 0; i < n; i++) {
			printf("%s\"%s\":", i ? "," : "", c[i].name);
			print_json_value(c[i].value);
		}
		printf("},\"files\":[");
		for_each_hwtimer_fd(print_fdinfo, &json);
		printf("]}\n");
		return 0;
	}
	printf("global counters (%s/stats):\n", SYSFS_DIR);
	for (i = 0; i < n; i++)
		printf("  %-20s %s\n", c[i].name, c[i].value);
	printf("\nopen files (those whose /proc/PID/fdinfo this user may read):");
	for_each_hwtimer_fd(print_fdinfo, &json);
	printf("\n");
	return 0;
}

static int cmd_top(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "delay", required_argument, NULL, 'd' },
		{ "iterations", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	struct counter prev[64], cur[64];
	uint64_t delay = NSEC_PER_SEC, iters = 0, it;
	int i, n, np = 0, ch;

	while ((ch = getopt_long(argc, argv, "d:n:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'd':
			delay = arg_duration("delay", optarg);
			if (delay < 10 * NSEC_PER_MSEC)
				usage_error("--delay must be at least 10ms");
			break;
		case 'n':
			iters = arg_count("iterations", optarg, UINT64_MAX);
			break;
		default:
			errtryhelp();
		}
	}
	if (optind != argc)
		usage_error("'top' takes no arguments");
	catch_signals();
	for (it = 0; !stop && (!iters || it < iters); it++) {
		uint64_t levels = 0, parked = 0, total = 0, busiest, l;
		uint64_t slots[16], timers[16];

		n = read_dir(SYSFS_DIR "/stats", cur, 64);
		need_sysfs(n);
		sysfs_u64("wheel/levels", &levels);
		sysfs_u64("wheel/parked", &parked);
		sysfs_u64("wheel/timers", &total);
		if (isatty(STDOUT_FILENO))
			printf("\033[H\033[2J");
		printf("hwtimer top, every %.3g s (^C to quit)\n\n", (double)delay / 1e9);
		printf("%llu timers pending on every wheel, %llu parked beyond the horizon\n\n",
		       (unsigned long long)total, (unsigned long long)parked);
		printf("level  granularity   slots used  timers\n");
		if (levels > 16)
			levels = 16;
		for (l = 0, busiest = 1; l < levels; l++) {
			if (!level_occupancy((unsigned int)l, &slots[l], &timers[l]))
				slots[l] = timers[l] = 0;
			if (timers[l] > busiest)
				busiest = timers[l];
		}
		for (l = 0; l < levels; l++) {
			uint64_t g = 0;
			char name[64], a[32];

			snprintf(name, sizeof(name), "level%llu/granularity_ns",
				 (unsigned long long)l);
			sysfs_u64(name, &g);
			printf("%5llu  %-12s  %10llu  %6llu  |%.*s\n",
			       (unsigned long long)l, dur(a, g),
			       (unsigned long long)slots[l], (unsigned long long)timers[l],
			       (int)(timers[l] * 40 / busiest),
			       "########################################");
		}
		printf("\n");
		printf("%-20s %20s %14s\n", "counter", "value", "per second");
		for (i = 0; i < n; i++) {
			unsigned long long v = strtoull(cur[i].value, NULL, 10), pv = 0;
			int j;

			if (strchr(cur[i].value, ' '))
				continue;
			for (j = 0; j < np; j++)
				if (!strcmp(prev[j].name, cur[i].name))
					pv = strtoull(prev[j].value, NULL, 10);
			printf("%-20s %20llu %14.1f\n", cur[i].name, v,
			       it ? (double)(v - pv) * 1e9 / (double)delay : 0.0);
		}
		fflush(stdout);
		memcpy(prev, cur, sizeof(cur));
		np = n;
		if (!iters || it + 1 < iters) {
			struct timespec ts = {
				.tv_sec = (time_t)(delay / NSEC_PER_SEC),
				.tv_nsec = (long)(delay % NSEC_PER_SEC),
			};

			nanosleep(&ts, NULL);
		}
	}
	return exit_status();
}

/* main */

static void __attribute__((noreturn)) usage(void)
{
	printf("Usage:\n"
	       " %s [options] <command> [command options]\n\n"
	       "Schedule timers on /dev/hwtimer, measure them, and look inside\n"
	       "the hwtimer kernel module.\n\n"
	       "Commands:\n"
	       " after DURATION    arm a timer, wait for it and print its lateness\n"
	       "   -e, --every PERIOD   periodic: fire every PERIOD (fixed rate)\n"
	       "   -D, --fixed-delay    period counts from each fire, not the grid\n"
	       "   -n, --count N        stop after N expiries (overruns included)\n"
	       "   -s, --slack DURATION may fire up to DURATION late, to share wakeups\n"
	       "   -c, --clock CLOCK    monotonic (default), boottime or realtime\n"
	       "   -x, --exec CMD       run CMD with sh -c at each fire\n"
	       "   -J, --json           one JSON object per fire\n"
	       " at TIME           like after, at a wall-clock time (ISO 8601),\n"
	       "                   on the realtime clock; takes the same options\n"
	       "                   but --clock\n"
	       " latency           many timers, then a lateness histogram\n"
	       "   -n, --count N        timers (default 1000)\n"
	       "   -d, --delay D        shortest delay (default 10ms)\n"
	       "   -s, --spread D       delays spread over D (default 100ms)\n"
	       "   -p, --plot FILE      write the histogram as SVG\n"
	       "   -S, --slack D        let each timer fire up to D late, to share\n"
	       "                        wakeups (default 0: at its deadline)\n"
	       "   -c, --compare        the same deadlines on timerfds, same run\n"
	       "   -J, --json           JSON output\n"
	       " bench             arm+cancel cost against timerfd on this machine\n"
	       "   -n, --count N        timers per method (default 20000)\n"
	       "   -J, --json           JSON output\n"
	       " info              module version, tick, geometry table, limits\n"
	       "   -J, --json           JSON output\n"
	       " stats             global and per-file counters\n"
	       "   -J, --json           JSON output\n"
	       " top               live wheel occupancy and counters\n"
	       "   -d, --delay D        refresh interval (default 1s)\n"
	       "   -n, --iterations N   stop after N screens\n\n"
	       "Options:\n"
	       " -h, --help        display this help\n"
	       " -V, --version     display version\n\n"
	       "Durations: %s.\n"
	       "Times: %s.\n\n"
	       "For more details see hwtimerctl(1).\n",
	       prog, DURATION_FORMS, TIME_FORMS);
	exit(EXIT_SUCCESS);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd;
	int c, json = 0;

	atexit(close_stdout);
	while ((c = getopt_long(argc, argv, "+hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage();
		case 'V':
			printf("%s from hwtimer %s\n", prog, LIBHWTIMER_VERSION);
			return 0;
		default:
			errtryhelp();
		}
	}
	if (optind >= argc)
		usage_error("no command given");
	cmd = argv[optind];
	/* each command parses its own options from its own argv */
	argc -= optind;
	argv += optind;
	optind = 1;

	if (!strcmp(cmd, "after"))
		return cmd_after(argc, argv, false);
	if (!strcmp(cmd, "at"))
		return cmd_after(argc, argv, true);
	if (!strcmp(cmd, "latency"))
		return cmd_latency(argc, argv);
	if (!strcmp(cmd, "bench"))
		return cmd_bench(argc, argv);
	if (!strcmp(cmd, "stats"))
		return cmd_stats(argc, argv);
	if (!strcmp(cmd, "top"))
		return cmd_top(argc, argv);
	if (!strcmp(cmd, "info")) {
		static const struct option o[] = {
			{ "json", no_argument, NULL, 'J' }, { NULL, 0, NULL, 0 },
		};

		while ((c = getopt_long(argc, argv, "J", o, NULL)) != -1) {
			if (c != 'J')
				errtryhelp();
			json = 1;
		}
		if (optind != argc)
			usage_error("'info' takes no arguments");
		cmd_info(json);
		return 0;
	}
	usage_error("unknown command '%s'", cmd);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl info, stats and top: the module's geometry and limits, its
 * counters (sysfs, global; /proc/PID/fdinfo, per file) and live occupancy.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* info */

/*
 * The name of HWTIMER_FEAT_ bit @bit, or "bit-N" for one this hwtimerctl
 * does not know (a newer module's): cli_test fails on such a name, so
 * that every bit the uapi defines gets one here.
 */
static const char *feature_name(unsigned int bit, char *buf, size_t len)
{
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
		{ HWTIMER_FEAT_GEN, "generation-check" },
		{ HWTIMER_FEAT_RECORD_SIZE, "record-size" },
		{ HWTIMER_FEAT_RING, "ring" },
		{ HWTIMER_FEAT_URING_CMD, "io_uring-commands" },
		{ HWTIMER_FEAT_URING_BATCH, "io_uring-batch" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(feats) / sizeof(feats[0]); i++)
		if (feats[i].bit == 1ULL << bit)
			return feats[i].name;
	snprintf(buf, len, "bit-%u", bit);
	return buf;
}

int cmd_info(int argc, char **argv)
{
	struct hwtimer_info in;
	char version[64] = "unknown", a[32], b[32], c[32], err[ARGS_ERR_LEN];
	FILE *f;
	unsigned int l, i;
	bool json;
	int fd;

	cmd_args(json_args(argc, argv, &json, err, sizeof(err)), err);
	fd = open_dev();

	check(hwtimer_info(fd, &in), "HWTIMER_IOC_INFO");
	close(fd);
	f = fopen("/sys/module/hwtimer/version", "r");
	if (f) {
		if (fgets(version, sizeof(version), f))
			version[strcspn(version, "\n")] = 0;
		fclose(f);
	}

	if (json) {
		/* ns that may pass 2^53 as strings, as doubles would round them */
		json_begin();
		printf(",\"module_version\":\"%s\",\"api_version\":%u,\"tick_ns\":%llu,"
		       "\"levels\":%u,\"slots_per_level\":%u,\"max_delay_ns\":\"%llu\","
		       "\"record_size\":%u,\"max_timers_per_fd\":%u,"
		       "\"max_timers_per_user\":%u,\"max_files_per_user\":%u,"
		       "\"max_batch\":%u,\"features\":[",
		       version, in.api_version, (unsigned long long)in.tick_ns,
		       in.levels, in.slots_per_level,
		       (unsigned long long)in.max_delay_ns, in.record_size,
		       in.max_timers_per_fd, in.max_timers_per_user,
		       in.max_files_per_user, in.max_batch);
		for (i = 0, l = 0; i < 64; i++)
			if (in.features & (1ULL << i))
				printf("%s\"%s\"", l++ ? "," : "",
				       feature_name(i, a, sizeof(a)));
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
		printf("files per user   %u\n", in.max_files_per_user);
		printf("batch            %u operations\n", in.max_batch);
		printf("features        ");
		for (i = 0; i < 64; i++)
			if (in.features & (1ULL << i))
				printf(" %s", feature_name(i, a, sizeof(a)));
		printf("\n\nLevel  Granularity   Range                    Slots used  Timers\n");
	}
	for (l = 0; l < in.levels; l++) {
		/*
		 * level L's slots are tick << (L * level_shift) long, and it
		 * holds keys from two of them ahead to slots_per_level ahead;
		 * a module older than level_shift had 64 slots a level apart
		 */
		unsigned int step = in.level_shift ? 1U << in.level_shift :
				    in.slots_per_level;
		double gran = (double)in.tick_ns, span;
		unsigned int k;
		uint64_t g, lo, hi;

		for (k = 0; k < l; k++)
			gran *= step;
		span = gran * in.slots_per_level;
		uint64_t slots = 0, timers = 0;
		bool occ;
		char range[64];

		g = gran < 1.8e19 ? (uint64_t)gran : UINT64_MAX;
		lo = !l ? 0 : in.level_shift ? 2 * g : g;
		hi = span < 1.8e19 ? (uint64_t)span : UINT64_MAX;
		/* sysfs may be hidden (a container): the geometry still shows */
		occ = level_occupancy(l, &slots, &timers);

		if (json) {
			printf("%s{\"level\":%u,\"granularity_ns\":\"%llu\",\"from_ns\":\"%llu\","
			       "\"to_ns\":\"%llu\"", l ? "," : "", l,
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

int cmd_stats(int argc, char **argv)
{
	struct counter c[64];
	char err[ARGS_ERR_LEN];
	bool json_opt;
	int i, n, json;

	cmd_args(json_args(argc, argv, &json_opt, err, sizeof(err)), err);
	json = json_opt;
	n = read_dir(SYSFS_DIR "/stats", c, 64);
	need_sysfs(n);
	if (json) {
		json_begin();
		printf(",\"global\":{");
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

int cmd_top(int argc, char **argv)
{
	struct counter prev[64], cur[64];
	struct top_opts o;
	char err[ARGS_ERR_LEN];
	uint64_t delay, iters, it;
	int i, n, np = 0;

	cmd_args(top_args(argc, argv, &o, err, sizeof(err)), err);
	delay = o.delay;
	iters = o.iterations;
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

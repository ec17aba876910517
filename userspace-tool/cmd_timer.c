// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl after / at: arm one timer (or a periodic one), wait for it, and
 * print its lateness, or run a command at each fire.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli.h"

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
		.op = HWTIMER_OP_ADD,
		.flags = o->flags | (o->clock == CLOCK_REALTIME ? HWTIMER_F_REALTIME : 0),
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

int cmd_after(int argc, char **argv, bool at)
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

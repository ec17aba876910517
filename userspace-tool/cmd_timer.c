// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimerctl after / at: arm one timer (or a periodic one), wait for it, and
 * print its lateness, or run a command at each fire.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli.h"

/* after / at */

static void run_exec(const char *cmd, const struct hwtimer_record *r)
{
	char id[16], late[24];
	pid_t pid;
	int status;

	snprintf(id, sizeof(id), "%u", r->id);
	snprintf(late, sizeof(late), "%lld", (long long)(r->fired - r->deadline));
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

/* one expiry, as text or JSON; returns whether it came early (a bug) */
static bool print_record(const struct hwtimer_record *r, bool json)
{
	bool early = r->fired < r->deadline;
	char a[32];

	if (json) {
		/* timestamps as strings: realtime ns pass 2^53, where doubles round */
		json_begin();
		printf(",\"id\":%u,\"gen\":%u,\"deadline_ns\":\"%llu\",\"fired_ns\":\"%llu\","
		       "\"late_ns\":%lld,\"overruns\":%llu}\n", r->id, r->gen,
		       (unsigned long long)r->deadline, (unsigned long long)r->fired,
		       (long long)(r->fired - r->deadline), (unsigned long long)r->overruns);
	} else {
		printf("fired: timer %u, %s %s", r->id,
		       dur(a, early ? r->deadline - r->fired : r->fired - r->deadline),
		       early ? "EARLY" : "late");
		if (r->overruns)
			printf(", overruns %llu", (unsigned long long)r->overruns);
		printf("\n");
	}
	fflush(stdout);
	return early;
}

static int run_timer(const struct after_opts *o)
{
	struct hwtimer_op op = {
		.op = HWTIMER_OP_ADD,
		.flags = (o->absolute ? HWTIMER_F_ABS : 0) |
			 (o->fixed_delay ? HWTIMER_F_FIXED_DELAY : 0) |
			 (o->clock == CLOCK_REALTIME ? HWTIMER_F_REALTIME : 0),
		.clockid = (uint32_t)o->clock, .expires = o->expires,
		.period = o->period, .slack = o->slack,
	};
	uint64_t fires = 0, early = 0, limit = o->count ? o->count : (o->period ? 0 : 1);
	int fd = open_dev(), id;
	char a[32];

	catch_signals();
	id = hwtimer_submit_op(fd, &op);
	if (id == -ERANGE)
		usage_error("the deadline is beyond the wheel's horizon: see 'hwtimerctl info' "
			    "for the longest delay");
	check(id, "HWTIMER_IOC_ADD");
	if (!o->json) {
		printf("timer %d armed on %s: %s%s\n", id, clock_name(op.clockid),
		       o->absolute ? "at " : "in ",
		       o->absolute ? "the given time" : dur(a, o->expires));
		fflush(stdout);
	}
	while (!stop && (!limit || fires < limit)) {
		struct hwtimer_record r;
		int n = hwtimer_read(fd, &r, 1);

		if (n == -EINTR)
			continue;
		check(n, "read");
		fires += 1 + r.overruns;
		early += print_record(&r, o->json);
		if (o->exec)
			run_exec(o->exec, &r);
	}
	close(fd);	/* cancels the timer if it is still armed */
	if (early) {
		fprintf(stderr, "%s: %llu expiries came before their deadline: this is a "
			"bug, please report it\n", prog, (unsigned long long)early);
		return EXIT_EARLY;
	}
	return exit_status();
}

int cmd_after(int argc, char **argv)
{
	struct after_opts o;
	char err[ARGS_ERR_LEN];

	cmd_args(after_args(argc, argv, &o, err, sizeof(err)), err);
	return run_timer(&o);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the suites that run cases as ordinary users share (unpriv_test,
 * budget_test): two unprivileged uids, a way to run a function as one of
 * them in a child, whose exit status says how it went, and one in which
 * the child has root set max_timers_per_user as it goes. Include it after
 * helpers.h.
 */
#ifndef _HWT_AS_USER_H
#define _HWT_AS_USER_H

#include <grp.h>
#include <sys/wait.h>

#define UID_A	1000
#define UID_B	1001

static inline int become(uid_t uid)
{
	return setgroups(0, NULL) || setresgid(uid, uid, uid) || setresuid(uid, uid, uid);
}

/* Run @fn as @uid in a child; its exit status (0 is success). */
static inline int as_user(uid_t uid, int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid)
		_exit(become(uid) ? 100 : fn(arg));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * What the child of a case needs to set max_timers_per_user as it goes:
 * pipes to its parent, root, which sets it (serve_limit()). A sysctl (the
 * in-tree build's limit) checks its writer at every write, so root's
 * descriptor would not do.
 */
struct limit_chan {
	int req;
	int ack;
};

static inline int set_limit(const struct limit_chan *ch, unsigned long long v)
{
	int ret;

	if (write(ch->req, &v, sizeof(v)) != sizeof(v) ||
	    read(ch->ack, &ret, sizeof(ret)) != sizeof(ret))
		return -1;
	return ret;
}

/*
 * Run @fn as user A in a child, setting max_timers_per_user as @fn asks
 * (set_limit()): what @fn returns, or -1 if the child could not be run.
 */
static inline int as_user_with_limit(int (*fn)(void *))
{
	int req[2], ack[2], status, ret;
	unsigned long long v;
	pid_t pid;

	if (pipe2(req, O_CLOEXEC))
		return -1;
	if (pipe2(ack, O_CLOEXEC)) {
		close(req[0]);
		close(req[1]);
		return -1;
	}
	pid = fork();
	if (!pid) {
		struct limit_chan ch = { .req = req[1], .ack = ack[0] };

		close(req[0]);
		close(ack[1]);
		_exit(become(UID_A) ? 100 : fn(&ch));
	}
	close(req[1]);
	close(ack[0]);
	/* until the child is done: its end of @req closes then */
	while (pid > 0 && read(req[0], &v, sizeof(v)) == sizeof(v)) {
		ret = t_param_set("max_timers_per_user", v) == -1 ? -1 : 0;
		if (write(ack[1], &ret, sizeof(ret)) != sizeof(ret))
			break;
	}
	close(req[0]);
	close(ack[1]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

#endif /* _HWT_AS_USER_H */

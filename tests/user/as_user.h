/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the suites that run cases as ordinary users share (unpriv_test,
 * budget_test): two unprivileged uids, and a way to run a function as one
 * of them in a child, whose exit status says how it went. Include it after
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

#endif /* _HWT_AS_USER_H */

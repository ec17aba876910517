/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Without the module there is nothing to test: a test that needs
 * /dev/hwtimer starts with HWT_NEED_DEVICE(), first thing in a fixture's
 * setup or a TEST, and is reported as skipped, as kselftests are when what
 * they test is not there, rather than failed. A device that is there but
 * cannot be opened still fails the test. Include it after
 * kselftest_harness.h.
 */
#ifndef _HWT_NEED_DEVICE_H
#define _HWT_NEED_DEVICE_H

#include <errno.h>
#include <unistd.h>

#define HWT_DEVICE_PATH	"/dev/hwtimer"

#define HWT_NEED_DEVICE()						\
	do {								\
		if (access(HWT_DEVICE_PATH, F_OK) && errno == ENOENT)	\
			SKIP(return, HWT_DEVICE_PATH " is absent: "	\
			     "the hwtimer module is not loaded");	\
	} while (0)

#endif /* _HWT_NEED_DEVICE_H */

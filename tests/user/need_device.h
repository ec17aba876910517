/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Without the module there is nothing to test: a test that needs
 * /dev/hwtimer starts, first thing in a fixture's setup or a TEST, with
 *
 *	if (!hwt_device_present())
 *		SKIP(return, HWT_NO_DEVICE);
 *
 * and is reported as skipped, as kselftests are when what they test is not
 * there, rather than failed. A device that is there but cannot be opened
 * still fails the test.
 */
#ifndef _HWT_NEED_DEVICE_H
#define _HWT_NEED_DEVICE_H

#include <errno.h>
#include <stdbool.h>
#include <unistd.h>

#define HWT_DEVICE_PATH	"/dev/hwtimer"
#define HWT_NO_DEVICE	HWT_DEVICE_PATH " is absent: the hwtimer module is not loaded"

static inline bool hwt_device_present(void)
{
	return !access(HWT_DEVICE_PATH, F_OK) || errno != ENOENT;
}

#endif /* _HWT_NEED_DEVICE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/bug.h>. A warning is a bug in the core, so
 * natively it aborts: the unit tests and the fuzzer then see it at once.
 */
#ifndef _HWT_SHIM_BUG_H
#define _HWT_SHIM_BUG_H

#include <stdio.h>
#include <stdlib.h>

#define WARN_ON_ONCE(cond) ({						\
	int __c = !!(cond);						\
	if (__c) {							\
		fprintf(stderr, "WARNING: %s:%d: %s\n", __FILE__,	\
			__LINE__, #cond);				\
		abort();						\
	}								\
	__c;								\
})
#define WARN_ON(cond) WARN_ON_ONCE(cond)

#endif

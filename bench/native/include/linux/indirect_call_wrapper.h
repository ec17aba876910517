/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench/op_bench.c's stand-in for <linux/indirect_call_wrapper.h>: the
 * kernel's, as built with retpolines (CONFIG_MITIGATION_RETPOLINE), where
 * a likely target is compared for and called directly.
 */
#ifndef _KSHIM_INDIRECT_CALL_WRAPPER_H
#define _KSHIM_INDIRECT_CALL_WRAPPER_H
#include "kshim/core.h"
#define INDIRECT_CALL_1(f, f1, ...)					\
	({ likely(f == f1) ? f1(__VA_ARGS__) : f(__VA_ARGS__); })
#define INDIRECT_CALL_2(f, f2, f1, ...)					\
	({ likely(f == f2) ? f2(__VA_ARGS__) :				\
			     INDIRECT_CALL_1(f, f1, __VA_ARGS__); })
#define INDIRECT_CALL_3(f, f3, f2, f1, ...)				\
	({ likely(f == f3) ? f3(__VA_ARGS__) :				\
			     INDIRECT_CALL_2(f, f2, f1, __VA_ARGS__); })
#endif

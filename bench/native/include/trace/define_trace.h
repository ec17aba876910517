/* SPDX-License-Identifier: GPL-2.0 */
/* bench/op_bench.c's stand-in for <trace/define_trace.h>: see bench/native/README. */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwtimerctl's shared helpers (cli.c) and its commands, one file per group:
 * cmd_timer.c (after, at), cmd_latency.c (latency), cmd_bench.c (bench),
 * cmd_observe.c (info, stats, top); hwtimerctl.c has usage and main.
 */
#ifndef HWTIMERCTL_CLI_H
#define HWTIMERCTL_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "hist.h"
#include "libhwtimer.h"
#include "parse.h"

#define SYSFS_DIR	"/sys/class/misc/hwtimer"

extern const char *prog;
extern volatile sig_atomic_t stop;	/* the signal that asked us to stop */

void close_stdout(void);
void __attribute__((format(printf, 1, 2), noreturn)) die(const char *fmt, ...);
void __attribute__((noreturn)) errtryhelp(void);
void __attribute__((format(printf, 1, 2), noreturn)) usage_error(const char *fmt, ...);
int exit_status(void);
void catch_signals(void);
uint64_t now_ns(clockid_t clk);
int open_dev(void);
void check(int ret, const char *what);
uint64_t arg_duration(const char *opt, const char *s);
uint64_t arg_count(const char *opt, const char *s, uint64_t max);
clockid_t arg_clock(const char *s);
const char *clock_name(uint32_t clk);
char *dur(char *buf, uint64_t ns);
bool sysfs_u64(const char *name, uint64_t *v);
bool level_occupancy(unsigned int l, uint64_t *slots, uint64_t *timers);

void cmd_info(int json);
int cmd_after(int argc, char **argv, bool at);
int cmd_latency(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_top(int argc, char **argv);

#endif /* HWTIMERCTL_CLI_H */

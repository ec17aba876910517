/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwtimerctl's shared helpers (cli.c) and its commands, one file per group:
 * cmd_timer.c (after, at), cmd_latency.c and latency_*.c (latency),
 * cmd_bench.c (bench), cmd_observe.c (info, stats, top); hwtimerctl.c has
 * main, args.c and usage.c the command lines.
 */
#ifndef HWTIMERCTL_CLI_H
#define HWTIMERCTL_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "args.h"
#include "hist.h"
#include "libhwtimer.h"
#include "parse.h"

#define SYSFS_DIR	"/sys/class/misc/hwtimer"

/* what --version and every JSON object's "version" say */
#define HWTIMERCTL_VERSION	LIBHWTIMER_VERSION

/* exit codes besides EXIT_SUCCESS and EXIT_FAILURE; hwtimerctl(1) lists them */
#define EXIT_USAGE	2	/* a bad command line */
#define EXIT_EARLY	3	/* a timer fired before its deadline */

extern const char *prog;
extern const char *cmd_name;		/* the command running, for messages */
extern volatile sig_atomic_t stop;	/* the signal that asked us to stop */

void close_stdout(void);
void __attribute__((format(printf, 1, 2), noreturn)) die(const char *fmt, ...);
void __attribute__((format(printf, 1, 2), noreturn)) usage_error(const char *fmt, ...);
void cmd_args(int ret, const char *err);
void print_version(void);
int exit_status(void);
void catch_signals(void);
uint64_t now_ns(clockid_t clk);
int open_dev(void);
void check(int ret, const char *what);
const char *clock_name(uint32_t clk);
char *dur(char *buf, uint64_t ns);
void json_begin(void);
void json_string(const char *s);
bool sysfs_u64(const char *name, uint64_t *v);
bool level_occupancy(unsigned int l, uint64_t *slots, uint64_t *timers);

/**
 * struct progress - a progress line on stderr, for runs longer than a second
 * @what: what runs, the line's start
 * @total: the steps of the run; 0 if not known
 * @start: when it started (CLOCK_MONOTONIC, ns)
 * @last: when the line was last drawn
 * @on: stderr is a terminal, and no --quiet
 * @shown: the line is on the screen
 */
struct progress {
	const char *what;
	uint64_t total;
	uint64_t start;
	uint64_t last;
	bool on;
	bool shown;
};

void progress_start(struct progress *p, const char *what, uint64_t total, bool quiet);
void progress_update(struct progress *p, uint64_t done);
void progress_end(struct progress *p);

int cmd_info(int argc, char **argv);
int cmd_after(int argc, char **argv);
int cmd_latency(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_top(int argc, char **argv);

#endif /* HWTIMERCTL_CLI_H */

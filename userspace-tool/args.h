/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwtimerctl: each command's options and arguments, parsed into a struct.
 * Nothing here opens the device, prints or exits, so that the host tests
 * run it: a parser returns ARGS_RUN, ARGS_HELP or ARGS_VERSION, or
 * ARGS_BAD with a sentence in @err. Options may come anywhere after the
 * command, before or after its arguments (GNU getopt's permutation, even
 * under POSIXLY_CORRECT); "--" ends them. usage.c has the help texts.
 */
#ifndef HWTCTL_ARGS_H
#define HWTCTL_ARGS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "parse.h"

#define ARGS_ERR_LEN	512

enum args_status {
	ARGS_BAD = -1,		/* @err says what was wrong */
	ARGS_RUN = 0,
	ARGS_HELP,		/* -h, --help: print the command's help */
	ARGS_VERSION,		/* -V, --version */
};

struct after_opts {
	uint64_t expires;	/* the delay, or for 'at' the realtime deadline */
	uint64_t period;	/* 0: one-shot */
	uint64_t slack;
	uint64_t count;		/* expiries to wait for; 0: once, or until stopped */
	clockid_t clock;
	bool absolute;		/* 'at' */
	bool fixed_delay;
	bool json;
	const char *exec;	/* a shell command line, or NULL */
};

#define LAT_MAX_TIMERS		10000000ULL	/* one-shot mode's --count */
#define LAT_MAX_SAMPLES		100000000ULL	/* samples kept per series */
#define LAT_DEFAULT_INTERVAL	NSEC_PER_MSEC	/* cyclictest's */
#define LAT_MAX_BUCKETS		1000000U	/* --histogram, cyclictest's HIST_MAX */

struct latency_opts {
	bool periodic;		/* -i, -l or -D given */
	/* the one-shot mode */
	uint64_t count;
	uint64_t delay;
	uint64_t spread;
	uint32_t ring;		/* --ring's entries; 0: read() */
	/* the periodic mode */
	uint64_t interval;
	uint64_t loops;		/* 0: not given */
	uint64_t duration;	/* 0: not given */
	uint64_t expiries;	/* what the run measures; 0: until stopped */
	/* both */
	uint64_t slack;
	int priority;		/* SCHED_FIFO priority; 0: the scheduling as started */
	bool affinity;
	cpu_set_t cpus;		/* with @affinity */
	const char *cpulist;	/* @cpus as given */
	bool mlock;
	bool compare;
	bool json;
	bool quiet;
	const char *plot;
	const char *histfile;
	const char *compare_histfile;
	uint32_t hist_buckets;	/* --histogram; 0: not given */
};

struct bench_opts {
	uint64_t count;
	bool json;
	bool quiet;
};

struct top_opts {
	uint64_t delay;
	uint64_t iterations;	/* 0: until stopped */
};

/* argv[0] is the command's name; its options and arguments follow */
int after_args(int argc, char **argv, struct after_opts *o, char *err, size_t len);
int latency_args(int argc, char **argv, struct latency_opts *o, char *err, size_t len);
int bench_args(int argc, char **argv, struct bench_opts *o, char *err, size_t len);
int top_args(int argc, char **argv, struct top_opts *o, char *err, size_t len);
int json_args(int argc, char **argv, bool *json, char *err, size_t len);

const struct option *args_longopts(const char *cmd);
extern const char *const args_commands[];

/* usage.c */
void usage_main(FILE *f);
int usage_command(FILE *f, const char *cmd);

#endif /* HWTCTL_ARGS_H */

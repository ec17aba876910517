/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What cli_test and cli_latency_test share: hwtimerctl run from a shell,
 * its output and exit status collected; a strict JSON validator and
 * lookups into JSON text; files. Include it after kselftest_harness.h.
 */
#ifndef _HWT_CLI_RUN_H
#define _HWT_CLI_RUN_H

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "libhwtimer.h"
#include "need_device.h"

#define CTL	"hwtimerctl"

/*
 * A shell command line for run(): @cmd in the background, sent signal @sig
 * once its output has a line matching @pat (after 60 s at most, on a host
 * that stalls the guest), not after a fixed time; its output and exit
 * status are the line's.
 */
#define BG_UNTIL(cmd, pat, sig)						\
	"f=/tmp/cli_test.bg; " cmd " > $f & p=$!; i=0; "		\
	"until grep -q '" pat "' $f || [ $i -ge 600 ]; do "		\
	"sleep 0.1; i=$((i + 1)); done; "				\
	"kill -" sig " $p; wait $p; s=$?; cat $f; exit $s"

struct run {
	int status;		/* exit status, or -1 */
	char out[65536];
	char err[8192];
};

/* Run a shell command line; collect its stdout, stderr and exit status. */
static inline void run(struct run *r, const char *cmd)
{
	char line[1024];
	FILE *p;
	size_t n;

	snprintf(line, sizeof(line), "%s 2>/tmp/cli_test.err", cmd);
	memset(r, 0, sizeof(*r));
	p = popen(line, "r");
	if (!p) {
		r->status = -1;
		return;
	}
	n = fread(r->out, 1, sizeof(r->out) - 1, p);
	r->out[n] = 0;
	r->status = pclose(p);
	r->status = WIFEXITED(r->status) ? WEXITSTATUS(r->status) : -1;
	p = fopen("/tmp/cli_test.err", "r");
	if (p) {
		n = fread(r->err, 1, sizeof(r->err) - 1, p);
		r->err[n] = 0;
		fclose(p);
	}
}

/* A strict JSON validator (RFC 8259), enough to say "it parses". */
static inline const char *js_value(const char *p, int depth);

static inline const char *js_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static inline const char *js_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p && *p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!isxdigit((unsigned char)p[i]))
						return NULL;
				p += 4;
			} else if (!strchr("\"\\/bfnrt", *p) || !*p) {
				return NULL;
			}
		}
		p++;
	}
	return *p == '"' ? p + 1 : NULL;
}

static inline const char *js_number(const char *p)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (isdigit((unsigned char)*p))
		while (isdigit((unsigned char)*p))
			p++;
	else
		return NULL;
	if (*p == '.') {
		if (!isdigit((unsigned char)*++p))
			return NULL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return NULL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	return p;
}

static inline const char *js_container(const char *p, int depth, char close, int obj)
{
	p = js_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (obj) {
			p = js_string(js_ws(p));
			if (!p)
				return NULL;
			p = js_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		p = js_value(p, depth + 1);
		if (!p)
			return NULL;
		p = js_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static inline const char *js_value(const char *p, int depth)
{
	if (depth > 64)
		return NULL;
	p = js_ws(p);
	switch (*p) {
	case '{': return js_container(p, depth, '}', 1);
	case '[': return js_container(p, depth, ']', 0);
	case '"': return js_string(p);
	case 't': return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f': return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n': return strncmp(p, "null", 4) ? NULL : p + 4;
	default: return js_number(p);
	}
}

/* Every non-empty line of @s is one JSON value. */
static inline int json_lines(const char *s)
{
	int n = 0;

	while (*(s = js_ws(s))) {
		const char *end = js_value(s, 0);

		if (!end || (*end && *end != '\n'))
			return -1;
		s = end;
		n++;
	}
	return n;
}

/* The number after "key": in a JSON text, or -1. */
static inline long long json_num(const char *s, const char *key)
{
	char k[64];
	const char *p;

	snprintf(k, sizeof(k), "\"%s\":", key);
	p = s ? strstr(s, k) : NULL;
	return p ? strtoll(p + strlen(k), NULL, 10) : -1;
}

/* The object "key":{...} in a JSON text (from its brace on), or NULL. */
static inline const char *json_obj(const char *s, const char *key)
{
	char k[64];
	const char *p;

	snprintf(k, sizeof(k), "\"%s\":{", key);
	p = strstr(s, k);
	return p ? p + strlen(k) - 1 : NULL;
}

/* Whether "key":"<digits>" is in a JSON text: a number kept as a string. */
static inline bool json_digits(const char *s, const char *key)
{
	char k[64];
	const char *p;

	snprintf(k, sizeof(k), "\"%s\":\"", key);
	p = strstr(s, k);
	if (!p)
		return false;
	p += strlen(k);
	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	return *p == '"';
}

#define VERSION_KEY	"{\"version\":\"" LIBHWTIMER_VERSION "\","

/* a file's text, NUL-terminated, or NULL */
static inline char *slurp(const char *path)
{
	static char buf[1 << 20];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static inline void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A bad command line: exit 2, say what was wrong and how to get help. */

#define EXPECT_USAGE(r, msg, help) do {						\
	EXPECT_EQ(2, (r).status) TH_LOG("%s", (r).err);				\
	EXPECT_NE(NULL, strstr((r).err, msg)) TH_LOG("%s", (r).err);		\
	EXPECT_NE(NULL, strstr((r).err, "Try 'hwtimerctl" help " --help' for more "	\
			       "information.")) TH_LOG("%s", (r).err);		\
} while (0)

#endif /* _HWT_CLI_RUN_H */

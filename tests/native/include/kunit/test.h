/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <kunit/test.h>: just enough of KUnit's API to run a
 * suite written for the kernel unchanged on the host, printing the same KTAP
 * that the kernel prints (parsed by tools/testing/kunit/kunit.py parse).
 *
 * It supports the subset hwtimer's core suites use: KUNIT_CASE(_SLOW),
 * suite init/exit, the EXPECT/ASSERT comparisons (with _MSG variants),
 * test-managed allocation, kunit_info() and kunit_skip().
 */
#ifndef _HWT_SHIM_KUNIT_TEST_H
#define _HWT_SHIM_KUNIT_TEST_H

#include <linux/types.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GFP_KERNEL 0
typedef unsigned int gfp_t;

enum kunit_status { KUNIT_SUCCESS, KUNIT_FAILURE, KUNIT_SKIPPED };

struct kunit_alloc {
	struct kunit_alloc *next;
	long long mem[];
};

struct kunit {
	const char *name;
	enum kunit_status status;
	char skip_reason[256];
	jmp_buf abort;
	struct kunit_alloc *allocs;
	void *priv;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
};

struct kunit_suite {
	const char name[256];
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
};

#define KUNIT_CASE(fn) { .run_case = fn, .name = #fn }
#define KUNIT_CASE_SLOW(fn) KUNIT_CASE(fn)

static inline void *kunit_kzalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	struct kunit_alloc *a = calloc(1, sizeof(*a) + size);

	(void)gfp;
	if (!a)
		return NULL;
	a->next = test->allocs;
	test->allocs = a;
	return a->mem;
}

static inline void *kunit_kmalloc_array(struct kunit *test, size_t n,
					size_t size, gfp_t gfp)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return kunit_kzalloc(test, n * size, gfp);
}

#define kunit_kcalloc kunit_kmalloc_array

static inline void kunit_free_all(struct kunit *test)
{
	while (test->allocs) {
		struct kunit_alloc *a = test->allocs;

		test->allocs = a->next;
		free(a);
	}
}

#define kunit_info(test, fmt, ...) \
	printf("    # %s: " fmt, (test)->name, ##__VA_ARGS__)
#define kunit_err kunit_info

#define kunit_skip(test, fmt, ...) do {					\
	(test)->status = KUNIT_SKIPPED;					\
	snprintf((test)->skip_reason, sizeof((test)->skip_reason),	\
		 fmt, ##__VA_ARGS__);					\
	longjmp((test)->abort, 1);					\
} while (0)

static inline void kunit_fail_msg(struct kunit *test, const char *file,
				  int line, const char *what, const char *fmt,
				  ...)
{
	va_list ap;

	test->status = KUNIT_FAILURE;
	printf("    # %s: EXPECTATION FAILED at %s:%d\n    # %s\n",
	       test->name, file, line, what);
	if (fmt) {
		printf("    # ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
	}
}

#define __KUNIT_CHECK(test, ok, abort_on_fail, what, ...) do {		\
	if (!(ok)) {							\
		kunit_fail_msg(test, __FILE__, __LINE__, what,		\
			       ##__VA_ARGS__, NULL);			\
		if (abort_on_fail)					\
			longjmp((test)->abort, 1);			\
	}								\
} while (0)

#define __KUNIT_BINARY(test, abort, l, op, r, ...) do {			\
	__typeof__(l) __l = (l);					\
	__typeof__(r) __r = (r);					\
	if (!(__l op __r)) {						\
		char __w[512];						\
		snprintf(__w, sizeof(__w),				\
			 "Expected %s %s %s, but %s == %" PRId64	\
			 " (0x%" PRIx64 "), %s == %" PRId64		\
			 " (0x%" PRIx64 ")", #l, #op, #r, #l,		\
			 (int64_t)__l, (uint64_t)__l, #r, (int64_t)__r,	\
			 (uint64_t)__r);				\
		__KUNIT_CHECK(test, 0, abort, __w, ##__VA_ARGS__);	\
	}								\
} while (0)

#define KUNIT_EXPECT_EQ(t, l, r) __KUNIT_BINARY(t, 0, l, ==, r)
#define KUNIT_EXPECT_NE(t, l, r) __KUNIT_BINARY(t, 0, l, !=, r)
#define KUNIT_EXPECT_LT(t, l, r) __KUNIT_BINARY(t, 0, l, <, r)
#define KUNIT_EXPECT_LE(t, l, r) __KUNIT_BINARY(t, 0, l, <=, r)
#define KUNIT_EXPECT_GT(t, l, r) __KUNIT_BINARY(t, 0, l, >, r)
#define KUNIT_EXPECT_GE(t, l, r) __KUNIT_BINARY(t, 0, l, >=, r)
#define KUNIT_EXPECT_EQ_MSG(t, l, r, ...) __KUNIT_BINARY(t, 0, l, ==, r, __VA_ARGS__)
#define KUNIT_EXPECT_LE_MSG(t, l, r, ...) __KUNIT_BINARY(t, 0, l, <=, r, __VA_ARGS__)
#define KUNIT_EXPECT_GE_MSG(t, l, r, ...) __KUNIT_BINARY(t, 0, l, >=, r, __VA_ARGS__)
#define KUNIT_EXPECT_LT_MSG(t, l, r, ...) __KUNIT_BINARY(t, 0, l, <, r, __VA_ARGS__)
#define KUNIT_EXPECT_GT_MSG(t, l, r, ...) __KUNIT_BINARY(t, 0, l, >, r, __VA_ARGS__)
#define KUNIT_ASSERT_EQ(t, l, r) __KUNIT_BINARY(t, 1, l, ==, r)
#define KUNIT_ASSERT_NE(t, l, r) __KUNIT_BINARY(t, 1, l, !=, r)
#define KUNIT_ASSERT_LE(t, l, r) __KUNIT_BINARY(t, 1, l, <=, r)
#define KUNIT_ASSERT_GE(t, l, r) __KUNIT_BINARY(t, 1, l, >=, r)
#define KUNIT_ASSERT_LT(t, l, r) __KUNIT_BINARY(t, 1, l, <, r)
#define KUNIT_ASSERT_GT(t, l, r) __KUNIT_BINARY(t, 1, l, >, r)
#define KUNIT_ASSERT_EQ_MSG(t, l, r, ...) __KUNIT_BINARY(t, 1, l, ==, r, __VA_ARGS__)
#define KUNIT_ASSERT_LT_MSG(t, l, r, ...) __KUNIT_BINARY(t, 1, l, <, r, __VA_ARGS__)
#define KUNIT_ASSERT_LE_MSG(t, l, r, ...) __KUNIT_BINARY(t, 1, l, <=, r, __VA_ARGS__)
#define KUNIT_ASSERT_GE_MSG(t, l, r, ...) __KUNIT_BINARY(t, 1, l, >=, r, __VA_ARGS__)

#define KUNIT_EXPECT_TRUE(t, c) __KUNIT_CHECK(t, (c), 0, "Expected " #c " to be true")
#define KUNIT_EXPECT_FALSE(t, c) __KUNIT_CHECK(t, !(c), 0, "Expected " #c " to be false")
#define KUNIT_EXPECT_TRUE_MSG(t, c, ...) __KUNIT_CHECK(t, (c), 0, "Expected " #c " to be true", __VA_ARGS__)
#define KUNIT_EXPECT_FALSE_MSG(t, c, ...) __KUNIT_CHECK(t, !(c), 0, "Expected " #c " to be false", __VA_ARGS__)
#define KUNIT_ASSERT_TRUE(t, c) __KUNIT_CHECK(t, (c), 1, "Expected " #c " to be true")
#define KUNIT_ASSERT_FALSE(t, c) __KUNIT_CHECK(t, !(c), 1, "Expected " #c " to be false")
#define KUNIT_ASSERT_TRUE_MSG(t, c, ...) __KUNIT_CHECK(t, (c), 1, "Expected " #c " to be true", __VA_ARGS__)
#define KUNIT_EXPECT_NULL(t, p) __KUNIT_CHECK(t, (p) == NULL, 0, "Expected " #p " to be NULL")
#define KUNIT_EXPECT_NOT_NULL(t, p) __KUNIT_CHECK(t, (p) != NULL, 0, "Expected " #p " not to be NULL")
#define KUNIT_ASSERT_NOT_NULL(t, p) __KUNIT_CHECK(t, (p) != NULL, 1, "Expected " #p " not to be NULL")
#define KUNIT_ASSERT_NULL(t, p) __KUNIT_CHECK(t, (p) == NULL, 1, "Expected " #p " to be NULL")
#define KUNIT_EXPECT_PTR_EQ(t, a, b) __KUNIT_CHECK(t, (const void *)(a) == (const void *)(b), 0, "Expected " #a " == " #b)
#define KUNIT_ASSERT_PTR_EQ(t, a, b) __KUNIT_CHECK(t, (const void *)(a) == (const void *)(b), 1, "Expected " #a " == " #b)

static __attribute__((noinline, unused)) enum kunit_status
kunit_run_case(struct kunit_suite *suite, struct kunit_case *c,
	       char *skip_reason, size_t len)
{
	struct kunit test = { .name = c->name };

	fflush(stdout);
	if (!setjmp(test.abort)) {
		if (!suite->init || !suite->init(&test))
			c->run_case(&test);
		else
			test.status = KUNIT_FAILURE;
	}
	if (suite->exit)
		suite->exit(&test);
	kunit_free_all(&test);
	snprintf(skip_reason, len, "%s", test.skip_reason);
	return test.status;
}

/* Runs every suite given to kunit_test_suites(); returns the failure count. */
static __attribute__((unused)) int kunit_run_suites(struct kunit_suite **suites, int nsuites)
{
	int s, failed_suites = 0;

	printf("KTAP version 1\n1..%d\n", nsuites);
	for (s = 0; s < nsuites; s++) {
		struct kunit_suite *suite = suites[s];
		struct kunit_case *c;
		int n = 0, pass = 0, fail = 0, skip = 0;

		for (c = suite->test_cases; c->run_case; c++)
			n++;
		printf("    KTAP version 1\n    # Subtest: %s\n    1..%d\n",
		       suite->name, n);
		n = 0;
		for (c = suite->test_cases; c->run_case; c++) {
			char reason[256];
			enum kunit_status st = kunit_run_case(suite, c, reason,
							      sizeof(reason));

			n++;
			if (st == KUNIT_SKIPPED) {
				skip++;
				printf("    ok %d %s # SKIP %s\n", n, c->name,
				       reason);
			} else if (st == KUNIT_FAILURE) {
				fail++;
				printf("    not ok %d %s\n", n, c->name);
			} else {
				pass++;
				printf("    ok %d %s\n", n, c->name);
			}
		}
		printf("# %s: pass:%d fail:%d skip:%d total:%d\n", suite->name,
		       pass, fail, skip, n);
		printf("%s %d %s\n", fail ? "not ok" : "ok", s + 1, suite->name);
		failed_suites += !!fail;
	}
	fflush(stdout);
	return failed_suites;
}

#define kunit_test_suites(...)						\
	int main(void)							\
	{								\
		struct kunit_suite *__s[] = { __VA_ARGS__ };		\
		return kunit_run_suites(__s, sizeof(__s) / sizeof(__s[0])) ? 1 : 0; \
	}
#define kunit_test_suite(suite) kunit_test_suites(&suite)

#define MODULE_LICENSE(x)
#define MODULE_DESCRIPTION(x)
#define MODULE_AUTHOR(x)

#endif

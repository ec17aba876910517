// SPDX-License-Identifier: GPL-2.0
/*
 * The example driver (kmod/example) uses the in-kernel API: load it, watch
 * its timers fire, and check that hwtimer.ko cannot be unloaded under it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "need_device.h"
#include "pace.h"

static const char *modules(void)
{
	const char *dir = getenv("HWT_MODULES");

	return dir ? dir : "/hwt/modules";
}

static long readnum(const char *path)
{
	long v = -1;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static long param(const char *mod, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", mod, name);
	return readnum(path);
}

static int load(const char *name, const char *args)
{
	char path[256];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/%s.ko", modules(), name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, args, 0);
	ret = ret ? -errno : 0;
	close(fd);
	return ret;
}

static int unload(const char *name)
{
	return syscall(SYS_delete_module, name, O_NONBLOCK) ? -errno : 0;
}

TEST(example_driver_fires_and_pins_hwtimer)
{
	long beats;

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	ASSERT_EQ(0, access("/sys/module/hwtimer", F_OK));
	ASSERT_EQ(0, load("hwtimer_example", "period_ms=20"));
	sleep(2);
	beats = param("hwtimer_example", "beats");
	/* 100 periods of 20 ms; emulated time is slow, so ask for far fewer */
	EXPECT_GE(beats, 10);
	EXPECT_GE(param("hwtimer_example", "chores"), 1);
	/* a notice every tenth beat, which frees itself 1 ms later */
	EXPECT_GE(param("hwtimer_example", "notices"), beats / 10 - 1);
	EXPECT_EQ(0, param("hwtimer_example", "early"));
	EXPECT_GE(param("hwtimer_example", "max_late_ns"), 0);

	/* a client holds hwtimer.ko */
	EXPECT_EQ(-EWOULDBLOCK, unload("hwtimer"));
	EXPECT_EQ(0, access("/sys/module/hwtimer", F_OK));

	ASSERT_EQ(0, unload("hwtimer_example"));
	EXPECT_NE(0, access("/sys/module/hwtimer_example", F_OK));
	/* its timers are gone: nothing holds hwtimer.ko any more */
	EXPECT_EQ(0, readnum("/sys/module/hwtimer/refcnt"));
}

TEST(example_driver_refuses_bad_period)
{
	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	EXPECT_EQ(-EINVAL, load("hwtimer_example", "period_ms=0"));
	EXPECT_NE(0, access("/sys/module/hwtimer_example", F_OK));
}

HWT_HARNESS_MAIN

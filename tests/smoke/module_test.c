// SPDX-License-Identifier: GPL-2.0
/*
 * The loaded module reports a geometry inside its documented ranges: a
 * power-of-two tick of 1024 ns .. 2^30 ns and enough levels for it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "need_device.h"
#include "pace.h"

static unsigned long long param(const char *name)
{
	char path[128];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/hwtimer/parameters/%s", name);
	f = fopen(path, "r");
	if (!f)
		return ~0ULL;
	if (fscanf(f, "%llu", &v) != 1)
		v = ~0ULL;
	fclose(f);
	return v;
}

TEST(tick_is_a_power_of_two_in_range)
{
	unsigned long long tick = param("tick_ns");

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	ASSERT_NE(~0ULL, tick);
	EXPECT_EQ(0ULL, tick & (tick - 1));
	EXPECT_GE(tick, 1024ULL);
	EXPECT_LE(tick, 1ULL << 30);
}

TEST(levels_cover_all_of_time_by_default)
{
	unsigned long long tick = param("tick_ns"), levels = param("levels");
	int shift = __builtin_ctzll(tick);

	if (!hwt_device_present())
		SKIP(return, HWT_NO_DEVICE);
	ASSERT_NE(~0ULL, levels);
	/*
	 * 5 bits a level, and the top level, of up to 64 slots, starting at
	 * bit 58 or above: every key less than 2^63 ns ahead fits (wheel.h)
	 */
	EXPECT_EQ((unsigned long long)(58 - shift + 4) / 5 + 1, levels);
}

HWT_HARNESS_MAIN

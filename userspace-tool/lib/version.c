// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * The release of the library a program runs with, which may be newer than
 * the one it was built against (libhwtimer_version.h): see
 * hwtimer_major_version(3).
 */
#include "libhwtimer.h"

int hwtimer_major_version(void)
{
	return LIBHWTIMER_VERSION_MAJOR;
}

int hwtimer_minor_version(void)
{
	return LIBHWTIMER_VERSION_MINOR;
}

int hwtimer_version_at_least(int major, int minor)
{
	return LIBHWTIMER_VERSION_AT_LEAST(major, minor);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wheel core compiled into a suite's own unit, its functions static:
 * a suite built into the kernel beside hwtimer (=y, as kunit.py builds
 * them) tests its own copy, without the module's trace hooks, and clashes
 * with nothing.
 */
#ifndef _HWT_WHEEL_UNIT_H
#define _HWT_WHEEL_UNIT_H

#define HWT_WHEEL_SCOPE static

/* a suite calls some of the wheel's functions, not all */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "wheel.c"
#include "wheel_geometry.c"
#include "wheel_cascade.c"
#include "wheel_clock.c"
#include "wheel_look.c"
#pragma GCC diagnostic pop

#endif /* _HWT_WHEEL_UNIT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixture of the device suites (dev_test, record_test, slack_test,
 * batch_test, abi_test): one open /dev/hwtimer per test, named after each
 * suite, so that a TAP line names its file; without the device (the module
 * not loaded) each test skips (need_device.h). Include it once, after
 * kselftest_harness.h and helpers.h.
 */
#ifndef _HWT_DEV_FIXTURE_H
#define _HWT_DEV_FIXTURE_H

/* The fixture, named after the suite that uses it: HWT_DEV_FIXTURE(record). */
#define HWT_DEV_FIXTURE(name)						\
FIXTURE(name) {								\
	int fd;								\
};									\
									\
FIXTURE_SETUP(name)							\
{									\
	HWT_NEED_DEVICE();						\
	self->fd = t_open();						\
	ASSERT_LE(0, self->fd)						\
		TH_LOG("open /dev/hwtimer: %s", strerror(errno));	\
}									\
									\
FIXTURE_TEARDOWN(name)							\
{									\
	close(self->fd);						\
}

#endif /* _HWT_DEV_FIXTURE_H */

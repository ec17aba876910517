/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixture of the device suites (dev_test, record_test, slack_test,
 * batch_test, abi_test): one open /dev/hwtimer per test. Include it once,
 * after kselftest_harness.h and helpers.h.
 */
#ifndef _HWT_DEV_FIXTURE_H
#define _HWT_DEV_FIXTURE_H

FIXTURE(dev) {
	int fd;
};

FIXTURE_SETUP(dev)
{
	self->fd = t_open();
	ASSERT_LE(0, self->fd) TH_LOG("open /dev/hwtimer: %s", strerror(errno));
}

FIXTURE_TEARDOWN(dev)
{
	close(self->fd);
}

#endif /* _HWT_DEV_FIXTURE_H */

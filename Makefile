# SPDX-License-Identifier: GPL-2.0
#
# hwtimer: the module (Kbuild, against KDIR), the userspace side, and the
# VM harness that tests it all.
#
#   make               module + userspace tests, against KDIR
#   make check         every test, in QEMU guests (what CI runs)
#   make vm            the demo in a guest; a shell when run from a terminal
#   make style         checkpatch --strict and sparse on kmod/ and uapi/
#   make clean

KDIR ?= /lib/modules/$(shell uname -r)/build
BUILD ?= $(CURDIR)/build
CC ?= gcc
KSFT_DIR ?= $(firstword $(wildcard $(KDIR)/tools/testing/selftests \
	$(HOME)/.cache/hwtimer/src/*/tools/testing/selftests \
	/usr/src/linux-source-*/tools/testing/selftests))

WARN := -Wall -Wextra -Werror -Wno-unused-parameter
# kselftest_harness.h: EXPECT_* compare mixed signedness, TEST_F vfork()s
TEST_WARN := -Wno-sign-compare -Wno-clobbered
UCFLAGS := -O2 -g -std=gnu11 $(WARN) -I$(CURDIR)/uapi

USER_TESTS := $(patsubst tests/user/%.c,$(BUILD)/tests/%,$(wildcard tests/user/*_test.c))
SMOKE_TESTS := $(patsubst tests/smoke/%.c,$(BUILD)/smoke/%,$(wildcard tests/smoke/*.c))

.PHONY: all module user user-tests native-check check vm style clean

all: module user

module:
	@test -d "$(KDIR)" || { echo "No kernel build tree at KDIR=$(KDIR)." \
		"Install linux-headers-$$(uname -r) or pass KDIR=/path/to/build." >&2; exit 1; }
	$(MAKE) -C "$(KDIR)" M="$(CURDIR)" modules

user: user-tests

user-tests: $(USER_TESTS) $(SMOKE_TESTS)

ksft-check:
	@test -f "$(KSFT_DIR)/kselftest_harness.h" || { echo "kselftest_harness.h not found:" \
		"set KSFT_DIR to a kernel source tree's tools/testing/selftests" \
		"(apt-get install linux-source-6.12 and unpack it)." >&2; exit 1; }

$(BUILD)/tests/%: tests/user/%.c $(wildcard tests/user/*.h uapi/linux/*.h) | ksft-check
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(TEST_WARN) -static -I"$(KSFT_DIR)" -Itests/user $< -o $@ -lpthread

$(BUILD)/smoke/%: tests/smoke/%.c $(wildcard tests/user/*.h uapi/linux/*.h) | ksft-check
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(TEST_WARN) -static -I"$(KSFT_DIR)" -Itests/user $< -o $@ -lpthread

# The wheel core's KUnit suite, natively, under ASan and UBSan
NATIVE_CFLAGS := -O2 -g -std=gnu11 -Wall -Wextra -Wno-unused-parameter \
	-Wno-sign-compare -fsanitize=address,undefined -fno-sanitize-recover=all \
	-Itests/native/include -Ikmod -Ikmod/include

$(BUILD)/wheel_kunit: tests/kunit/wheel_kunit.c kmod/wheel.c kmod/wheel.h kmod/include/linux/hwt_node.h \
		$(wildcard tests/native/include/*/*.h)
	@mkdir -p $(@D)
	$(CC) $(NATIVE_CFLAGS) $< -o $@

native-check: $(BUILD)/wheel_kunit
	$(BUILD)/wheel_kunit

check:
	tests/vm/check.sh

vm:
	tests/vm/vm.sh

style:
	tests/vm/style.sh

clean:
	rm -rf "$(BUILD)" .vm
	find . \( -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' \
		-o -name '.*.cmd' -o -name '*.symvers' -o -name 'modules.order' \) \
		-not -path './.git/*' -delete

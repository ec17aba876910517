# SPDX-License-Identifier: GPL-2.0
#
# hwtimer: the module (Kbuild, against KDIR), the userspace side, and the
# VM harness that tests it all.
#
#   make               module + userspace tests, against KDIR
#   make check         every test, in QEMU guests (what CI runs)
#   make vm            the demo in a guest; a shell when run from a terminal
#   make bench         benchmarks: native, and in guests on stock kernels;
#                      writes BENCHMARKS.md and bench/*.svg
#   make style         checkpatch --strict and sparse on kmod/ and uapi/
#   make clean

KDIR ?= /lib/modules/$(shell uname -r)/build
PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
UDEVDIR ?= /lib/udev/rules.d
DESTDIR ?=
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

# libhwtimer and hwtimerctl
UT := userspace-tool
LIB_SOVER := 1
LIB_VERSION := 1.1.0
LIB_CFLAGS := $(UCFLAGS) -fPIC -fvisibility=default -I$(UT)/lib
CLI_SRCS := $(UT)/hwtimerctl.c $(UT)/cli.c $(UT)/cmd_timer.c $(UT)/cmd_latency.c \
	$(UT)/cmd_bench.c $(UT)/cmd_observe.c $(UT)/parse.c $(UT)/hist.c
CLI_HDRS := $(UT)/cli.h $(UT)/parse.h $(UT)/hist.h $(UT)/lib/libhwtimer.h uapi/linux/hwtimer.h

.PHONY: all module user lib cli user-tests ksft-check native-check host-check check check-long vm bench \
	style clean \
	install install-module install-user uninstall uninstall-module uninstall-user

all: module user

module:
	@test -d "$(KDIR)" || { echo "No kernel build tree at KDIR=$(KDIR)." \
		"Install linux-headers-$$(uname -r) or pass KDIR=/path/to/build." >&2; exit 1; }
	$(MAKE) -C "$(KDIR)" M="$(CURDIR)" modules

user: lib cli user-tests

lib: $(BUILD)/lib/libhwtimer.a $(BUILD)/lib/libhwtimer.so.$(LIB_VERSION) $(BUILD)/lib/hwtimer.pc

cli: $(BUILD)/bin/hwtimerctl

LIB_OBJS := $(BUILD)/lib/libhwtimer.o $(BUILD)/lib/ring.o

$(BUILD)/lib/%.o: $(UT)/lib/%.c $(UT)/lib/libhwtimer.h uapi/linux/hwtimer.h
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -c $< -o $@

$(BUILD)/lib/libhwtimer.a: $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

# the version script exports exactly the documented functions
$(BUILD)/lib/libhwtimer.so.$(LIB_VERSION): $(LIB_OBJS) $(UT)/lib/libhwtimer.map
	$(CC) -shared -Wl,-soname,libhwtimer.so.$(LIB_SOVER) \
		-Wl,--version-script,$(UT)/lib/libhwtimer.map $(LIB_OBJS) -o $@
	ln -sf libhwtimer.so.$(LIB_VERSION) $(BUILD)/lib/libhwtimer.so.$(LIB_SOVER)
	ln -sf libhwtimer.so.$(LIB_SOVER) $(BUILD)/lib/libhwtimer.so

$(BUILD)/lib/hwtimer.pc: $(UT)/lib/hwtimer.pc.in
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(LIB_VERSION)|g' $< > $@

# static, so that it runs in the test guests' busybox initramfs as it is
# with liburing (liburing-dev), 'hwtimerctl bench' has io_uring rows too
CLI_URING := $(if $(wildcard /usr/include/liburing.h),-DHWT_HAVE_LIBURING)
$(BUILD)/bin/hwtimerctl: $(CLI_SRCS) $(CLI_HDRS) $(BUILD)/lib/libhwtimer.a
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(CLI_URING) -static -I$(UT)/lib $(CLI_SRCS) $(BUILD)/lib/libhwtimer.a -o $@ \
		$(if $(CLI_URING),-luring)

user-tests: $(USER_TESTS) $(SMOKE_TESTS)

ksft-check:
	@test -f "$(KSFT_DIR)/kselftest_harness.h" || { echo "kselftest_harness.h not found:" \
		"set KSFT_DIR to a kernel source tree's tools/testing/selftests" \
		"(apt-get install linux-source-6.12 and unpack it)." >&2; exit 1; }

$(BUILD)/tests/%: tests/user/%.c $(wildcard tests/user/*.h uapi/linux/*.h) $(UT)/lib/libhwtimer.h \
		$(BUILD)/lib/libhwtimer.a | ksft-check
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(TEST_WARN) -static -I"$(KSFT_DIR)" -Itests/user -I$(UT)/lib $< \
		$(BUILD)/lib/libhwtimer.a -o $@ -lpthread -luring

$(BUILD)/smoke/%: tests/smoke/%.c $(wildcard tests/user/*.h uapi/linux/*.h) | ksft-check
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(TEST_WARN) -static -I"$(KSFT_DIR)" -Itests/user $< -o $@ -lpthread

# the same uapi from a 32-bit process (gcc-multilib)
$(BUILD)/smoke/compat32_test: tests/smoke/compat32_test.c $(wildcard tests/user/*.h uapi/linux/*.h) | ksft-check
	@mkdir -p $(@D)
	$(CC) -m32 $(UCFLAGS) $(TEST_WARN) -static -I"$(KSFT_DIR)" -Itests/user $< -o $@ -lpthread

# The wheel core's KUnit suite, natively, under ASan and UBSan
NATIVE_CFLAGS := -O2 -g -std=gnu11 -Wall -Wextra -Wno-unused-parameter \
	-Wno-sign-compare -fsanitize=address,undefined -fno-sanitize-recover=all \
	-Itests/native/include -Ikmod -Ikmod/include

WHEEL_SUITES := $(BUILD)/wheel_kunit $(BUILD)/wheel_bound_kunit $(BUILD)/wheel_range_kunit \
	$(BUILD)/wheel_herd_kunit $(BUILD)/wheel_ahead_kunit \
	$(BUILD)/wheel_look_kunit

$(WHEEL_SUITES): $(BUILD)/%: tests/kunit/%.c tests/kunit/wheel_test.h kmod/wheel.c kmod/wheel_clock.c kmod/wheel_look.c \
		kmod/wheel_look.h kmod/wheel_impl.h kmod/wheel.h \
		kmod/include/linux/hwt_node.h $(wildcard tests/native/include/*/*.h)
	@mkdir -p $(@D)
	$(CC) $(NATIVE_CFLAGS) $< -o $@

native-check: $(WHEEL_SUITES)
	set -e; for t in $(WHEEL_SUITES); do $$t; done

# hwtimerctl's parsers and histogram, on the host, under ASan and UBSan
$(BUILD)/host/parse_test: tests/host/parse_test.c $(UT)/parse.c $(UT)/hist.c $(UT)/parse.h $(UT)/hist.h | ksft-check
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(TEST_WARN) -fsanitize=address,undefined -fno-sanitize-recover=all \
		-I"$(KSFT_DIR)" -I$(UT) tests/host/parse_test.c $(UT)/parse.c $(UT)/hist.c -o $@

host-check: $(BUILD)/host/parse_test
	$(BUILD)/host/parse_test

# Installation. The module goes where modules_install puts it (INSTALL_MOD_PATH
# follows DESTDIR); everything else under PREFIX.
# the release the module's vermagic names (Debian's 6.1 headers put another
# string in include/config/kernel.release)
KRELEASE = $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' "$(KDIR)/include/generated/utsrelease.h" 2>/dev/null)
MAN_PAGES = $(wildcard $(UT)/man/*.[137])
USER_FILES = $(BINDIR)/hwtimerctl $(LIBDIR)/libhwtimer.a \
	$(LIBDIR)/libhwtimer.so.$(LIB_VERSION) $(LIBDIR)/libhwtimer.so.$(LIB_SOVER) \
	$(LIBDIR)/libhwtimer.so $(LIBDIR)/pkgconfig/hwtimer.pc \
	$(INCLUDEDIR)/libhwtimer.h $(INCLUDEDIR)/linux/hwtimer.h \
	$(UDEVDIR)/60-hwtimer.rules \
	$(foreach p,$(MAN_PAGES),$(MANDIR)/man$(subst .,,$(suffix $(p)))/$(notdir $(p)))

install: install-module install-user

# Without the tree's signing key (distribution headers), install unsigned:
# sign with your own key (e.g. DKMS's MOK) where Secure Boot wants it.
install-module:
	$(MAKE) -C "$(KDIR)" M="$(CURDIR)" HWT_TEST_MODULES=n modules
	$(MAKE) -C "$(KDIR)" M="$(CURDIR)" HWT_TEST_MODULES=n INSTALL_MOD_PATH="$(DESTDIR)" \
		INSTALL_MOD_DIR=extra KERNELRELEASE=$(KRELEASE) \
		$(if $(wildcard $(KDIR)/certs/signing_key.pem),,CONFIG_MODULE_SIG_ALL=) \
		modules_install
	depmod $(if $(DESTDIR),-b "$(DESTDIR)") -a $(KRELEASE)

install-user: lib cli
	install -D -m 0755 $(BUILD)/bin/hwtimerctl "$(DESTDIR)$(BINDIR)/hwtimerctl"
	install -D -m 0644 $(BUILD)/lib/libhwtimer.a "$(DESTDIR)$(LIBDIR)/libhwtimer.a"
	install -D -m 0755 $(BUILD)/lib/libhwtimer.so.$(LIB_VERSION) \
		"$(DESTDIR)$(LIBDIR)/libhwtimer.so.$(LIB_VERSION)"
	ln -sf libhwtimer.so.$(LIB_VERSION) "$(DESTDIR)$(LIBDIR)/libhwtimer.so.$(LIB_SOVER)"
	ln -sf libhwtimer.so.$(LIB_SOVER) "$(DESTDIR)$(LIBDIR)/libhwtimer.so"
	install -D -m 0644 $(BUILD)/lib/hwtimer.pc "$(DESTDIR)$(LIBDIR)/pkgconfig/hwtimer.pc"
	install -D -m 0644 $(UT)/lib/libhwtimer.h "$(DESTDIR)$(INCLUDEDIR)/libhwtimer.h"
	install -D -m 0644 uapi/linux/hwtimer.h "$(DESTDIR)$(INCLUDEDIR)/linux/hwtimer.h"
	install -D -m 0644 udev/60-hwtimer.rules "$(DESTDIR)$(UDEVDIR)/60-hwtimer.rules"
	set -e; for p in $(MAN_PAGES); do \
		s=$${p##*.}; install -D -m 0644 $$p "$(DESTDIR)$(MANDIR)/man$$s/$${p##*/}"; \
	done
	$(if $(DESTDIR),,-ldconfig; getent group hwtimer >/dev/null || groupadd -r hwtimer; \
		udevadm control --reload 2>/dev/null; udevadm trigger -s misc 2>/dev/null; true)

uninstall: uninstall-module uninstall-user

uninstall-module:
	$(if $(KRELEASE),,$(error no kernel release in $(KDIR): set KDIR to the tree the module was installed for))
	rm -f "$(DESTDIR)/lib/modules/$(KRELEASE)/extra/"hwtimer*.ko*
	-rmdir "$(DESTDIR)/lib/modules/$(KRELEASE)/extra" 2>/dev/null
	depmod $(if $(DESTDIR),-b "$(DESTDIR)") -a $(KRELEASE)

uninstall-user:
	rm -f $(addprefix "$(DESTDIR),$(addsuffix ",$(USER_FILES)))
	$(if $(DESTDIR),,-ldconfig)

check:
	tests/vm/check.sh

# what check does, with 5 min of stress, 10^7 fuzzed ioctls, and a KCSAN
# kernel besides the KASAN one
check-long:
	HWT_LONG=1 tests/vm/check.sh

vm:
	tests/vm/vm.sh

bench:
	bench/run.sh

style:
	scripts/style.sh

clean:
	rm -rf "$(BUILD)" .vm
	find . \( -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' \
		-o -name '.*.cmd' -o -name '*.symvers' -o -name 'modules.order' \) \
		-not -path './.git/*' -delete

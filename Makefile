# SPDX-License-Identifier: GPL-2.0
#
# hwtimer: the module (Kbuild, against KDIR), the userspace side, and the
# VM harness that tests it all.
#
#   make               the module (against KDIR), libhwtimer, hwtimerctl and
#                      the man pages: what make install installs
#   make tests         the tests: userspace tests (kselftest harness, static;
#                      needs KSFT_DIR, liburing-dev and gcc-multilib), the
#                      CLI's host tests and the wheel's native suites
#   make check         every test, in QEMU guests (what CI runs)
#   make vm            the demo in a guest; a shell when run from a terminal
#   make bench         benchmarks: native, and in guests on stock kernels;
#                      writes BENCHMARKS.md and bench/*.svg
#   make style         SPDX ids, checkpatch --strict and sparse on kmod/ and uapi/
#   make install       module, library, headers, hwtimerctl, man pages and
#                      modules-load.d file (PREFIX, DESTDIR)
#   make dkms-install  the module's sources to /usr/src, built by DKMS for
#                      every kernel the box installs
#   make dist          hwtimer-VERSION.tar.xz, from git archive
#   make deb           Debian packages (debian/), into BUILD/deb
#   make clean

KDIR ?= /lib/modules/$(shell uname -r)/build
PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
MODULESLOADDIR ?= /usr/lib/modules-load.d
DKMS_SRCDIR ?= /usr/src
DESTDIR ?=
BUILD ?= $(CURDIR)/build
CC ?= gcc
KSFT_DIR ?= $(firstword $(wildcard $(KDIR)/tools/testing/selftests \
	$(HOME)/.cache/hwtimer/src/*/tools/testing/selftests \
	/usr/src/linux-source-*/tools/testing/selftests))

# The release: VERSION is the one file that names it. The build writes it
# into the module (Kbuild), libhwtimer_version.h, hwtimer.pc, dkms.conf
# and the man pages; tests/host/version_check.sh fails if any disagree.
VERSION := $(shell cat "$(CURDIR)/VERSION")
VERSION_WORDS := $(subst ., ,$(VERSION))
SUBST_VERSION := sed -e 's|@VERSION@|$(VERSION)|g' \
	-e 's|@VERSION_MAJOR@|$(word 1,$(VERSION_WORDS))|g' \
	-e 's|@VERSION_MINOR@|$(word 2,$(VERSION_WORDS))|g' \
	-e 's|@VERSION_PATCH@|$(word 3,$(VERSION_WORDS))|g'

# WERROR=0 (distribution builds: debian/rules) keeps warnings warnings
WERROR ?= 1
WARN := -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror) -Wno-unused-parameter
# kselftest_harness.h: EXPECT_* compare mixed signedness, TEST_F vfork()s
TEST_WARN := -Wno-sign-compare -Wno-clobbered
# $(BUILD)/include: libhwtimer_version.h, which the build writes
UCFLAGS := -O2 -g -std=gnu11 $(WARN) -I$(CURDIR)/uapi -I$(BUILD)/include

USER_TESTS := $(patsubst tests/user/%.c,$(BUILD)/tests/%,$(wildcard tests/user/*_test.c))
SMOKE_TESTS := $(patsubst tests/smoke/%.c,$(BUILD)/smoke/%,$(wildcard tests/smoke/*.c))

# libhwtimer and hwtimerctl. What a distribution builds with (CFLAGS,
# CPPFLAGS, LDFLAGS: dpkg-buildflags) comes after the tree's own flags.
UT := userspace-tool
LIB_SOVER := 1
LIB_VERSION := $(VERSION)
LIB_CFLAGS := $(UCFLAGS) -fPIC -fvisibility=default -I$(UT)/lib $(CPPFLAGS) $(CFLAGS)
VERSION_HDR := $(BUILD)/include/libhwtimer_version.h
# the parts without the device, which the host tests build too
CLI_PURE := $(UT)/parse.c $(UT)/hist.c $(UT)/args.c $(UT)/usage.c $(UT)/samples.c \
	$(UT)/histfile.c
CLI_SRCS := $(UT)/hwtimerctl.c $(UT)/cli.c $(UT)/cmd_timer.c $(UT)/cmd_latency.c \
	$(UT)/latency_oneshot.c $(UT)/latency_periodic.c $(UT)/latency_report.c \
	$(UT)/cmd_bench.c $(UT)/cmd_observe.c $(CLI_PURE)
CLI_HDRS := $(UT)/cli.h $(UT)/parse.h $(UT)/hist.h $(UT)/args.h $(UT)/samples.h \
	$(UT)/histfile.h $(UT)/latency.h $(UT)/lib/libhwtimer.h uapi/linux/hwtimer.h \
	$(VERSION_HDR)

.PHONY: all tests native-tests module user lib cli user-tests ksft-check native-check host-tests host-check check check-long vm bench \
	style clean man install-build \
	install install-module install-user uninstall uninstall-module uninstall-user \
	install-dkms-src dkms-install dkms-uninstall dist deb

# What make install installs (hwtimer.ko alone, not the example driver, the
# benchmark or the KUnit modules that make module builds besides), and nothing
# that needs more than the kernel's headers and build-essential. The tests
# have their own target.
all: MODULE_FLAGS := HWT_TEST_MODULES=n
all: module install-build

tests: user-tests host-tests native-tests

module:
	@test -d "$(KDIR)" || { echo "No kernel build tree at KDIR=$(KDIR)." \
		"Install linux-headers-$$(uname -r) or pass KDIR=/path/to/build." >&2; exit 1; }
	$(MAKE) -C "$(KDIR)" M="$(CURDIR)" $(MODULE_FLAGS) modules

user: lib cli user-tests

lib: $(BUILD)/lib/libhwtimer.a $(BUILD)/lib/libhwtimer.so.$(LIB_VERSION) $(BUILD)/lib/hwtimer.pc

cli: $(BUILD)/bin/hwtimerctl

LIB_OBJS := $(BUILD)/lib/libhwtimer.o $(BUILD)/lib/ring.o $(BUILD)/lib/version.o

$(VERSION_HDR): $(UT)/lib/libhwtimer_version.h.in VERSION
	@mkdir -p $(@D)
	$(SUBST_VERSION) $< > $@

$(BUILD)/lib/%.o: $(UT)/lib/%.c $(UT)/lib/libhwtimer.h uapi/linux/hwtimer.h $(VERSION_HDR)
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -c $< -o $@

$(BUILD)/lib/libhwtimer.a: $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

# the version script exports exactly the documented functions
$(BUILD)/lib/libhwtimer.so.$(LIB_VERSION): $(LIB_OBJS) $(UT)/lib/libhwtimer.map
	$(CC) $(LDFLAGS) -shared -Wl,-soname,libhwtimer.so.$(LIB_SOVER) \
		-Wl,--version-script,$(UT)/lib/libhwtimer.map $(LIB_OBJS) -o $@
	ln -sf libhwtimer.so.$(LIB_VERSION) $(BUILD)/lib/libhwtimer.so.$(LIB_SOVER)
	ln -sf libhwtimer.so.$(LIB_SOVER) $(BUILD)/lib/libhwtimer.so

$(BUILD)/lib/hwtimer.pc: $(UT)/lib/hwtimer.pc.in VERSION
	@mkdir -p $(@D)
	$(SUBST_VERSION) -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' $< > $@

# with liburing (liburing-dev), 'hwtimerctl bench' has io_uring rows too
CLI_URING := $(if $(wildcard /usr/include/liburing.h),-DHWT_HAVE_LIBURING)
# static, so that it runs in the test guests' busybox initramfs as it is
$(BUILD)/bin/hwtimerctl: $(CLI_SRCS) $(CLI_HDRS) $(BUILD)/lib/libhwtimer.a
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(CLI_URING) -static -I$(UT)/lib $(CLI_SRCS) $(BUILD)/lib/libhwtimer.a -o $@ \
		$(if $(CLI_URING),-luring)

# what make install installs: linked against libhwtimer.so.1
$(BUILD)/shared/hwtimerctl: $(CLI_SRCS) $(CLI_HDRS) $(BUILD)/lib/libhwtimer.so.$(LIB_VERSION)
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(CPPFLAGS) $(CFLAGS) $(CLI_URING) -I$(UT)/lib $(CLI_SRCS) \
		$(LDFLAGS) -L$(BUILD)/lib -lhwtimer -o $@ $(if $(CLI_URING),-luring)

# the man pages, with the release in their .TH lines; a page that only
# includes another (.so, one per name a page documents besides its own) is
# installed as a symlink to it
MAN_PAGES := $(wildcard $(UT)/man/*.[1347])
MAN_BUILT := $(patsubst $(UT)/man/%,$(BUILD)/man/%,$(MAN_PAGES))
$(BUILD)/man/%: $(UT)/man/% VERSION
	@mkdir -p $(@D)
	$(SUBST_VERSION) $< > $@

man: $(MAN_BUILT)

user-tests: $(USER_TESTS) $(SMOKE_TESTS)

ksft-check:
	@test -f "$(KSFT_DIR)/kselftest_harness.h" || { echo "kselftest_harness.h not found:" \
		"set KSFT_DIR to a kernel source tree's tools/testing/selftests" \
		"(apt-get install linux-source-6.12 and unpack it)." >&2; exit 1; }

$(BUILD)/tests/%: tests/user/%.c $(wildcard tests/user/*.h uapi/linux/*.h) $(UT)/lib/libhwtimer.h \
		$(VERSION_HDR) $(BUILD)/lib/libhwtimer.a | ksft-check
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

WHEEL_SUITES := $(BUILD)/wheel_kunit $(BUILD)/wheel_bound_kunit $(BUILD)/wheel_model_kunit \
	$(BUILD)/wheel_range_kunit $(BUILD)/wheel_herd_kunit $(BUILD)/wheel_ahead_kunit \
	$(BUILD)/wheel_look_kunit $(BUILD)/wheel_clock_kunit

$(WHEEL_SUITES): $(BUILD)/%: tests/kunit/%.c tests/kunit/wheel_test.h tests/kunit/wheel_unit.h \
		kmod/wheel.c kmod/wheel_clock.c \
		kmod/wheel_geometry.c kmod/wheel_cascade.c kmod/wheel_look.c \
		kmod/wheel_look.h kmod/wheel_impl.h kmod/wheel.h \
		kmod/include/linux/hwt_node.h $(wildcard tests/native/include/*/*.h)
	@mkdir -p $(@D)
	$(CC) $(NATIVE_CFLAGS) $< -o $@

native-tests: $(WHEEL_SUITES)

native-check: $(WHEEL_SUITES)
	set -e; for t in $(WHEEL_SUITES); do $$t; done

# hwtimerctl's parsers, command lines and statistics, on the host, under
# ASan and UBSan
HOST_TESTS := $(patsubst tests/host/%.c,$(BUILD)/host/%,$(wildcard tests/host/*_test.c))

$(HOST_TESTS): $(BUILD)/host/%: tests/host/%.c $(CLI_PURE) $(CLI_HDRS) | ksft-check
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(TEST_WARN) -fsanitize=address,undefined -fno-sanitize-recover=all \
		-I"$(KSFT_DIR)" -I$(UT) $< $(CLI_PURE) -o $@

host-tests: $(HOST_TESTS)

host-check: $(HOST_TESTS)
	rc=0; for t in $(HOST_TESTS); do $$t || rc=1; done; exit $$rc

# Installation. The module goes where modules_install puts it (INSTALL_MOD_PATH
# follows DESTDIR); the rest under PREFIX, the headers in a folder of their
# own (INCLUDEDIR/hwtimer, which hwtimer.pc's Cflags name: linux/ is
# linux-libc-dev's), as the Debian packages lay them out.
# the release the module's vermagic names (Debian's 6.1 headers put another
# string in include/config/kernel.release)
KRELEASE = $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' "$(KDIR)/include/generated/utsrelease.h" 2>/dev/null)
HDRDIR = $(INCLUDEDIR)/hwtimer
USER_FILES = $(BINDIR)/hwtimerctl $(LIBDIR)/libhwtimer.a \
	$(LIBDIR)/libhwtimer.so.$(LIB_VERSION) $(LIBDIR)/libhwtimer.so.$(LIB_SOVER) \
	$(LIBDIR)/libhwtimer.so $(LIBDIR)/pkgconfig/hwtimer.pc \
	$(HDRDIR)/libhwtimer.h $(HDRDIR)/libhwtimer_version.h $(HDRDIR)/linux/hwtimer.h \
	$(MODULESLOADDIR)/hwtimer.conf $(BASHCOMPDIR)/hwtimerctl \
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

# what install-user installs, built (debian/rules builds this)
install-build: lib $(BUILD)/shared/hwtimerctl man

# A staged install (DESTDIR) only writes files; an install on the box also
# runs ldconfig. No udev rule: the module creates /dev/hwtimer with mode
# 0666, and udev/60-hwtimer.rules says how an administrator restricts it.
install-user: install-build
	install -D -m 0755 $(BUILD)/shared/hwtimerctl "$(DESTDIR)$(BINDIR)/hwtimerctl"
	install -D -m 0644 $(BUILD)/lib/libhwtimer.a "$(DESTDIR)$(LIBDIR)/libhwtimer.a"
	install -D -m 0755 $(BUILD)/lib/libhwtimer.so.$(LIB_VERSION) \
		"$(DESTDIR)$(LIBDIR)/libhwtimer.so.$(LIB_VERSION)"
	ln -sf libhwtimer.so.$(LIB_VERSION) "$(DESTDIR)$(LIBDIR)/libhwtimer.so.$(LIB_SOVER)"
	ln -sf libhwtimer.so.$(LIB_SOVER) "$(DESTDIR)$(LIBDIR)/libhwtimer.so"
	install -D -m 0644 $(BUILD)/lib/hwtimer.pc "$(DESTDIR)$(LIBDIR)/pkgconfig/hwtimer.pc"
	install -D -m 0644 $(UT)/lib/libhwtimer.h "$(DESTDIR)$(HDRDIR)/libhwtimer.h"
	install -D -m 0644 $(VERSION_HDR) "$(DESTDIR)$(HDRDIR)/libhwtimer_version.h"
	install -D -m 0644 uapi/linux/hwtimer.h "$(DESTDIR)$(HDRDIR)/linux/hwtimer.h"
	install -D -m 0644 modules-load.d/hwtimer.conf "$(DESTDIR)$(MODULESLOADDIR)/hwtimer.conf"
	install -D -m 0644 $(UT)/completion/hwtimerctl "$(DESTDIR)$(BASHCOMPDIR)/hwtimerctl"
	set -e; for p in $(MAN_BUILT); do \
		s=$${p##*.}; d="$(DESTDIR)$(MANDIR)/man$$s"; l=$$(sed -n '1s|^\.so man[0-9]/||p' $$p); \
		if [ -n "$$l" ]; then mkdir -p "$$d" && ln -sf "$$l" "$$d/$${p##*/}"; \
		else install -D -m 0644 $$p "$$d/$${p##*/}"; fi; \
	done
	$(if $(DESTDIR),,-ldconfig)

uninstall: uninstall-module uninstall-user

uninstall-module:
	$(if $(KRELEASE),,$(error no kernel release in $(KDIR): set KDIR to the tree the module was installed for))
	rm -f "$(DESTDIR)/lib/modules/$(KRELEASE)/extra/"hwtimer*.ko*
	-rmdir "$(DESTDIR)/lib/modules/$(KRELEASE)/extra" 2>/dev/null
	depmod $(if $(DESTDIR),-b "$(DESTDIR)") -a $(KRELEASE)

uninstall-user:
	rm -f $(addprefix "$(DESTDIR),$(addsuffix ",$(USER_FILES)))
	-rmdir "$(DESTDIR)$(HDRDIR)/linux" "$(DESTDIR)$(HDRDIR)" 2>/dev/null
	$(if $(DESTDIR),,-ldconfig)

# DKMS: the module's sources, and only those (no tests, benchmarks or
# example drivers), in DKMS_SRCDIR/hwtimer-VERSION, built for every kernel
# the box installs. DKMS_KERNELS (release names) picks kernels other than
# the running one. hwtimer-dkms (debian/) installs the same files.
DKMS ?= dkms
DKMS_KERNELS ?=
DKMS_DIR = $(DESTDIR)$(DKMS_SRCDIR)/hwtimer-$(VERSION)
DKMS_FILES = Kbuild VERSION dkms-post-build \
	$(wildcard kmod/*.[ch] kmod/compat/* kmod/include/linux/*.h) uapi/linux/hwtimer.h

$(BUILD)/dkms.conf: dkms.conf VERSION
	@mkdir -p $(@D)
	sed 's|#MODULE_VERSION#|$(VERSION)|g' $< > $@

install-dkms-src: $(BUILD)/dkms.conf
	set -e; for f in $(DKMS_FILES); do \
		install -D -m $$([ -x $$f ] && echo 0755 || echo 0644) $$f "$(DKMS_DIR)/$$f"; \
	done
	install -m 0644 $(BUILD)/dkms.conf "$(DKMS_DIR)/dkms.conf"

dkms-install: install-dkms-src
	$(DKMS) add -m hwtimer -v $(VERSION)
	$(DKMS) install -m hwtimer -v $(VERSION) $(addprefix -k ,$(DKMS_KERNELS))

dkms-uninstall:
	-$(DKMS) remove -m hwtimer -v $(VERSION) --all
	rm -rf "$(DKMS_DIR)"

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

# A release tarball of what is committed at HEAD: everything a build and
# make check need, no .git. Commit first: local changes are not in it.
DISTDIR ?= $(CURDIR)
dist:
	@git diff --quiet HEAD 2>/dev/null || echo "make dist: uncommitted changes are not in the tarball" >&2
	git archive --format=tar --prefix=hwtimer-$(VERSION)/ HEAD | xz -T0 -9 > "$(DISTDIR)/hwtimer-$(VERSION).tar.xz"
	@echo "$(DISTDIR)/hwtimer-$(VERSION).tar.xz"

# The Debian packages (debian/), built from a copy of the tree (what git
# tracks, committed or not), into DEBDIR, with the source package (.dsc)
# that lintian checks beside the binary ones; scripts/deps.sh installs
# their build-dependencies. DEB_BUILD_OPTIONS=nocheck skips the wheel's
# native suites.
DEBDIR ?= $(BUILD)/deb
deb:
	rm -rf "$(DEBDIR)" && mkdir -p "$(DEBDIR)/hwtimer-$(VERSION)"
	(git ls-files -co --exclude-standard 2>/dev/null || find . -type f -not -path './.git/*') | \
		grep -v '^\(\./\)\?\(build\|\.vm\)/' | xargs -d '\n' cp --parents -t "$(DEBDIR)/hwtimer-$(VERSION)"
	cd "$(DEBDIR)/hwtimer-$(VERSION)" && dpkg-buildpackage -us -uc
	@ls "$(DEBDIR)"/*.dsc "$(DEBDIR)"/*.deb

clean:
	rm -rf "$(BUILD)" .vm
	find . \( -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' \
		-o -name '.*.cmd' -o -name '*.symvers' -o -name 'modules.order' \) \
		-not -path './.git/*' -delete

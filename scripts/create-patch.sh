#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# hwtimer as a series of patches for the kernel's own tree, WireGuard's
# model: the out-of-tree module stays the one source, and this script
# writes what would be sent. Against KERNEL_TREE (Debian's linux-source-6.12
# in make check), it adds a notifier that clock_was_set() calls
# (kernel/time/hrtimer.c: the kernel's side of cancel-on-set,
# scripts/intree/clock-set-notifier.patch) and hwtimer's counts in the
# ucounts (kernel/ucount.c: the per-user limits as user namespace sysctls,
# scripts/intree/ucounts.patch), and places
#
#   drivers/misc/hwtimer/           the module (kmod/), its Kconfig and
#                                   Makefile, and its KUnit suites
#   include/linux/                  the in-kernel API (kmod/include/linux/)
#   include/uapi/linux/hwtimer.h    the ioctls (uapi/)
#   include/trace/events/hwtimer.h  the tracepoints (kmod/hwt_trace.h)
#   Documentation/                  the userspace API, the sysfs ABI, the
#                                   ioctl number
#   tools/testing/selftests/hwtimer the userspace tests that use the raw
#                                   ioctls alone (no libhwtimer, no liburing)
#   MAINTAINERS
#
# The out-of-tree build's probes (kmod/compat/probe.sh) are resolved for
# the target tree with the series applied: compat.h keeps the branches the
# tree takes, nothing else.
#
# Usage: scripts/create-patch.sh [-o OUTDIR] KERNEL_TREE
# Writes OUTDIR/0001-*.patch ... (default: ./patches), which apply to the
# tree with `git am` or `patch -p1`.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=$PWD/patches
while getopts o: opt; do
	case $opt in
	o) out=$(realpath -m "$OPTARG") ;;
	*) echo "usage: $0 [-o OUTDIR] KERNEL_TREE" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: $0 [-o OUTDIR] KERNEL_TREE" >&2; exit 2; }
tree=$(realpath "$1")
[ -f "$tree/Makefile" ] && [ -d "$tree/drivers/misc" ] ||
	{ echo "$0: $tree is not a kernel tree" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
work=$tmp/tree
drv=drivers/misc/hwtimer
version=$(cat "$top/VERSION")
author=$(git -C "$top" log -1 --format='%an <%ae>' 2>/dev/null ||
	echo 'hwtimer maintainers <hwtimer@example.org>')

# The files of the tree the series changes, as the tree has them: the base
# commit of a scratch repository whose commits become the patches.
base_files=(drivers/misc/Kconfig drivers/misc/Makefile MAINTAINERS
	include/linux/hrtimer.h kernel/time/hrtimer.c
	include/linux/user_namespace.h kernel/ucount.c
	Documentation/userspace-api/index.rst
	Documentation/userspace-api/ioctl/ioctl-number.rst
	tools/testing/selftests/Makefile)
mkdir -p "$work"
git -C "$work" init -q
for f in "${base_files[@]}"; do
	mkdir -p "$work/$(dirname "$f")"
	cp "$tree/$f" "$work/$f"
done
g() { git -C "$work" -c user.name="${author% <*}" -c user.email="$(sed 's/.*<\(.*\)>/\1/' <<<"$author")" "$@"; }
g add -A
g commit -q -m base
g tag base

# commit SUBJECT BODY: one patch of what changed since the last
commit() {
	g add -A
	g commit -q -s -F - <<<"$1

$2"
}

# insert_after FILE REGEX LINE: LINE after the first line matching REGEX
insert_after() {
	local f=$work/$1
	grep -qE "$2" "$f" || { echo "$0: $1 has no line matching '$2'" >&2; exit 1; }
	awk -v re="$2" -v add="$3" '{ print } !done && $0 ~ re { print add; done = 1 }' \
		"$f" > "$f.new"
	mv "$f.new" "$f"
}

# maintain PATH...: the series' MAINTAINERS entry lists PATH too
maintain() {
	python3 "$top/scripts/intree/maintainers.py" "$work/MAINTAINERS" "$author" "$@"
}

# The probes' answers for this tree, as unifdef's -D and -U, and the
# clock-set notifier and the ucounts, which the series' first patches add
probed=$(sh "$top/kmod/compat/probe.sh" "$tree"
	echo -DHWT_COMPAT_CLOCK_SET_NOTIFIER -DHWT_COMPAT_UCOUNTS | tr ' ' '\n')
unifdef_args=()
for sym in $(grep -ohE 'HWT_COMPAT_[A-Z0-9_]+' "$top/kmod/compat/compat.h" "$top"/kmod/*.c | sort -u); do
	if grep -qx -- "-D$sym" <<<"$probed"; then
		unifdef_args+=("-D$sym")
	else
		unifdef_args+=("-U$sym")
	fi
done
cc -O2 -o "$tmp/unifdef" "$tree/scripts/unifdef.c"
resolve() {	# resolve FILE: the compat branches the tree takes, in place
	local rc=0
	"$tmp/unifdef" "${unifdef_args[@]}" -o "$1.new" "$1" || rc=$?
	# unifdef: 0 unchanged, 1 changed, 2 trouble
	[ $rc -le 1 ] || { echo "$0: unifdef failed on $1" >&2; exit 1; }
	mv "$1.new" "$1"
}

# in-tree names: the trace header under include/trace/events, compat.h
# beside the sources, the uapi header where the kernel keeps it
intree_includes() {
	sed -i -e 's|#include "hwt_trace.h"|#include <trace/events/hwtimer.h>|' \
		-e 's|#include "compat/compat.h"|#include "compat.h"|' "$@"
}

## 1. the kernel's side of cancel-on-set
patch -d "$work" -p1 -s < "$top/scripts/intree/clock-set-notifier.patch" ||
	{ echo "$0: clock-set-notifier.patch does not apply to $tree" >&2; exit 1; }
commit "hrtimer: a notifier for clock sets" \
"timerfd's TFD_TIMER_CANCEL_ON_SET hears of a clock set from
clock_was_set(), which calls timerfd_clock_was_set() directly. A module
that offers the same (hwtimer's HWTIMER_F_CANCEL_ON_SET) cannot be
called that way, and the one notifier it can register with,
pvclock_gtod's, is called on the timekeeper's every update, under its
lock with interrupts off, to say whether a clock was set.

Call an atomic notifier chain from clock_was_set(), after timerfd, with
the clocks that moved as the action: a module hears of the sets only,
and pays nothing in between."

## 2. the per-user limits, on ucounts
patch -d "$work" -p1 -s < "$top/scripts/intree/ucounts.patch" ||
	{ echo "$0: ucounts.patch does not apply to $tree" >&2; exit 1; }
commit "ucount: count hwtimer's files and timers" \
"hwtimer limits what each user holds: open files of /dev/hwtimer, and
the timers they hold, counted as the table entries they take (a file's
wheels and ring count as the entries of as many bytes), both past what a
memory cgroup bounds, since expiries and re-arms are the kernel's work.
Out of tree, it keeps a table of users and module parameters for that,
and charges the creator of a user's outermost namespace, as ucounts
charges every level.

Count them in ucounts, as inotify's instances and watches are:
UCOUNT_HWTIMER_FILES and UCOUNT_HWTIMER_TIMERS, limited per user
namespace by user.max_hwtimer_files (4096 in the initial namespace) and
user.max_hwtimer_timers (8388608). The timers are charged in amounts (a
page of table entries at a time), which inc_ucount() cannot do: add
charge_ucounts() and uncharge_ucounts(), which charge every level
within its limit or nothing. Export them, and inc_ucount() and
dec_ucount(), for hwtimer built as a module."

## 3. the uapi header
mkdir -p "$work/include/uapi/linux"
cp "$top/uapi/linux/hwtimer.h" "$work/include/uapi/linux/hwtimer.h"
insert_after Documentation/userspace-api/ioctl/ioctl-number.rst '^0xB8 ' \
	"$(printf '%-6s%-7s%-59s%s' 0xB9 00-2F uapi/linux/hwtimer.h '<mailto:linux-kernel@vger.kernel.org>')"
maintain include/uapi/linux/hwtimer.h
commit "hwtimer: add the userspace API header" \
"hwtimer gives userspace timers on a hashed, hierarchical timing wheel
(Varghese & Lauck) through /dev/hwtimer: one file holds any number of
timers, which ioctls (one at a time, or in batches) arm, modify and
cancel, and whose expiries are read() as records, taken from a shared
ring, or signalled through eventfds.

This header holds the ioctls, their structures and the record format.
The structures are extensible (copy_struct_from_user()), and the ABI is
the same for 32-bit tasks. Reserve ioctl magic 0xB9 for it."

## 4. the module
mkdir -p "$work/$drv" "$work/include/linux" "$work/include/trace/events"
cp "$top"/kmod/*.c "$top"/kmod/*.h "$work/$drv/"
rm "$work/$drv/hwt_trace.h"
cp "$top/kmod/compat/compat.h" "$work/$drv/compat.h"
resolve "$work/$drv/compat.h"
for f in "$work/$drv"/*.[ch]; do
	grep -q HWT_COMPAT_ "$f" && resolve "$f"
done
cp "$top"/kmod/include/linux/*.h "$work/include/linux/"
sed -e '/^#undef TRACE_INCLUDE_PATH/,/^#define TRACE_INCLUDE_FILE/d' \
	"$top/kmod/hwt_trace.h" > "$work/include/trace/events/hwtimer.h"
intree_includes "$work/$drv"/*.[ch] "$work/include/trace/events/hwtimer.h"
# the objects, from the out-of-tree Kbuild (the one list of them)
objs=$(sed -n '/^hwtimer-y :=/,/[^\\]$/p' "$top/Kbuild" | sed -e 's/^hwtimer-y :=//' \
	-e 's/\\$//' -e 's|kmod/||g' | tr -s ' \t\n' ' ')
uring=$(sed -n 's|^hwtimer-$(CONFIG_IO_URING) += kmod/||p' "$top/Kbuild")
cp "$top/scripts/intree/Kconfig" "$work/$drv/Kconfig"
{
	echo '# SPDX-License-Identifier: GPL-2.0'
	echo
	echo 'obj-$(CONFIG_HWTIMER) += hwtimer.o'
	echo
	echo "$objs" | fold -s -w 64 | sed -e 's/ *$//' -e '1s/^ */hwtimer-y := /' \
		-e '2,$s/^ */\t/' | sed -e '$!s/$/ \\/'
	echo "hwtimer-\$(CONFIG_IO_URING) += $uring"
	echo
	echo "CFLAGS_main.o := -DHWT_VERSION='\"$version\"'"
	echo '# the wheel traces its cascades and counts occupancy (wheel_hooks.h)'
	for o in $objs; do
		case $o in wheel*.o) echo "CFLAGS_$o := -DHWT_WHEEL_HOOKS" ;; esac
	done
} > "$work/$drv/Makefile"
insert_after drivers/misc/Kconfig '^source "drivers/misc/keba/Kconfig"' \
	'source "drivers/misc/hwtimer/Kconfig"'
echo 'obj-$(CONFIG_HWTIMER)		+= hwtimer/' >> "$work/drivers/misc/Makefile"
maintain $drv/ include/linux/hwtimer.h include/linux/hwt_node.h include/trace/events/hwtimer.h
# the KUnit suites, in the same patch
mkdir -p "$work/$drv/tests"
cp "$top"/tests/kunit/*.c "$top"/tests/kunit/*.h "$work/$drv/tests/"
intree_includes "$work/$drv/tests"/*.[ch]
{ echo; sed 1d "$top/scripts/intree/Kconfig.kunit"; } >> "$work/$drv/Kconfig"
{
	echo
	echo '# KUnit suites, named <suite>_kunit'
	echo 'ccflags-$(CONFIG_HWTIMER_KUNIT_TEST) += -I$(src)'
	sed -n '/^ifneq ($(CONFIG_KUNIT),)/,/^endif/p' "$top/Kbuild" | sed -e '1d' -e '$d' \
		-e 's/^obj-m += /obj-$(CONFIG_HWTIMER_KUNIT_TEST) += /' \
		-e 's|tests/kunit/|tests/|'
} >> "$work/$drv/Makefile"
cp "$top/scripts/intree/kunitconfig" "$work/$drv/.kunitconfig"
commit "hwtimer: timers on a hashed timing wheel, for userspace and drivers" \
"Applications that keep hundreds of thousands or millions of timeouts
pay for a timerfd each, or keep a heap in userspace behind one timerfd.
hwtimer keeps them in the kernel, on a hashed hierarchical timing wheel
(Varghese & Lauck's scheme 7): adding, re-arming and cancelling a timer
cost the same whatever its delay and however many are pending. An
hrtimer, armed only when something is due and for the earliest deadline
among the slots due next, drives the wheel, so that without slack a
timer fires at its deadline, never early.

Programs reach it through /dev/hwtimer, a misc device: one open file
holds any number of timers, named by ids, armed, modified and cancelled
one per ioctl, in batches, or as io_uring commands; expiries come back
as records from read(), through eventfds, or in a ring mapped into the
reader. Drivers embed a struct hwtimer (<linux/hwtimer.h>) and use
hwtimer_start(), hwtimer_modify(), hwtimer_cancel(), hwtimer_cancel_sync()
and hwtimer_shutdown_sync(), with callbacks in softirq or, on request,
process context.

Per-user limits bound the timers and memory a user holds. The wheel's
geometry, occupancy, counters and a lateness histogram are in sysfs,
and tracepoints follow every add, modify, cancel, expiry, cascade and
tick.

The KUnit suites (HWTIMER_KUNIT_TEST) of the wheel compile it into their
own unit, static, and check it against a model with a fake clock:
placement in every geometry, bounds, cascades, herds, the looks a pop
saves. The others test the in-kernel API and its bases on the running
kernel: starts, modifies and cancels racing callbacks on other CPUs, and
expiries never early.

  ./tools/testing/kunit/kunit.py run --kunitconfig=drivers/misc/hwtimer"

## 5. the documentation
cp "$top/Documentation/userspace-api/hwtimer.rst" "$work/Documentation/userspace-api/"
mkdir -p "$work/Documentation/ABI/testing"
cp "$top"/Documentation/ABI/testing/* "$work/Documentation/ABI/testing/"
insert_after Documentation/userspace-api/index.rst '^   gpio/index$' '   hwtimer'
maintain Documentation/userspace-api/hwtimer.rst \
	$(cd "$top" && ls Documentation/ABI/testing/*)
commit "Documentation: hwtimer's userspace API and sysfs ABI" \
"How a program uses /dev/hwtimer: the ioctls, the records, the ring, the
eventfds, the io_uring commands, the limits and the errors; and the
attributes hwtimer keeps in sysfs."

## 6. the selftests
st=tools/testing/selftests/hwtimer
mkdir -p "$work/$st"
# a test whose includes, followed, name neither libhwtimer nor liburing
uses_libs() {
	local f=$1 inc
	grep -qE '#include [<"](libhwtimer|liburing)' "$f" && return 0
	for inc in $(sed -n 's/^#include "\([^"]*\)"/\1/p' "$f"); do
		[ -f "$top/tests/user/$inc" ] && uses_libs "$top/tests/user/$inc" && return 0
	done
	return 1
}
progs=()
for t in "$top"/tests/user/*_test.c; do
	uses_libs "$t" && continue
	progs+=("$(basename "$t" .c)")
	cp "$t" "$work/$st/"
done
# and the local headers they include, followed
headers() {
	local inc
	for inc in $(sed -n 's/^#include "\([^"]*\)"/\1/p' "$@"); do
		[ -f "$top/tests/user/$inc" ] && [ ! -f "$work/$st/$inc" ] || continue
		cp "$top/tests/user/$inc" "$work/$st/"
		headers "$top/tests/user/$inc"
	done
}
headers "$work/$st"/*_test.c
{
	echo '# SPDX-License-Identifier: GPL-2.0'
	echo 'CFLAGS += -O2 -g -std=gnu11 -Wall $(KHDR_INCLUDES) -I../ -pthread'
	echo 'LDLIBS += -lpthread'
	echo
	echo "${progs[*]}" | fold -s -w 64 | sed -e 's/ *$//' -e '1s/^/TEST_GEN_PROGS := /' \
		-e '2,$s/^/\t/' | sed -e '$!s/$/ \\/'
	echo
	echo 'LOCAL_HDRS += $(wildcard *.h)'
	echo
	echo 'include ../lib.mk'
} > "$work/$st/Makefile"
printf 'CONFIG_HWTIMER=m\n' > "$work/$st/config"
printf 'timeout=900\n' > "$work/$st/settings"
printf '%s\n' "${progs[@]}" > "$work/$st/.gitignore"
insert_after tools/testing/selftests/Makefile '^TARGETS \+= hid$' 'TARGETS += hwtimer'
maintain $st/
commit "selftests: hwtimer" \
"The userspace tests of hwtimer's ioctls, with the kselftest harness:
every operation's results and errors, batches, ids, budgets, clocks,
records and eventfds, the limits of an unprivileged user, and a stress
of concurrent arming and cancelling. Each skips when /dev/hwtimer is
absent."

rm -rf "$out"
mkdir -p "$out"
g format-patch -q -o "$out" base..HEAD
ls "$out"

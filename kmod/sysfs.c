// SPDX-License-Identifier: GPL-2.0
/*
 * hwtimer in sysfs, under the misc device (/sys/class/misc/hwtimer/):
 *
 *   stats/<counter>       global counters, one decimal value each (see
 *                         struct hwt_stats); stats/lateness_hist holds the
 *                         32 buckets of the lateness histogram
 *   wheel/                geometry: tick_ns, levels, slots_per_level,
 *                         max_delay_ns; the work bound of a run,
 *                         pass_budget; and what every base holds: timers,
 *                         parked, bases
 *   level<L>/             per level: granularity_ns, range_from_ns,
 *                         range_to_ns, and the occupied_slots and timers of
 *                         every base's wheel together
 *
 * Why sysfs and not debugfs: anyone may use /dev/hwtimer, so anyone may see
 * how the wheel behaves, and hwtimerctl stats/top run unprivileged. debugfs
 * is root-only, often not mounted, and off under lockdown. The files are a
 * documented ABI (Documentation/ABI/testing/sysfs-class-misc-hwtimer).
 * Per-file counters are in /proc/PID/fdinfo instead.
 */
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "base.h"
#include "sysfs.h"

enum hwt_attr_kind {
	HWT_A_COUNTER,		/* stats/<counter> */
	HWT_A_MAXIMUM,		/* stats/<maximum> */
	HWT_A_GRANULARITY,	/* level<L>/granularity_ns */
	HWT_A_FROM,		/* level<L>/range_from_ns */
	HWT_A_TO,		/* level<L>/range_to_ns */
	HWT_A_SLOTS,		/* level<L>/occupied_slots */
	HWT_A_TIMERS,		/* level<L>/timers */
	HWT_A_LEVEL_FIRST = HWT_A_GRANULARITY,
	HWT_A_LEVEL_LAST = HWT_A_TIMERS,
};

static const char * const hwt_level_files[] = {
	[HWT_A_GRANULARITY] = "granularity_ns",
	[HWT_A_FROM] = "range_from_ns",
	[HWT_A_TO] = "range_to_ns",
	[HWT_A_SLOTS] = "occupied_slots",
	[HWT_A_TIMERS] = "timers",
};

/**
 * struct hwt_attr - a sysfs file made at load time
 * @dattr: the attribute
 * @kind: what it shows
 * @index: the counter, maximum or level
 */
struct hwt_attr {
	struct device_attribute dattr;
	enum hwt_attr_kind kind;
	unsigned int index;
};

static ssize_t hwt_attr_show(struct device *dev, struct device_attribute *da,
			     char *buf)
{
	const struct hwt_attr *a = container_of(da, struct hwt_attr, dattr);
	unsigned int shift = hwt_geo.shift + a->index * HWT_LVL_BITS;
	/*
	 * a slot of level L is 32^L ticks; keys from two slots ahead (64 of
	 * the level below) to 64 slots ahead are placed there (wheel.h)
	 */
	u64 gran = shift < 64 ? 1ULL << shift : U64_MAX;
	u64 from = shift + 1 < 64 ? 2ULL << shift : U64_MAX;
	u64 to = shift + HWT_LVL_BITS + 1 < 64 ?
		 HWT_LVL_SIZE << shift : U64_MAX;
	struct hwt_occupancy o;
	struct hwt_stats s;

	switch (a->kind) {
	case HWT_A_COUNTER:
		hwt_stats_sum(&s);
		return sysfs_emit(buf, "%llu\n", s.count[a->index]);
	case HWT_A_MAXIMUM:
		hwt_stats_sum(&s);
		return sysfs_emit(buf, "%llu\n", s.max[a->index]);
	case HWT_A_GRANULARITY:
		return sysfs_emit(buf, "%llu\n", gran);
	case HWT_A_FROM:
		return sysfs_emit(buf, "%llu\n", a->index ? from : 0);
	case HWT_A_TO:
		return sysfs_emit(buf, "%llu\n", to);
	case HWT_A_SLOTS:
		hwt_occupancy(&o);
		return sysfs_emit(buf, "%ld\n", o.slots[a->index]);
	case HWT_A_TIMERS:
		hwt_occupancy(&o);
		return sysfs_emit(buf, "%ld\n", o.timers[a->index]);
	}
	return -EINVAL;
}

/* stats/lateness_hist: the 32 buckets, space-separated */
static ssize_t lateness_hist_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct hwt_stats s;
	int i, len = 0;

	hwt_stats_sum(&s);
	for (i = 0; i < HWT_HIST_BUCKETS; i++)
		len += sysfs_emit_at(buf, len, "%s%llu", i ? " " : "",
				     s.late_hist[i]);
	return len + sysfs_emit_at(buf, len, "\n");
}
static DEVICE_ATTR_RO(lateness_hist);

/* wheel/ */

static ssize_t tick_ns_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%llu\n", hwt_geo.tick_ns);
}
static DEVICE_ATTR_RO(tick_ns);

static ssize_t levels_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%u\n", hwt_geo.levels);
}
static DEVICE_ATTR_RO(levels);

static ssize_t slots_per_level_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lu\n", HWT_LVL_SIZE);
}
static DEVICE_ATTR_RO(slots_per_level);

static ssize_t max_delay_ns_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", hwt_geo.max_delay);
}
static DEVICE_ATTR_RO(max_delay_ns);

static ssize_t pass_budget_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", HWT_PASS_BUDGET);
}
static DEVICE_ATTR_RO(pass_budget);

static ssize_t timers_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct hwt_occupancy o;
	long n;
	int l;

	hwt_occupancy(&o);
	for (n = o.parked, l = 0; l < HWT_LEVELS_MAX; l++)
		n += o.timers[l];
	return sysfs_emit(buf, "%ld\n", n);
}
static DEVICE_ATTR_RO(timers);

static ssize_t parked_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct hwt_occupancy o;

	hwt_occupancy(&o);
	return sysfs_emit(buf, "%ld\n", o.parked);
}
static DEVICE_ATTR_RO(parked);

static ssize_t bases_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct hwt_occupancy o;

	hwt_occupancy(&o);
	return sysfs_emit(buf, "%u\n", o.bases);
}
static DEVICE_ATTR_RO(bases);

static struct attribute *hwt_wheel_attrs[] = {
	&dev_attr_tick_ns.attr,
	&dev_attr_levels.attr,
	&dev_attr_slots_per_level.attr,
	&dev_attr_max_delay_ns.attr,
	&dev_attr_pass_budget.attr,
	&dev_attr_timers.attr,
	&dev_attr_parked.attr,
	&dev_attr_bases.attr,
	NULL,
};

static const struct attribute_group hwt_wheel_group = {
	.name = "wheel",
	.attrs = hwt_wheel_attrs,
};

/*
 * The stats/ and level<L>/ files are made at load time: from the names of
 * the counters, and for as many levels as the wheels have.
 */
#define HWT_LEVEL_FILES	(HWT_A_LEVEL_LAST - HWT_A_LEVEL_FIRST + 1)
#define HWT_STAT_FILES	(HWT_NR_COUNTERS + HWT_NR_MAXIMA)

static struct hwt_attr *hwt_attrs;
static struct attribute **hwt_attr_ptrs;
static struct attribute_group *hwt_groups;

/* stats, wheel, a level<L> per level of the wheel, NULL */
const struct attribute_group *hwt_sysfs_groups[2 + HWT_LEVELS_MAX + 1];

static struct attribute *hwt_attr_make(struct hwt_attr *a, const char *name,
				       enum hwt_attr_kind kind,
				       unsigned int index)
{
	sysfs_attr_init(&a->dattr.attr);
	a->dattr.attr.name = name;
	a->dattr.attr.mode = 0444;
	a->dattr.show = hwt_attr_show;
	a->kind = kind;
	a->index = index;
	return &a->dattr.attr;
}

/**
 * hwt_sysfs_init() - make the files for the geometry the module runs with
 *
 * Called before the device is registered, which creates them.
 *
 * Return: 0 or -ENOMEM.
 */
int hwt_sysfs_init(void)
{
	unsigned int levels = hwt_geo.levels, l, i, k;
	struct attribute **p;
	struct hwt_attr *a;

	hwt_attrs = kcalloc(HWT_STAT_FILES + levels * HWT_LEVEL_FILES,
			    sizeof(*hwt_attrs), GFP_KERNEL);
	/* stats: its files, lateness_hist, NULL; each level: files, NULL */
	hwt_attr_ptrs = kcalloc(HWT_STAT_FILES + 2 +
				levels * (HWT_LEVEL_FILES + 1),
				sizeof(*hwt_attr_ptrs), GFP_KERNEL);
	hwt_groups = kcalloc(1 + levels, sizeof(*hwt_groups), GFP_KERNEL);
	if (!hwt_attrs || !hwt_attr_ptrs || !hwt_groups)
		goto nomem;

	a = hwt_attrs;
	p = hwt_attr_ptrs;
	hwt_groups[0].name = "stats";
	hwt_groups[0].attrs = p;
	for (i = 0; i < HWT_NR_COUNTERS; i++)
		*p++ = hwt_attr_make(a++, hwt_counter_names[i], HWT_A_COUNTER, i);
	for (i = 0; i < HWT_NR_MAXIMA; i++)
		*p++ = hwt_attr_make(a++, hwt_maximum_names[i], HWT_A_MAXIMUM, i);
	*p++ = &dev_attr_lateness_hist.attr;
	*p++ = NULL;

	for (l = 0; l < levels; l++) {
		struct attribute_group *g = &hwt_groups[1 + l];

		g->name = kasprintf(GFP_KERNEL, "level%u", l);
		if (!g->name)
			goto nomem;
		g->attrs = p;
		for (k = HWT_A_LEVEL_FIRST; k <= HWT_A_LEVEL_LAST; k++)
			*p++ = hwt_attr_make(a++, hwt_level_files[k], k, l);
		*p++ = NULL;
	}

	hwt_sysfs_groups[0] = &hwt_groups[0];
	hwt_sysfs_groups[1] = &hwt_wheel_group;
	for (l = 0; l < levels; l++)
		hwt_sysfs_groups[2 + l] = &hwt_groups[1 + l];
	hwt_sysfs_groups[2 + levels] = NULL;
	return 0;
nomem:
	hwt_sysfs_exit();
	return -ENOMEM;
}

/**
 * hwt_sysfs_exit() - free what hwt_sysfs_init() made
 *
 * Called once the device is gone, or after hwt_sysfs_init() failed.
 */
void hwt_sysfs_exit(void)
{
	unsigned int l;

	if (hwt_groups)
		for (l = 0; l < hwt_geo.levels; l++)
			kfree(hwt_groups[1 + l].name);
	kfree(hwt_groups);
	kfree(hwt_attr_ptrs);
	kfree(hwt_attrs);
	hwt_groups = NULL;
	hwt_attr_ptrs = NULL;
	hwt_attrs = NULL;
}

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HWT_DEV_EXPIRY_H
#define _HWT_DEV_EXPIRY_H

#include "dev.h"

int hwt_file_bases_setup(struct hwt_file *hf, unsigned long need,
			 bool nowait);

/*
 * The bases timers of clock index @clk live on: CLOCK_REALTIME timers move
 * between the CLOCK_REALTIME and CLOCK_MONOTONIC bases (see
 * HWT_CLK_ELAPSED), so they get both.
 */
static inline unsigned long hwt_bases_of(unsigned int clk)
{
	if (clk == HWT_CLK_REAL || clk == HWT_CLK_ELAPSED)
		return BIT(HWT_CLK_MONO) | BIT(HWT_CLK_REAL);
	return BIT(clk);
}

/*
 * Set up, and charge to the file's user, the bases that timers of clock
 * index @clk need, on first use (hwt_file_bases_setup()); a look at
 * @hf->clocks once they are there. Return: 0 or -errno.
 */
static inline int hwt_file_base(struct hwt_file *hf, unsigned int clk,
				bool nowait)
{
	unsigned long need = hwt_bases_of(clk);

	/* pairs with the barrier before set_bit() in hwt_file_base_init() */
	if (likely((smp_load_acquire(&hf->clocks) & need) == need))
		return 0;
	return hwt_file_bases_setup(hf, need, nowait);
}

void hwt_file_bases_stop(struct hwt_file *hf);
void hwt_file_bases_follow(struct hwt_file *hf);
void hwt_file_bases_free(struct hwt_file *hf);

#endif /* _HWT_DEV_EXPIRY_H */

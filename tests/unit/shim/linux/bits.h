/* SPDX-License-Identifier: GPL-2.0-or-later */
/* User-space stand-in for <linux/bits.h>. */
#ifndef __THIN_SHIM_BITS_H__
#define __THIN_SHIM_BITS_H__
#define BIT(n) (1UL << (n))
#endif

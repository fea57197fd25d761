/* SPDX-License-Identifier: GPL-2.0-or-later */
/* User-space stand-in for <linux/compiler.h>. */
#ifndef __THIN_SHIM_COMPILER_H__
#define __THIN_SHIM_COMPILER_H__
#define noinline __attribute__((__noinline__))
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#endif

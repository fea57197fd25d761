/* SPDX-License-Identifier: GPL-2.0-or-later */
/* User-space stand-in for <linux/types.h>, for the thin-sctp core. */
#ifndef __THIN_SHIM_TYPES_H__
#define __THIN_SHIM_TYPES_H__
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef unsigned int gfp_t;
#define GFP_ATOMIC 0u
#endif

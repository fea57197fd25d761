/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef __THIN_SHIM_H__
#define __THIN_SHIM_H__
#include <net/sctp/thin_core.h>

extern long shim_live;		/* live allocations */
extern bool shim_fail_next;	/* fail the next allocation */
extern const struct sctp_thin_mem shim_mem;	/* for sctp_thin_core_init() */
#endif

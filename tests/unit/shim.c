// SPDX-License-Identifier: GPL-2.0-or-later
/* Allocation for the user-space core (shim_mem, passed to
 * sctp_thin_core_init()): counts live objects and can fail on purpose
 * (shim_fail_next fails the next allocation).
 */
#include <stdlib.h>
#include "shim.h"

long shim_live;
bool shim_fail_next;

static void *shim_alloc(size_t size, gfp_t gfp)
{
	void *p;

	(void)gfp;
	if (shim_fail_next) {
		shim_fail_next = false;
		return NULL;
	}
	p = malloc(size);
	if (p)
		shim_live++;
	return p;
}

static void shim_free(void *p)
{
	if (!p)
		return;
	shim_live--;
	free(p);
}

const struct sctp_thin_mem shim_mem = {
	.alloc = shim_alloc,
	.free = shim_free,
};

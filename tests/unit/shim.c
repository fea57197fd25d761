// SPDX-License-Identifier: GPL-2.0-or-later
/* Allocation for the user-space core: counts live objects and can fail
 * on purpose (shim_fail_next fails the next allocation).
 */
#include <stdlib.h>
#include "shim.h"

long shim_live;
bool shim_fail_next;

void *sctp_thin_alloc(size_t size, gfp_t gfp)
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

void sctp_thin_free(void *p)
{
	if (!p)
		return;
	shim_live--;
	free(p);
}

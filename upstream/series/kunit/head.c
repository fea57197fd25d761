// SPDX-License-Identifier: GPL-2.0-or-later
/* KUnit tests of the SCTP thin-stream core (net/sctp/thin_core.c):
 * known answers of its rules (Petlund et al. 2009, section 5.1; RFC 9260
 * 7.2.4).
 */

#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/sctp/thin_core.h>

MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");

/* The core's memory: counts live objects (the tests check for leaks)
 * and fails the next allocation on request.
 */
static long shim_live;
static bool shim_fail_next;

static void *shim_alloc(size_t size, gfp_t gfp)
{
	void *p;

	if (shim_fail_next) {
		shim_fail_next = false;
		return NULL;
	}
	p = kmalloc(size, GFP_KERNEL);
	if (p)
		shim_live++;
	return p;
}

static void shim_free(void *p)
{
	if (!p)
		return;
	shim_live--;
	kfree(p);
}

static const struct sctp_thin_mem shim_mem = {
	.alloc = shim_alloc,
	.free = shim_free,
};

#define CHECK(cond, msg) KUNIT_EXPECT_TRUE_MSG(test, cond, "%s", msg)

// SPDX-License-Identifier: GPL-2.0-or-later
/* Per-call cost of the core, for callgrind --toggle-collect=measured_*:
 *   bench send N    N sends, 4 packets in flight at each send
 *   bench sackG N   N SACKs with G gap blocks (0, 1 or 4) arriving with
 *                   4 packets in flight
 *   bench dup N     N dup reports (one per T3 expiry of 4 packets, of a
 *                   TSN the guard counted)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include "shim.h"

static const int tp = 1;
static struct sctp_thin_core c;

noinline void measured_sent(u32 tsn, long now)
{
	sctp_thin_core_sent(&c, tsn, now, &tp, 0);
}

noinline void measured_sack(u32 cum,
				   const struct sctp_thin_gap *g,
				   unsigned int n)
{
	sctp_thin_core_sack(&c, cum, g, n);
}

noinline void measured_dup(u32 tsn)
{
	sctp_thin_core_dup(&c, tsn);
}

int main(int argc, char **argv)
{
	struct sctp_thin_gap g[4] = { { 2, 2 }, { 4, 4 }, { 6, 6 }, { 8, 8 } };
	const char *mode = argc > 1 ? argv[1] : "send";
	long n = argc > 2 ? atol(argv[2]) : 100000, i;
	u32 t = 1000, k;

	sctp_thin_core_init(&c, &shim_mem);
	for (i = 0; i < n; i++) {
		if (!strcmp(mode, "send")) {
			measured_sent(t++, i);
			if (c.in_flight == 4)
				sctp_thin_core_sack(&c, t - 4, NULL, 0);
			continue;
		}
		for (k = 0; k < 4; k++)
			sctp_thin_core_sent(&c, t + k, i, &tp, 0);
		if (!strcmp(mode, "dup")) {
			sctp_thin_core_timeout(&c, &tp, false);
			measured_dup(t + 1);
			sctp_thin_core_sack(&c, t + 3, NULL, 0);
			t += 4;
			continue;
		}
		if (!strcmp(mode, "sack0"))
			measured_sack(t + 3, NULL, 0);
		else
			measured_sack(t - 1, g, atoi(mode + 4));
		sctp_thin_core_sack(&c, t + 3, NULL, 0);
		t += 4;
	}
	sctp_thin_core_destroy(&c);
	return 0;
}

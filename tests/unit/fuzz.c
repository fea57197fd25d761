// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the input is a program of operations on one core and
 * its model; every invariant is checked after every operation.  With
 * -DTHIN_REPLAY_MAIN it is a plain program that replays files (the corpus)
 * so that gcc builds can run them too.
 */
#include <stdio.h>
#include <stdlib.h>
#include "model.h"

static const int *const tps = model_paths;

/* TSN jumps after an outqueue purge or a resync: none, just after, 1000
 * above or below, nearly, exactly or just over half the TSN space away,
 * 16 below.
 */
static const u32 jumps[8] = { 0, 1, 1000, -1000u, 0x7fffffffu, 0x80000000u,
			      0x80000001u, -16u };

/* arg & 3: 0 outqueue purge, 1 resync with nothing outstanding, 2 resync
 * with 1 + (arg >> 5) TSNs outstanding, each after TSN jump
 * jumps[arg >> 2 & 7]; 3: the sender turns bulk or thin again.
 */
static void outq(struct pair *t, u8 arg, u32 *next, u32 *cum)
{
	u32 out = (arg & 3) == 2 ? 1 + (arg >> 5) : 0;

	if ((arg & 3) == 3) {
		t->app_limited = !t->app_limited;
		return;
	}
	*next += jumps[arg >> 2 & 7];
	*cum = *next - 1 - out;
	if (arg & 3)
		pair_resync(t, *next - 1, out);
	else
		pair_purge_all(t);
}

/* RDB's choice of chunks: the same input read as a history of packets
 * (TSN steps and paths) and a candidate set (TSN offsets and lengths),
 * checked against model_rdb_choose().  Duplicate candidate TSNs are
 * dropped (a transmitted list holds each TSN once).
 */
static void fuzz_rdb(const u8 *data, size_t size, u32 base)
{
	struct sctp_thin_rdb_cand c[SCTP_THIN_RDB_SCAN];
	struct sctp_thin_rdb r = { 0 };
	unsigned int n = 0, i, j;
	const char *why;
	u32 tsn = base, first = base, maxp = 1, room = 1500;
	const void *tp = &tps[0], *key = NULL;

	for (i = 4; i + 1 < size; i += 2) {
		u8 a = data[i], b = data[i + 1];

		switch (a % 3) {
		case 0:		/* a packet on path b % 3 */
			tsn += 1 + b % 8;
			sctp_thin_rdb_note(&r, tsn, &tps[b % 3]);
			break;
		case 1:		/* a candidate */
			if (n == SCTP_THIN_RDB_SCAN)
				break;
			c[n].tsn = base + (a >> 2) + b % 64;
			c[n].len = 4 * (1 + b / 2);
			c[n].chunk = NULL;
			c[n].key = (a & 0x20) ? &tps[1 + (b & 2) / 2] : NULL;
			c[n].acked = b & 0x80;
			c[n].gone = (a & 0x40) && (b & 1);
			c[n].pick = a & 0x80;
			for (j = 0; j < n && c[j].tsn != c[n].tsn; j++)
				;
			n += j == n;
			break;
		default:	/* parameters */
			first = base + b;
			maxp = 1 + (a >> 2) % SCTP_THIN_RDB_MAX_PACKETS;
			room = (a & 0x80) ? 0xffffffffu : 8u * b;
			tp = &tps[(a >> 5) % 3];
			key = (b & 1) ? &tps[1 + (a & 2) / 2] : NULL;
			break;
		}
	}
	why = model_rdb_choose(&r, c, n, tp, key, first, maxp, room);
	if (why) {
		fprintf(stderr, "invariant: %s\n", why);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct sctp_thin_reo reo = { 0 };
	struct sctp_thin_gap g[8];
	struct pair t;
	u32 base = 0, next, cum;
	size_t i = 0;
	unsigned int n, k;

	if (size >= 4) {
		base = data[0] | data[1] << 8 | data[2] << 16 | (u32)data[3] << 24;
		i = 4;
	}
	next = base;
	cum = base - 1;
	pair_init(&t);
	/* congestion guard from the base's low byte: off or a threshold */
	pair_guard(&t, (base & 0xff) < 64 ? 0 : (base & 0xff) << 8);
	while (i + 2 <= size) {
		u8 op = data[i], arg = data[i + 1];

		i += 2;
		switch (op % 5) {
		case 0:	/* send arg % 4 + 1 new TSNs, on paths 0-2 or 3-5 */
			next += arg % 4 + 1;
			pair_sent(&t, next - 1, &tps[arg % 3 + (op & 0x20 ? 3 : 0)],
				  op & 0x80);
			break;
		case 1:	/* retransmit */
			pair_sent(&t, cum + 1 + arg % 16,
				  &tps[(op >> 3) % MODEL_PATHS], op & 0x80);
			break;
		case 2:	/* SACK: cum moves by arg % 8 - 2, gap blocks follow */
			cum += (u32)(arg % 8) - 2;
			n = (op >> 3) % 9;
			for (k = 0; k < n && i + 2 <= size; k++, i += 2) {
				g[k].start = data[i] % 64;
				g[k].end = g[k].start + data[i + 1] % 16 - 3;
			}
			pair_sack(&t, cum, g, k);
			/* the reordering window: grows on a dup report
			 * (RFC 8985 6.2 step 4), never past the SRTT
			 */
			sctp_thin_reo_sack(&reo, cum, op & 0x80, next - 1);
			if (op & 0x40)
				sctp_thin_reo_lost(&reo);
			if (reo.steps > SCTP_THIN_REO_STEPS_MAX ||
			    sctp_thin_reo_wnd(&reo, &t.rack[arg % 3],
					      1 + arg * 97) > 1 + arg * 97u) {
				fprintf(stderr, "invariant: reo_wnd\n");
				abort();
			}
			break;
		case 3:	/* T3-rtx expiry, a path removed, a dup report, an
			 * outqueue purge or resync, the sender's state
			 */
			if ((op & 0xe0) == 0xe0)
				pair_repaired(&t, cum - 16 + arg % 48);
			else if ((op & 0xc0) == 0xc0)
				pair_resent(&t, cum - 16 + arg % 48);
			else if (op & 0x40)
				pair_dup(&t, cum - 16 + arg % 48);
			else if (op & 0x80)
				pair_timeout(&t, &tps[arg % MODEL_PATHS], arg & 0x80);
			else if (!(op & 0x20))
				pair_purge(&t, &tps[arg % MODEL_PATHS]);
			else
				outq(&t, arg, &next, &cum);
			break;
		default: /* ack everything, or beyond */
			cum = next - 1 + arg % 3;
			pair_sack(&t, cum, NULL, 0);
			break;
		}
		if (!pair_check(&t)) {
			fprintf(stderr, "invariant: %s\n", t.why);
			abort();
		}
	}
	pair_fini(&t);
	if (shim_live)
		abort();
	fuzz_rdb(data, size, base);
	return 0;
}

#ifdef THIN_REPLAY_MAIN
int main(int argc, char **argv)
{
	static u8 buf[1 << 20];
	int i, passed = 0;

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		size_t n;

		if (!f) {
			perror(argv[i]);
			return 1;
		}
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);	/* aborts on failure */
		passed++;
	}
	printf("replay: %d passed, 0 failed\n", passed);
	return 0;
}
#endif

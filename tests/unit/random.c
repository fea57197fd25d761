// SPDX-License-Identifier: GPL-2.0-or-later
/* Randomized driver: long random sequences of sends (several TSNs per
 * packet, on 3 or 6 paths), retransmissions, SACKs (random, malformed,
 * overlapping, duplicate, late, beyond what was sent), path purges,
 * outqueue purges and resyncs followed by TSN jumps, failed allocations,
 * TSN wrap-around, and a sender that is application-limited or not,
 * the time-based loss rule (RFC 8985 6.2) per path after each SACK,
 * checked against the model after every step.
 *
 *   random [STEPS_PER_SEED] [SEEDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"

static u64 rng_state;

static u32 rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (u32)(rng_state >> 11);
}

static u32 below(u32 n)
{
	return n ? rnd() % n : 0;
}

static long sat_steps, cong_steps, lost_total, undone_total, max_flight;
static long purges, resyncs, bulk_steps, all_paths, many_paths, transitions;
static long stock_acks;	/* steps whose SACK acked a packet given up early */
static long rack_checks, rack_lost;

/* After an outqueue purge or a resync the next TSN need not follow the
 * last one: below it, a little above, half the TSN space away, near the
 * wrap, anywhere, or right after it.
 */
static u32 jump(u32 next)
{
	switch (below(6)) {
	case 0:
		return next - 1 - below(5000);
	case 1:
		return next + 1 + below(5000);
	case 2:
		return next + 0x80000000u - 8 + below(16);
	case 3:
		return 0xffffffffu - below(300);
	case 4:
		return rnd();
	default:
		return next;
	}
}

static bool run_seed(u64 seed, long steps, long *done)
{
	struct sctp_thin_gap last_g[8], g[8];
	u32 next, cum, last_cum = 0;
	unsigned int last_n = 0, n, i;
	/* send-heavy seeds push past the cap, ack-heavy ones stay thin */
	u32 p_send = seed % 3 == 0 ? 70 : seed % 3 == 1 ? 45 : 25;
	/* odd seeds send on more paths than a SACK's path list holds */
	u32 npaths = seed % 2 ? MODEL_PATHS : 3;
	const int *tps = model_paths;
	struct pair t;
	long s;

	/* congestion guard: off, 10 %, 20 % (the default) or 50 % */
	static const u32 guards[4] = { 0, SCTP_THIN_ONE / 10,
				       SCTP_THIN_ONE / 5, SCTP_THIN_ONE / 2 };

	rng_state = seed * 0x9e3779b97f4a7c15ull + 1;
	pair_init(&t);
	pair_guard(&t, guards[seed / 3 % 4]);
	next = seed % 4 ? rnd() : 0xffffffffu - below(300);	/* wrap */
	cum = next - 1;
	for (s = 0; s < steps; s++) {
		u32 op = below(100);

		if (op < p_send) {
			/* new packet carrying 1..3 TSNs */
			u32 k = 1 + below(3);

			next += k;
			pair_sent(&t, next - 1, &tps[below(npaths)], below(50) == 0);
		} else if (op < p_send + 8 && next - cum > 1) {
			/* retransmission of an outstanding TSN */
			pair_sent(&t, cum + 1 + below(next - cum - 1),
				  &tps[below(npaths)], below(50) == 0);
		} else if (op < 96) {
			u32 kind = below(10);

			if (kind == 0 && last_n <= 8) {
				/* duplicate of the last SACK */
				pair_sack(&t, last_cum, last_g, last_n);
				goto check;
			}
			if (kind == 3) {
				/* dup reports: a TSN the guard counted
				 * (when it remembers one) or any nearby
				 */
				for (i = below(4); i > 0; i--)
					pair_dup(&t, t.m.nrecent && below(2) ?
						 t.m.recent[below(t.m.nrecent)] :
						 cum - 8 + below(24));
				if (t.m.nrecent && below(3) == 0)
					pair_resent(&t, t.m.recent[below(t.m.nrecent)]);
				/* a copy's repair: of a counted TSN or any */
				if (below(4) == 0)
					pair_repaired(&t, t.m.nrecent && below(2) ?
						      t.m.recent[below(t.m.nrecent)] :
						      cum - 8 + below(24));
				goto check;
			}
			if (kind == 1) {
				/* late SACK from the past */
				pair_sack(&t, cum - below(20), NULL, 0);
				goto check;
			}
			if (kind == 2 && below(10) == 0)
				cum = next + below(5);	/* acks TSNs never sent */
			else if (next - cum > 1)
				cum += below(next - cum < 8 ? next - cum : 8);
			n = seed % 5 == 0 ? 0 : below(9);	/* no gaps: fill up */
			for (i = 0; i < n; i++) {
				g[i].start = below(4) ? 1 + below(40) : below(3);
				g[i].end = g[i].start + below(12) - 2;
			}
			pair_sack(&t, cum, g, n);
			memcpy(last_g, g, sizeof(g));
			last_n = n;
			last_cum = cum;
		} else if (op < 98) {
			if (below(4))	/* T3-rtx expiry, or a path removed */
				pair_timeout(&t, &tps[below(npaths)], below(2));
			else
				pair_purge(&t, &tps[below(npaths)]);
		} else {
			u32 kind = below(20);

			if (kind < 2) {
				/* everything acked: drain */
				cum = next - 1;
				pair_sack(&t, cum, NULL, 0);
			} else if (kind == 2) {
				/* outqueue purged (peer restart, TSN reset) */
				pair_purge_all(&t);
				next = jump(next);
				cum = next - 1;
				purges++;
			} else if (kind == 3) {
				/* recording restarts: TSNs up to next - 1
				 * sent unrecorded, some outstanding or not
				 */
				bool out = below(2);

				next = jump(next);
				pair_resync(&t, next - 1, out);
				cum = out ? next - 2 - below(20) : next - 1;
				resyncs++;
			}
		}
check:
		/* bulk sender now and then: not application-limited */
		t.app_limited = below(8) != 0;
		bulk_steps += !t.app_limited;
		sat_steps += t.core.saturated;
		all_paths += t.core.acked_all;
		stock_acks += t.m.nstock != 0;
		many_paths += t.m.nacked > SCTP_THIN_ACKED_PATHS;
		cong_steps += t.core.congested;
		if ((long)t.core.in_flight > max_flight)
			max_flight = t.core.in_flight;
		if (!pair_check(&t)) {
			printf("not ok - seed %llu step %ld: %s\n",
			       (unsigned long long)seed, s, t.why);
			pair_fini(&t);
			return false;
		}
	}
	lost_total += t.core.pkts_lost;
	rack_checks += t.rack_checks;
	rack_lost += t.rack_lost;
	transitions += t.core.transitions;
	undone_total += t.core.guard_undone;
	pair_fini(&t);
	*done += s;
	if (shim_live) {
		printf("not ok - seed %llu: %ld objects leaked\n",
		       (unsigned long long)seed, shim_live);
		return false;
	}
	return true;
}

/* RDB: sctp_thin_rdb_choose() against the reference on random histories
 * and candidate sets, and the verdict on copies against the truth of a
 * simulated lossy path with a receiver that reports duplicates as Linux
 * does (in its next SACK).
 */
static long rdb_checks, rdb_repaired, rdb_truth, rdb_exact;

static bool rdb_choose_seed(u64 seed)
{
	static const int paths[3], keys[2];
	struct sctp_thin_rdb_cand c[SCTP_THIN_RDB_SCAN];
	struct sctp_thin_rdb r;
	const char *why;
	int it;

	for (it = 0; it < 200; it++) {
		u32 base = below(4) ? rnd() : 0xffffffffu - below(64);
		unsigned int n = below(SCTP_THIN_RDB_SCAN + 1), i, h, j;
		u32 used[SCTP_THIN_RDB_SCAN];
		u32 tsn;

		memset(&r, 0, sizeof(r));
		h = below(24);
		for (i = 0, tsn = base; i < h; i++) {
			tsn += 1 + below(4);
			sctp_thin_rdb_note(&r, tsn, &paths[below(3)]);
		}
		for (i = 0; i < n; i++) {
			do {
				tsn = base + below(100);
				for (j = 0; j < i && used[j] != tsn; j++)
					;
			} while (j < i);
			used[i] = tsn;
			c[i].tsn = tsn;
			c[i].len = 4 * (4 + below(150));
			c[i].chunk = NULL;
			c[i].key = below(4) ? NULL : &keys[below(2)];
			c[i].acked = below(6) == 0;
			c[i].gone = below(8) == 0;
			c[i].pick = below(2);
		}
		why = model_rdb_choose(&r, c, n, &paths[below(3)],
				       below(3) ? NULL : &keys[below(2)],
				       base + below(110), 1 + below(8),
				       below(4) ? below(1500) : 0xffffffffu);
		rdb_checks++;
		if (why) {
			printf("not ok - seed %llu rdb choice %d: %s\n",
			       (unsigned long long)seed, it, why);
			return false;
		}
	}
	return true;
}

#define RDB_MSGS 300

static bool rdb_verdict_seed(u64 seed)
{
	/* per message: received, acked (sender's view), original lost, a
	 * copy arrived first (the truth), a carrier of a copy lost, a dup
	 * report of it lost, judged repaired
	 */
	static bool got[RDB_MSGS], acked[RDB_MSGS], lost1[RDB_MSGS], fixed[RDB_MSGS];
	static bool clost[RDB_MSGS], dlost[RDB_MSGS], judged[RDB_MSGS];
	struct sctp_thin_rdb_track out[SCTP_THIN_RDB_TRACK];
	struct sctp_thin_rdb_cand c[SCTP_THIN_RDB_SCAN];
	u32 base = rnd(), loss = below(30), sack_loss = below(2) ? 0 : below(30);
	u32 maxp = 1 + below(3), dups[SCTP_THIN_RDB_SCAN + 1];
	unsigned int t, i, n, nd, k, exact = 0;
	struct sctp_thin_rdb r;
	u32 bytes, cum = 0;	/* receiver: messages 0 .. cum - 1 in */
	static const int A;

	memset(&r, 0, sizeof(r));
	memset(got, 0, sizeof(got));
	memset(acked, 0, sizeof(acked));
	memset(lost1, 0, sizeof(lost1));
	memset(fixed, 0, sizeof(fixed));
	memset(clost, 0, sizeof(clost));
	memset(dlost, 0, sizeof(dlost));
	memset(judged, 0, sizeof(judged));
	for (t = 0; t <= RDB_MSGS; t++) {
		bool lost = below(100) < loss;

		nd = 0;
		if (t < RDB_MSGS) {
			/* the sender's outstanding messages, newest first */
			for (i = t, n = 0; i-- > 0 && n < SCTP_THIN_RDB_SCAN;) {
				if (acked[i])
					continue;
				c[n].tsn = base + i;
				c[n].len = 100;
				c[n].chunk = NULL;
				c[n].key = NULL;
				c[n].acked = false;
				c[n].gone = false;
				n++;
			}
			sctp_thin_rdb_choose(&r, c, n, &A, NULL, base + t, maxp,
					     1200, &bytes);
			for (i = 0; i < n; i++) {
				u32 m = c[i].tsn - base;

				if (!c[i].pick)
					continue;
				sctp_thin_rdb_bundled(&r, c[i].tsn, base + t, &A);
				if (lost) {
					clost[m] = true;
					continue;
				}
				if (got[m]) {
					dups[nd++] = c[i].tsn;
				} else {
					got[m] = true;
					fixed[m] = lost1[m];
				}
			}
			sctp_thin_rdb_note(&r, base + t, &A);
			if (lost)
				lost1[t] = true;
			else
				got[t] = true;
		} else {
			/* the end: retransmit what is missing (no copies) */
			for (i = 0; i < RDB_MSGS; i++)
				got[i] = true;
		}
		if (t % 5 == 4)		/* a retransmission of the oldest hole */
			for (i = 0; i < t; i++)
				if (!got[i]) {
					got[i] = true;
					break;
				}
		while (cum < RDB_MSGS && got[cum])
			cum++;
		if (t < RDB_MSGS && below(100) < sack_loss) {
			for (i = 0; i < nd; i++)	/* the SACK and its dups */
				dlost[dups[i] - base] = true;
			continue;
		}
		k = sctp_thin_rdb_sack(&r, base + cum - 1, NULL, 0, dups, nd,
				       out);
		for (i = 0; i < k; i++)
			judged[out[i].tsn - base] = true;
		for (i = 0; i < cum; i++)
			acked[i] = true;
	}
	for (i = 0; i < RDB_MSGS; i++) {
		rdb_repaired += judged[i];
		rdb_truth += fixed[i];
		if (r.untracked)
			continue;	/* copies without a verdict: no claim */
		if (fixed[i] && !judged[i]) {
			printf("not ok - seed %llu rdb verdict: message %u %s\n",
			       (unsigned long long)seed, i,
			       "repaired by a copy, not judged so");
			return false;
		}
		if (clost[i] || dlost[i])
			continue;	/* judged repaired or not: either is allowed */
		exact++;
		if (judged[i] != fixed[i]) {
			printf("not ok - seed %llu rdb verdict: message %u judged %d, truth %d\n",
			       (unsigned long long)seed, i, judged[i], fixed[i]);
			return false;
		}
	}
	rdb_exact += exact;
	return true;
}

int main(int argc, char **argv)
{
	long steps = argc > 1 ? atol(argv[1]) : 20000;
	long seeds = argc > 2 ? atol(argv[2]) : 100, done = 0;
	int passed = 0, failed = 0;
	long i;

	for (i = 1; i <= seeds; i++) {
		rng_state = 0x9e3779b97f4a7c15ull * (u64)i;
		if (rdb_choose_seed(i) && rdb_verdict_seed(i))
			passed++;
		else
			failed++;
		if (run_seed(i, steps, &done))
			passed++;
		else
			failed++;
	}
	printf("random: %ld steps over %ld seeds; coverage: ", done, seeds);
	printf("%ld steps saturated, %ld congested, max %ld in flight, ",
	       sat_steps, cong_steps, max_flight);
	printf("%ld packets lost, %ld guard counts undone, ", lost_total,
	       undone_total);
	printf("%ld purges, %ld resyncs, %ld steps not app-limited, ",
	       purges, resyncs, bulk_steps);
	printf("%ld steps all paths acked (%ld for > %d paths), ",
	       all_paths, many_paths, SCTP_THIN_ACKED_PATHS);
	printf("%ld steps after a SACK that acked packets given up early, ", stock_acks);
	printf("%ld transitions; ", transitions);
	printf("rdb: %ld choices checked, %ld copies judged repaired ",
	       rdb_checks, rdb_repaired);
	printf("(truth %ld, %ld messages judged exactly); ", rdb_truth,
	       rdb_exact);
	printf("rack: %ld verdicts checked, %ld lost; ", rack_checks,
	       rack_lost);
	printf("%ld objects live\n", shim_live);
	/* the time rule's verdicts must have been exercised both ways */
	if (seeds >= 10 && (!rack_lost || rack_lost == rack_checks)) {
		printf("not ok - rack: no verdict of each kind\n");
		failed++;
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

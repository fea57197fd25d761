// SPDX-License-Identifier: GPL-2.0-or-later
/* Known-answer tests of the core rules (paper 5.1, RFC 9260 7.2.4). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shim.h"

static int passed, failed;

#define CHECK(cond, msg) do {						\
	if (cond) {							\
		passed++;						\
	} else {							\
		failed++;						\
		printf("not ok - %s (line %d)\n", msg, __LINE__);	\
	}								\
} while (0)

static const int A = 1, B = 2, C = 3;

static void t_basic(void)
{
	struct sctp_thin_core c;
	struct sctp_thin_gap g = { 2, 2 };

	sctp_thin_core_init(&c, &shim_mem);
	CHECK(sctp_thin_core_update(&c, true, true), "empty core is thin");
	CHECK(c.transitions == 0, "no transition at start");
	sctp_thin_core_sent(&c, 100, 10, &A, 0);
	sctp_thin_core_sent(&c, 101, 20, &A, 0);
	sctp_thin_core_sent(&c, 102, 30, &B, 0);
	CHECK(c.in_flight == 3 && c.pkts_sent == 3, "3 packets in flight");
	CHECK(sctp_thin_core_oldest(&c, &B, NULL)->sent == 30, "oldest per path");
	/* 100 acked, 101 missing, 102 gap-acked: one indication for 101 */
	CHECK(sctp_thin_core_sack(&c, 100, &g, 1) == 0, "first gap: not lost");
	CHECK(c.in_flight == 1, "acked packets left the list");
	CHECK(c.ring[c.head].misses == 1, "one miss indication");
	CHECK(sctp_thin_core_sack(&c, 100, &g, 1) == 0 &&
	      c.ring[c.head].misses == 1, "duplicate SACK: no indication");
	sctp_thin_core_sent(&c, 103, 40, &A, 0);
	g.end = 3;
	sctp_thin_core_sack(&c, 100, &g, 1);
	CHECK(c.ring[c.head].misses == 2, "second indication");
	sctp_thin_core_sent(&c, 104, 50, &A, 0);
	g.end = 4;
	CHECK(sctp_thin_core_sack(&c, 100, &g, 1) == 1, "third: lost");
	CHECK(c.pkts_lost == 1 && c.in_flight == 0, "lost packet left");
	CHECK(sctp_thin_core_lossrate(&c) == SCTP_THIN_ONE / 5,
	      "loss rate 1 of 5 packets");
	sctp_thin_core_sent(&c, 105, 55, &A, 0);
	sctp_thin_core_sent(&c, 101, 60, &A, 0);	/* retransmission */
	CHECK(c.in_flight == 2, "retransmission is a packet in flight");
	sctp_thin_core_sent(&c, 105, 65, &B, 0);	/* supersedes 105 */
	CHECK(c.in_flight == 2 && sctp_thin_core_oldest(&c, &A, NULL)->sent == 60,
	      "retransmission supersedes the earlier packet");
	sctp_thin_core_sack(&c, 105, NULL, 0);
	CHECK(c.in_flight == 0 && c.used == 0, "drained");
	sctp_thin_core_destroy(&c);
	CHECK(shim_live == 0, "no leak");
}

static void t_detection(void)
{
	struct sctp_thin_core c;
	u32 i;

	sctp_thin_core_init(&c, &shim_mem);
	for (i = 0; i < 3; i++)
		sctp_thin_core_sent(&c, i + 1, i, &A, 0);
	CHECK(sctp_thin_core_update(&c, false, true), "3 in flight: thin");
	sctp_thin_core_sent(&c, 4, 4, &A, 0);
	CHECK(!sctp_thin_core_update(&c, false, true), "4 in flight: thick");
	CHECK(c.transitions == 1, "one transition");
	/* loss 1/2: threshold 4 / (1 - 0.5) = 8 */
	c.win_sent = 10;
	c.win_lost = 5;
	CHECK(sctp_thin_core_update(&c, true, true), "4 < 8 at loss 1/2: thin");
	CHECK(!sctp_thin_core_update(&c, false, true), "without loss est: thick");
	/* loss 1: clamped to 3/4, threshold 16 */
	c.win_lost = 10;
	for (i = 5; i <= 15; i++)
		sctp_thin_core_sent(&c, i, i, &A, 0);
	c.win_sent = 10;
	c.win_lost = 10;
	CHECK(c.in_flight == 15 && sctp_thin_core_update(&c, true, true),
	      "15 < 16 at loss 1 (clamped 3/4): thin");
	sctp_thin_core_sent(&c, 16, 16, &A, 0);
	c.win_sent = 10;
	c.win_lost = 10;
	CHECK(!sctp_thin_core_update(&c, true, true), "16 at loss 1: thick");
	sctp_thin_core_destroy(&c);
}

static void t_cap_and_failure(void)
{
	struct sctp_thin_core c;
	u32 i;

	sctp_thin_core_init(&c, &shim_mem);
	for (i = 0; i < SCTP_THIN_MAX_SLOTS; i++)
		sctp_thin_core_sent(&c, i + 1, i, &A, 0);
	CHECK(!c.saturated && c.size == SCTP_THIN_MAX_SLOTS, "at the cap");
	sctp_thin_core_sent(&c, i + 1, i, &A, 0);
	CHECK(c.saturated && !sctp_thin_core_update(&c, true, true),
	      "past the cap: saturated, thick");
	sctp_thin_core_sack(&c, i, NULL, 0);
	CHECK(c.saturated, "not drained while data is outstanding");
	sctp_thin_core_sack(&c, i + 1, NULL, 0);
	CHECK(!c.saturated && c.in_flight == 0, "drained: exact again");
	CHECK(!c.ring && c.size == 0 && shim_live == 0,
	      "drained: the grown ring is freed");
	sctp_thin_core_sent(&c, i + 2, i + 1, &A, 0);
	CHECK(c.size == SCTP_THIN_MIN_SLOTS && c.in_flight == 1,
	      "the next packet starts a small ring");
	sctp_thin_core_sack(&c, i + 2, NULL, 0);
	CHECK(c.ring && c.size == SCTP_THIN_MIN_SLOTS,
	      "drained at the first size: the ring stays (thin streams)");
	sctp_thin_core_destroy(&c);

	sctp_thin_core_init(&c, &shim_mem);
	shim_fail_next = true;
	sctp_thin_core_sent(&c, 1, 1, &A, 0);
	CHECK(c.saturated && !c.ring && c.pkts_sent == 1,
	      "failed allocation: saturated (stock behaviour)");
	sctp_thin_core_sack(&c, 1, NULL, 0);
	sctp_thin_core_sent(&c, 2, 2, &A, 0);
	CHECK(!c.saturated && c.in_flight == 1, "recovers after drain");
	sctp_thin_core_destroy(&c);
	CHECK(shim_live == 0, "no leak after failures");
}

static void t_hostile(void)
{
	struct sctp_thin_gap g[3] = { { 0, 5 }, { 9, 3 }, { 1, 65535 } };
	struct sctp_thin_core c;

	sctp_thin_core_init(&c, &shim_mem);
	sctp_thin_core_sent(&c, 0xfffffffe, 1, &A, 0);
	sctp_thin_core_sent(&c, 0xffffffff, 2, &A, 0);
	sctp_thin_core_sent(&c, 0, 3, &A, 0);
	sctp_thin_core_sent(&c, 1, 4, &A, 0);
	CHECK(c.highest_sent == 1, "highest across wrap");
	sctp_thin_core_sack(&c, 0xfffffffe, g, 2);	/* malformed only */
	CHECK(c.in_flight == 3, "malformed blocks ignored");
	sctp_thin_core_sack(&c, 0xfffffffd, NULL, 0);	/* late SACK */
	CHECK(c.in_flight == 3, "old SACK harmless");
	sctp_thin_core_sack(&c, 0xfffffffe, &g[2], 1);	/* huge block */
	CHECK(c.in_flight == 0, "huge block acks across wrap");
	sctp_thin_core_sent(&c, 2, 5, &A, 0);
	sctp_thin_core_sack(&c, 1000, NULL, 0);	/* beyond sent */
	CHECK(c.in_flight == 0 && !c.saturated, "ack beyond sent: drained");
	sctp_thin_core_sent(&c, 3, 6, &A, 0);
	sctp_thin_core_sent(&c, 4, 7, &B, 0);
	sctp_thin_core_purge_transport(&c, &A);
	CHECK(c.in_flight == 1 && sctp_thin_core_oldest(&c, &B, NULL) &&
	      !sctp_thin_core_oldest(&c, &A, NULL), "purge one path");
	sctp_thin_core_destroy(&c);
}

/* Congestion guard: the share of TSNs given up in a 32-packet decaying
 * window, each TSN once, not before 32 packets, with hysteresis at 3/4.
 */
static void t_guard(void)
{
	struct sctp_thin_core c;
	u32 tsn, i;

	sctp_thin_core_init(&c, &shim_mem);
	c.guard = SCTP_THIN_ONE / 5;			/* 20 % */
	for (tsn = 1; tsn <= 10; tsn++) {		/* half time out */
		sctp_thin_core_sent(&c, tsn, tsn, &A, 0);
		if (tsn % 2)
			sctp_thin_core_timeout(&c, &A, false);
		else
			sctp_thin_core_sack(&c, tsn, NULL, 0);
	}
	CHECK(c.guard_gone == 5 && sctp_thin_core_update(&c, true, true) &&
	      !c.congested, "50 % gone in 10 packets: too few to judge");
	for (; tsn <= 32; tsn++) {			/* 2 of 22 more */
		sctp_thin_core_sent(&c, tsn, tsn, &A, 0);
		if (tsn == 20 || tsn == 30)
			sctp_thin_core_timeout(&c, &A, false);
		else
			sctp_thin_core_sack(&c, tsn, NULL, 0);
	}
	CHECK(c.guard_sent == 32 && c.guard_gone == 7 &&
	      !sctp_thin_core_update(&c, true, true) && c.congested,
	      "7 of 32 gone (21.9 % > 20 %): congested, not thin");
	for (; tsn <= 36; tsn++) {	/* window halves: 3 of 16, then of 19 */
		sctp_thin_core_sent(&c, tsn, tsn, &A, 0);
		sctp_thin_core_sack(&c, tsn, NULL, 0);
	}
	CHECK(c.guard_sent == 19 && c.guard_gone == 3 &&
	      !sctp_thin_core_update(&c, true, true) && c.congested,
	      "3 of 19 (15.8 % > 15 %): still congested");
	for (; tsn <= 38; tsn++) {
		sctp_thin_core_sent(&c, tsn, tsn, &A, 0);
		sctp_thin_core_sack(&c, tsn, NULL, 0);
	}
	CHECK(sctp_thin_core_update(&c, true, true) && !c.congested,
	      "3 of 21 (14.3 % < 15 %): thin again");
	c.guard = 0;
	for (; tsn <= 48; tsn++) {			/* all time out */
		sctp_thin_core_sent(&c, tsn, tsn, &A, 0);
		sctp_thin_core_timeout(&c, &A, false);
	}
	CHECK(sctp_thin_core_update(&c, true, true) && !c.congested,
	      "guard off: never congested");
	sctp_thin_core_destroy(&c);

	/* What counts as given up, each TSN once. */
	sctp_thin_core_init(&c, &shim_mem);
	sctp_thin_core_sent(&c, 1, 0, &A, 0);
	for (i = 0; i < 6; i++) {
		sctp_thin_core_timeout(&c, &A, false);
		sctp_thin_core_sent(&c, 1, 0, &A, 0);
	}
	CHECK(c.guard_gone == 1 && c.in_flight == 1,
	      "six timeouts of one TSN: one TSN given up");
	sctp_thin_core_sack(&c, 1, NULL, 0);
	sctp_thin_core_sent(&c, 2, 0, &A, 0);
	sctp_thin_core_sent(&c, 2, 0, &A, 0);	/* early fast rtx */
	CHECK(c.guard_gone == 2, "superseded packet: given up");
	sctp_thin_core_sack(&c, 2, NULL, 0);
	for (i = 3; i <= 6; i++)
		sctp_thin_core_sent(&c, i, 0, &A, 0);
	for (i = 1; i <= 3; i++) {	/* TSN 3 missing, three times */
		struct sctp_thin_gap g = { 2, 1 + i };

		sctp_thin_core_sack(&c, 2, &g, 1);
	}
	CHECK(c.guard_gone == 3 && c.pkts_lost == 1,
	      "lost after 3 indications: given up");
	sctp_thin_core_sack(&c, 6, NULL, 0);
	CHECK(!c.gone_marked, "mark forgotten once the cumulative ack passes it");
	for (i = 7; i <= 9; i++)
		sctp_thin_core_sent(&c, i, 0, &A, 0);
	sctp_thin_core_timeout(&c, &A, false);
	CHECK(c.guard_gone == 6 && c.in_flight == 0,
	      "a timeout with 3 packets in flight: 3 given up");
	sctp_thin_core_sent(&c, 9, 0, &A, 0);	/* T3 rtx of 7-9, one packet */
	CHECK(c.guard_gone == 6, "its retransmission supersedes nothing live");
	/* 7 was lost, 8 and 9 arrive twice: the peer reports them */
	CHECK(sctp_thin_core_dup(&c, 8) && sctp_thin_core_dup(&c, 9) &&
	      c.guard_gone == 4 && c.guard_undone == 2,
	      "dup reports of 8 and 9: one loss event left");
	CHECK(!sctp_thin_core_dup(&c, 9) && c.guard_gone == 4,
	      "a second dup report of 9 takes nothing back");
	CHECK(!sctp_thin_core_dup(&c, 4) && !sctp_thin_core_dup(&c, 10) &&
	      c.guard_gone == 4, "dup reports of TSNs never counted: nothing");
	sctp_thin_core_sack(&c, 9, NULL, 0);
	sctp_thin_core_sent(&c, 10, 0, &A, 0);
	sctp_thin_core_sent(&c, 10, 0, &A, 0);	/* early fast rtx: counted */
	sctp_thin_core_timeout(&c, &A, false);		/* and T3: a third copy */
	sctp_thin_core_resent(&c, 10);
	CHECK(!sctp_thin_core_dup(&c, 10) && c.guard_gone == 5,
	      "lost, then fast-retransmitted and timed out: dup takes nothing");
	sctp_thin_core_destroy(&c);

	sctp_thin_core_init(&c, &shim_mem);
	for (i = 1; i <= 20; i++)
		sctp_thin_core_sent(&c, i, 0, &A, 0);
	sctp_thin_core_timeout(&c, &A, false);
	CHECK(c.guard_gone == 20 && !sctp_thin_core_dup(&c, 4) &&
	      sctp_thin_core_dup(&c, 5) && sctp_thin_core_dup(&c, 20) &&
	      c.guard_gone == 18,
	      "only the last 16 counted TSNs can be taken back");
	sctp_thin_core_destroy(&c);
}

/* Thin only while application-limited (ours): a bulk sender with few
 * packets in flight is thick, and each change counts as a transition.
 */
static void t_app_limited(void)
{
	struct sctp_thin_core c;

	sctp_thin_core_init(&c, &shim_mem);
	CHECK(!sctp_thin_core_update(&c, true, false) && !c.thin &&
	      c.transitions == 1, "empty core, not app-limited: thick");
	CHECK(sctp_thin_core_update(&c, true, true) && c.thin &&
	      c.transitions == 2, "app-limited again: thin");
	sctp_thin_core_sent(&c, 1, 1, &A, 0);
	CHECK(!sctp_thin_core_update(&c, false, false) && c.transitions == 3,
	      "1 in flight, not app-limited: thick, a transition");
	CHECK(!sctp_thin_core_update(&c, true, false) && c.transitions == 3,
	      "still not app-limited: no transition");
	CHECK(sctp_thin_core_update(&c, true, true) && c.transitions == 4,
	      "1 in flight, app-limited: thin");
	sctp_thin_core_destroy(&c);
}

/* oldest() also counts the packets in flight on the path. */
static void t_oldest_count(void)
{
	struct sctp_thin_gap g = { 2, 2 };
	const struct sctp_thin_pkt *p;
	struct sctp_thin_core c;
	u32 n;

	sctp_thin_core_init(&c, &shim_mem);
	n = 99;
	CHECK(!sctp_thin_core_oldest(&c, &A, &n) && n == 0,
	      "oldest(): empty core, count 0");
	sctp_thin_core_sent(&c, 1, 10, &A, 0);
	sctp_thin_core_sent(&c, 2, 20, &B, 0);
	sctp_thin_core_sent(&c, 3, 30, &A, 0);
	sctp_thin_core_sent(&c, 4, 40, &A, 0);
	p = sctp_thin_core_oldest(&c, &A, &n);
	CHECK(p && p->sent == 10 && n == 3, "oldest(): 3 packets on A");
	CHECK(sctp_thin_core_oldest(&c, &A, NULL) == p,
	      "oldest() without a count: the same packet");
	p = sctp_thin_core_oldest(&c, &B, &n);
	CHECK(p && p->sent == 20 && n == 1, "oldest(): 1 packet on B");
	n = 99;
	CHECK(!sctp_thin_core_oldest(&c, &C, &n) && n == 0,
	      "oldest(): no packet on C, count 0");
	sctp_thin_core_sack(&c, 1, &g, 1);	/* 1 and 3 acked */
	p = sctp_thin_core_oldest(&c, &A, &n);
	CHECK(p && p->tsn == 4 && n == 1, "oldest() after a SACK: 1 on A");
	sctp_thin_core_timeout(&c, &B, false);
	CHECK(!sctp_thin_core_oldest(&c, &B, &n) && n == 0,
	      "oldest() after a timeout of B: none");
	sctp_thin_core_destroy(&c);
}

/* A purged outqueue: every packet and TSN forgotten, the next TSN may be
 * anywhere.  The loss window and the lifetime counters stay.
 */
static void t_purge(void)
{
	struct sctp_thin_gap g = { 2, 3 };
	struct sctp_thin_core c;
	u32 i, n, win;

	sctp_thin_core_init(&c, &shim_mem);
	for (i = 0xfffffff0; i != 0xfffffff8; i++)
		sctp_thin_core_sent(&c, i, i & 0xff, i & 1 ? &A : &B, 0);
	sctp_thin_core_sack(&c, 0xfffffff0, &g, 1);	/* 0xfffffff1 missed */
	sctp_thin_core_timeout(&c, &B, false);		/* counted by the guard */
	CHECK(c.in_flight == 3 && c.gone_marked && c.recent_valid &&
	      c.guard_gone == 2, "before purge: packets, marks, guard counts");
	win = c.win_sent;
	sctp_thin_core_purge(&c);
	CHECK(c.used == 0 && c.in_flight == 0 && !c.highest_valid &&
	      !c.saturated && !c.gone_marked && !c.recent_valid,
	      "purge forgets every packet and TSN");
	CHECK(c.pkts_sent == 8 && c.win_sent == win && c.guard_gone == 2,
	      "purge keeps the windows and lifetime counters");
	CHECK(!sctp_thin_core_oldest(&c, &A, &n) && n == 0 &&
	      !sctp_thin_core_dup(&c, 0xfffffff2),
	      "after purge: nothing in flight, no dup to take back");
	/* a late SACK of the old TSN space: nothing to ack */
	CHECK(sctp_thin_core_sack(&c, 0xfffffff7, NULL, 0) == 0 &&
	      !sctp_thin_core_acked_path(&c, &A), "old SACK after purge");
	/* the TSNs jump past the wrap: 5, 6, 7 */
	for (i = 5; i <= 7; i++)
		sctp_thin_core_sent(&c, i, 100 + i, &A, 0);
	CHECK(c.highest_valid && c.highest_sent == 7 && c.in_flight == 3 &&
	      sctp_thin_core_oldest(&c, &A, &n)->tsn == 5 && n == 3,
	      "after purge: new TSNs from 5");
	sctp_thin_core_sack(&c, 6, NULL, 0);
	CHECK(c.in_flight == 1 && c.used == 1 && c.ring[c.head].tsn == 7,
	      "ack of 5 and 6: only 7 left, no stale slot");
	sctp_thin_core_sack(&c, 7, NULL, 0);
	CHECK(c.in_flight == 0 && c.used == 0 &&
	      sctp_thin_core_update(&c, true, true), "ack of 7: drained, thin");
	sctp_thin_core_destroy(&c);

	/* A jump far below the old TSNs, on a saturated core. */
	sctp_thin_core_init(&c, &shim_mem);
	shim_fail_next = true;
	for (i = 1000; i < 1010; i++)
		sctp_thin_core_sent(&c, i, i, &A, 0);
	CHECK(c.saturated && !sctp_thin_core_update(&c, true, true),
	      "no memory: saturated, thick");
	sctp_thin_core_purge(&c);
	CHECK(!c.saturated && !c.highest_valid, "purge ends saturation");
	sctp_thin_core_sent(&c, 5, 5, &A, 0);
	CHECK(c.highest_valid && c.highest_sent == 5 && c.in_flight == 1,
	      "after purge: TSN 5 below the old 1009 is the highest");
	for (i = 6; i < 6 + SCTP_THIN_MAX_SLOTS; i++)
		sctp_thin_core_sent(&c, i, i, &B, 0);
	CHECK(c.saturated && c.highest_sent == i - 1,
	      "new TSNs past the cap: saturated");
	sctp_thin_core_sack(&c, i - 2, NULL, 0);
	CHECK(c.saturated, "cum ack below the new highest: still saturated");
	sctp_thin_core_sack(&c, i - 1, NULL, 0);
	CHECK(!c.saturated && c.in_flight == 0 && c.used == 0 &&
	      sctp_thin_core_acked_path(&c, &C) &&
	      sctp_thin_core_update(&c, true, true),
	      "after purge: the cum ack of the new TSNs ends saturation");
	sctp_thin_core_destroy(&c);
	CHECK(shim_live == 0, "no leak after purges");
}

/* Recording restarts with packets up to a TSN sent unrecorded: thick
 * while any is outstanding, until the cumulative ack reaches them all.
 */
static void t_resync(void)
{
	struct sctp_thin_core c;
	u32 lost, sent;

	sctp_thin_core_init(&c, &shim_mem);
	sctp_thin_core_sent(&c, 10, 1, &A, 0);
	sctp_thin_core_sent(&c, 11, 2, &A, 0);
	lost = c.pkts_lost;
	sent = c.win_sent;
	sctp_thin_core_resync(&c, 100, true);
	CHECK(c.used == 0 && c.in_flight == 0 && c.highest_valid &&
	      c.highest_sent == 100 && c.saturated && c.pkts_lost == lost &&
	      c.win_sent == sent, "resync, outstanding: saturated at 100");
	CHECK(!sctp_thin_core_update(&c, true, true), "resync, outstanding: thick");
	sctp_thin_core_sent(&c, 101, 3, &A, 0);
	CHECK(c.in_flight == 0 && c.highest_sent == 101 && c.pkts_sent == 3,
	      "saturated: sends counted, not recorded");
	sctp_thin_core_sack(&c, 99, NULL, 0);
	CHECK(c.saturated && !sctp_thin_core_update(&c, true, true) &&
	      !sctp_thin_core_acked_path(&c, &A),
	      "cum ack 99 < 100: still saturated, thick");
	sctp_thin_core_sack(&c, 100, NULL, 0);
	CHECK(c.saturated && !sctp_thin_core_update(&c, true, true),
	      "cum ack 100 < highest 101: still saturated, thick");
	sctp_thin_core_sack(&c, 101, NULL, 0);
	CHECK(!c.saturated && sctp_thin_core_acked_path(&c, &A) &&
	      sctp_thin_core_acked_path(&c, &B) &&
	      sctp_thin_core_update(&c, true, true),
	      "cum ack reaches the highest: thin, every path acked");
	sctp_thin_core_sent(&c, 102, 4, &A, 0);
	CHECK(c.in_flight == 1, "recording again after the drain");
	sctp_thin_core_destroy(&c);

	sctp_thin_core_init(&c, &shim_mem);
	sctp_thin_core_resync(&c, 500, false);
	CHECK(!c.saturated && c.highest_valid && c.highest_sent == 500 &&
	      sctp_thin_core_update(&c, true, true),
	      "resync, nothing outstanding: thin");
	sctp_thin_core_sent(&c, 501, 1, &A, 0);
	sctp_thin_core_sack(&c, 501, NULL, 0);
	CHECK(c.in_flight == 0 && sctp_thin_core_acked_path(&c, &A) &&
	      !sctp_thin_core_acked_path(&c, &B),
	      "resync, nothing outstanding: exact path answers");
	sctp_thin_core_destroy(&c);
}

/* acked_path(): the paths whose packets the last SACK newly acked. */
static void t_acked_path(void)
{
	static const int P[SCTP_THIN_ACKED_PATHS + 2];
	struct sctp_thin_gap g = { 2, 2 };
	struct sctp_thin_core c;
	u32 i;

	sctp_thin_core_init(&c, &shim_mem);
	CHECK(!sctp_thin_core_acked_path(&c, &A), "no SACK yet: no path");
	sctp_thin_core_sent(&c, 1, 1, &A, 0);
	sctp_thin_core_sent(&c, 2, 2, &B, 0);
	sctp_thin_core_sent(&c, 3, 3, &C, 0);
	sctp_thin_core_sent(&c, 4, 4, &A, 0);
	sctp_thin_core_sack(&c, 1, NULL, 0);
	CHECK(sctp_thin_core_acked_path(&c, &A) &&
	      !sctp_thin_core_acked_path(&c, &B) &&
	      !sctp_thin_core_acked_path(&c, &C), "SACK of 1: path A only");
	sctp_thin_core_sack(&c, 1, &g, 1);	/* gap-acks 3, on C */
	CHECK(!sctp_thin_core_acked_path(&c, &A) &&
	      !sctp_thin_core_acked_path(&c, &B) &&
	      sctp_thin_core_acked_path(&c, &C), "gap ack of 3: path C only");
	sctp_thin_core_sack(&c, 1, &g, 1);
	CHECK(!sctp_thin_core_acked_path(&c, &C), "duplicate SACK: no path");
	sctp_thin_core_sack(&c, 4, NULL, 0);
	CHECK(sctp_thin_core_acked_path(&c, &A) &&
	      sctp_thin_core_acked_path(&c, &B) &&
	      !sctp_thin_core_acked_path(&c, &C) && !c.acked_all,
	      "SACK of 2 and 4: paths A and B");
	/* a packet declared lost is no progress on its path */
	sctp_thin_core_sent(&c, 5, 5, &B, 0);
	for (i = 6; i <= 8; i++) {
		sctp_thin_core_sent(&c, i, i, &A, 0);
		g.start = 2;
		g.end = i - 4;
		sctp_thin_core_sack(&c, 4, &g, 1);
	}
	CHECK(c.pkts_lost == 1 && sctp_thin_core_acked_path(&c, &A) &&
	      !sctp_thin_core_acked_path(&c, &B), "lost on B, acked on A");
	sctp_thin_core_sack(&c, 8, NULL, 0);
	/* as many paths as the list holds, then one more */
	for (i = 0; i < SCTP_THIN_ACKED_PATHS; i++)
		sctp_thin_core_sent(&c, 9 + i, 9, &P[i], 0);
	sctp_thin_core_sack(&c, 8 + i, NULL, 0);
	CHECK(!c.acked_all && sctp_thin_core_acked_path(&c, &P[0]) &&
	      sctp_thin_core_acked_path(&c, &P[i - 1]) &&
	      !sctp_thin_core_acked_path(&c, &P[i + 1]),
	      "SACK on 4 paths: exactly those");
	for (i = 0; i <= SCTP_THIN_ACKED_PATHS; i++)
		sctp_thin_core_sent(&c, 20 + i, 20, &P[i], 0);
	sctp_thin_core_sack(&c, 20 + i - 1, NULL, 0);
	CHECK(c.acked_all && sctp_thin_core_acked_path(&c, &P[i]) &&
	      sctp_thin_core_acked_path(&c, &A),
	      "SACK on 5 paths: every path (acked_all)");
	sctp_thin_core_sack(&c, 20 + i - 1, NULL, 0);
	CHECK(!c.acked_all && !sctp_thin_core_acked_path(&c, &P[0]),
	      "next SACK acks nothing: no path");
	/* timeouts and path removals are no acks; a purge forgets */
	sctp_thin_core_sent(&c, 30, 30, &A, 0);
	sctp_thin_core_sent(&c, 31, 31, &B, 0);
	sctp_thin_core_timeout(&c, &A, false);
	sctp_thin_core_purge_transport(&c, &B);
	CHECK(!sctp_thin_core_acked_path(&c, &A) &&
	      !sctp_thin_core_acked_path(&c, &B), "timeout, path removed: no ack");
	sctp_thin_core_sent(&c, 32, 32, &A, 0);
	sctp_thin_core_sack(&c, 32, NULL, 0);
	sctp_thin_core_purge(&c);
	CHECK(!sctp_thin_core_acked_path(&c, &A), "purge forgets acked paths");
	sctp_thin_core_destroy(&c);
}

/* An early T3-rtx expiry (a deferred strike, thin_timer.c): the packets
 * leave the flight but stay stock's until acked, wherever their copies
 * went; stock's own expiry gives them up.
 */
static void t_stock(void)
{
	struct sctp_thin_core c;
	struct sctp_thin_gap g = { 2, 2 };
	unsigned long o = 0, n = 0;

	sctp_thin_core_init(&c, &shim_mem);
	sctp_thin_core_sent(&c, 10, 100, &A, 0);
	sctp_thin_core_sent(&c, 11, 110, &A, 0);
	sctp_thin_core_sent(&c, 12, 120, &A, 0);
	sctp_thin_core_sent(&c, 13, 130, &B, 0);
	sctp_thin_core_timeout(&c, &A, true);
	CHECK(c.in_flight == 1 && c.stock == 3, "early expiry: out of flight, stock's");
	CHECK(!sctp_thin_core_oldest(&c, &A, NULL), "early expiry: nothing in flight on A");
	sctp_thin_core_sent(&c, 10, 140, &B, 0);	/* the copies, on B */
	sctp_thin_core_sent(&c, 11, 141, &B, 0);
	CHECK(c.stock == 3 && c.in_flight == 3, "a copy leaves stock's packet alone");
	/* 10 cum-acked, 12 gap-acked: stock's, on A */
	sctp_thin_core_sack(&c, 10, &g, 1);
	CHECK(sctp_thin_core_stock_acked(&c, &A, &o, &n) == SCTP_THIN_STOCK_TIMED &&
	      o == 100 && n == 120, "stock's packets acked on A: oldest and newest send");
	CHECK(sctp_thin_core_acked_path(&c, &B) && !sctp_thin_core_acked_path(&c, &A),
	      "our ack is B's copy, not A");
	CHECK(sctp_thin_core_stock_acked(&c, &B, &o, &n) == SCTP_THIN_STOCK_NONE,
	      "nothing of stock's on B");
	CHECK(c.stock == 1, "11 still stock's");
	sctp_thin_core_sack(&c, 10, &g, 1);
	CHECK(sctp_thin_core_stock_acked(&c, &A, &o, &n) == SCTP_THIN_STOCK_NONE,
	      "the same SACK again: nothing new");
	sctp_thin_core_timeout(&c, &A, false);
	CHECK(c.stock == 0, "stock's own expiry gives the rest up");
	sctp_thin_core_sack(&c, 13, NULL, 0);
	CHECK(sctp_thin_core_stock_acked(&c, &A, &o, &n) == SCTP_THIN_STOCK_NONE &&
	      c.used == 0, "then acked: not stock's any more; drained");
	/* the ring keeps them: compaction neither drops nor counts them */
	sctp_thin_core_sent(&c, 20, 200, &A, 0);
	sctp_thin_core_timeout(&c, &A, true);
	for (o = 0; o < 20; o++)
		sctp_thin_core_sent(&c, 21 + o, 201 + o, &B, 0);
	sctp_thin_core_sack(&c, 19, NULL, 0);
	CHECK(c.stock == 1 && c.in_flight == 20 && !c.saturated, "grown past it");
	sctp_thin_core_sack(&c, 40, NULL, 0);
	CHECK(sctp_thin_core_stock_acked(&c, &A, &o, &n) == SCTP_THIN_STOCK_TIMED &&
	      o == 200 && n == 200 && c.used == 0, "acked at last");
	sctp_thin_core_sent(&c, 41, 300, &A, 0);
	sctp_thin_core_timeout(&c, &A, true);
	sctp_thin_core_purge_transport(&c, &A);
	CHECK(c.stock == 0, "path removed: forgotten");
	sctp_thin_core_sent(&c, 42, 301, &A, 0);
	sctp_thin_core_timeout(&c, &A, true);
	sctp_thin_core_purge(&c);
	CHECK(c.stock == 0 && c.used == 0, "purge: forgotten");
	sctp_thin_core_destroy(&c);
	CHECK(shim_live == 0, "no leak");
}

/* RDB: the choice of chunks (sctp_thin_rdb_choose()). */
static void cand_set(struct sctp_thin_rdb_cand *c, u32 tsn, u32 len)
{
	c->tsn = tsn;
	c->len = len;
	c->chunk = NULL;
	c->key = NULL;
	c->acked = false;
	c->gone = false;
	c->pick = true;		/* must be cleared */
}

static u32 picked(const struct sctp_thin_rdb_cand *c, unsigned int n)
{
	u32 mask = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (c[i].pick)
			mask |= 1u << (c[i].tsn & 31);
	return mask;
}

static void t_rdb_choose(void)
{
	struct sctp_thin_rdb r;
	struct sctp_thin_rdb_cand c[8];
	u32 bytes;

	memset(&r, 0, sizeof(r));
	/* no history: every outstanding chunk below the new data, oldest
	 * first, sorted by TSN
	 */
	cand_set(&c[0], 7, 100);
	cand_set(&c[1], 5, 100);
	cand_set(&c[2], 6, 100);
	cand_set(&c[3], 9, 100);	/* not below first_new 8 */
	CHECK(sctp_thin_rdb_choose(&r, c, 4, &A, NULL, 8, 1, 1000, &bytes) == 3 &&
	      bytes == 300, "no history: all three below the new TSN");
	CHECK(c[0].tsn == 5 && c[1].tsn == 6 && c[2].tsn == 7 && c[3].tsn == 9,
	      "sorted by TSN");
	CHECK(picked(c, 4) == (1u << 5 | 1u << 6 | 1u << 7), "9 not bundled");
	/* room: oldest first, the first that does not fit ends it */
	cand_set(&c[0], 5, 100);
	cand_set(&c[1], 6, 300);
	cand_set(&c[2], 7, 100);
	CHECK(sctp_thin_rdb_choose(&r, c, 3, &A, NULL, 8, 1, 250, &bytes) == 1 &&
	      bytes == 100 && picked(c, 3) == 1u << 5,
	      "6 does not fit: 7 is not taken past it");
	cand_set(&c[0], 5, 300);
	CHECK(sctp_thin_rdb_choose(&r, c, 1, &A, NULL, 8, 1, 299, &bytes) == 0 &&
	      bytes == 0 && !c[0].pick, "nothing fits: nothing bundled");
	CHECK(sctp_thin_rdb_choose(&r, c, 1, &A, NULL, 8, 1, 300, &bytes) == 1,
	      "exactly the room fits");
	/* gap-acked and abandoned chunks are never bundled, and they do not
	 * end the bundle
	 */
	cand_set(&c[0], 5, 100);
	cand_set(&c[1], 6, 100);
	cand_set(&c[2], 7, 100);
	c[0].acked = true;
	c[2].gone = true;
	CHECK(sctp_thin_rdb_choose(&r, c, 3, &A, NULL, 8, 1, 1000, &bytes) == 1 &&
	      picked(c, 3) == 1u << 6, "gap-acked 5 and abandoned 7 not bundled");
	/* history: the last max_packets packets on this path */
	sctp_thin_rdb_note(&r, 3, &A);
	sctp_thin_rdb_note(&r, 4, &B);
	sctp_thin_rdb_note(&r, 5, &A);
	sctp_thin_rdb_note(&r, 6, &B);
	sctp_thin_rdb_note(&r, 7, &A);
	cand_set(&c[0], 3, 100);
	cand_set(&c[1], 5, 100);
	cand_set(&c[2], 7, 100);
	CHECK(sctp_thin_rdb_choose(&r, c, 3, &A, NULL, 8, 1, 1000, &bytes) == 1 &&
	      picked(c, 3) == 1u << 7, "max_packets 1: the last packet on A");
	cand_set(&c[0], 3, 100);
	cand_set(&c[1], 5, 100);
	cand_set(&c[2], 7, 100);
	CHECK(sctp_thin_rdb_choose(&r, c, 3, &A, NULL, 8, 2, 1000, &bytes) == 2 &&
	      picked(c, 3) == (1u << 5 | 1u << 7), "max_packets 2: 5 and 7");
	cand_set(&c[0], 3, 100);
	cand_set(&c[1], 5, 100);
	cand_set(&c[2], 7, 100);
	CHECK(sctp_thin_rdb_choose(&r, c, 3, &A, NULL, 8, 3, 1000, &bytes) == 3,
	      "max_packets 3: fewer packets remembered, all");
	cand_set(&c[0], 6, 100);
	CHECK(sctp_thin_rdb_choose(&r, c, 1, &B, NULL, 8, 1, 1000, &bytes) == 1,
	      "path B: its own history");
	sctp_thin_rdb_forget(&r, &A);
	cand_set(&c[0], 3, 100);
	CHECK(sctp_thin_rdb_choose(&r, c, 1, &A, NULL, 8, 1, 1000, &bytes) == 1,
	      "path A forgotten: no floor");
	/* serial arithmetic across the wrap */
	sctp_thin_rdb_reset(&r);
	sctp_thin_rdb_note(&r, 0xfffffffe, &A);
	sctp_thin_rdb_note(&r, 0xffffffff, &A);
	cand_set(&c[0], 0xffffffff, 100);
	cand_set(&c[1], 0, 100);
	CHECK(sctp_thin_rdb_choose(&r, c, 2, &A, NULL, 1, 1, 1000, &bytes) == 2 &&
	      c[0].tsn == 0xffffffff && c[1].tsn == 0 && c[0].pick && c[1].pick,
	      "wrap: 0xffffffff sorts before 0, both above the floor");
	cand_set(&c[0], 0xfffffffe, 100);
	CHECK(sctp_thin_rdb_choose(&r, c, 1, &A, NULL, 1, 1, 1000, &bytes) == 0,
	      "wrap: the floor itself is not bundled");
	/* AUTH (RFC 4895 6.2): only chunks queued under the packet's key */
	memset(&r, 0, sizeof(r));
	cand_set(&c[0], 5, 100);
	cand_set(&c[1], 6, 100);
	c[1].key = &B;
	cand_set(&c[2], 7, 100);
	c[2].key = &A;
	CHECK(sctp_thin_rdb_choose(&r, c, 3, &A, &A, 8, 1, 1000, &bytes) == 1 &&
	      picked(c, 3) == 1u << 7,
	      "auth: a packet under key A bundles only key A's chunks");
	CHECK(sctp_thin_rdb_choose(&r, c, 3, &A, NULL, 8, 1, 1000, &bytes) == 1 &&
	      picked(c, 3) == 1u << 5,
	      "auth: a packet without AUTH bundles no chunk queued under a key");
}

/* RDB: the verdict on copies (sctp_thin_rdb_sack()). */
static void t_rdb_verdict(void)
{
	struct sctp_thin_rdb_track out[SCTP_THIN_RDB_TRACK];
	struct sctp_thin_gap g = { 2, 2 };
	struct sctp_thin_rdb r;
	struct sctp_thin_core c;
	u32 d;
	int i;

	memset(&r, 0, sizeof(r));
	/* original 10 lost, copy in 11's packet: acked, no dup: repaired */
	sctp_thin_rdb_bundled(&r, 10, 11, &A);
	CHECK(sctp_thin_rdb_sack(&r, 9, NULL, 0, NULL, 0, out) == 0,
	      "nothing acked: no verdict");
	CHECK(sctp_thin_rdb_sack(&r, 11, NULL, 0, NULL, 0, out) == 1 &&
	      out[0].tsn == 10 && out[0].transport == &A && r.repaired == 1,
	      "copy repaired a loss");
	CHECK(sctp_thin_rdb_sack(&r, 11, NULL, 0, NULL, 0, out) == 0,
	      "one verdict per copy");
	/* original arrived: the copy is reported as a dup */
	sctp_thin_rdb_bundled(&r, 12, 13, &A);
	d = 12;
	CHECK(sctp_thin_rdb_sack(&r, 13, NULL, 0, &d, 1, out) == 0 &&
	      r.repaired == 1, "dup reported: the original arrived");
	/* the original acked before its carrier: in, whatever dups follow */
	sctp_thin_rdb_bundled(&r, 14, 15, &A);
	CHECK(sctp_thin_rdb_sack(&r, 14, NULL, 0, NULL, 0, out) == 0,
	      "TSN acked, no carrier: the original arrived");
	CHECK(sctp_thin_rdb_sack(&r, 15, NULL, 0, &d, 0, out) == 0 &&
	      r.repaired == 1, "its dup report lost later: still no loss");
	/* both acked at once and no dup report (lost SACK or carrier): a loss */
	sctp_thin_rdb_bundled(&r, 16, 17, &A);
	CHECK(sctp_thin_rdb_sack(&r, 17, NULL, 0, &d, 0, out) == 1 &&
	      r.repaired == 2, "no dup report at all: a loss");
	/* two copies: original and first carrier lost, the second repairs
	 * (cum 60, 62 gap-acked: block 2-2): 61 missing is a carrier
	 */
	sctp_thin_rdb_bundled(&r, 60, 61, &A);
	sctp_thin_rdb_bundled(&r, 60, 62, &A);
	g.start = 2;
	CHECK(sctp_thin_rdb_sack(&r, 60, &g, 1, NULL, 0, out) == 1 &&
	      out[0].tsn == 60 && r.repaired == 3,
	      "first carrier lost, second repaired: a loss");
	/* two copies: the TSN gap-acked while no carrier is (cum 69, block
	 * 1-1): the original is in; later SACKs without dups change nothing
	 */
	sctp_thin_rdb_bundled(&r, 70, 71, &A);
	sctp_thin_rdb_bundled(&r, 70, 72, &A);
	g.start = 1;
	g.end = 1;
	CHECK(sctp_thin_rdb_sack(&r, 69, &g, 1, NULL, 0, out) == 0 &&
	      sctp_thin_rdb_sack(&r, 72, NULL, 0, NULL, 0, out) == 0 &&
	      r.repaired == 3, "gap-acked before any carrier: no loss");
	/* the first carrier gap-acked with the TSN missing, then all: wait,
	 * then judge (no dup for two copies)
	 */
	sctp_thin_rdb_bundled(&r, 80, 81, &A);
	sctp_thin_rdb_bundled(&r, 80, 82, &A);
	g.start = 2;
	g.end = 2;
	CHECK(sctp_thin_rdb_sack(&r, 79, &g, 1, NULL, 0, out) == 0 &&
	      sctp_thin_rdb_sack(&r, 81, NULL, 0, NULL, 0, out) == 0,
	      "last carrier not acked: wait");
	CHECK(sctp_thin_rdb_sack(&r, 82, NULL, 0, NULL, 0, out) == 1 &&
	      r.repaired == 4, "no dup for two copies: a loss");
	/* the dup comes in an earlier SACK than the verdict */
	sctp_thin_rdb_bundled(&r, 20, 21, &B);
	d = 20;
	CHECK(sctp_thin_rdb_sack(&r, 19, NULL, 0, &d, 1, out) == 0,
	      "dup seen, nothing acked");
	CHECK(sctp_thin_rdb_sack(&r, 21, NULL, 0, NULL, 0, out) == 0,
	      "dup counted from an earlier SACK");
	/* two copies, original lost: one dup (the second copy) */
	sctp_thin_rdb_bundled(&r, 30, 31, &A);
	sctp_thin_rdb_bundled(&r, 30, 32, &A);
	d = 30;
	CHECK(sctp_thin_rdb_sack(&r, 32, NULL, 0, &d, 1, out) == 1 &&
	      out[0].tsn == 30, "two copies, one dup: repaired");
	/* two copies, original arrived: two dups */
	sctp_thin_rdb_bundled(&r, 40, 41, &A);
	sctp_thin_rdb_bundled(&r, 40, 42, &A);
	sctp_thin_rdb_sack(&r, 39, NULL, 0, &d, 0, out);
	d = 40;
	sctp_thin_rdb_sack(&r, 40, NULL, 0, &d, 1, out);
	CHECK(sctp_thin_rdb_sack(&r, 42, NULL, 0, &d, 1, out) == 0,
	      "two copies, two dups: the original arrived");
	/* gap acks count: 51 gap-acked (cum 49, block 2-2), 50 missing */
	sctp_thin_rdb_bundled(&r, 50, 51, &A);
	CHECK(sctp_thin_rdb_sack(&r, 49, &g, 1, NULL, 0, out) == 0,
	      "carrier gap-acked, the TSN not: wait");
	g.start = 1;
	CHECK(sctp_thin_rdb_sack(&r, 49, &g, 1, NULL, 0, out) == 1,
	      "both gap-acked, no dup: repaired");
	/* full table: counted as untracked, no overflow */
	sctp_thin_rdb_reset(&r);
	for (i = 0; i < SCTP_THIN_RDB_TRACK + 3; i++)
		sctp_thin_rdb_bundled(&r, 100 + i, 200, &A);
	CHECK(r.untracked == 3, "full verdict table: 3 untracked");
	CHECK(sctp_thin_rdb_sack(&r, 200, NULL, 0, NULL, 0, out) ==
	      SCTP_THIN_RDB_TRACK, "every tracked copy judged at once");
	/* a forgotten path gets no verdict */
	sctp_thin_rdb_bundled(&r, 300, 301, &B);
	sctp_thin_rdb_forget(&r, &B);
	CHECK(sctp_thin_rdb_sack(&r, 301, NULL, 0, NULL, 0, out) == 0,
	      "path removed: its copies forgotten");
	/* a repaired loss counts for the estimate and the guard, and a dup
	 * report of that TSN does not take it back
	 */
	sctp_thin_core_init(&c, &shim_mem);
	for (i = 0; i < 40; i++) {
		sctp_thin_core_sent(&c, 1000 + i, i, &A, 0);
		sctp_thin_core_sack(&c, 1000 + i, NULL, 0);
	}
	sctp_thin_core_repaired(&c, 1039);
	CHECK(c.pkts_lost == 1 && c.win_lost == 1 && c.guard_gone == 1,
	      "repaired: lost for the estimate and the guard");
	CHECK(!sctp_thin_core_dup(&c, 1039) && c.guard_gone == 1,
	      "a dup of a repaired TSN takes nothing back");
	/* a probe (a copy sent alone) superseded the original, which the
	 * guard counted then; its repaired verdict comes after the ack
	 * passed the mark: one loss, counted once
	 */
	sctp_thin_core_sent(&c, 1040, 40, &A, 0);
	sctp_thin_core_sent(&c, 1040, 41, &A, 0);
	CHECK(c.guard_gone == 2, "the probe superseded its original");
	sctp_thin_core_sack(&c, 1040, NULL, 0);
	sctp_thin_core_repaired(&c, 1040);
	CHECK(c.pkts_lost == 2 && c.guard_gone == 2,
	      "probe repaired: counted once for the guard");
	CHECK(!sctp_thin_core_dup(&c, 1040) && c.guard_gone == 2,
	      "and no dup report takes it back then");
	sctp_thin_core_destroy(&c);
}

/* RDB: the standing-queue gate (sctp_thin_rdb_gate_rtt()), window 1000,
 * slack 5, in ticks.
 */
static void t_rdb_gate(void)
{
	struct sctp_thin_rdb_gate g;
	u32 t = 0xfffffff0;	/* the clock wraps inside the test */
	int i, shut = 0;

	memset(&g, 0, sizeof(g));
	CHECK(!sctp_thin_rdb_gate_rtt(&g, 100, t, 1000, 5) && g.min_cur == 100,
	      "gate: the first sample is the base, open");
	CHECK(!sctp_thin_rdb_gate_rtt(&g, 125, t += 10, 1000, 5),
	      "gate: a queue of a quarter of the base keeps it open");
	CHECK(sctp_thin_rdb_gate_rtt(&g, 126, t += 10, 1000, 5),
	      "gate: a queue of more than a quarter of the base closes it");
	CHECK(sctp_thin_rdb_gate_rtt(&g, 113, t += 10, 1000, 5),
	      "gate: closed until the queue is under an eighth of the base");
	CHECK(!sctp_thin_rdb_gate_rtt(&g, 112, t += 10, 1000, 5),
	      "gate: opens again at an eighth of the base");
	memset(&g, 0, sizeof(g));
	sctp_thin_rdb_gate_rtt(&g, 4, t, 1000, 5);
	CHECK(!sctp_thin_rdb_gate_rtt(&g, 9, t += 10, 1000, 5),
	      "gate: a short path: a queue within the slack keeps it open");
	CHECK(sctp_thin_rdb_gate_rtt(&g, 10, t += 10, 1000, 5),
	      "gate: a short path: past the slack closes it");
	CHECK(sctp_thin_rdb_gate_rtt(&g, 7, t += 10, 1000, 5) &&
	      !sctp_thin_rdb_gate_rtt(&g, 6, t += 10, 1000, 5),
	      "gate: a short path: opens within half the slack");
	/* A longer route: the base follows within two windows. */
	memset(&g, 0, sizeof(g));
	sctp_thin_rdb_gate_rtt(&g, 100, t, 1000, 5);
	for (i = 0; i < 300; i++)
		shut += sctp_thin_rdb_gate_rtt(&g, 300, t += 10, 1000, 5);
	CHECK(shut > 0 && shut < 300 && !g.closed && g.min_prev == 300 &&
	      g.min_cur == 300, "gate: a longer route is learnt within two windows");
	/* A standing queue does not become the base while a lower SRTT
	 * was seen in the window before.
	 */
	memset(&g, 0, sizeof(g));
	sctp_thin_rdb_gate_rtt(&g, 100, t, 1000, 5);
	sctp_thin_rdb_gate_rtt(&g, 130, t += 999, 1000, 5);
	CHECK(sctp_thin_rdb_gate_rtt(&g, 130, t += 2, 1000, 5) &&
	      g.min_prev == 100, "gate: the window before still holds the base");
	CHECK(!sctp_thin_rdb_gate_rtt(&g, 0, t += 1, 1000, 5),
	      "gate: an SRTT of 0 counts as 1 tick, no queue");
	/* No samples for more than two windows: the old base is forgotten. */
	memset(&g, 0, sizeof(g));
	sctp_thin_rdb_gate_rtt(&g, 100, t, 1000, 5);
	CHECK(!sctp_thin_rdb_gate_rtt(&g, 200, t += 2500, 1000, 5) &&
	      g.min_prev == 0, "gate: a base older than two windows is forgotten");
}

/* RTT samples in µs (Karn, RFC 9260 6.3.1 C5) and the smoothed RTT. */
static void t_rtt(void)
{
	struct sctp_thin_rtt r = { 0 };
	struct sctp_thin_core c;
	struct sctp_thin_gap g = { 2, 2 };

	sctp_thin_core_init(&c, &shim_mem);
	sctp_thin_core_clock(&c, 0xfffffc18u);	/* 1 ms before the wrap */
	sctp_thin_core_sent(&c, 10, 1, &A, 0);
	sctp_thin_core_clock(&c, 500);
	sctp_thin_core_sent(&c, 11, 2, &B, 0);
	sctp_thin_core_clock(&c, 9000);
	sctp_thin_core_sack(&c, 10, NULL, 0);
	CHECK(c.rtt_us == 10000 && c.rtt_tp == &A, "sample across the µs wrap");
	sctp_thin_core_sent(&c, 12, 3, &A, 0);
	sctp_thin_core_clock(&c, 9500);
	sctp_thin_core_sack(&c, 10, NULL, 0);
	CHECK(c.rtt_us == 0, "a SACK that acks nothing: no sample");
	sctp_thin_core_sack(&c, 10, &g, 1);
	CHECK(c.rtt_us == 500 && c.rtt_tp == &A, "gap-acked packet: sample");
	/* 11 retransmitted: its ack gives no sample (Karn) */
	sctp_thin_core_sent(&c, 11, 4, &A, 0);
	sctp_thin_core_clock(&c, 20000);
	sctp_thin_core_sack(&c, 12, NULL, 0);
	CHECK(c.rtt_us == 0, "Karn: an acked retransmission gives no sample");
	/* newest of two acked first transmissions */
	sctp_thin_core_clock(&c, 21000);
	sctp_thin_core_sent(&c, 13, 5, &A, 0);
	sctp_thin_core_clock(&c, 22000);
	sctp_thin_core_sent(&c, 14, 6, &B, 0);
	sctp_thin_core_clock(&c, 25000);
	sctp_thin_core_sack(&c, 14, NULL, 0);
	CHECK(c.rtt_us == 3000 && c.rtt_tp == &B, "the newest acked packet");
	CHECK(!sctp_thin_core_newest(&c), "nothing in flight: no newest");
	sctp_thin_core_sent(&c, 15, 7, &A, 0);
	sctp_thin_core_sent(&c, 16, 8, &C, 0);
	CHECK(sctp_thin_core_newest(&c) && sctp_thin_core_newest(&c)->tsn == 16,
	      "newest packet in flight");
	/* The clock starts late: 15 and 16 went out untimed (stale clock). */
	sctp_thin_core_untimed(&c, 90000);
	CHECK(c.now_us == 90000 && sctp_thin_core_newest(&c)->sent_us == 90000,
	      "clock start: packets in flight count as sent now");
	sctp_thin_core_sent(&c, 17, 9, &A, 0);
	sctp_thin_core_clock(&c, 95000);
	sctp_thin_core_sack(&c, 16, NULL, 0);
	CHECK(c.rtt_us == 0, "clock start: an untimed packet gives no sample");
	sctp_thin_core_sack(&c, 17, NULL, 0);
	CHECK(c.rtt_us == 5000 && c.rtt_tp == &A,
	      "clock start: a packet sent after it gives one");
	sctp_thin_core_destroy(&c);

	sctp_thin_rtt_sample(&r, 0);
	CHECK(r.srtt_us == 0, "no sample, no SRTT");
	sctp_thin_rtt_sample(&r, 10000);
	CHECK(r.srtt_us == 10000, "first sample is the SRTT (RFC 6298 2.2)");
	sctp_thin_rtt_sample(&r, 18000);
	CHECK(r.srtt_us == 11000, "SRTT += (R - SRTT) / 8 (RFC 6298 2.3)");
	sctp_thin_rtt_sample(&r, 0xffffffffu);
	CHECK(r.srtt_us < 10000000, "a huge sample is clamped");
	CHECK(sctp_thin_pto_us(10500, false) == 21000, "PTO = 2 * SRTT with the I-bit");
	CHECK(sctp_thin_pto_us(10500, true) == 221000, "PTO + 200 ms without it");
	CHECK(sctp_thin_pto_us(0xffffffffu, true) > 0xffffffu, "PTO does not wrap");
}

/* Reference verdict (RFC 8985 7.4, docs/design-tail-probe.md 1.7): the
 * brute-force reading of one SACK against an open episode.
 */
static int ref_verdict(bool *dup, bool *acked, bool clean, u32 tsn, u32 end,
		       u32 cum, const struct sctp_thin_gap *g, unsigned int n,
		       const u32 *dups, unsigned int nd)
{
	bool above = (s32)(cum - end) > 0;
	unsigned int i;

	for (i = 0; i < nd; i++)
		*dup |= dups[i] == tsn;
	if ((s32)(cum - tsn) >= 0)
		*acked = true;
	for (i = 0; i < n; i++) {
		if (!g[i].start || g[i].start > g[i].end)
			continue;
		if ((s32)(tsn - (cum + g[i].start)) >= 0 &&
		    (s32)((cum + g[i].end) - tsn) >= 0)
			*acked = true;
		if ((s32)((cum + g[i].end) - end) > 0)
			above = true;
	}
	if (*dup && clean)
		return SCTP_THIN_PROBE_SPURIOUS;
	if (!above)
		return -1;	/* still open */
	return *acked ? SCTP_THIN_PROBE_REPAIRED : SCTP_THIN_PROBE_NONE;
}

static void t_probe(void)
{
	struct sctp_thin_probe p = { 0 };
	struct sctp_thin_gap g = { 2, 2 };
	u32 d = 7;
	int i, k, bad = 0;

	CHECK(sctp_thin_probe_sack(&p, 9, NULL, 0, NULL, 0) ==
	      SCTP_THIN_PROBE_NONE, "no episode: no verdict");
	sctp_thin_probe_open(&p, 7, 7, false);
	CHECK(sctp_thin_probe_dup(&p, 7) && !sctp_thin_probe_dup(&p, 6),
	      "the probe's own dup");
	CHECK(sctp_thin_probe_sack(&p, 7, NULL, 0, NULL, 0) ==
	      SCTP_THIN_PROBE_NONE && p.open,
	      "tsn acked, nothing above end: still open (TCP's after())");
	CHECK(sctp_thin_probe_sack(&p, 8, NULL, 0, NULL, 0) ==
	      SCTP_THIN_PROBE_REPAIRED && !p.open, "above end acked: repaired");
	sctp_thin_probe_open(&p, 7, 7, false);
	CHECK(sctp_thin_probe_sack(&p, 7, NULL, 0, &d, 1) ==
	      SCTP_THIN_PROBE_SPURIOUS && !p.open, "dup of the probe: spurious");
	sctp_thin_probe_open(&p, 7, 7, false);
	sctp_thin_probe_resent(&p, 7);
	CHECK(!sctp_thin_probe_dup(&p, 7), "sent again: the dup is not the probe's");
	CHECK(sctp_thin_probe_sack(&p, 7, NULL, 0, &d, 1) ==
	      SCTP_THIN_PROBE_NONE && p.open, "sent 3 times, dup: no verdict yet");
	CHECK(sctp_thin_probe_sack(&p, 9, NULL, 0, NULL, 0) ==
	      SCTP_THIN_PROBE_REPAIRED, "ambiguous counts as a loss");
	sctp_thin_probe_open(&p, 7, 8, false);
	CHECK(sctp_thin_probe_sack(&p, 6, &g, 1, NULL, 0) == SCTP_THIN_PROBE_NONE &&
	      p.open, "8 gap-acked, end 8: still open");
	g.start = 3;
	g.end = 3;
	CHECK(sctp_thin_probe_sack(&p, 6, &g, 1, NULL, 0) == SCTP_THIN_PROBE_NONE &&
	      !p.open, "above end gap-acked, tsn missing: probe lost, no verdict");
	sctp_thin_probe_open(&p, 7, 7, false);
	sctp_thin_probe_sack(&p, 7, NULL, 0, NULL, 0);
	CHECK(sctp_thin_probe_new_data(&p) == SCTP_THIN_PROBE_REPAIRED && !p.open,
	      "new data after an ack without dup: repaired");
	sctp_thin_probe_open(&p, 7, 7, false);
	CHECK(sctp_thin_probe_new_data(&p) == SCTP_THIN_PROBE_NONE && p.open,
	      "new data, tsn not acked: the episode stays open");
	CHECK(sctp_thin_probe_sack(&p, 8, NULL, 0, NULL, 0) ==
	      SCTP_THIN_PROBE_REPAIRED, "its verdict comes with the new ack");
	sctp_thin_probe_open(&p, 0xffffffffu, 0xffffffffu, false);
	CHECK(sctp_thin_probe_sack(&p, 0, NULL, 0, NULL, 0) ==
	      SCTP_THIN_PROBE_REPAIRED, "TSN wrap");

	/* randomized against the reference */
	srand(29);
	for (k = 0; k < 20000; k++) {
		u32 base = (u32)rand() * 7919u, tsn, end, cum, dups[3];
		struct sctp_thin_gap gg[3];
		bool dup = false, acked = false, clean = rand() % 4 != 0;
		int want = -1, got;

		end = base + rand() % 4;
		tsn = end - rand() % 3;
		memset(&p, 0, sizeof(p));
		sctp_thin_probe_open(&p, tsn, end, true);
		if (!clean)
			sctp_thin_probe_resent(&p, tsn);
		for (i = 0; i < 4 && want < 0; i++) {
			unsigned int n = rand() % 4, nd = rand() % 4, j;

			cum = base - 3 + rand() % 8;
			for (j = 0; j < n; j++) {
				gg[j].start = rand() % 6;
				gg[j].end = gg[j].start + rand() % 3 - (rand() % 5 == 0);
			}
			for (j = 0; j < nd; j++)
				dups[j] = base - 2 + rand() % 6;
			want = ref_verdict(&dup, &acked, clean, tsn, end, cum,
					   gg, n, dups, nd);
			got = sctp_thin_probe_sack(&p, cum, gg, n, dups, nd);
			if (want < 0)
				bad += got != SCTP_THIN_PROBE_NONE || !p.open;
			else
				bad += got != want || p.open;
		}
	}
	CHECK(bad == 0, "probe verdicts agree with the reference (20000 runs)");
}

/* The I-bit score: a peer that ignores the I-bit gets the allowance. */
static void t_probe_score(void)
{
	struct sctp_thin_probe p = { 0 };
	u32 d = 7;
	int i, n = 0;

	CHECK(sctp_thin_probe_delack(&p, false), "no I-bit: allowance");
	CHECK(!sctp_thin_probe_delack(&p, true), "I-bit, trusted: none");
	for (i = 0; i < 2; i++) {
		sctp_thin_probe_open(&p, 7, 7, false);
		sctp_thin_probe_sack(&p, 7, NULL, 0, &d, 1);
	}
	CHECK(p.distrust, "2 spurious of 2: distrusted");
	for (i = 0; i < 32; i++) {
		bool dl = sctp_thin_probe_delack(&p, true);

		n += !dl;
		sctp_thin_probe_open(&p, 7, 7, dl);
		sctp_thin_probe_sack(&p, 7, NULL, 0, &d, 1);
	}
	CHECK(n == 2 && p.distrust, "distrusted: 1 probe in 16 without allowance");
	memset(&p, 0, sizeof(p));
	for (i = 0; i < 8; i++) {
		sctp_thin_probe_open(&p, 7, 7, false);
		sctp_thin_probe_sack(&p, 8, NULL, 0, i == 3 ? &d : NULL, i == 3);
	}
	CHECK(!p.distrust, "1 spurious in 8: trusted");
	for (i = 0; i < 2; i++) {
		sctp_thin_probe_open(&p, 7, 7, true);
		sctp_thin_probe_sack(&p, 7, NULL, 0, &d, 1);
	}
	CHECK(!p.distrust && p.win_probes == 8,
	      "probes with the allowance do not score");
	p.distrust = true;
	p.win_probes = 8;
	p.win_spurious = 0;
	sctp_thin_probe_open(&p, 7, 7, false);
	sctp_thin_probe_sack(&p, 8, NULL, 0, NULL, 0);
	CHECK(!p.distrust, "trusted again under 1/8");
}

/* The time-based loss rule (RFC 8985 6.2; docs/design-tail-probe.md 2):
 * RTT 10 ms, a pair of packets 100 µs apart, reordered or lost.
 */
static void t_rack(void)
{
	struct sctp_thin_gap g = { 2, 2 };
	struct sctp_thin_reo o = { 0 };
	struct sctp_thin_rack r = { 0 };
	struct sctp_thin_core c;
	u32 x = 0, wait = 0, w;

	sctp_thin_core_init(&c, &shim_mem);
	sctp_thin_core_clock(&c, 0xfffff000u);	/* the µs clock wraps */
	sctp_thin_core_sent(&c, 100, 1, &A, 0);
	sctp_thin_core_clock(&c, 0xfffff000u + 100);
	sctp_thin_core_sent(&c, 101, 1, &A, 0);
	sctp_thin_core_clock(&c, 0xfffff000u + 10000);
	sctp_thin_core_sack(&c, 100, NULL, 0);
	CHECK(sctp_thin_core_acked_xmit(&c, &A, &x) && x == 0xfffff000u,
	      "acked first transmission: its send time");
	CHECK(!sctp_thin_core_acked_xmit(&c, &B, &x), "nothing acked on B");
	sctp_thin_rack_advance(&r, x, c.now_us);
	CHECK(r.valid && r.rtt_us == 10000 && r.min_us == 10000,
	      "RACK.rtt and min RTT");
	w = sctp_thin_reo_wnd(&o, &r, 10000);
	CHECK(w == 2500, "reo_wnd = min_RTT / 4 (RFC 8985 6.2 step 4)");
	CHECK(sctp_thin_reo_wnd(&o, &r, 2000) == 2000, "reo_wnd <= SRTT");
	/* 102 and 103 leave 100 µs apart; 103's SACK comes first */
	sctp_thin_core_clock(&c, 100000);
	sctp_thin_core_sent(&c, 102, 2, &A, 0);
	sctp_thin_core_clock(&c, 100100);
	sctp_thin_core_sent(&c, 103, 2, &A, 0);
	sctp_thin_core_clock(&c, 110100);
	sctp_thin_core_sack(&c, 101, &g, 1);
	CHECK(sctp_thin_core_acked_xmit(&c, &A, &x) && x == 100100,
	      "the newest acked first transmission");
	sctp_thin_rack_advance(&r, x, c.now_us);
	CHECK(r.xmit_us == 100100 && r.rtt_us == 10000, "RACK.xmit_ts moved");
	CHECK(sctp_thin_core_rack(&c, 102, &A, &r, w, &wait) ==
	      SCTP_THIN_RACK_WAIT && wait == 2400,
	      "reordered by 100 µs: within the window, 2.4 ms left");
	CHECK(sctp_thin_core_rack(&c, 102, &B, &r, w, &wait) ==
	      SCTP_THIN_RACK_UNKNOWN, "per path: nothing of A on B");
	CHECK(sctp_thin_core_rack(&c, 102, &A, &r, 0, &wait) ==
	      SCTP_THIN_RACK_LOST, "no window: the first indication");
	sctp_thin_core_clock(&c, 112600);
	CHECK(sctp_thin_core_rack(&c, 102, &A, &r, w, &wait) ==
	      SCTP_THIN_RACK_LOST, "the window passed: lost");
	/* 104 leaves 100 ms after 102: at its SACK, 102 is lost at once */
	sctp_thin_core_clock(&c, 200100);
	sctp_thin_core_sent(&c, 104, 3, &A, 0);
	sctp_thin_core_clock(&c, 210100);
	g.end = 3;
	sctp_thin_core_sack(&c, 101, &g, 1);
	sctp_thin_core_acked_xmit(&c, &A, &x);
	sctp_thin_rack_advance(&r, x, c.now_us);
	CHECK(sctp_thin_core_rack(&c, 102, &A, &r, w, &wait) ==
	      SCTP_THIN_RACK_LOST, "a later message's SACK: lost at once");
	CHECK(sctp_thin_core_rack(&c, 104, &A, &r, w, &wait) !=
	      SCTP_THIN_RACK_LOST, "the newest acked packet is not lost");
	/* a retransmission of 102 supersedes its packet: later, not lost */
	sctp_thin_core_clock(&c, 210200);
	sctp_thin_core_sent(&c, 102, 4, &A, 0);
	CHECK(sctp_thin_core_rack(&c, 102, &A, &r, w, &wait) ==
	      SCTP_THIN_RACK_NOT_LOST, "superseded: judged by the later packet");
	sctp_thin_core_clock(&c, 220200);
	sctp_thin_core_sack(&c, 104, NULL, 0);
	CHECK(!sctp_thin_core_acked_xmit(&c, &A, &x),
	      "a retransmission's ack moves no RACK.xmit_ts (Karn)");
	sctp_thin_core_destroy(&c);
}

/* The reordering window's growth and the minimum RTT (RFC 8985 6.2 step
 * 4): min RTT 10 ms.
 */
static void t_rack_window(void)
{
	struct sctp_thin_rack r = { .min_us = 10000 };
	struct sctp_thin_reo o = { 0 };
	u32 w;

	/* the window grows on a dup report, once per round trip */
	sctp_thin_reo_sack(&o, 100, true, 110);
	CHECK(o.steps == 1 && sctp_thin_reo_wnd(&o, &r, 0) == 5000,
	      "dup report: reo_wnd_mult 2");
	sctp_thin_reo_sack(&o, 105, true, 112);
	CHECK(o.steps == 1, "same round trip: no more growth");
	sctp_thin_reo_sack(&o, 110, true, 120);
	CHECK(o.steps == 2, "next round trip: grows again");
	for (w = 0; w < SCTP_THIN_REO_PERSIST - 1; w++)
		sctp_thin_reo_lost(&o);
	CHECK(o.steps == 2, "persists for 16 losses");
	sctp_thin_reo_lost(&o);
	CHECK(o.steps == 0, "then back to min_RTT / 4");
	/* the minimum RTT of the last 10-20 s */
	memset(&r, 0, sizeof(r));
	sctp_thin_rack_advance(&r, 0, 5000);
	sctp_thin_rack_advance(&r, 6000, 16000);
	CHECK(r.min_us == 5000 && r.rtt_us == 10000, "min RTT, RACK.rtt");
	sctp_thin_rack_advance(&r, 11000000, 11020000);
	CHECK(r.min_us == 20000 && r.min_prev_us == 5000 &&
	      sctp_thin_reo_wnd(&o, &r, 0) == 1250, "a new window keeps the old");
	sctp_thin_rack_advance(&r, 22000000, 22020000);
	CHECK(sctp_thin_reo_wnd(&o, &r, 0) == 5000, "forgotten after 20 s");
	sctp_thin_rack_advance(&r, 21000000, 22030000);
	CHECK(r.xmit_us == 22000000, "RACK.xmit_ts never moves back");
}

int main(void)
{
	t_basic();
	t_detection();
	t_cap_and_failure();
	t_hostile();
	t_guard();
	t_app_limited();
	t_oldest_count();
	t_purge();
	t_resync();
	t_acked_path();
	t_stock();
	t_rdb_choose();
	t_rdb_verdict();
	t_rdb_gate();
	t_rtt();
	t_probe();
	t_probe_score();
	t_rack();
	t_rack_window();
	printf("directed: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Known-answer tests of the core rules (paper 5.1, RFC 9260 7.2.4). */
#include <stdio.h>
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

static const int A = 1, B = 2;

static void t_basic(void)
{
	struct sctp_thin_core c;
	struct sctp_thin_gap g = { 2, 2 };

	sctp_thin_core_init(&c);
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

	sctp_thin_core_init(&c);
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

	sctp_thin_core_init(&c);
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
	sctp_thin_core_destroy(&c);

	sctp_thin_core_init(&c);
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

	sctp_thin_core_init(&c);
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

	sctp_thin_core_init(&c);
	c.guard = SCTP_THIN_ONE / 5;			/* 20 % */
	for (tsn = 1; tsn <= 10; tsn++) {		/* half time out */
		sctp_thin_core_sent(&c, tsn, tsn, &A, 0);
		if (tsn % 2)
			sctp_thin_core_timeout(&c, &A);
		else
			sctp_thin_core_sack(&c, tsn, NULL, 0);
	}
	CHECK(c.guard_gone == 5 && sctp_thin_core_update(&c, true, true) &&
	      !c.congested, "50 % gone in 10 packets: too few to judge");
	for (; tsn <= 32; tsn++) {			/* 2 of 22 more */
		sctp_thin_core_sent(&c, tsn, tsn, &A, 0);
		if (tsn == 20 || tsn == 30)
			sctp_thin_core_timeout(&c, &A);
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
		sctp_thin_core_timeout(&c, &A);
	}
	CHECK(sctp_thin_core_update(&c, true, true) && !c.congested,
	      "guard off: never congested");
	sctp_thin_core_destroy(&c);

	/* What counts as given up, each TSN once. */
	sctp_thin_core_init(&c);
	sctp_thin_core_sent(&c, 1, 0, &A, 0);
	for (i = 0; i < 6; i++) {
		sctp_thin_core_timeout(&c, &A);
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
	sctp_thin_core_timeout(&c, &A);
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
	sctp_thin_core_timeout(&c, &A);		/* and T3: a third copy */
	sctp_thin_core_resent(&c, 10);
	CHECK(!sctp_thin_core_dup(&c, 10) && c.guard_gone == 5,
	      "lost, then fast-retransmitted and timed out: dup takes nothing");
	sctp_thin_core_destroy(&c);

	sctp_thin_core_init(&c);
	for (i = 1; i <= 20; i++)
		sctp_thin_core_sent(&c, i, 0, &A, 0);
	sctp_thin_core_timeout(&c, &A);
	CHECK(c.guard_gone == 20 && !sctp_thin_core_dup(&c, 4) &&
	      sctp_thin_core_dup(&c, 5) && sctp_thin_core_dup(&c, 20) &&
	      c.guard_gone == 18,
	      "only the last 16 counted TSNs can be taken back");
	sctp_thin_core_destroy(&c);
}

int main(void)
{
	t_basic();
	t_detection();
	t_cap_and_failure();
	t_hostile();
	t_guard();
	printf("directed: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* thin-sctp core: packets in flight, loss estimate, thin detection.
 *
 * Petlund et al., "Improving SCTP retransmission delays for
 * time-dependent thin streams", 2009, section 5.1: "we added a list that
 * holds the highest TSN for every packet in flight, as well as a packet
 * counter", and a packet is lost once "indicated as lost by a SACK on
 * three different occasions".
 *
 * The list is a ring of slots in send order.  A packet that is acked,
 * lost or purged becomes a dead slot; dead slots leave from the head, and
 * a full ring is compacted before it grows, so each slot is written,
 * killed and removed once: O(1) amortized per packet sent.  A SACK walks
 * the live packets, O(slots x gap blocks), bounded by the slot cap and by
 * the caller's cap on gap blocks; stock SCTP walks every outstanding chunk
 * per SACK already (sctp_check_transmitted()).
 *
 * See docs/core.md for the design and the reasons behind the constants.
 */

#include <linux/compiler.h>
#include <linux/string.h>
#include <net/sctp/thin_core.h>

/* Serial number arithmetic, RFC 9260 1.6 / RFC 1982. */
static bool sctp_thin_before(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

static struct sctp_thin_pkt *sctp_thin_slot(const struct sctp_thin_core *c,
					    u32 i)
{
	return &c->ring[(c->head + i) & (c->size - 1)];
}

void sctp_thin_core_init(struct sctp_thin_core *c,
			 const struct sctp_thin_mem *mem)
{
	memset(c, 0, sizeof(*c));
	c->mem = mem;
	c->thin = true;		/* nothing in flight */
}

void sctp_thin_core_destroy(struct sctp_thin_core *c)
{
	c->mem->free(c->ring);
	c->ring = NULL;
	c->head = 0;
	c->used = 0;
	c->size = 0;
	c->in_flight = 0;
	c->stock = 0;
}

/* Nothing recorded: a ring grown past its first size goes, and the next
 * packet starts a small one (sctp_thin_room()), so that an association
 * that was bulk for a while does not keep 8 KiB for its life.  A thin
 * stream, which drains between its messages, keeps its first ring.
 */
static void sctp_thin_shrink(struct sctp_thin_core *c)
{
	c->head = 0;
	if (c->size <= SCTP_THIN_MIN_SLOTS)
		return;
	c->mem->free(c->ring);
	c->ring = NULL;
	c->size = 0;
}

/* Drop dead slots at the head. */
static void sctp_thin_pop_dead(struct sctp_thin_core *c)
{
	while (c->used && sctp_thin_slot(c, 0)->state == SCTP_THIN_PKT_DEAD) {
		c->head = (c->head + 1) & (c->size - 1);
		c->used--;
	}
	if (!c->used)
		c->head = 0;
}

/* Drop dead slots at the head; shrink if none is left. */
static void sctp_thin_pop(struct sctp_thin_core *c)
{
	sctp_thin_pop_dead(c);
	if (!c->used)
		sctp_thin_shrink(c);
}

static void sctp_thin_kill(struct sctp_thin_core *c, struct sctp_thin_pkt *p)
{
	p->state = SCTP_THIN_PKT_DEAD;
	c->in_flight--;
}

/* Congestion guard: the sender gave up on the packet with highest TSN
 * @tsn (declared lost, timed out, or superseded by a retransmission).
 * Each TSN counts once: a TSN retransmitted and lost again adds nothing,
 * so the count is the share of packets that needed a retransmission, not
 * of retransmissions.  Kills happen in TSN order but for rare
 * cross-path cases, where a TSN below the mark goes uncounted.
 */
static bool sctp_thin_gone_count(struct sctp_thin_core *c, u32 tsn)
{
	if (c->gone_marked && !sctp_thin_before(c->gone_mark, tsn))
		return false;
	c->gone_marked = true;
	c->gone_mark = tsn;
	if (c->guard_gone >= c->guard_sent)
		return false;
	c->guard_gone++;
	return true;
}

static void sctp_thin_gone(struct sctp_thin_core *c, u32 tsn)
{
	if (!sctp_thin_gone_count(c, tsn))
		return;
	/* Remember it, so that a dup report can take it back. */
	c->recent_tsn[c->recent_next] = tsn;
	c->recent_valid |= BIT(c->recent_next);
	c->recent_next = (c->recent_next + 1) % SCTP_THIN_GUARD_RECENT;
}

static int sctp_thin_recent(const struct sctp_thin_core *c, u32 tsn)
{
	unsigned int i;

	for (i = 0; i < SCTP_THIN_GUARD_RECENT; i++)
		if ((c->recent_valid & BIT(i)) && c->recent_tsn[i] == tsn)
			return i;
	return -1;
}

/* The peer reported @tsn as a duplicate (RFC 9260 3.3.4, 6.2): two copies
 * arrived.  If the guard counted that TSN as given up and it was
 * retransmitted once, the original was not lost and the retransmission
 * was spurious (RFC 3708 3.2, the SCTP counterpart of a D-SACK): take the
 * count back, once per counted TSN.  True if it did.
 */
bool sctp_thin_core_dup(struct sctp_thin_core *c, u32 tsn)
{
	int i = sctp_thin_recent(c, tsn);

	if (i < 0)
		return false;
	c->recent_valid &= ~BIT(i);
	if (c->guard_gone)
		c->guard_gone--;
	c->guard_undone++;
	return true;
}

/* @tsn is sent a third time or more: two retransmissions may be what
 * arrived twice, so a dup report no longer shows that its original did.
 */
void sctp_thin_core_resent(struct sctp_thin_core *c, u32 tsn)
{
	int i = sctp_thin_recent(c, tsn);

	if (i >= 0)
		c->recent_valid &= ~BIT(i);
}

/* The original of @tsn was lost and a copy repaired it: an RDB copy
 * bundled with later data (sctp_thin_rdb_sack()) or a tail probe
 * (RFC 8985 7.4.2).  Still a loss (as TCP RDB, which enters CWR): it
 * counts for the loss estimate and, once, for the congestion guard,
 * which would otherwise never see the losses of a flow whose RDB copies
 * repair them.  A copy that left alone superseded the original and the
 * guard counted the TSN then (sctp_thin_core_sent()): it stays counted,
 * and no longer for a dup report to take back.  Counting it again (the
 * mark is gone once the cumulative ack passed it) made each probed loss
 * two for the guard: 5 % random loss held associations thick (telecom
 * demo, 2d87766).  Not remembered for dup reports: the copies' own dups
 * say nothing about the original.
 */
void sctp_thin_core_repaired(struct sctp_thin_core *c, u32 tsn)
{
	int i = sctp_thin_recent(c, tsn);

	c->pkts_lost++;
	if (c->win_lost < c->win_sent)
		c->win_lost++;
	if (i >= 0) {
		c->recent_valid &= ~BIT(i);
		return;
	}
	sctp_thin_gone_count(c, tsn);
}

/* Make room for one more slot: compact if there are dead slots, else
 * double the ring.  False if the ring is at the cap or memory is short.
 */
static bool sctp_thin_room(struct sctp_thin_core *c, gfp_t gfp)
{
	struct sctp_thin_pkt *ring;
	u32 i, n = 0, size;

	if (c->used < c->size)
		return true;
	if (c->used > c->in_flight + c->stock) {
		size = c->size;
		ring = c->ring;
	} else {
		size = c->size ? c->size * 2 : SCTP_THIN_MIN_SLOTS;
		if (size > SCTP_THIN_MAX_SLOTS)
			return false;
		ring = c->mem->alloc(size * sizeof(*ring), gfp);
		if (!ring)
			return false;
	}
	/* Copy the live slots in order to the front.  In place this is
	 * safe: slot n is never ahead of slot i once unwrapped, so copy
	 * through a ring-relative index.
	 */
	for (i = 0; i < c->used; i++) {
		struct sctp_thin_pkt *p = sctp_thin_slot(c, i);

		if (p->state == SCTP_THIN_PKT_DEAD)
			continue;
		if (ring == c->ring)
			*sctp_thin_slot(c, n) = *p;
		else
			ring[n] = *p;
		n++;
	}
	if (ring != c->ring) {
		c->mem->free(c->ring);
		c->ring = ring;
		c->head = 0;
	}
	c->size = size;
	c->used = n;
	return c->used < c->size;
}

/* 5.1: a packet carrying DATA, new or retransmitted, was sent. */
void sctp_thin_core_sent(struct sctp_thin_core *c, u32 highest_tsn,
			 unsigned long now, const void *transport, gfp_t gfp)
{
	struct sctp_thin_pkt *p;
	bool rtx = false;
	u32 i;

	if (!c->highest_valid ||
	    sctp_thin_before(c->highest_sent, highest_tsn)) {
		c->highest_sent = highest_tsn;
		c->highest_valid = true;
	} else {
		rtx = true;	/* Karn (RFC 9260 6.3.1 C5): no RTT sample */
		/* A retransmission supersedes the earlier packets with the
		 * same highest TSN: the sender has given up on them.  New
		 * data never takes this path, so sends stay O(1) amortized.
		 */
		for (i = 0; i < c->used; i++) {
			p = sctp_thin_slot(c, i);
			if (p->state != SCTP_THIN_PKT_LIVE ||
			    p->tsn != highest_tsn)
				continue;
			sctp_thin_kill(c, p);
			sctp_thin_gone(c, p->tsn);
		}
		sctp_thin_pop_dead(c);	/* a packet follows: no shrink */
	}
	c->pkts_sent++;
	/* Decaying window: when it exceeds SCTP_THIN_LOSS_WINDOW packets,
	 * both counts halve, so old losses fade with a half-life of about
	 * that many packets.  floor(l / 2) <= floor(s / 2) keeps l <= s.
	 */
	if (++c->win_sent > SCTP_THIN_LOSS_WINDOW) {
		c->win_sent /= 2;
		c->win_lost /= 2;
	}
	/* The guard's window is shorter: it must act within seconds. */
	if (++c->guard_sent > SCTP_THIN_GUARD_WINDOW) {
		c->guard_sent /= 2;
		c->guard_gone /= 2;
	}
	if (c->saturated)
		return;
	if (!sctp_thin_room(c, gfp)) {
		c->saturated = true;	/* thick by definition (5.1 cap) */
		return;
	}
	p = sctp_thin_slot(c, c->used++);
	p->tsn = highest_tsn;
	p->sent = now;
	p->sent_us = c->now_us;
	p->rtx = rtx;
	p->transport = transport;
	p->misses = 0;
	p->state = SCTP_THIN_PKT_LIVE;
	c->in_flight++;
}

/* The slot of @transport in one of the per-SACK path arrays (@paths,
 * @n of them used), added if new; -1 when all SCTP_THIN_ACKED_PATHS
 * are taken by other paths, which sets @all (the SACK's report then
 * covers every path).
 */
static int sctp_thin_path_slot(const void **paths, u8 *n, bool *all,
			       const void *transport)
{
	unsigned int i;

	for (i = 0; i < *n; i++)
		if (paths[i] == transport)
			return i;
	if (*n == SCTP_THIN_ACKED_PATHS) {
		*all = true;
		return -1;
	}
	paths[(*n)++] = transport;
	return i;
}

/* A SACK newly acked a packet sent on @transport: progress on that path
 * (RFC 9260 8.2 clears its error counter).  The caller learns which paths
 * progressed from sctp_thin_core_acked_path().
 */
static void sctp_thin_note_acked(struct sctp_thin_core *c,
				 const struct sctp_thin_pkt *p)
{
	int i = sctp_thin_path_slot(c->acked, &c->n_acked, &c->acked_all,
				    p->transport);

	if (i < 0)
		return;
	/* RFC 8985 6.2 step 2: the newest first transmission acked on the
	 * path (send order; Karn, RFC 9260 6.3.1 C5, as the RTT sample).
	 */
	if (!p->rtx) {
		c->acked_us[i] = p->sent_us;
		c->acked_us_ok |= BIT(i);
	}
}

/* Did the last SACK ack a packet sent on @transport?  True for every path
 * when the list could not tell: more paths than it tracks, or a saturated
 * list that drained.  A saturated list that has not drained answers only
 * for recorded packets; sctp_thin_runs_end() treats that case itself.
 */
bool sctp_thin_core_acked_path(const struct sctp_thin_core *c,
			       const void *transport)
{
	unsigned int i;

	if (c->acked_all)
		return true;
	for (i = 0; i < c->n_acked; i++)
		if (c->acked[i] == transport)
			return true;
	return false;
}

/* A SACK newly acked a packet that an early T3-rtx expiry gave up
 * (SCTP_THIN_PKT_STOCK): stock still had it in flight on @p's path.
 */
static void sctp_thin_note_stock(struct sctp_thin_core *c,
				 const struct sctp_thin_pkt *p)
{
	u8 n = c->n_stock;
	int i = sctp_thin_path_slot(c->stock_tp, &c->n_stock, &c->stock_all,
				    p->transport);

	if (i < 0)
		return;
	if (i == n || (long)(p->sent - c->stock_old[i]) < 0)
		c->stock_old[i] = p->sent;
	if (i == n || (long)(p->sent - c->stock_new[i]) > 0)
		c->stock_new[i] = p->sent;
}

/* Did the last SACK ack a packet that an early T3-rtx expiry gave up on
 * @transport (sctp_thin_core_timeout())?  SCTP_THIN_STOCK_TIMED with
 * the send times of the oldest and newest it acked there, or
 * SCTP_THIN_STOCK_ACKED where the list cannot tell (more paths than it
 * tracks): as if it had, without times.
 */
int sctp_thin_core_stock_acked(const struct sctp_thin_core *c,
			       const void *transport, unsigned long *oldest,
			       unsigned long *newest)
{
	unsigned int i;

	for (i = 0; i < c->n_stock; i++) {
		if (c->stock_tp[i] != transport)
			continue;
		*oldest = c->stock_old[i];
		*newest = c->stock_new[i];
		return SCTP_THIN_STOCK_TIMED;
	}
	return c->stock_all ? SCTP_THIN_STOCK_ACKED : SCTP_THIN_STOCK_NONE;
}

static bool sctp_thin_acked(u32 tsn, u32 cum, const struct sctp_thin_gap *gaps,
			    unsigned int ngaps)
{
	unsigned int i;

	if (!sctp_thin_before(cum, tsn))
		return true;
	for (i = 0; i < ngaps; i++) {
		/* RFC 9260 3.3.4: blocks cover cum + start .. cum + end.
		 * A block with start 0 or start > end is malformed: ignored.
		 */
		if (!gaps[i].start || gaps[i].start > gaps[i].end)
			continue;
		if (!sctp_thin_before(tsn, cum + gaps[i].start) &&
		    !sctp_thin_before(cum + gaps[i].end, tsn))
			return true;
	}
	return false;
}

/* 5.1 and RFC 9260 7.2.4: acked packets leave the list; every live
 * packet older (in TSN) than the highest TSN newly acknowledged by this
 * SACK gets a miss indication, and the third one declares it lost.  A
 * SACK that acks nothing new (a duplicate, or one overtaken by a later
 * SACK) gives no indication.
 */
unsigned int sctp_thin_core_sack(struct sctp_thin_core *c, u32 cum_tsn,
				 const struct sctp_thin_gap *gaps,
				 unsigned int ngaps)
{
	unsigned int i, lost = 0;
	bool have = false;
	u32 htna = 0;

	c->n_acked = 0;
	c->acked_all = false;
	c->acked_us_ok = 0;
	c->rtt_us = 0;
	c->n_stock = 0;
	c->stock_all = false;
	if (!c->highest_valid)
		return 0;
	for (i = 0; i < c->used; i++) {
		struct sctp_thin_pkt *p = sctp_thin_slot(c, i);

		if (p->state == SCTP_THIN_PKT_DEAD ||
		    !sctp_thin_acked(p->tsn, cum_tsn, gaps, ngaps))
			continue;
		if (p->state == SCTP_THIN_PKT_STOCK) {
			p->state = SCTP_THIN_PKT_DEAD;
			c->stock--;
			sctp_thin_note_stock(c, p);
			continue;
		}
		sctp_thin_kill(c, p);
		sctp_thin_note_acked(c, p);
		/* The RTT sample: the newest packet newly acked that was
		 * a first transmission (RFC 9260 6.3.1 C5), in µs.
		 */
		if (!p->rtx) {
			c->rtt_us = c->now_us - p->sent_us ? : 1;
			c->rtt_tp = p->transport;
		}
		if (!have || sctp_thin_before(htna, p->tsn))
			htna = p->tsn;
		have = true;
	}
	for (i = 0; have && i < c->used; i++) {
		struct sctp_thin_pkt *p = sctp_thin_slot(c, i);

		if (p->state != SCTP_THIN_PKT_LIVE ||
		    !sctp_thin_before(p->tsn, htna))
			continue;
		if (++p->misses < SCTP_THIN_PTTFR)
			continue;
		sctp_thin_kill(c, p);
		sctp_thin_gone(c, p->tsn);
		c->pkts_lost++;
		if (c->win_lost < c->win_sent)
			c->win_lost++;
		lost++;
	}
	sctp_thin_pop(c);
	/* Every TSN from now on is above the mark: forget it, so that it
	 * never ages past the serial-number horizon.
	 */
	if (c->gone_marked && !sctp_thin_before(cum_tsn, c->gone_mark))
		c->gone_marked = false;

	/* Everything ever sent is acked (or the peer acks beyond it):
	 * nothing is in flight, so an overflowed list is exact again.
	 */
	if (!sctp_thin_before(cum_tsn, c->highest_sent)) {
		if (c->saturated)
			c->acked_all = true;	/* unrecorded packets acked */
		c->used = 0;
		sctp_thin_shrink(c);
		c->in_flight = 0;
		c->stock = 0;
		c->saturated = false;
	}
	return lost;
}

/* Also read without the socket lock (statistics readers): each field
 * once, so the divisor tested is the divisor used.
 */
u32 sctp_thin_core_lossrate(const struct sctp_thin_core *c)
{
	u32 lost = READ_ONCE(c->win_lost), sent = READ_ONCE(c->win_sent);

	if (!lost || !sent)
		return 0;
	return (u32)(((u64)lost * SCTP_THIN_ONE) / sent);
}

/* Congestion guard (our addition; paper 7.4 leaves the case open: many
 * thin streams that together congest a bottleneck, where the mechanisms
 * take more than their share).  Thin streams recover by timeout or early
 * fast retransmit before three indications, so the paper's loss estimate
 * stays low under congestion; the share of packets given up does not.
 * Above c->guard the association is not thin (stock behaviour, with its
 * exponential backoff, RFC 9260 6.3.3 E2, and RFC 8961 4); it is thin
 * again once the share falls below 3/4 of c->guard.  Not before
 * SCTP_THIN_GUARD_MIN packets: a few early losses say little.
 */
static bool sctp_thin_congested(struct sctp_thin_core *c)
{
	u64 gone = (u64)c->guard_gone * SCTP_THIN_ONE;
	u64 limit = (u64)c->guard * c->guard_sent;

	if (!c->guard || c->pkts_sent < SCTP_THIN_GUARD_MIN)
		c->congested = false;
	else if (c->congested)
		c->congested = gone * 4 > limit * 3;
	else
		c->congested = gone > limit;
	return c->congested;
}

/* 5.1, Fig. 3: thin while in_flight < (pttfr + 1) / (1 - lossrate).
 * Multiplied out, in integers: in_flight * (1 - lr) < (pttfr + 1).  The
 * loss rate is clamped to 3/4, so the threshold is at most 16 packets and
 * never divides by zero.  Without loss estimation it is pttfr + 1.
 *
 * Refinement of 5.1 (ours): the test applies only while the sender is
 * application-limited (@app_limited: nothing is queued that cwnd or the
 * peer's window holds back, retransmissions included).  The paper's
 * premise is that few packets are in flight because the application
 * sends little; a bulk flow whose cwnd collapsed to one MTU after a T3-rtx
 * expiry also has few packets in flight, but because the network holds
 * it back, and it must keep stock's backoff exactly there (RFC 9260
 * 6.3.3 E2, 7.2.3; measured: 14-18 % of iperf3 samples looked thin).
 */
bool sctp_thin_core_update(struct sctp_thin_core *c, bool loss_est,
			   bool app_limited)
{
	u32 lr = loss_est ? sctp_thin_core_lossrate(c) : 0;
	bool congested = sctp_thin_congested(c);	/* always judged */
	bool thin;

	if (lr > SCTP_THIN_LOSS_MAX)
		lr = SCTP_THIN_LOSS_MAX;
	thin = app_limited && !congested && !c->saturated &&
	       (u64)c->in_flight * (SCTP_THIN_ONE - lr) <
	       (u64)(SCTP_THIN_PTTFR + 1) * SCTP_THIN_ONE;
	if (thin != c->thin)
		c->transitions++;
	c->thin = thin;
	return thin;
}

/* The oldest packet in flight on @transport, NULL if none; *@count (if
 * not NULL) gets the number of packets in flight on that path.
 */
const struct sctp_thin_pkt *
sctp_thin_core_oldest(const struct sctp_thin_core *c, const void *transport,
		      u32 *count)
{
	const struct sctp_thin_pkt *oldest = NULL;
	u32 i, n = 0;

	for (i = 0; i < c->used; i++) {
		const struct sctp_thin_pkt *p = sctp_thin_slot(c, i);

		if (p->state != SCTP_THIN_PKT_LIVE || p->transport != transport)
			continue;
		if (!oldest)
			oldest = p;
		n++;
		if (!count)
			break;
	}
	if (count)
		*count = n;
	return oldest;
}

/* Forget every packet and every TSN: the sender's outqueue was purged
 * (peer restart, RFC 9260 5.2.4; TSN reset, RFC 6525 5.2.4; association
 * end), so nothing is in flight and the next TSN need not follow the last
 * one.  The loss estimate and the lifetime counters stay: they describe
 * the path, not the TSN space.
 */
void sctp_thin_core_purge(struct sctp_thin_core *c)
{
	c->used = 0;
	sctp_thin_shrink(c);
	c->in_flight = 0;
	c->stock = 0;
	c->highest_valid = false;
	c->saturated = false;
	c->gone_marked = false;
	c->recent_valid = 0;
	c->n_acked = 0;
	c->acked_all = false;
	c->acked_us_ok = 0;
	c->n_stock = 0;
	c->stock_all = false;
}

/* Start recording on an association whose packets up to TSN
 * @highest_sent were sent unrecorded (a mechanism switched on later).  If
 * any are @outstanding, their count is unknown: thick until the
 * cumulative ack reaches @highest_sent.
 */
void sctp_thin_core_resync(struct sctp_thin_core *c, u32 highest_sent,
			   bool outstanding)
{
	sctp_thin_core_purge(c);
	c->highest_sent = highest_sent;
	c->highest_valid = true;
	c->saturated = outstanding;
}

/* The packets sent on a path are no longer in flight: the path was
 * removed.  (A T3-rtx expiry is sctp_thin_core_timeout().)
 */
void sctp_thin_core_purge_transport(struct sctp_thin_core *c,
				    const void *transport)
{
	u32 i;

	for (i = 0; i < c->used; i++) {
		struct sctp_thin_pkt *p = sctp_thin_slot(c, i);

		if (p->transport != transport)
			continue;
		if (p->state == SCTP_THIN_PKT_LIVE) {
			sctp_thin_kill(c, p);
		} else if (p->state == SCTP_THIN_PKT_STOCK) {
			p->state = SCTP_THIN_PKT_DEAD;
			c->stock--;
		}
	}
	sctp_thin_pop(c);
}

/* RFC 9260 6.3.3 E3: the T3-rtx timer of the path expired; its packets
 * leave the in-flight list, and the congestion guard counts each as given
 * up: E3 retransmits them all.  Where the timeout was spurious or only
 * the oldest packet was lost, the others arrive twice and the peer's dup
 * reports take their counts back (sctp_thin_core_dup()).  Counting only
 * the oldest made the guard too weak under overload (results: fairness);
 * counting all without the dup reports made 5 % random loss at 20
 * packets per second look like congestion (results: interval sweep).
 *
 * @early: the expiry came before stock's (thin_timer.c, a deferred
 * strike): stock still has the packets in flight on the path.  They stay
 * in the list as SCTP_THIN_PKT_STOCK until acked, when the SACK reports
 * them (sctp_thin_core_stock_acked()): stock's error counter of the path
 * is cleared then (RFC 9260 8.2), and its T3-rtx restarted (6.3.2 R3),
 * wherever our copies went.  An expiry that is not early is stock's own:
 * stock gave the packets up too, earlier early ones included.
 */
void sctp_thin_core_timeout(struct sctp_thin_core *c, const void *transport,
			    bool early)
{
	u32 i;

	for (i = 0; i < c->used; i++) {
		struct sctp_thin_pkt *p = sctp_thin_slot(c, i);

		if (p->transport != transport)
			continue;
		if (p->state == SCTP_THIN_PKT_STOCK && !early) {
			p->state = SCTP_THIN_PKT_DEAD;
			c->stock--;
			continue;
		}
		if (p->state != SCTP_THIN_PKT_LIVE)
			continue;
		sctp_thin_kill(c, p);
		sctp_thin_gone(c, p->tsn);
		if (early) {
			p->state = SCTP_THIN_PKT_STOCK;
			c->stock++;
		}
	}
	sctp_thin_pop(c);
}

/* RDB.  The history of the last SCTP_THIN_RDB_HISTORY DATA packets (their
 * highest TSN and path) bounds a bundle to the data of the last
 * thin_rdb_max_packets packets on the path, as tcp_rdb_max_packets does.
 */
void sctp_thin_rdb_reset(struct sctp_thin_rdb *r)
{
	memset(r->hist_tp, 0, sizeof(r->hist_tp));
	r->hist_next = 0;
	r->hist_used = 0;
	memset(r->track, 0, sizeof(r->track));
}

void sctp_thin_rdb_note(struct sctp_thin_rdb *r, u32 highest_tsn,
			const void *transport)
{
	r->hist_tsn[r->hist_next] = highest_tsn;
	r->hist_tp[r->hist_next] = transport;
	r->hist_next = (r->hist_next + 1) % SCTP_THIN_RDB_HISTORY;
	if (r->hist_used < SCTP_THIN_RDB_HISTORY)
		r->hist_used++;
}

/* The path is gone: its packets no longer bound anything, and its copies
 * get no verdict (their transport pointer must not be handed out).
 */
void sctp_thin_rdb_forget(struct sctp_thin_rdb *r, const void *transport)
{
	unsigned int i;

	for (i = 0; i < SCTP_THIN_RDB_HISTORY; i++)
		if (r->hist_tp[i] == transport)
			r->hist_tp[i] = NULL;
	for (i = 0; i < SCTP_THIN_RDB_TRACK; i++)
		if (r->track[i].valid && r->track[i].transport == transport)
			r->track[i].valid = false;
}

/* Which of the @n candidates go in front of a packet on @transport whose
 * lowest new TSN is @first_new and whose AUTH key is @key (NULL: none).
 * The caller passes the DATA chunks outstanding on that path, in any
 * order, with those the peer gap-acked (acked) and those abandoned (gone,
 * PR-SCTP) marked: never bundled; nor is a chunk queued under another key
 * than the packet's (RFC 4895 6.2: one key authenticates the packet, and
 * the active key may have changed since the chunk was queued; the test of
 * sctp_packet_will_fit()).  Bundled: of the others, those below
 * @first_new sent in the last @max_packets packets on the path (above the
 * highest TSN of the packet before them; with a shorter history, all),
 * oldest first (they waited longest), while their total fits in @room
 * bytes; the first that does not fit ends the bundle, so what goes is a
 * run of TSNs without holes among the candidates.  Sorts @cand by TSN and
 * sets pick; returns the count and their bytes in *@bytes.  O(n^2) on at
 * most SCTP_THIN_RDB_SCAN candidates.
 */
unsigned int sctp_thin_rdb_choose(const struct sctp_thin_rdb *r,
				  struct sctp_thin_rdb_cand *cand,
				  unsigned int n, const void *transport,
				  const void *key, u32 first_new,
				  u32 max_packets, u32 room, u32 *bytes)
{
	u32 floor = 0, seen = 0, total = 0;
	bool has_floor = false;
	unsigned int i, j, k = 0;

	for (i = 0; i < r->hist_used; i++) {
		j = (r->hist_next + SCTP_THIN_RDB_HISTORY - 1 - i) %
		    SCTP_THIN_RDB_HISTORY;
		if (r->hist_tp[j] != transport)
			continue;
		if (seen++ == max_packets) {
			floor = r->hist_tsn[j];
			has_floor = true;
			break;
		}
	}
	for (i = 1; i < n; i++) {
		struct sctp_thin_rdb_cand t = cand[i];

		for (j = i; j > 0 && sctp_thin_before(t.tsn, cand[j - 1].tsn); j--)
			cand[j] = cand[j - 1];
		cand[j] = t;
	}
	for (i = 0; i < n; i++)
		cand[i].pick = false;
	for (i = 0; i < n; i++) {
		if (cand[i].key != key || cand[i].acked || cand[i].gone ||
		    !sctp_thin_before(cand[i].tsn, first_new) ||
		    (has_floor && !sctp_thin_before(floor, cand[i].tsn)))
			continue;
		if (cand[i].len > room - total)
			break;
		cand[i].pick = true;
		total += cand[i].len;
		k++;
	}
	*bytes = total;
	return k;
}

/* A copy of @tsn left in the packet whose highest TSN is @carrier. */
void sctp_thin_rdb_bundled(struct sctp_thin_rdb *r, u32 tsn, u32 carrier,
			   const void *transport)
{
	struct sctp_thin_rdb_track *t, *free = NULL;
	unsigned int i;

	for (i = 0; i < SCTP_THIN_RDB_TRACK; i++) {
		t = &r->track[i];
		if (!t->valid) {
			if (!free)
				free = t;
			continue;
		}
		if (t->tsn != tsn)
			continue;
		if (t->copies < SCTP_THIN_RDB_SAT)
			t->copies++;
		t->carrier = carrier;
		t->transport = transport;
		return;
	}
	if (!free) {
		r->untracked++;
		return;
	}
	free->tsn = tsn;
	free->first = carrier;
	free->carrier = carrier;
	free->transport = transport;
	free->copies = 1;
	free->dups = 0;
	free->valid = true;
}

/* Is any TSN in @lo .. @hi acked by this SACK? */
static bool sctp_thin_range_acked(u32 lo, u32 hi, u32 cum,
				  const struct sctp_thin_gap *gaps,
				  unsigned int ngaps)
{
	unsigned int i;

	if (!sctp_thin_before(cum, lo))
		return true;
	for (i = 0; i < ngaps; i++) {
		if (!gaps[i].start || gaps[i].start > gaps[i].end)
			continue;
		if (!sctp_thin_before(hi, cum + gaps[i].start) &&
		    !sctp_thin_before(cum + gaps[i].end, lo))
			return true;
	}
	return false;
}

/* The verdict on bundled TSNs (ours; TCP RDB infers it from ACK timing).
 * A SACK is the receiver's state when it was sent.  If it acks a bundled
 * TSN but no TSN from the first packet carrying a copy to the last (each
 * carrier's highest TSN is new data in that range, acked once the
 * carrier is in), no copy had arrived: the original (or a
 * retransmission of it) did, and there is no loss to count.  Otherwise,
 * a stock receiver reports each DATA chunk it already had as a duplicate
 * TSN (RFC 9260 6.2, 3.3.4): if the original arrived, every copy is a
 * duplicate; if it was lost, the first copy to arrive is not.  So once
 * the TSN and the last carrier are both acked (every copy that arrived
 * has been seen), fewer dup reports than copies means a copy repaired a
 * loss.  A lost dup report or a lost carrier counts as a loss too, when
 * no earlier SACK showed the original in: never fewer losses than there
 * were.  (One exception, documented: a receiver out of window that drops
 * a carrier's new TSN yet takes its copy makes the copy look like the
 * original; a thin stream does not fill the window.)  Returns the number
 * repaired; @out gets each (room for SCTP_THIN_RDB_TRACK).
 */
unsigned int sctp_thin_rdb_sack(struct sctp_thin_rdb *r, u32 cum_tsn,
				const struct sctp_thin_gap *gaps,
				unsigned int ngaps, const u32 *dups,
				unsigned int ndups,
				struct sctp_thin_rdb_track *out)
{
	unsigned int i, j, k = 0;

	for (i = 0; i < ndups; i++)
		for (j = 0; j < SCTP_THIN_RDB_TRACK; j++) {
			struct sctp_thin_rdb_track *t = &r->track[j];

			if (t->valid && t->tsn == dups[i] && t->dups < SCTP_THIN_RDB_SAT)
				t->dups++;
		}
	for (j = 0; j < SCTP_THIN_RDB_TRACK; j++) {
		struct sctp_thin_rdb_track *t = &r->track[j];

		if (!t->valid || !sctp_thin_acked(t->tsn, cum_tsn, gaps, ngaps))
			continue;
		if (!sctp_thin_range_acked(t->first, t->carrier, cum_tsn, gaps,
					   ngaps)) {
			t->valid = false;	/* in before any copy */
			continue;
		}
		if (!sctp_thin_acked(t->carrier, cum_tsn, gaps, ngaps))
			continue;
		t->valid = false;
		if (t->dups >= t->copies)
			continue;
		r->repaired++;
		out[k++] = *t;
	}
	return k;
}

/* RDB's standing-queue gate (ours; TCP RDB has none).  A copy roughly
 * doubles the bytes of a small message, so thin streams that fill more
 * than half of a link overload it with RDB alone: measured, 50 streams of
 * 100 bytes every 100 ms (0.59 Mbit/s with headers, 1.06 with copies) on
 * 1 Mbit/s kept a queue standing, lost 12 % of their packets (under the
 * congestion guard's 20 %) and their p99 went to 1.4 s.  The signal is
 * the path's smoothed RTT (RFC 9260 6.3.1) against its base, the lowest
 * SRTT of the last one to two windows of @window: a queue of more than a
 * quarter of the base RTT (and more than @slack) closes the gate, and it
 * opens again once the queue is under an eighth of the base (or under
 * @slack / 2).  A quarter, not more: a short buffer overflows before the
 * RTT grows much (there, 50 ms of queue on a 100 ms path; a gate at half
 * the base still lost 5 % and a p99 of 591 ms).  Random loss does not
 * raise the RTT and leaves RDB on; a copy that repaired a loss makes its
 * RTT sample longer by an interval, which the smoothing absorbs.  A
 * window older than two (no samples meanwhile, e.g. RDB was off) is
 * forgotten.  @now, @window, @slack and @srtt are in one unit (jiffies).
 * Returns whether the gate is closed.
 */
bool sctp_thin_rdb_gate_rtt(struct sctp_thin_rdb_gate *g, u32 srtt, u32 now,
			    u32 window, u32 slack)
{
	u32 base, q;

	if (!srtt)
		srtt = 1;
	if (!g->min_cur || now - g->win_start >= window) {
		g->min_prev = now - g->win_start < 2 * window ? g->min_cur : 0;
		g->min_cur = srtt;
		g->win_start = now;
	} else if (srtt < g->min_cur) {
		g->min_cur = srtt;
	}
	base = g->min_cur;
	if (g->min_prev && g->min_prev < base)
		base = g->min_prev;
	q = srtt - base;
	if (!g->closed)
		g->closed = q > base / 4 && q > slack;
	else
		g->closed = q > base / 8 && q > slack / 2;
	return g->closed;
}

/* The caller's clock, in µs, for the calls that follow: the send time of
 * each packet recorded and the RTT samples of SACKs.  A u32 wraps every
 * 71 minutes; only differences are taken.
 */
void sctp_thin_core_clock(struct sctp_thin_core *c, u32 now_us)
{
	c->now_us = now_us;
}

/* The caller's clock starts at @now_us (a mechanism that reads it was
 * switched on) and did not run while the packets now in flight were
 * sent: their send times are not known.  None gives an RTT sample, as a
 * retransmission gives none (Karn, RFC 9260 6.3.1 C5), and for the
 * time-based loss rule each counts as sent now, the latest it can have
 * been sent: never judged lost earlier than its true send time allows.
 */
void sctp_thin_core_untimed(struct sctp_thin_core *c, u32 now_us)
{
	u32 i;

	c->now_us = now_us;
	for (i = 0; i < c->used; i++) {
		struct sctp_thin_pkt *p = sctp_thin_slot(c, i);

		p->rtx = true;
		p->sent_us = now_us;
	}
}

/* The newest packet in flight, NULL if none. */
const struct sctp_thin_pkt *
sctp_thin_core_newest(const struct sctp_thin_core *c)
{
	u32 i;

	for (i = c->used; i > 0; i--) {
		const struct sctp_thin_pkt *p = sctp_thin_slot(c, i - 1);

		if (p->state == SCTP_THIN_PKT_LIVE)
			return p;
	}
	return NULL;
}

/* Tail probe (RFC 8985 section 7, TLP), the pure parts; thin_probe.c has
 * the timer and the packet.  The design and where it deviates from RFC
 * 8985: docs/design-tail-probe.md.
 *
 * The smoothed RTT of a path in µs, RFC 6298 2.3 (RFC 9260 6.3.1 C3)
 * without RTTVAR: upstream's SRTT counts jiffies (4 ms at HZ 250), too
 * coarse for a PTO of 2 * SRTT at an RTT of a few ms.  The RTO keeps
 * upstream's SRTT.  Samples above SCTP_THIN_RTT_MAX_US are clamped.
 */
#define SCTP_THIN_RTT_MAX_US	60000000U	/* RTO.Max default, 60 s */

void sctp_thin_rtt_sample(struct sctp_thin_rtt *r, u32 rtt_us)
{
	if (!rtt_us)
		return;
	if (rtt_us > SCTP_THIN_RTT_MAX_US)
		rtt_us = SCTP_THIN_RTT_MAX_US;
	if (!r->srtt_us)
		r->srtt_us = rtt_us;
	else
		r->srtt_us = r->srtt_us - (r->srtt_us >> 3) + (rtt_us >> 3);
	if (!r->srtt_us)
		r->srtt_us = 1;
}

/* RFC 8985 7.2: PTO = 2 * SRTT, plus the peer's SACK delay (RFC 9260 6.2,
 * 200 ms) where the receiver may delay its SACK: the probed packet lacked
 * the I-bit, or the peer seems to ignore it (sctp_thin_probe_delack()).
 * Deviation: TCP adds its delayed-ACK allowance only with one segment in
 * flight; a thin flight is 1-3 packets, and a receiver that acks every
 * second packet may delay the tail's SACK whatever came before.
 */
u32 sctp_thin_pto_us(u32 srtt_us, bool delack)
{
	if (srtt_us > SCTP_THIN_RTT_MAX_US)
		srtt_us = SCTP_THIN_RTT_MAX_US;
	return 2 * srtt_us + (delack ? SCTP_THIN_PROBE_DELACK_US : 0);
}

/* Does the PTO of a probe for a packet with (@ibit) or without the I-bit
 * need the SACK-delay allowance?  A peer that seems to ignore the I-bit
 * (distrust, sctp_thin_probe_score()) gets it too, but for one probe in
 * SCTP_THIN_PROBE_RETRY, so that its score can recover.
 */
bool sctp_thin_probe_delack(struct sctp_thin_probe *p, bool ibit)
{
	if (!ibit)
		return true;
	return p->distrust && p->retry != SCTP_THIN_PROBE_RETRY - 1;
}

/* A probe copying @tsn left while TSNs up to @end_tsn were sent
 * (TLP.end_seq); @delack: its PTO had the allowance.
 */
void sctp_thin_probe_open(struct sctp_thin_probe *p, u32 tsn, u32 end_tsn,
			  bool delack)
{
	p->open = true;
	p->clean = true;
	p->dup = false;
	p->acked = false;
	p->tsn = tsn;
	p->end_tsn = end_tsn;
	p->delack = delack;
	if (p->distrust)
		p->retry = (p->retry + 1) % SCTP_THIN_PROBE_RETRY;
}

/* The episode ends without a verdict: T3-rtx expired (RTO recovery takes
 * over, RFC 8985 7.2.3), the outqueue was purged, the path removed.
 */
void sctp_thin_probe_close(struct sctp_thin_probe *p)
{
	p->open = false;
}

/* @tsn left again (a retransmission, an RDB copy): a dup report of it no
 * longer shows that the original had arrived.
 */
void sctp_thin_probe_resent(struct sctp_thin_probe *p, u32 tsn)
{
	if (p->open && p->tsn == tsn)
		p->clean = false;
}

/* Is a dup report of @tsn the open probe's own (the original had
 * arrived)?  Then it is not a spurious retransmission for the RTO
 * (sctp_thin_spurious()): the probe left after 2 * SRTT, not an RTO.
 */
bool sctp_thin_probe_dup(const struct sctp_thin_probe *p, u32 tsn)
{
	return p->open && p->clean && p->tsn == tsn;
}

/* I-bit score (ours): in a decaying window of SCTP_THIN_PROBE_SCORE_WINDOW
 * probes sent without the allowance, 2 or more spurious and at least a
 * quarter: the peer seems to ignore the I-bit (its SACK came after
 * 2 * SRTT while the original had arrived: RFC 3708 3.2).  Trusted again
 * under an eighth.
 */
static int sctp_thin_probe_verdict(struct sctp_thin_probe *p, int v)
{
	p->open = false;
	if (p->delack || v == SCTP_THIN_PROBE_NONE)
		return v;
	p->win_probes++;
	if (v == SCTP_THIN_PROBE_SPURIOUS)
		p->win_spurious++;
	if (p->win_probes > SCTP_THIN_PROBE_SCORE_WINDOW) {
		p->win_probes /= 2;
		p->win_spurious /= 2;
	}
	if (!p->distrust)
		p->distrust = p->win_spurious >= 2 &&
			      p->win_spurious * 4 >= p->win_probes;
	else
		p->distrust = p->win_spurious * 8 >= p->win_probes;
	return v;
}

/* Is a TSN above @end acked by this SACK? */
static bool sctp_thin_above_acked(u32 end, u32 cum,
				  const struct sctp_thin_gap *gaps,
				  unsigned int ngaps)
{
	unsigned int i;

	if (sctp_thin_before(end, cum))
		return true;
	for (i = 0; i < ngaps; i++) {
		if (!gaps[i].start || gaps[i].start > gaps[i].end)
			continue;
		if (sctp_thin_before(end, cum + gaps[i].end))
			return true;
	}
	return false;
}

/* RFC 8985 7.4, the verdict on a probe, from each SACK.  Spurious: a dup
 * report of the copied TSN, sent exactly twice (RFC 9260 6.2: the
 * receiver reports a DATA chunk it got twice), so the original had
 * arrived.  Repaired (7.4.2): a TSN above end_tsn is acked (data sent
 * after the probe, as Linux TCP's after(ack, tlp_high_seq)), the copied
 * TSN is acked and no dup report of it came: the probe was the copy that
 * arrived.  If it was sent again meanwhile, a dup proves nothing and it
 * counts as repaired: never fewer losses than there were.  If the copied
 * TSN is still missing, the probe was lost too: no verdict, fast
 * retransmit or T3-rtx repairs it with their own response.
 */
int sctp_thin_probe_sack(struct sctp_thin_probe *p, u32 cum_tsn,
			 const struct sctp_thin_gap *gaps, unsigned int ngaps,
			 const u32 *dups, unsigned int ndups)
{
	unsigned int i;

	if (!p->open)
		return SCTP_THIN_PROBE_NONE;
	for (i = 0; i < ndups; i++)
		if (dups[i] == p->tsn)
			p->dup = true;
	if (sctp_thin_acked(p->tsn, cum_tsn, gaps, ngaps))
		p->acked = true;
	if (p->dup && p->clean)
		return sctp_thin_probe_verdict(p, SCTP_THIN_PROBE_SPURIOUS);
	if (!sctp_thin_above_acked(p->end_tsn, cum_tsn, gaps, ngaps))
		return SCTP_THIN_PROBE_NONE;
	return sctp_thin_probe_verdict(p, p->acked ? SCTP_THIN_PROBE_REPAIRED :
					  SCTP_THIN_PROBE_NONE);
}

/* New DATA leaves while an episode is open.  If the copied TSN was acked
 * without a dup report, decide now (repaired), so that the new tail can
 * have its own probe.  If it is not acked yet, the episode stays open:
 * the probe's SACK may be on its way, and its verdict comes with the ack
 * of the new DATA (7.4); meanwhile the new tail gets no probe (7.3, one
 * probe outstanding), as Linux TCP's tlp_high_seq.  Deviation from the
 * design (1.7), measured: closing here lost the verdict whenever the
 * next message left before the probe's SACK came back.
 */
int sctp_thin_probe_new_data(struct sctp_thin_probe *p)
{
	if (p->open && p->acked && !(p->dup && p->clean))
		return sctp_thin_probe_verdict(p, SCTP_THIN_PROBE_REPAIRED);
	return SCTP_THIN_PROBE_NONE;
}

/* Time-based loss rule while thin (RFC 8985 section 6, RACK), the pure
 * parts; thin.c gates the first-indication fast retransmit with it.  The
 * design and where it deviates: docs/design-tail-probe.md, section 2.
 *
 * Did the last SACK ack a first transmission sent on @transport?  Then
 * @xmit_us is the send time of the newest one (RACK.xmit_ts candidate).
 */
bool sctp_thin_core_acked_xmit(const struct sctp_thin_core *c,
			       const void *transport, u32 *xmit_us)
{
	unsigned int i;

	for (i = 0; i < c->n_acked; i++) {
		if (c->acked[i] != transport)
			continue;
		if (!(c->acked_us_ok & BIT(i)))
			return false;
		*xmit_us = c->acked_us[i];
		return true;
	}
	return false;
}

/* RFC 8985 6.2 steps 1-2 (RACK_update): a packet sent at @xmit_us on the
 * path was acked at @now_us.  Its RTT feeds the path's minimum RTT (the
 * lowest of the last 10-20 s, two windows as RDB's gate keeps its base
 * RTT); RACK.xmit_ts and RACK.rtt follow the most recently sent packet
 * acked.  Only first transmissions come here (Karn): deviation, RFC 8985
 * also takes a retransmission whose RTT is at least the minimum RTT;
 * without them the rule declares fewer losses, never more.
 */
void sctp_thin_rack_advance(struct sctp_thin_rack *r, u32 xmit_us,
			    u32 now_us)
{
	u32 rtt = now_us - xmit_us ? : 1;

	if (!r->min_us ||
	    now_us - r->win_start_us >= SCTP_THIN_RACK_MIN_WINDOW_US) {
		r->min_prev_us = r->min_us;
		r->min_us = rtt;
		r->win_start_us = now_us;
	} else if (rtt < r->min_us) {
		r->min_us = rtt;
	}
	if (r->valid && !sctp_thin_before(r->xmit_us, xmit_us))
		return;		/* not sent after RACK.xmit_ts */
	r->xmit_us = xmit_us;
	r->rtt_us = rtt;
	r->valid = true;
}

/* RFC 8985 6.2 step 4: reo_wnd = min(reo_wnd_mult * min_RTT / 4, SRTT),
 * as Linux's tcp_rack_reo_wnd().  At RTT 10 ms: 2.5 ms.  Deviation: RFC
 * 8985 uses a window of 0 in loss recovery, or once DupThresh packets
 * were SACKed, unless reordering was seen; a thin flight never has
 * DupThresh packets, and the rule is here to tell reordering from loss
 * in exactly that case, so the window always applies.
 */
u32 sctp_thin_reo_wnd(const struct sctp_thin_reo *o,
		      const struct sctp_thin_rack *r, u32 srtt_us)
{
	u32 min = r->min_us, w;

	if (r->min_prev_us && (!min || r->min_prev_us < min))
		min = r->min_prev_us;
	w = (o->steps + 1) * (min / 4);
	if (srtt_us && w > srtt_us)
		w = srtt_us;
	return w;
}

/* RFC 8985 6.2 step 4 (RACK_update_reo_wnd), on each SACK: a dup report
 * of a TSN we retransmitted (@dsack: RFC 9260 6.2, our D-SACK, RFC 3708
 * 3.2) shows a spurious repair: the window grows by min_RTT / 4, at most
 * once per round trip (until everything sent then, @highest_sent, is
 * acked), and stays grown for SCTP_THIN_REO_PERSIST losses.
 */
void sctp_thin_reo_sack(struct sctp_thin_reo *o, u32 cum_tsn, bool dsack,
			u32 highest_sent)
{
	if (o->round_open && !sctp_thin_before(cum_tsn, o->round_tsn))
		o->round_open = false;
	if (!dsack || o->round_open)
		return;
	o->round_open = true;
	o->round_tsn = highest_sent;
	if (o->steps < SCTP_THIN_REO_STEPS_MAX)
		o->steps++;
	o->persist = SCTP_THIN_REO_PERSIST;
}

/* A loss the rule declared.  RFC 8985 counts loss recoveries down
 * reo_wnd_persist; a thin flight has one loss per recovery, so we count
 * losses.  At 0 the window returns to min_RTT / 4.
 */
void sctp_thin_reo_lost(struct sctp_thin_reo *o)
{
	if (o->persist && !--o->persist)
		o->steps = 0;
}

/* RFC 8985 6.2 step 5 (RACK_detect_loss) for one chunk, TSN @tsn, sent on
 * @transport, that a SACK reported missing (RFC 9260 7.2.4).  Its packet
 * is the live packet on the path with the smallest highest TSN not below
 * @tsn (a later one, if its own was superseded: later, so never lost
 * sooner).  Lost when it was sent before RACK.xmit_ts and
 * sent + RACK.rtt + reo_wnd has passed; at the SACK that acked the
 * RACK packet this is RACK.xmit_ts - sent >= reo_wnd.  Per path
 * (deviation: RFC 8985 knows one path; a packet acked on a faster path
 * says nothing of one on a slower path).  WAIT: *@wait_us left.
 */
int sctp_thin_core_rack(const struct sctp_thin_core *c, u32 tsn,
			const void *transport, const struct sctp_thin_rack *r,
			u32 reo_wnd_us, u32 *wait_us)
{
	const struct sctp_thin_pkt *best = NULL;
	s32 left;
	u32 i;

	for (i = 0; i < c->used; i++) {
		const struct sctp_thin_pkt *p = sctp_thin_slot(c, i);

		if (p->state != SCTP_THIN_PKT_LIVE ||
		    p->transport != transport || sctp_thin_before(p->tsn, tsn))
			continue;
		if (!best || sctp_thin_before(p->tsn, best->tsn))
			best = p;
	}
	if (!best)
		return SCTP_THIN_RACK_UNKNOWN;
	if (!r->valid || !sctp_thin_before(best->sent_us, r->xmit_us))
		return SCTP_THIN_RACK_NOT_LOST;
	left = (s32)(best->sent_us + r->rtt_us + reo_wnd_us - c->now_us);
	if (left > 0) {
		*wait_us = left;
		return SCTP_THIN_RACK_WAIT;
	}
	return SCTP_THIN_RACK_LOST;
}

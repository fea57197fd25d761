// SPDX-License-Identifier: GPL-2.0-or-later
/* thin-sctp: the tail probe while thin (issue 29), after RFC 8985
 * section 7 (TLP); the design, with where and why it deviates, is
 * docs/design-tail-probe.md.
 *
 * A thin stream has one packet or a few in flight; if the last one is
 * lost, no later SACK reports it missing, and the loss waits for T3-rtx
 * or for the next message.  The evidence is there sooner: no SACK a round
 * trip after the send.  So PTO = 2 * SRTT after the last new DATA, if no
 * SACK has come, the newest outstanding chunk on the path leaves again,
 * alone, with the I-bit (RFC 9260 3.3.1), and either repairs the loss or
 * draws a SACK that shows it.
 *
 * This file owns one timer per association (struct sctp_thin_assoc
 * timer), the probe packet and the actions on the core's verdicts; the
 * episode, the verdict, the PTO and the I-bit score are thin_core.c's.
 * What arms, re-arms and stops the timer:
 *
 * - Armed from now (7.2) when a packet with new DATA leaves
 *   (sctp_packet_transmit() -> sctp_thin_packet_sent() ->
 *   sctp_thin_probe_sent()), and when a SACK moves the cumulative ack
 *   while data stays outstanding (sctp_outq_sack() -> sctp_thin_sack() ->
 *   sctp_thin_probe_sacked()).
 * - Stopped when a SACK leaves nothing in flight, T3-rtx expires on any
 *   path (sctp_sf_do_6_3_3_rtx() -> sctp_thin_t3_rtx(); RTO recovery
 *   takes over), the probe's path is removed (sctp_thin_rm_peer()), the
 *   outqueue is purged (sctp_thin_outq_purge()), SCTP_THIN clears the bit
 *   (sctp_thin_assoc_set()) and the association is freed
 *   (sctp_association_free() -> sctp_thin_assoc_free()).
 * - A pending timer holds a reference on the association, as upstream's
 *   association timers do (sctp_generate_t3_rtx_event()).
 *
 * Never less robust than stock: the probe never arms, restarts or moves
 * T3-rtx (RFC 8985 7.3 re-arms the RTO after a probe; SCTP's T3-rtx runs
 * whenever data is outstanding, RFC 9260 6.3.2, so it stays the backstop
 * without that, and re-arming would move it later), counts no error,
 * goes to no alternate path, needs no cwnd room and changes no
 * flight_size: the copy is linked into a packet on the stack, not
 * appended (as RDB's copies, thin_rdb.c).  Only its verdict may lower
 * cwnd: a probe that repaired a loss is a loss (RFC 8985 7.4.2, 9.3).
 */

#include <net/sctp/sctp.h>
#include <net/sctp/sm.h>
#include <net/sctp/auth.h>
#include <net/sctp/thin.h>
#include "thin_glue.h"
#include "thin_trace.h"

/* Delete the timer and drop its reference. */
static void sctp_thin_probe_cancel(struct sctp_association *asoc)
{
	WRITE_ONCE(asoc->thin->pto_armed, false);
	if (timer_delete(&asoc->thin->timer))
		sctp_association_put(asoc);
}

/* Stop: the timer, and the episode without a verdict (T3-rtx expiry,
 * purge, path removal, bit cleared, association freed).
 */
void sctp_thin_probe_stop(struct sctp_association *asoc)
{
	sctp_thin_probe_cancel(asoc);
	sctp_thin_probe_close(&asoc->thin->probe);
}

/* RFC 8985 7.2, and ours: may a PTO run for @tp now?  Thin (so never
 * while the congestion guard holds it thick); one probe per tail (no open
 * episode, 7.3); not in fast or RTO recovery (nothing waits for
 * retransmission); an RTT sample in µs (TCP then waits 1 s: we leave it
 * to T3-rtx); the path ACTIVE (PF and failover belong to heartbeats and
 * T3-rtx); the peer's window open (a zero window is T3-rtx's to probe,
 * RFC 9260 6.1 A); data outstanding on the path, so its T3-rtx runs;
 * DATA without AUTH (RFC 4895: the probe packet carries no AUTH chunk).
 */
static bool sctp_thin_probe_allowed(struct sctp_association *asoc,
				    struct sctp_transport *tp)
{
	struct sctp_thin_assoc *ta = asoc->thin;

	return sctp_thin_on(asoc, SCTP_THIN_TAIL_PROBE) && !ta->probe.open &&
	       list_empty(&asoc->outqueue.retransmit) && !asoc->fast_recovery &&
	       tp->thin.rtt.srtt_us && tp->state == SCTP_ACTIVE &&
	       asoc->peer.rwnd && !list_empty(&tp->transmitted) &&
	       timer_pending(&tp->T3_rtx_timer) &&
	       !sctp_auth_send_cid(SCTP_CID_DATA, asoc);
}

/* Arm (or re-arm) the PTO for @tp from now, or stop it if no probe may
 * run.  1.3 of the design: PTO = 2 * SRTT (+ the SACK delay if the
 * newest chunk lacks the I-bit or the peer seems to ignore it), + 1
 * jiffy: a timer armed for now + k fires between k - 1 and k jiffies
 * later, and must never fire before the PTO.  A PTO not before the
 * path's T3-rtx expiry sends nothing (7.2 clamps it to the RTO instead:
 * a probe at T3's time adds nothing), but that is decided when it fires
 * (sctp_thin_probe_fire()), not here.  Deviation from the design (1.2),
 * measured: a SACK re-arms the PTO before upstream restarts T3-rtx (R3),
 * so the old expiry skipped the probe of every message sent while the
 * one before was still outstanding; a T3-rtx expiry first stops the PTO
 * anyway (sctp_thin_t3_rtx()).
 */
static void sctp_thin_probe_arm(struct sctp_association *asoc,
				struct sctp_transport *tp)
{
	struct sctp_thin_assoc *ta = asoc->thin;
	struct sctp_chunk *last;
	unsigned long expires;
	bool delack;

	if (!sctp_thin_probe_allowed(asoc, tp)) {
		sctp_thin_probe_cancel(asoc);
		return;
	}
	last = list_last_entry(&tp->transmitted, struct sctp_chunk,
			       transmitted_list);
	delack = sctp_thin_probe_delack(&ta->probe, last->chunk_hdr->flags &
					SCTP_DATA_SACK_IMM);
	expires = jiffies + 1 +
		  usecs_to_jiffies(sctp_thin_pto_us(tp->thin.rtt.srtt_us,
						    delack));
	ta->probe_tp = tp;
	ta->probe_delack = delack;
	ta->pto_at = expires;
	WRITE_ONCE(ta->pto_armed, true);
	if (!mod_timer(&ta->timer, expires))
		sctp_association_hold(asoc);
}

/* The verdict on a probe (RFC 8985 7.4; the core decides). */
static void sctp_thin_probe_verdict(struct sctp_association *asoc, int v)
{
	struct sctp_thin_assoc *ta = asoc->thin;
	struct sctp_transport *tp;

	if (v == SCTP_THIN_PROBE_SPURIOUS) {
		/* The original had arrived: no congestion event, and not
		 * the RTO's fault either (sctp_thin_sack_dups() skips
		 * sctp_thin_spurious() for it); the guard's count of the
		 * TSN was taken back by its dup report.
		 */
		ta->probes_spurious++;
		return;
	}
	if (v != SCTP_THIN_PROBE_REPAIRED)
		return;
	/* A loss the probe repaired is a loss (RFC 8985 7.4.2, 9.3; RFC
	 * 9260 7.2.4): the path's cwnd reacts as to a fast retransmit, at
	 * most once per fast recovery (7.2.3), as for RDB's repaired
	 * copies; the loss estimate counts it, the guard once (it counted
	 * the TSN when the probe superseded its original).
	 */
	ta->probes_repaired++;
	sctp_thin_core_repaired(&ta->core, ta->probe.tsn);
	tp = sctp_thin_path(asoc, ta->probe_tp);
	if (tp)
		sctp_transport_lower_cwnd(tp, SCTP_LOWER_CWND_FAST_RTX);
}

/* After a packet with DATA left on @tp (sctp_thin_packet_sent()), not
 * our probe: with new DATA (@fresh), an episode still open is decided
 * and the PTO armed from now.
 */
void sctp_thin_probe_sent(struct sctp_association *asoc,
			  struct sctp_transport *tp, bool fresh)
{
	struct sctp_thin_assoc *ta = asoc->thin;

	if (!fresh)
		return;
	sctp_thin_probe_verdict(asoc, sctp_thin_probe_new_data(&ta->probe));
	if (!(asoc->thin_conf.flags & SCTP_THIN_TAIL_PROBE))
		return;
	sctp_thin_probe_arm(asoc, tp);
}

/* After a SACK (sctp_thin_sack(), at the start of sctp_outq_sack(); the
 * RTT sample is taken before, sctp_thin_clock_sacked()): the verdict,
 * then stop the PTO if nothing is in flight, or
 * re-arm it from now for the path of the newest packet in flight if the
 * cumulative ack moved (@moved, RFC 8985 7.2).
 */
void sctp_thin_probe_sacked(struct sctp_association *asoc, u32 cum_tsn,
			    const struct sctp_thin_gap *gaps,
			    unsigned int ngaps, const u32 *dup,
			    unsigned int ndups, bool moved)
{
	struct sctp_thin_assoc *ta = asoc->thin;
	const struct sctp_thin_pkt *newest;
	struct sctp_transport *tp;

	sctp_thin_probe_verdict(asoc, sctp_thin_probe_sack(&ta->probe, cum_tsn,
							   gaps, ngaps, dup,
							   ndups));
	if (!timer_pending(&ta->timer) && !moved)
		return;
	newest = sctp_thin_core_newest(&ta->core);
	if (!newest && !ta->core.saturated) {
		sctp_thin_probe_cancel(asoc);	/* nothing in flight */
		return;
	}
	if (!moved || !newest)
		return;
	tp = sctp_thin_path(asoc, newest->transport);
	if (tp)
		sctp_thin_probe_arm(asoc, tp);
}

/* The chunk to copy: the highest TSN on @tp's transmitted list (7.3: the
 * most recently sent segment) that the peer has not gap-acked, that is
 * not abandoned (PR-SCTP, RFC 3758), not in a packet being built, and
 * fits the path MTU alone (@room).  Newest first, at most
 * SCTP_THIN_RDB_SCAN: a thin path has few.
 */
static struct sctp_chunk *sctp_thin_probe_chunk(struct sctp_transport *tp,
						u32 room)
{
	struct sctp_chunk *chunk, *best = NULL;
	unsigned int scan = 0;
	u32 tsn, top = 0;

	list_for_each_entry_reverse(chunk, &tp->transmitted, transmitted_list) {
		if (++scan > SCTP_THIN_RDB_SCAN)
			break;
		if (!chunk->has_tsn || chunk->tsn_gap_acked ||
		    !list_empty(&chunk->list) ||
		    SCTP_PAD4(chunk->skb->len) > room ||
		    sctp_thin_rdb_abandoned(chunk))
			continue;
		tsn = ntohl(chunk->subh.data_hdr->tsn);
		if (!best || TSN_lt(top, tsn)) {
			best = chunk;
			top = tsn;
		}
	}
	return best;
}

/* Send the probe: a copy of the newest outstanding chunk, alone, with the
 * I-bit, as sctp_packet_singleton() sends a packet but linked, not
 * appended (thin_rdb.c): flight_size, rwnd, sent_count, sent_at and
 * T3-rtx stay as they are; sctp_packet_pack() copies the chunk's bytes,
 * unlinks it, and never frees DATA.  Karn (RFC 9260 6.3.1 C5): the
 * chunk's RTT measurement stops and none starts on the copy (an ack of
 * the copy taken for the original would be too long by the PTO).  The
 * packet hook records it as a retransmission: the original's slot dies
 * and its TSN counts as given up for the guard, until a dup report takes
 * that back (sctp_thin_core_dup()).
 */
static void sctp_thin_probe_send(struct sctp_association *asoc,
				 struct sctp_transport *tp)
{
	struct sctp_thin_assoc *ta = asoc->thin;
	struct sctp_chunk *chunk;
	struct sctp_packet pkt;
	u8 pending;
	u32 tsn;

	sctp_packet_init(&pkt, tp, asoc->base.bind_addr.port, asoc->peer.port);
	sctp_packet_config(&pkt, asoc->peer.i.init_tag, 0);
	if (!tp->dst || pkt.overhead >= tp->pathmtu)
		return;
	chunk = sctp_thin_probe_chunk(tp, tp->pathmtu - pkt.overhead);
	if (!chunk)
		return;
	tsn = ntohl(chunk->subh.data_hdr->tsn);
	if (chunk->rtt_in_progress) {
		chunk->rtt_in_progress = 0;
		tp->rto_pending = 0;
	}
	pending = tp->rto_pending;
	tp->rto_pending = 1;
	chunk->chunk_hdr->flags |= SCTP_DATA_SACK_IMM;
	list_add_tail(&chunk->list, &pkt.chunk_list);
	pkt.size += SCTP_PAD4(chunk->skb->len);
	pkt.has_data = 1;
	sctp_thin_probe_open(&ta->probe, tsn, asoc->next_tsn - 1,
			     ta->probe_delack);
	ta->probes++;
	/* Traced before the packet hook may trace a transition. */
	trace_sctp_thin_mechanism(asoc, SCTP_THIN_TAIL_PROBE, tsn);
	ta->probing = true;
	sctp_packet_transmit(&pkt, GFP_ATOMIC);
	ta->probing = false;
	tp->rto_pending = pending;
}

/* The PTO expired, socket lock held, not owned by the user: check again
 * what arming checked (the association may have turned thick, T3-rtx
 * may be due), then send.  Not before the PTO last armed: the owner may
 * have armed a later one while the callback waited for the lock.
 */
static void sctp_thin_probe_fire(struct sctp_association *asoc)
{
	struct sctp_thin_assoc *ta = asoc->thin;
	struct sctp_transport *tp;

	if (!ta->pto_armed)
		return;
	if (time_before(jiffies, ta->pto_at)) {
		if (!mod_timer(&ta->timer, ta->pto_at))
			sctp_association_hold(asoc);
		return;
	}
	WRITE_ONCE(ta->pto_armed, false);
	tp = sctp_thin_path(asoc, ta->probe_tp);
	if (!tp || !sctp_thin_probe_allowed(asoc, tp) ||
	    !time_before(jiffies, tp->T3_rtx_timer.expires))
		return;
	sctp_thin_probe_send(asoc, tp);
}

/* The timer callback, as sctp_generate_t3_rtx_event(): a socket owned by
 * the user retries HZ / 20 later, as upstream's timers do, unless the
 * owner has meanwhile re-armed the PTO (its expiry stands) or stopped it;
 * a dead association only drops the reference.  The owner usually holds
 * the socket to send, and new data re-arms the PTO anyway.
 */
static void sctp_thin_timer_fire(struct timer_list *t)
{
	struct sctp_thin_assoc *ta = container_of(t, struct sctp_thin_assoc,
						  timer);
	struct sctp_association *asoc = ta->asoc;
	struct sock *sk = asoc->base.sk;

	bh_lock_sock(sk);
	if (sock_owned_by_user(sk)) {
		if (READ_ONCE(ta->pto_armed) && !timer_pending(&ta->timer) &&
		    !mod_timer(&ta->timer, jiffies + HZ / 20))
			sctp_association_hold(asoc);
		goto out_unlock;
	}
	if (!asoc->base.dead)
		sctp_thin_probe_fire(asoc);
out_unlock:
	bh_unlock_sock(sk);
	sctp_association_put(asoc);
}

/* From sctp_thin_assoc_alloc(): the timer lives as long as the state. */
void sctp_thin_probe_init(struct sctp_thin_assoc *ta,
			  struct sctp_association *asoc)
{
	ta->asoc = asoc;
	timer_setup(&ta->timer, sctp_thin_timer_fire, 0);
}

/* T3-rtx expired on @tp's association (sctp_thin_t3_rtx()): RTO recovery
 * takes over, the episode ends without a verdict (7.2.3 reacts there).
 */
void __sctp_thin_t3_expired(struct sctp_association *asoc)
{
	sctp_thin_probe_stop(asoc);
}

/* sctp_association_free(): the association is dead (base.dead); a
 * callback already running sees that and only drops its reference.
 */
void __sctp_thin_assoc_free(struct sctp_association *asoc)
{
	sctp_thin_probe_stop(asoc);
}

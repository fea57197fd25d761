/* SPDX-License-Identifier: GPL-2.0-or-later */
/* thin-sctp: inline hooks called from upstream net/sctp files.
 *
 * Included at the end of <net/sctp/sctp.h>.  Each hook first tests
 * asoc->thin, which is NULL until a mechanism is used on the association
 * (the packet hook tests the mechanisms' switches instead: it allocates
 * the state on first use), so a stock configuration pays one predictable
 * branch per hook and no bookkeeping at all.
 */

#ifndef __NET_SCTP_THIN_HOOKS_H__
#define __NET_SCTP_THIN_HOOKS_H__

#include <net/sctp/structs.h>
#include <net/sctp/thin.h>

/* Hooks, called from upstream files. */
static inline void sctp_thin_rm_peer(struct sctp_association *asoc,
				     struct sctp_transport *peer)
{
	if (unlikely(asoc->thin))
		__sctp_thin_rm_peer(asoc, peer);
}

static inline void sctp_thin_packet_sent(struct sctp_association *asoc,
					 struct sctp_packet *packet, gfp_t gfp)
{
	if (unlikely(asoc &&
		     (asoc->thin_conf.flags & SCTP_THIN_MECHANISMS)))
		__sctp_thin_packet_sent(asoc, packet, gfp);
}

/* Redundant data bundling: first thing in sctp_packet_transmit(), before
 * the packet's size decides GSO and the head skb is sized.
 */
static inline void sctp_thin_rdb(struct sctp_association *asoc,
				 struct sctp_packet *packet)
{
	if (unlikely(asoc && asoc->thin &&
		     (asoc->thin_conf.flags & SCTP_THIN_RDB)))
		__sctp_thin_rdb(asoc, packet);
}

/* @from: the path the SACK arrived on (chunk->transport). */
static inline void sctp_thin_sack(struct sctp_association *asoc,
				  struct sctp_sackhdr *sack,
				  const struct sctp_transport *from)
{
	if (unlikely(asoc->thin))
		__sctp_thin_sack(asoc, sack, from);
}

/* sctp_sf_eat_sack_6_2() drops @chunk, a SACK, as out of order (RFC 9260
 * 6.2.1 i); the path it arrived on still tells (thin_timer.c).
 */
static inline void sctp_thin_stale_sack(struct sctp_chunk *chunk)
{
	struct sctp_transport *tp = chunk->transport;

	if (unlikely(tp && tp->asoc->thin))
		__sctp_thin_stale_sack(tp);
}

/* 5.2: after lksctp computed the RTO from a new RTT sample. */
static inline void sctp_thin_update_rto(struct sctp_transport *tp, u32 rtt)
{
	if (unlikely(tp->asoc->thin))
		__sctp_thin_update_rto(tp, rtt);
}

/* The T3-rtx timer of tp expired (sctp_sf_do_6_3_3_rtx()): the strike
 * that follows is a T3-rtx strike, not T2, T4 or RE-CONFIG.  False: an
 * expiry stock would not have had yet; it is not counted, and the limits
 * are not checked on it (stock checks them at its own expiry).
 */
static inline bool sctp_thin_t3_rtx(struct sctp_transport *tp)
{
	if (likely(!tp->asoc->thin))
		return true;
	__sctp_thin_t3_expired(tp->asoc);
	return __sctp_thin_t3_rtx(tp);
}

/* Start of sctp_do_8_2_transport_strike().  False: this T3-rtx expiry
 * does not count as an error (stock would not have had it yet), and the
 * path's PF, failure and primary-switch thresholds are not checked on it.
 */
static inline bool sctp_thin_strike(struct sctp_association *asoc,
				    struct sctp_transport *tp, int is_hb)
{
	return likely(!asoc->thin) || __sctp_thin_strike(asoc, tp, is_hb);
}

/* End of sctp_do_8_2_transport_strike(): the RTO after the strike. */
static inline void sctp_thin_strike_done(struct sctp_association *asoc,
					 struct sctp_transport *tp, int is_hb)
{
	if (unlikely(asoc->thin))
		__sctp_thin_strike_done(asoc, tp, is_hb);
}

/* Expiry time for a T3-rtx restart after a SACK; @why: bit 0 R3 (the
 * cumulative ack moved), bit 1 R4 (reneging).
 */
static inline unsigned long sctp_thin_t3_restart(struct sctp_transport *tp,
						 u8 why)
{
	if (unlikely(tp->asoc->thin))
		return __sctp_thin_t3_restart(tp, why);
	return jiffies + tp->rto;
}

/* Expiry for T3-rtx armed now with the path's RTO (RFC 9260 6.3.2 R1):
 * stock's expiry is recorded for failure detection.
 */
static inline unsigned long sctp_thin_t3_arm(struct sctp_transport *tp)
{
	if (unlikely(tp->asoc->thin))
		return __sctp_thin_t3_arm(tp);
	return jiffies + tp->rto;
}

/* The RTO of the path's timers other than T3-rtx: heartbeats (RFC 9260
 * 8.3), T2-shutdown, T4-ASCONF and RE-CONFIG.  Stock's: their expiries
 * count errors, and the thin mechanisms are for DATA.
 */
static inline unsigned long sctp_thin_ctl_rto(const struct sctp_transport *tp)
{
	if (unlikely(tp->asoc && tp->asoc->thin))
		return __sctp_thin_stock_rto(tp);
	return tp->rto;
}

/* sctp_association_free(): the association is dead; the tail probe's
 * timer goes (thin_probe.c).
 */
static inline void sctp_thin_assoc_free(struct sctp_association *asoc)
{
	if (unlikely(asoc->thin))
		__sctp_thin_assoc_free(asoc);
}

/* The outqueue is purged: TSNs may jump. */
static inline void sctp_thin_outq_purge(struct sctp_association *asoc)
{
	if (unlikely(asoc->thin))
		__sctp_thin_outq_purge(asoc);
}

/* 5.4: fast retransmit on the first miss indication while thin. */
static inline bool sctp_thin_early_frtx(struct sctp_association *asoc,
					struct sctp_chunk *chunk)
{
	return unlikely(asoc->thin) && __sctp_thin_early_frtx(asoc, chunk);
}

#endif /* __NET_SCTP_THIN_HOOKS_H__ */

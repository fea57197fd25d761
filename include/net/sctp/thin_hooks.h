/* SPDX-License-Identifier: GPL-2.0-or-later */
/* thin-sctp: inline hooks called from upstream net/sctp files.
 *
 * Included at the end of <net/sctp/sctp.h>.  Each hook first tests
 * asoc->thin, which is NULL unless a mechanism is switched on for the
 * association, so a stock configuration pays one predictable branch per
 * hook and no bookkeeping at all.
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
	if (unlikely(asoc && asoc->thin))
		__sctp_thin_packet_sent(asoc, packet, gfp);
}

static inline void sctp_thin_sack(struct sctp_association *asoc,
				  struct sctp_sackhdr *sack)
{
	if (unlikely(asoc->thin))
		__sctp_thin_sack(asoc, sack);
}

/* 5.2: after lksctp computed the RTO from a new RTT sample. */
static inline void sctp_thin_update_rto(struct sctp_transport *tp)
{
	if (unlikely(tp->asoc->thin))
		__sctp_thin_update_rto(tp);
}

/* T3-rtx expired on tp.  True: 5.3 linear timeout, skip the backoff. */
static inline bool sctp_thin_t3_expired(struct sctp_association *asoc,
					struct sctp_transport *tp)
{
	return unlikely(asoc->thin) && __sctp_thin_t3_expired(asoc, tp);
}

/* Expiry time for a T3-rtx restart after a SACK acked new data. */
static inline unsigned long sctp_thin_t3_restart(struct sctp_transport *tp)
{
	if (unlikely(tp->asoc->thin))
		return __sctp_thin_t3_restart(tp);
	return jiffies + tp->rto;
}

/* 5.4: fast retransmit on the first miss indication while thin. */
static inline bool sctp_thin_early_frtx(struct sctp_association *asoc,
					struct sctp_chunk *chunk)
{
	return unlikely(asoc->thin) && __sctp_thin_early_frtx(asoc, chunk);
}

#endif /* __NET_SCTP_THIN_HOOKS_H__ */

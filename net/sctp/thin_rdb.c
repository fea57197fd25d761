// SPDX-License-Identifier: GPL-2.0-or-later
/* thin-sctp: redundant data bundling (RDB), beyond the paper; the design
 * is in the comment before sctp_thin_rdb_abandoned().
 *
 * This file finds the chunks a copy may be made of and puts the copies
 * into the packet; which copies to bundle, the verdict on each and the
 * queue gate are thin_core.c's (sctp_thin_rdb_choose(),
 * sctp_thin_rdb_sack(), sctp_thin_rdb_gate_rtt()).  Called from:
 *
 * - sctp_packet_transmit(), first thing, before the packet's size decides
 *   GSO: sctp_thin_rdb() bundles copies in front of new DATA while thin.
 * - sctp_outq_sack() -> sctp_thin_sack() (thin.c) ->
 *   sctp_thin_rdb_verdicts(): a loss a copy repaired is still a loss.
 *
 * What RDB learns elsewhere: the packets sent (sctp_thin_rdb_note(),
 * thin.c) and the RTT samples of its queue gate (thin_timer.c).
 */

#include <net/sctp/sctp.h>
#include <net/sctp/sm.h>
#include <net/sctp/thin.h>
#include "thin_glue.h"
#include "thin_trace.h"

/* Redundant data bundling (RDB), beyond the paper: its section 7 proposes
 * "an even more aggressive variation" of SCTP's bundling, and Opstad et
 * al. built it for TCP (tcp_rdb, tcp_rdb_max_bytes, tcp_rdb_max_packets;
 * never merged).  A lost message otherwise waits at least for the next
 * SACK or a timer; a copy riding on the next packet arrives with it.
 *
 * While thin, a packet that carries new DATA (first transmissions) also
 * carries copies of DATA chunks outstanding on its path, in front of its
 * own DATA (after AUTH and any other control chunk, RFC 9260 6.10) and in
 * TSN order; sctp_thin_rdb_choose() picks them.  Never bundled: chunks
 * the peer gap-acked, abandoned ones (PR-SCTP, RFC 3758), chunks of
 * another path, chunks waiting for retransmission (they are not on the
 * path's transmitted list), and nothing into a packet that is a PLPMTUD
 * probe, may be fragmented, or is already past the path MTU (GSO).  The
 * packet stays within the path MTU.
 *
 * A copy is the chunk itself linked into the packet a second time:
 * sctp_packet_pack() copies its bytes and unlinks it, and leaves DATA
 * chunks alone otherwise.  Its sent_count and sent_at stay (a copy is not
 * a retransmission for PR-SCTP's limit nor for T3-rtx).
 *
 * RTT (RFC 9260 6.3.1 C5, Karn's rule; we deviate).  A chunk that is
 * timing an RTT keeps timing it when a copy of it leaves: the sample is
 * taken from the original's send time, so it is exact if the original
 * arrived and too long by at most the copy's delay (thin_rdb_max_packets
 * sending intervals) if a copy repaired it.  It is never too short, which
 * is what Karn's rule guards against (an ack of the original taken for
 * one of a later transmission).  Stopping the measurement instead, as
 * for a retransmission, starves the RTO of samples whenever messages are
 * sent faster than the RTT: every timed chunk is copied before its SACK
 * comes back.  Measured: 14 samples in 60 s of 10 associations at 50 ms
 * intervals, the RTO stayed at RTO.Initial (3 s), and a message lost
 * three times waited 3 s for T3-rtx where stock waits 1 s.  If no chunk
 * is timing, the first of the packet's own chunks that stock would pick
 * starts, before sctp_packet_pack() could pick a copy (whose send time
 * is an interval old).
 *
 * The receiver's dup report of a copy is expected: a dup of that TSN no
 * longer shows a spurious retransmission (sctp_thin_core_resent()).
 */
bool sctp_thin_rdb_abandoned(const struct sctp_chunk *chunk)
{
	const struct sctp_association *asoc = chunk->asoc;
	__u16 flags = chunk->sinfo.sinfo_flags;

	/* sctp_chunk_abandoned() without its side effects. */
	if (chunk->msg->abandoned)
		return true;
	if (!asoc->peer.prsctp_capable)
		return false;
	if (SCTP_PR_TTL_ENABLED(flags) ||
	    (!SCTP_PR_POLICY(flags) && chunk->msg->expires_at))
		return time_after(jiffies, chunk->msg->expires_at);
	return SCTP_PR_RTX_ENABLED(flags) &&
	       chunk->sent_count > chunk->sinfo.sinfo_timetolive;
}

/* The packet's first DATA chunk @first, its highest TSN @top and its
 * lowest new TSN @lo (the caller zeroes them).  False if the packet
 * carries no new DATA or is a PLPMTUD probe.
 */
static bool sctp_thin_rdb_new_data(struct sctp_packet *packet,
				   struct sctp_chunk **first, u32 *top,
				   u32 *lo)
{
	struct sctp_chunk *chunk;
	bool have_new = false;

	list_for_each_entry(chunk, &packet->chunk_list, list) {
		u32 tsn;

		if (chunk->pmtu_probe)
			return false;
		if (!sctp_chunk_is_data(chunk) || !chunk->has_tsn)
			continue;
		tsn = ntohl(chunk->subh.data_hdr->tsn);
		if (!*first || TSN_lt(*top, tsn))
			*top = tsn;
		if (!*first)
			*first = chunk;
		/* sent_count includes this transmission (output.c) */
		if (chunk->sent_count == 1 && (!have_new || TSN_lt(tsn, *lo))) {
			*lo = tsn;
			have_new = true;
		}
	}
	return have_new;
}

/* The candidates for copies, into @cand: their number.  Newest first, at
 * most SCTP_THIN_RDB_SCAN: the transmitted list is short while thin (few
 * packets in flight), and a bundle takes from the last
 * thin_rdb_max_packets packets only.
 */
static unsigned int sctp_thin_rdb_gather(struct sctp_packet *packet,
					 struct sctp_thin_rdb_cand *cand)
{
	struct sctp_transport *tp = packet->transport;
	unsigned int n = 0, scan = 0;
	struct sctp_chunk *chunk;
	struct list_head *pos;

	list_for_each_prev(pos, &tp->transmitted) {
		chunk = list_entry(pos, struct sctp_chunk, transmitted_list);
		if (++scan > SCTP_THIN_RDB_SCAN || n == SCTP_THIN_RDB_SCAN)
			break;
		if (!list_empty(&chunk->list) || !chunk->has_tsn)
			continue;	/* in this packet */
		cand[n].tsn = ntohl(chunk->subh.data_hdr->tsn);
		cand[n].len = SCTP_PAD4(chunk->skb->len);
		cand[n].chunk = chunk;
		cand[n].key = chunk->shkey;	/* RFC 4895 6.2: the core */
		cand[n].acked = chunk->tsn_gap_acked;
		cand[n].gone = sctp_thin_rdb_abandoned(chunk);
		n++;
	}
	return n;
}

/* The scratch arrays only once RDB is used; without them, no copy.  The
 * candidates of a packet, and the verdicts of a SACK (SCTP_THIN_RDB_TRACK
 * of them, 512 bytes, off the SACK path's stack), in one allocation.
 */
static struct sctp_thin_rdb_cand *
sctp_thin_rdb_scratch(struct sctp_thin_assoc *ta)
{
	if (unlikely(!ta->rdb_cand)) {
		ta->rdb_cand = sctp_thin_alloc(SCTP_THIN_RDB_SCAN *
					       sizeof(*ta->rdb_cand) +
					       SCTP_THIN_RDB_TRACK *
					       sizeof(*ta->rdb_out),
					       GFP_ATOMIC);
		if (ta->rdb_cand)
			ta->rdb_out = (void *)(ta->rdb_cand +
					       SCTP_THIN_RDB_SCAN);
	}
	return ta->rdb_cand;
}

void __sctp_thin_rdb(struct sctp_association *asoc, struct sctp_packet *packet)
{
	struct sctp_transport *tp = packet->transport;
	struct sctp_thin_rdb_cand *cand;
	struct sctp_thin_assoc *ta = asoc->thin;
	struct sctp_chunk *chunk, *first = NULL;
	u32 lo = 0, top = 0, room, bytes, max;
	unsigned int n, i, k;

	if (!sctp_thin_on(asoc, SCTP_THIN_RDB) || !packet->has_data ||
	    packet->ipfragok || packet->size >= tp->pathmtu)
		return;
	/* The tail probe's packet carries no copies (thin_probe.c). */
	if (ta->probing)
		return;
	if (!sctp_thin_rdb_new_data(packet, &first, &top, &lo))
		return;		/* no new DATA: a retransmission */
	if (tp->thin.rdb_gate.closed) {
		ta->rdb.gated++;	/* a queue stands: sctp_thin_rdb_gate_rtt() */
		return;
	}
	cand = sctp_thin_rdb_scratch(ta);
	if (!cand)
		return;
	room = tp->pathmtu - packet->size;
	max = asoc->thin_conf.rdb_max_bytes;
	if (max && max < room)
		room = max;
	n = sctp_thin_rdb_gather(packet, cand);
	k = sctp_thin_rdb_choose(&ta->rdb, cand, n, tp,
				 packet->auth ? packet->auth->shkey : NULL, lo,
				 asoc->thin_conf.rdb_max_packets, room, &bytes);
	if (!k)
		return;
	/* RTT: a copy that is timing goes on (above); else the packet's own
	 * first new chunk starts, as stock's sctp_packet_pack() picks it.
	 */
	if (!tp->rto_pending) {
		list_for_each_entry(chunk, &packet->chunk_list, list) {
			if (sctp_chunk_is_data(chunk) &&
			    !sctp_chunk_retransmitted(chunk)) {
				chunk->rtt_in_progress = 1;
				tp->rto_pending = 1;
				break;
			}
		}
	}
	for (i = 0; i < n; i++) {
		if (!cand[i].pick)
			continue;
		chunk = cand[i].chunk;
		list_add_tail(&chunk->list, &first->list);	/* before it */
		sctp_thin_core_resent(&ta->core, cand[i].tsn);
		sctp_thin_rdb_bundled(&ta->rdb, cand[i].tsn, top, tp);
	}
	packet->size += bytes;
	ta->rdb.chunks += k;
	ta->rdb.bytes += bytes;
	trace_sctp_thin_mechanism(asoc, SCTP_THIN_RDB, k);
}

/* After a SACK (sctp_thin_sack()): the verdicts on bundled copies. */
void sctp_thin_rdb_verdicts(struct sctp_association *asoc, u32 cum_tsn,
			    const struct sctp_thin_gap *gaps, unsigned int ngaps,
			    const u32 *dup, unsigned int ndups)
{
	struct sctp_thin_assoc *ta = asoc->thin;
	struct sctp_thin_rdb_track *repaired = ta->rdb_out;
	struct sctp_transport *tp;
	unsigned int i, n;

	/* RDB: a loss a copy repaired is still a loss.  As TCP RDB enters
	 * CWR, the path's cwnd reacts as to a fast retransmit (RFC 9260
	 * 7.2.4, 7.2.3: once per fast recovery), and the loss counts for
	 * the estimate and the congestion guard.  Called only once a copy
	 * was bundled (ta->rdb.chunks), so after the scratch was allocated.
	 */
	if (unlikely(!repaired))
		return;
	n = sctp_thin_rdb_sack(&ta->rdb, cum_tsn, gaps, ngaps, dup, ndups,
			       repaired);
	for (i = 0; i < n; i++) {
		sctp_thin_core_repaired(&ta->core, repaired[i].tsn);
		sctp_thin_inc_stats(sock_net(asoc->base.sk), SCTP_MIB_THIN_RDB_REPAIRED);
		list_for_each_entry(tp, &asoc->peer.transport_addr_list,
				    transports)
			if (tp == repaired[i].transport)
				sctp_transport_lower_cwnd(tp,
							  SCTP_LOWER_CWND_FAST_RTX);
	}
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* thin-sctp: retransmission latency mechanisms for thin streams.
 *
 * Petlund et al., "Improving SCTP retransmission delays for
 * time-dependent thin streams", Multimedia Tools and Applications, 2009.
 * Section numbers refer to that paper unless an RFC is named.
 *
 * The glue between lksctp and the core logic of thin_core.c is five
 * files, each opening with what it owns and which hooks call it:
 *   thin.c        life cycle and the entry points of the packet and SACK
 *                 hooks (this file);
 *   thin_timer.c  the RTO and T3-rtx: RTOmin, T3 restart, linear
 *                 timeouts, failure detection on stock's clock;
 *   thin_rdb.c    redundant data bundling;
 *   thin_probe.c  the tail probe (RFC 8985 section 7) and its timer;
 *   thin_ctl.c    sysctls, socket options, /proc/net/sctp/thin.
 * The hooks are inline in <net/sctp/thin_hooks.h>: while an association
 * has no state (asoc->thin NULL) they return there without calling in.
 *
 * This file owns the association state (struct sctp_thin_assoc): its
 * allocation on first use (counted in thin_objects), its resynchronisation
 * when TSNs jump, and the thin/thick decision (5.1, sctp_thin_update()).
 * Called from (upstream caller: hook):
 *
 * - sctp_init(), sctp_exit(): sctp_thin_init(), sctp_thin_exit(); the
 *   per-netns state they register is thin_ctl.c's.
 * - sctp_association_init(): sctp_thin_assoc_init(), settings only.
 * - sctp_association_destroy(): sctp_thin_assoc_destroy().
 * - sctp_assoc_rm_peer(): sctp_thin_rm_peer(), the path's packets leave
 *   the list.
 * - sctp_packet_transmit(), before the chunks are packed:
 *   sctp_thin_packet_sent() records each DATA packet (5.1; the first one
 *   allocates the state) and sets the I-bit while thin (RFC 7053).
 * - sctp_outq_sack(): sctp_thin_sack(), acks, gap reports and dups (5.1);
 *   then the timeout runs (thin_timer.c) and RDB's verdicts (thin_rdb.c).
 * - __sctp_outq_teardown(): sctp_thin_outq_purge(), TSNs may jump.
 * - sctp_mark_missing(): sctp_thin_early_frtx(), fast retransmit on the
 *   first miss indication while thin (5.4), gated by the time-based loss
 *   rule with SCTP_THIN_RACK (RFC 8985 6.2, sctp_thin_rack_allows()).
 * - SCTP_THIN (thin_ctl.c): sctp_thin_assoc_set(), a live association's
 *   settings.
 *
 * Locking: every hook runs under the socket lock of the association (or
 * in softirq context with the socket owned-check done by lksctp), as the
 * rest of the outqueue code does.  /proc readers take no lock and read
 * counters only, like /proc/net/sctp/assocs.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <net/sctp/sctp.h>
#include <net/sctp/sm.h>
#include <net/sctp/thin.h>
#include "thin_glue.h"

#define CREATE_TRACE_POINTS
#include "thin_trace.h"

MODULE_VERSION("thin-sctp-" SCTP_THIN_VERSION);

/* Live objects allocated by thin-sctp (association state and packet
 * rings).  It must be 0 once every association is gone: tests read it
 * from /sys/module/sctp/parameters/thin_objects, and unloading with a
 * non-zero count logs "thin-sctp: leak".
 */
static atomic_t sctp_thin_objects = ATOMIC_INIT(0);

static int sctp_thin_objects_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&sctp_thin_objects));
}

static const struct kernel_param_ops sctp_thin_objects_ops = {
	.get = sctp_thin_objects_get,
};

module_param_cb(thin_objects, &sctp_thin_objects_ops, NULL, 0444);
MODULE_PARM_DESC(thin_objects, "live thin-sctp objects (0 when idle)");

void *sctp_thin_alloc(size_t size, gfp_t gfp)
{
	void *p = kmalloc(size, gfp | __GFP_NOWARN);

	if (p)
		atomic_inc(&sctp_thin_objects);
	return p;
}

static void sctp_thin_free(void *p)
{
	if (!p)
		return;
	atomic_dec(&sctp_thin_objects);
	kfree(p);
}

/* The core's packet rings come from here too (sctp_thin_core_init()). */
static const struct sctp_thin_mem sctp_thin_mem = {
	.alloc = sctp_thin_alloc,
	.free = sctp_thin_free,
};

/* (Re)start recording: packets up to TSN @highest were sent unrecorded,
 * so if any is @outstanding their count is unknown: thick until the
 * cumulative ack reaches them all.
 */
static void sctp_thin_resync(struct sctp_association *asoc,
			     struct sctp_thin_assoc *ta, u32 highest,
			     bool outstanding)
{
	sctp_thin_core_resync(&ta->core, highest, outstanding);
	ta->lt_run = 0;
	ta->held = false;
	sctp_thin_rdb_reset(&ta->rdb);
	sctp_thin_paths_reset(asoc);
}

/* Everything sent so far: the next TSN's predecessor, outstanding if
 * anything waits for an ack.
 */
static void sctp_thin_resync_now(struct sctp_association *asoc,
				 struct sctp_thin_assoc *ta)
{
	sctp_thin_resync(asoc, ta, asoc->next_tsn - 1,
			 asoc->outqueue.outstanding_bytes ||
			 !list_empty(&asoc->outqueue.retransmit));
}

static struct sctp_thin_assoc *
sctp_thin_assoc_alloc(struct sctp_association *asoc, gfp_t gfp)
{
	struct sctp_thin_assoc *ta;

	ta = sctp_thin_alloc(sizeof(*ta), gfp);
	if (!ta)
		return NULL;
	memset(ta, 0, sizeof(*ta));
	sctp_thin_core_init(&ta->core, &sctp_thin_mem);
	sctp_thin_probe_init(ta, asoc);
	return ta;
}

/* Association state is allocated on first use: the first DATA packet
 * sent while a mechanism is on (__sctp_thin_first_data()), or SCTP_THIN
 * switching one on for a live association.  An INIT to a listener makes
 * a temporary association (sctp_make_temp_asoc()) that never sends DATA,
 * so it costs nothing.  A failed allocation leaves asoc->thin NULL and
 * takes the mechanisms off the association: it behaves exactly like
 * stock lksctp, and SCTP_THIN says so.
 */
void sctp_thin_assoc_init(struct sctp_association *asoc,
			  const struct sock *sk, gfp_t gfp)
{
	asoc->thin_conf = sctp_sk(sk)->thin_conf;
	asoc->thin = NULL;
}

void sctp_thin_assoc_destroy(struct sctp_association *asoc)
{
	struct sctp_thin_assoc *ta = asoc->thin;

	if (!ta)
		return;
	/* A pending tail-probe timer holds a reference (thin_probe.c). */
	WARN_ON_ONCE(timer_pending(&ta->timer));
	WRITE_ONCE(asoc->thin, NULL);
	sctp_thin_core_destroy(&ta->core);
	sctp_thin_free(ta->rdb_cand);
	sctp_thin_free(ta);
}

/* The first DATA packet with a mechanism on, @lo its lowest TSN: nothing
 * was recorded before it.  Earlier TSNs not yet acked make it thick until
 * they are.
 */
static bool sctp_thin_first_packet(struct sctp_association *asoc, u32 lo,
				   gfp_t gfp)
{
	struct sctp_thin_assoc *ta = sctp_thin_assoc_alloc(asoc, gfp);

	if (!ta) {
		asoc->thin_conf.flags &= ~SCTP_THIN_MECHANISMS;
		return false;
	}
	sctp_thin_resync(asoc, ta, lo - 1,
			 TSN_lt(asoc->ctsn_ack_point, lo - 1));
	/* Initialised first: /proc reads it without the socket lock. */
	smp_store_release(&asoc->thin, ta);
	return true;
}

/* Settings changed from @was: a µs clock that starts (the tail probe or
 * the time-based loss rule switched on, sctp_thin_clock_on()) did not
 * time the packets in flight, nor keep the paths' µs SRTT and RACK
 * state current: no sample from those packets, and each path waits for
 * a fresh one (the probe arms only with an SRTT; the time rule without
 * RACK.xmit_ts keeps the first-indication rule).  The time rule switched
 * on alone starts its own state afresh.
 */
static void sctp_thin_clock_start(struct sctp_association *asoc, u32 was)
{
	const u32 clk = SCTP_THIN_TAIL_PROBE | SCTP_THIN_RACK;
	u32 now = asoc->thin_conf.flags;
	struct sctp_thin_assoc *ta = asoc->thin;
	bool clock = !(was & clk) && (now & clk);
	struct sctp_transport *tp;

	if (!clock && ((was & SCTP_THIN_RACK) || !(now & SCTP_THIN_RACK)))
		return;
	if (clock)
		sctp_thin_core_untimed(&ta->core, sctp_thin_now_us());
	list_for_each_entry(tp, &asoc->peer.transport_addr_list, transports) {
		if (clock)
			tp->thin.rtt.srtt_us = 0;
		memset(&tp->thin.rack, 0, sizeof(tp->thin.rack));
	}
	memset(&ta->reo, 0, sizeof(ta->reo));
}

/* Apply new settings to a live association.  Switching every mechanism
 * off drops the packet list (no bookkeeping is left on the packet path)
 * and gives every path stock's RTO back, but keeps the counters for
 * SCTP_THIN_INFO.
 */
int sctp_thin_assoc_set(struct sctp_association *asoc,
			const struct sctp_thin_conf *conf)
{
	struct sctp_thin_assoc *ta = asoc->thin;
	u32 was = asoc->thin_conf.flags;
	bool was_on = was & SCTP_THIN_MECHANISMS;

	if (ta && !(conf->flags & SCTP_THIN_TAIL_PROBE))
		sctp_thin_probe_stop(asoc);
	if (conf->flags & SCTP_THIN_MECHANISMS) {
		/* Off -> on: nothing was recorded meanwhile, and the TSNs
		 * moved on: resynchronise (thick till drained).
		 */
		if (!ta) {
			ta = sctp_thin_assoc_alloc(asoc, GFP_KERNEL);
			if (!ta)
				return -ENOMEM;	/* settings unchanged */
			sctp_thin_resync_now(asoc, ta);
			/* Initialised first: /proc reads it unlocked. */
			smp_store_release(&asoc->thin, ta);
		} else if (!was_on) {
			sctp_thin_resync_now(asoc, ta);
		}
		asoc->thin_conf = *conf;
		sctp_thin_clock_start(asoc, was);
		return 0;
	}
	asoc->thin_conf = *conf;
	if (ta) {
		u64 sent = ta->core.pkts_sent, lost = ta->core.pkts_lost;
		u32 transitions = ta->core.transitions;

		sctp_thin_core_destroy(&ta->core);
		sctp_thin_core_init(&ta->core, &sctp_thin_mem);
		ta->core.pkts_sent = sent;
		ta->core.pkts_lost = lost;
		ta->core.transitions = transitions;
		ta->core.thin = false;
		sctp_thin_rdb_reset(&ta->rdb);
		sctp_thin_paths_reset(asoc);
	}
	return 0;
}

/* Thin means application-limited (see sctp_thin_core_update()): nothing
 * waits for retransmission, and the data queued, if any, is not held back
 * by the peer's window or by the cwnd of the path it goes to.  Data that
 * fits both waits only for Nagle or for the flush in progress.
 */
static bool sctp_thin_new_data_held(const struct sctp_association *asoc)
{
	const struct sctp_transport *tp = asoc->peer.active_path;
	const struct sctp_outq *q = &asoc->outqueue;

	if (list_empty(&q->out_chunk_list))
		return false;
	if (q->out_qlen > asoc->peer.rwnd)
		return true;
	return !tp || tp->flight_size + q->out_qlen > tp->cwnd;
}

/* 5.1: the loss estimate raises the threshold of packets in flight. */
static bool sctp_thin_loss_estimation(const struct sctp_association *asoc)
{
	return asoc->thin_conf.flags & SCTP_THIN_LOSS_ESTIMATION;
}

/* Hysteresis: once its new data was held back, a sender stays not
 * application-limited until everything it sent is acked
 * (__sctp_thin_sack()).  A bulk sender whose application briefly falls
 * behind (measured: one RFC 7765 correction in a 2000-message transfer
 * in a busy guest) keeps packets in flight and stays bulk; a thin stream
 * drains between its messages.  Retransmissions waiting count only while
 * they wait: at 32 % loss a thin stream has some often.
 */
void sctp_thin_update(struct sctp_association *asoc,
		      struct sctp_thin_assoc *ta)
{
	bool was = ta->core.thin;
	bool now;

	if (sctp_thin_new_data_held(asoc))
		ta->held = true;
	ta->core.guard = asoc->thin_conf.flags & SCTP_THIN_CONGESTION_GUARD ?
			 asoc->thin_conf.guard : 0;
	now = sctp_thin_core_update(&ta->core, sctp_thin_loss_estimation(asoc),
				    !ta->held &&
				    list_empty(&asoc->outqueue.retransmit));
	if (now != was) {
		sctp_thin_inc_stats(sock_net(asoc->base.sk), SCTP_MIB_THIN_TRANSITIONS);
		trace_sctp_thin_transition(asoc, &ta->core);
	}
}

void __sctp_thin_rm_peer(struct sctp_association *asoc,
			 struct sctp_transport *peer)
{
	if (asoc->thin->probe_tp == peer) {
		sctp_thin_probe_stop(asoc);
		asoc->thin->probe_tp = NULL;
	}
	sctp_thin_core_purge_transport(&asoc->thin->core, peer);
	sctp_thin_rdb_forget(&asoc->thin->rdb, peer);
	sctp_thin_update(asoc, asoc->thin);
}

/* RFC 7053 (SACK-IMMEDIATELY), beyond the paper: a receiver delays its
 * SACK by up to 200 ms (RFC 9260 6.2, Linux net.sctp.sack_timeout), so
 * every RTT sample of a thin stream carries that delay, its RTO stays far
 * above the thin RTOmin, and a miss indication waits for it too.  While
 * thin, ask for an immediate SACK: the I-bit on the last DATA (or I-DATA,
 * RFC 8260) chunk of a packet when nothing else waits to be sent, new or
 * retransmitted (RFC 7053 4.1: the sender knows no more data follows
 * soon).  A receiver that ignores the bit is no worse off.  As upstream's
 * SHUTDOWN-PENDING bit (sctp_outq_flush_data()), it stays on the chunk: a
 * retransmission of it asks again, even if the association is thick then.
 * A packet sent because it is full, while the flush has more, is not
 * marked unless that was the last chunk taken from the queue.
 */
static void sctp_thin_sack_immediately(struct sctp_association *asoc,
				       struct sctp_packet *packet)
{
	struct sctp_chunk *chunk, *last = NULL;

	if (!sctp_thin_on(asoc, SCTP_THIN_SACK_IMMEDIATELY) ||
	    !list_empty(&asoc->outqueue.out_chunk_list) ||
	    !list_empty(&asoc->outqueue.retransmit))
		return;
	list_for_each_entry(chunk, &packet->chunk_list, list)
		if (sctp_chunk_is_data(chunk) && chunk->has_tsn)
			last = chunk;
	if (!last)
		return;
	last->chunk_hdr->flags |= SCTP_DATA_SACK_IMM;
	asoc->thin->sack_immediately++;
	trace_sctp_thin_mechanism(asoc, SCTP_THIN_SACK_IMMEDIATELY,
				  ntohl(last->subh.data_hdr->tsn));
}

/* 5.1: record the highest TSN of every packet that carries DATA.  A GSO
 * packet (larger than the path MTU) leaves as several wire packets, each
 * of which can be lost alone: record each as a packet.  The segments are
 * cut as sctp_packet_pack() cuts them: chunks in order, a new segment when
 * the next chunk would pass the path MTU.
 */
static u32 sctp_thin_packet_lo(const struct sctp_packet *packet, bool *have)
{
	const struct sctp_chunk *chunk;
	u32 tsn, lo = 0;

	*have = false;
	list_for_each_entry(chunk, &packet->chunk_list, list) {
		if (!sctp_chunk_is_data(chunk) || !chunk->has_tsn)
			continue;
		tsn = ntohl(chunk->subh.data_hdr->tsn);
		if (!*have || TSN_lt(tsn, lo))
			lo = tsn;
		*have = true;
	}
	return lo;
}

void __sctp_thin_packet_sent(struct sctp_association *asoc,
			     struct sctp_packet *packet, gfp_t gfp)
{
	u32 mtu = packet->transport->pathmtu, size, tsn, top = 0;
	struct sctp_thin_assoc *ta = asoc->thin;
	unsigned long now = jiffies;
	struct sctp_chunk *chunk;
	bool have = false;
	bool fresh;
	u32 prev;

	if (!packet->has_data)
		return;
	if (unlikely(!ta)) {
		tsn = sctp_thin_packet_lo(packet, &have);
		if (!have || !sctp_thin_first_packet(asoc, tsn, gfp))
			return;
		ta = asoc->thin;
		have = false;
	}
	if (sctp_thin_clock_on(asoc))
		sctp_thin_core_clock(&ta->core, sctp_thin_now_us());
	/* New DATA aboard: a TSN above the highest sent before. */
	prev = ta->core.highest_sent;
	fresh = !ta->core.highest_valid;
	size = packet->overhead;
	list_for_each_entry(chunk, &packet->chunk_list, list) {
		u32 len = SCTP_PAD4(chunk->skb->len);

		if (size + len > mtu && size > packet->overhead) {
			if (have)
				sctp_thin_core_sent(&ta->core, top, now,
						    packet->transport, gfp);
			have = false;
			size = packet->overhead;
		}
		size += len;
		if (!sctp_chunk_is_data(chunk) || !chunk->has_tsn)
			continue;
		tsn = ntohl(chunk->subh.data_hdr->tsn);
		/* sent_count includes this transmission (output.c) */
		if (chunk->sent_count > 2)
			sctp_thin_core_resent(&ta->core, tsn);
		if (sctp_thin_probe_live(asoc) && !ta->probing)
			sctp_thin_probe_resent(&ta->probe, tsn);
		fresh |= TSN_lt(prev, tsn);
		if (!have || TSN_lt(top, tsn))
			top = tsn;
		have = true;
	}
	if (have) {
		sctp_thin_core_sent(&ta->core, top, now, packet->transport, gfp);
		sctp_thin_rdb_note(&ta->rdb, top, packet->transport);
	}
	sctp_thin_update(asoc, ta);
	sctp_thin_sack_immediately(asoc, packet);
	if (sctp_thin_probe_live(asoc) && !ta->probing)
		sctp_thin_probe_sent(asoc, packet->transport, fresh);
}

/* The peer's duplicate TSN reports of one SACK (RFC 3708 3.2), at most
 * SCTP_THIN_MAX_DUPS of them.
 */
struct sctp_thin_dups {
	u32 tsn[SCTP_THIN_MAX_DUPS];
	unsigned int n;
	bool dsack;	/* a dup of a TSN we retransmitted, not the probe's */
};

/* A SACK without dup reports. */
static const struct sctp_thin_dups sctp_thin_no_dups;

/* Read the dup reports into @d.  A dup of a TSN we retransmitted shows a
 * spurious retransmission (sctp_thin_core_dup()).
 */
static void sctp_thin_sack_dups(struct sctp_association *asoc,
				const union sctp_sack_variable *frags,
				unsigned int blocks, unsigned int ndups,
				struct sctp_thin_dups *d)
{
	struct sctp_thin_assoc *ta = asoc->thin;
	bool spurious = false;
	unsigned int i;

	d->n = min_t(unsigned int, ndups, SCTP_THIN_MAX_DUPS);
	for (i = 0; i < d->n; i++) {
		d->tsn[i] = ntohl(frags[blocks + i].dup);
		if (!sctp_thin_core_dup(&ta->core, d->tsn[i]))
			continue;
		/* The tail probe's own dup: not the RTO's fault (RFC 8985
		 * 7.4, thin_probe.c); the guard takes its count back.
		 */
		if (sctp_thin_probe_dup(&ta->probe, d->tsn[i]))
			continue;
		spurious = true;
	}
	/* One expiry's copies are reported together: back off once. */
	if (spurious)
		sctp_thin_spurious(asoc);
	d->dsack = spurious;
}

/* The gap ack blocks, in host order, into @gaps: their number. */
static unsigned int sctp_thin_sack_gaps(struct sctp_thin_assoc *ta,
					const union sctp_sack_variable *frags,
					unsigned int blocks,
					struct sctp_thin_gap *gaps)
{
	unsigned int i, n;

	n = blocks;
	if (n > SCTP_THIN_MAX_GAPS) {
		/* Each gap block needs an acked packet and a missing one
		 * beyond the cumulative ack: far more packets in flight
		 * than any thin threshold.  Thick by definition.
		 */
		ta->core.saturated = true;
		n = 0;
	}
	for (i = 0; i < n; i++) {
		gaps[i].start = ntohs(frags[i].gab.start);
		gaps[i].end = ntohs(frags[i].gab.end);
	}
	return n;
}

/* @tp if it is still one of the association's paths, else NULL: the
 * pointer is compared, never dereferenced before.
 */
struct sctp_transport *sctp_thin_path(struct sctp_association *asoc,
				      const struct sctp_transport *tp)
{
	struct sctp_transport *t;

	list_for_each_entry(t, &asoc->peer.transport_addr_list, transports)
		if (t == tp)
			return t;
	return NULL;
}

/* After the core read a SACK, what only the µs clock's users read (kept
 * only while one is on, sctp_thin_clock_on()): the RTT sample in µs of
 * the path it came from (the tail probe's PTO, the time rule's window),
 * and with the time-based loss rule on (RFC 8985 6.2), each path on
 * which the SACK acked a first transmission moves RACK.xmit_ts (steps
 * 1-2), and a dup report of a TSN we retransmitted (@dsack; not the tail
 * probe's) widens the reordering window (step 4).  Switching the rule
 * on starts its state afresh (sctp_thin_clock_start()).
 */
static void sctp_thin_clock_sacked(struct sctp_association *asoc,
				   u32 cum_tsn, bool dsack)
{
	struct sctp_thin_assoc *ta = asoc->thin;
	struct sctp_transport *tp;
	u32 xmit;

	if (ta->core.rtt_us) {
		tp = sctp_thin_path(asoc, ta->core.rtt_tp);
		if (tp)
			sctp_thin_rtt_sample(&tp->thin.rtt, ta->core.rtt_us);
	}
	if (!(asoc->thin_conf.flags & SCTP_THIN_RACK))
		return;
	list_for_each_entry(tp, &asoc->peer.transport_addr_list, transports)
		if (sctp_thin_core_acked_xmit(&ta->core, tp, &xmit))
			sctp_thin_rack_advance(&tp->thin.rack, xmit,
					       ta->core.now_us);
	sctp_thin_reo_sack(&ta->reo, cum_tsn, dsack, asoc->next_tsn - 1);
}

/* 5.1: packets leave the list when acked; a packet whose highest TSN is
 * reported missing three times is lost (RFC 9260 7.2.4).  @from: the
 * path the SACK arrived on.
 */
static void sctp_thin_sack_read(struct sctp_association *asoc, u32 cum_tsn,
				bool moved, const struct sctp_thin_gap *gaps,
				unsigned int n,
				const struct sctp_thin_dups *dups,
				const struct sctp_transport *from)
{
	struct sctp_thin_assoc *ta = asoc->thin;

	sctp_thin_core_sack(&ta->core, cum_tsn, gaps, n);
	if (sctp_thin_clock_on(asoc))
		sctp_thin_clock_sacked(asoc, cum_tsn, dups->dsack);
	if (ta->rdb.chunks)	/* else never bundled: no verdict due */
		sctp_thin_rdb_verdicts(asoc, cum_tsn, gaps, n, dups->tsn,
				       dups->n);
	sctp_thin_runs_end(asoc, moved, from);
	sctp_thin_update(asoc, ta);
	if (sctp_thin_probe_live(asoc))
		sctp_thin_probe_sacked(asoc, cum_tsn, gaps, n, dups->tsn,
				       dups->n, moved);
}

/* A SACK with gap blocks or dup reports.  Apart from the common case:
 * Debian's kernels zero every local array on entry
 * (CONFIG_INIT_STACK_ALL_ZERO), 200 bytes here, which a bulk flow's
 * plain SACKs need not pay.
 */
static noinline void sctp_thin_sack_lists(struct sctp_association *asoc,
					  struct sctp_sackhdr *sack,
					  bool moved,
					  const struct sctp_transport *from)
{
	struct sctp_thin_gap gaps[SCTP_THIN_MAX_GAPS];
	union sctp_sack_variable *frags;
	struct sctp_thin_dups dups;
	unsigned int n, blocks;

	/* sctp_sm_pull_sack() checked that the blocks and dups fit; they
	 * follow the header (6.1's variable[] member is gone in 6.12).
	 */
	frags = (union sctp_sack_variable *)(sack + 1);
	blocks = ntohs(sack->num_gap_ack_blocks);
	sctp_thin_sack_dups(asoc, frags, blocks, ntohs(sack->num_dup_tsns),
			    &dups);
	n = sctp_thin_sack_gaps(asoc->thin, frags, blocks, gaps);
	sctp_thin_sack_read(asoc, ntohl(sack->cum_tsn_ack), moved, gaps, n,
			    &dups, from);
}

void __sctp_thin_sack(struct sctp_association *asoc, struct sctp_sackhdr *sack,
		      const struct sctp_transport *from)
{
	struct sctp_thin_assoc *ta = asoc->thin;
	bool moved;

	if (!(asoc->thin_conf.flags & SCTP_THIN_MECHANISMS))
		return;
	moved = TSN_lt(asoc->ctsn_ack_point, ntohl(sack->cum_tsn_ack));
	if (!TSN_lt(ntohl(sack->cum_tsn_ack), asoc->next_tsn - 1))
		ta->held = false;	/* drained: everything sent is acked */
	if (moved)
		ta->lt_run = 0;	/* forward progress ends a timeout run */
	if (sctp_thin_clock_on(asoc))
		sctp_thin_core_clock(&ta->core, sctp_thin_now_us());
	if (sack->num_gap_ack_blocks || sack->num_dup_tsns)
		sctp_thin_sack_lists(asoc, sack, moved, from);
	else
		sctp_thin_sack_read(asoc, ntohl(sack->cum_tsn_ack), moved,
				    NULL, 0, &sctp_thin_no_dups, from);
}

/* Upstream purged the outqueue (__sctp_outq_teardown()): a peer restart
 * (RFC 9260 5.2.4, sctp_assoc_update()), a TSN reset (RFC 6525 5.2.4,
 * sctp_process_strreset_tsnreq()), SCTP_CMD_PURGE_OUTQUEUE, or the end of
 * the association.  Nothing is in flight, and the next TSN need not
 * follow the last one: forget packets, TSNs and timeout runs.
 */
void __sctp_thin_outq_purge(struct sctp_association *asoc)
{
	struct sctp_thin_assoc *ta = asoc->thin;

	sctp_thin_probe_stop(asoc);
	sctp_thin_core_purge(&ta->core);
	ta->lt_run = 0;
	ta->held = false;
	ta->resyncs++;
	sctp_thin_inc_stats(sock_net(asoc->base.sk), SCTP_MIB_THIN_RESYNCS);
	sctp_thin_rdb_reset(&ta->rdb);
	sctp_thin_paths_reset(asoc);
	/* Not thin until a packet is recorded again (sctp_thin_update()):
	 * nothing to decide meanwhile.
	 */
}

/* SCTP_THIN_RACK (RFC 8985 6.2 step 5, docs/design-tail-probe.md 2.1):
 * may the first miss indication of @chunk fast-retransmit it?  Only if
 * the rule declares it lost: sent a reordering window (min_RTT / 4,
 * grown by dup reports, at most the SRTT) before the newest chunk the
 * peer acked on its path, and that long plus RACK.rtt ago.  Within the
 * window it waits for the next SACK (held), or for stock's third
 * indication (sctp_mark_missing() tests that first, so the rule never
 * makes thin slower to fast-retransmit than stock), or T3-rtx.
 * Deviation: RFC 8985 6.3 arms a reordering timer for the rest of the
 * window; we have none yet (its SACK or the next message's decides).
 * A chunk whose packet the core does not know (not recorded, or
 * resynced) keeps the first-indication rule.
 */
static bool sctp_thin_rack_allows(struct sctp_association *asoc,
				  struct sctp_chunk *chunk)
{
	struct sctp_transport *tp = chunk->transport;
	struct sctp_thin_assoc *ta = asoc->thin;
	u32 reo, wait;
	int v;

	if (!tp)
		return true;
	reo = sctp_thin_reo_wnd(&ta->reo, &tp->thin.rack,
				tp->thin.rtt.srtt_us);
	v = sctp_thin_core_rack(&ta->core, ntohl(chunk->subh.data_hdr->tsn),
				tp, &tp->thin.rack, reo, &wait);
	if (v == SCTP_THIN_RACK_UNKNOWN)
		return true;
	if (v != SCTP_THIN_RACK_LOST) {
		ta->rack_held++;
		return false;
	}
	ta->rack_lost++;
	sctp_thin_reo_lost(&ta->reo);
	trace_sctp_thin_mechanism(asoc, SCTP_THIN_RACK,
				  ntohl(chunk->subh.data_hdr->tsn));
	return true;
}

/* 5.4: while thin, the first miss indication (RFC 9260 7.2.4) triggers
 * the fast retransmit instead of the third.  Only chunks still eligible
 * (SCTP_CAN_FRTX) qualify, so each TSN is fast-retransmitted at most once
 * and the rest of 7.2.4 (cwnd/ssthresh, fast recovery) is unchanged.
 * 7.2.4 marks only unacknowledged TSNs: a chunk reported missing once
 * and gap-acked since must not be marked, or sctp_retransmit_mark()
 * would take its bytes out of flight_size a second time (the counter
 * underflows and the association stalls with data queued).
 */
bool __sctp_thin_early_frtx(struct sctp_association *asoc,
			    struct sctp_chunk *chunk)
{
	if (chunk->fast_retransmit != SCTP_CAN_FRTX ||
	    chunk->tsn_gap_acked || !chunk->tsn_missing_report ||
	    !sctp_thin_on(asoc, SCTP_THIN_FAST_RETRANSMIT))
		return false;
	if (sctp_thin_on(asoc, SCTP_THIN_RACK) &&
	    !sctp_thin_rack_allows(asoc, chunk))
		return false;
	asoc->thin->fast_rtx++;
	sctp_thin_inc_stats(sock_net(asoc->base.sk), SCTP_MIB_THIN_FAST_RETRANSMITS);
	trace_sctp_thin_mechanism(asoc, SCTP_THIN_FAST_RETRANSMIT,
				  ntohl(chunk->subh.data_hdr->tsn));
	return true;
}

/* Module init/exit, called first from sctp_init() and last from
 * sctp_exit(), so that every socket sees our per-netns state
 * (thin_ctl.c).
 */
int sctp_thin_init(void)
{
	return sctp_thin_net_register();
}

void sctp_thin_exit(void)
{
	int left;

	sctp_thin_net_unregister();
	left = atomic_read(&sctp_thin_objects);
	if (left)
		pr_err("thin-sctp: leak of %d objects at unload\n", left);
}

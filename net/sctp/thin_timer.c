// SPDX-License-Identifier: GPL-2.0-or-later
/* thin-sctp: the RTO and the T3-rtx timer while thin (paper 5.2, 5.3),
 * and failure detection on stock's clock.
 *
 * This file owns each path's clock (struct sctp_thin_path, in struct
 * sctp_transport) and every change thin-sctp makes to a path's RTO or to
 * a timer's expiry.  The timers, and what arms, moves or reads them:
 *
 * - The RTO, after each RTT sample: sctp_transport_update_rto() ->
 *   sctp_thin_update_rto(), RTOmin while thin (5.2); stock's value stays
 *   in stock_rto.  The sample also feeds RDB's queue gate.
 * - T3-rtx armed (RFC 9260 6.3.2 R1): sctp_transport_reset_t3_rtx(),
 *   sctp_transport_immediate_rtx(), sctp_assoc_rm_peer() ->
 *   sctp_thin_t3_arm(): the path's RTO from now; stock's expiry is
 *   recorded, no earlier than another path's deferred one
 *   (sctp_thin_not_before()).
 * - T3-rtx restarted by a SACK (R3, R4): sctp_check_transmitted() ->
 *   sctp_thin_t3_restart(): from the oldest packet in flight on the path
 *   while thin (RFC 7765, 5.2); stock's expiry is recorded.
 * - T3-rtx expired: sctp_sf_do_6_3_3_rtx() -> sctp_thin_t3_rtx() marks
 *   the strike that follows; sctp_do_8_2_transport_strike() ->
 *   sctp_thin_strike() decides whether it counts as an error (stock's
 *   schedule V(k)) and whether it is linear (5.3), then
 *   sctp_thin_strike_done() sets the RTO after upstream's backoff.
 * - Heartbeat (sctp_transport_reset_hb_timer(), sctp_transport_timeout()),
 *   T2-shutdown (sctp_cmd_setup_t2()), T4-ASCONF (sctp_cmd_setup_t4()),
 *   RE-CONFIG (sctp_transport_reset_reconf_timer()) ->
 *   sctp_thin_ctl_rto(): stock's RTO, __sctp_thin_stock_rto().
 * - After a SACK, sctp_thin_sack() (thin.c) -> sctp_thin_runs_end(): a
 *   run ends where stock clears the path's error counter or stops its
 *   T3-rtx; sctp_thin_spurious(): a spurious retransmission backs the
 *   RTO off.
 * - On a reset (resync, outqueue purge, mechanisms off), thin.c ->
 *   sctp_thin_paths_reset(): stock's RTO back on every path.
 */

#include <net/sctp/sctp.h>
#include <net/sctp/sm.h>
#include <net/sctp/thin.h>
#include "thin_glue.h"
#include "thin_trace.h"

/* Per-path clock (sctp_thin_path; "Failure detection" below).  tp->rto
 * is stock's unless thin-sctp changed it; then stock_rto holds stock's,
 * for as long as tp->rto keeps the value we gave it.  Upstream writing
 * tp->rto itself (sctp_transport_reset() on a peer restart, an ASCONF
 * adding an address) makes tp->rto stock's again.
 */
unsigned long __sctp_thin_stock_rto(const struct sctp_transport *tp)
{
	const struct sctp_thin_path *pt = &tp->thin;

	if (pt->stock_rto && tp->rto == pt->rto)
		return pt->stock_rto;
	return tp->rto;
}

/* Give the path an RTO of ours; stock's stays in stock_rto. */
static void sctp_thin_set_rto(struct sctp_transport *tp, unsigned long rto)
{
	tp->thin.stock_rto = __sctp_thin_stock_rto(tp);
	tp->thin.rto = rto;
	tp->rto = rto;
}

/* Upstream changed our RTO (the backoff of an uncounted strike): @rto is
 * ours, stock_rto stays stock's.
 */
static void sctp_thin_keep_rto(struct sctp_transport *tp, unsigned long rto)
{
	tp->thin.rto = rto;
	tp->rto = rto;
}

/* tp->rto is stock's again (upstream set it, or we gave it stock's). */
static void sctp_thin_sync_rto(struct sctp_transport *tp)
{
	tp->thin.stock_rto = tp->rto;
	tp->thin.rto = tp->rto;
}

/* Forget the per-path timeout runs (sctp_thin_path) and give each path
 * stock's RTO back: after a reset or with the mechanisms off, nothing of
 * ours may stay (a thin RTOmin below RTO.Min, an RTO kept by a linear
 * timeout).  The record of the armed T3-rtx stays: that timer still runs
 * with the RTO it was given, and its expiry must still count on stock's
 * time.
 */
void sctp_thin_paths_reset(struct sctp_association *asoc)
{
	struct sctp_transport *tp;

	list_for_each_entry(tp, &asoc->peer.transport_addr_list, transports) {
		struct sctp_thin_path *pt = &tp->thin;

		tp->rto = __sctp_thin_stock_rto(tp);
		sctp_thin_sync_rto(tp);
		pt->v_next = 0;
		pt->saved_rto = 0;
		pt->run = 0;
		pt->t3 = 0;
		pt->strike = 0;
		pt->deferred = 0;
		pt->rto_suspect = 0;
		pt->shadow = 0;
		pt->pend = 0;
		pt->stock_by = jiffies;	/* no sample from before */
		memset(&pt->rdb_gate, 0, sizeof(pt->rdb_gate));
		pt->rack.valid = false;	/* RACK.xmit_ts: a packet forgotten */
	}
}

/* A retransmission was spurious: the peer reported its TSN twice (RFC
 * 3708 3.2), so the original had arrived and the timer or the miss
 * indication came too early.  Against a receiver that delays its SACK
 * (RFC 9260 6.2: up to 200 ms) and ignores the I-bit, samples taken while
 * it acked at once (a gap, every second packet) bring the RTO down to the
 * thin RTOmin, below the delayed SACK of a lone packet; every expiry is
 * then spurious, Karn's rule (RFC 9260 6.3.1 C5) discards each sample
 * that could correct the RTO, and linear timeouts keep it: measured, one
 * association of 20 sent 209 spurious copies in 60 s.  Our response, in
 * the spirit of RFC 4015 (Eifel): back the RTO off as stock would have
 * (doubled, at most stock's RTO), and no linear timeouts on the path
 * until its next RTT sample.  The next lone packet's delayed SACK then
 * arrives in time and its sample raises the RTO.
 */
void sctp_thin_spurious(struct sctp_association *asoc)
{
	struct sctp_transport *tp;

	list_for_each_entry(tp, &asoc->peer.transport_addr_list, transports) {
		unsigned long stock = __sctp_thin_stock_rto(tp);

		tp->thin.rto_suspect = 1;
		if (tp->rto < stock)
			sctp_thin_set_rto(tp, min(tp->rto * 2, stock));
	}
}

/* RFC 9260 6.3.1 C2, C3 and G1 on (@srtt, @rttvar) with the sample
 * @rtt, as sctp_transport_update_rto() computes them; returns the RTO
 * (C3, C6, C7).
 */
static unsigned long sctp_thin_rtt_step(const struct sctp_transport *tp,
					u32 *srtt, u32 *rttvar, u32 rtt)
{
	const struct net *net = tp->asoc->base.net;
	unsigned int beta = READ_ONCE(net->sctp.rto_beta);
	unsigned int alpha = READ_ONCE(net->sctp.rto_alpha);
	unsigned long rto;

	if (*srtt || *rttvar) {
		if (beta < 32)
			*rttvar = *rttvar - (*rttvar >> beta) +
				  ((u32)abs((s64)*srtt - (s64)rtt) >> beta);
		if (alpha < 32)
			*srtt = *srtt - (*srtt >> alpha) + (rtt >> alpha);
	} else {
		*srtt = rtt;
		*rttvar = rtt >> 1;
	}
	if (!*rttvar)
		*rttvar = SCTP_CLOCK_GRANULARITY;
	rto = *srtt + (*rttvar << 2);
	return clamp(rto, tp->asoc->rto_min, tp->asoc->rto_max);
}

/* Stock's RTT estimator where it took a sample that Karn's rule (RFC 9260
 * 6.3.1 C5) kept from ours (sctp_thin_stock_sample()): from then on it
 * takes every sample ours takes, and gives stock's RTO; once that is no
 * more than ours computes, ours is stock's again (the difference only
 * decays: later, never earlier).  tp->rto is what upstream computed.
 */
static void sctp_thin_shadow_sample(struct sctp_transport *tp, u32 rtt)
{
	struct sctp_thin_path *pt = &tp->thin;
	unsigned long rto;

	if (!pt->shadow)
		return;
	rto = sctp_thin_rtt_step(tp, &pt->stock_srtt, &pt->stock_rttvar, rtt);
	if (rto <= tp->rto) {
		pt->shadow = 0;
		return;
	}
	pt->stock_rto = rto;
	pt->rto = tp->rto;
}

/* Stock backs off for a loss our copy repaired (sctp_thin_stock_backoff())
 * and keeps that RTO until an RTT sample of a chunk sent after its own
 * retransmission at bo_from (RFC 9260 6.3.1 C5): a sample of a chunk
 * sent before then is ours alone (stock timed none of them: its timed
 * chunk was the one it retransmitted).
 */
static void sctp_thin_backoff_sample(struct sctp_transport *tp, u32 rtt)
{
	struct sctp_thin_path *pt = &tp->thin;

	if (!pt->bo)
		return;
	if (!time_before(jiffies - rtt, pt->bo_from)) {
		pt->bo = 0;
		return;
	}
	if (pt->bo_rto <= __sctp_thin_stock_rto(tp))
		return;
	pt->stock_rto = pt->bo_rto;
	pt->rto = tp->rto;
}

/* 5.2: RTOmin while thin.  lksctp has just set tp->rto from
 * SRTT + 4 * RTTVAR (RFC 9260 6.3.1 C3) clamped to [RTO.Min, RTO.Max];
 * redo the lower clamp with the thin RTOmin.  RTO.Max still caps it.
 */
void __sctp_thin_update_rto(struct sctp_transport *tp, u32 rtt)
{
	struct sctp_association *asoc = tp->asoc;
	unsigned long rto, floor;

	/* What stock computed from this sample, before our clamp. */
	sctp_thin_sync_rto(tp);
	sctp_thin_shadow_sample(tp, rtt);
	sctp_thin_backoff_sample(tp, rtt);
	tp->thin.rto_suspect = 0;	/* a fresh sample: sctp_thin_spurious() */
	if (sctp_thin_on(asoc, SCTP_THIN_RDB))
		sctp_thin_rdb_gate_rtt(&tp->thin.rdb_gate, (u32)tp->srtt,
				       (u32)jiffies,
				       SCTP_THIN_RDB_GATE_WINDOW,
				       SCTP_THIN_RDB_GATE_SLACK);
	if (!sctp_thin_on(asoc, SCTP_THIN_RTO_MIN))
		return;
	floor = msecs_to_jiffies(asoc->thin_conf.rto_min);
	rto = tp->srtt + (tp->rttvar << 2);
	rto = clamp(rto, floor, asoc->rto_max);
	if (rto >= tp->rto)
		return;
	sctp_thin_set_rto(tp, rto);
	asoc->thin->rto_min_clamps++;
	trace_sctp_thin_mechanism(asoc, SCTP_THIN_RTO_MIN, jiffies_to_msecs(rto));
}

/* Failure detection: never earlier in time than stock.
 *
 * RFC 9260 8.1/8.2 count one error per T3-rtx expiry and fail a path
 * after Path.Max.Retrans, the association after Association.Max.Retrans
 * errors; RFC 7829 marks a path potentially failed (PF) after
 * PotentiallyFailed.Max.Retrans.  Stock spaces the expiries by an RTO
 * that doubles (6.3.3 E2) from at least RTO.Min; thin RTOmin (5.2) and
 * linear timeouts (5.3) space them by 200 ms, so the same count would be
 * reached in seconds instead of minutes (measured: a 10 s outage aborted
 * thin associations after 7 s).  Linux TCP keeps its linear timeouts
 * safe by budgeting time as if the backoff had been exponential
 * (retransmits_timed_out()); we keep the count and move its time.
 *
 * Stock's clock, per path (struct sctp_thin_path):
 * - stock's RTO: tp->rto as upstream computes it (RTO.Min of the
 *   association, 6.3.1 C3-C7) and backs it off (E2), kept in stock_rto
 *   whenever tp->rto is ours (sctp_thin_set_rto());
 * - stock's T3-rtx expiry, recorded whenever the timer is armed or
 *   restarted (R1: __sctp_thin_t3_arm(); R3/R4: __sctp_thin_t3_restart()),
 *   as the time of arming plus stock's RTO then.  An RTT sample between
 *   arming and expiry changes neither (stock's timer does not move).
 *
 * From the first T3-rtx expiry of a loss episode (a run), we follow the
 * schedule stock would have: V1 = the recorded expiry, then V(k+1) = V(k)
 * + stock's doubled RTO (E2, capped by RTO.Max).  An expiry counts as an
 * error (upstream's counters, PF and failure) only once the next V(k) is
 * reached; earlier ones are extra retransmissions, not errors.  A SACK
 * that restarts the timer (R3/R4) restarts stock's too: V(k) moves to
 * that restart's expiry if it is later (sctp_thin_t3_restarted()).  Before a
 * counted expiry the path takes stock's RTO, so that upstream backs off
 * stock's value and the heartbeats of a potentially failed path, which
 * use the path's RTO, fall where stock's fall.  After an uncounted one
 * that is not linear, the doubled RTO, but at most the time to V(k) (at
 * least the RTO it had).  The count therefore never runs ahead of
 * stock's: PF, path failure and abort come no earlier (up to one thin
 * RTO later, at the first thin expiry after stock's).  Linear timeouts
 * apply only before that first counted expiry.  A bulk flow, whose RTO
 * is stock's, counts every expiry as stock does.  A run ends where a
 * packet still in flight on the path is acked (stock clears the path's
 * error counter there too), or where its T3-rtx stops
 * (sctp_thin_runs_end()).
 *
 * The packets an uncounted expiry gives up are still in flight for
 * stock, on their path: the in-flight list keeps them
 * (SCTP_THIN_PKT_STOCK) until acked.  Once they are acked and a SACK
 * arrives on that path (DATA sent there gets through), that is stock's
 * ack on the path, wherever our copies went (sctp_thin_stock_acked()):
 * the path's error counters are cleared and
 * its run ends, stock's T3-rtx restarts from now, and stock's RTT
 * estimator takes the sample that Karn's rule (RFC 9260 6.3.1 C5) denies
 * ours (sctp_thin_stock_sample(), sctp_thin_shadow_sample()): after a
 * latency spike stock's RTO is the higher one, and it is the one the
 * schedule uses.
 *
 * Multi-homed (RFC 9260 6.4.1): the retransmissions of a T3-rtx expiry go
 * to the retransmission path, often an alternate one.  Stock sends them
 * there at its expiry; after an uncounted thin expiry they arrive up to
 * one stock RTO earlier, and if they armed the alternate path's T3-rtx
 * from now, that path's errors would count early (measured: path 2 PF
 * 0.76 s, path 1 failed 1.55 s and the abort 0.73 s before stock's).  So
 * a T3-rtx armed while another path's last expiry was deferred is
 * recorded as armed at that path's next stock expiry, V(k), when stock
 * would send there (sctp_thin_not_before()).  The retransmission itself
 * goes early, as the paper has it: a primary-only outage is repaired
 * sooner.  Armed for new data instead, the record is later than stock's
 * (failure later, never earlier).
 *
 * The path's other timers count errors too: heartbeats (8.3; spaced by
 * HB.interval plus a jittered RTO, sctp_transport_timeout()), T2-shutdown,
 * T4-ASCONF and RE-CONFIG.  They run on stock's RTO (sctp_thin_ctl_rto()
 * returns __sctp_thin_stock_rto()), so a thin RTOmin does not fire them,
 * and count their errors, early.
 *
 * After a reset (SCTP_THIN off and on, mechanisms off, a TSN reset, a
 * peer restart) the runs are forgotten and every path has stock's RTO
 * again (sctp_thin_paths_reset()); the record of the armed timer stays.
 *
 * The strike is recognised by the T3-rtx expiry itself
 * (sctp_sf_do_6_3_3_rtx() -> __sctp_thin_t3_rtx() sets tp->thin.t3, and
 * decides there whether it counts).  Heartbeat, T2-shutdown,
 * T4-ASCONF and RE-CONFIG strikes count as upstream's, and back off from
 * stock's RTO.
 */
enum {
	SCTP_THIN_STRIKE_STOCK,		/* not ours: upstream as is */
	SCTP_THIN_STRIKE_COUNTED,	/* counted: stock's backed-off RTO */
	SCTP_THIN_STRIKE_LINEAR,	/* not counted, 5.3: RTO kept */
	SCTP_THIN_STRIKE_DEFERRED,	/* not counted, backoff as upstream */
};

/* 5.3: while thin, a T3-rtx expiry does not double the RTO, for at most
 * lt_max expiries in a row without the cumulative ack moving, as Linux
 * TCP's tcp_thin_linear_timeouts, and not while the peer's window is zero
 * (zero-window probes back off, RFC 9260 6.1 A).
 */
static bool sctp_thin_linear(struct sctp_association *asoc,
			     struct sctp_thin_assoc *ta,
			     struct sctp_transport *tp)
{
	return sctp_thin_on(asoc, SCTP_THIN_LINEAR_TIMEOUTS) &&
	       ta->lt_run < asoc->thin_conf.lt_max && asoc->peer.rwnd &&
	       !tp->thin.rto_suspect;
}

/* Stock's first expiry of the run: the one recorded when the timer was
 * armed.  The socket-busy retry (sctp_generate_t3_rtx_event()) only moves
 * the expiry later.  A timer armed before the association's state
 * existed was armed with stock's RTO: it expires when stock's would, or
 * later if the RTO fell since.
 */
static unsigned long sctp_thin_run_start(struct sctp_transport *tp)
{
	struct sctp_thin_path *pt = &tp->thin;
	unsigned long exp = tp->T3_rtx_timer.expires;
	unsigned long stock = __sctp_thin_stock_rto(tp);

	if (pt->armed && !time_before(exp, pt->t3_exp))
		return pt->stock_exp;
	return stock > tp->rto ? exp + stock - tp->rto : exp;
}

/* The path's first T3-rtx expiry since its last run ended opens a run. */
static void sctp_thin_run_open(struct sctp_transport *tp)
{
	struct sctp_thin_path *pt = &tp->thin;

	if (pt->run)
		return;
	pt->v_next = sctp_thin_run_start(tp);
	pt->armed = 0;
	pt->run = 1;
}

/* A strike that counts: upstream backs off stock's RTO. */
static void sctp_thin_strike_stock(struct sctp_transport *tp)
{
	tp->rto = __sctp_thin_stock_rto(tp);
	sctp_thin_sync_rto(tp);
	tp->thin.strike = SCTP_THIN_STRIKE_COUNTED;
}

/* The T3-rtx expiry of @tp, decided once in sctp_sf_do_6_3_3_rtx() and
 * used by the strike that follows.  An expiry before V(k), stock's next
 * one, is not an error (RFC 9260 8.1, 8.2 count stock's expiries), and
 * the limits are checked where stock checks them: at stock's expiry.
 * Upstream tests the association's limit before it counts the strike
 * (sctp_sf_do_6_3_3_rtx()), so the error counter may already be at the
 * limit through another path's strikes while this path's run is still
 * before V(k): stock aborts at V(k), not now.
 */
enum {
	SCTP_THIN_T3_NONE,		/* not a T3-rtx strike */
	SCTP_THIN_T3_COUNTED,		/* at or after V(k) */
	SCTP_THIN_T3_DEFERRED,		/* before V(k) */
};

bool __sctp_thin_t3_rtx(struct sctp_transport *tp)
{
	struct sctp_thin_path *pt = &tp->thin;

	pt->t3 = SCTP_THIN_T3_COUNTED;
	if (!(tp->asoc->thin_conf.flags & SCTP_THIN_MECHANISMS))
		return true;
	sctp_thin_run_open(tp);
	if (time_before(jiffies, pt->v_next))
		pt->t3 = SCTP_THIN_T3_DEFERRED;
	return pt->t3 == SCTP_THIN_T3_COUNTED;
}

/* Returns false if this strike must not count as an error. */
bool __sctp_thin_strike(struct sctp_association *asoc,
			struct sctp_transport *tp, int is_hb)
{
	struct sctp_thin_path *pt = &tp->thin;
	struct sctp_thin_assoc *ta = asoc->thin;
	u8 t3 = pt->t3;
	bool count, linear;

	pt->t3 = SCTP_THIN_T3_NONE;
	pt->strike = SCTP_THIN_STRIKE_STOCK;
	if (!(asoc->thin_conf.flags & SCTP_THIN_MECHANISMS))
		return true;
	if (t3 == SCTP_THIN_T3_NONE) {
		/* A heartbeat (8.3) not answered, T2, T4, RE-CONFIG: counted
		 * as upstream's, backed off from stock's RTO.  The first
		 * heartbeat of a path is no error and does not back off.
		 */
		if (!is_hb || tp->hb_sent)
			sctp_thin_strike_stock(tp);
		return true;
	}

	ta->timeouts++;
	sctp_thin_run_open(tp);
	count = t3 == SCTP_THIN_T3_COUNTED;
	linear = !count && sctp_thin_linear(asoc, ta, tp);

	/* RFC 9260 6.3.3 E3 retransmits every packet on the path: each is
	 * given up (congestion guard).
	 */
	sctp_thin_core_timeout(&ta->core, tp, !count);
	sctp_thin_update(asoc, ta);

	if (count) {
		/* Upstream now counts the error, may mark the path PF and
		 * arm its heartbeat timer from the RTO (RFC 7829 5.1,
		 * sctp_transport_reset_hb_timer()), then doubles the RTO:
		 * from stock's, so the heartbeats come when stock's do.
		 */
		sctp_thin_strike_stock(tp);
		pt->v_next += min(tp->rto * 2, asoc->rto_max);
		pt->deferred = 0;
		pt->pend = 0;	/* stock gave them up too */
		return true;
	}
	/* Upstream doubles our RTO now, not stock's: keep stock's. */
	sctp_thin_set_rto(tp, tp->rto);
	pt->saved_rto = tp->rto;
	pt->deferred = 1;
	pt->stock_by = pt->v_next;	/* stock expires, and retransmits, then */
	ta->strikes_deferred++;
	sctp_thin_inc_stats(sock_net(asoc->base.sk), SCTP_MIB_THIN_STRIKES_DEFERRED);
	pt->strike = SCTP_THIN_STRIKE_DEFERRED;
	if (linear) {
		pt->strike = SCTP_THIN_STRIKE_LINEAR;
		ta->lt_run++;
		ta->linear_timeouts++;
		sctp_thin_inc_stats(sock_net(asoc->base.sk), SCTP_MIB_THIN_LINEAR_TIMEOUTS);
		trace_sctp_thin_mechanism(asoc, SCTP_THIN_LINEAR_TIMEOUTS,
					  ta->lt_run);
	}
	return false;
}

void __sctp_thin_strike_done(struct sctp_association *asoc,
			     struct sctp_transport *tp, int is_hb)
{
	struct sctp_thin_path *pt = &tp->thin;
	unsigned long now = jiffies;

	switch (pt->strike) {
	case SCTP_THIN_STRIKE_COUNTED:
		/* Upstream doubled stock's RTO: it is stock's. */
		sctp_thin_sync_rto(tp);
		break;
	case SCTP_THIN_STRIKE_LINEAR:
		sctp_thin_keep_rto(tp, pt->saved_rto);
		break;
	case SCTP_THIN_STRIKE_DEFERRED:
		/* Upstream doubled our RTO; if that would pass V(k), expire
		 * at V(k) instead, where the expiry counts, so the schedule
		 * converges on stock's and never drifts behind it.  Never
		 * below the RTO before the strike: the value stays until the
		 * next RTT sample.  V(k) may be past already (jiffies moved
		 * on since the strike): then that RTO.
		 */
		if (!time_after(pt->v_next, now))
			sctp_thin_keep_rto(tp, pt->saved_rto);
		else if (time_after(now + tp->rto, pt->v_next))
			sctp_thin_keep_rto(tp, max(pt->v_next - now,
						   pt->saved_rto));
		else
			sctp_thin_keep_rto(tp, tp->rto);
		break;
	}
	pt->strike = SCTP_THIN_STRIKE_STOCK;
}

/* The earliest time stock could send to @tp what we send it now: a path
 * whose last T3-rtx expiry was deferred has its chunks retransmitted
 * (RFC 9260 6.3.3 E3), possibly to @tp (6.4.1), where stock retransmits
 * them only at that path's next expiry, v_next.  Bounded by the number of
 * paths.
 */
static unsigned long sctp_thin_not_before(const struct sctp_transport *tp,
					  unsigned long now)
{
	const struct sctp_transport *t;
	unsigned long nb = now;

	list_for_each_entry(t, &tp->asoc->peer.transport_addr_list,
			    transports)
		if (t != tp && t->thin.run && t->thin.deferred &&
		    time_after(t->thin.v_next, nb))
			nb = t->thin.v_next;
	return nb;
}

/* Record stock's expiry of a T3-rtx armed now: @stock after stock would
 * have armed it, where ours is @expires.
 */
static unsigned long sctp_thin_t3_record(struct sctp_transport *tp,
					 unsigned long now,
					 unsigned long expires,
					 unsigned long stock)
{
	tp->thin.t3_exp = expires;
	tp->thin.stock_exp = sctp_thin_not_before(tp, now) + stock;
	tp->thin.armed = 1;
	return expires;
}

/* R1 (RFC 9260 6.3.2): T3-rtx armed with the path's RTO. */
unsigned long __sctp_thin_t3_arm(struct sctp_transport *tp)
{
	unsigned long now = jiffies;

	return sctp_thin_t3_record(tp, now, now + tp->rto,
				   __sctp_thin_stock_rto(tp));
}

/* A SACK restarts the T3-rtx (RFC 9260 6.3.2 R3, R4); stock restarts its
 * own there too, from now.  Within a timeout run stock's next expiry is
 * then that restart's, not V(k) as recorded when the run opened: V(k)
 * moves there if that is later (never earlier).  A run can outlive the
 * SACK where the packets it acks left our list before (declared lost,
 * then acked after all).  Where they were given up by an early expiry,
 * the restart that counts is stock's, sctp_thin_stock_acked()'s: with
 * stock's RTT sample, and on their path if our copies went to another.
 * Measured before these rules: with the RTT of a live path rising from
 * 100 to 750 ms and stock's RTO at 1 s, stock never expired while thin
 * counted an error; a stall of 200 ms (a busy virtual machine) made one
 * thin association of 16 abort 200 ms before the earliest of stock's.
 */
static unsigned long sctp_thin_t3_restarted(struct sctp_transport *tp,
					    unsigned long now,
					    unsigned long expires,
					    unsigned long stock)
{
	struct sctp_thin_path *pt = &tp->thin;

	sctp_thin_t3_record(tp, now, expires, stock);
	if (pt->run && time_after(pt->stock_exp, pt->v_next))
		pt->v_next = pt->stock_exp;
	if (time_after(pt->stock_exp, pt->stock_by))
		pt->stock_by = pt->stock_exp;	/* stock's timer moved */
	return expires;
}

/* RFC 7765 (RTO Restart), paper 5.2: when a SACK moves the cumulative
 * ack but data is still outstanding, lksctp restarts T3-rtx with a full
 * RTO from now (RFC 9260 6.3.2 R3).  While thin, expire instead RTO after
 * the oldest packet still in flight on this path was sent, so no more
 * than one RTO passes before it is retransmitted.  Never in the past: at
 * the earliest one jiffy from now.  As RFC 7765 4.2 has it: only with
 * fewer than rrthresh (4) packets outstanding on the path and no unsent
 * data ready, and only for R3 (@why == 1), never for the R4 restart of
 * reneged data.  Stock would restart with its full RTO from now, R3 and
 * R4 alike: that is recorded for failure detection.
 */
unsigned long __sctp_thin_t3_restart(struct sctp_transport *tp, u8 why)
{
	struct sctp_association *asoc = tp->asoc;
	const struct sctp_thin_pkt *oldest;
	unsigned long now = jiffies;
	unsigned long full = now + tp->rto;
	unsigned long stock = __sctp_thin_stock_rto(tp);
	unsigned long expires;
	u32 n;

	if (why != 1 || !sctp_thin_on(asoc, SCTP_THIN_RESTART_TIMER) ||
	    !list_empty(&asoc->outqueue.out_chunk_list) ||
	    !list_empty(&asoc->outqueue.retransmit))
		return sctp_thin_t3_restarted(tp, now, full, stock);
	oldest = sctp_thin_core_oldest(&asoc->thin->core, tp, &n);
	if (!oldest || n >= SCTP_THIN_RRTHRESH)
		return sctp_thin_t3_restarted(tp, now, full, stock);
	expires = oldest->sent + tp->rto;
	if (time_before(expires, now + 1))
		expires = now + 1;
	if (!time_before(expires, full))
		return sctp_thin_t3_restarted(tp, now, full, stock);
	asoc->thin->restart_corrections++;
	sctp_thin_inc_stats(sock_net(asoc->base.sk), SCTP_MIB_THIN_RESTARTS);
	trace_sctp_thin_mechanism(asoc, SCTP_THIN_RESTART_TIMER,
				  jiffies_to_msecs(full - expires));
	return sctp_thin_t3_restarted(tp, now, expires, stock);
}

/* The packets we gave up early, acked now, may have been lost, and the
 * ack our copies': then stock's T3-rtx still expires at V(k) (stock_by),
 * counts an error, retransmits, and backs its RTO off from @rto, its RTO
 * before this ack (RFC 9260 6.3.3 E2); the ack of its retransmission
 * gives it no RTT sample (6.3.1 C5), and it keeps the doubled RTO until
 * it samples a chunk sent after V(k) (__sctp_thin_update_rto()).  Or
 * they arrived late, and stock samples them (sctp_thin_stock_sample()).
 * The ack cannot tell which: stock's RTO is the larger of the two, and
 * its T3-rtx restarts at V(k) (never earlier).  Without the backoff,
 * measured: one message lost and repaired by thin, the return path dead
 * 1.4 s later, RTO.Max 5 s and four errors: thin aborted 4 s before
 * stock.
 */
static void sctp_thin_stock_backoff(struct sctp_transport *tp,
				    unsigned long rto)
{
	struct sctp_thin_path *pt = &tp->thin;

	rto = min(rto * 2, tp->asoc->rto_max);
	pt->bo = 1;
	pt->bo_from = pt->stock_by;
	pt->bo_rto = rto;
	if (rto <= __sctp_thin_stock_rto(tp))
		return;
	pt->stock_rto = rto;
	pt->rto = tp->rto;
}

/* Stock takes an RTT sample from a packet we gave up early, acked now:
 * Karn's rule (RFC 9260 6.3.1 C5) keeps it from our estimator, not from
 * stock's, which never retransmitted the packet.  Measured from its send
 * (@oldest, @newest: the send times of the oldest and newest acked; a
 * packet that was our retransmission only counts later, never earlier).
 * Which one stock timed (one per round trip, C4), or whether it timed
 * any, is not known: stock's estimator (sctp_thin_shadow_sample()) takes
 * whichever of the three gives the highest RTO.
 */
static void sctp_thin_stock_sample(struct sctp_transport *tp,
				   unsigned long oldest, unsigned long newest)
{
	struct sctp_thin_path *pt = &tp->thin;
	unsigned long now = jiffies, rto, r2;
	u32 srtt, rttvar, s2, v2;

	if (!pt->shadow) {
		pt->stock_srtt = tp->srtt;
		pt->stock_rttvar = tp->rttvar;
	}
	srtt = pt->stock_srtt;
	rttvar = pt->stock_rttvar;
	s2 = srtt;
	v2 = rttvar;
	rto = sctp_thin_rtt_step(tp, &srtt, &rttvar, (u32)(now - oldest));
	r2 = sctp_thin_rtt_step(tp, &s2, &v2, (u32)(now - newest));
	if (r2 > rto) {
		srtt = s2;
		rttvar = v2;
		rto = r2;
	}
	if (rto <= __sctp_thin_stock_rto(tp))
		return;
	pt->stock_srtt = srtt;
	pt->stock_rttvar = rttvar;
	pt->shadow = 1;
	pt->stock_rto = rto;
	pt->rto = tp->rto;
}

/* Packets of @tp that an early expiry gave up (a deferred strike: stock
 * had not expired, sctp_thin_core_timeout()) were acked, and a SACK now
 * arrived on @tp itself: the peer sends its SACK where its last DATA came
 * from (RFC 9260 6.4), so DATA sent on @tp reaches it, and stock, which
 * still had those packets in flight on @tp wherever our copies went
 * (6.4.1: often another path), has its ack of them about now.  Their
 * ack alone is not enough: with @tp dead, only our copies arrive, and
 * stock expires at V(k) and counts (measured: taking that ack for
 * stock's kept a dead primary from ever being declared failed).  So, on
 * @tp as stock: the RTT sample from their send (@timed: @oldest,
 * @newest known; unless stock's own timer expired first, at the V(k) of
 * the last deferred strike, when it retransmitted and Karn's rule
 * applies to it too), the error counters cleared (8.2), which ends the
 * timeout run, and the T3-rtx restarted with stock's RTO from now (6.3.2
 * R3; where R2 stops it instead, the record is unused).  Without the
 * rule, measured: the RTT of the primary path rising from 100 to 900 ms
 * (stock's RTO 1.5 s, never expired), thin's copies went to path 2 and
 * their acks cleared path 2's errors; path 1 kept its run and was marked
 * potentially failed (RFC 7829) in 13 of 16 associations, stock's in
 * none.
 */
static void sctp_thin_stock_acked(struct sctp_transport *tp, bool timed,
				  unsigned long oldest, unsigned long newest)
{
	struct sctp_thin_path *pt = &tp->thin;
	unsigned long exp, from = jiffies;

	if (timed && time_before(jiffies, pt->stock_by)) {
		unsigned long rto = __sctp_thin_stock_rto(tp);

		sctp_thin_stock_sample(tp, oldest, newest);
		sctp_thin_stock_backoff(tp, rto);
		from = pt->bo_from;
	}
	tp->error_count = 0;
	tp->asoc->overall_error_count = 0;
	pt->run = 0;
	pt->deferred = 0;
	exp = from + __sctp_thin_stock_rto(tp);
	if (pt->armed && time_after(exp, pt->stock_exp))
		pt->stock_exp = exp;
	if (time_after(exp, pt->stock_by))
		pt->stock_by = exp;	/* the rest: stock's timer moved */
}

/* The last SACK acked packets of @tp given up early (@timed: sent between
 * @oldest and @newest; else the list cannot tell): pending until a SACK
 * arrives on @tp (sctp_thin_stock_acked()).
 */
static void sctp_thin_stock_pend(struct sctp_transport *tp, bool timed,
				 unsigned long oldest, unsigned long newest)
{
	struct sctp_thin_path *pt = &tp->thin;

	if (!pt->pend) {
		pt->pend = 1;
		pt->pend_timed = timed;
		pt->pend_old = oldest;
		pt->pend_new = newest;
		return;
	}
	if (!timed) {
		pt->pend_timed = 0;
		return;
	}
	if (time_before(oldest, pt->pend_old))
		pt->pend_old = oldest;
	if (time_after(newest, pt->pend_new))
		pt->pend_new = newest;
}

/* A SACK arrived on @tp: stock's ack of its pending packets. */
static void sctp_thin_stock_confirm(struct sctp_transport *tp)
{
	struct sctp_thin_path *pt = &tp->thin;

	if (!pt->pend)
		return;
	pt->pend = 0;
	sctp_thin_stock_acked(tp, pt->pend_timed, pt->pend_old, pt->pend_new);
}

/* A SACK that lksctp drops as out of order (RFC 9260 6.2.1 i: its
 * cumulative ack is below the one already seen) arrived on @tp.  On a
 * slow path the peer's SACKs for our originals come after those for our
 * copies on a faster one, and are dropped so: they are still stock's.
 */
void __sctp_thin_stale_sack(struct sctp_transport *tp)
{
	if (tp->asoc->thin_conf.flags & SCTP_THIN_MECHANISMS)
		sctp_thin_stock_confirm(tp);
}

/* The end of the timeout runs, after a SACK (sctp_thin_sack());
 * @moved: it moved the cumulative ack; @from: the path it arrived on.
 */
void sctp_thin_runs_end(struct sctp_association *asoc, bool moved,
			const struct sctp_transport *from)
{
	struct sctp_thin_assoc *ta = asoc->thin;
	struct sctp_transport *tp;
	unsigned long oldest, newest;
	int st;

	/* A path's timeout run ends where stock clears its error counter
	 * (RFC 9260 8.2): a packet last sent on it is acked.  Also where
	 * stock's T3-rtx of the path stopped (R2): nothing outstanding on
	 * it, nothing waiting for retransmission.  Where the list cannot
	 * tell (saturated), any move of the cumulative ack ends every run:
	 * later than stock, never earlier.
	 */
	list_for_each_entry(tp, &asoc->peer.transport_addr_list, transports) {
		st = sctp_thin_core_stock_acked(&ta->core, tp, &oldest, &newest);
		if (st != SCTP_THIN_STOCK_NONE)
			sctp_thin_stock_pend(tp, st == SCTP_THIN_STOCK_TIMED,
					     oldest, newest);
		if (tp == from)
			sctp_thin_stock_confirm(tp);
		if (!tp->thin.run)
			continue;
		if (sctp_thin_core_acked_path(&ta->core, tp) ||
		    (moved && ta->core.saturated) ||
		    (list_empty(&tp->transmitted) &&
		     list_empty(&asoc->outqueue.retransmit)))
			tp->thin.run = 0;
	}
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Brute-force model of the thin-sctp core: a plain array of every packet,
 * each rule applied the simplest way, and the checks that the core (ring,
 * compaction, growth, cap, counters, detection) agrees with it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"

const int model_paths[MODEL_PATHS + 1] = { 1, 2, 3, 4, 5, 6, 7 };

static bool before(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

static size_t m_live(const struct model *m)
{
	size_t i, n = 0;

	for (i = 0; i < m->n; i++)
		n += m->p[i].live;
	return n;
}

static size_t m_stock(const struct model *m)
{
	size_t i, n = 0;

	for (i = 0; i < m->n; i++)
		n += m->p[i].stock;
	return n;
}

/* Each given-up TSN counts once: only TSNs above the highest counted. */
static bool m_gone_count(struct model *m, u32 tsn)
{
	if (m->gone_marked && !before(m->gone_mark, tsn))
		return false;
	m->gone_marked = true;
	m->gone_mark = tsn;
	if (m->guard_gone >= m->guard_sent)
		return false;
	m->guard_gone++;
	return true;
}

/* Given up and counted: remembered for a dup report to take back. */
static void m_gone(struct model *m, u32 tsn)
{
	if (!m_gone_count(m, tsn))
		return;
	/* the last SCTP_THIN_GUARD_RECENT counted TSNs, undone or not */
	if (m->nrecent == SCTP_THIN_GUARD_RECENT) {
		memmove(m->recent, m->recent + 1,
			(m->nrecent - 1) * sizeof(m->recent[0]));
		memmove(m->recent_ok, m->recent_ok + 1,
			(m->nrecent - 1) * sizeof(m->recent_ok[0]));
		m->nrecent--;
	}
	m->recent[m->nrecent] = tsn;
	m->recent_ok[m->nrecent++] = true;
}

/* A counted TSN the guard still remembers: forget it; true if it did. */
static bool m_recent_take(struct model *m, u32 tsn)
{
	size_t i;

	for (i = 0; i < m->nrecent; i++) {
		if (!m->recent_ok[i] || m->recent[i] != tsn)
			continue;
		m->recent_ok[i] = false;
		return true;
	}
	return false;
}

void pair_resent(struct pair *t, u32 tsn)
{
	size_t i;

	sctp_thin_core_resent(&t->core, tsn);
	for (i = 0; i < t->m.nrecent; i++)
		if (t->m.recent[i] == tsn)
			t->m.recent_ok[i] = false;
}

/* A copy repaired the loss of @tsn (RDB, the tail probe): one loss for
 * the estimate; for the guard a TSN it still remembers stays counted (and
 * is no longer a dup report's to take back), any other counts once.
 */
void pair_repaired(struct pair *t, u32 tsn)
{
	struct model *m = &t->m;

	sctp_thin_core_repaired(&t->core, tsn);
	m->lost++;
	if (m->win_lost < m->win_sent)
		m->win_lost++;
	if (!m_recent_take(m, tsn))
		m_gone_count(m, tsn);	/* not for dup reports: see the core */
}

static void pair_fail(struct pair *t, const char *why)
{
	if (!t->failures)
		t->why = why;
	t->failures++;
}

/* A dup report takes back the count of a TSN it still remembers, once. */
bool pair_dup(struct pair *t, u32 tsn)
{
	struct model *m = &t->m;
	bool got = sctp_thin_core_dup(&t->core, tsn);
	bool want = m_recent_take(m, tsn);

	if (want) {
		if (m->guard_gone)
			m->guard_gone--;
		m->undone++;
	}
	if (got != want) {
		t->why = "dup report: core and model disagree";
		t->failures++;
	}
	return got;
}

void pair_guard(struct pair *t, u32 guard)
{
	t->core.guard = guard;
}

void pair_init(struct pair *t)
{
	memset(t, 0, sizeof(*t));
	sctp_thin_core_init(&t->core, &shim_mem);
	t->now_us = 0xfff00000u;	/* wraps within the run */
	t->app_limited = true;
	t->m.thin = true;	/* nothing in flight */
}

void pair_fini(struct pair *t)
{
	sctp_thin_core_destroy(&t->core);
	free(t->m.p);
	t->m.p = NULL;
}

void pair_sent(struct pair *t, u32 tsn, const void *tp, bool fail_alloc)
{
	struct model *m = &t->m;
	bool grow, rtx;

	t->now += 1 + (t->steps % 7);
	/* Nothing recorded since the last step: the core freed a ring grown
	 * past its first size (sctp_thin_shrink()); the next packet starts
	 * a small one.
	 */
	if (!m_live(m) && !m_stock(m) && m->size > SCTP_THIN_MIN_SLOTS)
		m->size = 0;
	/* the core allocates exactly when the model says it grows */
	grow = !m->saturated && m_live(m) + m_stock(m) == m->size &&
	       (m->size ? m->size * 2 : SCTP_THIN_MIN_SLOTS) <= SCTP_THIN_MAX_SLOTS;
	shim_fail_next = grow && fail_alloc;
	t->now_us += 1 + (t->steps % 13) * 977;
	sctp_thin_core_clock(&t->core, t->now_us);
	sctp_thin_core_sent(&t->core, tsn, t->now, tp, GFP_ATOMIC);
	shim_fail_next = false;

	rtx = m->highest_valid && !before(m->highest, tsn);
	if (!rtx) {
		m->highest = tsn;
		m->highest_valid = true;
	} else {
		size_t i;

		for (i = 0; i < m->n; i++)	/* superseded by this rtx */
			if (m->p[i].live && m->p[i].tsn == tsn) {
				m->p[i].live = false;
				m_gone(m, tsn);
			}
	}
	m->sent++;
	if (++m->win_sent > SCTP_THIN_LOSS_WINDOW) {
		m->win_sent /= 2;
		m->win_lost /= 2;
	}
	if (++m->guard_sent > SCTP_THIN_GUARD_WINDOW) {
		m->guard_sent /= 2;
		m->guard_gone /= 2;
	}
	if (m->saturated)
		return;
	if (m_live(m) + m_stock(m) == m->size) {
		u32 ns = m->size ? m->size * 2 : SCTP_THIN_MIN_SLOTS;

		if (ns > SCTP_THIN_MAX_SLOTS || fail_alloc) {
			m->saturated = true;
			return;
		}
		m->size = ns;
	}
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 64;
		m->p = realloc(m->p, m->cap * sizeof(*m->p));
	}
	m->p[m->n++] = (struct mpkt){ tsn, t->now, tp, 0, true, false,
				      t->now_us, rtx };
}

static bool m_acked(u32 tsn, u32 cum, const struct sctp_thin_gap *g,
		    unsigned int n)
{
	unsigned int i;

	if (!before(cum, tsn))
		return true;
	for (i = 0; i < n; i++)
		if (g[i].start && g[i].start <= g[i].end &&
		    !before(tsn, cum + g[i].start) &&
		    !before(cum + g[i].end, tsn))
			return true;
	return false;
}

/* The SACK acked a packet sent on @tp: remember the path, once. */
static void m_note_acked(struct model *m, const void *tp)
{
	size_t i;

	for (i = 0; i < m->nacked; i++)
		if (m->acked[i] == tp)
			return;
	if (m->nacked <= MODEL_PATHS)
		m->acked[m->nacked++] = tp;
	else
		m->acked_all = true;	/* more paths than the checker asks */
}

/* The SACK acked a packet of @tp given up early. */
static void m_note_stock(struct model *m, const struct mpkt *p)
{
	size_t i;

	for (i = 0; i < m->nstock; i++)
		if (m->stock_tp[i] == p->tp)
			break;
	if (i == m->nstock) {
		if (m->nstock > MODEL_PATHS)
			return;
		m->stock_tp[m->nstock++] = p->tp;
		m->stock_old[i] = p->sent;
		m->stock_new[i] = p->sent;
		return;
	}
	if ((long)(p->sent - m->stock_old[i]) < 0)
		m->stock_old[i] = p->sent;
	if ((long)(p->sent - m->stock_new[i]) > 0)
		m->stock_new[i] = p->sent;
}

/* sctp_thin_core_stock_acked() by definition: the times of the first
 * SCTP_THIN_ACKED_PATHS paths, "acked" for any path past them.
 */
static int m_stock_acked(const struct model *m, const void *tp,
			 unsigned long *old, unsigned long *new)
{
	size_t i;

	for (i = 0; i < m->nstock && i < SCTP_THIN_ACKED_PATHS; i++)
		if (m->stock_tp[i] == tp) {
			*old = m->stock_old[i];
			*new = m->stock_new[i];
			return SCTP_THIN_STOCK_TIMED;
		}
	return m->nstock > SCTP_THIN_ACKED_PATHS ? SCTP_THIN_STOCK_ACKED :
						   SCTP_THIN_STOCK_NONE;
}

/* Did the last SACK ack a packet of @tp?  Every path, when the core
 * cannot tell: more paths than it remembers, or a saturated list.
 */
static bool m_acked_path(const struct model *m, const void *tp)
{
	size_t i;

	if (m->acked_all || m->nacked > SCTP_THIN_ACKED_PATHS)
		return true;
	for (i = 0; i < m->nacked; i++)
		if (m->acked[i] == tp)
			return true;
	return false;
}

/* RFC 8985 6.2 step 5 by definition, for TSN @tsn on path @tp: the live
 * packet on @tp with the smallest highest TSN not below @tsn; lost when
 * sent before RACK.xmit_ts and at least RACK.rtt + @reo ago.
 */
static int m_rack(const struct pair *t, u32 tsn, const void *tp,
		  const struct mrack *r, u32 reo, u32 *wait)
{
	const struct mpkt *b = NULL;
	s32 age;
	size_t i;

	for (i = 0; i < t->m.n; i++)
		if (t->m.p[i].live && t->m.p[i].tp == tp &&
		    !before(t->m.p[i].tsn, tsn) &&
		    (!b || before(t->m.p[i].tsn, b->tsn)))
			b = &t->m.p[i];
	if (!b)
		return SCTP_THIN_RACK_UNKNOWN;
	if (!r->valid || (s32)(r->xmit - b->sent_us) <= 0)
		return SCTP_THIN_RACK_NOT_LOST;
	age = (s32)(t->now_us - b->sent_us);
	if (age >= (s32)(r->rtt + reo))
		return SCTP_THIN_RACK_LOST;
	*wait = r->rtt + reo - age;
	return SCTP_THIN_RACK_WAIT;
}

/* After a SACK: per path, the newest acked first transmission (@mx,
 * @mok: the model's, by position in m->acked), RACK.xmit_ts and RACK.rtt
 * against the core's, then the verdict on the two oldest live packets
 * and the newest (a TSN a little below each, too).
 */
static void pair_rack(struct pair *t, const u32 *mx, const bool *mok)
{
	struct model *m = &t->m;
	u32 x = 0, w1 = 0, w2 = 0, reo = (t->steps % 5) * 1000;
	const struct mpkt *q[3] = { NULL };
	size_t i, j, k, nq = 0;
	int v1, v2;
	bool got;

	for (j = 0; j <= MODEL_PATHS; j++) {
		const void *tp = &model_paths[j];
		struct mrack *r = &t->mrk[j];

		for (k = 0; k < m->nacked && m->acked[k] != tp; k++)
			;
		got = sctp_thin_core_acked_xmit(&t->core, tp, &x);
		if (got != (k < SCTP_THIN_ACKED_PATHS && mok[k]) ||
		    (got && x != mx[k])) {
			pair_fail(t, "RACK: newest acked send time differs");
			return;
		}
		if (!got)
			continue;
		sctp_thin_rack_advance(&t->rack[j], x, t->now_us);
		if (!r->valid || (s32)(x - r->xmit) > 0) {
			r->xmit = x;
			r->rtt = t->now_us - x ? t->now_us - x : 1;
			r->valid = true;
		}
		if (t->rack[j].valid != r->valid ||
		    t->rack[j].xmit_us != r->xmit || t->rack[j].rtt_us != r->rtt)
			pair_fail(t, "RACK.xmit_ts or RACK.rtt differs");
	}
	for (i = 0; i < m->n; i++) {
		if (!m->p[i].live)
			continue;
		if (nq == 3)
			q[2] = &m->p[i];
		else
			q[nq++] = &m->p[i];
	}
	for (i = 0; i < nq; i++) {
		u32 tsn = q[i]->tsn - (t->steps + i) % 3;

		j = (const int *)q[i]->tp - model_paths;
		v1 = sctp_thin_core_rack(&t->core, tsn, q[i]->tp, &t->rack[j],
					 reo, &w1);
		v2 = m_rack(t, tsn, q[i]->tp, &t->mrk[j], reo, &w2);
		t->rack_checks++;
		t->rack_lost += v2 == SCTP_THIN_RACK_LOST;
		if (v1 != v2 || (v1 == SCTP_THIN_RACK_WAIT && w1 != w2))
			pair_fail(t, "RACK verdict differs from the model");
	}
}

void pair_sack(struct pair *t, u32 cum, const struct sctp_thin_gap *g,
	       unsigned int n)
{
	struct model *m = &t->m;
	bool mok[MODEL_PATHS + 1] = { false }, have = false;
	u32 htna = 0, rtt = 0, mx[MODEL_PATHS + 1] = { 0 };
	const void *rtt_tp = NULL;
	size_t i, k;

	t->now_us += t->steps % 2 ? 0 : 1 + (t->steps % 11) * 3001;
	sctp_thin_core_clock(&t->core, t->now_us);
	sctp_thin_core_sack(&t->core, cum, g, n);
	m->nacked = 0;
	m->acked_all = false;
	m->nstock = 0;
	if (!m->highest_valid) {
		if (t->core.rtt_us)
			pair_fail(t, "RTT sample with nothing recorded");
		return;		/* nothing sent since the start or a purge */
	}
	for (i = 0; i < m->n; i++) {
		if (m->p[i].stock && m_acked(m->p[i].tsn, cum, g, n)) {
			m->p[i].stock = false;
			m_note_stock(m, &m->p[i]);
			continue;
		}
		if (!m->p[i].live || !m_acked(m->p[i].tsn, cum, g, n))
			continue;
		m->p[i].live = false;
		m_note_acked(m, m->p[i].tp);
		/* RACK: the newest first transmission acked per path, for
		 * the first SCTP_THIN_ACKED_PATHS paths the SACK acked
		 */
		for (k = 0; k < m->nacked && m->acked[k] != m->p[i].tp; k++)
			;
		if (!m->p[i].rtx && k < SCTP_THIN_ACKED_PATHS) {
			mx[k] = m->p[i].sent_us;
			mok[k] = true;
		}
		/* Karn: first transmissions only; the newest acked one */
		if (!m->p[i].rtx) {
			rtt = t->now_us - m->p[i].sent_us;
			rtt = rtt ? rtt : 1;
			rtt_tp = m->p[i].tp;
		}
		if (!have || before(htna, m->p[i].tsn))
			htna = m->p[i].tsn;
		have = true;
	}
	for (i = 0; have && i < m->n; i++) {
		if (!m->p[i].live || !before(m->p[i].tsn, htna))
			continue;
		if (++m->p[i].misses >= SCTP_THIN_PTTFR) {
			m->p[i].live = false;
			m_gone(m, m->p[i].tsn);
			m->lost++;
			if (m->win_lost < m->win_sent)
				m->win_lost++;
		}
	}
	if (t->core.rtt_us != rtt || (rtt && t->core.rtt_tp != rtt_tp))
		pair_fail(t, "RTT sample differs from the model");
	if (m->gone_marked && !before(cum, m->gone_mark))
		m->gone_marked = false;
	if (!before(cum, m->highest)) {
		if (m->saturated)
			m->acked_all = true;	/* unrecorded packets acked */
		m->n = 0;
		m->saturated = false;
	}
	/* forget dead packets now and then */
	for (i = 0, k = 0; i < m->n; i++)
		if (m->p[i].live || m->p[i].stock)
			m->p[k++] = m->p[i];
	m->n = k;
	pair_rack(t, mx, mok);
}

void pair_purge(struct pair *t, const void *tp)
{
	size_t i;

	sctp_thin_core_purge_transport(&t->core, tp);
	for (i = 0; i < t->m.n; i++)
		if (t->m.p[i].tp == tp) {
			t->m.p[i].live = false;
			t->m.p[i].stock = false;
		}
}

/* Forget every packet and TSN; the loss and guard windows, the lifetime
 * counters, the ring's size and the detection stay.
 */
static void m_forget(struct model *m)
{
	m->n = 0;
	m->saturated = false;
	m->highest_valid = false;
	m->gone_marked = false;
	m->nrecent = 0;
	m->nacked = 0;
	m->acked_all = false;
	m->nstock = 0;
}

void pair_purge_all(struct pair *t)
{
	sctp_thin_core_purge(&t->core);
	m_forget(&t->m);
}

void pair_resync(struct pair *t, u32 highest, bool outstanding)
{
	sctp_thin_core_resync(&t->core, highest, outstanding);
	m_forget(&t->m);
	t->m.highest = highest;
	t->m.highest_valid = true;
	t->m.saturated = outstanding;	/* their count is unknown */
}

void pair_timeout(struct pair *t, const void *tp, bool early)
{
	size_t i;

	sctp_thin_core_timeout(&t->core, tp, early);
	/* every packet of the path counts as given up; early, each stays
	 * stock's until acked; else stock gave up the early ones too
	 */
	for (i = 0; i < t->m.n; i++) {
		if (t->m.p[i].tp != tp)
			continue;
		if (t->m.p[i].stock && !early)
			t->m.p[i].stock = false;
		if (!t->m.p[i].live)
			continue;
		t->m.p[i].live = false;
		t->m.p[i].stock = early;
		m_gone(&t->m, t->m.p[i].tsn);
	}
}

static bool fail(struct pair *t, const char *msg)
{
	t->why = msg;
	t->failures++;
	return false;
}

bool pair_check(struct pair *t)
{
	const struct sctp_thin_core *c = &t->core;
	struct model *m = &t->m;
	const struct mpkt *oldest[MODEL_PATHS + 1];
	u32 q, cnt, count[MODEL_PATHS + 1];
	double lr, thr, live, gr, g;
	bool thin, lest, got, may_thin;
	size_t i, j;

	t->steps++;
	if (t->failures)
		return false;	/* t->why says where (pair_dup) */
	if (c->in_flight != m_live(m))
		return fail(t, "in_flight != live packets of the model");
	if (c->stock != m_stock(m))
		return fail(t, "packets given up early differ from the model");
	if (c->pkts_lost != m->lost || c->pkts_sent != m->sent)
		return fail(t, "lost/sent counters differ from the model");
	if (c->saturated != m->saturated)
		return fail(t, "saturated differs from the model");
	if (c->highest_valid != m->highest_valid ||
	    (m->highest_valid && c->highest_sent != m->highest))
		return fail(t, "highest TSN sent differs from the model");
	if (c->used > c->size || c->size > SCTP_THIN_MAX_SLOTS ||
	    (c->size & (c->size - 1)) || c->in_flight > c->used)
		return fail(t, "ring bounds");
	if (!m->saturated && c->size != m->size && c->used)
		return fail(t, "ring size differs from the model");
	if (c->win_lost > c->win_sent || c->win_sent > SCTP_THIN_LOSS_WINDOW ||
	    c->win_sent != m->win_sent || c->win_lost != m->win_lost)
		return fail(t, "loss window");
	if (c->guard_gone > c->guard_sent || c->guard_sent > SCTP_THIN_GUARD_WINDOW ||
	    c->guard_gone != m->guard_gone || c->guard_sent != m->guard_sent ||
	    c->gone_marked != m->gone_marked ||
	    (m->gone_marked && c->gone_mark != m->gone_mark))
		return fail(t, "congestion guard window");
	if (c->guard_undone != m->undone)
		return fail(t, "guard: counts undone differ from the model");
	/* no TSN counted since the start or a purge: none to take back */
	if (!m->nrecent && c->recent_valid)
		return fail(t, "guard: remembers TSNs from before a purge");
	q = sctp_thin_core_lossrate(c);
	if (q > SCTP_THIN_ONE)
		return fail(t, "lossrate > 1");
	/* the live packets, in send order, are the model's */
	for (i = 0, j = 0; i < c->used; i++) {
		const struct sctp_thin_pkt *p =
			&c->ring[(c->head + i) & (c->size - 1)];

		if (p->state == SCTP_THIN_PKT_DEAD)
			continue;
		while (j < m->n && !m->p[j].live && !m->p[j].stock)
			j++;
		if (j == m->n || p->tsn != m->p[j].tsn ||
		    p->sent != m->p[j].sent || p->transport != m->p[j].tp ||
		    p->misses != m->p[j].misses ||
		    m->p[j].stock != !!(p->state == SCTP_THIN_PKT_STOCK))
			return fail(t, "live packet differs from the model");
		j++;
	}
	/* per path: oldest packet, packets in flight, acked by the last SACK */
	memset(oldest, 0, sizeof(oldest));
	memset(count, 0, sizeof(count));
	for (j = 0; j < m->n; j++) {
		if (!m->p[j].live)
			continue;
		for (i = 0; i <= MODEL_PATHS; i++)
			if (m->p[j].tp == &model_paths[i] && !count[i]++)
				oldest[i] = &m->p[j];
	}
	for (i = 0; i <= MODEL_PATHS; i++) {
		const void *tp = &model_paths[i];
		const struct sctp_thin_pkt *p;
		const struct mpkt *mp = oldest[i];

		cnt = ~0u;
		p = sctp_thin_core_oldest(c, tp, &cnt);
		if (!p != !mp || (p && (p->tsn != mp->tsn || p->sent != mp->sent)))
			return fail(t, "oldest() differs from the model");
		if (sctp_thin_core_oldest(c, tp, NULL) != p)
			return fail(t, "oldest() differs with and without a count");
		if (cnt != count[i])
			return fail(t, "oldest(): packets on the path differ from the model");
		if (sctp_thin_core_acked_path(c, tp) != m_acked_path(m, tp))
			return fail(t, "acked_path() differs from the model");
		{
			unsigned long co = 0, cn = 0, mo = 0, mn = 0;
			int cs = sctp_thin_core_stock_acked(c, tp, &co, &cn);

			if (cs != m_stock_acked(m, tp, &mo, &mn) ||
			    (cs == SCTP_THIN_STOCK_TIMED &&
			     (co != mo || cn != mn)))
				return fail(t, "stock_acked() differs from the model");
		}
	}
	/* detection, Fig. 3, in floating point with the same clamp */
	for (lest = false; ; lest = true) {
		/* Congestion guard: share of TSNs given up, with
		 * hysteresis, judged on every update, application-limited
		 * or not (SCTP_THIN_STATE_CONGESTED stays current).
		 */
		gr = m->guard_sent ? (double)m->guard_gone / m->guard_sent : 0;
		g = (double)c->guard / SCTP_THIN_ONE;
		if (!c->guard || m->sent < SCTP_THIN_GUARD_MIN)
			m->congested = false;
		else if (m->congested)
			m->congested = gr > 0.75 * g;
		else
			m->congested = gr > g;
		lr = lest && m->win_sent ? (double)m->win_lost / m->win_sent : 0;
		if (lr > 0.75)
			lr = 0.75;
		thr = (SCTP_THIN_PTTFR + 1) / (1 - lr);
		live = m_live(m);
		/* thin only while application-limited (ours, see the core) */
		may_thin = t->app_limited && !m->congested && !m->saturated;
		thin = may_thin && live < thr;
		got = sctp_thin_core_update(&t->core, lest, t->app_limited);
		if (c->congested != m->congested)
			return fail(t, "congestion guard differs from the model");
		if (!t->app_limited && got)
			return fail(t, "thin while not application-limited");
		/* The guard's ratios are exact in double (a tie is an exact
		 * equality on both sides); the formula's are not: skip ties.
		 */
		if (may_thin && fabs(live - thr) <= 0.001)
			thin = got;
		if (got != thin)
			return fail(t, "thin detection differs from the formula");
		if (thin != m->thin)
			m->transitions++;
		m->thin = thin;
		if (c->thin != m->thin || c->transitions != m->transitions)
			return fail(t, "thin: state or transitions differ from the model");
		if (lest)
			break;
	}
	return true;
}

/* RDB: sctp_thin_rdb_choose() against a brute-force reference.  The
 * reference walks the history newest first for the (maxp + 1)-th packet
 * on @tp (the floor), takes the candidates under the packet's AUTH key
 * @key, neither acked nor gone, below
 * @first_new and above the floor, in TSN order, and keeps the longest run from the oldest that fits
 * in @room.  Returns NULL or what differs.
 */
static int tsn_cmp(const void *a, const void *b)
{
	const struct sctp_thin_rdb_cand *x = a, *y = b;

	return (s32)(x->tsn - y->tsn) < 0 ? -1 : x->tsn != y->tsn;
}

const char *model_rdb_choose(const struct sctp_thin_rdb *r,
			     const struct sctp_thin_rdb_cand *in,
			     unsigned int n, const void *tp, const void *key,
			     u32 first_new, u32 maxp, u32 room)
{
	struct sctp_thin_rdb_cand got[SCTP_THIN_RDB_SCAN];
	struct sctp_thin_rdb_cand want[SCTP_THIN_RDB_SCAN];
	u32 floor = 0, bytes, total = 0, seen = 0;
	bool has_floor = false, stop = false;
	unsigned int i, k, picks = 0;
	int j;

	if (n > SCTP_THIN_RDB_SCAN)
		n = SCTP_THIN_RDB_SCAN;
	memcpy(got, in, n * sizeof(*in));
	memcpy(want, in, n * sizeof(*in));
	k = sctp_thin_rdb_choose(r, got, n, tp, key, first_new, maxp, room,
				 &bytes);
	for (j = 0; j < r->hist_used && !has_floor; j++) {
		int s = ((int)r->hist_next - 1 - j + 2 * SCTP_THIN_RDB_HISTORY) %
			SCTP_THIN_RDB_HISTORY;

		if (r->hist_tp[s] == tp && seen++ == maxp) {
			floor = r->hist_tsn[s];
			has_floor = true;
		}
	}
	/* TSNs of the candidates are distinct and within 2^31 of each other
	 * (the callers make them so): qsort's order is the serial order.
	 */
	qsort(want, n, sizeof(*want), tsn_cmp);
	for (i = 0; i < n; i++) {
		bool ok = want[i].key == key && !want[i].acked && !want[i].gone &&
			  (s32)(want[i].tsn - first_new) < 0 &&
			  (!has_floor || (s32)(floor - want[i].tsn) < 0);

		want[i].pick = false;
		if (!ok || stop)
			continue;
		if (total + want[i].len > room) {
			stop = true;
			continue;
		}
		want[i].pick = true;
		total += want[i].len;
		picks++;
	}
	if (k != picks || bytes != total)
		return "rdb: count or bytes differ from the reference";
	for (i = 0; i < n; i++) {
		if (got[i].tsn != want[i].tsn)
			return "rdb: candidates not sorted by TSN";
		if (got[i].pick != want[i].pick)
			return "rdb: a different chunk picked";
	}
	if (total > room)
		return "rdb: bundle larger than the room";
	return NULL;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* thin-sctp: retransmission latency mechanisms for thin streams.
 *
 * Petlund et al., "Improving SCTP retransmission delays for
 * time-dependent thin streams", Multimedia Tools and Applications, 2009.
 * Section numbers refer to that paper unless an RFC is named.
 *
 * This file holds the glue between lksctp and the core logic of
 * thin_core.c: per-netns sysctls (net.sctp.thin_*), the SCTP_THIN and
 * SCTP_THIN_INFO socket options, /proc/net/sctp/thin, tracepoints and the
 * bodies of the hooks declared in <net/sctp/thin_hooks.h>.
 *
 * Locking: every hook runs under the socket lock of the association (or
 * in softirq context with the socket owned-check done by lksctp), as the
 * rest of the outqueue code does.  /proc readers take no lock and read
 * counters only, like /proc/net/sctp/assocs.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/sctp/sctp.h>
#include <net/sctp/sm.h>
#include <net/sctp/thin.h>
#include <net/sctp/thin_compat.h>

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

static void *sctp_thin_alloc(size_t size, gfp_t gfp)
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

/* Per-netns settings: net.sctp.thin_*.  They are the defaults of new
 * sockets; the SCTP_THIN socket option overrides them (7.3).
 */
struct sctp_thin_net {
	struct net *net;
	struct ctl_table_header *sysctl;
	int rto_min;		/* ms, 0 = off */
	int restart_timer;
	int linear_timeouts;
	int linear_timeouts_max;
	int fast_retransmit;
	int loss_estimation;
	int congestion_guard;	/* percent, 0 = off */
	int sack_immediately;
	int rdb;
	int rdb_max_bytes;	/* 0 = MTU-bound */
	int rdb_max_packets;
	/* Bounds for sockets without CAP_NET_ADMIN over the netns. */
	int rto_min_floor;	/* ms: lowest stp_rto_min */
	int lt_ceiling;		/* highest stp_linear_timeouts_max */
	int guard_required;	/* the congestion guard cannot be dropped */
};

static unsigned int sctp_thin_net_id __read_mostly;

static struct sctp_thin_net *sctp_thin_pernet(const struct net *net)
{
	return net_generic(net, sctp_thin_net_id);
}

#ifdef CONFIG_SYSCTL
static int sctp_thin_lt_max_limit = SCTP_THIN_LT_MAX_LIMIT;
static int sctp_thin_rdb_bytes_limit = SCTP_THIN_RDB_MAX_BYTES_LIMIT;
static int sctp_thin_rdb_packets_limit = SCTP_THIN_RDB_MAX_PACKETS;

/* thin_rto_min: 0 (off) or 1 .. net.sctp.rto_max; anything else is
 * -EINVAL and leaves the value unchanged.
 */
static int sctp_thin_proc_rto_min(SCTP_THIN_CTL_CONST struct ctl_table *ctl,
				  int write, void *buffer, size_t *lenp,
				  loff_t *ppos)
{
	struct sctp_thin_net *tn = container_of(ctl->data, struct sctp_thin_net,
						rto_min);
	unsigned int max = tn->net->sctp.rto_max;
	struct ctl_table tbl;
	int new_value, ret;

	memset(&tbl, 0, sizeof(tbl));
	tbl.maxlen = sizeof(unsigned int);
	tbl.data = write ? &new_value : &tn->rto_min;
	tbl.extra1 = SYSCTL_ZERO;
	tbl.extra2 = &max;

	ret = proc_dointvec_minmax(&tbl, write, buffer, lenp, ppos);
	if (write && ret == 0)
		tn->rto_min = new_value;
	return ret;
}

static const struct ctl_table sctp_thin_sysctl_template[] = {
	{
		.procname	= "thin_rto_min",
		.data		= NULL,	/* &tn->rto_min, set per netns */
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= sctp_thin_proc_rto_min,
	},
	{
		.procname	= "thin_restart_timer",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{
		.procname	= "thin_linear_timeouts",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{
		.procname	= "thin_linear_timeouts_max",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ONE,
		.extra2		= &sctp_thin_lt_max_limit,
	},
	{
		.procname	= "thin_fast_retransmit",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{
		.procname	= "thin_loss_estimation",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{
		.procname	= "thin_congestion_guard",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE_HUNDRED,
	},
	{
		.procname	= "thin_sack_immediately",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{
		.procname	= "thin_rdb",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{
		.procname	= "thin_rdb_max_bytes",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &sctp_thin_rdb_bytes_limit,
	},
	{
		.procname	= "thin_rdb_max_packets",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ONE,
		.extra2		= &sctp_thin_rdb_packets_limit,
	},
	{
		.procname	= "thin_rto_min_floor",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_INT_MAX,
	},
	{
		.procname	= "thin_linear_timeouts_ceiling",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &sctp_thin_lt_max_limit,
	},
	{
		.procname	= "thin_congestion_guard_required",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{ }
};

static int sctp_thin_sysctl_register(struct sctp_thin_net *tn)
{
	struct ctl_table *tbl;
	size_t n;

	tbl = kmemdup(sctp_thin_sysctl_template,
		      sizeof(sctp_thin_sysctl_template), GFP_KERNEL);
	if (!tbl)
		return -ENOMEM;
	tbl[0].data = &tn->rto_min;
	tbl[1].data = &tn->restart_timer;
	tbl[2].data = &tn->linear_timeouts;
	tbl[3].data = &tn->linear_timeouts_max;
	tbl[4].data = &tn->fast_retransmit;
	tbl[5].data = &tn->loss_estimation;
	tbl[6].data = &tn->congestion_guard;
	tbl[7].data = &tn->sack_immediately;
	tbl[8].data = &tn->rdb;
	tbl[9].data = &tn->rdb_max_bytes;
	tbl[10].data = &tn->rdb_max_packets;
	tbl[11].data = &tn->rto_min_floor;
	tbl[12].data = &tn->lt_ceiling;
	tbl[13].data = &tn->guard_required;

	/* All entries but the terminating empty one. */
	n = ARRAY_SIZE(sctp_thin_sysctl_template) - 1;
	tn->sysctl = sctp_thin_register_net_sysctl(tn->net, "net/sctp",
						   tbl, n);
	if (!tn->sysctl) {
		kfree(tbl);
		return -ENOMEM;
	}
	return 0;
}

static void sctp_thin_sysctl_unregister(struct sctp_thin_net *tn)
{
	const struct ctl_table *tbl;

	if (!tn->sysctl)
		return;
	tbl = tn->sysctl->ctl_table_arg;
	unregister_net_sysctl_table(tn->sysctl);
	kfree(tbl);
}
#else
static int sctp_thin_sysctl_register(struct sctp_thin_net *tn)
{
	return 0;
}

static void sctp_thin_sysctl_unregister(struct sctp_thin_net *tn)
{
}
#endif

static int __net_init sctp_thin_net_init(struct net *net)
{
	struct sctp_thin_net *tn = sctp_thin_pernet(net);

	/* Every mechanism off by default; loss estimation on, so that
	 * switching a mechanism on gets the paper's detection (5.1), and
	 * the congestion guard on, so that it stays fair (7.4).
	 */
	tn->net = net;
	tn->rto_min = 0;
	tn->restart_timer = 0;
	tn->linear_timeouts = 0;
	tn->linear_timeouts_max = SCTP_THIN_LT_MAX_DEFAULT;
	tn->fast_retransmit = 0;
	tn->loss_estimation = 1;
	tn->congestion_guard = SCTP_THIN_GUARD_DEFAULT;
	tn->sack_immediately = 0;
	tn->rdb = 0;
	tn->rdb_max_bytes = 0;
	tn->rdb_max_packets = 1;	/* as tcp_rdb_max_packets */
	tn->rto_min_floor = SCTP_THIN_RTO_MIN_FLOOR_DEFAULT;
	tn->lt_ceiling = SCTP_THIN_LT_CEILING_DEFAULT;
	tn->guard_required = 1;
	return sctp_thin_sysctl_register(tn);
}

static void __net_exit sctp_thin_net_exit(struct net *net)
{
	sctp_thin_sysctl_unregister(sctp_thin_pernet(net));
}

static struct pernet_operations sctp_thin_net_ops = {
	.init = sctp_thin_net_init,
	.exit = sctp_thin_net_exit,
	.id   = &sctp_thin_net_id,
	.size = sizeof(struct sctp_thin_net),
};

/* Socket defaults from the netns sysctls. */
void sctp_thin_sock_init(struct sock *sk)
{
	struct sctp_thin_net *tn = sctp_thin_pernet(sock_net(sk));
	struct sctp_thin_conf *conf = &sctp_sk(sk)->thin_conf;

	conf->flags = 0;
	if (tn->rto_min)
		conf->flags |= SCTP_THIN_RTO_MIN;
	if (tn->restart_timer)
		conf->flags |= SCTP_THIN_RESTART_TIMER;
	if (tn->linear_timeouts)
		conf->flags |= SCTP_THIN_LINEAR_TIMEOUTS;
	if (tn->fast_retransmit)
		conf->flags |= SCTP_THIN_FAST_RETRANSMIT;
	if (tn->loss_estimation)
		conf->flags |= SCTP_THIN_LOSS_ESTIMATION;
	if (tn->congestion_guard)
		conf->flags |= SCTP_THIN_CONGESTION_GUARD;
	if (tn->sack_immediately)
		conf->flags |= SCTP_THIN_SACK_IMMEDIATELY;
	if (tn->rdb)
		conf->flags |= SCTP_THIN_RDB;
	conf->rdb_max_bytes = tn->rdb_max_bytes;
	conf->rdb_max_packets = tn->rdb_max_packets;
	conf->rto_min = tn->rto_min ? : SCTP_THIN_RTO_MIN_DEFAULT;
	conf->lt_max = tn->linear_timeouts_max;
	conf->guard = (tn->congestion_guard ? : SCTP_THIN_GUARD_DEFAULT) *
		      SCTP_THIN_ONE / 100;
}

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
static void sctp_thin_paths_reset(struct sctp_association *asoc)
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
		memset(&pt->rdb_gate, 0, sizeof(pt->rdb_gate));
	}
}

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
	ta->progress = jiffies;
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

static struct sctp_thin_assoc *sctp_thin_assoc_alloc(gfp_t gfp)
{
	struct sctp_thin_assoc *ta;

	ta = sctp_thin_alloc(sizeof(*ta), gfp);
	if (!ta)
		return NULL;
	memset(ta, 0, sizeof(*ta));
	sctp_thin_core_init(&ta->core, &sctp_thin_mem);
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
	struct sctp_thin_assoc *ta = sctp_thin_assoc_alloc(gfp);

	if (!ta) {
		asoc->thin_conf.flags &= ~SCTP_THIN_MECHANISMS;
		return false;
	}
	sctp_thin_resync(asoc, ta, lo - 1,
			 TSN_lt(asoc->ctsn_ack_point, lo - 1));
	WRITE_ONCE(asoc->thin, ta);
	return true;
}

/* Apply new settings to a live association.  Switching every mechanism
 * off drops the packet list (no bookkeeping is left on the packet path)
 * and gives every path stock's RTO back, but keeps the counters for
 * SCTP_THIN_INFO.
 */
static int sctp_thin_assoc_set(struct sctp_association *asoc,
			       const struct sctp_thin_conf *conf)
{
	struct sctp_thin_assoc *ta = asoc->thin;
	bool was_on = asoc->thin_conf.flags & SCTP_THIN_MECHANISMS;

	if (conf->flags & SCTP_THIN_MECHANISMS) {
		/* Off -> on: nothing was recorded meanwhile, and the TSNs
		 * moved on: resynchronise (thick till drained).
		 */
		if (!ta) {
			ta = sctp_thin_assoc_alloc(GFP_KERNEL);
			if (!ta)
				return -ENOMEM;	/* settings unchanged */
			sctp_thin_resync_now(asoc, ta);
			WRITE_ONCE(asoc->thin, ta);
		} else if (!was_on) {
			sctp_thin_resync_now(asoc, ta);
		}
		asoc->thin_conf = *conf;
		return 0;
	}
	asoc->thin_conf = *conf;
	if (ta) {
		struct sctp_thin_core keep = ta->core;

		sctp_thin_core_destroy(&ta->core);
		sctp_thin_core_init(&ta->core, &sctp_thin_mem);
		ta->core.pkts_sent = keep.pkts_sent;
		ta->core.pkts_lost = keep.pkts_lost;
		ta->core.transitions = keep.transitions;
		ta->core.thin = false;
		sctp_thin_rdb_reset(&ta->rdb);
		sctp_thin_paths_reset(asoc);
	}
	return 0;
}

/* Is the association thin now, with mechanism @m switched on? */
static bool sctp_thin_on(const struct sctp_association *asoc, u32 m)
{
	return (asoc->thin_conf.flags & m) && asoc->thin->core.thin;
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

/* Hysteresis: once its new data was held back, a sender stays not
 * application-limited until everything it sent is acked
 * (__sctp_thin_sack()).  A bulk sender whose application briefly falls
 * behind (measured: one RFC 7765 correction in a 2000-message transfer
 * in a busy guest) keeps packets in flight and stays bulk; a thin stream
 * drains between its messages.  Retransmissions waiting count only while
 * they wait: at 32 % loss a thin stream has some often.
 */
static void sctp_thin_update(struct sctp_association *asoc,
			     struct sctp_thin_assoc *ta)
{
	bool was = ta->core.thin;
	bool now;

	if (sctp_thin_new_data_held(asoc))
		ta->held = true;
	ta->core.guard = asoc->thin_conf.flags & SCTP_THIN_CONGESTION_GUARD ?
			 asoc->thin_conf.guard : 0;
	now = sctp_thin_core_update(&ta->core, asoc->thin_conf.flags &
				    SCTP_THIN_LOSS_ESTIMATION,
				    !ta->held &&
				    list_empty(&asoc->outqueue.retransmit));
	if (now != was)
		trace_sctp_thin_transition(asoc, &ta->core);
}

void __sctp_thin_rm_peer(struct sctp_association *asoc,
			 struct sctp_transport *peer)
{
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
static bool sctp_thin_rdb_abandoned(const struct sctp_chunk *chunk)
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

void __sctp_thin_rdb(struct sctp_association *asoc, struct sctp_packet *packet)
{
	struct sctp_transport *tp = packet->transport;
	struct sctp_thin_rdb_cand *cand;
	struct sctp_thin_assoc *ta = asoc->thin;
	struct sctp_chunk *chunk, *first = NULL;
	u32 lo = 0, top = 0, room, bytes, max;
	unsigned int n = 0, i, k, scan = 0;
	bool have_new = false;
	struct list_head *pos;

	if (!sctp_thin_on(asoc, SCTP_THIN_RDB) || !packet->has_data ||
	    packet->ipfragok || packet->size >= tp->pathmtu)
		return;
	list_for_each_entry(chunk, &packet->chunk_list, list) {
		u32 tsn;

		if (chunk->pmtu_probe)
			return;
		if (!sctp_chunk_is_data(chunk) || !chunk->has_tsn)
			continue;
		tsn = ntohl(chunk->subh.data_hdr->tsn);
		if (!first || TSN_lt(top, tsn))
			top = tsn;
		if (!first)
			first = chunk;
		/* sent_count includes this transmission (output.c) */
		if (chunk->sent_count == 1 && (!have_new || TSN_lt(tsn, lo))) {
			lo = tsn;
			have_new = true;
		}
	}
	if (!have_new)
		return;		/* no new DATA: a retransmission */
	if (tp->thin.rdb_gate.closed) {
		ta->rdb.gated++;	/* a queue stands: sctp_thin_rdb_gate_rtt() */
		return;
	}
	/* The scratch array only once RDB is used; without it, no copy. */
	if (unlikely(!ta->rdb_cand)) {
		ta->rdb_cand = sctp_thin_alloc(SCTP_THIN_RDB_SCAN *
					       sizeof(*ta->rdb_cand),
					       GFP_ATOMIC);
		if (!ta->rdb_cand)
			return;
	}
	cand = ta->rdb_cand;
	room = tp->pathmtu - packet->size;
	max = asoc->thin_conf.rdb_max_bytes;
	if (max && max < room)
		room = max;
	/* Newest first, at most SCTP_THIN_RDB_SCAN: the transmitted list is
	 * short while thin (few packets in flight), and a bundle takes from
	 * the last thin_rdb_max_packets packets only.
	 */
	list_for_each_prev(pos, &tp->transmitted) {
		chunk = list_entry(pos, struct sctp_chunk, transmitted_list);
		if (++scan > SCTP_THIN_RDB_SCAN || n == SCTP_THIN_RDB_SCAN)
			break;
		if (!list_empty(&chunk->list) || !chunk->has_tsn)
			continue;	/* in this packet */
		/* RFC 4895 6.2: one key authenticates the packet; the test
		 * of sctp_packet_will_fit() for every chunk it takes (the
		 * active key may have changed since the chunk was queued).
		 */
		if (packet->auth ? chunk->shkey != packet->auth->shkey :
				   !!chunk->shkey)
			continue;
		cand[n].tsn = ntohl(chunk->subh.data_hdr->tsn);
		cand[n].len = SCTP_PAD4(chunk->skb->len);
		cand[n].chunk = chunk;
		cand[n].acked = chunk->tsn_gap_acked;
		cand[n].gone = sctp_thin_rdb_abandoned(chunk);
		n++;
	}
	k = sctp_thin_rdb_choose(&ta->rdb, cand, n, tp, lo,
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

	if (!packet->has_data)
		return;
	if (unlikely(!ta)) {
		tsn = sctp_thin_packet_lo(packet, &have);
		if (!have || !sctp_thin_first_packet(asoc, tsn, gfp))
			return;
		ta = asoc->thin;
		have = false;
	}
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
static void sctp_thin_spurious(struct sctp_association *asoc)
{
	struct sctp_transport *tp;

	list_for_each_entry(tp, &asoc->peer.transport_addr_list, transports) {
		unsigned long stock = __sctp_thin_stock_rto(tp);

		tp->thin.rto_suspect = 1;
		if (tp->rto < stock)
			sctp_thin_set_rto(tp, min(tp->rto * 2, stock));
	}
}

/* 5.1: packets leave the list when acked; a packet whose highest TSN is
 * reported missing three times is lost (RFC 9260 7.2.4).
 */
void __sctp_thin_sack(struct sctp_association *asoc, struct sctp_sackhdr *sack)
{
	struct sctp_thin_rdb_track repaired[SCTP_THIN_RDB_TRACK];
	struct sctp_thin_gap gaps[SCTP_THIN_MAX_GAPS];
	struct sctp_thin_assoc *ta = asoc->thin;
	u32 dup[SCTP_THIN_MAX_DUPS];
	union sctp_sack_variable *frags;
	unsigned int i, n, blocks, dups;

	struct sctp_transport *tp;
	bool moved, spurious = false;

	if (!(asoc->thin_conf.flags & SCTP_THIN_MECHANISMS))
		return;
	moved = TSN_lt(asoc->ctsn_ack_point, ntohl(sack->cum_tsn_ack));
	if (!TSN_lt(ntohl(sack->cum_tsn_ack), asoc->next_tsn - 1))
		ta->held = false;	/* drained: everything sent is acked */
	if (moved) {
		ta->lt_run = 0;	/* forward progress ends a timeout run */
		ta->progress = jiffies;
	}
	/* sctp_sm_pull_sack() checked that the blocks and dups fit; they
	 * follow the header (6.1's variable[] member is gone in 6.12).
	 */
	frags = (union sctp_sack_variable *)(sack + 1);
	blocks = ntohs(sack->num_gap_ack_blocks);
	dups = min_t(unsigned int, ntohs(sack->num_dup_tsns), SCTP_THIN_MAX_DUPS);
	for (i = 0; i < dups; i++) {
		dup[i] = ntohl(frags[blocks + i].dup);
		spurious |= sctp_thin_core_dup(&ta->core, dup[i]);
	}
	/* One expiry's copies are reported together: back off once. */
	if (spurious)
		sctp_thin_spurious(asoc);
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
	sctp_thin_core_sack(&ta->core, ntohl(sack->cum_tsn_ack), gaps, n);
	/* RDB: a loss a copy repaired is still a loss.  As TCP RDB enters
	 * CWR, the path's cwnd reacts as to a fast retransmit (RFC 9260
	 * 7.2.4, 7.2.3: once per fast recovery), and the loss counts for
	 * the estimate and the congestion guard.
	 */
	n = !ta->rdb.chunks ? 0 :	/* never bundled: no verdict due */
	    sctp_thin_rdb_sack(&ta->rdb, ntohl(sack->cum_tsn_ack), gaps, n,
			       dup, dups, repaired);
	for (i = 0; i < n; i++) {
		sctp_thin_core_repaired(&ta->core, repaired[i].tsn);
		list_for_each_entry(tp, &asoc->peer.transport_addr_list,
				    transports)
			if (tp == repaired[i].transport)
				sctp_transport_lower_cwnd(tp,
							  SCTP_LOWER_CWND_FAST_RTX);
	}
	/* A path's timeout run ends where stock clears its error counter
	 * (RFC 9260 8.2): a packet last sent on it is acked.  Also where
	 * stock's T3-rtx of the path stopped (R2): nothing outstanding on
	 * it, nothing waiting for retransmission.  Where the list cannot
	 * tell (saturated), any move of the cumulative ack ends every run:
	 * later than stock, never earlier.
	 */
	list_for_each_entry(tp, &asoc->peer.transport_addr_list, transports) {
		if (!tp->thin.run)
			continue;
		if (sctp_thin_core_acked_path(&ta->core, tp) ||
		    (moved && ta->core.saturated) ||
		    (list_empty(&tp->transmitted) &&
		     list_empty(&asoc->outqueue.retransmit)))
			tp->thin.run = 0;
	}
	sctp_thin_update(asoc, ta);
}

/* 5.2: RTOmin while thin.  lksctp has just set tp->rto from
 * SRTT + 4 * RTTVAR (RFC 9260 6.3.1 C3) clamped to [RTO.Min, RTO.Max];
 * redo the lower clamp with the thin RTOmin.  RTO.Max still caps it.
 */
void __sctp_thin_update_rto(struct sctp_transport *tp)
{
	struct sctp_association *asoc = tp->asoc;
	unsigned long rto, floor;

	/* What stock computed from this sample, before our clamp. */
	sctp_thin_sync_rto(tp);
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
 * reached; earlier ones are extra retransmissions, not errors.  Before a
 * counted expiry the path takes stock's RTO, so that upstream backs off
 * stock's value and the heartbeats of a potentially failed path, which
 * use the path's RTO, fall where stock's fall.  After an uncounted one
 * that is not linear, the doubled RTO, but at most the time to V(k) (at
 * least the RTO it had).  The count therefore never runs ahead of
 * stock's: PF, path failure and abort come no earlier (up to one thin
 * RTO later, at the first thin expiry after stock's).  Linear timeouts
 * apply only before that first counted expiry.  A bulk flow, whose RTO
 * is stock's, counts every expiry as stock does.  A run ends where stock
 * clears the path's error counter, or where its T3-rtx stops
 * (__sctp_thin_sack()).
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
 * (sctp_sf_do_6_3_3_rtx() sets tp->thin.t3).  Heartbeat, T2-shutdown,
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

/* A strike that counts: upstream backs off stock's RTO. */
static void sctp_thin_strike_stock(struct sctp_transport *tp)
{
	tp->rto = __sctp_thin_stock_rto(tp);
	sctp_thin_sync_rto(tp);
	tp->thin.strike = SCTP_THIN_STRIKE_COUNTED;
}

/* Returns false if this strike must not count as an error. */
bool __sctp_thin_strike(struct sctp_association *asoc,
			struct sctp_transport *tp, int is_hb)
{
	struct sctp_thin_path *pt = &tp->thin;
	struct sctp_thin_assoc *ta = asoc->thin;
	bool t3 = pt->t3, count, linear;
	unsigned long now = jiffies;

	pt->t3 = 0;
	pt->strike = SCTP_THIN_STRIKE_STOCK;
	if (!(asoc->thin_conf.flags & SCTP_THIN_MECHANISMS))
		return true;
	if (!t3) {
		/* A heartbeat (8.3) not answered, T2, T4, RE-CONFIG: counted
		 * as upstream's, backed off from stock's RTO.  The first
		 * heartbeat of a path is no error and does not back off.
		 */
		if (!is_hb || tp->hb_sent)
			sctp_thin_strike_stock(tp);
		return true;
	}

	ta->timeouts++;
	if (!pt->run) {
		pt->v_next = sctp_thin_run_start(tp);
		pt->armed = 0;
		pt->run = 1;
	}
	count = !time_before(now, pt->v_next);
	linear = !count && sctp_thin_linear(asoc, ta, tp);

	/* RFC 9260 6.3.3 E3 retransmits every packet on the path: each is
	 * given up (congestion guard).
	 */
	sctp_thin_core_timeout(&ta->core, tp);
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
		return true;
	}
	/* Upstream doubles our RTO now, not stock's: keep stock's. */
	sctp_thin_set_rto(tp, tp->rto);
	pt->saved_rto = tp->rto;
	pt->deferred = 1;
	ta->strikes_deferred++;
	pt->strike = SCTP_THIN_STRIKE_DEFERRED;
	if (linear) {
		pt->strike = SCTP_THIN_STRIKE_LINEAR;
		ta->lt_run++;
		ta->linear_timeouts++;
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
		return sctp_thin_t3_record(tp, now, full, stock);
	oldest = sctp_thin_core_oldest(&asoc->thin->core, tp, &n);
	if (!oldest || n >= SCTP_THIN_RRTHRESH)
		return sctp_thin_t3_record(tp, now, full, stock);
	expires = oldest->sent + tp->rto;
	if (time_before(expires, now + 1))
		expires = now + 1;
	if (!time_before(expires, full))
		return sctp_thin_t3_record(tp, now, full, stock);
	asoc->thin->restart_corrections++;
	trace_sctp_thin_mechanism(asoc, SCTP_THIN_RESTART_TIMER,
				  jiffies_to_msecs(full - expires));
	return sctp_thin_t3_record(tp, now, expires, stock);
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

	sctp_thin_core_purge(&ta->core);
	ta->lt_run = 0;
	ta->held = false;
	ta->progress = jiffies;
	ta->resyncs++;
	sctp_thin_rdb_reset(&ta->rdb);
	sctp_thin_paths_reset(asoc);
	/* Not thin until a packet is recorded again (sctp_thin_update()):
	 * nothing to decide meanwhile.
	 */
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
	asoc->thin->fast_rtx++;
	trace_sctp_thin_mechanism(asoc, SCTP_THIN_FAST_RETRANSMIT,
				  ntohl(chunk->subh.data_hdr->tsn));
	return true;
}

/* Socket options.  Bad input is -EINVAL; asking past the netns bounds
 * (thin_rto_min_floor, thin_linear_timeouts_ceiling,
 * thin_congestion_guard_required) without CAP_NET_ADMIN over the netns is
 * -EPERM.  Either way nothing changes.
 */
static int sctp_thin_conf_check(struct sock *sk,
				const struct sctp_thin_params *p)
{
	struct sctp_thin_net *tn = sctp_thin_pernet(sock_net(sk));
	bool past = false;
	u32 max;

	if (p->stp_flags & ~SCTP_THIN_KNOWN)
		return -EINVAL;
	if (p->stp_rdb_max_bytes > SCTP_THIN_RDB_MAX_BYTES_LIMIT &&
	    p->stp_rdb_max_bytes != SCTP_THIN_RDB_MTU)
		return -EINVAL;
	if (p->stp_rdb_max_packets > SCTP_THIN_RDB_MAX_PACKETS)
		return -EINVAL;
	if (p->stp_rto_min > sock_net(sk)->sctp.rto_max)
		return -EINVAL;
	if (p->stp_linear_timeouts_max > SCTP_THIN_LT_MAX_LIMIT)
		return -EINVAL;
	if (p->stp_rto_min && p->stp_rto_min < READ_ONCE(tn->rto_min_floor))
		past = true;
	if (p->stp_linear_timeouts_max > READ_ONCE(tn->lt_ceiling))
		past = true;
	/* The netns's RDB limits bound what an unprivileged socket asks. */
	if (p->stp_rdb_max_packets > READ_ONCE(tn->rdb_max_packets))
		past = true;
	max = READ_ONCE(tn->rdb_max_bytes);
	if (max && p->stp_rdb_max_bytes &&
	    (p->stp_rdb_max_bytes == SCTP_THIN_RDB_MTU ||
	     p->stp_rdb_max_bytes > max))
		past = true;
	if (READ_ONCE(tn->guard_required) &&
	    (p->stp_flags & SCTP_THIN_MECHANISMS) &&
	    !(p->stp_flags & SCTP_THIN_CONGESTION_GUARD))
		past = true;
	if (past && !ns_capable(sock_net(sk)->user_ns, CAP_NET_ADMIN))
		return -EPERM;
	return 0;
}

/* 0 in a value keeps the current one; SCTP_THIN_RDB_MTU in
 * stp_rdb_max_bytes is 0 inside (bounded by the path MTU only).
 */
static void sctp_thin_conf_merge(struct sctp_thin_conf *conf,
				 const struct sctp_thin_params *p)
{
	conf->flags = p->stp_flags;
	if (p->stp_rto_min)
		conf->rto_min = p->stp_rto_min;
	if (p->stp_linear_timeouts_max)
		conf->lt_max = p->stp_linear_timeouts_max;
	if (p->stp_rdb_max_bytes)
		conf->rdb_max_bytes = p->stp_rdb_max_bytes == SCTP_THIN_RDB_MTU ?
				      0 : p->stp_rdb_max_bytes;
	if (p->stp_rdb_max_packets)
		conf->rdb_max_packets = p->stp_rdb_max_packets;
}

/* Callers built before stp_rdb_max_bytes pass the shorter size. */
#define SCTP_THIN_PARAMS_V1 \
	offsetofend(struct sctp_thin_params, stp_linear_timeouts_max)

/* SCTP_THIN follows the assoc_id rules of RFC 6458 8.1 as upstream
 * options do: an id, or SCTP_FUTURE_ASSOC (socket default),
 * SCTP_CURRENT_ASSOC (every existing association) or SCTP_ALL_ASSOC
 * (both).  On one-to-one sockets the id is ignored.
 */
static int sctp_thin_set_params(struct sock *sk, void *kopt,
				unsigned int optlen)
{
	struct sctp_sock *sp = sctp_sk(sk);
	struct sctp_thin_params params, *p = &params;
	struct sctp_association *asoc;
	struct sctp_thin_conf conf;
	int err;

	if (optlen != sizeof(*p) && optlen != SCTP_THIN_PARAMS_V1)
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	memcpy(p, kopt, optlen);
	err = sctp_thin_conf_check(sk, p);
	if (err)
		return err;

	asoc = sctp_id2assoc(sk, p->stp_assoc_id);
	if (!asoc && p->stp_assoc_id > SCTP_ALL_ASSOC && sctp_style(sk, UDP))
		return -EINVAL;
	if (asoc) {
		conf = asoc->thin_conf;
		sctp_thin_conf_merge(&conf, p);
		return sctp_thin_assoc_set(asoc, &conf);
	}

	if (sctp_style(sk, TCP))
		p->stp_assoc_id = SCTP_FUTURE_ASSOC;
	if (p->stp_assoc_id == SCTP_FUTURE_ASSOC ||
	    p->stp_assoc_id == SCTP_ALL_ASSOC)
		sctp_thin_conf_merge(&sp->thin_conf, p);
	/* An association that cannot get memory keeps its settings; the
	 * others take the new ones, and the call fails with -ENOMEM.
	 */
	if (p->stp_assoc_id == SCTP_CURRENT_ASSOC ||
	    p->stp_assoc_id == SCTP_ALL_ASSOC) {
		list_for_each_entry(asoc, &sp->ep->asocs, asocs) {
			conf = asoc->thin_conf;
			sctp_thin_conf_merge(&conf, p);
			if (sctp_thin_assoc_set(asoc, &conf))
				err = -ENOMEM;
		}
	}
	return err;
}

int sctp_thin_setsockopt(struct sock *sk, int optname, void *kopt,
			 unsigned int optlen)
{
	if (optname == SCTP_THIN)
		return sctp_thin_set_params(sk, kopt, optlen);
	return -ENOPROTOOPT;	/* SCTP_THIN_INFO is read-only */
}

static struct sctp_association *sctp_thin_get_assoc(struct sock *sk,
						    sctp_assoc_t id)
{
	struct sctp_association *asoc = sctp_id2assoc(sk, id);

	if (!asoc && sctp_style(sk, TCP) && !list_empty(&sctp_sk(sk)->ep->asocs))
		asoc = list_first_entry(&sctp_sk(sk)->ep->asocs,
					struct sctp_association, asocs);
	return asoc;
}

static int sctp_thin_get_params(struct sock *sk, int len,
				char __user *optval, int __user *optlen)
{
	struct sctp_association *asoc;
	const struct sctp_thin_conf *conf;
	struct sctp_thin_params p;

	if (len < SCTP_THIN_PARAMS_V1)
		return -EINVAL;
	len = min_t(int, len, sizeof(p));
	memset(&p, 0, sizeof(p));
	if (copy_from_user(&p, optval, len))
		return -EFAULT;

	asoc = sctp_id2assoc(sk, p.stp_assoc_id);
	if (!asoc && p.stp_assoc_id != SCTP_FUTURE_ASSOC &&
	    sctp_style(sk, UDP))
		return -EINVAL;
	conf = asoc ? &asoc->thin_conf : &sctp_sk(sk)->thin_conf;
	p.stp_flags = conf->flags;
	p.stp_rto_min = conf->rto_min;
	p.stp_linear_timeouts_max = conf->lt_max;
	p.stp_rdb_max_bytes = conf->rdb_max_bytes ? : SCTP_THIN_RDB_MTU;
	p.stp_rdb_max_packets = conf->rdb_max_packets;

	if (put_user(len, optlen) || copy_to_user(optval, &p, len))
		return -EFAULT;
	return 0;
}

static void sctp_thin_fill_info(const struct sctp_association *asoc,
				struct sctp_thin_info *info)
{
	const struct sctp_thin_assoc *ta = asoc->thin;

	info->sti_flags = asoc->thin_conf.flags;
	if (!ta)
		return;
	info->sti_state = (ta->core.thin ? SCTP_THIN_STATE_THIN : 0) |
			  (ta->core.saturated ? SCTP_THIN_STATE_SATURATED : 0) |
			  (ta->core.congested ? SCTP_THIN_STATE_CONGESTED : 0);
	info->sti_in_flight = ta->core.in_flight;
	info->sti_lossrate = sctp_thin_core_lossrate(&ta->core);
	info->sti_transitions = ta->core.transitions;
	info->sti_pkts_sent = ta->core.pkts_sent;
	info->sti_pkts_lost = ta->core.pkts_lost;
	info->sti_timeouts = ta->timeouts;
	info->sti_linear_timeouts = ta->linear_timeouts;
	info->sti_fast_rtx = ta->fast_rtx;
	info->sti_rto_min_clamps = ta->rto_min_clamps;
	info->sti_restart_corrections = ta->restart_corrections;
	info->sti_guard_undone = ta->core.guard_undone;
	info->sti_strikes_deferred = ta->strikes_deferred;
	info->sti_resyncs = ta->resyncs;
	info->sti_sack_immediately = ta->sack_immediately;
	info->sti_rdb_chunks = ta->rdb.chunks;
	info->sti_rdb_bytes = ta->rdb.bytes;
	info->sti_rdb_repaired = ta->rdb.repaired;
	info->sti_rdb_gated = ta->rdb.gated;
}

static int sctp_thin_get_info(struct sock *sk, int len,
			      char __user *optval, int __user *optlen)
{
	struct sctp_association *asoc;
	struct sctp_thin_info info;
	sctp_assoc_t id;

	/* Callers built before sti_guard_undone pass the shorter size. */
	if (len < offsetofend(struct sctp_thin_info, sti_restart_corrections))
		return -EINVAL;
	len = min_t(int, len, sizeof(info));
	if (get_user(id, (sctp_assoc_t __user *)optval))
		return -EFAULT;
	asoc = sctp_thin_get_assoc(sk, id);
	if (!asoc)
		return -EINVAL;

	memset(&info, 0, sizeof(info));
	info.sti_assoc_id = sctp_assoc2id(asoc);
	sctp_thin_fill_info(asoc, &info);

	if (put_user(len, optlen) || copy_to_user(optval, &info, len))
		return -EFAULT;
	return 0;
}

int sctp_thin_getsockopt(struct sock *sk, int optname, int len,
			 char __user *optval, int __user *optlen)
{
	if (optname == SCTP_THIN)
		return sctp_thin_get_params(sk, len, optval, optlen);
	if (optname == SCTP_THIN_INFO)
		return sctp_thin_get_info(sk, len, optval, optlen);
	return -ENOPROTOOPT;
}

/* /proc/net/sctp/thin: one line per association, like .../assocs. */
struct sctp_thin_iter {
	struct seq_net_private p;
	struct rhashtable_iter hti;
};

static void *sctp_thin_seq_start(struct seq_file *seq, loff_t *pos)
{
	struct sctp_thin_iter *iter = seq->private;

	sctp_transport_walk_start(&iter->hti);
	return sctp_transport_get_idx(seq_file_net(seq), &iter->hti, *pos);
}

static void sctp_thin_seq_stop(struct seq_file *seq, void *v)
{
	struct sctp_thin_iter *iter = seq->private;

	if (v && v != SEQ_START_TOKEN)
		sctp_transport_put(v);
	sctp_transport_walk_stop(&iter->hti);
}

static void *sctp_thin_seq_next(struct seq_file *seq, void *v, loff_t *pos)
{
	struct sctp_thin_iter *iter = seq->private;

	if (v && v != SEQ_START_TOKEN)
		sctp_transport_put(v);
	++*pos;
	return sctp_transport_get_next(seq_file_net(seq), &iter->hti);
}

static int sctp_thin_seq_show(struct seq_file *seq, void *v)
{
	struct sctp_association *asoc;
	struct sctp_thin_info info;

	if (v == SEQ_START_TOKEN) {
		seq_puts(seq, "ASSOC-ID LPORT RPORT FLAGS STATE INFLIGHT LOSSRATE TRANS SENT LOST TIMEOUTS LINEAR FASTRTX RTOMIN RESTART DEFERRED RESYNCS SACKIMM RDB RDBBYTES RDBREP\n");
		return 0;
	}
	asoc = ((struct sctp_transport *)v)->asoc;
	memset(&info, 0, sizeof(info));
	sctp_thin_fill_info(asoc, &info);
	seq_printf(seq, "%d %u %u 0x%02x 0x%02x %u %u %u %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu\n",
		   sctp_assoc2id(asoc), asoc->base.bind_addr.port,
		   asoc->peer.port, info.sti_flags, info.sti_state,
		   info.sti_in_flight, info.sti_lossrate, info.sti_transitions,
		   info.sti_pkts_sent, info.sti_pkts_lost, info.sti_timeouts,
		   info.sti_linear_timeouts, info.sti_fast_rtx,
		   info.sti_rto_min_clamps, info.sti_restart_corrections,
		   info.sti_strikes_deferred, info.sti_resyncs,
		   info.sti_sack_immediately, info.sti_rdb_chunks,
		   info.sti_rdb_bytes, info.sti_rdb_repaired);
	return 0;
}

static const struct seq_operations sctp_thin_seq_ops = {
	.start = sctp_thin_seq_start,
	.next  = sctp_thin_seq_next,
	.stop  = sctp_thin_seq_stop,
	.show  = sctp_thin_seq_show,
};

/* Called from sctp_proc_init(); removed with the rest of
 * /proc/net/sctp by sctp_proc_exit().
 */
int sctp_thin_proc_init(struct net *net)
{
	if (!proc_create_net("thin", 0444, net->sctp.proc_net_sctp,
			     &sctp_thin_seq_ops, sizeof(struct sctp_thin_iter)))
		return -ENOMEM;
	return 0;
}

/* Module init/exit, called first from sctp_init() and last from
 * sctp_exit(), so that every socket sees our per-netns state.
 */
int sctp_thin_init(void)
{
	return register_pernet_subsys(&sctp_thin_net_ops);
}

void sctp_thin_exit(void)
{
	int left;

	unregister_pernet_subsys(&sctp_thin_net_ops);
	left = atomic_read(&sctp_thin_objects);
	if (left)
		pr_err("thin-sctp: leak of %d objects at unload\n", left);
}

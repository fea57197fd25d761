// SPDX-License-Identifier: GPL-2.0-or-later
/* thin-sctp: the controls: per-netns sysctls (net.sctp.thin_*), the
 * SCTP_THIN and SCTP_THIN_INFO socket options, /proc/net/sctp/thin.
 *
 * This file owns the per-netns settings and bounds (struct
 * sctp_thin_net) and the defaults of a socket's settings.  Called from:
 *
 * - sctp_thin_init(), sctp_thin_exit() (thin.c): sctp_thin_net_register(),
 *   sctp_thin_net_unregister(), the per-netns state and its sysctls.
 * - sctp_init_sock(): sctp_thin_sock_init(), a socket's defaults.
 * - sctp_setsockopt(), sctp_getsockopt(): sctp_thin_setsockopt(),
 *   sctp_thin_getsockopt(); SCTP_THIN changes live associations through
 *   sctp_thin_assoc_set() (thin.c).
 * - sctp_proc_init(): sctp_thin_proc_init().
 *
 * The API differences between kernel lines that thin-sctp meets are all
 * here (<net/sctp/thin_compat.h>).
 */

#include <linux/capability.h>
#include <linux/nsproxy.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/user_namespace.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/sctp/sctp.h>
#include <net/sctp/thin.h>
#include <net/sctp/thin_compat.h>
#include "thin_glue.h"

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
	int tail_probe;
	int rack;
	/* Bounds for sockets without CAP_NET_ADMIN in the initial user
	 * namespace (sctp_thin_loosens()).
	 */
	int rto_min_floor;	/* ms: lowest stp_rto_min */
	int lt_ceiling;		/* highest stp_linear_timeouts_max */
	int guard_required;	/* the congestion guard cannot be dropped */
	int pending;		/* copy init_net's at first use */
	/* SCTP_MIB_THIN_*: NULL if the allocation failed (nothing counted) */
	struct sctp_thin_mib __percpu *mib;
};

struct sctp_thin_mib {
	unsigned long mibs[SCTP_THIN_MIB_MAX];
};

static unsigned int sctp_thin_net_id __read_mostly;

static struct sctp_thin_net *sctp_thin_pernet(const struct net *net)
{
	return net_generic(net, sctp_thin_net_id);
}

static void sctp_thin_net_inherit(struct sctp_thin_net *tn,
				  const struct sctp_thin_net *host);

/* A netns that already existed when the module loaded was initialised
 * while init_net still had the defaults: the preset comes a moment later
 * (the modprobe.d hook's systemd-sysctl, before modprobe returns).  Such
 * a netns copies init_net's values at its first use instead (its first
 * user socket, or its first thin sysctl read or written), so that a container
 * whose first SCTP socket loads the module on demand gets the host's
 * preset, as a container created after the load does.
 */
static bool sctp_thin_loading;
static DEFINE_SPINLOCK(sctp_thin_settle_lock);

static void sctp_thin_net_settle(struct sctp_thin_net *tn)
{
	/* Pairs with the release below: a reader that sees 0 sees the
	 * copied values.
	 */
	if (likely(!smp_load_acquire(&tn->pending)))
		return;
	spin_lock_bh(&sctp_thin_settle_lock);
	if (tn->pending) {
		sctp_thin_net_inherit(tn, sctp_thin_pernet(&init_net));
		/* The values first, then the flag: see the acquire above. */
		smp_store_release(&tn->pending, 0);
	}
	spin_unlock_bh(&sctp_thin_settle_lock);
}

#ifdef CONFIG_SYSCTL
static int sctp_thin_lt_max_limit = SCTP_THIN_LT_MAX_LIMIT;
static int sctp_thin_rdb_bytes_limit = SCTP_THIN_RDB_MAX_BYTES_LIMIT;
static int sctp_thin_rdb_packets_limit = SCTP_THIN_RDB_MAX_PACKETS;

/* Who may go past the bounds (issue 30, containers).
 *
 * The bounds (thin_rto_min_floor, thin_linear_timeouts_ceiling,
 * thin_congestion_guard_required, and thin_rdb_max_bytes and
 * thin_rdb_max_packets, which bound what a socket asks for RDB) are the
 * host's: a new netns copies them from init_net (sctp_thin_net_init()).
 * Going past them needs CAP_NET_ADMIN in the initial user namespace, not
 * over the netns: the root of an unprivileged container (a user
 * namespace that owns its netns, as after `unshare -U -r -n`) has
 * CAP_NET_ADMIN over its netns, and would otherwise set its own bounds.
 * Where the netns is owned by the initial user namespace (the host's,
 * `ip netns add`, a container without a user namespace) this is the
 * capability over the netns, as before.  So, without it:
 *
 * - SCTP_THIN asking past a bound is -EPERM (sctp_thin_conf_check());
 * - writing a bound less strict (a lower floor, a higher ceiling or RDB
 *   limit, 0 for guard_required or for an RDB byte limit) is -EPERM;
 *   stricter is allowed;
 * - writing a setting past a bound (thin_rto_min below the floor,
 *   thin_linear_timeouts_max above the ceiling, thin_congestion_guard 0
 *   or higher while the guard is required) is -EPERM;
 *
 * and nothing changes.  Switching mechanisms on or off stays free: what
 * they may do is bounded.  A write of the current value is always
 * allowed (sysctl -p of the inherited values).
 */
static bool sctp_thin_loosens(const struct sctp_thin_net *tn,
			      const int *field, int new_value)
{
	int cur = READ_ONCE(*field);

	if (new_value == cur)
		return false;
	if (field == &tn->rto_min)
		return new_value && new_value < READ_ONCE(tn->rto_min_floor);
	if (field == &tn->linear_timeouts_max)
		return new_value > READ_ONCE(tn->lt_ceiling);
	if (field == &tn->congestion_guard)
		return READ_ONCE(tn->guard_required) &&
		       (!new_value || new_value > cur);
	if (field == &tn->rdb_max_bytes)	/* 0: bounded by the MTU only */
		return cur && (!new_value || new_value > cur);
	if (field == &tn->rdb_max_packets || field == &tn->lt_ceiling)
		return new_value > cur;
	if (field == &tn->rto_min_floor || field == &tn->guard_required)
		return new_value < cur;
	return false;
}

/* A bounded sysctl: out of [@min, @max] is -EINVAL, loosening the bounds
 * without CAP_NET_ADMIN in the initial user namespace -EPERM; either way
 * the value and the file position stay unchanged.  The new value starts
 * as the current one: a write that proc_dointvec_minmax() ignores (at a
 * non-zero file position, with sysctl_writes_strict) returns 0 without
 * parsing anything and must leave the value as it is.
 */
static int sctp_thin_proc_bounded(struct sctp_thin_net *tn, int *field,
				  void *min, void *max, int write,
				  void *buffer, size_t *lenp, loff_t *ppos)
{
	int new_value = READ_ONCE(*field);
	loff_t pos = *ppos;
	struct ctl_table tbl;
	int ret;

	sctp_thin_net_settle(tn);
	memset(&tbl, 0, sizeof(tbl));
	tbl.maxlen = sizeof(int);
	tbl.data = write ? &new_value : field;
	tbl.extra1 = min;
	tbl.extra2 = max;

	ret = proc_dointvec_minmax(&tbl, write, buffer, lenp, ppos);
	if (!write || ret)
		return ret;
	if (sctp_thin_loosens(tn, field, new_value) &&
	    !ns_capable(&init_user_ns, CAP_NET_ADMIN)) {
		*ppos = pos;
		return -EPERM;
	}
	WRITE_ONCE(*field, new_value);
	return 0;
}

/* thin_rto_min: 0 (off) or 1 .. net.sctp.rto_max. */
static int sctp_thin_proc_rto_min(SCTP_THIN_CTL_CONST struct ctl_table *ctl,
				  int write, void *buffer, size_t *lenp,
				  loff_t *ppos)
{
	struct sctp_thin_net *tn = container_of(ctl->data, struct sctp_thin_net,
						rto_min);
	unsigned int max = tn->net->sctp.rto_max;

	return sctp_thin_proc_bounded(tn, &tn->rto_min, SYSCTL_ZERO, &max,
				      write, buffer, lenp, ppos);
}

/* The other bounded sysctls: the range is the entry's extra1 .. extra2;
 * ctl->data is &tn->member.
 */
#define SCTP_THIN_PROC_BOUNDED(name, member)				\
static int sctp_thin_proc_##name(SCTP_THIN_CTL_CONST struct ctl_table *ctl, \
				 int write, void *buffer, size_t *lenp,	\
				 loff_t *ppos)				\
{									\
	struct sctp_thin_net *tn = container_of(ctl->data,		\
						struct sctp_thin_net,	\
						member);		\
									\
	return sctp_thin_proc_bounded(tn, ctl->data, ctl->extra1,	\
				      ctl->extra2, write, buffer, lenp,	\
				      ppos);				\
}

/* The on/off switches: 0 or 1, after the netns settled. */
#define SCTP_THIN_PROC_SWITCH(member)					\
static int sctp_thin_proc_##member(SCTP_THIN_CTL_CONST struct ctl_table *ctl, \
				   int write, void *buffer, size_t *lenp, \
				   loff_t *ppos)			\
{									\
	sctp_thin_net_settle(container_of(ctl->data,			\
					  struct sctp_thin_net, member)); \
	return proc_dointvec_minmax(ctl, write, buffer, lenp, ppos);	\
}

SCTP_THIN_PROC_SWITCH(restart_timer)
SCTP_THIN_PROC_SWITCH(linear_timeouts)
SCTP_THIN_PROC_SWITCH(fast_retransmit)
SCTP_THIN_PROC_SWITCH(loss_estimation)
SCTP_THIN_PROC_SWITCH(sack_immediately)
SCTP_THIN_PROC_SWITCH(rdb)
SCTP_THIN_PROC_SWITCH(tail_probe)
SCTP_THIN_PROC_SWITCH(rack)
SCTP_THIN_PROC_BOUNDED(lt_max, linear_timeouts_max)
SCTP_THIN_PROC_BOUNDED(guard, congestion_guard)
SCTP_THIN_PROC_BOUNDED(rdb_max_bytes, rdb_max_bytes)
SCTP_THIN_PROC_BOUNDED(rdb_max_packets, rdb_max_packets)
SCTP_THIN_PROC_BOUNDED(floor, rto_min_floor)
SCTP_THIN_PROC_BOUNDED(ceiling, lt_ceiling)
SCTP_THIN_PROC_BOUNDED(guard_required, guard_required)

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
		.proc_handler	= sctp_thin_proc_restart_timer,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{
		.procname	= "thin_linear_timeouts",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= sctp_thin_proc_linear_timeouts,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{
		.procname	= "thin_linear_timeouts_max",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= sctp_thin_proc_lt_max,
		.extra1		= SYSCTL_ONE,
		.extra2		= &sctp_thin_lt_max_limit,
	},
	{
		.procname	= "thin_fast_retransmit",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= sctp_thin_proc_fast_retransmit,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{
		.procname	= "thin_loss_estimation",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= sctp_thin_proc_loss_estimation,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{
		.procname	= "thin_congestion_guard",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= sctp_thin_proc_guard,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE_HUNDRED,
	},
	{
		.procname	= "thin_sack_immediately",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= sctp_thin_proc_sack_immediately,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{
		.procname	= "thin_rdb",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= sctp_thin_proc_rdb,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{
		.procname	= "thin_rdb_max_bytes",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= sctp_thin_proc_rdb_max_bytes,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &sctp_thin_rdb_bytes_limit,
	},
	{
		.procname	= "thin_rdb_max_packets",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= sctp_thin_proc_rdb_max_packets,
		.extra1		= SYSCTL_ONE,
		.extra2		= &sctp_thin_rdb_packets_limit,
	},
	{
		.procname	= "thin_tail_probe",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= sctp_thin_proc_tail_probe,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{
		.procname	= "thin_rack",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= sctp_thin_proc_rack,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{
		.procname	= "thin_rto_min_floor",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= sctp_thin_proc_floor,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_INT_MAX,
	},
	{
		.procname	= "thin_linear_timeouts_ceiling",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= sctp_thin_proc_ceiling,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &sctp_thin_lt_max_limit,
	},
	{
		.procname	= "thin_congestion_guard_required",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= sctp_thin_proc_guard_required,
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
	tbl[11].data = &tn->tail_probe;
	tbl[12].data = &tn->rack;
	tbl[13].data = &tn->rto_min_floor;
	tbl[14].data = &tn->lt_ceiling;
	tbl[15].data = &tn->guard_required;

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

/* A new netns starts with the settings and bounds of the netns that
 * creates it, copied at creation: a container gets the host's mechanisms
 * and stays within the host's bounds, and a netns created inside a
 * container (unshare -n) within the container's, which may be stricter.
 * (TCP's congestion control copies init_net's, tcp_sk_init(); for bounds
 * that would let a container's root escape its own.)  Later changes of
 * the creator's values do not propagate: to tighten an existing netns,
 * write its sysctls (the initial namespace's root may, past its bounds
 * too).  init_net's are
 * initialised first (it heads net_namespace_list).  A netns initialised
 * while the module loads copies init_net's again at its first use
 * (sctp_thin_net_settle()).
 */
static void sctp_thin_net_inherit(struct sctp_thin_net *tn,
				  const struct sctp_thin_net *host)
{
	tn->rto_min = READ_ONCE(host->rto_min);
	tn->restart_timer = READ_ONCE(host->restart_timer);
	tn->linear_timeouts = READ_ONCE(host->linear_timeouts);
	tn->linear_timeouts_max = READ_ONCE(host->linear_timeouts_max);
	tn->fast_retransmit = READ_ONCE(host->fast_retransmit);
	tn->loss_estimation = READ_ONCE(host->loss_estimation);
	tn->congestion_guard = READ_ONCE(host->congestion_guard);
	tn->sack_immediately = READ_ONCE(host->sack_immediately);
	tn->rdb = READ_ONCE(host->rdb);
	tn->rdb_max_bytes = READ_ONCE(host->rdb_max_bytes);
	tn->rdb_max_packets = READ_ONCE(host->rdb_max_packets);
	tn->tail_probe = READ_ONCE(host->tail_probe);
	tn->rack = READ_ONCE(host->rack);
	tn->rto_min_floor = READ_ONCE(host->rto_min_floor);
	tn->lt_ceiling = READ_ONCE(host->lt_ceiling);
	tn->guard_required = READ_ONCE(host->guard_required);
}

/* The end of sctp_thin_net_init(): the sysctls, then the counters.
 * Without the counters the netns works as with them, uncounted: an
 * allocation that fails costs nothing stock would not.
 */
static int __net_init sctp_thin_net_ready(struct sctp_thin_net *tn)
{
	int err = sctp_thin_sysctl_register(tn);

	if (err)
		return err;
	tn->mib = alloc_percpu(struct sctp_thin_mib);
	return 0;
}

/* The netns whose values a new one copies: the creating task's
 * (copy_net_ns() runs before the task switches to the new netns), settled
 * first.  While the module loads, modprobe's task initialises every
 * netns; each copies init_net's at its first use instead.
 */
static struct sctp_thin_net *__net_init sctp_thin_creator(struct net *net)
{
	struct sctp_thin_net *tn;
	struct net *from;

	if (sctp_thin_loading || !current->nsproxy)
		return sctp_thin_pernet(&init_net);
	from = current->nsproxy->net_ns;
	if (!from || net_eq(from, net))
		return sctp_thin_pernet(&init_net);
	tn = sctp_thin_pernet(from);
	sctp_thin_net_settle(tn);
	return tn;
}

static int __net_init sctp_thin_net_init(struct net *net)
{
	struct sctp_thin_net *tn = sctp_thin_pernet(net);

	tn->net = net;
	if (!net_eq(net, &init_net)) {
		sctp_thin_net_inherit(tn, sctp_thin_creator(net));
		tn->pending = sctp_thin_loading;
		return sctp_thin_net_ready(tn);
	}
	/* init_net: every mechanism off by default; loss estimation on, so
	 * that switching a mechanism on gets the paper's detection (5.1),
	 * and the congestion guard on, so that it stays fair (7.4).
	 */
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
	tn->tail_probe = 0;
	tn->rack = 0;
	tn->rto_min_floor = SCTP_THIN_RTO_MIN_FLOOR_DEFAULT;
	tn->lt_ceiling = SCTP_THIN_LT_CEILING_DEFAULT;
	tn->guard_required = 1;
	return sctp_thin_net_ready(tn);
}

/* No association of @net is left: its sockets held the netns. */
static void __net_exit sctp_thin_net_exit(struct net *net)
{
	struct sctp_thin_net *tn = sctp_thin_pernet(net);

	sctp_thin_sysctl_unregister(tn);
	free_percpu(tn->mib);
	tn->mib = NULL;
}

void sctp_thin_inc_stats(const struct net *net, int field)
{
	struct sctp_thin_net *tn = sctp_thin_pernet(net);

	if (tn->mib)
		this_cpu_inc(tn->mib->mibs[field]);
}

static struct pernet_operations sctp_thin_net_ops = {
	.init = sctp_thin_net_init,
	.exit = sctp_thin_net_exit,
	.id   = &sctp_thin_net_id,
	.size = sizeof(struct sctp_thin_net),
};

/* From sctp_thin_init() and sctp_thin_exit() (thin.c). */
int sctp_thin_net_register(void)
{
	int err;

	/* The netns that exist now are initialised inside this call. */
	sctp_thin_loading = true;
	err = register_pernet_subsys(&sctp_thin_net_ops);
	sctp_thin_loading = false;
	return err;
}

void sctp_thin_net_unregister(void)
{
	unregister_pernet_subsys(&sctp_thin_net_ops);
}

/* Socket defaults from the netns sysctls. */
void sctp_thin_sock_init(struct sock *sk)
{
	struct sctp_thin_net *tn = sctp_thin_pernet(sock_net(sk));
	struct sctp_thin_conf *conf = &sctp_sk(sk)->thin_conf;

	/* Not for the netns's control socket, which sctp creates while it
	 * loads, before the preset: its first user socket settles it.
	 */
	if (!sk->sk_kern_sock)
		sctp_thin_net_settle(tn);
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
	if (tn->tail_probe)
		conf->flags |= SCTP_THIN_TAIL_PROBE;
	if (tn->rack)
		conf->flags |= SCTP_THIN_RACK;
	conf->rdb_max_bytes = tn->rdb_max_bytes;
	conf->rdb_max_packets = tn->rdb_max_packets;
	/* Unset, the paper's 200 ms (5.2), but never below the netns floor:
	 * SCTP_THIN with stp_rto_min 0 keeps this value, so a lower one
	 * would let an unprivileged socket under a raised floor.
	 */
	conf->rto_min = tn->rto_min ? :
			max_t(int, SCTP_THIN_RTO_MIN_DEFAULT,
			      READ_ONCE(tn->rto_min_floor));
	conf->lt_max = tn->linear_timeouts_max;
	conf->guard = (tn->congestion_guard ? : SCTP_THIN_GUARD_DEFAULT) *
		      SCTP_THIN_ONE / 100;
}

/* Socket options.  Bad input is -EINVAL; asking past the netns bounds
 * (thin_rto_min_floor, thin_linear_timeouts_ceiling,
 * thin_congestion_guard_required, the RDB limits) without CAP_NET_ADMIN
 * in the initial user namespace is -EPERM (see sctp_thin_loosens(): not
 * over the netns, which a container's root has).  Either way nothing
 * changes.
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
	if (past && !ns_capable(&init_user_ns, CAP_NET_ADMIN))
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

/* The association a get names.  A one-to-one socket has at most one, also
 * while sctp_id2assoc() does not return it (not yet or no longer
 * established); a listener has none of its own: its list holds the
 * associations waiting for accept() (-EINVAL, as SCTP_STATUS).
 */
static struct sctp_association *sctp_thin_get_assoc(struct sock *sk,
						    sctp_assoc_t id)
{
	struct sctp_association *asoc = sctp_id2assoc(sk, id);

	if (!asoc && sctp_style(sk, TCP) && !sctp_sstate(sk, LISTENING) &&
	    !list_empty(&sctp_sk(sk)->ep->asocs))
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

/* Under the socket lock (SCTP_THIN_INFO), or not (/proc/net/sctp/thin,
 * which holds a transport, so the association and its state live): the
 * state's pointer with acquire, paired with its publication
 * (sctp_thin_first_packet(), sctp_thin_assoc_set()); the counters may be
 * a moment old.
 */
static void sctp_thin_fill_info(const struct sctp_association *asoc,
				struct sctp_thin_info *info)
{
	/* Pairs with smp_store_release() where the state is published. */
	const struct sctp_thin_assoc *ta = smp_load_acquire(&asoc->thin);

	info->sti_flags = asoc->thin_conf.flags;
	if (!ta)
		return;
	info->sti_state = (ta->core.thin ? SCTP_THIN_STATE_THIN : 0) |
			  (ta->core.saturated ? SCTP_THIN_STATE_SATURATED : 0) |
			  (ta->core.congested ? SCTP_THIN_STATE_CONGESTED : 0) |
			  (ta->probe.distrust ? SCTP_THIN_STATE_PROBE_DELACK : 0);
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
	info->sti_probes = ta->probes;
	info->sti_probes_spurious = ta->probes_spurious;
	info->sti_probes_repaired = ta->probes_repaired;
	info->sti_rack_lost = ta->rack_lost;
	info->sti_rack_held = ta->rack_held;
	info->sti_rack_reo_mult = ta->reo.steps + 1;
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
		seq_puts(seq, "ASSOC-ID LPORT RPORT FLAGS STATE INFLIGHT LOSSRATE TRANS SENT LOST TIMEOUTS LINEAR FASTRTX RTOMIN RESTART DEFERRED RESYNCS SACKIMM RDB RDBBYTES RDBREP PROBE PROBESP PROBEREP RACK RACKHELD\n");
		return 0;
	}
	asoc = ((struct sctp_transport *)v)->asoc;
	memset(&info, 0, sizeof(info));
	sctp_thin_fill_info(asoc, &info);
	seq_printf(seq, "%d %u %u 0x%02x 0x%02x %u %u %u %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu\n",
		   sctp_assoc2id(asoc), asoc->base.bind_addr.port,
		   asoc->peer.port, info.sti_flags, info.sti_state,
		   info.sti_in_flight, info.sti_lossrate, info.sti_transitions,
		   info.sti_pkts_sent, info.sti_pkts_lost, info.sti_timeouts,
		   info.sti_linear_timeouts, info.sti_fast_rtx,
		   info.sti_rto_min_clamps, info.sti_restart_corrections,
		   info.sti_strikes_deferred, info.sti_resyncs,
		   info.sti_sack_immediately, info.sti_rdb_chunks,
		   info.sti_rdb_bytes, info.sti_rdb_repaired, info.sti_probes,
		   info.sti_probes_spurious, info.sti_probes_repaired,
		   info.sti_rack_lost, info.sti_rack_held);
	return 0;
}

static const struct seq_operations sctp_thin_seq_ops = {
	.start = sctp_thin_seq_start,
	.next  = sctp_thin_seq_next,
	.stop  = sctp_thin_seq_stop,
	.show  = sctp_thin_seq_show,
};

/* /proc/net/sctp/thin_snmp: the netns' SCTP_MIB_THIN_* counters, in
 * /proc/net/sctp/snmp's format (upstream they are lines of that file).
 */
static const struct snmp_mib sctp_thin_snmp_list[] = {
	SNMP_MIB_ITEM("SctpThinRtoRestarts", SCTP_MIB_THIN_RESTARTS),
	SNMP_MIB_ITEM("SctpThinStrikesDeferred", SCTP_MIB_THIN_STRIKES_DEFERRED),
	SNMP_MIB_ITEM("SctpThinResyncs", SCTP_MIB_THIN_RESYNCS),
	SNMP_MIB_ITEM("SctpThinTransitions", SCTP_MIB_THIN_TRANSITIONS),
	SNMP_MIB_ITEM("SctpThinFastRetransmits", SCTP_MIB_THIN_FAST_RETRANSMITS),
	SNMP_MIB_ITEM("SctpThinLinearTimeouts", SCTP_MIB_THIN_LINEAR_TIMEOUTS),
	SNMP_MIB_ITEM("SctpThinRdbRepaired", SCTP_MIB_THIN_RDB_REPAIRED),
};

static int sctp_thin_snmp_show(struct seq_file *seq, void *v)
{
	struct sctp_thin_net *tn = sctp_thin_pernet(seq_file_single_net(seq));
	unsigned long sum;
	unsigned int i;
	int f, cpu;

	BUILD_BUG_ON(ARRAY_SIZE(sctp_thin_snmp_list) != SCTP_THIN_MIB_MAX);
	for (i = 0; i < ARRAY_SIZE(sctp_thin_snmp_list); i++) {
		f = sctp_thin_snmp_list[i].entry;
		sum = 0;
		if (tn->mib)
			for_each_possible_cpu(cpu)
				sum += per_cpu_ptr(tn->mib, cpu)->mibs[f];
		seq_printf(seq, "%-32s\t%ld\n", sctp_thin_snmp_list[i].name, sum);
	}
	return 0;
}

/* Called from sctp_proc_init(); removed with the rest of
 * /proc/net/sctp by sctp_proc_exit().
 */
int sctp_thin_proc_init(struct net *net)
{
	if (!proc_create_net("thin", 0444, net->sctp.proc_net_sctp,
			     &sctp_thin_seq_ops, sizeof(struct sctp_thin_iter)) ||
	    !proc_create_net_single("thin_snmp", 0444, net->sctp.proc_net_sctp,
				    sctp_thin_snmp_show, NULL))
		return -ENOMEM;
	return 0;
}

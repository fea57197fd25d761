// SPDX-License-Identifier: GPL-2.0-or-later
/* SCTP thin streams: the SCTP_THIN socket option and the defaults of new
 * sockets (net.sctp.thin_* in struct netns_sctp).
 *
 * (This text is make upstream-series' glue: the out-of-tree module has
 * its own per-netns state, bounds for unprivileged sockets and
 * SCTP_THIN_INFO instead; sctp_thin_conf_merge() below is the module's.)
 */

#include <net/sctp/sctp.h>
#include <net/sctp/thin.h>
#include "thin_glue.h"

/* A new socket's settings: the netns sysctls. */
void sctp_thin_sock_init(struct sock *sk)
{
	struct sctp_thin_conf *conf = &sctp_sk(sk)->thin_conf;
	struct net *net = sock_net(sk);

	conf->flags = 0;
	if (READ_ONCE(net->sctp.thin_rto_min))
		conf->flags |= SCTP_THIN_RTO_MIN;
	if (READ_ONCE(net->sctp.thin_restart_timer))
		conf->flags |= SCTP_THIN_RESTART_TIMER;
	if (READ_ONCE(net->sctp.thin_linear_timeouts))
		conf->flags |= SCTP_THIN_LINEAR_TIMEOUTS;
	if (READ_ONCE(net->sctp.thin_fast_retransmit))
		conf->flags |= SCTP_THIN_FAST_RETRANSMIT;
	if (READ_ONCE(net->sctp.thin_loss_estimation))
		conf->flags |= SCTP_THIN_LOSS_ESTIMATION;
	if (READ_ONCE(net->sctp.thin_congestion_guard))
		conf->flags |= SCTP_THIN_CONGESTION_GUARD;
	if (READ_ONCE(net->sctp.thin_sack_immediately))
		conf->flags |= SCTP_THIN_SACK_IMMEDIATELY;
	if (READ_ONCE(net->sctp.thin_rdb))
		conf->flags |= SCTP_THIN_RDB;
	conf->rdb_max_bytes = READ_ONCE(net->sctp.thin_rdb_max_bytes);
	conf->rdb_max_packets = READ_ONCE(net->sctp.thin_rdb_max_packets);
	conf->rto_min = READ_ONCE(net->sctp.thin_rto_min) ? :
			SCTP_THIN_RTO_MIN_DEFAULT;
	conf->lt_max = READ_ONCE(net->sctp.thin_linear_timeouts_max);
	conf->guard = (READ_ONCE(net->sctp.thin_congestion_guard) ? :
		       SCTP_THIN_GUARD_DEFAULT) * SCTP_THIN_ONE / 100;
}

static int sctp_thin_conf_check(struct sock *sk,
				const struct sctp_thin_params *p)
{
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
	return 0;
}

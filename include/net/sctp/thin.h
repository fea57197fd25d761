/* SPDX-License-Identifier: GPL-2.0-or-later */
/* thin-sctp: kernel-internal interface of the thin-stream mechanisms.
 *
 * Petlund et al., "Improving SCTP retransmission delays for
 * time-dependent thin streams", 2009.  Section numbers below refer to
 * that paper unless an RFC is named.
 *
 * Types and entry points.  The inline hooks called from upstream files
 * are in thin_hooks.h, which needs the full struct sctp_association.
 */

#ifndef __NET_SCTP_THIN_H__
#define __NET_SCTP_THIN_H__

#include <linux/types.h>
#include <linux/timer.h>
#include <linux/sctp_thin.h>
#include <net/sctp/thin_core.h>

struct net;
struct sock;
struct sctp_association;
struct sctp_transport;
struct sctp_packet;
struct sctp_sackhdr;

/* Mechanisms that need the packet-in-flight bookkeeping (5.1). */
#define SCTP_THIN_MECHANISMS	(SCTP_THIN_RTO_MIN | SCTP_THIN_RESTART_TIMER | \
				 SCTP_THIN_LINEAR_TIMEOUTS | \
				 SCTP_THIN_FAST_RETRANSMIT | \
				 SCTP_THIN_SACK_IMMEDIATELY | SCTP_THIN_RDB | \
				 SCTP_THIN_TAIL_PROBE | SCTP_THIN_RACK)

#define SCTP_THIN_RTO_MIN_DEFAULT	200	/* ms, 5.2 */
#define SCTP_THIN_LT_MAX_DEFAULT	6	/* as tcp_thin_linear_timeouts */
#define SCTP_THIN_LT_MAX_LIMIT		255
#define SCTP_THIN_GUARD_DEFAULT		20	/* percent of packets given up */
#define SCTP_THIN_MAX_GAPS		32	/* more gap blocks: thick */
#define SCTP_THIN_MAX_DUPS		16	/* dup TSNs read per SACK */
#define SCTP_THIN_RRTHRESH		4	/* RFC 7765 4.2: packets on a path */
#define SCTP_THIN_RDB_MAX_BYTES_LIMIT	65535	/* thin_rdb_max_bytes */
/* RDB's queue gate (sctp_thin_rdb_gate_rtt()): the base RTT is the lowest
 * SRTT of the last 10-20 s; a queue counts from 10 ms.
 */
#define SCTP_THIN_RDB_GATE_WINDOW	((u32)msecs_to_jiffies(10000))
#define SCTP_THIN_RDB_GATE_SLACK	((u32)msecs_to_jiffies(10))

/* Bounds on what a socket without CAP_NET_ADMIN over its netns may ask
 * (net.sctp.thin_*_floor/ceiling/required); defaults = the sysctl preset.
 */
#define SCTP_THIN_RTO_MIN_FLOOR_DEFAULT	200	/* ms */
#define SCTP_THIN_LT_CEILING_DEFAULT	6

/* Per-netns event counters, for nstat and the like.  Upstream they are
 * entries of the SCTP MIB (include/net/sctp/sctp.h, /proc/net/sctp/snmp;
 * make upstream-series takes each line below into the patch of its
 * mechanism); the module cannot grow that enum, which sctp.h owns, and
 * shows them in /proc/net/sctp/thin_snmp.  Events, not packets: none is
 * counted per packet sent (a bulk flow pays no shared counter).
 */
enum sctp_thin_mib_field {
	SCTP_MIB_THIN_RESTARTS,			/* ThinRtoRestarts */
	SCTP_MIB_THIN_STRIKES_DEFERRED,		/* ThinStrikesDeferred */
	SCTP_MIB_THIN_RESYNCS,			/* ThinResyncs */
	SCTP_MIB_THIN_TRANSITIONS,		/* ThinTransitions */
	SCTP_MIB_THIN_FAST_RETRANSMITS,		/* ThinFastRetransmits */
	SCTP_MIB_THIN_LINEAR_TIMEOUTS,		/* ThinLinearTimeouts */
	SCTP_MIB_THIN_RDB_REPAIRED,		/* ThinRdbRepaired */
	SCTP_THIN_MIB_MAX
};

/* Settings of a socket (defaults for its new associations) or of an
 * association.
 */
struct sctp_thin_conf {
	u32 flags;		/* SCTP_THIN_* */
	u32 rto_min;		/* ms */
	u32 lt_max;		/* linear timeouts in a row */
	u32 guard;		/* congestion guard, SCTP_THIN_ONE = 100 % */
	u32 rdb_max_bytes;	/* bundled bytes per packet, 0 = MTU-bound */
	u32 rdb_max_packets;	/* data of the last N packets, 1-8 */
};

/* Per-path state, in struct sctp_transport: stock lksctp's clock for the
 * path, so that failure detection is never earlier in time than stock's
 * (thin_timer.c, "Failure detection").  Zeroed with the transport (kzalloc).
 */
struct sctp_thin_path {
	unsigned long stock_rto;	/* stock's RTO while tp->rto == rto */
	unsigned long rto;		/* the tp->rto thin-sctp gave last */
	unsigned long stock_exp;	/* stock's expiry of the armed T3-rtx */
	unsigned long t3_exp;		/* the expiry we gave that T3-rtx */
	unsigned long v_next;		/* stock's next T3-rtx expiry (run) */
	unsigned long saved_rto;	/* tp->rto before a deferred strike */
	unsigned long stock_by;		/* stock's expiry, v_next, when the
					 * last deferred strike gave packets up
					 */
	u8 armed;			/* stock_exp and t3_exp are recorded */
	u8 run;				/* a timeout run is open on the path */
	u8 t3;				/* the next strike is a T3-rtx expiry:
					 * SCTP_THIN_T3_*
					 */
	u8 strike;			/* SCTP_THIN_STRIKE_* of that strike */
	u8 deferred;			/* the run's last strike was deferred:
					 * stock retransmits at v_next
					 */
	u8 rto_suspect;			/* a spurious retransmission since the
					 * last RTT sample: no linear timeouts
					 */
	u8 shadow;			/* stock's estimator took a sample of
					 * its own: stock_srtt, stock_rttvar
					 */
	u8 pend;			/* packets given up early were acked:
					 * stock's ack once a SACK arrives on
					 * this path (sent between pend_old
					 * and pend_new, if pend_timed)
					 */
	u8 pend_timed;
	u8 bo;				/* stock's T3-rtx expires at bo_from
					 * for a loss our copy repaired: its
					 * RTO is bo_rto until it samples a
					 * chunk sent after then (Karn)
					 */
	unsigned long bo_from;
	unsigned long bo_rto;
	u32 stock_srtt;			/* stock's SRTT and RTTVAR (RFC 9260 */
	u32 stock_rttvar;		/* 6.3.1) while shadow, in jiffies */
	unsigned long pend_old;
	unsigned long pend_new;
	struct sctp_thin_rdb_gate rdb_gate;	/* RDB: a queue stands */
	struct sctp_thin_rtt rtt;	/* tail probe: SRTT in µs */
	struct sctp_thin_rack rack;	/* time-based loss rule (RACK) */
};

/* Per-association state, allocated while a mechanism is on. */
struct sctp_thin_assoc {
	struct sctp_thin_core core;
	u64 timeouts;
	u64 linear_timeouts;
	u64 fast_rtx;
	u64 rto_min_clamps;
	u64 restart_corrections;
	u64 strikes_deferred;	/* T3-rtx expiries stock would not have had */
	u64 resyncs;		/* outqueue purges (peer restart, TSN reset) */
	u64 sack_immediately;	/* packets sent with the I-bit set by us */
	struct sctp_thin_rdb rdb;	/* redundant data bundling */
	struct sctp_thin_rdb_cand *rdb_cand;	/* scratch, SCTP_THIN_RDB_SCAN,
						 * allocated on RDB's first use
						 */
	struct sctp_thin_rdb_track *rdb_out;	/* RDB's verdicts: in the same
						 * allocation, after rdb_cand
						 */
	bool held;		/* held back by cwnd/rwnd since last drained */
	u32 lt_run;		/* linear timeouts since the last cum ack move */
	/* Tail probe (thin_probe.c): the PTO timer and the path it is armed
	 * for; the episode and the I-bit score are the core's.
	 */
	struct sctp_association *asoc;	/* for the timer callback */
	struct timer_list timer;
	struct sctp_transport *probe_tp;	/* compared before any use */
	struct sctp_thin_probe probe;
	unsigned long pto_at;	/* the armed PTO's expiry */
	bool pto_armed;		/* a PTO is wanted (armed, not stopped) */
	bool probing;		/* our probe packet is being sent */
	bool probe_delack;	/* the armed PTO has the SACK-delay allowance */
	u64 probes;
	u64 probes_spurious;
	u64 probes_repaired;
	/* Time-based loss rule (thin.c): the reordering window's growth,
	 * chunks declared lost, first indications held back.
	 */
	struct sctp_thin_reo reo;
	u64 rack_lost;
	u64 rack_held;
};

int sctp_thin_init(void);
void sctp_thin_exit(void);
int sctp_thin_proc_init(struct net *net);

void sctp_thin_sock_init(struct sock *sk);
int sctp_thin_setsockopt(struct sock *sk, int optname, void *kopt,
			 unsigned int optlen);
int sctp_thin_getsockopt(struct sock *sk, int optname, int len,
			 char __user *optval, int __user *optlen);

void sctp_thin_assoc_init(struct sctp_association *asoc,
			  const struct sock *sk, gfp_t gfp);
void sctp_thin_assoc_destroy(struct sctp_association *asoc);
void __sctp_thin_rm_peer(struct sctp_association *asoc,
			 struct sctp_transport *peer);
void __sctp_thin_packet_sent(struct sctp_association *asoc,
			     struct sctp_packet *packet, gfp_t gfp);
void __sctp_thin_rdb(struct sctp_association *asoc,
		     struct sctp_packet *packet);
void __sctp_thin_sack(struct sctp_association *asoc,
		      struct sctp_sackhdr *sack,
		      const struct sctp_transport *from);
void __sctp_thin_stale_sack(struct sctp_transport *tp);
void __sctp_thin_update_rto(struct sctp_transport *tp, u32 rtt);
bool __sctp_thin_strike(struct sctp_association *asoc,
			struct sctp_transport *tp, int is_hb);
void __sctp_thin_strike_done(struct sctp_association *asoc,
			     struct sctp_transport *tp, int is_hb);
unsigned long __sctp_thin_t3_restart(struct sctp_transport *tp, u8 why);
unsigned long __sctp_thin_t3_arm(struct sctp_transport *tp);
unsigned long __sctp_thin_stock_rto(const struct sctp_transport *tp);
void __sctp_thin_outq_purge(struct sctp_association *asoc);
bool __sctp_thin_early_frtx(struct sctp_association *asoc,
			    struct sctp_chunk *chunk);
void __sctp_thin_t3_expired(struct sctp_association *asoc);
bool __sctp_thin_t3_rtx(struct sctp_transport *tp);
void __sctp_thin_assoc_free(struct sctp_association *asoc);

#endif /* __NET_SCTP_THIN_H__ */

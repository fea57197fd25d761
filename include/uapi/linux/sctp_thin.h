/* SPDX-License-Identifier: GPL-2.0-or-later WITH Linux-syscall-note */
/* thin-sctp: socket options for thin-stream retransmission mechanisms.
 *
 * Petlund et al., "Improving SCTP retransmission delays for
 * time-dependent thin streams", 2009, sections 5.1-5.4.
 *
 * Option numbers: upstream 6.1 uses 0-37 (RFC 6458 options) and 100-133
 * (Linux-private options).  180 and 181 leave room for both ranges to grow
 * and are not used by any upstream kernel up to 6.18.
 */

#ifndef _UAPI_LINUX_SCTP_THIN_H
#define _UAPI_LINUX_SCTP_THIN_H

#include <linux/types.h>
#include <linux/sctp.h>

#define SCTP_THIN	180	/* struct sctp_thin_params, get and set */
#define SCTP_THIN_INFO	181	/* struct sctp_thin_info, get only */

/* Mechanisms (stp_flags / sti_flags) */
#define SCTP_THIN_RTO_MIN		0x01	/* paper 5.2: RTOmin while thin */
#define SCTP_THIN_RESTART_TIMER		0x02	/* paper 5.2, RFC 7765 */
#define SCTP_THIN_LINEAR_TIMEOUTS	0x04	/* paper 5.3 */
#define SCTP_THIN_FAST_RETRANSMIT	0x08	/* paper 5.4 */
#define SCTP_THIN_LOSS_ESTIMATION	0x10	/* paper 5.1: detection uses loss */
#define SCTP_THIN_CONGESTION_GUARD	0x20	/* not thin while congested */
#define SCTP_THIN_SACK_IMMEDIATELY	0x40	/* RFC 7053 I-bit while thin */
#define SCTP_THIN_ALL			0x7f	/* the mechanisms above */
/* Redundant data bundling while thin: copies of outstanding DATA ride in
 * front of new DATA.  It costs bytes on the wire, so SCTP_THIN_ALL (whose
 * value programs built before it keep) does not include it.
 */
#define SCTP_THIN_RDB			0x80
/* Tail probe while thin (RFC 8985 section 7, TLP): if no SACK came 2 SRTT
 * after the last new DATA, the newest outstanding chunk is sent again
 * with the I-bit.  Not in SCTP_THIN_ALL (yet).
 */
#define SCTP_THIN_TAIL_PROBE		0x100
/* Time-based loss rule while thin (RFC 8985 section 6, RACK): the fast
 * retransmit on the first miss indication (SCTP_THIN_FAST_RETRANSMIT)
 * waits until the chunk was sent a reordering window before a chunk the
 * peer acked, so plain reordering triggers none.  Not in SCTP_THIN_ALL.
 */
#define SCTP_THIN_RACK			0x200
#define SCTP_THIN_KNOWN			0x3ff	/* every bit defined */

/* stp_rdb_max_bytes: bounded by the path MTU only. */
#define SCTP_THIN_RDB_MTU		0xffffffffU

struct sctp_thin_params {
	sctp_assoc_t	stp_assoc_id;	/* SCTP_{FUTURE,CURRENT,ALL}_ASSOC or id */
	__u32		stp_flags;	/* SCTP_THIN_* mechanisms enabled */
	__u32		stp_rto_min;	/* ms, RTOmin while thin */
	__u32		stp_linear_timeouts_max; /* linear T3 expiries in a row */
	/* Added later: callers built before pass the shorter optlen and
	 * keep the current values.  0 keeps the current value.
	 */
	__u32		stp_rdb_max_bytes; /* bundled bytes per packet, or
					    * SCTP_THIN_RDB_MTU
					    */
	__u32		stp_rdb_max_packets; /* bundle the data of the last N
					      * packets on the path, 1-8
					      */
};

/* sti_state bits */
#define SCTP_THIN_STATE_THIN		0x01	/* detected as thin now */
#define SCTP_THIN_STATE_SATURATED	0x02	/* list over cap or no memory */
#define SCTP_THIN_STATE_CONGESTED	0x04	/* congestion guard holds it thick */
#define SCTP_THIN_STATE_PROBE_DELACK	0x08	/* the peer seems to ignore the
						 * I-bit: probes wait for its
						 * delayed SACK
						 */

#define SCTP_THIN_LOSS_ONE	65536	/* sti_lossrate fixed point 1.0 */

struct sctp_thin_info {
	sctp_assoc_t	sti_assoc_id;	/* in: association (one-to-many) */
	__u32		sti_flags;	/* effective mechanisms */
	__u32		sti_state;	/* SCTP_THIN_STATE_* */
	__u32		sti_in_flight;	/* packets in flight */
	__u32		sti_lossrate;	/* estimate, SCTP_THIN_LOSS_ONE == 1.0 */
	__u32		sti_transitions; /* thin <-> thick changes */
	__u64		sti_pkts_sent;	/* DATA packets sent, incl. rtx */
	__u64		sti_pkts_lost;	/* packets declared lost */
	__u64		sti_timeouts;	/* T3-rtx expiries */
	__u64		sti_linear_timeouts; /* expiries without backoff */
	__u64		sti_fast_rtx;	/* fast rtx on first indication */
	__u64		sti_rto_min_clamps; /* RTO set from thin RTOmin */
	__u64		sti_restart_corrections; /* RFC 7765 restarts */
	__u64		sti_guard_undone; /* guard counts taken back by dups */
	/* Added later: callers built before pass a shorter optlen.
	 * sti_strikes_deferred: T3-rtx expiries not counted as errors
	 * (stock would not have had them yet); sti_resyncs: outqueue
	 * purges (peer restart, TSN reset).
	 */
	__u64		sti_strikes_deferred;
	__u64		sti_resyncs;
	/* Added later: packets sent with the I-bit (RFC 7053) set by
	 * SCTP_THIN_SACK_IMMEDIATELY.
	 */
	__u64		sti_sack_immediately;
	/* Added later: redundant data bundling (SCTP_THIN_RDB): DATA chunk
	 * copies bundled, their bytes, and losses a copy repaired (the
	 * original lost, a copy delivered first).
	 */
	__u64		sti_rdb_chunks;
	__u64		sti_rdb_bytes;
	__u64		sti_rdb_repaired;
	/* Added later: packets with new DATA sent without copies because
	 * a queue stood on their path (RDB's queue gate).
	 */
	__u64		sti_rdb_gated;
	/* Added later: tail probes (SCTP_THIN_TAIL_PROBE) sent, those the
	 * peer's dup report showed spurious (the original had arrived), and
	 * those that repaired a loss.
	 */
	__u64		sti_probes;
	__u64		sti_probes_spurious;
	__u64		sti_probes_repaired;
	/* Added later: the time-based loss rule (SCTP_THIN_RACK): chunks it
	 * declared lost (fast-retransmitted on the first indication), first
	 * indications it held back (within the reordering window; one per
	 * chunk and SACK), and the reordering window's multiplier.
	 */
	__u64		sti_rack_lost;
	__u64		sti_rack_held;
	__u64		sti_rack_reo_mult;
};

#endif /* _UAPI_LINUX_SCTP_THIN_H */

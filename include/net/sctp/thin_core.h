/* SPDX-License-Identifier: GPL-2.0-or-later */
/* thin-sctp core: packets in flight, loss estimate, thin detection.
 *
 * Petlund et al., "Improving SCTP retransmission delays for
 * time-dependent thin streams", 2009, section 5.1.  Pure logic with no
 * kernel dependency beyond <linux/types.h>, so that tests/unit can build
 * it in user space against a shim.  Callers serialize (socket lock).
 */

#ifndef __NET_SCTP_THIN_CORE_H__
#define __NET_SCTP_THIN_CORE_H__

#include <linux/bits.h>
#include <linux/types.h>

#define SCTP_THIN_PTTFR		3	/* packets to trigger fast rtx, 5.1 */
#define SCTP_THIN_ONE		BIT(16)	/* fixed point 1.0 */
#define SCTP_THIN_LOSS_MAX	(3 * SCTP_THIN_ONE / 4)	/* clamp, 5.1 */
#define SCTP_THIN_LOSS_WINDOW	128	/* packets, halving window */
#define SCTP_THIN_MIN_SLOTS	8
#define SCTP_THIN_MAX_SLOTS	256	/* past it: thick by definition */
#define SCTP_THIN_GUARD_WINDOW	32	/* packets, the guard's halving window */
#define SCTP_THIN_GUARD_MIN	32	/* packets sent before the guard acts */
#define SCTP_THIN_GUARD_RECENT	16	/* counted TSNs a dup report can undo, <= 16 */
#define SCTP_THIN_ACKED_PATHS	4	/* paths one SACK reports progress on */

enum {
	SCTP_THIN_PKT_DEAD,		/* acked, lost or purged: tombstone */
	SCTP_THIN_PKT_LIVE,		/* in flight */
	SCTP_THIN_PKT_STOCK,		/* given up by a T3-rtx expiry stock
					 * would not have had: out of flight,
					 * but stock's until acked
					 */
};

/* What sctp_thin_core_stock_acked() knows of a path. */
enum {
	SCTP_THIN_STOCK_NONE,		/* the SACK acked none of its packets */
	SCTP_THIN_STOCK_ACKED,		/* it may have: too many paths */
	SCTP_THIN_STOCK_TIMED,		/* it did, send times known */
};

/* One DATA-carrying packet in flight. */
struct sctp_thin_pkt {
	u32 tsn;		/* highest TSN the packet carries */
	u8 misses;		/* loss indications so far */
	u8 state;		/* SCTP_THIN_PKT_* */
	u8 rtx;			/* its highest TSN was sent before: no RTT */
	unsigned long sent;	/* send time, jiffies */
	u32 sent_us;		/* send time, the caller's µs clock */
	const void *transport;	/* path: compared, never dereferenced */
};

/* Memory for the packet ring, from the caller (thin.c in the kernel, a
 * shim in tests/unit): the core has no allocator of its own.
 */
struct sctp_thin_mem {
	void *(*alloc)(size_t size, gfp_t gfp);
	void (*free)(void *p);
};

struct sctp_thin_core {
	const struct sctp_thin_mem *mem;	/* the caller's, at init */
	struct sctp_thin_pkt *ring;	/* send order, NULL until first send */
	u32 head;		/* index of the oldest slot */
	u32 used;		/* slots in use, live and dead */
	u32 size;		/* ring size, a power of 2, or 0 */
	u32 in_flight;		/* live packets */
	u32 stock;		/* SCTP_THIN_PKT_STOCK packets */
	u32 highest_sent;	/* highest TSN sent, if highest_valid */
	bool highest_valid;	/* false after a purge: TSNs may jump */
	bool saturated;		/* over cap or no memory: thick till drained */
	/* Paths on which the last SACK acked a recorded packet; more than
	 * SCTP_THIN_ACKED_PATHS (or a saturated list) sets acked_all.
	 */
	u8 n_acked;
	bool acked_all;
	const void *acked[SCTP_THIN_ACKED_PATHS];
	/* Per path in acked[]: the send time of the newest first
	 * transmission that SACK acked (bit i of acked_us_ok: there is one).
	 */
	u8 acked_us_ok;
	u32 acked_us[SCTP_THIN_ACKED_PATHS];
	/* Paths on which the last SACK acked a SCTP_THIN_PKT_STOCK packet,
	 * with the send times of the oldest and newest it acked there;
	 * more than SCTP_THIN_ACKED_PATHS sets stock_all.
	 */
	u8 n_stock;
	bool stock_all;
	const void *stock_tp[SCTP_THIN_ACKED_PATHS];
	unsigned long stock_old[SCTP_THIN_ACKED_PATHS];
	unsigned long stock_new[SCTP_THIN_ACKED_PATHS];
	bool thin;		/* result of the last update */
	u64 pkts_sent;		/* lifetime: packets recorded */
	u64 pkts_lost;		/* lifetime: packets declared lost */
	u32 win_sent;		/* loss estimate: decaying window */
	u32 win_lost;
	u32 guard_sent;		/* congestion guard: decaying window of */
	u32 guard_gone;		/* packets sent and TSNs given up */
	u32 gone_mark;		/* highest TSN counted in guard_gone */
	bool gone_marked;	/* gone_mark is valid */
	bool congested;		/* guard: too many TSNs given up */
	u16 recent_valid;	/* bit i: recent_tsn[i] holds a counted TSN */
	u8 recent_next;		/* next slot of recent_tsn to overwrite */
	u32 recent_tsn[SCTP_THIN_GUARD_RECENT];	/* last TSNs counted */
	u64 guard_undone;	/* lifetime: counts taken back by dup reports */
	u32 guard;		/* guard threshold, SCTP_THIN_ONE = all, 0 = off */
	u32 transitions;	/* thin <-> thick changes */
	/* The caller's clock in µs (sctp_thin_core_clock()), and the RTT
	 * sample the last SACK gave (0: none) with its path.
	 */
	u32 now_us;
	u32 rtt_us;
	const void *rtt_tp;
};

/* Tail probe (RFC 8985 section 7, TLP), per path: the smoothed RTT in µs
 * from the core's own samples (sctp_thin_rtt_sample()).
 */
struct sctp_thin_rtt {
	u32 srtt_us;		/* 0: no sample yet */
};

/* Time-based loss rule (RFC 8985 section 6, RACK), per path: the send
 * time and RTT of the most recently sent packet the peer acked (RACK.xmit_ts,
 * RACK.rtt), and the path's minimum RTT over the last 10-20 s.
 */
#define SCTP_THIN_RACK_MIN_WINDOW_US	10000000U	/* 10 s */
#define SCTP_THIN_REO_STEPS_MAX		15	/* reo_wnd_mult up to 16 */
#define SCTP_THIN_REO_PERSIST		16	/* RFC 8985 reo_wnd_persist */

struct sctp_thin_rack {
	u32 xmit_us;		/* RACK.xmit_ts, if valid */
	u32 rtt_us;		/* RACK.rtt */
	u32 min_us;		/* lowest RTT of this window, 0 = none */
	u32 min_prev_us;	/* of the window before, 0 = none */
	u32 win_start_us;	/* when this window began */
	bool valid;		/* a first transmission was acked */
};

/* The reordering window's growth (RFC 8985 6.2 step 4), per association:
 * reo_wnd_mult = steps + 1 (zeroed state: 1).
 */
struct sctp_thin_reo {
	u32 round_tsn;		/* RACK.dsack_round, if round_open */
	bool round_open;
	u8 steps;		/* reo_wnd_mult - 1 */
	u8 persist;		/* RACK.reo_wnd_persist */
};

enum {
	SCTP_THIN_RACK_UNKNOWN,		/* the chunk's packet is not recorded */
	SCTP_THIN_RACK_NOT_LOST,	/* not sent before RACK.xmit_ts */
	SCTP_THIN_RACK_WAIT,		/* within the reordering window */
	SCTP_THIN_RACK_LOST,
};

#define SCTP_THIN_PROBE_DELACK_US	200000	/* RFC 9260 6.2 SACK delay */
#define SCTP_THIN_PROBE_SCORE_WINDOW	8	/* probes, the score's window */
#define SCTP_THIN_PROBE_RETRY		16	/* 1 in N probes w/o allowance */

enum {
	SCTP_THIN_PROBE_NONE,		/* no verdict (yet) */
	SCTP_THIN_PROBE_SPURIOUS,	/* the original had arrived */
	SCTP_THIN_PROBE_REPAIRED,	/* the probe repaired a loss */
};

/* One probe episode (RFC 8985 7.3, 7.4) and the I-bit score (1.8 of
 * docs/design-tail-probe.md).
 */
struct sctp_thin_probe {
	u32 end_tsn;		/* highest TSN sent when the probe left */
	u32 tsn;		/* the TSN copied */
	bool open;		/* an episode is open: no other probe */
	bool clean;		/* tsn sent exactly twice: original, probe */
	bool dup;		/* a dup report of tsn came */
	bool acked;		/* tsn was acked */
	bool delack;		/* the probe's PTO had the SACK-delay allowance */
	bool distrust;		/* the peer seems to ignore the I-bit */
	u8 win_probes;		/* probes without the allowance, decaying */
	u8 win_spurious;	/* of which spurious */
	u8 retry;		/* counts to SCTP_THIN_PROBE_RETRY */
};

/* Redundant data bundling (RDB, our addition after the paper's section 7
 * and Opstad et al.'s TCP RDB): copies of outstanding DATA chunks ride in
 * front of new DATA.  The choice of chunks and the verdict on each copy
 * are here; thin_rdb.c finds the chunks and builds the packet.
 */
#define SCTP_THIN_RDB_HISTORY	16	/* packets remembered, all paths */
#define SCTP_THIN_RDB_MAX_PACKETS 8	/* limit of thin_rdb_max_packets */
#define SCTP_THIN_RDB_SCAN	32	/* chunks looked at per packet */
#define SCTP_THIN_RDB_TRACK	16	/* bundled TSNs awaiting a verdict */
#define SCTP_THIN_RDB_SAT	255	/* copies and dups saturate here */

struct sctp_thin_rdb_cand {
	u32 tsn;
	u32 len;		/* bytes on the wire, padded */
	void *chunk;		/* the caller's, never dereferenced */
	const void *key;	/* AUTH key it was queued under, or NULL */
	bool acked;		/* gap-acked: the peer has it */
	bool gone;		/* abandoned (PR-SCTP) */
	bool pick;		/* out: bundled */
};

struct sctp_thin_rdb_track {
	u32 tsn;		/* a TSN sent as a bundled copy */
	u32 first;		/* highest TSN of the first packet carrying it */
	u32 carrier;		/* highest TSN of the last packet carrying it */
	const void *transport;	/* path: compared, never dereferenced */
	u8 copies;		/* copies sent */
	u8 dups;		/* dup reports of it seen since the first */
	bool valid;
};

struct sctp_thin_rdb {
	u32 hist_tsn[SCTP_THIN_RDB_HISTORY];	/* highest TSN per packet */
	const void *hist_tp[SCTP_THIN_RDB_HISTORY];
	u8 hist_next;		/* slot of the next packet */
	u8 hist_used;
	struct sctp_thin_rdb_track track[SCTP_THIN_RDB_TRACK];
	u64 chunks;		/* lifetime: copies bundled */
	u64 bytes;		/* lifetime: their bytes on the wire */
	u64 repaired;		/* lifetime: losses a copy repaired */
	u64 untracked;		/* lifetime: copies with no verdict slot */
	u64 gated;		/* lifetime: packets sent without copies, a queue stood */
};

/* RDB's standing-queue gate, per path (sctp_thin_rdb_gate_rtt()). */
struct sctp_thin_rdb_gate {
	u32 min_cur;		/* lowest SRTT of this window, 0 = none yet */
	u32 min_prev;		/* lowest SRTT of the window before, 0 = none */
	u32 win_start;		/* when this window began (clock of the caller) */
	bool closed;		/* a queue stands: no copies */
};

struct sctp_thin_gap {
	u16 start;		/* offsets from the cumulative TSN ack, */
	u16 end;		/* RFC 9260 3.3.4, host order */
};

void sctp_thin_core_init(struct sctp_thin_core *c,
			 const struct sctp_thin_mem *mem);
void sctp_thin_core_destroy(struct sctp_thin_core *c);
void sctp_thin_core_sent(struct sctp_thin_core *c, u32 highest_tsn,
			 unsigned long now, const void *transport, gfp_t gfp);
unsigned int sctp_thin_core_sack(struct sctp_thin_core *c, u32 cum_tsn,
				 const struct sctp_thin_gap *gaps,
				 unsigned int ngaps);
u32 sctp_thin_core_lossrate(const struct sctp_thin_core *c);
bool sctp_thin_core_update(struct sctp_thin_core *c, bool loss_est,
			   bool app_limited);
const struct sctp_thin_pkt *
sctp_thin_core_oldest(const struct sctp_thin_core *c, const void *transport,
		      u32 *count);
bool sctp_thin_core_acked_path(const struct sctp_thin_core *c,
			       const void *transport);
void sctp_thin_core_purge(struct sctp_thin_core *c);
void sctp_thin_core_resync(struct sctp_thin_core *c, u32 highest_sent,
			   bool outstanding);
void sctp_thin_core_purge_transport(struct sctp_thin_core *c,
				    const void *transport);
void sctp_thin_core_timeout(struct sctp_thin_core *c, const void *transport,
			    bool early);
int sctp_thin_core_stock_acked(const struct sctp_thin_core *c,
			       const void *transport, unsigned long *oldest,
			       unsigned long *newest);
bool sctp_thin_core_dup(struct sctp_thin_core *c, u32 tsn);
void sctp_thin_core_resent(struct sctp_thin_core *c, u32 tsn);
void sctp_thin_core_repaired(struct sctp_thin_core *c, u32 tsn);
void sctp_thin_core_clock(struct sctp_thin_core *c, u32 now_us);
void sctp_thin_core_untimed(struct sctp_thin_core *c, u32 now_us);
const struct sctp_thin_pkt *
sctp_thin_core_newest(const struct sctp_thin_core *c);

bool sctp_thin_core_acked_xmit(const struct sctp_thin_core *c,
			       const void *transport, u32 *xmit_us);
void sctp_thin_rack_advance(struct sctp_thin_rack *r, u32 xmit_us,
			    u32 now_us);
u32 sctp_thin_reo_wnd(const struct sctp_thin_reo *o,
		      const struct sctp_thin_rack *r, u32 srtt_us);
void sctp_thin_reo_sack(struct sctp_thin_reo *o, u32 cum_tsn, bool dsack,
			u32 highest_sent);
void sctp_thin_reo_lost(struct sctp_thin_reo *o);
int sctp_thin_core_rack(const struct sctp_thin_core *c, u32 tsn,
			const void *transport, const struct sctp_thin_rack *r,
			u32 reo_wnd_us, u32 *wait_us);

void sctp_thin_rtt_sample(struct sctp_thin_rtt *r, u32 rtt_us);
u32 sctp_thin_pto_us(u32 srtt_us, bool delack);
bool sctp_thin_probe_delack(struct sctp_thin_probe *p, bool ibit);
void sctp_thin_probe_open(struct sctp_thin_probe *p, u32 tsn, u32 end_tsn,
			  bool delack);
void sctp_thin_probe_close(struct sctp_thin_probe *p);
void sctp_thin_probe_resent(struct sctp_thin_probe *p, u32 tsn);
bool sctp_thin_probe_dup(const struct sctp_thin_probe *p, u32 tsn);
int sctp_thin_probe_sack(struct sctp_thin_probe *p, u32 cum_tsn,
			 const struct sctp_thin_gap *gaps, unsigned int ngaps,
			 const u32 *dups, unsigned int ndups);
int sctp_thin_probe_new_data(struct sctp_thin_probe *p);

void sctp_thin_rdb_reset(struct sctp_thin_rdb *r);
void sctp_thin_rdb_note(struct sctp_thin_rdb *r, u32 highest_tsn,
			const void *transport);
void sctp_thin_rdb_forget(struct sctp_thin_rdb *r, const void *transport);
unsigned int sctp_thin_rdb_choose(const struct sctp_thin_rdb *r,
				  struct sctp_thin_rdb_cand *cand,
				  unsigned int n, const void *transport,
				  const void *key, u32 first_new,
				  u32 max_packets, u32 room, u32 *bytes);
void sctp_thin_rdb_bundled(struct sctp_thin_rdb *r, u32 tsn, u32 carrier,
			   const void *transport);
unsigned int sctp_thin_rdb_sack(struct sctp_thin_rdb *r, u32 cum_tsn,
				const struct sctp_thin_gap *gaps,
				unsigned int ngaps, const u32 *dups,
				unsigned int ndups,
				struct sctp_thin_rdb_track *out);
bool sctp_thin_rdb_gate_rtt(struct sctp_thin_rdb_gate *g, u32 srtt, u32 now,
			    u32 window, u32 slack);

#endif /* __NET_SCTP_THIN_CORE_H__ */

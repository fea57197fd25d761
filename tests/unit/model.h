/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Brute-force model of the thin-sctp core and the invariant checker,
 * shared by the randomized driver and the fuzz target.
 */
#ifndef __THIN_MODEL_H__
#define __THIN_MODEL_H__
#include "shim.h"

/* The paths (transports) the drivers send on: more than
 * SCTP_THIN_ACKED_PATHS, so that a SACK can ack packets of too many paths.
 * The checker asks about each, and about one path never used.
 */
#define MODEL_PATHS	6
extern const int model_paths[MODEL_PATHS + 1];

struct mpkt {
	u32 tsn;
	unsigned long sent;
	const void *tp;
	u8 misses;
	bool live;
	bool stock;		/* given up early: stock's until acked */
	u32 sent_us;		/* the µs clock at the send */
	bool rtx;		/* highest TSN not above the highest sent */
};

struct model {
	struct mpkt *p;		/* every packet recorded since the last drain */
	size_t n, cap;
	u32 size;		/* ring size the core must have grown to */
	bool saturated;
	u64 sent, lost;
	u32 highest;		/* highest TSN sent, if highest_valid */
	bool highest_valid;	/* false at start and after a purge */
	u32 win_sent, win_lost;
	u32 guard_sent, guard_gone;	/* congestion guard window */
	u32 gone_mark;
	bool gone_marked, congested;
	/* TSNs counted by the guard, oldest first; undone ones are removed */
	u32 recent[SCTP_THIN_GUARD_RECENT];
	bool recent_ok[SCTP_THIN_GUARD_RECENT];
	size_t nrecent;
	u64 undone;
	/* paths of the packets the last SACK acked, distinct, in order */
	const void *acked[MODEL_PATHS + 1];
	size_t nacked;
	bool acked_all;		/* a saturated list drained by that SACK */
	/* paths of the packets given up early that SACK acked, distinct,
	 * in order, with the oldest and newest send time of each
	 */
	const void *stock_tp[MODEL_PATHS + 1];
	unsigned long stock_old[MODEL_PATHS + 1], stock_new[MODEL_PATHS + 1];
	size_t nstock;
	bool thin;		/* the last detection, and how often it changed */
	u32 transitions;
};

/* The time-based loss rule's state of a path, by definition: the newest
 * first transmission acked so far (RFC 8985 6.2, RACK.xmit_ts, RACK.rtt).
 */
struct mrack {
	u32 xmit, rtt;
	bool valid;
};

/* One test run: the core under test and its model, driven together. */
struct pair {
	struct sctp_thin_core core;
	struct model m;
	/* per path of model_paths: the core's RACK state, the model's */
	struct sctp_thin_rack rack[MODEL_PATHS + 1];
	struct mrack mrk[MODEL_PATHS + 1];
	long rack_checks, rack_lost;	/* verdicts compared, of them lost */
	unsigned long now;
	u32 now_us;		/* the µs clock, starts near its wrap */
	bool app_limited;	/* the sender's state for the detection */
	long steps;
	long failures;
	const char *why;	/* first failed invariant */
};

void pair_init(struct pair *t);
void pair_fini(struct pair *t);
void pair_sent(struct pair *t, u32 tsn, const void *tp, bool fail_alloc);
void pair_sack(struct pair *t, u32 cum, const struct sctp_thin_gap *g,
	       unsigned int n);
/* Path @tp removed: its packets leave (sctp_thin_core_purge_transport()). */
void pair_purge(struct pair *t, const void *tp);
/* The outqueue was purged: every packet and TSN forgotten. */
void pair_purge_all(struct pair *t);
/* Recording restarts after TSN @highest, with data @outstanding or not. */
void pair_resync(struct pair *t, u32 highest, bool outstanding);
/* T3-rtx of @tp expired; @early: before stock's (a deferred strike). */
void pair_timeout(struct pair *t, const void *tp, bool early);
/* The peer reports @tsn as a duplicate; returns the core's answer. */
bool pair_dup(struct pair *t, u32 tsn);
/* A copy (RDB, the probe) repaired the loss of @tsn. */
void pair_repaired(struct pair *t, u32 tsn);
/* @tsn is sent a third time: its dup reports no longer count. */
void pair_resent(struct pair *t, u32 tsn);
/* Congestion guard threshold for core and model (SCTP_THIN_ONE = all). */
void pair_guard(struct pair *t, u32 guard);
/* Check every invariant; returns false (and sets t->why) on a mismatch. */
bool pair_check(struct pair *t);
/* RDB's choice of chunks against a reference: NULL or what differs. */
const char *model_rdb_choose(const struct sctp_thin_rdb *r,
			     const struct sctp_thin_rdb_cand *in,
			     unsigned int n, const void *tp, const void *key,
			     u32 first_new, u32 maxp, u32 room);
#endif

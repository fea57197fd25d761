/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Brute-force model of the thin-sctp core and the invariant checker,
 * shared by the randomized driver and the fuzz target.
 */
#ifndef __THIN_MODEL_H__
#define __THIN_MODEL_H__
#include "shim.h"

struct mpkt {
	u32 tsn;
	unsigned long sent;
	const void *tp;
	u8 misses;
	bool live;
};

struct model {
	struct mpkt *p;		/* every packet recorded since the last drain */
	size_t n, cap;
	u32 size;		/* ring size the core must have grown to */
	bool saturated;
	u64 sent, lost;
	u32 highest;
	u32 win_sent, win_lost;
	u32 guard_sent, guard_gone;	/* congestion guard window */
	u32 gone_mark;
	bool gone_marked, congested;
	/* TSNs counted by the guard, oldest first; undone ones are removed */
	u32 recent[SCTP_THIN_GUARD_RECENT];
	bool recent_ok[SCTP_THIN_GUARD_RECENT];
	size_t nrecent;
	u64 undone;
};

/* One test run: the core under test and its model, driven together. */
struct pair {
	struct sctp_thin_core core;
	struct model m;
	unsigned long now;
	long steps;
	long failures;
	const char *why;	/* first failed invariant */
};

void pair_init(struct pair *t);
void pair_fini(struct pair *t);
void pair_sent(struct pair *t, u32 tsn, const void *tp, bool fail_alloc);
void pair_sack(struct pair *t, u32 cum, const struct sctp_thin_gap *g,
	       unsigned int n);
void pair_purge(struct pair *t, const void *tp);
void pair_timeout(struct pair *t, const void *tp);
/* The peer reports @tsn as a duplicate; returns the core's answer. */
bool pair_dup(struct pair *t, u32 tsn);
/* @tsn is sent a third time: its dup reports no longer count. */
void pair_resent(struct pair *t, u32 tsn);
/* Congestion guard threshold for core and model (SCTP_THIN_ONE = all). */
void pair_guard(struct pair *t, u32 guard);
/* Check every invariant; returns false (and sets t->why) on a mismatch. */
bool pair_check(struct pair *t);
#endif

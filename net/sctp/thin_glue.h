/* SPDX-License-Identifier: GPL-2.0-or-later */
/* thin-sctp: what the glue files (thin.c, thin_timer.c, thin_rdb.c,
 * thin_probe.c, thin_ctl.c) call of each other.  Upstream files call the hooks of
 * <net/sctp/thin_hooks.h> instead.
 */

#ifndef __NET_SCTP_THIN_GLUE_H__
#define __NET_SCTP_THIN_GLUE_H__

#include <linux/ktime.h>
#include <linux/math64.h>
#include <net/sctp/structs.h>
#include <net/sctp/thin.h>

/* thin.c: memory (counted in thin_objects), association state */
void *sctp_thin_alloc(size_t size, gfp_t gfp);
int sctp_thin_assoc_set(struct sctp_association *asoc,
			const struct sctp_thin_conf *conf);
void sctp_thin_update(struct sctp_association *asoc,
		      struct sctp_thin_assoc *ta);

/* thin_timer.c: the paths' clocks */
void sctp_thin_paths_reset(struct sctp_association *asoc);
void sctp_thin_spurious(struct sctp_association *asoc);
void sctp_thin_runs_end(struct sctp_association *asoc, bool moved,
			const struct sctp_transport *from);

/* thin_rdb.c */
bool sctp_thin_rdb_abandoned(const struct sctp_chunk *chunk);
void sctp_thin_rdb_verdicts(struct sctp_association *asoc, u32 cum_tsn,
			    const struct sctp_thin_gap *gaps,
			    unsigned int ngaps, const u32 *dup,
			    unsigned int ndups);

/* thin_probe.c: the tail probe */
void sctp_thin_probe_init(struct sctp_thin_assoc *ta,
			  struct sctp_association *asoc);
void sctp_thin_probe_stop(struct sctp_association *asoc);
void sctp_thin_probe_sent(struct sctp_association *asoc,
			  struct sctp_transport *tp, bool fresh);
void sctp_thin_probe_sacked(struct sctp_association *asoc, u32 cum_tsn,
			    const struct sctp_thin_gap *gaps,
			    unsigned int ngaps, const u32 *dup,
			    unsigned int ndups, bool moved);

/* The µs clock of the core (sctp_thin_core_clock()). */
static inline u32 sctp_thin_now_us(void)
{
	return (u32)div_u64(ktime_get_ns(), NSEC_PER_USEC);
}

/* thin.c: @tp if it is still one of the association's paths, else NULL */
struct sctp_transport *sctp_thin_path(struct sctp_association *asoc,
				      const struct sctp_transport *tp);

/* Does anything read the µs clock (sctp_thin_core_clock())?  The tail
 * probe (its PTO) and the time-based loss rule; with both off, no clock
 * read per packet and per SACK (thin.c, sctp_thin_clock_sacked()).
 */
static inline bool sctp_thin_clock_on(const struct sctp_association *asoc)
{
	return asoc->thin_conf.flags & (SCTP_THIN_TAIL_PROBE | SCTP_THIN_RACK);
}

/* Is the tail probe on, or an episode of it still open?  (Clearing the
 * bit closes the episode, sctp_thin_assoc_set(); the second test is a
 * belt.)  Else the packet and SACK hooks skip its steps.
 */
static inline bool sctp_thin_probe_live(const struct sctp_association *asoc)
{
	return (asoc->thin_conf.flags & SCTP_THIN_TAIL_PROBE) ||
	       asoc->thin->probe.open;
}

/* thin_ctl.c: the per-netns state and event counters (SCTP_MIB_THIN_*;
 * SCTP_INC_STATS() upstream)
 */
int sctp_thin_net_register(void);
void sctp_thin_net_unregister(void);
void sctp_thin_inc_stats(const struct net *net, int field);

/* Is the association thin now, with mechanism @m switched on? */
static inline bool sctp_thin_on(const struct sctp_association *asoc, u32 m)
{
	return (asoc->thin_conf.flags & m) && asoc->thin->core.thin;
}

#endif /* __NET_SCTP_THIN_GLUE_H__ */

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* thin-sctp tracepoints: sctp_thin:sctp_thin_transition when an
 * association turns thin or thick (paper 5.1), sctp_thin:sctp_thin_mechanism
 * each time a mechanism of 5.2-5.4 changes what lksctp does.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sctp_thin

#if !defined(_TRACE_SCTP_THIN_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SCTP_THIN_H

#include <linux/tracepoint.h>
#include <net/sctp/structs.h>
#include <net/sctp/thin_core.h>

TRACE_EVENT(sctp_thin_transition,
	TP_PROTO(const struct sctp_association *asoc,
		 const struct sctp_thin_core *core),
	TP_ARGS(asoc, core),
	TP_STRUCT__entry(
		__field(__u64, asoc)
		__field(__u32, in_flight)
		__field(__u32, lossrate)
		__field(__u32, transitions)
		__field(bool, thin)
		__field(bool, saturated)
	),
	TP_fast_assign(
		__entry->asoc = (unsigned long)asoc;
		__entry->in_flight = core->in_flight;
		__entry->lossrate = sctp_thin_core_lossrate(core);
		__entry->transitions = core->transitions;
		__entry->thin = core->thin;
		__entry->saturated = core->saturated;
	),
	TP_printk("asoc=%#llx thin=%d in_flight=%u lossrate=%u/65536 saturated=%d transitions=%u",
		  __entry->asoc, __entry->thin, __entry->in_flight,
		  __entry->lossrate, __entry->saturated, __entry->transitions)
);

TRACE_EVENT(sctp_thin_mechanism,
	TP_PROTO(const struct sctp_association *asoc, unsigned int mechanism,
		 unsigned long value),
	TP_ARGS(asoc, mechanism, value),
	TP_STRUCT__entry(
		__field(__u64, asoc)
		__field(unsigned int, mechanism)
		__field(unsigned long, value)
	),
	TP_fast_assign(
		__entry->asoc = (unsigned long)asoc;
		__entry->mechanism = mechanism;
		__entry->value = value;
	),
	TP_printk("asoc=%#llx mechanism=%s value=%lu", __entry->asoc,
		  __print_symbolic(__entry->mechanism,
				   { SCTP_THIN_RTO_MIN, "rto_min" },
				   { SCTP_THIN_RESTART_TIMER, "restart_timer" },
				   { SCTP_THIN_LINEAR_TIMEOUTS, "linear_timeout" },
				   { SCTP_THIN_FAST_RETRANSMIT, "fast_retransmit" },
				   { SCTP_THIN_SACK_IMMEDIATELY, "sack_immediately" },
				   { SCTP_THIN_RDB, "rdb" },
				   { SCTP_THIN_TAIL_PROBE, "tail_probe" },
				   { SCTP_THIN_RACK, "rack" }),
		  __entry->value)
);

#endif /* _TRACE_SCTP_THIN_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE thin_trace
#include <trace/define_trace.h>

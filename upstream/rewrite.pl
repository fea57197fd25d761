# SPDX-License-Identifier: GPL-2.0-or-later
#
# make upstream-series: what changes in the text of our items on their way
# into the upstream form (scripts/upstream-series.sh runs perl -0p with
# this file on each generated file).  Only references to the out-of-tree
# shape: the project's name, its docs/ and tests/ directories.  No logic:
# a rule that would change code belongs in our sources instead.

# The project's name is not the kernel's.
s{thin-sctp core: packets in flight}{SCTP thin streams: packets in flight}g;

# docs/core.md is ours; the design goes into the commit message.
s{ \*\n \* See docs/core\.md for the design and the reasons behind the constants\.\n}{}g;

# tests/unit's user-space shim becomes the KUnit test.
s{kernel dependency beyond <linux/types\.h>, so that tests/unit can build\n \* it in user space against a shim\.}{kernel dependency beyond <linux/types.h>, so that a KUnit test can\n * exercise it on its own.}g;
s{\(thin\.c in the kernel, a\n \* shim in tests/unit\)}{(thin.c, or a\n * KUnit test)}g;

# tests/unit's cases become KUnit cases (net/sctp/thin_core_test.c).
s{^static void (t_\w+)\(void\)$}{static void $1(struct kunit *test)}mg;

# The module's trace header; upstream, the events are in trace/events/sctp.h.
s{^#include "thin_trace\.h"$}{#include <trace/events/sctp.h>}mg;

# The uapi struct's history of the module (older callers, shorter
# optlen) is not upstream's.
s{\t/\* Added later: callers built before pass the shorter optlen and\n\t \* keep the current values\.  0 keeps the current value\.\n\t \*/\n}{\t/* 0 keeps the current value. */\n}g;

# The module's SCTP_THIN_INFO fields are struct sctp_info's upstream.
s{/\* sti_state bits \*/}{/* sctpi_thin_state bits */}g;
s{/\* sti_lossrate fixed point 1\.0 \*/}{/* sctpi_thin_lossrate's 1.0 */}g;
s{/\* Mechanisms \(stp_flags / sti_flags\) \*/}{/* Mechanisms (stp_flags, sctpi_thin_flags) */}g;

# The file comments name the project and parts the series leaves out:
# the tail probe (thin_probe.c) and the time-based loss rule
# (SCTP_THIN_RACK), the thin_objects counter, sctp_thin_init()/_exit()
# and the module's /proc file (docs/design-upstream-series.md).  The text
# about them goes; upstream-series.sh fails if any is left in a
# generated file.
s{^/\* thin-sctp: retransmission latency mechanisms for thin streams\.$}{/* SCTP thin streams: retransmission latency mechanisms.}mg;
s{^/\* thin-sctp: kernel-internal interface of the thin-stream mechanisms\.$}{/* SCTP thin streams: the kernel-internal interface of the mechanisms.}mg;
s{^/\* thin-sctp: inline hooks called from upstream net/sctp files\.$}{/* SCTP thin streams: inline hooks called from the other net/sctp files.}mg;
s{^/\* thin-sctp: the RTO and the T3-rtx timer while thin \(paper 5\.2, 5\.3\),\n \* and failure detection on stock's clock\.$}{/* SCTP thin streams: the RTO and the T3-rtx timer while thin (paper\n * 5.2, 5.3), and failure detection on stock's clock.}mg;
s{^/\* thin-sctp: }{/* SCTP thin streams: }mg;
s{^/\* SCTP thin streams: redundant data bundling \(RDB\), beyond the paper; the design\n \* is in}{/* SCTP thin streams: redundant data bundling (RDB), beyond the paper;\n * the design is in}mg;
s{^/\* SCTP thin streams: what the glue files \(thin\.c, thin_timer\.c, thin_rdb\.c,\n \* thin_probe\.c, thin_ctl\.c\) call of each other\.  Upstream files call the hooks of\n \* <net/sctp/thin_hooks\.h> instead\.}{/* SCTP thin streams: what the glue files (thin.c, thin_timer.c,\n * thin_rdb.c, thin_ctl.c) call of each other.  The other net/sctp files\n * call the hooks of <net/sctp/thin_hooks.h> instead.}mg;
s{^/\* thin\.c: memory \(counted in thin_objects\), association state \*/$}{/* thin.c: memory, association state */}mg;
s{ of thin_core\.c is five\n \* files, each opening}{ of thin_core.c is four\n * files, each opening}g;
s{^ \*   thin_probe\.c  the tail probe \(RFC 8985 section 7\) and its timer;\n}{}mg;
s{^ \*   thin_ctl\.c    sysctls, socket options, /proc/net/sctp/thin\.$}{ *   thin_ctl.c    the sysctls' defaults, the SCTP_THIN socket option.}mg;
s{^ \* allocation on first use \(counted in thin_objects\), its resynchronisation\n \* when TSNs jump, and the thin/thick decision \(5\.1, sctp_thin_update\(\)\)\.$}{ * allocation on first use, its resynchronisation when TSNs jump, and\n * the thin/thick decision (5.1, sctp_thin_update()).}mg;
s{^ \* - sctp_init\(\), sctp_exit\(\): sctp_thin_init\(\), sctp_thin_exit\(\); the\n \*   per-netns state they register is thin_ctl\.c's\.\n}{}mg;
s{ first miss indication while thin \(5\.4\), gated by the time-based loss\n \*   rule with SCTP_THIN_RACK \(RFC 8985 6\.2, sctp_thin_rack_allows\(\)\)\.}{ first miss indication while thin (5.4).}g;
s{ as the\n \* rest of the outqueue code does\.  /proc readers take no lock and read\n \* counters only, like /proc/net/sctp/assocs\.}{ as the\n * rest of the outqueue code does.}g;
s{ but keeps the counters for\n \* SCTP_THIN_INFO\.\n}{ but keeps the counters.\n}g;
s{/\* the tp->rto thin-sctp gave last \*/}{/* the tp->rto we gave last */}g;
s{ and every change thin-sctp makes to a path's RTO or to}{ and every change we make to a path's RTO or to}g;
s{ is stock's unless thin-sctp changed it;}{ is stock's unless we changed it;}g;
# upstream/series/glue/thin_ctl.c's note to us
s{\n \*\n \* \(This text is make upstream-series' glue: the out-of-tree module has\n \* its own per-netns state, bounds for unprivileged sockets and\n \* SCTP_THIN_INFO instead; sctp_thin_conf_merge\(\) below is the module's\.\)\n \*/}{\n */}g;

# sctp_thin_core_repaired() (patch 8): upstream, only RDB's verdicts call
# it; the tail probe and the demo that found the double count are ours.
s{/\* The original of \@tsn was lost and a copy repaired it: an RDB copy
 \* bundled with later data \(sctp_thin_rdb_sack\(\)\) or a tail probe
 \* \(RFC 8985 7\.4\.2\)\.  Still a loss \(as TCP RDB, which enters CWR\): it
 \* counts for the loss estimate and, once, for the congestion guard,
 \* which would otherwise never see the losses of a flow whose RDB copies
 \* repair them\.  A copy that left alone superseded the original and the
 \* guard counted the TSN then \(sctp_thin_core_sent\(\)\): it stays counted,
 \* and no longer for a dup report to take back\.  Counting it again \(the
 \* mark is gone once the cumulative ack passed it\) made each probed loss
 \* two for the guard: 5 % random loss held associations thick \(telecom
 \* demo, 2d87766\)\.  Not remembered for dup reports: the copies' own dups
 \* say nothing about the original\.
 \*/}{/* The original of \@tsn was lost and an RDB copy bundled with later data
 * repaired it (sctp_thin_rdb_sack()).  Still a loss (as TCP RDB, which
 * enters CWR): it counts for the loss estimate and, once, for the
 * congestion guard, which would otherwise never see the losses of a flow
 * whose RDB copies repair them.  A copy that left alone (a
 * retransmission) superseded the original and the guard counted the TSN
 * then (sctp_thin_core_sent()): it stays counted, and no longer for a
 * dup report to take back.  Counting it again (the mark is gone once
 * the cumulative ack passed it) would make that loss two for the guard.
 * Not remembered for dup reports: the copies' own dups say nothing
 * about the original.
 */}g;
# ... and its KUnit case: the copy sent alone is a retransmission there
# (message text only).
s{/\* a probe \(a copy sent alone\) superseded the original, which the\n\t \* guard counted then; its repaired verdict comes after the ack\n\t \* passed the mark: one loss, counted once\n\t \*/}{/* a retransmission (a copy sent alone) superseded the original,\n\t * which the guard counted then; its repaired verdict comes after\n\t * the ack passed the mark: one loss, counted once\n\t */}g;
s{"the probe superseded its original"}{"the retransmission superseded its original"}g;
s{"probe repaired: counted once for the guard"}{"repaired after a retransmission: counted once for the guard"}g;

# The per-netns event counters: the SCTP MIB upstream (mib_glue in
# scripts/upstream-series.sh), the module's own array here.
s{\bsctp_thin_inc_stats\(}{SCTP_INC_STATS(}g;

# Before patch 8 (RDB; SCTP_THIN_PATCH is the patch being composed), the
# text that names it.
if (($ENV{SCTP_THIN_PATCH} // 99) < 8) {
	s{ of thin_core\.c is four\n \* files, each opening}{ of thin_core.c is three\n * files, each opening}g;
	s{^ \*   thin_rdb\.c    redundant data bundling;\n}{}mg;
	s{;\n \*   then the timeout runs \(thin_timer\.c\) and RDB's verdicts \(thin_rdb\.c\)\.}{;\n *   then the timeout runs (thin_timer.c).}g;
	s{/\* 0 in a value keeps the current one; SCTP_THIN_RDB_MTU in\n \* stp_rdb_max_bytes is 0 inside \(bounded by the path MTU only\)\.\n \*/}{/* 0 in a value keeps the current one. */}g;
	s{\(thin\.c, thin_timer\.c,\n \* thin_rdb\.c, thin_ctl\.c\) call of each other\.}{(thin.c, thin_timer.c,\n * thin_ctl.c) call of each other.}g;
	s{ in stock_rto\.  The sample also feeds RDB's queue gate\.}{ in stock_rto.}g;
}

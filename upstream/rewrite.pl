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

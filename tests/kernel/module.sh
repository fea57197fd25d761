#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# In the guest: the loaded sctp is ours and its interfaces exist.
. "$(dirname "$0")/lib.sh"
MOD=${THIN_MODDIR:?}
want=$(modinfo -F version "$MOD/sctp.ko")

check '[ "$(cat /sys/module/sctp/version)" = "$want" ]' "loaded sctp is ours ($want)"
check '[ -r /proc/net/sctp/thin ] && head -n 1 /proc/net/sctp/thin | grep -q "^ASSOC-ID "' "/proc/net/sctp/thin has a header"
check '[ "$(cat /sys/module/sctp/parameters/thin_objects)" = 0 ]' "no thin objects when idle"
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
check '[ -d /sys/kernel/tracing/events/sctp_thin/sctp_thin_transition ] && [ -d /sys/kernel/tracing/events/sctp_thin/sctp_thin_mechanism ]' "tracepoints sctp_thin:* registered"
thin_done

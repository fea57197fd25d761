#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# In the guest: the loaded sctp is ours and its interfaces exist.
. "$(dirname "$0")/lib.sh"
MOD=${THIN_MODDIR:?}
want=$(modinfo -F version "$MOD/sctp.ko")

check '[ "$(cat /sys/module/sctp/version)" = "$want" ]' "loaded sctp is ours ($want)"
check '[ -r /proc/net/sctp/thin ] && head -n 1 /proc/net/sctp/thin | grep -q "^ASSOC-ID "' "/proc/net/sctp/thin has a header"
check '[ "$(cat /sys/module/sctp/parameters/thin_objects)" = 0 ]' "no thin objects when idle"
# the event counters of a new netns: 7 SctpThin* names in
# /proc/net/sctp/snmp's format, each 0
ip netns add thin-mib
mib=$(ip netns exec thin-mib awk '$1 ~ /^SctpThin[A-Za-z]+$/ && $2 == "0" { n++ } END { print n + 0, NR }' \
	/proc/net/sctp/thin_snmp)
ip netns del thin-mib
check '[ "$mib" = "7 7" ]' "/proc/net/sctp/thin_snmp of a new netns: 7 SctpThin counters, each 0 ($mib)"
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
check '[ -d /sys/kernel/tracing/events/sctp_thin/sctp_thin_transition ] && [ -d /sys/kernel/tracing/events/sctp_thin/sctp_thin_mechanism ]' "tracepoints sctp_thin:* registered"
thin_done

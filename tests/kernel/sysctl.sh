#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# In the guest: the net.sctp.thin_* sysctls: defaults, validation (EINVAL,
# value unchanged), per-netns scope, and permissions (an unprivileged user
# namespace cannot change the host's values).
. "$(dirname "$0")/lib.sh"
S=/proc/sys/net/sctp

# $1: name, $2: value.  Succeeds if the write was accepted.
wr() { echo "$2" 2>/dev/null >"$S/$1"; }

check '[ "$(cat $S/thin_rto_min)" = 0 ]' "thin_rto_min defaults to 0 (off)"
check '[ "$(cat $S/thin_restart_timer)" = 0 ]' "thin_restart_timer defaults to 0"
check '[ "$(cat $S/thin_linear_timeouts)" = 0 ]' "thin_linear_timeouts defaults to 0"
check '[ "$(cat $S/thin_linear_timeouts_max)" = 6 ]' "thin_linear_timeouts_max defaults to 6"
check '[ "$(cat $S/thin_fast_retransmit)" = 0 ]' "thin_fast_retransmit defaults to 0"
check '[ "$(cat $S/thin_loss_estimation)" = 1 ]' "thin_loss_estimation defaults to 1"
check '[ "$(cat $S/thin_congestion_guard)" = 20 ]' "thin_congestion_guard defaults to 20 (percent)"
check '[ "$(cat $S/thin_sack_immediately)" = 0 ]' "thin_sack_immediately defaults to 0"
check '[ "$(cat $S/thin_rdb)" = 0 ] && [ "$(cat $S/thin_rdb_max_bytes)" = 0 ] && [ "$(cat $S/thin_rdb_max_packets)" = 1 ]' "thin_rdb 0, thin_rdb_max_bytes 0 (MTU-bound), thin_rdb_max_packets 1 by default"
check '[ "$(cat $S/thin_tail_probe)" = 0 ]' "thin_tail_probe defaults to 0"
check '[ "$(cat $S/thin_rto_min_floor)" = 200 ]' "thin_rto_min_floor defaults to 200 (the preset's RTOmin)"
check '[ "$(cat $S/thin_linear_timeouts_ceiling)" = 6 ]' "thin_linear_timeouts_ceiling defaults to 6"
check '[ "$(cat $S/thin_congestion_guard_required)" = 1 ]' "thin_congestion_guard_required defaults to 1"
check '! wr thin_linear_timeouts_ceiling 256 && ! wr thin_congestion_guard_required 2 && ! wr thin_rto_min_floor -1 && [ "$(cat $S/thin_linear_timeouts_ceiling)" = 6 ]' "bounds out of range: EINVAL, unchanged"

check 'wr thin_rto_min 200 && [ "$(cat $S/thin_rto_min)" = 200 ]' "thin_rto_min accepts 200"
rto_max=$(cat $S/rto_max)
check '! wr thin_rto_min $((rto_max + 1)) && [ "$(cat $S/thin_rto_min)" = 200 ]' "thin_rto_min above rto_max: EINVAL, unchanged"
check '! wr thin_rto_min -1 && [ "$(cat $S/thin_rto_min)" = 200 ]' "thin_rto_min -1: EINVAL, unchanged"
for b in thin_restart_timer thin_linear_timeouts thin_fast_retransmit thin_loss_estimation thin_sack_immediately thin_rdb thin_tail_probe; do
	old=$(cat $S/$b)
	check "! wr $b 2 && [ \"\$(cat $S/$b)\" = $old ]" "$b=2: EINVAL, unchanged"
	check "wr $b 1 && [ \"\$(cat $S/$b)\" = 1 ] && wr $b $old" "$b accepts 1"
done
check '! wr thin_linear_timeouts_max 0 && ! wr thin_linear_timeouts_max 256 && [ "$(cat $S/thin_linear_timeouts_max)" = 6 ]' "thin_linear_timeouts_max 0/256: EINVAL"
check '! wr thin_congestion_guard 101 && ! wr thin_congestion_guard -1 && [ "$(cat $S/thin_congestion_guard)" = 20 ]' "thin_congestion_guard 101/-1: EINVAL, unchanged"
check 'wr thin_congestion_guard 0 && wr thin_congestion_guard 100 && wr thin_congestion_guard 20' "thin_congestion_guard accepts 0 (off) .. 100"
check '! wr thin_rdb_max_packets 0 && ! wr thin_rdb_max_packets 9 && wr thin_rdb_max_packets 8 && wr thin_rdb_max_packets 1' "thin_rdb_max_packets 0/9: EINVAL; 1 .. 8 accepted"
check '! wr thin_rdb_max_bytes -1 && ! wr thin_rdb_max_bytes 65536 && wr thin_rdb_max_bytes 65535 && wr thin_rdb_max_bytes 0' "thin_rdb_max_bytes -1/65536: EINVAL; 0 .. 65535 accepted"
check '! wr thin_rto_min abc' "non-numeric write rejected"

# Per-netns: a new namespace starts from the defaults, and its writes stay
# inside it.
ns=thin-sysctl-$$
ip netns add $ns
check '[ "$(ip netns exec $ns cat $S/thin_rto_min)" = 0 ]' "new netns starts with defaults"
ip netns exec $ns sh -c "echo 300 > $S/thin_rto_min"
check '[ "$(ip netns exec $ns cat $S/thin_rto_min)" = 300 ] && [ "$(cat $S/thin_rto_min)" = 200 ]' "netns write stays in its netns"
ip netns del $ns

# Unprivileged user namespace: cannot change the host's (init netns)
# sysctls.
if command -v unshare >/dev/null && id nobody >/dev/null 2>&1; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups unshare -U -r sh -c "echo 500 > $S/thin_rto_min" 2>/dev/null
	check '[ "$(cat $S/thin_rto_min)" = 200 ]' "unprivileged user namespace cannot change the host value"
	setpriv --reuid=nobody --regid=nogroup --clear-groups unshare -U -r sh -c "echo 1 > $S/thin_rto_min_floor" 2>/dev/null
	check '[ "$(cat $S/thin_rto_min_floor)" = 200 ]' "nor the host's bound for unprivileged sockets"
else
	skip "unshare/setpriv or user nobody missing"
fi
wr thin_rto_min 0
thin_done

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# In the guest: the net.sctp.thin_* sysctls: defaults, validation (EINVAL,
# value unchanged), per-netns scope, and permissions (an unprivileged user
# namespace cannot change the host's values); a new netns copies its
# creator's values at creation (the host's, or a container's for a netns
# made inside it), and an unprivileged container (unshare -U -r -n)
# cannot loosen the host's bounds (thin_ctl.c, sctp_thin_loosens()).
. "$(dirname "$0")/lib.sh"
S=/proc/sys/net/sctp

# $1: name, $2: value.  Succeeds if the write was accepted.
wr() { echo "$2" 2>/dev/null >"$S/$1"; }
# $1: name, $2: value.  Succeeds if the write failed with $3 (default
# EPERM's "Operation not permitted").
wr_fails() {
	local out
	out=$( (echo "$2" >"$S/$1") 2>&1) && return 1
	[[ $out == *"${3:-Operation not permitted}"* ]]
}
# $1: name, $2: value.  One open file, two write() calls: "$2", then "\n"
# at offset ${#2}, which proc_dointvec_minmax() parses as nothing.
# Succeeds if both writes were accepted.
wr_split() {
	python3 - "$S/$1" "$2" 2>/dev/null <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY)
os.write(fd, sys.argv[2].encode())
os.write(fd, b"\n")
PY
}
# The bounded sysctls (thin_ctl.c, sctp_thin_proc_bounded()).
BOUNDED="thin_rto_min thin_linear_timeouts_max thin_congestion_guard thin_rdb_max_bytes
thin_rdb_max_packets thin_rto_min_floor thin_linear_timeouts_ceiling thin_congestion_guard_required"
# Every thin_* sysctl of the current netns, "name:value" per line.
thin_vals() { (cd $S && grep -H . thin_*); }
# $1: name.  Its value.
val() { cat "$S/$1"; }

# --container: run by the host part below as nobody in `unshare -U -r -n`
# (a user namespace owning a new netns: its root has CAP_NET_ADMIN over
# the netns, not over the host).  The host set floor 150, ceiling 5,
# guard required 1, guard 15 %, RDB 2 packets / 400 bytes, rto_min 200,
# every mechanism on; THIN_HOST_VALS holds the host's thin_vals.
if [ "${1:-}" = --container ]; then
	check '[ "$(thin_vals)" = "$THIN_HOST_VALS" ]' "container: sees the host's values"
	# A write the handler parses as nothing keeps the value (it once
	# stored an uninitialised one: 0 loosens every bound, -EPERM here).
	for n in $BOUNDED; do
		v=$(val "$n")
		check "wr_split $n $v && [ \"\$(val $n)\" = $v ]" "container: $n written as \"$v\", then \"\\n\" at offset ${#v}: accepted, unchanged"
	done
	check '[ "$(thin_vals)" = "$THIN_HOST_VALS" ]' "container: the split writes changed nothing"
	check 'wr_fails thin_rto_min 100 && [ "$(val thin_rto_min)" = 200 ]' "container: thin_rto_min 100 (floor 150) -> EPERM, unchanged"
	check 'wr_fails thin_linear_timeouts_max 6 && [ "$(val thin_linear_timeouts_max)" = 5 ]' "container: thin_linear_timeouts_max 6 (ceiling 5) -> EPERM, unchanged"
	check 'wr_fails thin_congestion_guard 0 && wr_fails thin_congestion_guard 16 && [ "$(val thin_congestion_guard)" = 15 ]' "container: thin_congestion_guard 0 or 16 (required, 15) -> EPERM, unchanged"
	check 'wr_fails thin_rto_min_floor 100 && [ "$(val thin_rto_min_floor)" = 150 ]' "container: thin_rto_min_floor lowered -> EPERM, unchanged"
	check 'wr_fails thin_linear_timeouts_ceiling 6 && [ "$(val thin_linear_timeouts_ceiling)" = 5 ]' "container: thin_linear_timeouts_ceiling raised -> EPERM, unchanged"
	check 'wr_fails thin_congestion_guard_required 0 && [ "$(val thin_congestion_guard_required)" = 1 ]' "container: thin_congestion_guard_required 0 -> EPERM, unchanged"
	check 'wr_fails thin_rdb_max_packets 3 && [ "$(val thin_rdb_max_packets)" = 2 ]' "container: thin_rdb_max_packets raised -> EPERM, unchanged"
	check 'wr_fails thin_rdb_max_bytes 0 && wr_fails thin_rdb_max_bytes 401 && [ "$(val thin_rdb_max_bytes)" = 400 ]' "container: thin_rdb_max_bytes 0 (MTU) or 401 -> EPERM, unchanged"
	check 'wr_fails thin_rto_min -1 "Invalid argument" && [ "$(val thin_rto_min)" = 200 ]' "container: bad input is still EINVAL"
	check 'wr thin_rto_min_floor 150 && wr thin_rto_min 200' "container: writing the current values accepted"
	check 'wr thin_rto_min 300 && wr thin_linear_timeouts_max 3 && wr thin_congestion_guard 10 && [ "$(val thin_rto_min) $(val thin_linear_timeouts_max) $(val thin_congestion_guard)" = "300 3 10" ]' "container: settings within the bounds accepted (rto_min 300, linear max 3, guard 10)"
	check 'wr thin_rto_min_floor 250 && wr thin_linear_timeouts_ceiling 4 && wr thin_rdb_max_packets 1 && wr thin_rdb_max_bytes 300 && [ "$(val thin_rto_min_floor) $(val thin_linear_timeouts_ceiling)" = "250 4" ]' "container: stricter bounds accepted"
	check 'wr_fails thin_rto_min 200 && wr_fails thin_rto_min_floor 249' "container: then rto_min 200 and floor 249 -> EPERM (the stricter floor 250 holds)"
	# A netns the container creates copies the container's values, and
	# its stricter bounds hold there (it once copied init_net's: floor
	# 150, so the container's root escaped its own floor 250).
	mine=$(thin_vals)
	check '[ "$(unshare -n bash -c "cd $S && grep -H . thin_*")" = "$mine" ]' "container: a netns it creates (unshare -n) starts with the container's values (floor 250, ceiling 4, rto_min 300), not the host's"
	check 'unshare -n bash -c "! (echo 150 >$S/thin_rto_min_floor) 2>/dev/null && ! (echo 200 >$S/thin_rto_min) 2>/dev/null && [ \"\$(cat $S/thin_rto_min_floor) \$(cat $S/thin_rto_min)\" = \"250 300\" ]"' "container: there too, floor 150 and rto_min 200 -> EPERM, unchanged"
	check 'wr thin_fast_retransmit 0 && wr thin_rdb 0 && wr thin_rto_min 0 && wr thin_linear_timeouts 0 && [ "$(val thin_fast_retransmit)$(val thin_rdb)$(val thin_rto_min)$(val thin_linear_timeouts)" = 0000 ]' "container: mechanisms switched off"
	thin_done
	exit
fi

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
check '[ "$(cat $S/thin_rack)" = 0 ]' "thin_rack defaults to 0"
check '[ "$(cat $S/thin_rto_min_floor)" = 200 ]' "thin_rto_min_floor defaults to 200 (the preset's RTOmin)"
check '[ "$(cat $S/thin_linear_timeouts_ceiling)" = 6 ]' "thin_linear_timeouts_ceiling defaults to 6"
check '[ "$(cat $S/thin_congestion_guard_required)" = 1 ]' "thin_congestion_guard_required defaults to 1"
check '! wr thin_linear_timeouts_ceiling 256 && ! wr thin_congestion_guard_required 2 && ! wr thin_rto_min_floor -1 && [ "$(cat $S/thin_linear_timeouts_ceiling)" = 6 ]' "bounds out of range: EINVAL, unchanged"

check 'wr thin_rto_min 200 && [ "$(cat $S/thin_rto_min)" = 200 ]' "thin_rto_min accepts 200"
rto_max=$(cat $S/rto_max)
check '! wr thin_rto_min $((rto_max + 1)) && [ "$(cat $S/thin_rto_min)" = 200 ]' "thin_rto_min above rto_max: EINVAL, unchanged"
check '! wr thin_rto_min -1 && [ "$(cat $S/thin_rto_min)" = 200 ]' "thin_rto_min -1: EINVAL, unchanged"
for b in thin_restart_timer thin_linear_timeouts thin_fast_retransmit thin_loss_estimation thin_sack_immediately thin_rdb thin_tail_probe thin_rack; do
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
# A write in two parts on one open file: the second, "\n" at a non-zero
# offset, is parsed as nothing and must leave the first one's value (it
# once stored an uninitialised value: thin_rdb_max_packets 0, out of its
# range).  Every thin sysctl, to a value other than its current one.
before=$(thin_vals)
for kv in thin_rto_min=300 thin_linear_timeouts_max=3 thin_congestion_guard=30 \
	thin_rdb_max_bytes=500 thin_rdb_max_packets=3 thin_rto_min_floor=100 \
	thin_linear_timeouts_ceiling=7 thin_congestion_guard_required=0 \
	thin_restart_timer=1 thin_linear_timeouts=1 thin_fast_retransmit=1 thin_loss_estimation=0 \
	thin_sack_immediately=1 thin_rdb=1 thin_tail_probe=1 thin_rack=1; do
	n=${kv%=*} v=${kv#*=}
	check "wr_split $n $v && [ \"\$(val $n)\" = $v ]" "$n written as \"$v\", then \"\\n\" at offset ${#v}: $v"
done
for kv in $before; do
	wr "${kv%%:*}" "${kv#*:}" || not_ok "host: reset ${kv%%:*} to ${kv#*:}"
done
check '[ "$(thin_vals)" = "$before" ]' "split writes: values restored"

# Per-netns: a new namespace starts with the host's values, copied at
# creation (as TCP's congestion control), non-default ones here; later
# changes of the host's do not propagate; its writes stay inside it; host
# root may set anything there (past the bounds too).
for kv in thin_restart_timer=1 thin_linear_timeouts=1 thin_fast_retransmit=1 \
	thin_sack_immediately=1 thin_rdb=1 thin_loss_estimation=0 \
	thin_linear_timeouts_max=5 thin_congestion_guard=15 thin_rdb_max_bytes=400 \
	thin_rdb_max_packets=2 thin_rto_min_floor=150 thin_linear_timeouts_ceiling=5 \
	thin_congestion_guard_required=0; do
	wr "${kv%=*}" "${kv#*=}" || not_ok "host: set ${kv%=*} to ${kv#*=}"
done
host_vals=$(thin_vals)
ns=thin-sysctl-$$
ip netns add $ns
check '[ "$(ip netns exec $ns bash -c "cd $S && grep -H . thin_*")" = "$host_vals" ]' "new netns starts with the host's values (all 14, non-default)"
wr thin_congestion_guard_required 1
wr thin_rto_min 250
check '[ "$(ip netns exec $ns cat $S/thin_congestion_guard_required $S/thin_rto_min)" = "0
200" ]' "later changes of the host's values do not propagate"
wr thin_rto_min 200
ip netns exec $ns sh -c "echo 300 > $S/thin_rto_min"
check '[ "$(ip netns exec $ns cat $S/thin_rto_min)" = 300 ] && [ "$(cat $S/thin_rto_min)" = 200 ]' "netns write stays in its netns"
ip netns exec $ns sh -c "echo 1 > $S/thin_congestion_guard_required"
check 'ip netns exec $ns sh -c "echo 50 > $S/thin_rto_min && echo 0 > $S/thin_rto_min_floor && echo 255 > $S/thin_linear_timeouts_ceiling && echo 0 > $S/thin_congestion_guard && echo 0 > $S/thin_congestion_guard_required && echo 8 > $S/thin_rdb_max_packets && echo 0 > $S/thin_rdb_max_bytes && echo 1 > $S/thin_rto_min_floor && echo 10 > $S/thin_linear_timeouts_max" && [ "$(ip netns exec $ns cat $S/thin_rto_min $S/thin_congestion_guard $S/thin_rdb_max_packets | tr "\n" " ")" = "50 0 8 " ]' "host root sets anything in a netns it owns (past the bounds, bounds loosened)"
ip netns del $ns

# Unprivileged user namespace: cannot change the host's (init netns)
# sysctls.
if command -v unshare >/dev/null && id nobody >/dev/null 2>&1; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups unshare -U -r sh -c "echo 500 > $S/thin_rto_min" 2>/dev/null
	check '[ "$(cat $S/thin_rto_min)" = 200 ]' "unprivileged user namespace cannot change the host value"
	setpriv --reuid=nobody --regid=nogroup --clear-groups unshare -U -r sh -c "echo 1 > $S/thin_rto_min_floor" 2>/dev/null
	check '[ "$(cat $S/thin_rto_min_floor)" = 150 ]' "nor the host's bound for unprivileged sockets"
	# An unprivileged container (a user namespace owning a new netns):
	# the checks of --container above, run there.
	host_vals=$(thin_vals)
	out=$(THIN_HOST_VALS=$host_vals setpriv --reuid=nobody --regid=nogroup --clear-groups \
		unshare -U -r -n bash "$0" --container 2>&1)
	echo "$out" | grep -v -E '^[0-9]+ passed'
	THIN_PASS=$((THIN_PASS + $(echo "$out" | grep -c '^ok')))
	THIN_FAIL=$((THIN_FAIL + $(echo "$out" | grep -c '^not ok')))
	echo "$out" | grep -q '^[0-9]* passed, [0-9]* failed$' || not_ok "container: ran to the end"
	check '[ "$(thin_vals)" = "$host_vals" ]' "the container's writes left the host's values unchanged"
else
	skip "unshare/setpriv or user nobody missing"
fi
# Back to the defaults for the tests that follow in the same VM.
for kv in thin_rto_min=0 thin_restart_timer=0 thin_linear_timeouts=0 thin_fast_retransmit=0 \
	thin_sack_immediately=0 thin_rdb=0 thin_loss_estimation=1 \
	thin_linear_timeouts_max=6 thin_congestion_guard=20 thin_rdb_max_bytes=0 \
	thin_rdb_max_packets=1 thin_rto_min_floor=200 thin_linear_timeouts_ceiling=6 \
	thin_congestion_guard_required=1; do
	wr "${kv%=*}" "${kv#*=}" || not_ok "host: reset ${kv%=*} to ${kv#*=}"
done
thin_done

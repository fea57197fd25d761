#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# In the guest: SCTP_THIN / SCTP_THIN_INFO over loopback (tests/kernel/sockopt.c),
# with the sysctls at their defaults and then all on; the bounds for
# unprivileged sockets; then no thin object is left once the sockets are
# closed.
. "$(dirname "$0")/lib.sh"
ip link set lo up
S=/proc/sys/net/sctp
check '[ "$(cat $S/thin_rto_min_floor)" = 200 ] && [ "$(cat $S/thin_linear_timeouts_ceiling)" = 6 ] && [ "$(cat $S/thin_congestion_guard_required)" = 1 ]' \
	"bounds sysctls at their defaults (floor 200, ceiling 6, guard required 1)"
# sockopt counts thin objects (allocated on first use): none may be left
# from earlier tests (association teardown is asynchronous).
check 'thin_objects_zero 15' "no thin object before sockopt ($(cat /sys/module/sctp/parameters/thin_objects))"
out=$("$BIN/sockopt" 7700)
# "not ok - (FILE:LINE) TEXT" -> "not ok - TEXT (FILE:LINE)": a failure
# starts with what failed (tests/mutants/list names checks by their text).
where='s/^not ok - (\([^)]*\)) \(.*\)$/not ok - \2 (\1)/'
echo "$out" | grep -v -E '^[0-9]+ passed' | sed -e "$where"
THIN_PASS=$((THIN_PASS + $(echo "$out" | grep -c '^ok')))
THIN_FAIL=$((THIN_FAIL + $(echo "$out" | grep -c '^not ok')))
# A crash or a missing binary prints no line at all, and nothing above
# would fail.
echo "$out" | grep -q '^[0-9]* passed, [0-9]* failed$' || not_ok "sockopt ran to the end"

sysctl -q -p "$TOP/sysctl/90-thin-sctp.conf"
check 'thin_objects_zero 15' "no thin object left by the first run ($(cat /sys/module/sctp/parameters/thin_objects))"
out=$("$BIN/sockopt" 7710)
echo "$out" | grep -v -E '^[0-9]+ passed' | sed -e "$where" -e 's/^\(not \)\?ok - /&[sysctl all on] /'
THIN_PASS=$((THIN_PASS + $(echo "$out" | grep -c '^ok')))
THIN_FAIL=$((THIN_FAIL + $(echo "$out" | grep -c '^not ok')))
echo "$out" | grep -q '^[0-9]* passed, [0-9]* failed$' || not_ok "[sysctl all on] sockopt ran to the end"
for k in thin_rto_min thin_restart_timer thin_linear_timeouts thin_fast_retransmit; do
	sysctl -q -w net.sctp.$k=0
done

# The netns bounds for sockets without CAP_NET_ADMIN in the initial user
# namespace (sockopt bounds): past them EPERM and nothing changes, within
# them accepted; root may go past.  Unprivileged twice: unshare -U (a new
# user namespace, the same netns, over which it has no capability) and
# setpriv to nobody.  Then an unprivileged container: nobody in unshare -U
# -r -n, whose root has CAP_NET_ADMIN over its new netns (SO_MARK works)
# but is bound all the same, by the bounds its netns copied from the host
# (the RDB limit 500 among them).  Host root in a netns it owns (ip netns
# add) may go past.  Then the floor lowered to 100: an unprivileged
# rto_min 100 is accepted, 99 is not, in the container too.
# $1: label, rest: the command (a prefix, then sockopt and its mode).
sockopt_labelled() {
	local label=$1 out
	shift
	out=$("$@" 2>&1)
	# "not ok - (FILE:LINE) TEXT" -> "not ok - [LABEL] TEXT (FILE:LINE)"
	echo "$out" | grep -v -E '^[0-9]+ passed' |
		sed -e "s/^not ok - (\([^)]*\)) \(.*\)$/not ok - [$label] \2 (\1)/" -e "s/^ok - /ok - [$label] /"
	THIN_PASS=$((THIN_PASS + $(echo "$out" | grep -c '^ok')))
	THIN_FAIL=$((THIN_FAIL + $(echo "$out" | grep -c '^not ok')))
	echo "$out" | grep -q '^[0-9]* passed, [0-9]* failed$' || not_ok "[$label] $* ran to the end"
}
# $1: label, $2: priv|unpriv, $3: port, rest: command prefix.
bounds() {
	local label=$1 mode=$2 port=$3
	shift 3
	sockopt_labelled "$label" "$@" "$BIN/sockopt" bounds "$mode" "$port"
}
# RDB's netns limits for the bounds: 1 packet (the default), 500 bytes.
sysctl -q -w net.sctp.thin_rdb_max_bytes=500
bounds root priv 7720
bounds "unshare -U" unpriv 7730 unshare -U
bounds nobody unpriv 7740 setpriv --reuid=65534 --regid=65534 --clear-groups
# shellcheck disable=SC2016 # $0 and $@ are the inner sh's
container=(setpriv --reuid=65534 --regid=65534 --clear-groups unshare -U -r -n
	sh -c 'ip link set dev lo up && exec "$0" "$@"')
bounds container userns 7770 "${container[@]}"
ns=thin-sockopt-$$
ip netns add $ns
ip -n $ns link set dev lo up
bounds "ip netns, root" priv 7780 ip netns exec $ns
ip netns del $ns
sysctl -q -w net.sctp.thin_rto_min_floor=100
bounds "floor 100, unshare -U" unpriv 7750 unshare -U
bounds "floor 100, container" userns 7790 "${container[@]}"
bounds "floor 100, root" priv 7760
sysctl -q -w net.sctp.thin_rto_min_floor=200
sysctl -q -w net.sctp.thin_rdb_max_bytes=0
# A new socket's rto_min with thin_rto_min unset: 200 ms, raised to the
# floor; every mechanism on with rto_min 0 ("keep") then stays at the
# floor, unprivileged and in a container (whose netns copies the floor).
# $1: label, rest: command prefix.
default_rto() {
	local label=$1
	shift
	sockopt_labelled "$label" "$@" "$BIN/sockopt" default
}
sysctl -q -w net.sctp.thin_rto_min=0
default_rto "floor 200, nobody" setpriv --reuid=65534 --regid=65534 --clear-groups
sysctl -q -w net.sctp.thin_rto_min_floor=300
default_rto "floor 300, nobody" setpriv --reuid=65534 --regid=65534 --clear-groups
default_rto "floor 300, container" "${container[@]}"
sysctl -q -w net.sctp.thin_rto_min_floor=200
check 'thin_objects_zero 10' "every thin object freed after close ($(cat /sys/module/sctp/parameters/thin_objects) left)"
thin_done

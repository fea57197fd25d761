#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest: one cell of the real-application experiment
# (tools/app-m3ua.sh).  Osmocom's STP (osmo-stp, Debian's package) in R,
# M3UA ASPs (tools/m3ua-asp.py) in S, the paper's lab between them
# (tests/kernel/lib.sh, no NFQUEUE hop):
#
#   [S] m3ua-asp.py --- [E] netem: RTT/2 and LOSS each way --- [R] osmo-stp
#       N ASPs, BEAT every INTERVAL ms                          listen m3ua 2905
#
#   guest-m3ua.sh OUT RTT_MS LOSS_PCT SECONDS VARIANT
#   guest-m3ua.sh OUT strace
#
# VARIANT: stock (the loaded module's defaults: run it on Debian's module)
# or thin (the host preset, sysctl/90-thin-sctp.conf, in S and in R, so
# that osmo-stp's sockets and the ASPs' get it).  Both ends keep their
# delayed SACK as it ships (default receivers).  M3UA_ASSOCS (10) and
# M3UA_INTERVAL (250 ms).  Writes OUT/asp.log (the BEAT to BEAT ACK
# latencies), OUT/asp.out, OUT/stp.log, OUT/thin-{s,r}.txt
# (/proc/net/sctp/thin at the end, ours only) and OUT/assocs-{s,r}.txt.
#
# "strace": osmo-stp under strace (socket calls) with one ASP for 5 s and
# no loss: what the application sets on its sockets (OUT/strace.txt).
. "$(dirname "$0")/../kernel/lib.sh"
out=$1
mkdir -p "$out"
cfg=$out/osmo-stp.cfg
cat >"$cfg" <<'CFG'
log stderr
 logging filter all 1
 logging color 0
 logging print category 1
 logging timestamp 1
 logging level set-all notice
line vty
 no login
cs7 instance 0
 xua rkm routing-key-allocation dynamic-permitted
 listen m3ua 2905
  accept-asp-connections dynamic-permitted
CFG
n=${M3UA_ASSOCS:-10}
iv=${M3UA_INTERVAL:-250}
ASP="python3 $TOP/tools/m3ua-asp.py run --connect 10.0.2.1:2905 --interval $iv"

if [ "${2:-}" = strace ]; then
	thin_lab_up 5 noqueue
	trap thin_lab_down EXIT
	ip netns exec $R strace -f -tt -o "$out/strace.txt" \
		-e trace=socket,setsockopt,getsockopt,bind,listen,accept,accept4,sendmsg,recvmsg \
		osmo-stp -c "$cfg" >"$out/stp.log" 2>&1 &
	thin_wait_listen sctp 2905 || { echo "osmo-stp does not listen" >&2; exit 1; }
	ip netns exec $S $ASP --assocs 1 --duration 5 --log "$out/asp.log" >"$out/asp.out" 2>&1
	ip netns exec $R sh -c 'cat /proc/net/sctp/assocs' >"$out/assocs-r.txt"
	thin_lab_down
	trap - EXIT
	grep -E 'setsockopt|getsockopt|socket\(|listen|accept' "$out/strace.txt" | grep -v 'AF_UNIX\|AF_NETLINK' | head -n 60
	exit 0
fi

rtt=$2 loss=$3 dur=$4 variant=$5
d=$((rtt / 2))
thin_lab_up "$d" noqueue
trap thin_lab_down EXIT
lopt=""
[ "$loss" != 0 ] && lopt="loss ${loss}%"
# shellcheck disable=SC2086
thin_lab_netem both delay "${d}ms" $lopt limit 10000
thin_sysctls_off
ip netns exec $R sh -c 'for k in rto_min rto_initial rto_max sack_timeout; do echo "$k $(sysctl -n net.sctp.$k)"; done' >"$out/sysctl-r.txt"
if [ "$variant" = thin ]; then
	for ns in $S $R; do
		ip netns exec $ns sysctl -q -p "$TOP/sysctl/90-thin-sctp.conf"
	done
fi
ip netns exec $R osmo-stp -c "$cfg" >"$out/stp.log" 2>&1 &
thin_wait_listen sctp 2905 || { echo "osmo-stp does not listen" >&2; exit 1; }
sleep 1
ip netns exec $S $ASP --assocs "$n" --duration "$dur" --log "$out/asp.log" >"$out/asp.out" 2>&1 &
asp=$!
# the associations' state and counters near the end, while they live
sleep $((dur > 3 ? dur - 1 : 1))
for ns in s r; do
	n_=$S
	[ $ns = r ] && n_=$R
	ip netns exec "$n_" cat /proc/net/sctp/assocs >"$out/assocs-$ns.txt" 2>/dev/null
	[ -r /proc/net/sctp/thin ] && ip netns exec "$n_" cat /proc/net/sctp/thin >"$out/thin-$ns.txt"
done
wait $asp
rc=$?
thin_lab_down
trap - EXIT
cat "$out/asp.out"
exit $rc

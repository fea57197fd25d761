#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Self-test of tests/net/lib.sh: build the lab, check delay, loss per
# direction, uniform and Gilbert-Elliott loss, rate and bottleneck queue,
# reset, offloads, parallel runs and the clean-up.  Runs in the VM
# (tests/vm/run -- tests/net/topology.sh) or as root on a host booted into
# a 6.1 kernel.  Needs no SCTP.  Tolerances allow for QEMU/TCG timing.
# Prints TAP-ish lines and "N passed, M failed"; exit status 1 on failure.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

command -v ping >/dev/null || { echo "topology: ping missing (apt-get install iputils-ping)" >&2; exit 1; }
thin_net_setup || { thin_net_not_ok "setup"; thin_net_done; exit 1; }
thin_net_ok "setup: $THIN_NET_SND $THIN_NET_EMU $THIN_NET_RCV"

# Ping the receiver from the sender and print "sent received loss% avg-ms
# longest-loss-run".  $@: ping options.
pingstat() {
	thin_net_exec snd ping -n "$@" $THIN_NET_RCV_IP 2>/dev/null | awk '
		/icmp_seq=/ { for (i = 1; i <= NF; i++) if ($i ~ /^icmp_seq=/) {
				s = substr($i, 10) + 0; got[s] = 1; if (s > hi) hi = s } }
		/packets transmitted/ { tx = $1; rx = $4 }
		/^rtt|^round-trip/ { split($4, r, "/"); avg = r[2] }
		END {
			run = best = 0
			for (s = 1; s <= tx; s++) {
				if (got[s]) run = 0; else if (++run > best) best = run
			}
			printf "%d %d %d %s %d\n", tx, rx, tx ? (tx - rx) * 100 / tx : 100,
				avg == "" ? "-" : avg, best
		}'
}

# $1: value, $2: low, $3: high.  Succeeds if low <= value <= high.
between() {
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "-" && v + 0 >= lo && v + 0 <= hi) }'
}

rx_packets() {
	thin_net_exec rcv cat /sys/class/net/rcv0/statistics/rx_packets
}

# --- offloads and addressing ---
off=1
for l in "snd snd0" "emu emu0" "emu emu1" "rcv rcv0"; do
	set -- $l
	thin_net_offloads_are_off "$1" "$2" || off=0
done
thin_net_check '[ $off = 1 ]' "TSO/GSO/GRO off on snd0, emu0, emu1, rcv0"
thin_net_check 'thin_net_exec emu sysctl -n net.ipv4.ip_forward | grep -qx 1' "emu forwards"

# --- delay ---
thin_net_delay both 50
read -r tx rx loss rtt _ <<<"$(pingstat -c 10 -i 0.2 -W 2)"
thin_net_check 'between "$rtt" 90 250' "RTT with 50 ms each way: $rtt ms (90-250)"
thin_net_check '[ "$loss" = 0 ]' "no loss without a loss setting ($rx/$tx replies)"

# --- 100 % loss, per direction: the receiver's counter tells which way ---
thin_net_loss fwd 100
before=$(rx_packets)
read -r tx rx loss rtt _ <<<"$(pingstat -c 5 -i 0.2 -W 1)"
after=$(rx_packets)
thin_net_check '[ "$loss" = 100 ]' "fwd loss 100% blocks pings ($rx/$tx replies)"
thin_net_check '[ $((after - before)) = 0 ]' "fwd loss 100%: nothing reaches the receiver ($((after - before)) packets)"
thin_net_loss fwd 0
thin_net_loss rev 100
before=$(rx_packets)
read -r tx rx loss rtt _ <<<"$(pingstat -c 5 -i 0.2 -W 1)"
after=$(rx_packets)
thin_net_check '[ "$loss" = 100 ]' "rev loss 100% blocks pings ($rx/$tx replies)"
thin_net_check '[ $((after - before)) -ge 5 ]' "rev loss 100%: requests still reach the receiver ($((after - before)) packets)"
thin_net_loss rev 0
read -r tx rx loss rtt _ <<<"$(pingstat -c 5 -i 0.2 -W 2)"
thin_net_check '[ "$loss" = 0 ] && between "$rtt" 90 250' "loss 0 restores the path, delay kept ($rx/$tx, $rtt ms)"

# --- uniform loss: 30 % of 200, binomial sd 3.2 % ---
thin_net_loss fwd 30
read -r tx rx loss rtt _ <<<"$(pingstat -c 200 -i 0.01 -W 1)"
thin_net_check 'between "$loss" 15 45' "uniform 30% fwd loss: $loss% of $tx pings lost (15-45)"
thin_net_loss fwd 0

# --- Gilbert-Elliott: p 5 %, r 20 %, 1-h 100 %, 1-k 0 %: mean loss
# p / (p + r) = 20 % in bursts of mean length 1 / r = 5 ---
thin_net_loss_ge fwd 5 20 100 0
read -r tx rx loss rtt run <<<"$(pingstat -c 200 -i 0.01 -W 1)"
thin_net_check 'between "$loss" 5 40' "Gilbert-Elliott (mean 20%) fwd loss: $loss% of $tx pings lost (5-40)"
thin_net_check '[ "$run" -ge 3 ]' "Gilbert-Elliott losses come in bursts (longest run $run)"
thin_net_show fwd | grep -q 'loss gemodel' && ge=1 || ge=0
thin_net_check '[ $ge = 1 ]' "tc shows the gemodel"
thin_net_loss fwd 0

# --- rate: 256 kbit/s adds ~33 ms to a 1000-byte ping in fwd ---
read -r tx rx loss base _ <<<"$(pingstat -c 4 -i 0.3 -s 1000 -W 2)"
thin_net_rate fwd 256kbit
read -r tx rx loss slow _ <<<"$(pingstat -c 4 -i 0.3 -s 1000 -W 2)"
thin_net_check 'between "$(awk -v a="$slow" -v b="$base" "BEGIN { print a - b }")" 25 120' \
	"rate 256kbit: 1000-byte RTT $base -> $slow ms (+25..120)"
thin_net_rate fwd 0
read -r tx rx loss back _ <<<"$(pingstat -c 4 -i 0.3 -s 1000 -W 2)"
thin_net_check 'between "$back" 0 "$(awk -v b="$base" "BEGIN { print b + 15 }")"' \
	"removing the rate restores the RTT ($back ms, was $base)"

# --- bottleneck: 200 kbit/s, 5-packet queue after the delay line; a
# flood of 1000-byte pings overflows it (under TCG ping manages only about
# one packet per 9 ms, ~0.9 Mbit/s, so the rate must be well below that) ---
thin_net_bottleneck fwd 200kbit 5
read -r tx rx loss rtt _ <<<"$(pingstat -c 60 -i 0.002 -s 1000 -W 3)"
thin_net_check '[ "$loss" -ge 20 ]' "bottleneck 200kbit, queue 5: flood loses $loss% (>= 20)"
thin_net_show fwd | grep -q 'qdisc tbf' && tbf=1 || tbf=0
thin_net_check '[ $tbf = 1 ]' "tc shows the tbf child"

# --- netem's own limit: 3 packets incl. the 50 ms delay line ---
thin_net_bottleneck fwd 0
thin_net_limit fwd 3
read -r tx rx loss rtt _ <<<"$(pingstat -c 50 -i 0.005 -W 2)"
thin_net_check '[ "$loss" -ge 30 ]' "netem limit 3 with 50 ms delay: $loss% lost at 200 pkt/s (>= 30)"
thin_net_limit fwd 0

# --- reset ---
thin_net_reset fwd
read -r tx rx loss rtt _ <<<"$(pingstat -c 5 -i 0.2 -W 2)"
thin_net_check 'between "$rtt" 45 150' "reset fwd: RTT $rtt ms with rev delay only (45-150)"
thin_net_check '! thin_net_show fwd | grep -qE "delay|loss|rate|tbf"' "reset fwd: no delay, loss, rate or tbf left"
thin_net_reset both
read -r tx rx loss rtt _ <<<"$(pingstat -c 5 -i 0.2 -W 2)"
thin_net_check 'between "$rtt" 0 40 && [ "$loss" = 0 ]' "reset both: RTT $rtt ms (< 40), no loss"

# --- raw netem, both directions ---
thin_net_netem both delay 10ms
read -r tx rx loss rtt _ <<<"$(pingstat -c 5 -i 0.2 -W 2)"
thin_net_check 'between "$rtt" 18 120' "thin_net_netem both delay 10ms: RTT $rtt ms (18-120)"

# --- a background process in a namespace ---
thin_net_bg rcv sleep 300
bgpid=$THIN_NET_LAST_PID
sleep 0.2
thin_net_check 'kill -0 $bgpid 2>/dev/null && thin_net_exec rcv ip netns identify $bgpid | grep -qx "$THIN_NET_RCV"' \
	"thin_net_bg runs the process in the receiver namespace"

# --- a second lab in parallel (a subshell, with IPv6) does not collide ---
names=$(
	exec 2>&1
	THIN_NET_IPV6=1
	thin_net_setup >/dev/null || exit 1
	thin_net_delay both 5
	echo "$THIN_NET_SND"
	r=$(thin_net_exec snd ping -n -c 3 -i 0.2 -W 2 $THIN_NET_RCV_IP6 | grep -c 'bytes from')
	echo "replies=$r"
)
other=$(echo "$names" | head -n 1)
thin_net_check '[ -n "$other" ] && [ "$other" != "$THIN_NET_SND" ] && echo "$names" | grep -qx "replies=3"' \
	"parallel lab (IPv6 ping) works with other names ($other)"
thin_net_check '! ip netns list | grep -q "^${other:-none} "' "the parallel lab cleaned up after itself"
read -r tx rx loss rtt _ <<<"$(pingstat -c 3 -i 0.2 -W 2)"
thin_net_check '[ "$loss" = 0 ]' "this lab still works after the other one left"

# --- cleanup ---
mine="$THIN_NET_SND $THIN_NET_EMU $THIN_NET_RCV"
thin_net_cleanup
left=0
for ns in $mine; do
	ip netns list | grep -q "^$ns\b" && left=$((left + 1))
done
thin_net_check '[ $left = 0 ]' "cleanup deletes all three namespaces"
thin_net_check '! kill -0 $bgpid 2>/dev/null' "cleanup killed the background process"
trap - EXIT
thin_net_done

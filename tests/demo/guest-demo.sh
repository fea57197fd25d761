#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest: a thin workload for each variant, one variant after the
# other in the lab of tests/kernel/lib.sh, 5 % uniform loss on the data
# direction, tools/thin-gen's one-to-one sockets with Nagle off sending
# 100-byte messages for DEMO_SECONDS.  DEMO_PROFILE picks the rest:
#   lab       the paper's lab workload (section 6.1): RTT 100 ms, 20
#             associations, a message every 250 ms (the default)
#   telecom   signalling inside an operator's network (issue 29): RTT
#             10 ms, 10 associations, a message every 100 ms
# The sender then waits until everything is acknowledged and closes; the
# sink stops when all its connections have closed.
#
#   guest-demo.sh VARIANT...
#
#   stock      SCTP, the module's defaults (rto_min 1000)
#   rto200     SCTP, net.sctp.rto_min=200
#   rto200-si  SCTP, rto_min 200, SCTP_SACK_IMMEDIATELY on every message
#   thin-noi   thin-sctp's preset (sysctl/90-thin-sctp.conf) but
#              thin_sack_immediately=0: every mechanism except the I-bit
#   thin       thin-sctp's preset: every mechanism
#   thin-probe the preset and the tail probe (thin_tail_probe=1)
#   tcp        TCP (Debian's defaults)
#   tcp-thin   TCP, net.ipv4.tcp_thin_linear_timeouts=1
#
# The variants set sysctls in the sender's namespace; the module loaded
# (Debian's or ours) is the VM's (tests/vm/run [--stock]).
# DEMO_RECEIVERS lists the receiver configurations, each a full pass:
#   default   the receivers as they ship: delayed SACK (200 ms,
#             net.sctp.sack_timeout), TCP's delayed ACK
#   tuned     the sink turns delayed SACK/ACK off (thin-gen --sack-delay-off)
#
# Writes, per configuration, $THIN_OUT/<receivers>/ as a cell of
# tools/analyze.py: variants.txt, <v>.send.log and <v>.sink.log (one line
# per message), <v>.send.out, <v>.sink.out, <v>.verify (thin_verify),
# <v>.sysctl (the sender's settings), receiver.sysctl (the receiver's
# sack_timeout) and the captures snd-<v>.pcap (sender's interface) and
# rcv-<v>.pcap (receiver's interface).
. "$(dirname "$0")/../kernel/lib.sh"
DUR=${DEMO_SECONDS:-60}
GEN=$TOP/build/tools/thin-gen
case "${DEMO_PROFILE:-lab}" in
lab) OWD=50 ASSOCS=20 IVAL=250 ;;
telecom) OWD=5 ASSOCS=10 IVAL=100 ;;
*) echo "guest-demo: unknown profile $DEMO_PROFILE" >&2; exit 2 ;;
esac
MODULE=$(cat /sys/module/sctp/version 2>/dev/null)
MODULE=${MODULE:+thin-sctp-$MODULE}
MODULE=${MODULE:-stock}
thin_lab_up "$OWD"
trap thin_lab_down EXIT
thin_lab_netem fwd delay "${OWD}ms" loss 5% limit 10000

# $1: namespace, $2: device, $3: pcap file, $4: filter.  Starts tcpdump
# and waits (30 s at most: the first start over 9p is slow under TCG)
# until it captures; adds its pid to CAPS.  512 bytes hold the headers
# and the first chunks; the 16 MB buffer keeps it from dropping packets.
cap_start() {
	local i
	ip netns exec "$1" tcpdump -i "$2" -n -s 512 -B 16384 -U -w "$3" "$4" \
		2>"${3%.pcap}.tcpdump" &
	CAPS="$CAPS $!"
	for i in $(seq 1 300); do
		grep -q "listening on" "${3%.pcap}.tcpdump" && return 0
		sleep 0.1
	done
	return 1
}

rc=0
for recv in ${DEMO_RECEIVERS:-default}; do
	case "$recv" in
	default) sinkopt="" base=7000 ;;
	tuned) sinkopt="--sack-delay-off" base=7100 ;;
	*) echo "guest-demo: unknown receiver configuration $recv" >&2; exit 2 ;;
	esac
	out=$THIN_OUT/$recv
	mkdir -p "$out"
	ip netns exec $R sysctl net.sctp.sack_timeout >"$out/receiver.sysctl"
	for v in "$@"; do
		proto=sctp opt="" set=""
		thin_sysctls_off
		ip netns exec $S sysctl -q -w net.sctp.rto_min=1000
		ip netns exec $S sysctl -q -w net.ipv4.tcp_thin_linear_timeouts=0
		case "$v" in
		stock) port=$((base + 10)) ;;
		rto200) port=$((base + 20)) set="net.sctp.rto_min=200" ;;
		rto200-si)
			port=$((base + 30)) set="net.sctp.rto_min=200"
			opt="--sack-immediately"
			;;
		thin-noi|thin|thin-probe)
			[ "$MODULE" != stock ] || { echo "guest-demo: $v needs thin-sctp" >&2; exit 2; }
			ip netns exec $S sysctl -q -p "$TOP/sysctl/90-thin-sctp.conf"
			port=$((base + 50))
			if [ "$v" = thin-noi ]; then
				port=$((base + 40)) set="net.sctp.thin_sack_immediately=0"
			elif [ "$v" = thin-probe ]; then
				port=$((base + 60)) set="net.sctp.thin_tail_probe=1"
			fi
			;;
		tcp) port=$((base + 90)) proto=tcp ;;
		tcp-thin)
			port=$((base + 95)) proto=tcp
			set="net.ipv4.tcp_thin_linear_timeouts=1"
			;;
		*) echo "guest-demo: unknown variant $v" >&2; exit 2 ;;
		esac
		[ -z "$set" ] || ip netns exec $S sysctl -q -w "$set"
		ip netns exec $S sysctl -a 2>/dev/null |
			grep -E '^net\.(sctp\.(rto_min|thin_)|ipv4\.tcp_thin_linear)' >"$out/$v.sysctl"
		echo "$v port=$port proto=$proto module=$MODULE receivers=$recv" \
			"options=${set:-defaults} $opt $sinkopt" >>"$out/variants.txt"
		echo "demo: $recv receivers: $v: $DUR s of traffic ($(date +%T))"
		CAPS=""
		cap_start $S s0 "$out/snd-$v.pcap" "$proto port $port" &&
			cap_start $R r0 "$out/rcv-$v.pcap" "$proto port $port" ||
			{ echo "guest-demo: $v: tcpdump did not start" >&2; rc=1; }
		# shellcheck disable=SC2086
		ip netns exec $R "$GEN" sink --proto $proto --listen "10.0.2.1:$port" \
			--expect $ASSOCS $sinkopt --duration $((DUR + 200)) --progress 0 \
			--log "$out/$v.sink.log" >"$out/$v.sink.out" 2>&1 &
		sink=$!
		thin_wait_listen $proto $port || { echo "guest-demo: $v: no sink on $port" >&2; rc=1; }
		# shellcheck disable=SC2086
		ip netns exec $S "$GEN" send --proto $proto --connect "10.0.2.1:$port" \
			--assocs $ASSOCS --size 100 --interval $IVAL --duration "$DUR" --nodelay \
			--drain 180 --progress 0 $opt --log "$out/$v.send.log" \
			>"$out/$v.send.out" 2>&1 || rc=1
		wait $sink || rc=1
		sleep 0.5
		# shellcheck disable=SC2086
		kill -INT $CAPS 2>/dev/null
		# shellcheck disable=SC2086
		wait $CAPS 2>/dev/null
		thin_verify "$out/$v.send.log" "$out/$v.sink.log" >"$out/$v.verify"
		grep -q 'missing=0 dup=0 extra=0 mismatch=0 order=0' "$out/$v.verify" || rc=1
		echo "demo: $recv receivers: $v: $(cat "$out/$v.verify");" \
			"$(sed -n 's/^thin-gen sink: //p' "$out/$v.sink.out" | grep latency)"
	done
done
exit $rc

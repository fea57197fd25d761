#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest: one cell of the experiment matrix (tools/experiment.sh).
# The paper's lab (Fig. 7, tests/kernel/lib.sh), RTT and loss on the
# emulator, and every requested variant side by side in the same run,
# each on its own port with EXP_ASSOCS associations sending EXP_SIZE-byte
# messages every INTERVAL ms (or a Table 1 profile) for SECONDS:
#
#   guest-exp.sh OUT RTT_MS LOSS INTERVAL SECONDS VARIANT...
#
# LOSS: u<P> uniform P % on the data direction (u1, u5), ge (Gilbert-
# Elliott on the data direction, p 1 %, r 25 %, loss 100 % in the bad
# state: mean 3.8 % in bursts of 4), web (congestion from web-like
# cross traffic, the paper's section 6.2: tools/thin-web, 81 clients
# fetching Pareto-sized transfers through a 10 Mbit/s bottleneck with a
# 100-packet queue; losses are the queue's drops; EXP_WEB_CLIENTS, default
# 81 as in the paper, sets the load), none.  The reverse
# direction only delays.  INTERVAL: ms, or a profile name (wow, ...).
#
# VARIANT (per socket, so that all share the network conditions):
#   stock     SCTP with the module's defaults (RTO.Min 1000 ms)
#   rto200    SCTP, RTO.Min 200 ms by SCTP_RTOINFO (what an administrator
#             can do today with net.sctp.rto_min, without us)
#   rto200-si rto200, and every message asks for an immediate SACK
#             (SCTP_SACK_IMMEDIATELY, RFC 7053): what an application can
#             do today on a stock kernel
#   rtomin linear restart fr   one thin mechanism (SCTP_THIN, + loss est.)
#   noi       every thin mechanism but SACK-IMMEDIATELY (the I-bit)
#   all       every thin mechanism
#   rdb       every thin mechanism and redundant data bundling (copies
#             from the last packet, thin_rdb_max_packets 1)
#   rdb2      as rdb, copies from the last 2 packets
#   probe     every thin mechanism and the tail probe (thin_tail_probe)
#   noguard   every thin mechanism but the congestion guard
#   off       thin-sctp module, SCTP_THIN with no mechanism (control)
#   tcp       TCP (RACK-TLP, Debian defaults)
#   tcp-thin  TCP with TCP_THIN_LINEAR_TIMEOUTS
#
# EXP_JITTER: P, the one-way delay varies by +-P % in both directions
# (netem's jitter, uniform; packets may then be reordered), 0 by default.
# EXP_RECEIVER: default (the receivers' delayed SACK / ACK as they ship,
# 200 ms) or tuned (delayed SACK off at the SCTP sinks).
#
# Writes OUT/<variant>.{send.log,sink.log,send.out,sink.out} (tools/thin-gen)
# and, for SCTP, OUT/snd$EXP_TAG.pcap (sender's interface) and
# OUT/rcv$EXP_TAG.pcap (receiver's interface; SCTP and the TCP variants),
# which tools/analyze.py reads.
. "$(dirname "$0")/../kernel/lib.sh"
GEN=$TOP/build/tools/thin-gen
out=$1 rtt=$2 loss=$3 ival=$4 dur=$5
shift 5
mkdir -p "$out"
d=$((rtt / 2))
tag=${EXP_TAG:-}
thin_lab_up "$d"
trap thin_lab_down EXIT
sackopt=""
[ "${EXP_RECEIVER:-default}" = tuned ] && sackopt=--sack-delay-off
limit=10000
case "$loss" in
none) lopt="" ;;
u*) lopt="loss ${loss#u}%" ;;
ge) lopt="loss gemodel 1% 25% 100% 0%" ;;
web)
	# netem's limit counts the packets in its delay line too: at 10
	# Mbit/s of 1500-byte packets, 5/6 of a packet per ms of delay.
	lopt="rate 10mbit"
	limit=$((100 + d * 5 / 6))
	;;
*) echo "guest-exp: unknown loss $loss" >&2; exit 2 ;;
esac
jit=""
if [ "${EXP_JITTER:-0}" != 0 ]; then
	jit=$(awk -v d="$d" -v p="$EXP_JITTER" 'BEGIN { printf "%dus", d * p * 10 }')
	thin_lab_netem rev delay "${d}ms" "$jit" limit 10000
fi
# shellcheck disable=SC2086
thin_lab_netem fwd delay "${d}ms" $jit $lopt limit "$limit"
if [ "$loss" = web ]; then
	WEB=$TOP/build/tools/thin-web
	ip netns exec $S "$WEB" server --listen 10.0.1.1:6000 --duration $((dur + 600)) \
		>"$out/web-server$tag.out" 2>&1 &
	sleep 1
	ip netns exec $R "$WEB" client --connect 10.0.1.1:6000 --duration $((dur + 240)) \
		--clients "${EXP_WEB_CLIENTS:-81}" \
		--seed "${EXP_SEED:-1}" --log "$out/web$tag.log" >"$out/web$tag.out" 2>&1 &
	WEBPID=$!
	# let the queue fill before the thin streams start
	sleep 5
fi
thin_sysctls_off
ip netns exec $S sysctl -q -w net.ipv4.tcp_thin_linear_timeouts=0

case "$ival" in
[0-9]*) traffic="--size ${EXP_SIZE:-100} --interval $ival" ;;
*) traffic="--profile $ival" ;;
esac
# 512 bytes hold the headers and the first chunks; a small snap length and
# a 16 MB buffer keep tcpdump from dropping packets under TCG.
# SCTP and the TCP variants' ports (not the cross traffic's)
filt="sctp or (tcp and portrange 7090-7100)"
ip netns exec $S tcpdump -i s0 -n -s 512 -B 16384 -U -w "$out/snd$tag.pcap" "$filt" 2>"$out/snd$tag.tcpdump" &
ip netns exec $R tcpdump -i r0 -n -s 512 -B 16384 -U -w "$out/rcv$tag.pcap" "$filt" 2>"$out/rcv$tag.tcpdump" &
sleep 2
declare -A SINK SEND
for v in "$@"; do
	# A fixed port per variant, so that runs of one cell in two VMs
	# (Debian's module and ours) never share a port in the captures.
	proto=sctp opt=""
	case "$v" in
	stock) port=7010 ;;
	rto200) port=7020 opt="--rto-min 200" ;;
	rto200-si) port=7120 opt="--rto-min 200 --sack-immediately" ;;
	rtomin) port=7030 opt="--thin rto_min,loss" ;;
	linear) port=7040 opt="--thin linear,loss" ;;
	restart) port=7050 opt="--thin restart,loss" ;;
	fr) port=7060 opt="--thin fr,loss" ;;
	all) port=7070 opt="--thin all" ;;
	off) port=7080 opt="--thin none" ;;
	noguard) port=7110 opt="--thin rto_min,restart,linear,fr,loss,si" ;;
	noi) port=7130 opt="--thin rto_min,restart,linear,fr,loss,guard" ;;
	rdb) port=7140 opt="--thin all,rdb --thin-rdb-packets 1" ;;
	rdb2) port=7150 opt="--thin all,rdb --thin-rdb-packets 2" ;;
	probe) port=7160 opt="--thin all,probe" ;;
	tcp) port=7090 proto=tcp ;;
	tcp-thin) port=7100 proto=tcp opt="--tcp-thin" ;;
	*) echo "guest-exp: unknown variant $v" >&2; exit 2 ;;
	esac
	echo "$v port=$port proto=$proto options=$opt" >>"$out/variants.txt"
	ip netns exec $R "$GEN" sink --proto $proto --listen "10.0.2.1:$port" \
		--expect "${EXP_ASSOCS:-10}" $sackopt --duration $((dur + 200)) \
		--log "$out/$v.sink.log" --progress 0 >"$out/$v.sink.out" 2>&1 &
	SINK[$v]=$!
	# the first start of a binary over 9p takes a while under TCG
	thin_wait_listen $proto $port
	# shellcheck disable=SC2086
	ip netns exec $S "$GEN" send --proto $proto --connect "10.0.2.1:$port" \
		--assocs "${EXP_ASSOCS:-10}" $traffic --duration "$dur" --nodelay \
		--seed "${EXP_SEED:-1}" --drain 180 $opt --log "$out/$v.send.log" \
		--progress 0 >"$out/$v.send.out" 2>&1 &
	SEND[$v]=$!
done
ip netns exec $E tc -s qdisc show dev e1 >"$out/bottleneck$tag.q0"
rc=0
for v in "$@"; do
	wait "${SEND[$v]}" || rc=1
	wait "${SINK[$v]}" || rc=1
	echo "exp: $v: $(grep -h 'latency ms' "$out/$v.sink.out")"
done
ip netns exec $E tc -s qdisc show dev e1 >"$out/bottleneck$tag.q1"
# the bottleneck's drops while the variants ran (all traffic)
cat "$out/bottleneck$tag.q0" "$out/bottleneck$tag.q1" | awk '/Sent/ { s[n] = $4; d[n] = $7 + 0; n++ }
	END { printf "bottleneck: sent=%d dropped=%d drop_pct=%.2f\n", s[1] - s[0], d[1] - d[0],
		100 * (d[1] - d[0]) / (s[1] - s[0] + d[1] - d[0] + (s[1] == s[0])) }' |
	tee "$out/bottleneck$tag.txt"
if [ -n "${WEBPID:-}" ]; then
	kill -INT "$WEBPID" 2>/dev/null
	wait "$WEBPID"
	echo "exp: cross traffic: $(cat "$out/web$tag.out")"
fi
sleep 1
ip netns pids $S | xargs -r kill -INT 2>/dev/null
ip netns pids $R | xargs -r kill -INT 2>/dev/null
sleep 1
exit $rc

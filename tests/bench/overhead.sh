#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest: bulk SCTP throughput and CPU per byte over a veth pair
# with no delay and no loss (issue 6, overhead).  One sender, one
# association, BENCH_MB megabytes (default 40) in 1400-byte messages, as
# fast as the socket takes them, until everything is acknowledged.
#   overhead.sh VARIANT...        (off, on: our module's sysctls; detect:
#                                  loss estimation only; on-noi: the preset
#                                  without thin_sack_immediately;
#                                  +NAME=V,...: detect with these
#                                  net.sctp sysctls; stock:
#                                  the module as loaded, nothing set)
# Variants run interleaved BENCH_REPS times (default 5), in alternating
# order, so drift in the guest hits each alike.  Writes $THIN_OUT/overhead.txt, one line per run:
#   variant rep bytes seconds mbit_s cpu_ns_per_byte
# and $THIN_OUT/overhead-counters.txt, one line per run: the run's SCTP
# counters of both ends (/proc/net/sctp/snmp deltas), so that a cost
# difference can be told apart from a traffic difference (more packets
# or more SACKs per byte):
#   variant rep s_OutSCTPPacks s_InSCTPPacks s_OutCtrlChunks
#   s_FastRetransmits s_T3Retransmits r_OutSCTPPacks r_OutCtrlChunks
#   r_InSCTPPacks r_DelaySackExpireds
. "$(dirname "$0")/../kernel/lib.sh"
MARK=$TOP/build/tools/thin-mark
MB=${BENCH_MB:-40}
REPS=${BENCH_REPS:-5}
SIZE=1400
N=$((MB * 1000000 / SIZE))
out=${THIN_OUT:-/tmp}/overhead.txt
ns=thb$$
ip netns add ${ns}s
ip netns add ${ns}r
trap 'ip netns pids ${ns}s | xargs -r kill; ip netns pids ${ns}r | xargs -r kill; ip netns del ${ns}s; ip netns del ${ns}r' EXIT
ip link add b0 netns ${ns}s type veth peer name b1 netns ${ns}r
ip -n ${ns}s addr add 10.9.0.1/24 dev b0
ip -n ${ns}r addr add 10.9.0.2/24 dev b1
for x in "${ns}s b0" "${ns}r b1"; do
	read -r n d <<<"$x"
	ip -n "$n" link set "$d" up
	ip -n "$n" link set lo up
done
hz=$(getconf CLK_TCK)
# for tools/qemu/thin-insn.so's prof= (BENCH_PROF=1): addresses to names
[ "${BENCH_PROF:-0}" = 1 ] && cat /proc/kallsyms >"$THIN_OUT/kallsyms"
# $1: netns; prints "name value" lines of its SCTP counters
snmp() { ip netns exec "$1" cat /proc/net/sctp/snmp; }
# $1 before, $2 after (files), rest: counter names; prints the deltas
snmp_delta() {
	local a=$1 b=$2

	shift 2
	awk -v names="$*" 'NR == FNR { v[$1] = $2; next } { d[$1] = $2 - v[$1] }
		END { n = split(names, k, " "); for (i = 1; i <= n; i++) printf " %d", d[k[i]] }' "$a" "$b"
}
port=9000
fwd="$*" rev=$(printf '%s\n' "$@" | tac | tr '\n' ' ')
for r in $(seq 1 "$REPS"); do
	# ABBA: the order alternates, so a warm-up or drift favours no one.
	order=$fwd
	[ $((r % 2)) = 0 ] && order=$rev
	for v in $order; do
		case "$v" in
		off) S=${ns}s thin_sysctls_off
		    ip netns exec ${ns}s sysctl -q -w net.sctp.thin_loss_estimation=0 ;;
		on) ip netns exec ${ns}s sysctl -q -p "$TOP/sysctl/90-thin-sctp.conf" ;;
		# the preset's bookkeeping alone: loss estimate and guard, no
		# mechanism (what every bulk flow pays while never thin)
		detect) S=${ns}s thin_sysctls_off
		    ip netns exec ${ns}s sysctl -q -w net.sctp.thin_loss_estimation=1 \
			net.sctp.thin_congestion_guard=20 ;;
		# the preset without the I-bit
		on-noi) ip netns exec ${ns}s sysctl -q -p "$TOP/sysctl/90-thin-sctp.conf"
		    ip netns exec ${ns}s sysctl -q -w net.sctp.thin_sack_immediately=0 ;;
		# +NAME=V,NAME=V...: detect plus these net.sctp sysctls (to
		# take a cost apart one mechanism at a time)
		+*) S=${ns}s thin_sysctls_off
		    ip netns exec ${ns}s sysctl -q -w net.sctp.thin_loss_estimation=1 \
			net.sctp.thin_congestion_guard=20 $(echo "${v#+}" | tr ',' '\n' | sed 's/^/net.sctp./') ;;
		stock) ;;
		*) echo "unknown variant $v"; exit 2 ;;
		esac
		port=$((port + 1))
		ip netns exec ${ns}r "$BIN/thin-send" recv $port 300 &
		rp=$!
		sleep 0.5
		snmp ${ns}s >"$THIN_OUT/snmp-s0"
		snmp ${ns}r >"$THIN_OUT/snmp-r0"
		# a mark for tools/qemu/thin-insn.so (BENCH_INSN=1), else a no-op
		"$MARK"
		c0=$(thin_cpu_busy)
		t0=$(date +%s%N)
		ip netns exec ${ns}s "$BIN/thin-send" send 10.9.0.2 $port -b -n $N -s $SIZE -w 120000 >"$THIN_OUT/bench-$v-$r.out" 2>&1
		t1=$(date +%s%N)
		c1=$(thin_cpu_busy)
		"$MARK"
		snmp ${ns}s >"$THIN_OUT/snmp-s1"
		snmp ${ns}r >"$THIN_OUT/snmp-r1"
		{
			printf '%s %d' "$v" "$r"
			snmp_delta "$THIN_OUT/snmp-s0" "$THIN_OUT/snmp-s1" \
				SctpOutSCTPPacks SctpInSCTPPacks SctpOutCtrlChunks SctpFastRetransmits SctpT3Retransmits
			snmp_delta "$THIN_OUT/snmp-r0" "$THIN_OUT/snmp-r1" \
				SctpOutSCTPPacks SctpOutCtrlChunks SctpInSCTPPacks SctpDelaySackExpireds
			echo
		} >>"${out%.txt}-counters.txt"
		kill $rp 2>/dev/null
		wait $rp 2>/dev/null
		un=$(sed -n 's/^unacked=//p' "$THIN_OUT/bench-$v-$r.out")
		awk -v v="$v" -v r="$r" -v b=$((N * SIZE)) -v t=$((t1 - t0)) -v c=$((c1 - c0)) -v hz="$hz" -v un="$un" \
			'BEGIN { printf "%s %d %d %.3f %.1f %.2f unacked=%s\n", v, r, b, t / 1e9, b * 8 / (t / 1e9) / 1e6, c / hz * 1e9 / b, un }' |
			tee -a "$out"
	done
done

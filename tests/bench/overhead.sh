#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest: bulk SCTP throughput and CPU per byte over a veth pair
# with no delay and no loss (issue 6, overhead).  One sender, one
# association, BENCH_MB megabytes (default 40) in 1400-byte messages, as
# fast as the socket takes them, until everything is acknowledged.
#   overhead.sh VARIANT...        (off, on: our module's sysctls; stock:
#                                  the module as loaded, nothing set)
# Variants run interleaved BENCH_REPS times (default 5), in alternating
# order, so drift in the guest hits each alike.  Writes $THIN_OUT/overhead.txt, one line per run:
#   variant rep bytes seconds mbit_s cpu_ns_per_byte
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
		stock) ;;
		*) echo "unknown variant $v"; exit 2 ;;
		esac
		port=$((port + 1))
		ip netns exec ${ns}r "$BIN/thin-send" recv $port 300 &
		rp=$!
		sleep 0.5
		# a mark for tools/qemu/thin-insn.so (BENCH_INSN=1), else a no-op
		"$MARK"
		c0=$(thin_cpu_busy)
		t0=$(date +%s%N)
		ip netns exec ${ns}s "$BIN/thin-send" send 10.9.0.2 $port -b -n $N -s $SIZE -w 120000 >"$THIN_OUT/bench-$v-$r.out" 2>&1
		t1=$(date +%s%N)
		c1=$(thin_cpu_busy)
		"$MARK"
		kill $rp 2>/dev/null
		wait $rp 2>/dev/null
		un=$(sed -n 's/^unacked=//p' "$THIN_OUT/bench-$v-$r.out")
		awk -v v="$v" -v r="$r" -v b=$((N * SIZE)) -v t=$((t1 - t0)) -v c=$((c1 - c0)) -v hz="$hz" -v un="$un" \
			'BEGIN { printf "%s %d %d %.3f %.1f %.2f unacked=%s\n", v, r, b, t / 1e9, b * 8 / (t / 1e9) / 1e6, c / hz * 1e9 / b, un }' |
			tee -a "$out"
	done
done

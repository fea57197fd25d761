#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest: one endpoint serving many thin associations (issue 6,
# scale), as a game server does.  One one-to-many SCTP socket with N
# associations (SCALE_NS, default "10 1000"), each sending Anarchy Online
# traffic (Table 1 profile) for SCALE_SECONDS (default 30; the smallest N,
# the baseline, for SCALE_BASE_SECONDS, default 240, so that it has
# enough messages to compare with) over RTT 50 ms with 1 % loss on the
# data direction, once without and once with every thin mechanism
# (SCTP_THIN all).  Per run, in $THIN_OUT/scale/scale.txt:
#   n variant slab_kb_per_assoc thin_objects cpu_ms_per_msg messages
#   latency_mean_ms latency_p99_ms latency_max_ms cpu_busy_pct lag_mean_ms
# slab_kb_per_assoc: growth of the guest's Slab (/proc/meminfo) between
# idle and every association up, per association; cpu_busy_pct: both
# vCPUs' busy share while the sender ran; lag_mean_ms: how late the
# sender made its messages on average (over a few ms: the guest did not
# keep up).  tools/scale-report.py compares each N with the smallest.
# The sender starts its traffic once the sink has accepted every
# association (--wait-file): the sink's accept() of 10,000 associations
# on 10,000 listening sockets takes about a minute in the guest, and
# messages sent meanwhile would measure that, not the sender.  It first
# sends one unlogged message per association and waits for its ack
# (--warmup): an association without an RTT sample waits RTO.Initial (3 s)
# for a lost first DATA chunk, stock or thin, and at 10,000 associations
# with 6 messages each that first message would be a sixth of the data.
# The warm-up is paced (thin-gen's --warmup-rate, 1000/s): sent at once,
# 10,000 of them gave seconds-long first RTT samples and RTOs of 2-3 s
# for the first 100 s (docs/lab/notebook.md, Scale, limit 5).
# SCALE_RCVBUF (default 4194304, see below) sets net.core.rmem_default,
# SCALE_NETDEV_BACKLOG (default 100000) net.core.netdev_max_backlog;
# SCALE_VARIANTS (default "stock thin", run in that order) and
# SCALE_SYSCTLS ("key=value ...", set in the sender's namespace; default
# net.sctp.sndbuf_policy=1, see below) vary the runs.  Once a second the
# sender socket's queued bytes (wmemq of /proc/net/sctp/assocs: the
# socket's sk_wmem_queued, repeated on each association's line) go to
# $n-$variant.wmem: "seconds bytes associations discards" (the last two:
# the sender's association count and SctpInPktDiscards).  SCALE_TRAFFIC (thin-gen options,
# default "--profile anarchy-online") sets each association's traffic,
# e.g. a lower rate for 10,000 associations.  SCALE_RECEIVER: default
# (the sink's delayed SACK as it ships) or tuned (delayed SACK off, the
# setting of the runs before 2026-11-24).
#
# Why sndbuf_policy=1 (per-association send buffer accounting): with
# upstream's default 0, all associations of a one-to-many socket share
# one sk_sndbuf (212,992 bytes), and every queued 100-byte message costs
# about 1 KB of it (skb truesize + struct sctp_chunk), so 1000 thin
# associations fill it and messages wait in the application; and each
# freed chunk walks every association of the socket to wake writers
# (sctp_wake_up_waiters(), O(N)).  Both are upstream, stock and thin
# alike (docs/lab/notebook.md, Scale).  SCALE_SYSCTLS= (empty) runs policy 0.
. "$(dirname "$0")/../kernel/lib.sh"
DUR=${SCALE_SECONDS:-30}
thin_out scale
res=$OUT/scale.txt
ulimit -n 65536
thin_lab_up 25 noqueue	# no NFQUEUE detour for this many flows
trap thin_lab_down EXIT
thin_lab_netem fwd delay 25ms loss 1% limit 100000
thin_lab_netem rev delay 25ms limit 100000
thin_sysctls_off
SYSCTLS=${SCALE_SYSCTLS-net.sctp.sndbuf_policy=1}
# Two guest-wide limits, both measured at 10,000 associations with
# tracepoints (docs/lab/notebook.md, Scale, limits 5 and 6):
# - net.core.netdev_max_backlog (1000): a veth peer receives through the
#   per-CPU backlog queue, and bursts of one packet per association (INIT
#   ACKs, heartbeats, SACKs) overflowed it: 55,171 packets dropped
#   (skb:kfree_skb, reason CPU_BACKLOG) in a 20 s run, connects took 97 s.
#   A lab artifact (a NIC driver with NAPI has its ring instead), so the
#   lab raises it.
# - net.core.rmem_default: an SCTP socket's SO_RCVBUF is
#   net.core.rmem_default (212,992), not net.sctp.sctp_rmem[1], and it
#   bounds the socket's backlog (sctp_rcv -> sk_add_backlog): packets for
#   the sender's one socket that arrive while the application holds it
#   beyond that are dropped (SctpInPktDiscards).  A server with this many
#   associations on one socket would raise SO_RCVBUF; the lab raises the
#   default for both ends.
SACKOPT=""
[ "${SCALE_RECEIVER:-default}" = tuned ] && SACKOPT=--sack-delay-off
RCVBUF=${SCALE_RCVBUF-4194304}
[ -n "$RCVBUF" ] && sysctl -q -w net.core.rmem_default="$RCVBUF"
BACKLOG=${SCALE_NETDEV_BACKLOG-100000}
[ -n "$BACKLOG" ] && sysctl -q -w net.core.netdev_max_backlog="$BACKLOG"
# shellcheck disable=SC2086
[ -n "$SYSCTLS" ] && ip netns exec $S sysctl -q -w $SYSCTLS
slab() { awk '/^Slab:/ { print $2 }' /proc/meminfo; }
# the sender's SctpInPktDiscards
discards() { ip netns exec $S awk '$1 == "SctpInPktDiscards" { print $2 }' /proc/net/sctp/snmp; }
# packets dropped at the per-CPU backlog (netdev_max_backlog), all CPUs
softnet_drops() {
	local d n=0 x
	while read -r x d x; do n=$((n + 16#$d)); done </proc/net/softnet_stat
	echo $n
}
hz=$(getconf CLK_TCK)
port=10000
NS=$(printf '%s\n' ${SCALE_NS:-10 1000} | sort -n)
echo "# sender sysctls: ${SYSCTLS:-none}; rmem_default: ${RCVBUF:-default}; netdev_max_backlog: ${BACKLOG:-default}; traffic: ${SCALE_TRAFFIC:---profile anarchy-online}" >>"$res"
for n in $NS; do
	dur=$DUR
	[ "$n" = "$(echo "$NS" | head -n 1)" ] && dur=${SCALE_BASE_SECONDS:-240}
	for v in ${SCALE_VARIANTS:-stock thin}; do
		thin=""
		[ $v = thin ] && thin="--thin all"
		sync
		echo 2 >/proc/sys/vm/drop_caches
		s0=$(slab)
		dz=$(discards)
		b0=$(softnet_drops)
		ip netns exec $R "$GEN" sink --proto sctp --listen "10.0.2.1:$port" --ports "$n" \
			--expect "$n" $SACKOPT --duration $((dur + 300)) \
			--log "$OUT/$n-$v.sink.log" --progress 0 --ready-file "$OUT/$n-$v.ready" \
			>"$OUT/$n-$v.sink.out" 2>&1 &
		sink=$!
		thin_wait_listen sctp "$port"
		# shellcheck disable=SC2086
		ip netns exec $S "$GEN" send --proto sctp --connect "10.0.2.1:$port" --assocs "$n" \
			--style one-to-many ${SCALE_TRAFFIC:---profile anarchy-online} --duration "$dur" --nodelay \
			--drain 120 --connect-timeout 240 --progress 0 $thin --wait-file "$OUT/$n-$v.ready" --warmup \
			>"$OUT/$n-$v.send.out" 2>&1 &
		snd=$!
		# every association up on the sender side
		for i in $(seq 1 2400); do
			[ "$(ip netns exec $S tail -n +2 /proc/net/sctp/assocs | wc -l)" -ge "$n" ] && break
			sleep 0.1
		done
		sleep 1
		s1=$(slab)
		objs=$(cat /sys/module/sctp/parameters/thin_objects)
		c0=$(thin_cpu_busy)
		a0=$(thin_cpu_all)
		d0=$(discards)
		t=0
		while kill -0 $snd 2>/dev/null; do
			ip netns exec $S awk -v t=$t 'FNR == NR && FNR > 1 && $(NF - 2) > q { q = $(NF - 2) }
				FNR == NR && FNR > 1 { a++ } FNR != NR && $1 == "SctpInPktDiscards" { d = $2 }
				END { print t, q + 0, a + 0, d + 0 }' /proc/net/sctp/assocs /proc/net/sctp/snmp >>"$OUT/$n-$v.wmem"
			sleep 1
			t=$((t + 1))
		done
		wait $snd
		c1=$(thin_cpu_busy)
		a1=$(thin_cpu_all)
		d1=$(discards)
		wait $sink
		msgs=$(awk '!/^#/' "$OUT/$n-$v.sink.log" | wc -l)
		lat=$(awk '!/^#/ { print ($5 - $4) / 1e6 }' "$OUT/$n-$v.sink.log" | sort -n |
			awk '{ v[NR] = $1; s += $1 } END { k = int(NR * 0.99); if (k < 1) k = 1
				printf "%.1f %.1f %.1f", s / NR, v[k], v[NR] }')
		lag=$(sed -n 's/^thin-gen send: schedule lag ms mean=\([0-9.]*\).*/\1/p' "$OUT/$n-$v.send.out")
		awk -v n="$n" -v v="$v" -v s0="$s0" -v s1="$s1" -v o="$objs" -v c=$((c1 - c0)) \
			-v a=$((a1 - a0)) -v hz="$hz" -v m="$msgs" -v lat="$lat" -v lag="${lag:-nan}" 'BEGIN {
			printf "%d %s %.2f %d %.3f %d %s %.1f %s\n", n, v, (s1 - s0) / n, o,
				c / hz * 1000 / (m ? m : 1), m, lat, 100 * c / (a ? a : 1), lag }' |
			tee -a "$res"
		grep -h '^thin-gen send: ' "$OUT/$n-$v.send.out" | sed "s/^/# $n-$v: /"
		sed "s/^/# $n-$v: sink /" "$OUT/$n-$v.ready"
		# up to the last sample with every association up (the sender's
		# close and the shutdown of N associations count discards too)
		dn=$(awk -v n="$n" '$3 >= n { d = $4 } END { print d + 0 }' "$OUT/$n-$v.wmem")
		echo "# $n-$v: sender SctpInPktDiscards: $((d0 - dz)) during connect, $((dn - d0)) while all up, $((d1 - dn)) at shutdown"
		echo "# $n-$v: packets dropped at the per-CPU backlog (softnet_stat): $(($(softnet_drops) - b0))"
		echo "# $n-$v: queued bytes, max over the run: $(sort -k2,2n "$OUT/$n-$v.wmem" | tail -n 1 | cut -d' ' -f2)"
		port=$((port + n + 10))
		sleep 3
	done
done

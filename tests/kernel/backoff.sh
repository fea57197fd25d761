#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest: stock's RTO backoff for a loss that thin repaired before
# stock's T3-rtx expired (issue 42, finding 2), stock and thin side by
# side.
#
# Stock's T3-rtx still expires for that loss (RFC 9260 6.3.3): it counts
# an error, doubles its RTO (E2) and retransmits; the ack of the
# retransmission gives it no RTT sample (Karn, 6.3.1 C5), so it keeps the
# doubled RTO until a chunk sent after its retransmission is acked.  An
# outage that starts before then runs on stock's doubled RTO, and the
# failure clock must too, or thin counts its errors, and aborts, early.
#
# Lab: lib.sh's S - E - R, 50 ms each way (RTT 100 ms), receivers at
# their default delayed SACK, offloads on.  Sender sysctls: rto_max 5000,
# association_max_retrans 4, pf_enable 0 (no heartbeats: the abort comes
# from T3-rtx alone, deterministic), the rest at their defaults, the thin
# sysctls off.  BACKOFF_ASSOCS (8) one-to-one associations per variant,
# 100 bytes every 700 ms, started together:
#   stock  no SCTP_THIN;
#   thin   the preset through SCTP_THIN (RTOmin 200 ms, I-bit).
# One injector in E, per flow (thin-drop -d 5:1 -X 7:80000): message 5
# (A) is lost once; every SACK from the first that acks message 7 (C) on
# is lost (the outage of the return path: data still arrives).  Stock:
# A's T3-rtx expires 1 s after A (error, RTO 2 s), A is acked, C leaves
# 1.4 s after A with RTO 2 s and its expiries come 2, 6, 11 and 16 s
# after it; the fifth, 21 s after C, aborts.  Thin repairs A after
# about 300 ms; without stock's backoff its clock counts on RTO 1 s and
# aborts 17 s after C.
#
# Checks: every association aborts (COMM_LOST), each variant's messages
# 5 and 7 seen by the injector; thin's median abort, from its median C,
# no earlier than stock's: d(thin) >= d(stock) - TOL, and its earliest
# no earlier than stock's earliest, where TOL (60 ms) is the slack of
# stock's own timers (each of its 2-5 s timers is rounded up by the timer
# wheel, up to 32 ms at HZ 250) plus the spread of the variants' start;
# and not much later: d(thin) <= d(stock) + 1000 ms.  About 45 s.
. "$(dirname "$0")/lib.sh"
thin_out backoff
thin_need_gen
N=${BACKOFF_ASSOCS:-8}
TOL=60
S=tbo$$s E=tbo$$e R=tbo$$r
declare -A PORT=([stock]=7501 [thin]=7601)
declare -A OPTS=([stock]="--thin none"
	[thin]="--thin rto_min,restart,linear,fr,loss,guard,si --thin-rto-min 200 --thin-linear-max 6")

trap 'thin_lab_down' EXIT
thin_lab_up 50
ip netns exec $S sysctl -q -w net.sctp.rto_max=5000 net.sctp.association_max_retrans=4 \
	net.sctp.pf_enable=0 || not_ok "sender sysctls"
thin_sysctls_off
ip netns exec $E "$BIN/thin-drop" -q 0 -l "$OUT/drop.log" -t 90 -d 5:1 -X 7:80000 \
	2>"$OUT/drop.err" &
for _ in $(seq 1 100); do
	grep -q ready "$OUT/drop.err" 2>/dev/null && break
	sleep 0.1
done
for v in stock thin; do
	ip netns exec $R "$GEN" sink --proto sctp --listen "10.0.2.1:${PORT[$v]}" --expect "$N" \
		--duration 120 --progress 0 >"$OUT/sink-$v.out" 2>&1 &
done
for v in stock thin; do
	thin_wait_listen sctp "${PORT[$v]}" || not_ok "$v sink listens"
done
SENDERS=""
for v in stock thin; do
	# shellcheck disable=SC2086
	ip netns exec $S "$GEN" send --proto sctp --connect "10.0.2.1:${PORT[$v]}" --assocs "$N" \
		--size 100 --interval 700 --nodelay --duration 40 --drain 1 --progress 0 \
		--connect-timeout 60 --wait-file "$OUT/go" --events "$OUT/$v.ev" \
		--log "$OUT/$v.send" ${OPTS[$v]} >"$OUT/$v.send.out" 2>"$OUT/$v.send.err" &
	SENDERS+=" $!"
done
sleep 3
# CLOCK_REALTIME (thin-gen's events) minus CLOCK_MONOTONIC (thin-drop's
# log), ns.
OFF=$(python3 -c 'import time; print(time.time_ns() - time.monotonic_ns())')
touch "$OUT/go"
# shellcheck disable=SC2086
wait $SENDERS
declare -A D MIN
for v in stock thin; do
	# Message 5's and 7's first transmissions (their TSN offsets) of the
	# variant's flows (destination port), ns; the aborts, ns.
	c=$(awk -v p="${PORT[$v]}" '$2 ~ "-" p "$" && $3 == 7 && $4 == 1 { print $1 }' "$OUT/drop.log" |
		sort -n | awk '{ v[n++] = $1 } END { if (n) print v[int((n - 1) / 2)] }')
	a=$(awk -v p="${PORT[$v]}" '$2 ~ "-" p "$" && $3 == 5 && $5 == "DROP" { n++ } END { print n + 0 }' "$OUT/drop.log")
	awk '$3 == "assoc" && $4 == "COMM_LOST" { print $1 }' "$OUT/$v.ev" >"$OUT/$v.lost"
	n=$(grep -c . "$OUT/$v.lost")
	check '[ "$n" = "$N" ] && [ "$a" = "$N" ] && thin_num "$c"' \
		"$v: $N associations, message 5 lost once in each ($a), message 7 sent (median $c ns), each aborted ($n)"
	awk -v c="$c" -v o="$OFF" '{ printf "%.1f\n", ($1 - o - c) / 1e6 }' "$OUT/$v.lost" >"$OUT/$v.d"
	read -r cnt D[$v] MIN[$v] p75 < <(thin_stats <"$OUT/$v.d")
	echo "# backoff-$v: abort after message 7, ms: n $cnt median ${D[$v]} min ${MIN[$v]} p75 $p75"
done
check_num "thin no earlier than stock: median from message 7 to the abort ${D[thin]} >= ${D[stock]} - $TOL ms" \
	'a >= b - t' a="${D[thin]}" b="${D[stock]}" t=$TOL
check_num "thin no earlier than stock: earliest ${MIN[thin]} >= ${MIN[stock]} - $TOL ms" \
	'a >= b - t' a="${MIN[thin]}" b="${MIN[stock]}" t=$TOL
check_num "thin not much later: median ${D[thin]} <= ${D[stock]} + 1000 ms" \
	'a <= b + 1000' a="${D[thin]}" b="${D[stock]}"
thin_done

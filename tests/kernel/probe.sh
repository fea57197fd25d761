#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest: the tail probe (issue 29, RFC 8985 section 7), at RTT
# 10 ms (netem 5 ms each way), 100-byte messages, default receivers
# (delayed SACK 200 ms), the thin preset with SACK-IMMEDIATELY, chosen
# transmissions dropped by thin-drop and timed from its log (the emulator
# sees a DATA packet as the sender sends it, 5 ms before the receiver).
#
#   S --- E (netem 5 ms each way, thin-drop on NFQUEUE) --- R
#
# Each scenario runs with thin_tail_probe off and on; on the stock module
# (THIN_MODE=stock) only the "off" expectations, which must hold there too.
# 1 one loss: repaired ~2 RTT after the send with the probe, vs the next
#   message's fast retransmit (~110 ms) without;
# 2 a lost probe: T3-rtx repairs the loss at the same time as without the
#   probe (the probe moved no timer), no error counted for it;
# 3 a lost SACK: the probe is spurious (the peer's dup report), nothing
#   else is retransmitted and the RTO is not backed off for it;
# 4 the congestion guard: once it holds the association thick, no probes.
. "$(dirname "$0")/lib.sh"
STOCK=0
[ "${THIN_MODE:-ours}" = stock ] && STOCK=1
thin_lab_up 5
trap thin_lab_down EXIT

PRESET="thin_rto_min=200 thin_restart_timer=1 thin_linear_timeouts=1 thin_fast_retransmit=1 thin_sack_immediately=1"
R100=$(seq 0 100 1500 | paste -sd,)	# 16 messages, 100 ms apart
W8=$(seq 0 100 700 | paste -sd,)	# 8 messages: the last is the tail
export THIN_RECV_SACK=default

# $1: expression on $g (awk), $2: description; fails without a number.
expect() {
	local why
	if why=$(thin_nan g="$g"); then
		not_ok "$2" "no measurement: $why"
	elif thin_holds "$1" g="$g"; then
		ok "$2 ($g)"
	else
		not_ok "$2" "$g"
	fi
}
# $1: log, $2: port, $3: TSN offset: ms from its first transmission to the
# first one the emulator passed (the repair; the receiver has it 5 ms on).
repair() {
	awk -v p="-$2" -v k="$3" 'index($2, p) && $3 == k && !t0 { t0 = $1 }
		index($2, p) && $3 == k && $5 == "PASS" { printf "%d", ($1 - t0) / 1e6; exit }' "$1"
}
# $1: log, $2: port, $3: TSN offset: its transmissions the emulator saw.
txs() { awk -v p="-$2" -v k="$3" 'index($2, p) && $3 == k { n++ } END { print n + 0 }' "$1"; }
# $1: log, $2: port: DATA transmissions beyond the first of each TSN.
resent() {
	awk -v p="-$2" 'index($2, p) && $3 != "SACK" { n++; if (!($3 in s)) { s[$3] = 1; u++ } }
		END { if (n) print n - u }' "$1"
}

# The thin-sctp tracepoints of every scenario, for the record.
TR=/sys/kernel/tracing
if [ $STOCK = 0 ]; then
	[ -d $TR/events ] || mount -t tracefs nodev $TR 2>/dev/null
	echo >$TR/trace
	echo 1 >$TR/events/sctp_thin/enable
	trap 'echo 0 >$TR/events/sctp_thin/enable; cp $TR/trace "$OUTDIR/probe.trace"; thin_lab_down' EXIT
fi

# 1. One loss (K1): message 7's first transmission dropped.
thin_scenario k1-off "$PRESET" 5201 "-A -d 7:1" -S "$R100" -w 8000
g=$(repair "$OUTDIR/k1-off.log" 5201 7); echo "# k1-off: repaired $g ms after the send, delivered $(thin_calc 'g + 5' g="$g") ms"
expect "g >= 90" "probe off: the loss waits for the next message (~110 ms)"
if [ $STOCK = 0 ]; then
	thin_scenario k1-on "$PRESET thin_tail_probe=1" 5202 "-A -d 7:1" -S "$R100" -w 8000
	g=$(repair "$OUTDIR/k1-on.log" 5202 7); echo "# k1-on: repaired $g ms after the send, delivered $(thin_calc 'g + 5' g="$g") ms"
	# PTO = 2 SRTT + 1 jiffy, SRTT measured by the sender: ~25 ms in a
	# quiet guest (RTT 10 ms); a loaded TCG host stretches the RTT, and
	# the PTO with it.  60 ms still tells it from the ~110 ms without.
	expect "g <= 60" "probe on: repaired ~2 RTT after the send (PTO 2 SRTT + 1 jiffy)"
	g=$(thin_kv k1-on probes); expect "g >= 1" "probe on: a probe counted"
	g=$(thin_kv k1-on probes_repaired); expect "g == 1" "probe on: its verdict is repaired (a loss)"
	g=$(thin_kv k1-on fast_rtx); expect "g == 0" "probe on: no fast retransmit needed"
	g=$(txs "$OUTDIR/k1-on.log" 5202 7); expect "g == 2" "probe on: message 7 sent twice (original, probe): no T3-rtx"
	g=$(thin_calc 'a + b' a="$(thin_kv k1-on unacked)" b="$(thin_kv k1-off unacked)")
	expect "g == 0" "probe on and off: every message acked"
	g=$(thin_kv k1-off probes); expect "g == 0" "probe off: no probe"
fi

# 2. A lost probe (K2): the last message dropped, and with the probe on
#    its probe too.  T3-rtx repairs it one RTO after the send either way
#    (rto_last: the path's RTO right after that send, from SCTP_STATUS):
#    the probe neither restarted nor moved the timer (RFC 8985 7.3 would
#    re-arm it), and its expiry counts as it would have without the probe
#    (strikes_deferred: stock would not have had it yet).  The RTO itself
#    follows the RTT samples of the run, which a loaded TCG host spreads:
#    each run is compared with its own RTO, not with the other run.
thin_scenario k2-off "$PRESET" 5211 "-A -d 7:1" -S "$W8" -w 8000
a=$(repair "$OUTDIR/k2-off.log" 5211 7); echo "# k2-off: T3-rtx repair $a ms after the send, RTO $(thin_kv k2-off rto_last) ms"
g=$a; expect "g >= 150" "probe off: the tail loss waits for T3-rtx"
g=$(thin_calc 'a - r' a="$a" r="$(thin_kv k2-off rto_last)")
expect "g >= -5 && g <= 30" "probe off: T3-rtx one RTO after the send (ms late)"
if [ $STOCK = 0 ]; then
	thin_scenario k2-on "$PRESET thin_tail_probe=1" 5212 "-A -d 7:2" -S "$W8" -w 8000
	b=$(repair "$OUTDIR/k2-on.log" 5212 7); echo "# k2-on: T3-rtx repair $b ms after the send, RTO $(thin_kv k2-on rto_last) ms"
	g=$(txs "$OUTDIR/k2-on.log" 5212 7); expect "g >= 3" "probe on: original, probe, T3-rtx retransmission"
	g=$(thin_calc 'b - r' b="$b" r="$(thin_kv k2-on rto_last)")
	expect "g >= -5 && g <= 30" "lost probe: T3-rtx one RTO after the send (ms late)"
	# Closer to the original's send + RTO than to the probe's: a T3-rtx
	# re-armed by the probe would expire RTO after the probe.
	p=$(thin_tx_times "$OUTDIR/k2-on.log" 5212 7 | awk '{ print $2 }')
	echo "# k2-on: probe $p ms after the send"
	g=$(thin_calc '(b - r) ^ 2 < (b - p - r) ^ 2 ? 1 : 0' b="$b" p="$p" r="$(thin_kv k2-on rto_last)")
	expect "g == 1" "lost probe: T3-rtx runs from the original's send, not the probe's"
	g=$(thin_kv k2-on probes); expect "g == 1" "lost probe: one probe per tail"
	g=$(thin_kv k2-on probes_repaired); expect "g == 0" "lost probe: no verdict"
	g=$(thin_calc 'b - a' a="$(thin_kv k2-on timeouts)" b="$(thin_kv k2-on strikes_deferred)")
	expect "g == 0" "lost probe: no T3-rtx expiry counted as an error (stock would not have had it yet)"
	g=$(thin_calc 'a + b' a="$(thin_kv k2-on unacked)" b="$(thin_kv k2-off unacked)")
	expect "g == 0" "lost probe: the association lives, every message acked"
fi

# 3. A lost SACK: message 7 arrives but its SACK is dropped.  The probe
#    leaves, the receiver reports it as a duplicate (RFC 9260 6.2), the
#    verdict is spurious: no cwnd reaction, no RTO backoff.
if [ $STOCK = 0 ]; then
	thin_scenario k3-on "$PRESET thin_tail_probe=1" 5221 "-s 7:1" -S "$R100" -w 8000
	g=$(thin_kv k3-on probes_spurious); expect "g >= 1" "lost SACK: the probe was spurious (dup report)"
	g=$(thin_kv k3-on probes_repaired); expect "g == 0" "lost SACK: not counted as repaired"
	g=$(thin_kv k3-on guard_undone); expect "g >= 1" "lost SACK: the guard took its count back"
	g=$(thin_calc 'r - p' r="$(resent "$OUTDIR/k3-on.log" 5221)" p="$(thin_kv k3-on probes)")
	expect "g == 0" "lost SACK: every extra transmission was a probe (no T3-rtx, no fast retransmit)"
	g=$(thin_kv k3-on unacked); expect "g == 0" "lost SACK: every message acked"
fi

# 4. The congestion guard (mechanisms.sh 8): 50 messages 100 ms apart,
#    every third from message 1 lost once (32 %).  Once the guard holds
#    the association thick, no probe: the probe count stays below the
#    losses (16), as the early fast retransmits do there.
if [ $STOCK = 0 ]; then
	D=""
	for k in $(seq 1 3 46); do D="$D -d $k:1"; done
	thin_scenario k4-on "$PRESET thin_tail_probe=1" 5231 "$D" -n 50 -i 100 -w 15000
	echo "# k4-on: state=$(thin_kv k4-on state) probes=$(thin_kv k4-on probes) repaired=$(thin_kv k4-on probes_repaired) fast_rtx=$(thin_kv k4-on fast_rtx) unacked=$(thin_kv k4-on unacked)"
	g=$(thin_calc 'int(s / 4) % 2 * 4' s="$(thin_kv k4-on state)"); expect "g == 4" "guard: congested at 32 % lost"
	g=$(thin_kv k4-on probes); expect "g <= 12" "guard: probes stop once congested"
	g=$(thin_kv k4-on unacked); expect "g == 0" "guard: every message acked"
fi
thin_done

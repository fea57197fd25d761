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
# 4 the congestion guard: once it holds the association thick, no probes;
# 5 repeated losses (11 %): each repaired by its probe, the guard quiet.
. "$(dirname "$0")/lib.sh"
STOCK=0
[ "${THIN_MODE:-ours}" = stock ] && STOCK=1
thin_lab_up 5
trap thin_lab_down EXIT

PRESET="thin_rto_min=200 thin_restart_timer=1 thin_linear_timeouts=1 thin_fast_retransmit=1 thin_sack_immediately=1"
# 20 messages before the one that is lost: the SRTT (1/8 gain, RFC 6298)
# forgets the first sample, which the association's first DATA makes long
# (seen: 35-120 ms at RTT 10 ms).
R100=$(seq 0 100 2500 | paste -sd,)	# 26 messages, 100 ms apart
W21=$(seq 0 100 2000 | paste -sd,)	# 21 messages: the last is the tail
export THIN_RECV_SACK=default

# $1: expression on $g (awk), $2: description (lib.sh).
expect() { thin_expect "$@"; }
# $1: log, $2: port, $3: TSN offset: ms from its first transmission to the
# first one the emulator passed (the repair; the receiver has it 5 ms on).
repair() {
	awk -v p="-$2" -v k="$3" 'index($2, p) && $3 == k && !t0 { t0 = $1 }
		index($2, p) && $3 == k && $5 == "PASS" { printf "%d", ($1 - t0) / 1e6; exit }' "$1"
}
# $1: log, $2: port: the median RTT as the emulator sees it: from a TSN's
# first transmission to the first SACK that acks it, + 5 ms (the SACK's
# way back to the sender), in ms.
rtt_e() {
	awk -v p="-$2" 'index($2, p) && $3 != "SACK" && !($3 in t) { t[$3] = $1 }
		index($2, p) && $3 == "SACK" { for (k in t) if (!(k in d) && $4 + 0 >= k + 0) d[k] = ($1 - t[k]) / 1e6 }
		END { for (k in d) print d[k] }' "$1" | sort -n |
		awk '{ v[NR] = $1 } END { if (NR) printf "%d", v[int((NR + 1) / 2)] + 5 }'
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

# 1. One loss (K1), three times: messages 20, 30 and 40 of 46 each lose
#    their first transmission; the median of the three repair times
#    (a loaded TCG host stalls the guest now and then).
L3="-A -d 20:1 -d 30:1 -d 40:1"
R46=$(seq 0 100 4500 | paste -sd,)
# $1: log, $2: port: the median repair time of offsets 20, 30, 40.
repair3() {
	local k
	for k in 20 30 40; do repair "$1" "$2" $k; echo; done | grep . | sort -n |
		awk '{ v[NR] = $1 } END { if (NR == 3) print v[2] }'
}
thin_scenario k1-off "$PRESET" 5201 "$L3" -S "$R46" -w 8000
echo "# k1-off: repaired $(for k in 20 30 40; do repair "$OUTDIR/k1-off.log" 5201 $k; echo -n ' '; done)ms after the send"
g=$(repair3 "$OUTDIR/k1-off.log" 5201); echo "# k1-off: median $g ms, delivered $(thin_calc 'g + 5' g="$g") ms after the send"
expect "g >= 90" "probe off: the loss waits for the next message (~110 ms), median of 3"
if [ $STOCK = 0 ]; then
	thin_scenario k1-on "$PRESET thin_tail_probe=1" 5202 "$L3" -S "$R46" -w 8000
	echo "# k1-on: repaired $(for k in 20 30 40; do repair "$OUTDIR/k1-on.log" 5202 $k; echo -n ' '; done)ms after the send"
	g=$(repair3 "$OUTDIR/k1-on.log" 5202); echo "# k1-on: median $g ms, delivered $(thin_calc 'g + 5' g="$g") ms after the send"
	# PTO = 2 SRTT + 1 jiffy, SRTT measured by the sender: ~25 ms in a
	# quiet guest (RTT 10 ms: the target, delivered <= 35 ms).  A loaded
	# TCG host stretches the RTT, and the PTO with it: the bound is 2 RTT
	# as the emulator saw it in this run (DATA -> SACK there, + 5 ms the
	# way back), + 1 jiffy and 26 ms of slack (the sender's own RTT is
	# longer than the emulator's on a loaded host: seen 45-49 ms repairs
	# at an emulator RTT of 14 ms); below 90 ms, the
	# probe-off repair.
	r=$(rtt_e "$OUTDIR/k1-on.log" 5202); echo "# k1-on: median RTT at the emulator $r ms"
	b=$(thin_calc '2 * r + 30' r="$r")
	expect "g <= $b && g < 90" "probe on: repaired ~2 RTT after the send (PTO 2 SRTT + 1 jiffy), median of 3, bound 2 RTT + 30 ms"
	g=$(thin_kv k1-on probes_repaired); expect "g >= 2" "probe on: verdict repaired (a loss) for most of the 3"
	g=$(for k in 20 30 40; do txs "$OUTDIR/k1-on.log" 5202 $k; done | awk '$1 == 2 { n++ } END { print n + 0 }')
	expect "g >= 2" "probe on: most of the 3 sent just twice (original, probe)"
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
thin_scenario k2-off "$PRESET" 5211 "-A -d 20:1" -S "$W21" -w 8000
a=$(repair "$OUTDIR/k2-off.log" 5211 20); echo "# k2-off: T3-rtx repair $a ms after the send, RTO $(thin_kv k2-off rto_last) ms"
g=$a; expect "g >= 150" "probe off: the tail loss waits for T3-rtx"
g=$(thin_calc 'a - r' a="$a" r="$(thin_kv k2-off rto_last)")
if [ $STOCK = 0 ]; then
	expect "g >= -15 && g <= 30" "probe off: T3-rtx one RTO after the send (ms late)"
else
	# Stock restarts T3-rtx with a full RTO at each SACK that acks
	# (RFC 9260 6.3.2 R3): message 19's SACK, delayed by the receiver
	# (200 ms) and arriving after message 20 left, moves the expiry up
	# to RTT + 200 ms later (the CI of c548474: 116 ms late).  The
	# preset's RFC 7765 restart is what makes it one RTO on ours.
	expect "g >= -15 && g <= 240" "probe off: T3-rtx no earlier than one RTO after the send, at most RTT + SACK delay later (ms late)"
fi
if [ $STOCK = 0 ]; then
	thin_scenario k2-on "$PRESET thin_tail_probe=1" 5212 "-A -d 20:2" -S "$W21" -w 8000
	b=$(repair "$OUTDIR/k2-on.log" 5212 20); echo "# k2-on: T3-rtx repair $b ms after the send, RTO $(thin_kv k2-on rto_last) ms"
	g=$(txs "$OUTDIR/k2-on.log" 5212 20); expect "g >= 3" "probe on: original, probe, T3-rtx retransmission"
	g=$(thin_calc 'b - r' b="$b" r="$(thin_kv k2-on rto_last)")
	expect "g >= -15 && g <= 30" "lost probe: T3-rtx one RTO after the send (ms late)"
	# Closer to the original's send + RTO than to the probe's: a T3-rtx
	# re-armed by the probe would expire RTO after the probe.
	p=$(thin_tx_times "$OUTDIR/k2-on.log" 5212 20 | awk '{ print $2 }')
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

# 3. A lost SACK: message 20 arrives but its SACK is dropped.  The probe
#    leaves, the receiver reports it as a duplicate (RFC 9260 6.2), the
#    verdict is spurious: no cwnd reaction, no RTO backoff.
if [ $STOCK = 0 ]; then
	thin_scenario k3-on "$PRESET thin_tail_probe=1" 5221 "-s 20:1" -S "$R100" -w 8000
	g=$(thin_kv k3-on probes_spurious); expect "g >= 1" "lost SACK: the probe was spurious (dup report)"
	g=$(thin_kv k3-on probes_repaired); expect "g == 0" "lost SACK: not counted as repaired"
	g=$(thin_kv k3-on guard_undone); expect "g >= 1" "lost SACK: the guard took its count back"
	g=$(thin_calc 'r - p' r="$(resent "$OUTDIR/k3-on.log" 5221)" p="$(thin_kv k3-on probes)")
	expect "g == 0" "lost SACK: every extra transmission was a probe (no T3-rtx, no fast retransmit)"
	g=$(thin_kv k3-on unacked); expect "g == 0" "lost SACK: every message acked"
fi

# 4. The congestion guard (mechanisms.sh 8): 50 messages 100 ms apart,
#    every third from message 1 to 46 lost once (32 %), and the last (55).  While the guard holds
#    the association thick, no probe: the tracepoints (sctp_thin_transition
#    thin=0/1, sctp_thin_mechanism tail_probe) in order, per association;
#    a new association starts thin.
if [ $STOCK = 0 ]; then
	cp $TR/trace "$OUTDIR/probe-1-3.trace"
	echo >$TR/trace
	D=""
	for k in $(seq 1 3 46); do D="$D -d $k:1"; done
	# and, after 9 messages without loss (fast recovery over), the last:
	# a tail loss while held thick, where only the thin check keeps a PTO
	# (2 SRTT + 200 ms: no I-bit while thick) from beating stock's T3-rtx
	# (1 s)
	D="$D -d 55:1"
	thin_scenario k4-on "$PRESET thin_tail_probe=1" 5231 "$D" -n 56 -i 100 -w 15000
	echo "# k4-on: state=$(thin_kv k4-on state) probes=$(thin_kv k4-on probes) repaired=$(thin_kv k4-on probes_repaired) fast_rtx=$(thin_kv k4-on fast_rtx) unacked=$(thin_kv k4-on unacked)"
	g=$(thin_calc 'int(s / 4) % 2 * 4' s="$(thin_kv k4-on state)"); expect "g == 4" "guard: congested at 32 % lost"
	# $1: trace: "probes-while-thick thick-transitions"
	thick_probes() {
		awk '{ a = ""; for (i = 1; i <= NF; i++) if ($i ~ /^asoc=/) a = $i }
			/sctp_thin_transition/ { th[a] = ($0 ~ / thin=1/); if (!th[a]) n++ }
			/mechanism=tail_probe/ && (a in th) && !th[a] { p++ }
			END { print p + 0, n + 0 }' "$1"
	}
	read -r g n < <(thick_probes $TR/trace)
	echo "# k4-on: $n transitions to thick, $g probes while thick"
	expect "g == 0" "guard: no probe while held thick ($n transitions to thick)"
	g=$n; expect "g >= 1" "guard: the association was held thick (a transition seen)"
	g=$(thin_kv k4-on unacked); expect "g == 0" "guard: every message acked"
fi
# 5. Repeated losses at a rate the guard must tolerate: 70 messages
#    100 ms apart, every 8th (8 to 64) loses its first transmission, 11 %
#    of the messages (the telecom demo: 5 % random).  Each is repaired by
#    its probe, and the association stays thin: one loss counts once for
#    the congestion guard.  Seen red (2d87766): the repaired verdict
#    counted the TSN again after the probe had superseded it, 22 % > 20,
#    the guard held the association thick and the next loss waited for
#    stock's 1 s RTO (the telecom demo: p99.9 808 ms vs 211 without it).
if [ $STOCK = 0 ]; then
	cp $TR/trace "$OUTDIR/probe-4.trace"
	echo >$TR/trace
	D=""
	for k in $(seq 8 8 64); do D="$D -d $k:1"; done
	thin_scenario k5-on "$PRESET thin_tail_probe=1" 5241 "-A$D" -n 70 -i 100 -w 8000
	cp $TR/trace "$OUTDIR/probe-5.trace"
	rs=$(for k in $(seq 8 8 64); do repair "$OUTDIR/k5-on.log" 5241 $k; echo; done | grep . | sort -n | paste -sd' ')
	echo "# k5-on: repaired $rs ms after the send; probes=$(thin_kv k5-on probes) repaired=$(thin_kv k5-on probes_repaired) guard_undone=$(thin_kv k5-on guard_undone)"
	g=$(grep -c 'sctp_thin_transition: .* thin=0' "$OUTDIR/probe-5.trace")
	expect "g == 0" "repeated losses: the association stays thin (transitions to thick)"
	g=$(echo "$rs" | wc -w); expect "g == 8" "repeated losses: each of the 8 repaired"
	# The slowest repair: the probe's ~2 RTT on a quiet host, far below a
	# thick association's RTO (1 s here), and below the probe-off repair
	# (the next message, ~110 ms) + a TCG stall.
	g=$(echo "$rs" | awk '{ print $NF }'); expect "g <= 200" "repeated losses: the slowest repair (ms), never a thick RTO"
	g=$(thin_kv k5-on probes_repaired); expect "g >= 6" "repeated losses: most repaired by the probe"
	g=$(thin_kv k5-on unacked); expect "g == 0" "repeated losses: every message acked"
fi

thin_done

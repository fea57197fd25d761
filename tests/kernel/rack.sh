#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest: the time-based loss rule (issue 29, thin_rack,
# RFC 8985 section 6), at RTT 10 ms (netem 5 ms each way), 100-byte
# messages, default receivers, the thin preset with SACK-IMMEDIATELY and
# the fast retransmit on the first indication (paper 5.4), timed and
# counted from thin-drop's log at the emulator.
#
#   S --- E (netem 5 ms each way, thin-drop on NFQUEUE) --- R
#
# 2 (first) a loss with the rule on: messages 100 ms apart, messages 20,
#   30 and 40 lose their first transmission.  The next message's SACK
#   shows the gap an interval later, far past the window: lost at once,
#   repaired ~110 ms after the send as with the first-indication rule
#   alone (not at the third indication, ~300 ms, nor at T3-rtx, >= 200
#   ms).
# 1 reordering without loss, without the NFQUEUE hop (see below): 60
#   pairs of messages, each pair sent back to back, pairs 100 ms apart;
#   netem's jitter on the data path (5 ms +- 1 ms, uniform) lets the
#   second packet of a pair overtake the first when it drew a delay
#   shorter by more than the gap between the sends, so only pairs sent
#   less than 2 ms apart are reordered; the reordering window is
#   min RTT / 4 >= 2.25 ms (RTT >= 4 + 5 ms), so the rule cannot call
#   such a packet lost.  With the first-indication rule alone
#   (thin_rack 0) the SACK that reports the gap fast-retransmits the
#   overtaken chunk: spurious (the peer reports it as a duplicate).  With
#   thin_rack 1 the rule holds it back: no fast retransmit (at most one
#   where the guest's own delays reorder past the window; its dup report
#   then widens the window, RFC 8985 6.2 step 4).
#   On the stock module (THIN_MODE=stock): every mechanism off, no fast
#   retransmit either (three indications; a pair gives one).
. "$(dirname "$0")/lib.sh"
STOCK=0
[ "${THIN_MODE:-ours}" = stock ] && STOCK=1
thin_lab_up 5
trap thin_lab_down EXIT

PRESET="thin_rto_min=200 thin_restart_timer=1 thin_linear_timeouts=1 thin_fast_retransmit=1 thin_sack_immediately=1"
export THIN_RECV_SACK=default
# 60 pairs: 0,0,100,100,...,5900,5900
PAIRS=$(for t in $(seq 0 100 5900); do echo "$t,$t"; done | paste -sd,)
R46=$(seq 0 100 4500 | paste -sd,)

# $1: expression on $g (awk), $2: description (lib.sh).
expect() { thin_expect "$@"; }
# $1: log, $2: port: DATA transmissions beyond the first of each TSN.
resent() {
	awk -v p="-$2" 'index($2, p) && $3 != "SACK" { n++; if (!($3 in s)) { s[$3] = 1; u++ } }
		END { if (n) print n - u }' "$1"
}
# $1: log, $2: port, $3: TSN offset: ms from its first transmission to the
# first one the emulator passed (the repair).
repair() {
	awk -v p="-$2" -v k="$3" 'index($2, p) && $3 == k && !t0 { t0 = $1 }
		index($2, p) && $3 == k && $5 == "PASS" { printf "%d", ($1 - t0) / 1e6; exit }' "$1"
}
# $1: log, $2: port: the median repair time of offsets 20, 30, 40.
repair3() {
	local k
	for k in 20 30 40; do repair "$1" "$2" $k; echo; done | grep . | sort -n |
		awk '{ v[NR] = $1 } END { if (NR == 3) print v[2] }'
}
# $1: label: the counters that tell what happened.
show() {
	local r
	r=$(resent "$OUTDIR/$1.log" "$2")
	echo "# $1: resent=${r:-n/a} fast_rtx=$(thin_kv "$1" fast_rtx) rack_lost=$(thin_kv "$1" rack_lost) rack_held=$(thin_kv "$1" rack_held) reo_mult=$(thin_kv "$1" rack_reo_mult) guard_undone=$(thin_kv "$1" guard_undone) unacked=$(thin_kv "$1" unacked)"
}

# $1: counter: S's SCTP MIB (/proc/net/sctp/snmp; the lab's own netns).
mib() { ip netns exec $S awk -v k="$1" '$1 == k { print $2 }' /proc/net/sctp/snmp; }

# 2. A loss with the rule on (and, for the record, without it).
if [ $STOCK = 0 ]; then
	L3="-A -d 20:1 -d 30:1 -d 40:1"
	thin_scenario r2-fr "$PRESET" 5311 "$L3" -S "$R46" -w 8000
	show r2-fr 5311
	echo "# r2-fr: repaired $(for k in 20 30 40; do repair "$OUTDIR/r2-fr.log" 5311 $k; echo -n ' '; done)ms after the send"
	thin_scenario r2-rack "$PRESET thin_rack=1" 5312 "$L3" -S "$R46" -w 8000
	show r2-rack 5312
	echo "# r2-rack: repaired $(for k in 20 30 40; do repair "$OUTDIR/r2-rack.log" 5312 $k; echo -n ' '; done)ms after the send"
	g=$(repair3 "$OUTDIR/r2-rack.log" 5312)
	expect "g >= 90 && g <= 160" "rule on: a loss repaired at the next message's SACK (~110 ms), median of 3"
	g=$(thin_kv r2-rack rack_lost); expect "g >= 2" "rule on: declared lost by the rule"
	g=$(thin_kv r2-rack timeouts); expect "g == 0" "rule on: no T3-rtx expiry"
	g=$(thin_calc 'a + b' a="$(thin_kv r2-fr unacked)" b="$(thin_kv r2-rack unacked)")
	expect "g == 0" "loss: every message acked"
fi

# 1. Reordering without loss, without the NFQUEUE hop: thin-drop in user
#    space held packets in a loaded TCG guest and released them bunched
#    (seen 2026-11-26: a pair 0.7 ms apart at E, sent further apart,
#    reached R 15 and 18 ms after E), so that what the sender sent more
#    than a window apart was reordered by netem.  Counted from S's SCTP
#    MIB (SctpFastRetransmits) and our counters instead of E's log.
ip netns exec $E nft delete table inet thin
thin_lab_netem fwd delay 5ms 1ms limit 10000
# $1: label, $2: sysctls, $3: port.  Sets FR: the fast retransmits it
# made (not through $(...): the scenario's receiver keeps stdout open).
reorder() {
	local a b
	a=$(mib SctpFastRetransmits)
	thin_scenario "$1" "$2" "$3" "-A" -S "$PAIRS" -w 8000
	b=$(mib SctpFastRetransmits)
	FR=$(thin_calc 'b - a' a="$a" b="$b")
}
if [ $STOCK = 1 ]; then
	reorder r1-stock "" 5301
	g=$FR
	echo "# r1-stock: fast retransmits $g, T3-rtx $(mib SctpT3RtxExpireds)"
	expect "g == 0" "stock: reordering, no fast retransmit (three indications)"
	g=$(thin_kv r1-stock unacked); expect "g == 0" "stock: every message acked"
	thin_done
	exit
fi
reorder r1-fr "$PRESET" 5302
f=$FR
show r1-fr 5302
g=$f; expect "g >= 2" "first indication alone: reordering fast-retransmits (SctpFastRetransmits)"
g=$(thin_kv r1-fr guard_undone)
expect "g >= 1" "first indication alone: the peer reported them as duplicates (spurious)"
reorder r1-rack "$PRESET thin_rack=1" 5303
g=$FR
show r1-rack 5303
# The window is min RTT / 4 >= 2.25 ms, and netem's jitter reorders by
# at most 2 ms; a loaded TCG guest may still add delays of its own, so
# one reordering of 60 may come out past the window.  Its dup report
# then widens the window (RFC 8985 6.2 step 4): at most one.
expect "g <= 1 && g * 4 < $f" "rule on: reordering, no spurious fast retransmit (at most 1 before the window adapts, vs $f without the rule)"
g=$(thin_calc 'r == 0 || m >= 2 ? 1 : 0' r="$g" m="$(thin_kv r1-rack rack_reo_mult)")
expect "g == 1" "rule on: a spurious one widened the window"
g=$(thin_kv r1-rack rack_held)
expect "g >= 2" "rule on: the reordering was seen and held back"
g=$(thin_calc 'a + b' a="$(thin_kv r1-fr unacked)" b="$(thin_kv r1-rack unacked)")
expect "g == 0" "reordering: every message acked"
g=$(mib SctpT3RtxExpireds); expect "g == 0" "reordering: no T3-rtx expiry"
thin_done

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest: TSN jumps with packets in flight.  A scripted fake SCTP
# peer (tests/kernel/tsnjump_peer.py, scapy) drives real associations of
# our module's sender, as in hostile.sh:
#
#   [JS] 10.0.1.1 j0 --veth-- q0 10.0.1.2 [JP]
#
# JS runs the sender (tsnjump_peer.py send, one process for every
# scenario); in JP nftables drops every inbound SCTP packet and the peer
# answers everything itself.  Each association (SCTP_THIN all on, one
# 100-byte message per packet) sends, SACKed, then holds two DATA chunks
# in flight (the peer does not SACK them) while its TSNs jump:
#
#   restart  the peer restarts the association (RFC 9260 5.2.4 case A: new
#       INIT with a new tag and initial TSN, COOKIE-ECHO); upstream purges
#       our outqueue, and our TSNs start over from our initial TSN (lksctp
#       copies it into the INIT-ACK of a restart): serially before the
#       TSNs in flight, reusing TSNs already sent;
#   reset_peer  the peer's SSN/TSN Reset Request (RFC 6525 4.5, parameter
#       15): upstream answers "In progress" while DATA is in flight, then,
#       once acked, performs it (outqueue purged, our TSNs continue);
#   reset_ours  our SCTP_RESET_ASSOC (EAGAIN while DATA is in flight); the
#       peer performs it with a Receiver's Next TSN 2^30 before ours;
#   offon_hi, offon_lo  SCTP_THIN switched off and on with the DATA in
#       flight, the sender's TSNs in the upper / lower half of the serial
#       number space.
#
# Before and after the jump a probe loses one packet: two messages back to
# back, the peer SACKs the first and drops the second, so the SACK moves
# the cumulative ack with it outstanding (T3-rtx restart) and T3-rtx
# repairs it.  Checks per scenario:
#   - ESTABLISHED after connect(), the jump done (the peer's view);
#   - RESYNCS (/proc/net/sctp/thin) + 1 for a purge (restart, reset);
#   - INFLIGHT 0 right after the jump (no stale packet), and 0 again once
#     the peer acked the traffic after it; STATE has THIN (0x01) then;
#   - switch-on with DATA in flight: SATURATED (thick) until it is acked;
#   - the probe's packet is retransmitted with thin timing before and
#     after the jump: within 600 ms (thin RTOmin 200 ms; stock's RTO.Min
#     is 1 s), and not within 50 ms of its first transmission, nor any
#     other packet after the jump (a T3-rtx armed from a stale send time
#     fires at once);
#   - the association shuts down cleanly, no Call Trace/BUG/WARNING,
#     thin_objects back to 0.
# TSNJUMP_ONLY: a regular expression, the scenarios to run (default all).
# stock_restart runs restart without SCTP_THIN: its repairs take
# stock's 1 s or more (the reference that the 600 ms bound separates).
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${THIN_PY:-/opt/thin-venv/bin/python3}	# with scapy, for the peer
OUT=${THIN_OUT:-/tmp}/tsnjump
rm -rf "$OUT"
mkdir -p "$OUT"
JS=tj$$s JP=tj$$p
KPROBLEMS='Call Trace|BUG[: ]|WARNING:|kmemleak|thin-sctp: leak'
FLAGS=$(mktemp -d)	# fifos and flag files, not on the 9p results directory

tj_up() {
	local ns
	for ns in $JS $JP; do ip netns add $ns; ip -n $ns link set lo up; done
	ip link add j0 netns $JS type veth peer name q0 netns $JP
	ip -n $JS addr add 10.0.1.1/24 dev j0
	ip -n $JP addr add 10.0.1.2/24 dev q0
	ip -n $JS link set j0 up
	ip -n $JP link set q0 up
	# Offloads off: the scapy peer reads and writes raw frames and needs
	# real checksums and one SCTP packet per frame.
	ip netns exec $JS ethtool -K j0 tso off gso off gro off tx off rx off >/dev/null 2>&1
	ip netns exec $JP ethtool -K q0 tso off gso off gro off tx off rx off >/dev/null 2>&1
	ip netns exec $JP nft -f - <<NFT
table inet tsnjump {
	chain input {
		type filter hook input priority 0;
		meta l4proto sctp drop
	}
}
NFT
}
tj_down() {
	local ns
	for ns in $JS $JP; do
		ip netns pids $ns 2>/dev/null | xargs -r kill 2>/dev/null
	done
	sleep 0.2
	for ns in $JS $JP; do ip netns del $ns 2>/dev/null; done
	rm -rf "$FLAGS"
}
trap tj_down EXIT
# Lines of the kernel log that show a problem; "unreadable" (no count) if
# dmesg fails, so that two failed reads do not compare equal as "0".
kproblems() {
	local log
	log=$(dmesg 2>/dev/null) || { echo unreadable; return; }
	printf '%s\n' "$log" | grep -cE "$KPROBLEMS"
}

tj_up
ip netns exec $JP "$PY" "$HERE/tsnjump_peer.py" peer q0 10.0.1.2 "$OUT" "$FLAGS" >"$OUT/peer.out" 2>&1 &
mkfifo "$FLAGS/ctl" "$FLAGS/res"
ip netns exec $JS python3 "$HERE/tsnjump_peer.py" send 10.0.1.2 "$OUT" "$FLAGS" \
	<"$FLAGS/ctl" >"$FLAGS/res" 2>"$OUT/sender.err" &
exec {CTL}>"$FLAGS/ctl" {RES}<"$FLAGS/res"
ready=0
for _ in $(seq 1 900); do
	if grep -q '^ready$' "$OUT/peer.out"; then ready=1; break; fi
	sleep 0.1
done
check '[ $ready = 1 ]' "fake peer (scapy) ready on q0"

# The result line's key=value pairs in R (no process per lookup: forks
# cost tens of ms under TCG); ${R[KEY]:--}: the value, "-" if absent.
declare -A R
# $1: value.  An integer?
int() { [[ "$1" =~ ^-?[0-9]+$ ]]; }
# $1: STATE value (0x..).  THIN bit set?
thin_bit() { [[ "$1" =~ ^0x[0-9a-fA-F]+$ ]] && (($1 & 1)); }
# SATURATED bit (0x02: thick until everything outstanding is acked)?
sat_bit() { [[ "$1" =~ ^0x[0-9a-fA-F]+$ ]] && (($1 & 2)); }

T0=$SECONDS
k0=$(kproblems)
nsc=0
while read -r port name desc; do
	nsc=$((nsc + 1))
	echo "# $name (peer port $port): $desc"
	echo "$port" >&$CTL
	RES_LINE=
	while read -r -t 120 -u $RES line; do
		echo "$line" >>"$OUT/sender.out"
		case "$line" in
		result\ *) RES_LINE=$line; break ;;
		*) echo "#   $line" ;;
		esac
	done
	echo "#   $RES_LINE"
	R=()
	for w in $RES_LINE; do
		[[ $w == *=* ]] && [ -z "${R[${w%%=*}]:-}" ] && R[${w%%=*}]=${w#*=}
	done
	kind=${R[jump]:--}
	pre=${R[pre_ms]:--} post=${R[post_ms]:--}
	check '[ "${R[st]:--}" = 3 ]' "$name: ESTABLISHED after connect() (ST ${R[st]:--})"
	check '[ "${R[jumped]:--}" = yes ] && [ "$kind" != - ] && [ -n "$kind" ]' \
		"$name: the jump happened (peer: $kind)"
	if [ "$name" = stock_restart ]; then
		check 'int "$pre" && [ "$pre" -ge 900 ] && int "$post" && [ "$post" -ge 900 ]' \
			"$name: without SCTP_THIN the probe takes stock's RTO (before $pre ms, after $post ms)"
	else
		case $name in
		restart) check '[ "${R[delta]:--}" = -14 ]' \
			"$name: our TSNs start over from the initial TSN, 14 before the first in flight (delta ${R[delta]:--})" ;;
		reset_peer)
			check '[ "${R[first]:--}" = 6 ]' \
				"$name: the request with DATA in flight is answered In progress (result ${R[first]:--})"
			check '[ "${R[snd_next_delta]:--}" = 0 ]' \
				"$name: performed; our next TSN continues (RFC 6525 G2; delta ${R[snd_next_delta]:--})" ;;
		reset_ours)
			check '[ "${R[reset_inflight]:--}" = EAGAIN ] && [ "${R[reset_acked]:--}" = 0 ]' \
				"$name: SCTP_RESET_ASSOC: EAGAIN with DATA in flight, 0 once acked (${R[reset_inflight]:--}, ${R[reset_acked]:--})"
			check '[ "${R[delta]:--}" = -1073741824 ]' "$name: our next TSN jumped by ${R[delta]:--}" ;;
		offon_*)
			check '! thin_bit "${R[on_state]:--}" && sat_bit "${R[on_state]:--}"' \
				"$name: switched on with DATA in flight: SATURATED, not THIN, until acked (STATE ${R[on_state]:--})" ;;
		esac
		case $name in
		restart|reset_*)
			r0=${R[held_resyncs]:--} r1=${R[jump_resyncs]:--}
			check 'int "$r0" && int "$r1" && [ "$r1" = $((r0 + 1)) ]' \
				"$name: RESYNCS + 1 ($r0 -> $r1)" ;;
		esac
		# 1 once a T3-rtx bundled both chunks into one packet
		check '[ "${R[held_inflight]:--}" = 1 ] || [ "${R[held_inflight]:--}" = 2 ]' \
			"$name: DATA in flight before the jump (INFLIGHT ${R[held_inflight]:--})"
		check '[ "${R[jump_inflight]:--}" = 0 ]' "$name: INFLIGHT 0 right after the jump: no stale packet (${R[jump_inflight]:--})"
		check '[ "${R[post_inflight]:--}" = 0 ] && [ "${R[tail_inflight]:--}" = 0 ]' \
			"$name: INFLIGHT drains to 0 once the peer acked the traffic after the jump (${R[post_inflight]:--}, ${R[tail_inflight]:--})"
		check 'thin_bit "${R[post_state]:--}" && thin_bit "${R[tail_state]:--}"' \
			"$name: STATE THIN again once idle with traffic (${R[post_state]:--}, ${R[tail_state]:--})"
		check 'int "$pre" && [ "$pre" -ge 100 ] && [ "$pre" -le 600 ]' \
			"$name: before the jump, the lost packet is retransmitted with thin timing ($pre ms)"
		check 'int "$post" && [ "$post" -le 600 ]' \
			"$name: after the jump, the lost packet is retransmitted within 600 ms ($post ms; stock RTO.Min 1000)"
		check 'int "$post" && [ "$post" -ge 50 ] && [ "${R[early_rtx]:--}" = 0 ]' \
			"$name: no spurious T3-rtx after the jump (probe $post ms, early retransmissions ${R[early_rtx]:--}: ${R[early]:--})"
	fi
	check '[ "${R[end]:--}" = complete ] && [ "${R[how]:--}" = complete ] && [ "${R[gone]:--}" = yes ] && [ "${R[senderr]:--}" = none ]' \
		"$name: all sent and a clean shutdown (send ${R[senderr]:--}, end ${R[end]:--}, peer ${R[how]:--}, gone ${R[gone]:--})"
	k1=$(kproblems)
	check 'thin_int "$k1" && [ "$k1" = "$k0" ]' "$name: no Call Trace/BUG/WARNING in dmesg ($k0 -> $k1 lines)"
	if [ "$k1" != "$k0" ]; then
		dmesg | grep -E -A 20 "$KPROBLEMS" | tail -n 60 | sed 's/^/#   dmesg: /'
		k0=$k1
	fi
	thin_objects_zero 10
	check '[ "$(cat /sys/module/sctp/parameters/thin_objects)" = 0 ]' \
		"$name: thin_objects back to 0 ($(cat /sys/module/sctp/parameters/thin_objects))"
done < <(python3 "$HERE/tsnjump_peer.py" list | grep -E "^[0-9]+ (${TSNJUMP_ONLY:-.*}) ")
echo "# scenarios took $((SECONDS - T0)) s"
check '[ "$nsc" -gt 0 ]' "scenarios run: $nsc (an empty list would pass every check)"
exec {CTL}>&- {RES}<&-

grep -v '^ready$' "$OUT/peer.out" | head -n 20 | sed 's/^/# peer: /'
head -n 20 "$OUT/sender.err" | sed 's/^/# sender: /'
check '[ ! -s "$OUT/sender.err" ] && [ "$(grep -vc "^ready$" "$OUT/peer.out")" = 0 ]' \
	"the peer and the sender ran without an error"
tj_down
trap - EXIT
check 'thin_objects_zero 20' "no thin-sctp object left once the namespaces are gone"
check '[ "$(kproblems)" = 0 ]' "dmesg has no Call Trace/BUG/WARNING/leak line"
thin_done

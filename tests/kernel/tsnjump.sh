#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest: TSN jumps with packets in flight.  A scripted fake SCTP
# peer (tests/kernel/tsnjump_peer.py, scapy) drives real associations of
# our module's sender in lib.sh's scripted-peer lab, as in hostile.sh:
#
#   [sender] 10.0.1.1 j0 --veth-- q0 10.0.1.2 [peer]
#
# Each association (SCTP_THIN all on, one 100-byte message per packet)
# sends, SACKed, then holds two DATA chunks in flight (the peer does not
# SACK them) while its TSNs jump:
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
thin_peer_up tsnjump j0 q0
thin_peer_start "$HERE/tsnjump_peer.py"

# The result line's key=value pairs in R (no process per lookup: forks
# cost tens of ms under TCG); ${R[KEY]:--}: the value, "-" if absent.
declare -A R
# $1: value.  An integer?
int() { [[ "$1" =~ ^-?[0-9]+$ ]]; }
# $1: STATE value (0x..).  THIN bit set?
thin_bit() { [[ "$1" =~ ^0x[0-9a-fA-F]+$ ]] && (($1 & 1)); }
# SATURATED bit (0x02: thick until everything outstanding is acked)?
sat_bit() { [[ "$1" =~ ^0x[0-9a-fA-F]+$ ]] && (($1 & 2)); }

while read -r port name desc; do
	echo "# $name (peer port $port): $desc"
	thin_peer_run "$port"
	R=()
	for w in $THIN_PEER_RESULT; do
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
	thin_peer_after "$name"
done < <(thin_peer_scenarios "$HERE/tsnjump_peer.py" "${TSNJUMP_ONLY:-.*}")
thin_peer_finish
thin_done

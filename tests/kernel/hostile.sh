#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest: a hostile or broken peer (issue 7).  A scripted fake SCTP
# peer (tests/kernel/hostile_peer.py, scapy) drives real associations from
# our module's sender with bad SACKs, in lib.sh's scripted-peer lab:
#
#   [sender] 10.0.1.1 h0 --veth-- p0 10.0.1.2 [peer]
#
# Each scenario runs twice side by side from the same peer script: with
# SCTP_THIN all on the sender socket (peer port 9000 + 10 i) and without
# it (port + 1, the stock behaviour of the same module).  Scenarios
# (hostile_peer.py list):
# overlapping gap blocks, reversed gap blocks (start > end), gap blocks
# beyond anything sent, 363 gap blocks, a cumulative ack beyond the highest
# TSN sent, 360+ duplicate TSNs, renege, zero window then a window update
# (with one window probe outstanding, and with three TSNs outstanding),
# SACKs in SHUTDOWN-PENDING/SHUTDOWN-SENT after close() with data
# outstanding (then SHUTDOWN-ACK, no SHUTDOWN-ACK at all, or a SACK acking
# beyond), and one SACK acking nothing new repeated 400 times.
#
# Checks per scenario:
#   - both associations reach ESTABLISHED (ST 3 in /proc/net/sctp/assocs
#     of the sender's namespace right after connect());
#   - the outcome, "continued" (DATA sent after the bad phase was acked
#     and the association shut down cleanly) or "aborted(cause=N)" (the
#     sender's ABORT with error cause N), is the same with and without
#     SCTP_THIN, and the expected one;
#   - the path is declared unreachable (INACTIVE in /proc/net/sctp/remaddr,
#     sampled every 100 ms) with SCTP_THIN if and only if without;
#   - no new Call Trace/BUG/WARNING line in dmesg;
#   - /sys/module/sctp/parameters/thin_objects is back to 0;
#   - zero_window: no linear timeout with SCTP_THIN (the probes back off).
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
thin_peer_up hostile h0 p0
thin_peer_start "$HERE/hostile_peer.py"
while read -r port name desc; do
	echo "# $name (peer ports $port with SCTP_THIN, $((port + 1)) without): $desc"
	thin_peer_run "$port"
	# result PORT NAME est=ST/ST thin=O stock=O expected=O path=P/P took=S
	set -- $THIN_PEER_RESULT
	est=${4#est=} ot=${5#thin=} os=${6#stock=} exp=${7#expected=} path=${8#path=}
	pt=${path%/*} ps=${path#*/}
	check '[ "$est" = 3/3 ]' "$name: both associations ESTABLISHED (ST $est)"
	check '[ -n "$ot" ] && [ "$ot" = "$os" ]' "$name: same outcome with and without SCTP_THIN (thin $ot, stock $os)"
	check '[ -n "$exp" ] && [ "$ot" = "$exp" ] && [ "$os" = "$exp" ]' "$name: outcome is the expected $exp"
	dt=no ds=no
	[ "$pt" = INACTIVE ] && dt=yes
	[ "$ps" = INACTIVE ] && ds=yes
	check '[ -n "$pt" ] && [ -n "$ps" ] && [ $dt = $ds ]' \
		"$name: path declared unreachable: the same with and without SCTP_THIN (thin $dt, stock $ds; worst state thin $pt, stock $ps)"
	# A zero window is not loss: window probes back off (RFC 9260 6.1 A,
	# 6.3.3), so no linear timeout (linear= of the sender, from SCTP_THIN_INFO).
	if [ "$name" = zero_window ]; then
		lt=$(grep "^$port thin up=" "$THIN_PEER_OUT/sender.out" | tail -n 1 | sed -n 's/.* linear=\([0-9-]*\).*/\1/p')
		check '[ "$lt" = 0 ]' "$name: window probes back off with SCTP_THIN (linear timeouts: $lt)"
	fi
	thin_peer_after "$name"
done < <(thin_peer_scenarios "$HERE/hostile_peer.py")
thin_peer_finish
thin_done

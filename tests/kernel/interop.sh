#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest: another SCTP stack as the peer (issue 30, item 5).  A thin
# stream from our module to FreeBSD's SCTP stack in user space (libusrsctp,
# usrsctp-sink.c), over UDP encapsulation (RFC 6951: net.sctp.udp_port and
# net.sctp.encap_port in S, usrsctp_init(9899) in R):
#
#   [S] thin-send --- [E] netem 50 ms each way, thin-drop -u 9899 --- [R] usrsctp-sink
#        our sctp.ko       (queues SCTP in UDP, drops chosen              libusrsctp,
#                           transmissions, logs DATA and SACKs)            its defaults
#
# 100-byte messages, the first transmission of messages 5, 15 and 25
# dropped (-A: the packet that carries it new, whatever copies ride in
# front), in three runs:
#
#   off    our module, no mechanism (stock behaviour; THIN_MODE=stock runs
#          it alone on Debian's module): 40 messages every 250 ms
#   thin   the host preset (sysctl/90-thin-sctp.conf), every mechanism:
#          the same
#   rdb    the preset and redundant data bundling: 60 messages every
#          100 ms, so that copies ride in most packets
#
# and two more through netem's random loss (5 % each way, 100 messages
# every 100 ms): thin-netem and rdb-netem.  Checked:
#
#   - the association runs over UDP both ways (E queues only UDP port
#     9899 and sees DATA and SACKs; it forwards no plain SCTP);
#   - usrsctp delivers every message exactly once and in order (payload
#     sequence, SSN, TSN), and the sender sees every message acked;
#   - the I-bit (RFC 7053) is answered at once: with the preset every
#     packet carries it and usrsctp's SACK leaves at once (median < 50 ms),
#     where without it usrsctp holds the SACK for its delayed-SACK timer
#     (200 ms; the control that shows the measurement can tell);
#   - repair: stock waits for three miss indications or T3-rtx (RTO.Min
#     1 s), the preset repairs on the first indication or at its RTO.Min
#     (200 ms), RDB's copy comes with the next message;
#   - RDB's copies: usrsctp discards each copy of a chunk it had and
#     counts it (its sctps_recvdupdata), reports it as a duplicate TSN in
#     its SACKs, and our module, reading those reports, counts as repaired
#     only the losses a copy repaired (sti_rdb_repaired), not every copy.
#
# INTEROP_RUNS: the runs to make (default "off thin rdb netem"; the
# mutants pick theirs).
. "$(dirname "$0")/lib.sh"
RUNS=" ${INTEROP_RUNS:-off thin rdb netem} "
# $1: a run.  True if it is to be made.
want() { [ "${RUNS/ $1 /}" != "$RUNS" ]; }
STOCK=0
[ "${THIN_MODE:-ours}" = stock ] && STOCK=1
UDP=9899 D=50
DROPS="5 15 25"
DROP_ARGS="-u $UDP -A -d 5:1 -d 15:1 -d 25:1"
thin_out interop
OUTDIR=$OUT
SINK=$BIN/usrsctp-sink
[ -x "$SINK" ] || { not_ok "$SINK missing (make tests)"; thin_done; exit 1; }
thin_lab_up $D udp $UDP
trap thin_lab_down EXIT
ip netns exec $S sysctl -q -w net.sctp.udp_port=$UDP net.sctp.encap_port=$UDP
u=$(ip netns exec $S sysctl -n net.sctp.udp_port)
e=$(ip netns exec $S sysctl -n net.sctp.encap_port)
check '[ "$u" = $UDP ] && [ "$e" = $UDP ]' "S: net.sctp.udp_port and encap_port $UDP (SCTP over UDP, RFC 6951)"

# THIN_SCENARIO_RECV for thin_scenario: usrsctp-sink in R.  $1: label, $2:
# port.  SINK_PID: its pid; waits (30 s) for its "ready".
usrsctp_recv() {
	local i
	ip netns exec $R "$SINK" -u $UDP -p "$2" -l "$OUTDIR/$1.msgs" -t 120 >"$OUTDIR/$1.sink" 2>&1 &
	SINK_PID=$!
	for i in $(seq 1 300); do
		grep -q '^ready$' "$OUTDIR/$1.sink" && return 0
		sleep 0.1
	done
}
THIN_SCENARIO_RECV=usrsctp_recv

# $1: label, $2: key.  Value from the sink's key=value lines.
sink_kv() { sed -n "s/^$2=//p" "$OUTDIR/$1.sink"; }

# $1: label, $2: port, $3: sysctls, $4: messages, $5: interval (ms),
# $6: netem options of both directions after the delay (none: "").
# Runs the scenario and the checks every run has.
run() {
	local label=$1 port=$2 n=$4 m
	# shellcheck disable=SC2086
	thin_lab_netem both delay ${D}ms $6 limit 10000
	thin_scenario "$label" "$3" "$port" "$DROP_ARGS" -n "$n" -i "$5" -w 15000
	# the sender closed once all was acked: the sink sees the shutdown
	for m in $(seq 1 300); do
		kill -0 "$SINK_PID" 2>/dev/null || break
		sleep 0.1
	done
	kill "$SINK_PID" 2>/dev/null
	wait "$SINK_PID" 2>/dev/null
	sed 's/^/# sink: /' "$OUTDIR/$label.sink" | paste -sd' ' | cut -c1-300
	d=$(awk -v p="-$port" 'index($2, p) && $3 != "SACK"' "$OUTDIR/$label.log" | wc -l)
	s=$(awk -v p="-$port" 'index($2, p) && $3 == "SACK"' "$OUTDIR/$label.log" | wc -l)
	check_num "$label: over UDP both ways: E queued DATA ($d) and SACKs ($s) from UDP port $UDP" \
		'd > 0 && s > 0' d="$d" s="$s"
	check '[ "$(sink_kv "$label" end)" = shutdown ]' \
		"$label: usrsctp accepted the association and saw it shut down ($(sink_kv "$label" end))"
	g=$(sink_kv "$label" badsum)
	check_num "$label: usrsctp found no bad checksum (CRC32c in UDP: $g)" 'g == 0' g="$g"
	# exactly once: each of 0..n-1, no other
	m=$(awk -v n="$n" '{ c[$2]++; k++ } END {
			for (i = 0; i < n; i++) { if (!(i in c)) miss++; else if (c[i] > 1) dup += c[i] - 1 }
			for (s in c) if (s + 0 < 0 || s + 0 >= n || s != s + 0) extra += c[s]
			printf "recv=%d missing=%d dup=%d extra=%d", k, miss, dup, extra }' "$OUTDIR/$label.msgs")
	check '[ "$m" = "recv=$n missing=0 dup=0 extra=0" ]' "$label: usrsctp delivered every message exactly once ($m)"
	# in order: sequence i is the i-th message, on stream 0 with SSN i,
	# its TSN above the one before
	m=$(awk '{ if ($2 != NR - 1) seq++; if ($3 != 0 || $4 != NR - 1) ssn++
			if (NR > 1 && $5 - p <= 0) tsn++; p = $5 }
		END { printf "seq=%d ssn=%d tsn=%d", seq, ssn, tsn }' "$OUTDIR/$label.msgs")
	check '[ "$m" = "seq=0 ssn=0 tsn=0" ] && [ -s "$OUTDIR/$label.msgs" ]' \
		"$label: in order (out-of-order payload sequence, stream/SSN, TSN: $m)"
	g=$(thin_kv "$label" unacked)
	check_num "$label: the sender saw every message acked" 'g == 0' g="$g"
}

# $1: label, $2: port.  ms from the first transmission of each dropped
# message (at E) to its delivery by usrsctp, less the one-way delay.
repairs() {
	local k
	for k in $DROPS; do
		awk -v p="-$2" -v k="$k" -v d=$D 'FNR == NR { if (index($2, p) && $3 == k && $3 != "SACK" && !t0) t0 = $1; next }
			$2 == k && t0 { printf "%.0f\n", ($1 - t0) / 1e6 - d; exit }' \
			"$OUTDIR/$1.log" "$OUTDIR/$1.msgs"
	done
}
# $1: label, $2: port.  "n median min p75" of the SACK delays (ms).
sack_stats() { thin_sack_delays "$OUTDIR/$1.log" "$2" $D | thin_stats; }
# $1: label, $2: port.  DATA chunks with the I-bit that E passed.
ibits() { awk -v p="-$2" 'index($2, p) && $3 != "SACK" && $6 == "I"' "$OUTDIR/$1.log" | wc -l; }
# $1: label, $2: port.  Duplicate TSNs reported in the SACKs E saw.
sack_dups() { awk -v p="-$2" 'index($2, p) && $3 == "SACK" { n += $6 } END { print n + 0 }' "$OUTDIR/$1.log"; }
# $1: list of numbers.  Their maximum (nothing if none).
max() { echo "$1" | awk 'NF { if (!n++ || $1 > m) m = $1 } END { if (n) print m }'; }
min() { echo "$1" | awk 'NF { if (!n++ || $1 < m) m = $1 } END { if (n) print m }'; }
ND=$(echo $DROPS | wc -w)

# ---- off: no mechanism -------------------------------------------------
med_off=- r_off=""
if want off; then
	run off 7301 "" 40 250 ""
	read -r n_off med_off _ _ <<<"$(sack_stats off 7301)"
	r_off=$(repairs off 7301)
	echo "# off: SACK delay n=$n_off median=$med_off ms; repairs [$(echo $r_off)] ms"
	check_num "off: no I-bit on the wire (control)" 'g == 0' g="$(ibits off 7301)"
	check_num "off: usrsctp holds its SACK for its delayed-SACK timer (median >= 150 ms of $n_off; the control of the I-bit check)" \
		'n >= 10 && m >= 150' n="$n_off" m="$med_off"
	g=$(min "$r_off")
	check_num "off: each loss repaired after 3 miss indications or T3-rtx (earliest >= 700 ms)" \
		"g >= 700 && c == $ND" g="$g" c="$(echo "$r_off" | grep -c .)"
fi

if [ $STOCK = 1 ]; then
	g=$(thin_lab_plain_sctp)
	check_num "E forwarded no plain SCTP (everything in UDP)" 'g == 0' g="$g"
	thin_done
	exit
fi

PRESET=$(thin_preset_kv)
# ---- thin: the preset ----------------------------------------------------
r_thin=""
if want thin; then
	run thin 7302 "$PRESET" 40 250 ""
	read -r n_thin med_thin _ p75_thin <<<"$(sack_stats thin 7302)"
	r_thin=$(repairs thin 7302)
	echo "# thin: SACK delay n=$n_thin median=$med_thin p75=$p75_thin ms; repairs [$(echo $r_thin)] ms"
	g=$(thin_kv thin sack_immediately)
	check_num "thin: the sender set the I-bit (sti_sack_immediately $g of $(thin_kv thin pkts_sent) packets)" \
		'g >= 30' g="$g"
	check_num "thin: the I-bit on the wire ($(ibits thin 7302) DATA chunks)" 'g >= 30' g="$(ibits thin 7302)"
	check_num "thin: the I-bit answered at once: usrsctp's SACK leaves within 50 ms (median of $n_thin; off: $med_off ms)" \
		'n >= 10 && m <= 50' n="$n_thin" m="$med_thin"
	g=$(max "$r_thin")
	check_num "thin: each loss repaired by fast retransmit on the first indication or T3-rtx at the thin RTO.Min (latest <= 650 ms; off: earliest $(min "$r_off") ms)" \
		"g <= 650 && c == $ND" g="$g" c="$(echo "$r_thin" | grep -c .)"
	echo "# thin: fast_rtx=$(thin_kv thin fast_rtx) timeouts=$(thin_kv thin timeouts) rto_min_clamps=$(thin_kv thin rto_min_clamps)"
fi

# ---- rdb: the preset and redundant data bundling ------------------------
# Every 100 ms, so that a message is often still outstanding when the next
# leaves (RTT 100 ms): copies ride in most packets, not only after a loss.
# Six SACKs that ack a copied message (40, 43, ... 55) are dropped: the
# next SACK acks the message and its carrier at once, and only usrsctp's
# dup report of the copy tells our module that the original had arrived
# (a copy that arrived first would be a repair).
if want rdb; then
	SACK_DROPS=6
	DROP_ARGS="$DROP_ARGS -S 40:1 -S 43:1 -S 46:1 -S 49:1 -S 52:1 -S 55:1"
	run rdb 7303 "$PRESET thin_rdb=1" 60 100 ""
	DROP_ARGS="-u $UDP -A -d 5:1 -d 15:1 -d 25:1"
	sdrop=$(awk -v p="-7303" 'index($2, p) && $3 == "SACK" && $7 == "DROP"' "$OUTDIR/rdb.log" | wc -l)
	r_rdb=$(repairs rdb 7303)
	c=$(thin_kv rdb rdb_chunks)
	dd=$(sink_kv rdb recvdupdata)
	sd=$(sack_dups rdb 7303)
	rr=$(thin_kv rdb rdb_repaired)
	# Transmissions (copies or retransmissions) E passed of a TSN it had
	# already passed once: each reaches usrsctp as a duplicate (no other loss
	# in this run).
	xd=$(awk -v p="-7303" 'index($2, p) && $3 != "SACK" && $5 == "PASS" { if (seen[$3]++) n++ } END { print n + 0 }' "$OUTDIR/rdb.log")
	echo "# rdb: repairs [$(echo $r_rdb)] ms; copies sent $c, duplicates E passed $xd, usrsctp dup chunks $dd, dup TSNs in its SACKs $sd, rdb_repaired $rr"
	g=$(max "$r_rdb")
	check_num "rdb: each loss repaired by the copy in the next message's packet, 100 ms later (latest <= 190 ms)" \
		"g <= 190 && c == $ND" g="$g" c="$(echo "$r_rdb" | grep -c .)"
	check_num "rdb: copies bundled ($c)" 'c >= 20' c="$c"
	check_num "rdb: usrsctp discarded every copy of a chunk it had as a duplicate ($dd dup chunks; E passed $xd second copies)" \
		'd == x && d > 0' d="$dd" x="$xd"
	check_num "rdb: usrsctp reported each as a duplicate TSN in its SACKs ($sd)" 's == d && s > 0' s="$sd" d="$dd"
	check_num "rdb: $SACK_DROPS SACKs of copied messages dropped ($sdrop)" "g == $SACK_DROPS" g="$sdrop"
	# Exactly the losses: the copy of message k - 1 lost with k's packet
	# is no loss, since usrsctp's immediate SACK of k - 1 came back before
	# any carrier of it was acked (seen 2026-11-26, with dups ignored: 6).
	check_num "rdb: our module read the dup reports: it counted only the repairs, not the copies whose SACK was lost (rdb_repaired $rr, $ND losses, $c copies)" \
		"r == $ND" r="$rr"
fi

# ---- through netem's random loss ----------------------------------------
if want netem; then
	DROP_ARGS="-u $UDP"
	DROPS=""
	run thin-netem 7304 "$PRESET" 100 100 "loss 5%"
	run rdb-netem 7305 "$PRESET thin_rdb=1" 100 100 "loss 5%"
	for l in thin-netem rdb-netem; do
		echo "# $l: pkts_sent=$(thin_kv $l pkts_sent) lost=$(thin_kv $l pkts_lost) fast_rtx=$(thin_kv $l fast_rtx) timeouts=$(thin_kv $l timeouts) rdb_chunks=$(thin_kv $l rdb_chunks) rdb_repaired=$(thin_kv $l rdb_repaired) usrsctp_dups=$(sink_kv $l recvdupdata)"
	done
	# Not every dup reaches a SACK that E sees: a SACK can be lost
	# (netem) or the association end first (CI of 50d8fcc: 93 dups, 91
	# reported).  The exact count is the deterministic rdb run's.
	check_num "rdb-netem: usrsctp discarded copies as duplicates and reported most of them ($(sink_kv rdb-netem recvdupdata) dup chunks, $(sack_dups rdb-netem 7305) reported)" \
		'd > 0 && s > 0 && 5 * s >= 4 * d' d="$(sink_kv rdb-netem recvdupdata)" s="$(sack_dups rdb-netem 7305)"
fi

g=$(thin_lab_plain_sctp)
check_num "E forwarded no plain SCTP (everything in UDP)" 'g == 0' g="$g"
thin_lab_down
trap - EXIT
check 'thin_objects_zero 20' "no thin-sctp object left once the namespaces are gone"
thin_done

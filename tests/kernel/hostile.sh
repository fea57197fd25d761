#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest: a hostile or broken peer (issue 7).  A scripted fake SCTP
# peer (tests/kernel/hostile_peer.py, scapy) drives real associations from
# our module's sender with bad SACKs:
#
#   [HS] 10.0.1.1 h0 --veth-- p0 10.0.1.2 [HP]
#
# HS runs the sender (hostile_peer.py send, one process for every
# scenario); in HP nftables drops every inbound SCTP packet, so the kernel
# there never answers, and the peer reads frames with AF_PACKET (before
# netfilter) and writes its answers on the link (after it).  Each scenario
# runs twice side by side from the same peer script: with SCTP_THIN all on
# the sender socket (peer port 9000 + 10 i) and without it (port + 1, the
# stock behaviour of the same module).  Scenarios (hostile_peer.py list):
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
#     of HS right after connect());
#   - the outcome, "continued" (DATA sent after the bad phase was acked
#     and the association shut down cleanly) or "aborted(cause=N)" (the
#     sender's ABORT with error cause N), is the same with and without
#     SCTP_THIN, and the expected one;
#   - the path is declared unreachable (INACTIVE in /proc/net/sctp/remaddr,
#     sampled every 100 ms) with SCTP_THIN if and only if without;
#   - no new Call Trace/BUG/WARNING line in dmesg;
#   - /sys/module/sctp/parameters/thin_objects is back to 0;
#   - zero_window: no linear timeout with SCTP_THIN (the probes back off).
# Process start-up costs up to seconds under TCG, so the loop starts few
# processes: the sender reads ports on one fifo and answers on another.
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${THIN_PY:-/opt/thin-venv/bin/python3}	# with scapy, for the peer
OUT=${THIN_OUT:-/tmp}/hostile
rm -rf "$OUT"
mkdir -p "$OUT"
HS=hp$$s HP=hp$$p
KPROBLEMS='Call Trace|BUG[: ]|WARNING:|kmemleak|thin-sctp: leak'
FIFO=$(mktemp -d)	# fifos cannot live on the 9p results directory

hostile_up() {
	local ns
	for ns in $HS $HP; do ip netns add $ns; ip -n $ns link set lo up; done
	ip link add h0 netns $HS type veth peer name p0 netns $HP
	ip -n $HS addr add 10.0.1.1/24 dev h0
	ip -n $HP addr add 10.0.1.2/24 dev p0
	ip -n $HS link set h0 up
	ip -n $HP link set p0 up
	# Offloads off here only: the scapy peer reads and writes raw frames
	# and needs real checksums and one SCTP packet per frame.
	ip netns exec $HS ethtool -K h0 tso off gso off gro off tx off rx off >/dev/null 2>&1
	ip netns exec $HP ethtool -K p0 tso off gso off gro off tx off rx off >/dev/null 2>&1
	ip netns exec $HP nft -f - <<NFT
table inet hostile {
	chain input {
		type filter hook input priority 0;
		meta l4proto sctp drop
	}
}
NFT
}
hostile_down() {
	local ns
	for ns in $HS $HP; do
		ip netns pids $ns 2>/dev/null | xargs -r kill 2>/dev/null
	done
	sleep 0.2
	for ns in $HS $HP; do ip netns del $ns 2>/dev/null; done
	rm -rf "$FIFO"
}
trap hostile_down EXIT
# Lines of the kernel log that show a problem; "unreadable" (no count) if
# dmesg fails, so that two failed reads do not compare equal as "0".
kproblems() {
	local log
	log=$(dmesg 2>/dev/null) || { echo unreadable; return; }
	printf '%s\n' "$log" | grep -cE "$KPROBLEMS"
}

hostile_up
ip netns exec $HP "$PY" "$HERE/hostile_peer.py" peer p0 10.0.1.2 "$OUT" >"$OUT/peer.out" 2>&1 &
mkfifo "$FIFO/ctl" "$FIFO/res"
ip netns exec $HS python3 "$HERE/hostile_peer.py" send 10.0.1.2 "$OUT" \
	<"$FIFO/ctl" >"$FIFO/res" 2>"$OUT/sender.err" &
exec {CTL}>"$FIFO/ctl" {RES}<"$FIFO/res"
ready=0
for _ in $(seq 1 900); do
	if grep -q '^ready$' "$OUT/peer.out"; then ready=1; break; fi
	sleep 0.1
done
check '[ $ready = 1 ]' "fake peer (scapy) ready on p0"

T0=$SECONDS
k0=$(kproblems)
nsc=0
while read -r port name desc; do
	nsc=$((nsc + 1))
	echo "# $name (peer ports $port with SCTP_THIN, $((port + 1)) without): $desc"
	echo "$port" >&$CTL
	res=
	while read -r -t 120 -u $RES line; do
		echo "$line" >>"$OUT/sender.out"
		case "$line" in
		result\ *) res=$line; break ;;
		*) echo "#   $line" ;;
		esac
	done
	echo "#   $res"
	# result PORT NAME est=ST/ST thin=O stock=O expected=O path=P/P took=S
	set -- $res
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
		lt=$(grep "^$port thin up=" "$OUT/sender.out" | tail -n 1 | sed -n 's/.* linear=\([0-9-]*\).*/\1/p')
		check '[ "$lt" = 0 ]' "$name: window probes back off with SCTP_THIN (linear timeouts: $lt)"
	fi
	k1=$(kproblems)
	check 'thin_int "$k1" && [ "$k1" = "$k0" ]' "$name: no Call Trace/BUG/WARNING in dmesg ($k0 -> $k1 lines)"
	if [ "$k1" != "$k0" ]; then
		dmesg | grep -E -A 20 "$KPROBLEMS" | tail -n 60 | sed 's/^/#   dmesg: /'
		k0=$k1
	fi
	read -r n </sys/module/sctp/parameters/thin_objects
	[ "$n" = 0 ] || { thin_objects_zero 10; read -r n </sys/module/sctp/parameters/thin_objects; }
	check '[ "$n" = 0 ]' "$name: thin_objects back to 0 ($n)"
done < <(python3 "$HERE/hostile_peer.py" list)
echo "# scenarios took $((SECONDS - T0)) s"
check '[ "$nsc" -gt 0 ]' "scenarios run: $nsc (an empty list would pass every check)"
exec {CTL}>&- {RES}<&-

grep -v '^ready$' "$OUT/peer.out" | head -n 20 | sed 's/^/# peer: /'
head -n 20 "$OUT/sender.err" | sed 's/^/# sender: /'
check '[ ! -s "$OUT/sender.err" ] && [ "$(grep -vc "^ready$" "$OUT/peer.out")" = 0 ]' \
	"the peer and the sender ran without an error"
hostile_down
trap - EXIT
check 'thin_objects_zero 20' "no thin-sctp object left once the namespaces are gone"
check '[ "$(kproblems)" = 0 ]' "dmesg has no Call Trace/BUG/WARNING/leak line"
thin_done

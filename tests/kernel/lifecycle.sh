#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest: association life cycle with a non-empty in-flight list
# (issue 7).  The data direction is cut (netem loss 100 %) so that the
# packets sent stay in flight, then the association ends in each way:
#   1. ESTABLISHED, we abort (SO_LINGER 0 close);
#   2. SHUTDOWN_PENDING (we closed with data outstanding), the peer aborts;
#   3. SHUTDOWN_RECEIVED (the peer closed), the network heals and the
#      shutdown completes with our data delivered;
#   4. dead peer: association_max_retrans 3 with linear timeouts on: the
#      association still fails, and no earlier in time than a stock one
#      beside it (with pf_enable 0, where stock's time is not random);
#   5. the namespace is deleted while an association has data in flight
#      (and the tail probe's timer pending);
#   6. (run before 5) the tail probe on: abort with its timer pending,
#      abort after the probe, the peer's abort in SHUTDOWN_PENDING.
# Afterwards no thin-sctp object is left.  (Module unload cannot be tested:
# the per-netns control sockets hold two references to sctp.ko, Debian's
# as ours, so rmmod sctp fails with EBUSY on an idle system.)
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${THIN_OUT:-/tmp}/lifecycle
rm -rf "$OUT"
mkdir -p "$OUT"
FIFO=$(mktemp -d)	# fifos cannot live on the 9p results directory
thin_lab_up 10
trap thin_lab_down EXIT

# $1: timeout (s), $2: condition (string).
wait_for() {
	local i
	for i in $(seq 1 $(($1 * 10))); do eval "$2" && return 0; sleep 0.1; done
	return 1
}
# Our (S) side of the association to port $1: state (/proc/net/sctp/assocs
# ST column), packets in flight (/proc/net/sctp/thin).
st() { ip netns exec $S awk -v p="$1" 'NR > 1 && $13 == p { print $5 }' /proc/net/sctp/assocs; }
inflight() { ip netns exec $S awk -v p="$1" 'NR > 1 && $3 == p { print $6 }' /proc/net/sctp/thin; }

# $1: port, $2: sink action (abort|close).  Sets FD (sender's stdin) and
# SINKPID.  LC_NO_THIN=1 in the environment: a stock socket.
pair() {
	ip netns exec $R python3 "$HERE/lc.py" sink "$1" "$2" >"$OUT/sink$1" 2>&1 &
	SINKPID=$!
	wait_for 10 "grep -q listening $OUT/sink$1"
	mkfifo "$FIFO/in$1"
	ip netns exec $S env LC_NO_THIN="${LC_NO_THIN:-}" LC_THIN_FLAGS="${LC_THIN_FLAGS:-}" python3 "$HERE/lc.py" send 10.0.2.1 "$1" <"$FIFO/in$1" >"$OUT/send$1" 2>&1 &
	SENDPID=$!
	exec {FD}>"$FIFO/in$1"
	wait_for 10 "grep -q up $OUT/send$1"
}
cut() { thin_lab_netem fwd delay 10ms loss 100%; }
heal() { thin_lab_netem fwd delay 10ms limit 10000; }
# $1: port: 3 more messages, lost; wait until they are in flight.
stuck() {
	cut
	echo "send 3" >&$FD
	wait_for 10 "[ \"\$(inflight $1)\" -gt 0 ] 2>/dev/null"
}

# 1. ESTABLISHED, we abort.
pair 7101 close
stuck 7101
check '[ "$(st 7101)" = 3 ] && [ "$(inflight 7101)" -gt 0 ]' "1: ESTABLISHED with $(inflight 7101) packets in flight"
echo abort >&$FD
check 'wait_for 5 "[ -z \"\$(st 7101)\" ]"' "1: our abort removes the association"
exec {FD}>&-
heal
kill $SINKPID 2>/dev/null

# 2. SHUTDOWN_PENDING, the peer aborts.
pair 7102 abort
stuck 7102
echo close >&$FD
check 'wait_for 5 "[ \"\$(st 7102)\" = 4 ]" && [ "$(inflight 7102)" -gt 0 ]' "2: SHUTDOWN_PENDING with $(inflight 7102) packets in flight"
kill -USR1 $SINKPID
check 'wait_for 5 "[ -z \"\$(st 7102)\" ]"' "2: the peer's ABORT removes the association"
exec {FD}>&-
heal

# 3. SHUTDOWN_RECEIVED, then the network heals.
pair 7103 close
stuck 7103
kill -USR1 $SINKPID
check 'wait_for 5 "[ \"\$(st 7103)\" = 6 ]" && [ "$(inflight 7103)" -gt 0 ]' "3: SHUTDOWN_RECEIVED with $(inflight 7103) packets in flight"
heal
check 'wait_for 15 "[ -z \"\$(st 7103)\" ]"' "3: after the heal the shutdown completes"
echo close >&$FD
exec {FD}>&-

# 4. Dead peer with linear timeouts and thin RTOmin (200 ms): the
# association still fails, and no earlier in time than stock lksctp's
# (thin.c, failure detection: thin expiries before stock's are not
# errors).  Stock is the same module on a socket without SCTP_THIN
# (lc.py, LC_NO_THIN=1), run side by side with the thin one: both send,
# the path is cut for both at once, both send one more message and wait.
# Each time runs from that message's send to the error (lc.py), so
# neither process's start-up enters, and both associations' timers run
# in the same guest at the same moment.  Until 2026-11-24 the thin
# association failed after 0.81 s, and this test said that was right;
# until 2026-11-25 it ran stock first and allowed thin 0.3 s less.
#   4a. pf_enable 0: T3-rtx alone counts errors (1 + 2 + 4 + 8 s: about
#       15.4 s), a schedule without chance, so thin may be earlier by
#       measurement error only: 40 ms, twice the largest difference seen
#       between two stock associations side by side (30 pairs, 15 of them
#       with pf_enable 0: -20 to +14 ms).  Thin beside stock, 15 pairs:
#       0 to 271 ms later, never earlier.
#   4b. pf_enable 1 (6.1's default): the potentially-failed path's
#       heartbeats count too (about 7 s), each sent RTO/2 + random(RTO)
#       after the last (sctp_transport_reset_hb_timer()), so stock's own
#       time can vary by chance: in 18 pairs one stock association failed
#       at 7.57 s, the others at 7.05-7.34 s, thin at 7.28-7.50 s, and
#       thin was earlier than the stock one beside it twice (by 9 and
#       91 ms).  A bound there would favour thin by that chance, so 4b
#       checks that the association fails and reports the times; 4a
#       guards the rule.
TOL=0.04
ip netns exec $S sysctl -q -w net.sctp.association_max_retrans=3 net.sctp.path_max_retrans=3
# $1: label, $2: pf_enable, $3 $4: ports of the stock and the thin
# association.  Sets ERR_S SECS_S ERR_T SECS_T (lc.py's "ended" line).
dead_pair() {
	local label=$1 ps=$3 pt=$4 fds fdt sks skt fd p
	ip netns exec $S sysctl -q -w net.sctp.pf_enable="$2"
	LC_NO_THIN=1 pair "$ps" close
	fds=$FD sks=$SINKPID
	pair "$pt" close
	fdt=$FD skt=$SINKPID
	for fd in $fds $fdt; do echo "send 1" >&"$fd"; done; sleep 0.5
	for fd in $fds $fdt; do echo "send 1" >&"$fd"; done; sleep 0.5
	cut
	for fd in $fds $fdt; do echo "send 1" >&"$fd"; done
	for fd in $fds $fdt; do echo wait >&"$fd"; done
	wait_for 40 "grep -q ended $OUT/send$ps && grep -q ended $OUT/send$pt"
	for p in $ps $pt; do
		check 'grep -q ended $OUT/send$p' "$label: the association to a dead peer fails ($p): $(tr '\n' ' ' <"$OUT/send$p")"
	done
	exec {fds}>&- {fdt}>&-
	heal
	kill $sks $skt 2>/dev/null
	read -r _ ERR_S SECS_S _ < <(grep ended "$OUT/send$ps")
	read -r _ ERR_T SECS_T _ < <(grep ended "$OUT/send$pt")
	check '[ "$ERR_S" = ETIMEDOUT ] && [ "$ERR_T" = ETIMEDOUT ]' \
		"$label: both fail with ETIMEDOUT (stock ${ERR_S:-none}, thin ${ERR_T:-none})"
	check '[ -z "$(st $pt)" ]' "$label: the failed association is gone"
}
dead_pair "4a (pf_enable 0)" 0 7106 7104
check_num "4a (pf_enable 0): no earlier than stock: thin fails after ${SECS_T:-no} s, stock after ${SECS_S:-no} s (side by side; tolerance $TOL s)" \
	"k > 0 && s >= k - t" s="$SECS_T" k="$SECS_S" t="$TOL"
dead_pair "4b (pf_enable 1)" 1 7108 7107
echo "# 4b (pf_enable 1): thin fails after ${SECS_T:-no} s, stock after ${SECS_S:-no} s (not compared: random heartbeat times)"
ip netns exec $S sysctl -q -w net.sctp.association_max_retrans=10 net.sctp.path_max_retrans=5

# 6. The tail probe's timer (issue 29, design K8), the data direction
#    cut.  a) the preset's mechanisms but the I-bit, and the probe
#    (0x13f): without the I-bit the PTO waits 2 SRTT + the peer's SACK
#    delay (2 x ~220 + 200 ms here), so it is pending when we abort right
#    after the send; b) with the I-bit (0x17f) we abort 0.3 s after the
#    send, after the probe left (PTO 2 SRTT, ~50 ms; its episode open);
#    c) the peer aborts in SHUTDOWN_PENDING with a probe sent.  A timer
#    left behind would hold its association (the object count below) or
#    fire on freed memory (the guest's kernel log, checked by the
#    runner).  Step 5 deletes the namespaces with a PTO pending (0x13f).
for a in 7111:0:0x13f 7112:0.3:0x17f; do
	IFS=: read -r p w f <<<"$a"
	LC_THIN_FLAGS=$f pair "$p" close
	stuck "$p"
	sleep "$w"
	check '[ "$(st $p)" = 3 ]' "6: ESTABLISHED with the probe on ($f), abort after $w s"
	echo abort >&$FD
	check 'wait_for 5 "[ -z \"\$(st $p)\" ]"' "6: our abort removes it (PTO pending or probe sent)"
	exec {FD}>&-
	heal
	kill $SINKPID 2>/dev/null
done
LC_THIN_FLAGS=0x17f pair 7113 abort
stuck 7113
sleep 0.3
echo close >&$FD
check 'wait_for 5 "[ \"\$(st 7113)\" = 4 ]"' "6: SHUTDOWN_PENDING with the probe on"
kill -USR1 $SINKPID
check 'wait_for 5 "[ -z \"\$(st 7113)\" ]"' "6: the peer's ABORT removes it"
exec {FD}>&-
heal

# 5. Delete the namespaces with data in flight.  The closed socket's
# association retransmits until it fails; its objects go then.  Failure
# comes on stock's time (thin.c), so the standard knobs make it quick:
# 5 errors at most 1 s apart (with 10 and 60 s it would take minutes).
ip netns exec $S sysctl -q -w net.sctp.association_max_retrans=4 net.sctp.path_max_retrans=4 net.sctp.rto_max=1000
LC_THIN_FLAGS=0x13f pair 7105 close	# with the probe: a PTO pending
stuck 7105
n=$(inflight 7105)
check '[ "$n" -gt 0 ]' "5: $n packets in flight before the namespaces go"
exec {FD}>&-
thin_lab_down
trap - EXIT
check 'thin_objects_zero 20' "no thin-sctp object left once the namespaces are gone"
thin_done

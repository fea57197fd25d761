#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In the guest: association set-up survives a lost COOKIE ACK.  The
# emulator drops every COOKIE ACK for the first second; the initiator's
# T1-cookie timer (RTO.Initial, 3 s) retransmits the COOKIE ECHO, which the
# server, already ESTABLISHED, must answer with a COOKIE ACK (RFC 9260
# 5.2.4 action D).  Expected: connect() returns after about 3 s and the
# message is delivered; without the answer the initiator retransmits until
# Max.Init.Retransmits and connect() never returns in the 15 s we wait.
#   1. one-to-one server (accept: the association moves to a new socket,
#      sctp_sock_migrate); Debian's 7.3 module fails this, see
#      patches/7.3/0012 and docs/kernels.md;
#   2. the same with every thin mechanism on for the initiator's host;
#   3. one-to-many server (the association stays on the listening socket);
#   4. one-to-many server that peels the association off as soon as it
#      exists (sctp_sock_migrate as in 1).
. "$(dirname "$0")/lib.sh"
OUT=${THIN_OUT:-/tmp}/handshake
rm -rf "$OUT"
mkdir -p "$OUT"
thin_lab_up 10
trap 'ip netns exec $E nft delete table inet hs 2>/dev/null; thin_lab_down' EXIT
# thin-drop answers the lab's NFQUEUE and passes everything.
ip netns exec $E "$BIN/thin-drop" -q 0 -l "$OUT/drop.log" -t 120 >"$OUT/drop.out" 2>&1 &

# $1: case name, $2: port, $3: server (one-to-one|one-to-many)
case_run() {
	local name=$1 port=$2 kind=$3 t0 t1 rc spid
	if [ "$kind" = one-to-one ]; then
		ip netns exec $R "$BIN/thin-send" recv "$port" 30 >"$OUT/$name.recv" 2>&1 &
	elif [ "$kind" = peeloff ]; then
		# one-to-many, and the association is peeled off to its own
		# socket as soon as it exists (sctp_peeloff(3) through libc's
		# getsockopt: Python's socket module has no peeloff)
		ip netns exec $R python3 - "$port" >"$OUT/$name.recv" 2>&1 <<'PY' &
import ctypes, socket, struct, sys, time
libc = ctypes.CDLL(None, use_errno=True)
SOL_SCTP, SCTP_GET_ASSOC_ID_LIST, SCTP_SOCKOPT_PEELOFF = 132, 29, 102
s = socket.socket(socket.AF_INET, socket.SOCK_SEQPACKET, socket.IPPROTO_SCTP)
s.bind(("0.0.0.0", int(sys.argv[1])))
s.listen(5)
end = time.time() + 30
while time.time() < end:
    buf = ctypes.create_string_buffer(4 + 4 * 16)
    ln = ctypes.c_uint(len(buf))
    if libc.getsockopt(s.fileno(), SOL_SCTP, SCTP_GET_ASSOC_ID_LIST, buf, ctypes.byref(ln)) == 0 \
            and struct.unpack_from("I", buf.raw)[0] >= 1:
        break
    time.sleep(0.02)
aid = struct.unpack_from("i", buf.raw, 4)[0]
arg = ctypes.create_string_buffer(struct.pack("ii", aid, 0))
ln = ctypes.c_uint(8)
if libc.getsockopt(s.fileno(), SOL_SCTP, SCTP_SOCKOPT_PEELOFF, arg, ctypes.byref(ln)) < 0:
    sys.exit("peeloff failed: errno %d" % ctypes.get_errno())
p = socket.socket(fileno=struct.unpack_from("ii", arg.raw)[1])
print("peeled off association", aid, flush=True)
p.settimeout(30)
print("got", len(p.recv(65536)), flush=True)
time.sleep(30)  # open until killed: the sender reads its counters first
PY
	else
		ip netns exec $R python3 - "$port" >"$OUT/$name.recv" 2>&1 <<'PY' &
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_SEQPACKET, socket.IPPROTO_SCTP)
s.bind(("0.0.0.0", int(sys.argv[1])))
s.listen(5)
s.settimeout(30)
print("got", len(s.recv(65536)), flush=True)
time.sleep(30)  # open until killed: the sender reads its counters first
PY
	fi
	spid=$!
	thin_wait_listen sctp "$port"
	ip netns exec $E nft -f - <<NFT
table inet hs {
	chain f {
		type filter hook forward priority -10;
		sctp chunk cookie-ack exists counter drop
	}
}
NFT
	( sleep 1; ip netns exec $E nft list table inet hs >"$OUT/$name.nft"
	  ip netns exec $E nft delete table inet hs ) &
	t0=$(date +%s%N)
	ip netns exec $S timeout 15 "$BIN/thin-send" send 10.0.2.1 "$port" -n 1 -w 5000 \
		>"$OUT/$name.send" 2>&1
	rc=$?
	t1=$(date +%s%N)
	wait $!
	ms=$(((t1 - t0) / 1000000))
	echo "# $name: sender exit $rc after $ms ms"
	# the test means something only if a COOKIE ACK was dropped
	check "grep -Eq 'counter packets [1-9]' '$OUT/$name.nft'" "$name: the first COOKIE ACK was dropped"
	check "[ $rc = 0 ] && [ $ms -lt 8000 ] && grep -q '^unacked=0' '$OUT/$name.send'" \
		"$name: set-up with the first COOKIE ACK lost completes ($ms ms; RTO.Initial 3 s)"
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
}

case_run one-to-one 6101 one-to-one
thin_sysctls_on() {
	[ -e /proc/sys/net/sctp/thin_rto_min ] || { echo "# no thin sysctls (stock module)"; return 0; }
	ip netns exec $S sysctl -q -w net.sctp.thin_rto_min=200 net.sctp.thin_restart_timer=1 \
		net.sctp.thin_linear_timeouts=1 net.sctp.thin_fast_retransmit=1 \
		net.sctp.thin_sack_immediately=1 net.sctp.thin_rdb=1 >/dev/null
}
thin_sysctls_on
case_run one-to-one-thin 6102 one-to-one
thin_sysctls_off
case_run one-to-many 6103 one-to-many
case_run peeloff 6104 peeloff
check "grep -q 'peeled off association' '$OUT/peeloff.recv'" "peeloff: the server peeled the association off (polling from its start, before the 3 s retransmission)"
thin_done

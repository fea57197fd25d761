# SPDX-License-Identifier: GPL-2.0-or-later
"""The sender of limits.sh: the association's error limit reached while a
thin T3-rtx expiry comes before stock's.

  limits_send.py ADDR2 GOFILE PRE_S WAIT_S VARIANT:PORT:FLAGS:N ...

For each VARIANT, N one-to-one associations to 10.0.1.2:PORT (the local
and the peer's second address, ADDR2, learned from INIT and INIT-ACK).
FLAGS: SCTP_THIN's mechanisms ("none": no SCTP_THIN; else a number, with
RTOmin 200 ms and at most 6 linear timeouts).  Path 2 is given a
heartbeat interval of 500 ms (SCTP_PEER_ADDR_PARAMS); path 1 keeps the
default (30 s).  Once GOFILE exists, every association sends a 100-byte
message every 250 ms for PRE_S seconds (RTT samples on path 1), then
nothing: the test cuts both paths.  Path 2's unanswered heartbeats count
errors until path 2 is UNREACHABLE; at that notification the association
sends one message (on path 1, its primary), and the next T3-rtx expiry
that checks the limit aborts it.  Output, one line per association, times
in ms of CLOCK_MONOTONIC from GOFILE's appearance (-1: not seen):

  VARIANT I unreach=T send=T lost=T abort_after_send=D p1_events=K

p1_events: path 1 notifications other than AVAILABLE or CONFIRMED (there
should be none: path 1 carries no heartbeat, and stays up).  Ends when
every association is lost or after WAIT_S seconds.
"""
import os
import select
import socket
import struct
import sys
import time

IPPROTO_SCTP = 132
SCTP_NODELAY = 3
SCTP_PEER_ADDR_PARAMS = 9
SCTP_EVENT = 127
SCTP_THIN = 180
SCTP_ASSOC_CHANGE = 0x8001
SCTP_PEER_ADDR_CHANGE = 0x8002
SCTP_COMM_LOST = 1
SCTP_ADDR_AVAILABLE = 0
SCTP_ADDR_UNREACHABLE = 1
SCTP_ADDR_CONFIRMED = 5
SPP_HB_ENABLE = 1
MSG_NOTIFICATION = 0x8000
ADDR1 = "10.0.1.2"


def now_ms(t0):
    return (time.monotonic_ns() - t0) / 1e6


def sockaddr(addr, port):
    sin = struct.pack("<H", socket.AF_INET) + struct.pack(">H", port) + socket.inet_aton(addr)
    return sin + b"\0" * (128 - len(sin))


class Assoc:
    def __init__(self, variant, i, port, flags):
        self.variant, self.i, self.port = variant, i, port
        self.unreach = self.send = self.lost = -1.0
        self.p1_events = 0
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SCTP)
        s.setsockopt(IPPROTO_SCTP, SCTP_NODELAY, 1)
        for t in (SCTP_ASSOC_CHANGE, SCTP_PEER_ADDR_CHANGE):
            s.setsockopt(IPPROTO_SCTP, SCTP_EVENT, struct.pack("iHBx", 0, t, 1))
        if flags != "none":
            s.setsockopt(IPPROTO_SCTP, SCTP_THIN, struct.pack("iIII", 0, int(flags, 0), 200, 6))
        s.connect((ADDR1, port))
        self.s = s

    def hb_path2(self, addr2):
        # struct sctp_paddrparams, packed, aligned(4): 156 bytes.
        p = struct.pack("<i", 0) + sockaddr(addr2, self.port)
        p += struct.pack("<IHIIIIB", 500, 0, 0, 0, SPP_HB_ENABLE, 0, 0)
        self.s.setsockopt(IPPROTO_SCTP, SCTP_PEER_ADDR_PARAMS, p + b"\0" * (156 - len(p)))

    def notification(self, b, t0, addr2):
        typ, = struct.unpack_from("<H", b, 0)
        if typ == SCTP_ASSOC_CHANGE:
            state, = struct.unpack_from("<H", b, 8)
            if state == SCTP_COMM_LOST and self.lost < 0:
                self.lost = now_ms(t0)
        elif typ == SCTP_PEER_ADDR_CHANGE:
            addr = socket.inet_ntoa(b[12:16])
            state, = struct.unpack_from("<i", b, 136)
            if addr == addr2 and state == SCTP_ADDR_UNREACHABLE and self.unreach < 0:
                self.unreach = now_ms(t0)
                if self.lost < 0:
                    try:
                        self.s.send(b"x" * 100)
                        self.send = now_ms(t0)
                    except OSError:
                        pass
            elif addr == ADDR1 and state not in (SCTP_ADDR_AVAILABLE, SCTP_ADDR_CONFIRMED):
                self.p1_events += 1

    def line(self):
        d = self.lost - self.send if self.lost >= 0 and self.send >= 0 else -1
        return (f"{self.variant} {self.i} unreach={self.unreach:.1f} send={self.send:.1f} "
                f"lost={self.lost:.1f} abort_after_send={d:.1f} p1_events={self.p1_events}")


def main():
    addr2, gofile, pre, wait = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
    assocs = []
    for spec in sys.argv[5:]:
        variant, port, flags, n = spec.split(":")
        for i in range(int(n)):
            assocs.append(Assoc(variant, i, int(port), flags))
    for a in assocs:
        a.hb_path2(addr2)
    print(f"# {len(assocs)} associations up", flush=True)
    while not os.path.exists(gofile):
        time.sleep(0.02)
    t0 = time.monotonic_ns()
    by_fd = {a.s.fileno(): a for a in assocs}
    poll = select.poll()
    for fd in by_fd:
        poll.register(fd, select.POLLIN)
    next_msg = 0.0
    while True:
        t = now_ms(t0)
        if t >= wait * 1000 or all(a.lost >= 0 for a in assocs):
            break
        if t < pre * 1000 and t >= next_msg:
            for a in assocs:
                a.s.send(b"m" * 100)
            next_msg += 250
        timeout = max(0, min(next_msg - t, 50)) if t < pre * 1000 else 50
        for fd, _ in poll.poll(timeout):
            a = by_fd[fd]
            try:
                data, _, flags, _ = a.s.recvmsg(4096)
            except OSError:
                a.lost = a.lost if a.lost >= 0 else now_ms(t0)
                poll.unregister(fd)
                continue
            if flags & MSG_NOTIFICATION:
                a.notification(data, t0, addr2)
            elif not data:
                poll.unregister(fd)
    for a in assocs:
        print(a.line(), flush=True)


if __name__ == "__main__":
    main()

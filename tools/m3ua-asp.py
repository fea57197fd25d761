#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A minimal M3UA ASP (RFC 4666) for the real-application experiment
(tools/app-m3ua.sh): N SCTP associations to an SGP/STP (osmo-stp), each
brings its ASP up (ASPUP / ASPUP ACK) and then sends a BEAT every
INTERVAL ms, whose Heartbeat Data (association, sequence, send time) the
STP echoes in its BEAT ACK (RFC 4666 3.5.5, 3.5.6).  BEAT to BEAT ACK is
the request-to-answer latency of the application: one M3UA message each
way, over the kernel's SCTP on both ends.

  m3ua-asp.py run --connect ADDR:PORT [--assocs N] [--interval MS]
                  [--duration S] [--log FILE]
  m3ua-asp.py report LOG...     p50/p99/p99.9/max of each log, and the
                                longest slip of the ASP's own send schedule
                                (ms past the interval: the process or the
                                guest did not run)

The sockets: one-to-one SCTP, SCTP_NODELAY on (as signalling stacks set
it), the kernel's defaults otherwise (no SCTP_RTOINFO, SCTP_ASSOCINFO,
SCTP_INITMSG).  M3UA messages go on stream 0 with PPID 3 (RFC 4666 1.4.7).

Log: "assoc seq send_ns ack_ns" per BEAT (CLOCK_MONOTONIC; ack_ns 0 if
none came back before the end), '#' comments.
"""
import argparse
import select
import socket
import struct
import sys
import time

SCTP_NODELAY = 3
SCTP_SNDRCV = 1
M3UA_PPID = 3
# class, type (RFC 4666 3.1.2)
ASPUP, ASPUP_ACK, BEAT, BEAT_ACK = (3, 1), (3, 4), (3, 3), (3, 6)
HB_DATA = 0x0009


def m3ua(cls_type, params=b""):
    """An M3UA message: common header (version 1) and parameters."""
    return struct.pack("!BBBBI", 1, 0, cls_type[0], cls_type[1], 8 + len(params)) + params


def param(tag, value):
    pad = (-len(value)) % 4
    return struct.pack("!HH", tag, 4 + len(value)) + value + b"\0" * pad


def send(sk, msg):
    # struct sctp_sndrcvinfo: stream, ssn, flags, ppid (network order), ...
    info = struct.pack("=HHHxxIIIIIi", 0, 0, 0, socket.htonl(M3UA_PPID), 0, 0, 0, 0, 0)
    sk.sendmsg([msg], [(socket.IPPROTO_SCTP, SCTP_SNDRCV, info)])


class Assoc:
    def __init__(self, idx, addr, port):
        self.idx, self.seq, self.buf, self.up = idx, 0, b"", False
        self.sk = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_SCTP)
        self.sk.setsockopt(socket.IPPROTO_SCTP, SCTP_NODELAY, 1)
        self.sk.connect((addr, port))
        send(self.sk, m3ua(ASPUP))

    def messages(self):
        """Complete M3UA messages read so far: (class, type, body)."""
        data = self.sk.recv(65536)
        if not data:
            raise EOFError("association %d closed" % self.idx)
        self.buf += data
        while len(self.buf) >= 8:
            ver, _, cls, typ, length = struct.unpack("!BBBBI", self.buf[:8])
            if length < 8 or ver != 1:
                raise ValueError("bad M3UA header %r" % self.buf[:8])
            if len(self.buf) < length:
                break
            body, self.buf = self.buf[8:length], self.buf[length:]
            yield (cls, typ), body


def hb_data(body):
    """The Heartbeat Data parameter's value in a message body."""
    while len(body) >= 4:
        tag, length = struct.unpack("!HH", body[:4])
        if tag == HB_DATA:
            return body[4:length]
        body = body[4 + ((length - 4 + 3) & ~3):]
    return None


def run(o):
    addr, port = o.connect.rsplit(":", 1)
    log = open(o.log, "w") if o.log else sys.stdout
    log.write("# m3ua-asp assocs=%d interval=%g duration=%g connect=%s\n"
              % (o.assocs, o.interval, o.duration, o.connect))
    log.write("# assoc seq send_ns ack_ns\n")
    assocs = [Assoc(i, addr, int(port)) for i in range(o.assocs)]
    by_fd = {a.sk.fileno(): a for a in assocs}
    sent = {}          # (assoc, seq) -> send_ns
    acked = {}
    ival = o.interval / 1000.0
    # ASPUP ACK from every association (osmo-stp then also sends NTFY)
    t_up = time.monotonic() + 30
    while not all(a.up for a in assocs) and time.monotonic() < t_up:
        r, _, _ = select.select(list(by_fd), [], [], 1)
        for fd in r:
            a = by_fd[fd]
            for ct, _ in a.messages():
                if ct == ASPUP_ACK:
                    a.up = True
    if not all(a.up for a in assocs):
        sys.exit("m3ua-asp: ASPUP ACK missing on %d associations"
                 % sum(not a.up for a in assocs))
    t0 = time.monotonic()
    due = [t0 + ival * i / len(assocs) for i in range(len(assocs))]
    end = t0 + o.duration
    drain = end + o.drain
    while True:
        now = time.monotonic()
        if now >= drain or (now >= end and len(acked) == len(sent)):
            break
        for a in assocs:
            if now < end and due[a.idx] <= now:
                t = time.monotonic_ns()
                data = struct.pack("!IIQ", a.idx, a.seq, t)
                send(a.sk, m3ua(BEAT, param(HB_DATA, data)))
                sent[(a.idx, a.seq)] = t
                a.seq += 1
                due[a.idx] += ival
        nxt = min(due) if now < end else drain
        r, _, _ = select.select(list(by_fd), [], [], max(0, min(nxt, drain) - time.monotonic()))
        for fd in r:
            a = by_fd[fd]
            for ct, body in a.messages():
                t = time.monotonic_ns()
                if ct != BEAT_ACK:
                    continue
                d = hb_data(body)
                if d is None or len(d) != 16:
                    continue
                idx, seq, _ = struct.unpack("!IIQ", d)
                acked.setdefault((idx, seq), t)
    for (idx, seq), t in sorted(sent.items()):
        log.write("%d %d %d %d\n" % (idx, seq, t, acked.get((idx, seq), 0)))
    log.close()
    for a in assocs:
        a.sk.close()
    print("m3ua-asp: beats=%d acked=%d" % (len(sent), len(acked)))


def pct(v, p):
    """Nearest-rank percentile p (0-100) of the sorted list v."""
    k = max(0, min(len(v) - 1, int(-(-p * len(v) // 100)) - 1))
    return v[k]


def report(o):
    print("| log | beats | no answer | p50 | p99 | p99.9 | max | > 400 ms | ASP stalled, max |")
    print("|---|---|---|---|---|---|---|---|---|")
    for f in o.logs:
        lat, lost, prev, stall, ival = [], 0, {}, 0.0, None
        for line in open(f):
            if line.startswith("#"):
                if "interval=" in line:
                    ival = float(line.split("interval=")[1].split()[0])
                continue
            i, _, s, a = (int(x) for x in line.split())
            if a:
                lat.append((a - s) / 1e6)
            else:
                lost += 1
            # the sender's own schedule slipping: the process (or the
            # guest) did not run; every BEAT in flight waits as long
            if i in prev and ival:
                stall = max(stall, (s - prev[i]) / 1e6 - ival)
            prev[i] = s
        lat.sort()
        if not lat:
            print("| %s | 0 | %d | - | - | - | - | - | - |" % (f, lost))
            continue
        late = sum(x > 400 for x in lat) / len(lat) * 100
        print("| %s | %d | %d | %.0f | %.0f | %.0f | %.0f | %.1f %% | %.0f |"
              % (f, len(lat) + lost, lost, pct(lat, 50), pct(lat, 99),
                 pct(lat, 99.9), lat[-1], late, stall))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="mode", required=True)
    r = sub.add_parser("run")
    r.add_argument("--connect", required=True)
    r.add_argument("--assocs", type=int, default=10)
    r.add_argument("--interval", type=float, default=250)
    r.add_argument("--duration", type=float, default=60)
    r.add_argument("--drain", type=float, default=10)
    r.add_argument("--log")
    q = sub.add_parser("report")
    q.add_argument("logs", nargs="+")
    o = p.parse_args()
    run(o) if o.mode == "run" else report(o)


if __name__ == "__main__":
    main()

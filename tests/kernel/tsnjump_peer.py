#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Fake SCTP peer and real sender for tests/kernel/tsnjump.sh: TSN jumps.

  tsnjump_peer.py list                        "PORT NAME DESCRIPTION" lines
  tsnjump_peer.py peer IFACE ADDR OUTDIR FLAGS fake peer on IFACE (address
                                              ADDR), scapy; the kernel of
                                              its namespace must not see
                                              SCTP (nftables drop)
  tsnjump_peer.py send ADDR OUTDIR FLAGS      real sender (our module), no
                                              scapy: for each peer port read
                                              on stdin, one association;
                                              prints "result PORT NAME k=v..."

FLAGS is a directory on a local file system (not 9p) where the two
processes signal each other: the sender writes go-PORT once its DATA is in
flight and its snapshot taken, the peer writes jumped-PORT once the jump
is done.

Every association follows the same plan, one message (100 bytes,
SCTP_NODELAY) per packet.  Positions k are TSN - base, base the first TSN
of the epoch (epoch 0: the sender's initial TSN; epoch 1: the first TSN
after the jump):

  epoch 0: k 0..11 warm-up (every 50 ms, SACKed); probe: k 12 and 13 sent
           back to back, k 12 SACKed, the first arrival of k 13 dropped
           (nothing answered), so the SACK of k 12 moves the cumulative
           ack with k 13 outstanding (T3-rtx restart, RFC 9260 6.3.2 R3,
           RFC 7765) and k 13 is repaired by T3-rtx; hold: k 14, 15 sent,
           received, not SACKed: in flight at the jump.
  jump:    per scenario (below).
  epoch 1: k 0..5 (SACKed), probe k 6 and 7 as above, tail k 8..11;
           then shutdown.

The peer times arrivals with kernel receive timestamps (SO_TIMESTAMPNS)
and logs per association OUTDIR/peer-PORT.log, at the end

  end how=complete|abort ... pre_ms=D post_ms=D early_rtx=N ...

pre_ms/post_ms: first to second arrival of the probe's dropped TSN
(epoch 0 / 1), that is its retransmission delay; early_rtx: packets of
epoch 1 with retransmitted TSNs whose oldest was first sent less than
EARLY_MS before (nothing here is fast-retransmitted, so that is a T3-rtx
armed from a stale send time: thin RTOmin is 200 ms).  Its SACKs report
duplicate TSNs (RFC 9260 6.2), as the congestion guard expects.  Frames
are built here (scapy's CRC32c): scapy's packet layers cost tens of ms
per frame under TCG, and SACKs that late made the sender time out.

Jumps:
  restart    the peer restarts (RFC 9260 5.2.4 A): a new INIT (new tag,
             new initial TSN) on the established association, our
             INIT-ACK, COOKIE-ECHO, COOKIE-ACK.  Our side purges its
             outqueue and its next TSN becomes the initial TSN of its
             INIT-ACK, which lksctp copies from the association
             (sctp_tietags_populate()): our TSNs start over from the first
             one, serially before the TSNs in flight, and reuse TSNs sent
             before.  Epoch 1 stays below k 14, the first TSN in flight at
             the restart.
  reset_peer the peer sends an SSN/TSN Reset Request (RFC 6525 4.5,
             parameter 15): with DATA in flight our side answers "In
             progress" (6) and changes nothing (upstream resets only an
             empty outqueue); the peer SACKs everything and asks again:
             "Performed" (1), our side purges its outqueue.
  reset_ours our side asks (SCTP_RESET_ASSOC): EAGAIN with DATA in flight;
             once SACKed it sends the request and the peer performs it with
             a Receiver's Next TSN 2^30 before our next TSN: our TSNs jump.
  offon_*    our side switches SCTP_THIN off and on with k 14, 15 in
             flight, then the peer SACKs them.  The peer accepts only an
             initial TSN in the upper (offon_hi) or lower (offon_lo) half
             of the serial number space (it answers other INITs with
             ABORT, the sender connects again): a core that restarts its
             TSN bookkeeping from a fixed value fails in one half.
"""
import errno
import os
import select
import socket
import struct
import sys
import time

IPPROTO_SCTP = 132
SCTP_NODELAY = 3
SCTP_STATUS = 14
SCTP_RECONFIG_SUPPORTED = 117
SCTP_ENABLE_STREAM_RESET = 118
SCTP_RESET_ASSOC = 120
SCTP_ENABLE_RESET_ASSOC_REQ = 0x02
SCTP_THIN = 180
SCTP_THIN_ALL = 0x3f

BASE_PORT = 9500
RWND = 65536
WARM = 12               # epoch 0: k 0 .. WARM - 1, then probe, then hold
POST = 6                # epoch 1: k 0 .. POST - 1, then probe, then tail
TAIL = 4
HOLD = 2
EARLY_MS = 50           # a retransmission sooner than this is spurious
INTERVAL = 0.05

# name: (kind, thin, description)
SCENARIOS = [
    ("restart", "restart", True,
     "peer restart (new INIT, tag, initial TSN; COOKIE-ECHO) with 2 DATA in flight"),
    ("reset_peer", "reset_peer", True,
     "peer's SSN/TSN Reset Request: In progress with 2 DATA in flight, Performed once acked"),
    ("reset_ours", "reset_ours", True,
     "our SCTP_RESET_ASSOC: EAGAIN with 2 DATA in flight; once acked the peer performs "
     "it and our next TSN jumps back by 2^30"),
    ("offon_hi", "offon", True,
     "SCTP_THIN off then on with 2 DATA in flight, TSNs in the upper half of the serial space"),
    ("offon_lo", "offon", True,
     "SCTP_THIN off then on with 2 DATA in flight, TSNs in the lower half of the serial space"),
    ("stock_restart", "restart", False,
     "restart without SCTP_THIN: the stock repair times, for reference"),
]


def scenario(port):
    return SCENARIOS[(port - BASE_PORT) // 10]


def s32(x):
    x &= 0xffffffff
    return x - (1 << 32) if x >= 1 << 31 else x


ERRNAMES = dict(errno.errorcode)


def errname(e):
    return ERRNAMES.get(e, str(e))


def keyvals(line):
    return dict(w.split("=", 1) for w in line.split() if "=" in w)


def wait_until(secs, cond, step=0.02):
    t0 = time.monotonic()
    while time.monotonic() - t0 < secs:
        if cond():
            return True
        time.sleep(step)
    return bool(cond())


# ---------------------------------------------------------------- sender

def proc_table(path, rport, col):
    """The row of /proc/net/sctp/<path> whose column col is rport, as a
    dict by header name, or None."""
    try:
        with open(path) as f:
            lines = f.readlines()
    except OSError:
        return None
    if not lines:
        return None
    head = lines[0].split()
    for line in lines[1:]:
        c = line.split()
        if len(c) > col and c[col] == str(rport):
            return dict(zip(head, c))
    return None


def thin_row(rport):
    """/proc/net/sctp/thin of our association to rport (RPORT column)."""
    return proc_table("/proc/net/sctp/thin", rport, 2)


def assoc_row(rport):
    """/proc/net/sctp/assocs: columns are shifted against the header
    (ASSOC, SOCK are one word each), read by position: ST 4, TX_QUEUE 7,
    RPORT 12."""
    try:
        with open("/proc/net/sctp/assocs") as f:
            lines = f.readlines()[1:]
    except OSError:
        return None
    for line in lines:
        c = line.split()
        if len(c) > 12 and c[12] == str(rport):
            return c
    return None


def thin_snap(rport, tag):
    r = thin_row(rport)
    if r is None:
        return ["%s_inflight=- %s_state=- %s_resyncs=-" % (tag, tag, tag)]
    return ["%s_inflight=%s %s_state=%s %s_resyncs=%s %s_timeouts=%s" %
            (tag, r.get("INFLIGHT", "-"), tag, r.get("STATE", "-"),
             tag, r.get("RESYNCS", "-"), tag, r.get("TIMEOUTS", "-"))]


def idle(rport):
    """Nothing queued or unacked: the association's TX_QUEUE (bytes of
    DATA chunks held, sent or not) is 0."""
    c = assoc_row(rport)
    return c is not None and c[7] == "0"


def inflight_zero(rport):
    r = thin_row(rport)
    return r is not None and r.get("INFLIGHT") == "0"


def flag(flags, name, port):
    return os.path.join(flags, "%s-%d" % (name, port))


def set_thin(s, flags):
    s.setsockopt(IPPROTO_SCTP, SCTP_THIN, struct.pack("iIII", 0, flags, 0, 0))


def run(addr, port, flags):
    """One association; returns its key=value line."""
    name, kind, thin, _ = scenario(port)
    kv = []
    s = None
    for tries in range(1, 41):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SCTP)
        s.setsockopt(IPPROTO_SCTP, SCTP_NODELAY, 1)
        if thin:
            set_thin(s, SCTP_THIN_ALL)
        if kind.startswith("reset"):
            s.setsockopt(IPPROTO_SCTP, SCTP_RECONFIG_SUPPORTED, struct.pack("iI", 0, 1))
            s.setsockopt(IPPROTO_SCTP, SCTP_ENABLE_STREAM_RESET,
                         struct.pack("iI", 0, SCTP_ENABLE_RESET_ASSOC_REQ))
        s.settimeout(10)
        try:
            s.connect((addr, port))
            break
        except OSError as e:
            s.close()
            s = None
            # the peer refuses initial TSNs in the wrong half (ABORT)
            if e.errno != errno.ECONNREFUSED:
                return "up=no connecterr=%s" % errname(e.errno)
    if s is None:
        return "up=no connecterr=refused-40-times"
    row = assoc_row(port)
    kv.append("up=yes st=%s tries=%d" % (row[4] if row else "-", tries))
    msg = 0

    def send(n, interval=INTERVAL):
        nonlocal msg
        for _ in range(n):
            s.send(bytes([65 + msg % 26]) * 100)
            msg += 1
            if interval:
                time.sleep(interval)

    def wait_idle(tag):
        ok = wait_until(10, lambda: idle(port))
        if not ok:
            kv.append("%s_idle=no" % tag)
        return ok

    try:
        # epoch 0
        send(WARM)
        wait_idle("warm")
        send(2, 0)                      # probe: k 12 acked, k 13 dropped
        wait_idle("pre")
        # held: in flight at the jump.  Sent back to back and looked at
        # 20 ms later, well before the 200 ms RTO can fire (with 50 ms
        # between them and a 100 ms wait, a slow guest looked after the
        # timeout had taken them out of flight: INFLIGHT 0, TIMEOUTS +1).
        send(HOLD, 0)
        time.sleep(0.02)
        kv += thin_snap(port, "held")
        if kind == "reset_ours":
            try:
                s.setsockopt(IPPROTO_SCTP, SCTP_RESET_ASSOC, struct.pack("i", 0))
                kv.append("reset_inflight=0")
            except OSError as e:
                kv.append("reset_inflight=%s" % errname(e.errno))
        if kind == "offon":
            set_thin(s, 0)
            set_thin(s, SCTP_THIN_ALL)
            kv += thin_snap(port, "on")
        open(flag(flags, "go", port), "w").close()
        if kind == "reset_ours":
            wait_idle("released")
            try:
                s.setsockopt(IPPROTO_SCTP, SCTP_RESET_ASSOC, struct.pack("i", 0))
                kv.append("reset_acked=0")
            except OSError as e:
                kv.append("reset_acked=%s" % errname(e.errno))
        jumped = wait_until(20, lambda: os.path.exists(flag(flags, "jumped", port)))
        kv.append("jumped=%s" % ("yes" if jumped else "no"))
        time.sleep(0.1)
        kv += thin_snap(port, "jump")
        # epoch 1
        send(POST)
        wait_idle("post")
        wait_until(3, lambda: inflight_zero(port))
        kv += thin_snap(port, "post")
        send(2, 0)                      # probe: k 6 acked, k 7 dropped
        wait_idle("probe")
        send(TAIL)
        wait_idle("tail")
        wait_until(3, lambda: inflight_zero(port))
        kv += thin_snap(port, "tail")
        err = "none"
    except OSError as e:
        err = errname(e.errno) if e.errno else "send-blocked"
    kv.append("sent=%d senderr=%s" % (msg, err))
    res = []

    def over():
        e = s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
        if e:
            res.append(errname(e))
            return True
        try:
            st = struct.unpack_from("ii", s.getsockopt(IPPROTO_SCTP, SCTP_STATUS, 256))[1]
        except OSError:
            st = 1
        if st == 1:
            res.append("complete")
        return st == 1
    try:
        s.shutdown(socket.SHUT_WR)
        if not wait_until(15, over, 0.05):
            res.append("TIMEOUT")
    except OSError as e:
        res.append(errname(e.errno))
    s.close()
    kv.append("end=%s" % res[0])
    gone = wait_until(15, lambda: assoc_row(port) is None, 0.05)
    kv.append("gone=%s" % ("yes" if gone else "no"))
    return " ".join(kv)


def peer_end(outdir, port):
    try:
        with open(os.path.join(outdir, "peer-%d.log" % port)) as f:
            ends = [line for line in f if " end how=" in line]
    except OSError:
        return None
    return keyvals(ends[-1]) if ends else None


def send_main(addr, outdir, flags):
    """For each peer port P on stdin: run its scenario, print
    "P key=value..." (ours), "P peer: key=value..." (the peer's end line)
    and "result P NAME key=value..." (both merged, ours first)."""
    for line in sys.stdin:
        if not line.strip():
            continue
        port = int(line)
        name = scenario(port)[0]
        t0 = time.monotonic()
        try:
            out = run(addr, port, flags)
        except Exception as e:      # report, never hang the script
            out = "error=%r" % e
        took = time.monotonic() - t0
        wait_until(10, lambda: peer_end(outdir, port), 0.05)
        end = peer_end(outdir, port) or {}
        print("%d %s" % (port, out))
        print("%d peer: %s" % (port, " ".join("%s=%s" % kv for kv in end.items())))
        mine = keyvals(out)
        for k, v in end.items():
            mine.setdefault(k, v)
        print("result %d %s %s took=%.1f" % (port, name, " ".join(
            "%s=%s" % kv for kv in mine.items()), took), flush=True)


# ---------------------------------------------------------------- peer

def u32(b, o):
    return struct.unpack_from(">I", b, o)[0]


def u16(b, o):
    return struct.unpack_from(">H", b, o)[0]


def chunk(ctype, body, flags=0):
    return struct.pack(">BBH", ctype, flags, 4 + len(body)) + body + b"\0" * (-len(body) & 3)


def param(ptype, body):
    return struct.pack(">HH", ptype, 4 + len(body)) + body + b"\0" * (-len(body) & 3)


def params(body):
    """(type, value) of the TLV parameters in body."""
    off, out = 0, []
    while off + 4 <= len(body):
        t, n = u16(body, off), u16(body, off + 2)
        if n < 4:
            break
        out.append((t, body[off + 4:off + n]))
        off += (n + 3) & ~3
    return out


def rand32():
    return int.from_bytes(os.urandom(4), "big")


# Supported Extensions (RFC 5061 4.2.7): RE-CONFIG (130), so that our side
# accepts and sends RE-CONFIG chunks (asoc->peer.reconf_capable).
SUPPORTED_EXT = param(0x8008, bytes([130]))


class Assoc:
    def __init__(self, peer, key, mac, raddr, their_tag, itsn, ts):
        self.peer = peer
        self.port, self.rport = key
        self.name, self.kind, self.thin, _ = scenario(self.port)
        self.mac, self.raddr = mac, raddr
        self.their_tag = their_tag
        self.my_tag = rand32() | 1
        self.my_tsn = rand32()
        self.itsn = itsn
        self.epoch = 0
        self.base = itsn                # TSN of k = 0 in this epoch
        self.cum = (itsn - 1) & 0xffffffff
        self.got = set()                # TSNs received above cum
        self.dups = []                  # duplicates for the next SACK
        self.first = {}                 # TSN -> first arrival (s)
        self.count = {}                 # TSN -> arrivals
        self.dropped = set()            # probe TSNs whose first arrival we dropped
        self.holding = False            # hold: receive, do not SACK
        self.probe_ms = {}              # epoch -> rtx delay of the probe
        self.early = []                 # epoch 1: (k, ms) of early retransmissions
        self.stale = 0                  # DATA outside the epoch's window
        self.state = "up"
        self.jump = ""                  # what the jump did (log)
        self.restart = None             # restart in progress: dict
        self.reset_seq = None           # reset_peer: our request sequence
        self.reset_tries = 0
        self.reset_due = None
        self.refused = -1               # reset_peer: result of the first request
        self.t0 = ts
        self.log = open(os.path.join(peer.outdir, "peer-%d.log" % self.port), "a")
        self.ev("init rport=%d their_tag=0x%08x my_tag=0x%08x itsn=%d" %
                (self.rport, their_tag, self.my_tag, itsn))

    def ev(self, msg):
        self.log.write("%.3f %s\n" % (time.monotonic() - self.peer.mono0, msg))
        self.log.flush()

    def send(self, chunks, tag=None):
        self.peer.send(self, b"".join(chunks), self.their_tag if tag is None else tag)

    # SACKs
    def sack(self):
        offs = sorted(s32(t - self.cum) for t in self.got)
        gaps, start, prev = [], None, None
        for o in offs:
            if o <= 0:
                continue
            if start is None:
                start = prev = o
            elif o == prev + 1:
                prev = o
            else:
                gaps.append((start, prev))
                start = prev = o
        if start is not None:
            gaps.append((start, prev))
        dups, self.dups = self.dups[:16], []
        body = struct.pack(">IIHH", self.cum, RWND, len(gaps), len(dups))
        body += b"".join(struct.pack(">HH", a, b) for a, b in gaps)
        body += b"".join(struct.pack(">I", d) for d in dups)
        return chunk(3, body)

    def advance(self):
        while ((self.cum + 1) & 0xffffffff) in self.got:
            self.cum = (self.cum + 1) & 0xffffffff
            self.got.discard(self.cum)

    def new_epoch(self, base, what):
        self.epoch = 1
        self.base = base & 0xffffffff
        self.cum = (self.base - 1) & 0xffffffff
        self.got = set()
        self.count, self.first, self.dropped, self.dups = {}, {}, set(), []
        self.holding = False
        self.jump = what
        self.ev("jumped epoch=1 base=%d %s" % (self.base, what))
        open(os.path.join(self.peer.flags, "jumped-%d" % self.port), "w").close()

    # DATA
    def on_data(self, tsns, ts, vtag):
        oldest = -1.0       # age of the oldest retransmitted TSN, ms
        if vtag != self.my_tag:
            # RFC 9260 8.5: silently discarded (the restart changed it)
            self.stale += len(tsns)
            self.ev("data with tag 0x%08x, ours 0x%08x: discarded" % (vtag, self.my_tag))
            return
        answer = False
        for t in tsns:
            k = s32(t - self.base)
            if k < 0 or k > 1000:
                # before the epoch (a duplicate): SACK it as a receiver would
                self.stale += 1
                self.ev("data tsn=%d outside epoch %d (k=%d)" % (t, self.epoch, k))
                if k < 0 and not self.holding:
                    answer = True
                    self.dups.append(t)
                continue
            n = self.count.get(t, 0) + 1
            self.count[t] = n
            if n == 1:
                self.first[t] = ts
                self.ev("data epoch=%d k=%d at=%.3f" % (self.epoch, k, ts - self.t0))
            else:
                ms = (ts - self.first[t]) * 1000
                self.ev("rtx epoch=%d k=%d arrival=%d after_ms=%.0f" % (self.epoch, k, n, ms))
                oldest = max(oldest, ms)
                if t in self.dropped and n == 2:
                    self.probe_ms[self.epoch] = ms
                if t not in self.dropped or n > 2:
                    self.dups.append(t)
            probe_b = WARM + 1 if self.epoch == 0 else POST + 1
            if k == probe_b and n == 1:
                self.dropped.add(t)
                self.ev("drop epoch=%d k=%d (probe)" % (self.epoch, k))
                continue
            if self.epoch == 0 and k >= WARM + 2 and not self.holding and self.state == "up":
                self.holding = True
                self.ev("hold from k=%d" % k)
            if s32(t - self.cum) > 0:
                self.got.add(t)
            if not self.holding:
                answer = True
        self.advance()
        if self.epoch == 1 and 0 <= oldest < EARLY_MS:
            self.early.append((s32(min(tsns) - self.base), oldest))
        if answer:
            self.send([self.sack()])

    # Jumps
    def go(self):
        """The sender's DATA is in flight (go-PORT): jump."""
        self.state = "jumping"
        self.ev("go (cum=%d, holding %s)" % (self.cum, self.holding))
        if self.kind == "restart":
            self.restart = {"tries": 0}
            self.restart_init()
        elif self.kind == "reset_peer":
            self.reset_seq = self.my_tsn
            self.reset_request()
        elif self.kind == "reset_ours":
            self.holding = False
            self.send([self.sack()])
            self.ev("released: sack cum=%d" % self.cum)
        elif self.kind == "offon":
            self.holding = False
            self.send([self.sack()])
            self.new_epoch(self.base + WARM + 2 + HOLD, "offon cum=%d" % self.cum)

    def restart_init(self):
        r = self.restart
        r["tries"] += 1
        r["tag"] = rand32() | 1
        r["tsn"] = rand32()
        body = struct.pack(">IIHHI", r["tag"], RWND, 1, 10, r["tsn"]) + SUPPORTED_EXT
        self.send([chunk(1, body)], tag=0)

    def on_init_ack(self, body):
        r = self.restart
        if r is None or "cookie" in r:
            return
        vtag, new_itsn = u32(body, 0), u32(body, 12)
        cookie = [v for t, v in params(body[16:]) if t == 7]
        d = s32(new_itsn - (self.base + WARM + 2))    # - first TSN in flight
        self.ev("restart init-ack itsn=%d delta=%d cookie=%d" % (new_itsn, d, len(cookie)))
        if not cookie:
            return
        r.update(cookie=cookie[0], vtag=vtag, itsn=new_itsn, delta=d)
        self.send([chunk(10, cookie[0])], tag=vtag)

    def on_cookie_ack(self):
        r = self.restart
        if r is None or "cookie" not in r:
            return
        self.their_tag = r["vtag"]
        self.my_tag, self.my_tsn = r["tag"], r["tsn"]
        self.restart = None
        self.new_epoch(r["itsn"], "restart itsn=%d delta=%d" % (r["itsn"], r["delta"]))

    def reset_request(self):
        self.reset_tries += 1
        self.reset_due = None
        self.send([chunk(130, param(15, struct.pack(">I", self.reset_seq)))])
        self.ev("reset request seq=%d try=%d" % (self.reset_seq, self.reset_tries))

    def on_reconf(self, body):
        for t, v in params(body):
            if t == 16 and self.kind == "reset_peer" and len(v) >= 8:
                seq, result = u32(v, 0), u32(v, 4)
                snd = u32(v, 8) if len(v) >= 16 else None
                rcv = u32(v, 12) if len(v) >= 16 else None
                self.ev("reset response seq=%d result=%d snd_next=%s rcv_next=%s" %
                        (seq, result, snd, rcv))
                if result == 6 and self.reset_tries == 1:
                    # In progress: DATA in flight.  Ack it, ask again.
                    self.refused = result
                    self.holding = False
                    self.send([self.sack()])
                    self.reset_due = time.monotonic() + 0.2
                elif result == 6 and self.reset_tries < 10:
                    self.reset_due = time.monotonic() + 0.2
                elif result == 1 and snd is not None:
                    # Our side's next TSN continues (RFC 6525 5.2.4 G2)
                    nxt = (self.base + WARM + 2 + HOLD) & 0xffffffff
                    self.new_epoch(nxt, "reset_peer first=%d snd_next=%d snd_next_delta=%d "
                                   "rcv_next_delta=%d" %
                                   (self.refused, snd, s32(snd - nxt),
                                    s32(rcv - self.my_tsn)))
                else:
                    self.jump = "reset_peer result=%d" % result
            elif t == 15 and self.kind == "reset_ours" and len(v) >= 4:
                seq = u32(v, 0)
                nxt = (self.cum + 1) & 0xffffffff
                new = (nxt - (1 << 30)) & 0xffffffff
                self.send([chunk(130, param(16, struct.pack(">IIII", seq, 1, self.my_tsn, new)))])
                self.ev("reset request from the sender seq=%d: performed, rcv_next=%d" % (seq, new))
                self.new_epoch(new, "reset_ours rcv_next=%d delta=%d" % (new, s32(new - nxt)))

    def timer(self, now):
        if self.state == "up" and self.holding and \
                os.path.exists(os.path.join(self.peer.flags, "go-%d" % self.port)):
            self.go()
        if self.reset_due is not None and now >= self.reset_due:
            self.reset_request()

    def finish(self, how, extra=""):
        early = ",".join("%d:%.0f" % e for e in self.early) or "-"
        self.ev("end how=%s%s epoch=%d jump=%s pre_ms=%s post_ms=%s early_rtx=%d "
                "early=%s stale=%d cum_k=%d" %
                (how, extra, self.epoch, self.jump or "-",
                 "%.0f" % self.probe_ms[0] if 0 in self.probe_ms else "-",
                 "%.0f" % self.probe_ms[1] if 1 in self.probe_ms else "-",
                 len(self.early), early, self.stale, s32(self.cum - self.base)))
        self.log.close()


class Peer:
    def __init__(self, iface, addr, outdir, flags):
        self.iface, self.addr, self.outdir, self.flags = iface, addr, outdir, flags
        with open("/sys/class/net/%s/address" % iface) as f:
            self.mac = f.read().strip()
        self.sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0800))
        self.sock.bind((iface, 0x0800))
        self.sock.setsockopt(socket.SOL_SOCKET, 35, 1)     # SO_TIMESTAMPNS
        self.assocs = {}
        self.ipid = 0
        self.mono0 = time.monotonic()

    def wire(self, mac, raddr, sport, dport, payload, tag):
        from scapy.layers.sctp import crc32c
        sctp = struct.pack(">HHII", sport, dport, tag, 0) + payload
        sctp = sctp[:8] + struct.pack(">I", crc32c(sctp)) + sctp[12:]
        self.ipid = (self.ipid + 1) & 0xffff
        ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(sctp), self.ipid, 0x4000, 64,
                         IPPROTO_SCTP, 0, socket.inet_aton(self.addr), socket.inet_aton(raddr))
        csum = sum(struct.unpack(">10H", ip))
        csum = (csum & 0xffff) + (csum >> 16)
        csum = ~((csum & 0xffff) + (csum >> 16)) & 0xffff
        ip = ip[:10] + struct.pack(">H", csum) + ip[12:]
        eth = bytes.fromhex(mac.replace(":", "")) + bytes.fromhex(self.mac.replace(":", ""))
        return eth + b"\x08\x00" + ip + sctp

    def send(self, a, payload, tag):
        self.sock.send(self.wire(a.mac, a.raddr, a.port, a.rport, payload, tag))

    def selfcheck(self):
        """Our frames are scapy's."""
        from scapy.layers.inet import IP
        from scapy.layers.l2 import Ether
        from scapy.layers.sctp import SCTP
        from scapy.packet import Raw
        mac, raddr, pay = "02:00:00:00:00:01", "10.0.1.1", chunk(3, b"\1" * 12)
        ours = self.wire(mac, raddr, 9500, 40000, pay, 0x12345678)
        ref = bytes(Ether(src=self.mac, dst=mac) /
                    IP(src=self.addr, dst=raddr, id=self.ipid, flags="DF") /
                    SCTP(sport=9500, dport=40000, tag=0x12345678) / Raw(pay))
        if ours != ref:
            print("peer: frame differs from scapy's:\n%s\n%s" % (ours.hex(), ref.hex()),
                  file=sys.stderr, flush=True)

    def run(self):
        self.selfcheck()
        print("ready", flush=True)
        while True:
            r, _, _ = select.select([self.sock], [], [], 0.02)
            now = time.monotonic()
            for a in list(self.assocs.values()):
                a.timer(now)
            if not r:
                continue
            frame, anc, _, sa = self.sock.recvmsg(65535, 256)
            if sa[2] == socket.PACKET_OUTGOING:
                continue
            ts = time.time()
            for lvl, typ, data in anc:
                if lvl == socket.SOL_SOCKET and typ == 35 and len(data) >= 16:
                    sec, nsec = struct.unpack("qq", data[:16])
                    ts = sec + nsec / 1e9
            try:
                self.frame(frame, ts)
            except Exception as e:      # keep serving the other runs
                print("peer: %r" % e, file=sys.stderr, flush=True)

    def refuse(self, key, mac, src, init_tag, itsn):
        """ABORT an INIT whose initial TSN is not in the scenario's half."""
        name = scenario(key[0])[0]
        hi = itsn >= 1 << 31
        lo_ok = (1 << 20) <= itsn < (1 << 31) - (1 << 20)
        hi_ok = (1 << 31) + (1 << 20) <= itsn < (1 << 32) - (1 << 20)
        ok = hi_ok if name.endswith("_hi") else lo_ok
        if ok:
            return False

        self.sock.send(self.wire(mac, src, key[0], key[1], chunk(6, b""), init_tag))
        with open(os.path.join(self.outdir, "peer-%d.log" % key[0]), "a") as f:
            f.write("%.3f refused init itsn=%d (upper half %s)\n" %
                    (time.monotonic() - self.mono0, itsn, hi))
        return True

    def frame(self, frame, ts):
        if len(frame) < 14 + 20 + 12 or u16(frame, 12) != 0x0800:
            return
        ip = frame[14:]
        ihl = (ip[0] & 15) * 4
        if ip[9] != IPPROTO_SCTP or socket.inet_ntoa(ip[16:20]) != self.addr:
            return
        src = socket.inet_ntoa(ip[12:16])
        sctp = ip[ihl:u16(ip, 2)]
        sport, dport = u16(sctp, 0), u16(sctp, 2)
        key = (dport, sport)
        if not (BASE_PORT <= dport < BASE_PORT + 10 * len(SCENARIOS)) or \
                (dport - BASE_PORT) % 10:
            return
        a = self.assocs.get(key)
        mac = ":".join("%02x" % x for x in frame[6:12])
        off, tsns = 12, []
        while off + 4 <= len(sctp):
            ctype, clen = sctp[off], u16(sctp, off + 2)
            if clen < 4:
                break
            body = sctp[off + 4:off + clen]
            off += (clen + 3) & ~3
            if ctype == 1:                      # INIT (our connect)
                if a is not None:
                    a.ev("unexpected INIT from the sender")
                    continue
                if scenario(dport)[1] == "offon" and \
                        self.refuse(key, mac, src, u32(body, 0), u32(body, 12)):
                    continue
                a = Assoc(self, key, mac, src, u32(body, 0), u32(body, 12), ts)
                self.assocs[key] = a
                cookie = struct.pack(">HHI", dport, sport, a.my_tag) + b"tsnjump-peer-cookie"
                ack = struct.pack(">IIHHI", a.my_tag, RWND, 1, 10, a.my_tsn)
                ack += param(7, cookie) + SUPPORTED_EXT
                a.send([chunk(2, ack)])
            elif a is None:
                continue
            elif ctype == 2:                    # INIT ACK (our restart)
                a.on_init_ack(body)
            elif ctype == 10:                   # COOKIE ECHO
                a.ev("cookie-echo: established")
                a.send([chunk(11, b"")])
            elif ctype == 11:                   # COOKIE ACK (restart done)
                a.on_cookie_ack()
            elif ctype == 0:                    # DATA
                tsns.append(u32(body, 0))
            elif ctype == 4:                    # HEARTBEAT
                a.send([chunk(5, body)])
            elif ctype == 7:                    # SHUTDOWN
                a.ev("shutdown")
                a.send([chunk(8, b"")])
            elif ctype == 130:                  # RE-CONFIG
                a.on_reconf(body)
            elif ctype == 14:                   # SHUTDOWN COMPLETE
                a.finish("complete")
                del self.assocs[key]
                a = None
            elif ctype == 6:                    # ABORT
                cause = u16(body, 0) if len(body) >= 4 else -1
                a.finish("abort", " cause=%d" % cause)
                del self.assocs[key]
                a = None
            else:
                a.ev("chunk type %d ignored" % ctype)
        if tsns and a is not None:
            a.on_data(tsns, ts, u32(sctp, 4))


def main():
    cmd = sys.argv[1]
    if cmd == "list":
        for i, (name, _, _, desc) in enumerate(SCENARIOS):
            print("%d %s %s" % (BASE_PORT + 10 * i, name, desc))
    elif cmd == "peer":
        Peer(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]).run()
    elif cmd == "send":
        send_main(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit("usage: see the docstring")


if __name__ == "__main__":
    main()

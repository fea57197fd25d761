#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Fake SCTP peer and real sender for tests/kernel/tsnjump.sh: TSN jumps.

The command line, the two processes and the frames are sctp_peer.py's.
The sender runs one association per peer port read on stdin and prints
"result PORT NAME k=v...", its pairs and the peer's end line merged.

The two processes signal each other with flag files in TMPDIR: the
sender writes go-PORT once its DATA is in flight and its snapshot taken,
the peer writes jumped-PORT once the jump is done.

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
duplicate TSNs (RFC 9260 6.2), as the congestion guard expects.

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
import struct
import time

import sctp_peer as sp
from sctp_peer import IPPROTO_SCTP, RWND, chunk, param, params, u32

SCTP_RECONFIG_SUPPORTED = 117
SCTP_ENABLE_STREAM_RESET = 118
SCTP_RESET_ASSOC = 120
SCTP_ENABLE_RESET_ASSOC_REQ = 0x02
SCTP_THIN_ALL = 0x3f

BASE_PORT = 9500
WARM = 12               # epoch 0: k 0 .. WARM - 1, then probe, then hold
POST = 6                # epoch 1: k 0 .. POST - 1, then probe, then tail
TAIL = 4
HOLD = 2
EARLY_MS = 50           # a retransmission sooner than this is spurious
INTERVAL = 0.05
STEP = 0.02             # s between two looks at /proc or a flag file

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
    c = sp.assoc_row(rport)
    return c is not None and c[7] == "0"


def inflight_zero(rport):
    r = thin_row(rport)
    return r is not None and r.get("INFLIGHT") == "0"


def flag(flags, name, port):
    return os.path.join(flags, "%s-%d" % (name, port))


def run(addr, port, flags):
    """One association; returns its key=value line."""
    name, kind, thin, _ = scenario(port)
    kv = []
    s = None
    for tries in range(1, 41):
        s = sp.sender_socket(SCTP_THIN_ALL if thin else 0)
        if kind.startswith("reset"):
            s.setsockopt(IPPROTO_SCTP, SCTP_RECONFIG_SUPPORTED, struct.pack("iI", 0, 1))
            s.setsockopt(IPPROTO_SCTP, SCTP_ENABLE_STREAM_RESET,
                         struct.pack("iI", 0, SCTP_ENABLE_RESET_ASSOC_REQ))
        try:
            s.connect((addr, port))
            break
        except OSError as e:
            s.close()
            s = None
            # the peer refuses initial TSNs in the wrong half (ABORT)
            if e.errno != errno.ECONNREFUSED:
                return "up=no connecterr=%s" % sp.errname(e.errno)
    if s is None:
        return "up=no connecterr=refused-40-times"
    row = sp.assoc_row(port)
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
        ok = sp.wait_until(10, lambda: idle(port), STEP)
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
                kv.append("reset_inflight=%s" % sp.errname(e.errno))
        if kind == "offon":
            sp.set_thin(s, 0)
            sp.set_thin(s, SCTP_THIN_ALL)
            kv += thin_snap(port, "on")
        open(flag(flags, "go", port), "w").close()
        if kind == "reset_ours":
            wait_idle("released")
            try:
                s.setsockopt(IPPROTO_SCTP, SCTP_RESET_ASSOC, struct.pack("i", 0))
                kv.append("reset_acked=0")
            except OSError as e:
                kv.append("reset_acked=%s" % sp.errname(e.errno))
        jumped = sp.wait_until(20, lambda: os.path.exists(flag(flags, "jumped", port)), STEP)
        kv.append("jumped=%s" % ("yes" if jumped else "no"))
        time.sleep(0.1)
        kv += thin_snap(port, "jump")
        # epoch 1
        send(POST)
        wait_idle("post")
        sp.wait_until(3, lambda: inflight_zero(port), STEP)
        kv += thin_snap(port, "post")
        send(2, 0)                      # probe: k 6 acked, k 7 dropped
        wait_idle("probe")
        send(TAIL)
        wait_idle("tail")
        sp.wait_until(3, lambda: inflight_zero(port), STEP)
        kv += thin_snap(port, "tail")
        err = "none"
    except OSError as e:
        err = sp.errname(e.errno) if e.errno else "send-blocked"
    kv.append("sent=%d senderr=%s" % (msg, err))
    kv.append("end=%s" % sp.shutdown_end(s))
    kv.append("gone=%s" % ("yes" if sp.assoc_gone(port) else "no"))
    return " ".join(kv)


def send_main(addr, outdir, flags):
    """For each peer port P on stdin: run its scenario, print
    "P key=value..." (ours), "P peer: key=value..." (the peer's end line)
    and "result P NAME key=value..." (both merged, ours first)."""
    for port in sp.stdin_ports():
        name = scenario(port)[0]
        t0 = time.monotonic()
        try:
            out = run(addr, port, flags)
        except Exception as e:      # report, never hang the script
            out = "error=%r" % e
        took = time.monotonic() - t0
        sp.wait_until(10, lambda: sp.peer_end(outdir, port))
        end = sp.peer_end(outdir, port) or {}
        print("%d %s" % (port, out))
        print("%d peer: %s" % (port, " ".join("%s=%s" % kv for kv in end.items())))
        mine = sp.keyvals(out)
        for k, v in end.items():
            mine.setdefault(k, v)
        print("result %d %s %s took=%.1f" % (port, name, " ".join(
            "%s=%s" % kv for kv in mine.items()), took), flush=True)


# ---------------------------------------------------------------- peer

# Supported Extensions (RFC 5061 4.2.7): RE-CONFIG (130), so that our side
# accepts and sends RE-CONFIG chunks (asoc->peer.reconf_capable).
SUPPORTED_EXT = param(0x8008, bytes([130]))


class Assoc(sp.Assoc):
    COOKIE = b"tsnjump-peer-cookie"
    INIT_ACK_PARAMS = SUPPORTED_EXT
    HANDLERS = {**sp.Assoc.HANDLERS, sp.INIT_ACK: "on_init_ack", sp.COOKIE_ACK: "on_cookie_ack",
                sp.RECONF: "on_reconf"}

    def __init__(self, peer, key, mac, raddr, init, ts):
        # log times from the peer's start
        super().__init__(peer, key, mac, raddr, init, peer.mono0)
        self.name, self.kind, self.thin, _ = scenario(self.port)
        self.epoch = 0
        self.base = self.itsn           # TSN of k = 0 in this epoch
        self.cum = (self.itsn - 1) & 0xffffffff
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

    # SACKs
    def sack(self):
        dups, self.dups = self.dups[:16], []
        return sp.sack_chunk(self.cum, sp.gap_blocks(s32(t - self.cum) for t in self.got), dups)

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
        open(os.path.join(self.peer.tmpdir, "jumped-%d" % self.port), "w").close()

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
        r["tag"] = sp.rand32() | 1
        r["tsn"] = sp.rand32()
        body = struct.pack(">IIHHI", r["tag"], RWND, 1, 10, r["tsn"]) + SUPPORTED_EXT
        self.send([chunk(sp.INIT, body)], tag=0)

    def on_init_ack(self, body):
        r = self.restart
        if r is None or "cookie" in r:
            return
        vtag, new_itsn = u32(body, 0), u32(body, 12)
        cookie = [v for t, v in params(body[16:]) if t == sp.STATE_COOKIE]
        d = s32(new_itsn - (self.base + WARM + 2))    # - first TSN in flight
        self.ev("restart init-ack itsn=%d delta=%d cookie=%d" % (new_itsn, d, len(cookie)))
        if not cookie:
            return
        r.update(cookie=cookie[0], vtag=vtag, itsn=new_itsn, delta=d)
        self.send([chunk(sp.COOKIE_ECHO, cookie[0])], tag=vtag)

    def on_cookie_ack(self, body):
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
        self.send([chunk(sp.RECONF, param(15, struct.pack(">I", self.reset_seq)))])
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
                resp = struct.pack(">IIII", seq, 1, self.my_tsn, new)
                self.send([chunk(sp.RECONF, param(16, resp))])
                self.ev("reset request from the sender seq=%d: performed, rcv_next=%d" % (seq, new))
                self.new_epoch(new, "reset_ours rcv_next=%d delta=%d" % (new, s32(new - nxt)))

    def timer(self, now):
        if self.state == "up" and self.holding and \
                os.path.exists(os.path.join(self.peer.tmpdir, "go-%d" % self.port)):
            self.go()
        if self.reset_due is not None and now >= self.reset_due:
            self.reset_request()

    def end_fields(self):
        early = ",".join("%d:%.0f" % e for e in self.early) or "-"
        return ("epoch=%d jump=%s pre_ms=%s post_ms=%s early_rtx=%d early=%s stale=%d cum_k=%d" %
                (self.epoch, self.jump or "-",
                 "%.0f" % self.probe_ms[0] if 0 in self.probe_ms else "-",
                 "%.0f" % self.probe_ms[1] if 1 in self.probe_ms else "-",
                 len(self.early), early, self.stale, s32(self.cum - self.base)))


class Peer(sp.Peer):
    TICK = 0.02

    def serves(self, port):
        return BASE_PORT <= port < BASE_PORT + 10 * len(SCENARIOS) and not (port - BASE_PORT) % 10

    def new_assoc(self, key, mac, src, init, ts):
        if scenario(key[0])[1] == "offon" and self.refuse(key, mac, src, u32(init, 0),
                                                          u32(init, 12)):
            return None
        return Assoc(self, key, mac, src, init, ts)

    def refuse(self, key, mac, src, init_tag, itsn):
        """ABORT an INIT whose initial TSN is not in the scenario's half."""
        name = scenario(key[0])[0]
        hi = itsn >= 1 << 31
        lo_ok = (1 << 20) <= itsn < (1 << 31) - (1 << 20)
        hi_ok = (1 << 31) + (1 << 20) <= itsn < (1 << 32) - (1 << 20)
        ok = hi_ok if name.endswith("_hi") else lo_ok
        if ok:
            return False

        self.sock.send(self.wire(mac, src, key[0], key[1], chunk(sp.ABORT, b""), init_tag))
        with open(os.path.join(self.outdir, "peer-%d.log" % key[0]), "a") as f:
            f.write("%.3f refused init itsn=%d (upper half %s)\n" %
                    (time.monotonic() - self.mono0, itsn, hi))
        return True


if __name__ == "__main__":
    sp.main(SCENARIOS, BASE_PORT, Peer, send_main)

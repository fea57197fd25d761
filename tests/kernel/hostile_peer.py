#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Hostile or broken SCTP peer for tests/kernel/hostile.sh (issue 7).

The command line, the two processes and the frames are sctp_peer.py's.
The sender reads peer ports P on stdin and runs two associations side by
side, to P with SCTP_THIN all and to P + 1 without (see send()): connect,
100-byte messages every 50 ms with SCTP_NODELAY, then shutdown(SHUT_WR)
or close().  The scenario of an association is the peer port's: port
9000 + 10 * i (+ 1 for the stock run) is SCENARIOS[i].

The peer answers every packet with DATA with a SACK: a correct one
("sane": cumulative TSN ack, the gap blocks of what it holds, a_rwnd
65536) except while the scenario's bad phase lasts.  The bad phase covers
the first arrivals of relative TSNs BAD_FROM .. BAD_TO - 1 (TSN minus the
sender's initial TSN); most scenarios also withhold TSN BAD_FROM (drop it
until the bad phase is over) so that their SACKs have a gap to report.
Per association the peer writes OUTDIR/peer-PORT.log: one line per event,
and at the end

  end how=complete|abort cause=N maxrel=M cum=C acked_cum=A after=N ...

(how the association ended: SHUTDOWN-COMPLETE or the sender's ABORT and
its error cause; highest relative TSN seen; cumulative ack held and last
sent; TSNs above the bad phase received and acked).
"""
import struct
import threading
import time

import sctp_peer as sp
from sctp_peer import IPPROTO_SCTP, RWND, chunk, u32

# The paper's mechanisms and redundant data bundling (SCTP_THIN_RDB 0x80):
# copies of outstanding chunks meet the hostile SACKs too.
SCTP_THIN_ALL = 0x1f | 0x80

BASE_PORT = 9000
BAD_FROM = 5            # relative TSNs BAD_FROM .. BAD_TO - 1: bad phase
BAD_TO = 15
# SACK chunk header 16 bytes; one 1500-byte frame: 1500 - 20 (IPv4)
# - 12 (common header) - 16 = 1452 bytes of gap blocks and dup TSNs.
MAX_ENTRIES = (1500 - 20 - 12 - 16) // 4     # 363

# name: (sender mode, messages, expected outcome, description)
#   mode "shut": shutdown(SHUT_WR) after the messages, wait for the end;
#   mode "close": close() right after the last message (data outstanding)
# Expected outcome (the same with and without SCTP_THIN): "continued"
# (the DATA sent after the bad phase was acked and the association shut
# down cleanly) or "aborted(cause=N)" (the sender's ABORT, error cause N).
# lksctp aborts on a cumulative ack beyond the highest TSN sent
# (sctp_sf_violation_ctsn) with a Protocol Violation cause (13), and
# reports exceeding Association.Max.Retrans with that cause too.
CONT, VIOL = "continued", "aborted(cause=13)"
SCENARIOS = [
    ("overlap", "shut", 30, CONT, "SACKs with overlapping, repeated gap blocks"),
    ("reversed", "shut", 30, CONT, "gap blocks with start > end"),
    ("out_of_window", "shut", 30, CONT, "gap blocks far beyond the highest TSN sent"),
    ("many_gaps", "shut", 30, CONT, "363 gap blocks (a full 1500-byte frame)"),
    ("cum_beyond", "shut", 30, VIOL, "cumulative TSN ack 1000 beyond the highest TSN sent"),
    ("many_dups", "shut", 30, CONT, "SACKs with 360+ duplicate TSN reports"),
    ("renege", "shut", 30, CONT, "gap-acked TSNs dropped by a later SACK (renege)"),
    ("zero_window", "shut", 30, CONT, "a_rwnd 0 for 1.5 s, then a window update"),
    ("zero_window_held", "shut", 30, CONT,
     "two TSNs lost, then a_rwnd 0 for 3 s (heartbeats answered), then a window update"),
    ("shutdown_sacks", "close", 20, CONT,
     "close() with data outstanding; the first SHUTDOWN answered by SACKs, "
     "the next by SHUTDOWN-ACK"),
    ("shutdown_no_ack", "close", 20, VIOL,
     "close() with data outstanding; every SHUTDOWN answered by SACKs only "
     "(Association.Max.Retrans 3, RTO.Max 1 s)"),
    ("shutdown_pending_cum_beyond", "close", 20, VIOL,
     "close() with data outstanding; the retransmission answered by a SACK "
     "acking beyond"),
    ("repeat", "shut", 30, CONT, "a SACK acking nothing new repeated 400 times"),
]


def scenario(port):
    return SCENARIOS[(port - BASE_PORT) // 10]


# ---------------------------------------------------------------- sender

def thin_info(s):
    fmt = "iIIIII7Q"
    try:
        # one-to-one socket: the association id is ignored
        b = s.getsockopt(IPPROTO_SCTP, sp.SCTP_THIN_INFO, struct.calcsize(fmt))
    except OSError as e:
        return "info=%s" % sp.errname(e.errno)
    v = struct.unpack(fmt, b[:struct.calcsize(fmt)])
    return ("flags=0x%02x state=0x%x inflight=%d pkts=%d lost=%d timeouts=%d "
            "linear=%d fastrtx=%d rtomin=%d restart=%d" %
            (v[1], v[2], v[3], v[6], v[7], v[8], v[9], v[10], v[11], v[12]))


class PathWatch:
    """Samples the state of the association's path (STATE column of
    /proc/net/sctp/remaddr: 2 active, 1 potentially failed, 0 inactive,
    that is declared unreachable) every 100 ms and keeps the worst."""
    NAMES = {0: "INACTIVE", 1: "PF", 2: "ACTIVE"}

    def __init__(self, assoc_id):
        self.aid, self.worst, self.down_at, self.done = str(assoc_id), 2, None, False
        self.t0 = time.monotonic()
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self):
        while not self.done:
            with open("/proc/net/sctp/remaddr") as f:
                for line in f.readlines()[1:]:
                    col = line.split()
                    if len(col) > 7 and col[1] == self.aid and int(col[7]) in self.NAMES:
                        self.worst = min(self.worst, int(col[7]))
                        if self.worst == 0 and self.down_at is None:
                            self.down_at = time.monotonic() - self.t0
            time.sleep(0.1)

    def stop(self):
        self.done = True
        self.thread.join()
        return "path=%s%s" % (self.NAMES[self.worst], "" if self.down_at is None
                              else " path_down_at=%.2f" % self.down_at)


def run(addr, port, variant):
    """One association; returns its key=value line."""
    name, mode, count, _, _ = scenario(port)
    kv = []
    s = sp.sender_socket(SCTP_THIN_ALL if variant == "thin" else 0)
    if name == "shutdown_no_ack":
        # fail at the 4th T2-shutdown expiry, RTO at most 1 s
        s.setsockopt(IPPROTO_SCTP, sp.SCTP_RTOINFO,
                     struct.pack("iIII", 0, 1000, 1000, 1000))
        s.setsockopt(IPPROTO_SCTP, sp.SCTP_ASSOCINFO,
                     struct.pack("iHHIII", 0, 3, 0, 0, 0, 0))
    try:
        s.connect((addr, port))
    except OSError as e:
        s.close()
        return "up=no connecterr=%s" % sp.errname(e.errno)
    # connect() returns in ESTABLISHED: check that /proc agrees
    row = sp.assoc_row(port)
    kv.append("up=yes st=%s" % (row[4] if row else None))
    path = PathWatch(struct.unpack_from("i", s.getsockopt(IPPROTO_SCTP, sp.SCTP_STATUS, 256))[0])
    sent, err = 0, "none"
    t0 = time.monotonic()
    for i in range(count):
        try:
            s.send(bytes([65 + i % 26]) * 100)
            sent += 1
        except OSError as e:
            # socket.timeout is an OSError without errno; a failed
            # association can give a real ETIMEDOUT
            err = sp.errname(e.errno) if e.errno else "send-blocked"
            break
        time.sleep(0.05)
    kv.append("sent=%d senderr=%s sendsecs=%.2f" % (sent, err, time.monotonic() - t0))
    kv.append(thin_info(s))
    t0 = time.monotonic()
    if mode == "close" or err != "none":
        s.close()
        end = "closed" if err == "none" else err
    else:
        end = sp.shutdown_end(s)
    kv.append("end=%s endsecs=%.2f" % (end, time.monotonic() - t0))
    gone = sp.assoc_gone(port)
    kv.append("gone=%s gonesecs=%.2f" % ("yes" if gone else "no", time.monotonic() - t0))
    kv.append(path.stop())
    return " ".join(kv)


def outcome(peer_end, snd):
    """continued | aborted(cause=N) | ended-without-progress | stalled"""
    how = peer_end.get("how")
    if how == "abort":
        return "aborted(cause=%s)" % peer_end.get("cause")
    if how == "complete":
        if (int(peer_end.get("after", 0)) > 0 and snd.get("gone") == "yes" and
                peer_end.get("acked_cum") == peer_end.get("maxrel")):
            return "continued"
        return "ended-without-progress"
    return "stalled"


def send(addr, outdir, tmpdir):
    """For each peer port P read on stdin: run the scenario with SCTP_THIN
    (to P) and without (to P + 1) side by side.  Prints per run
    "P VARIANT key=value..." and the peer's end line, then
    "result P NAME est=ST/ST thin=OUTCOME stock=OUTCOME expected=OUTCOME
    path=WORST/WORST took=SECONDS", thin first, stock second (ST: the ST
    column of /proc/net/sctp/assocs right after connect(), 3 is
    ESTABLISHED; WORST: the worst path state seen, see PathWatch).
    Outcomes come from the peer's logs in OUTDIR."""
    def worker(port, variant, out):
        try:
            out.append(run(addr, port, variant))
        except Exception as e:      # report, never hang the script
            out.append("error=%r" % e)
    for port in sp.stdin_ports():
        name, _, _, expect, _ = scenario(port)
        t0 = time.monotonic()
        outs = {"thin": [], "stock": []}
        threads = [threading.Thread(target=worker, args=(port + i, v, outs[v]))
                   for i, v in enumerate(("thin", "stock"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        took = time.monotonic() - t0
        sp.wait_until(10, lambda: sp.peer_end(outdir, port) and sp.peer_end(outdir, port + 1))
        res = {}
        for i, v in enumerate(("thin", "stock")):
            snd = sp.keyvals(outs[v][0])
            end = sp.peer_end(outdir, port + i) or {}
            print("%d %s %s" % (port + i, v, outs[v][0]))
            print("%d %s peer: %s" % (port + i, v,
                                      " ".join("%s=%s" % kv for kv in end.items())))
            res[v] = (snd.get("st", "-"), outcome(end, snd), snd.get("path", "-"))
        print("result %d %s est=%s/%s thin=%s stock=%s expected=%s path=%s/%s took=%.1f" %
              (port, name, res["thin"][0], res["stock"][0], res["thin"][1],
               res["stock"][1], expect, res["thin"][2], res["stock"][2], took),
              flush=True)


# ---------------------------------------------------------------- peer

class Assoc(sp.Assoc):
    COOKIE = b"hostile-peer-cookie"

    def __init__(self, peer, key, mac, raddr, init):
        super().__init__(peer, key, mac, raddr, init)
        self.name = scenario(self.port)[0]
        self.recv = set()       # relative TSNs held
        self.arrivals = {}      # relative TSN -> times seen
        self.cum = -1           # relative cumulative TSN ack
        self.maxrel = -1        # highest relative TSN seen
        self.bad_sacks = 0
        self.sane_sacks = 0
        self.shutdowns = 0
        self.shut_at = []       # arrival times of SHUTDOWN chunks
        self.zw_until = None    # zero_window: end of the zero window
        self.reneged = False
        self.acked_cum = -1     # highest cumulative ack sent

    # SACKs
    def sack(self, cum=None, gaps=(), dups=(), rwnd=RWND):
        """A SACK chunk; cum is relative (default: what we hold)."""
        return sp.sack_chunk(self.tsn(self.cum if cum is None else cum), gaps, dups, rwnd)

    def real_gaps(self):
        """Gap blocks (offsets from the cumulative ack) of what we hold."""
        return sp.gap_blocks(r - self.cum for r in self.recv)

    def sane(self, rwnd=RWND):
        self.sane_sacks += 1
        self.acked_cum = max(self.acked_cum, self.cum)
        return self.sack(gaps=self.real_gaps()[:MAX_ENTRIES], rwnd=rwnd)

    def advance(self):
        while self.cum + 1 in self.recv:
            self.cum += 1

    def tsn(self, rel):
        return (self.itsn + rel) & 0xffffffff

    # Scenario logic
    def bad(self):
        return self.maxrel < BAD_TO and self.maxrel >= BAD_FROM

    def keep(self, rel, first):
        """Accept this DATA chunk (True) or drop it."""
        n = self.name
        if n.startswith("shutdown"):
            count = scenario(self.port)[2]
            return not (first and rel >= count - 3)
        if n == "zero_window":
            return self.zw_until is None or rel <= self.cum
        if n == "zero_window_held":
            # BAD_FROM and BAD_FROM + 1 lost, BAD_FROM + 2 held, then
            # nothing while the window is shut
            if self.zw_until is not None:
                return False
            return not (rel >= BAD_FROM and self.maxrel < BAD_FROM + 2)
        if n == "renege" and self.reneged and self.bad():
            return False
        if n == "cum_beyond":
            return True
        # withhold BAD_FROM during the bad phase
        return not (rel == BAD_FROM and self.bad())

    def on_data(self, tsns, ts, vtag):
        for t in tsns:
            rel = (t - self.itsn) & 0xffffffff
            if rel >= 0x80000000:
                self.ev("data tsn %d below the initial TSN" % t)
                continue
            first = rel not in self.arrivals
            self.arrivals[rel] = self.arrivals.get(rel, 0) + 1
            if rel > self.maxrel:
                self.maxrel = rel
            if self.keep(rel, first):
                self.recv.add(rel)
            elif first or rel <= self.maxrel:
                self.ev("drop rel=%d (arrival %d)" % (rel, self.arrivals[rel]))
        self.advance()
        self.send(self.respond())

    def respond(self):
        """SACKs for a packet with DATA, per scenario."""
        n = self.name
        if n in ("zero_window", "zero_window_held"):
            return self.respond_zero_window()
        if n.startswith("shutdown"):
            return self.respond_shutdown_pending()
        if not self.bad():
            return [self.sane()]
        self.bad_sacks += 1
        g = self.real_gaps()
        s, e = g[0] if g else (1, 1)
        if n == "overlap":
            if not g:
                return [self.sane()]
            gaps = [(s, e), (s, e), (min(s + 1, e), e), (s, s), (s, e)]
            self.ev("bad sack cum=%d gaps=%s" % (self.cum, gaps))
            return [self.sack(gaps=gaps)]
        if n == "reversed":
            gaps = [(e + 1, s), (e + 3, 1)] + ([(e, s)] if e > s else [])
            self.ev("bad sack cum=%d gaps=%s" % (self.cum, gaps))
            return [self.sack(gaps=gaps)]
        if n == "out_of_window":
            gaps = g + [(e + 1000, e + 2000), (40000, 65535)]
            self.ev("bad sack cum=%d gaps=%s" % (self.cum, gaps))
            return [self.sack(gaps=gaps)]
        if n == "many_gaps":
            gaps = list(g)
            while len(gaps) < 100:
                gaps.append((s, e))         # repeated, overlapping
            k = e + 2
            while len(gaps) < MAX_ENTRIES:
                gaps.append((k, k))         # beyond anything sent
                k += 2
            self.ev("bad sack cum=%d gaps=%d (first %s, last %s)" %
                    (self.cum, len(gaps), gaps[0], gaps[-1]))
            return [self.sack(gaps=gaps)]
        if n == "cum_beyond":
            c = self.maxrel + 1000
            self.ev("bad sack cum=%d (maxrel %d)" % (c, self.maxrel))
            return [self.sack(cum=c)]
        if n == "many_dups":
            held = sorted(self.recv) or [0]
            dups = [self.tsn(held[i % len(held)]) for i in range(MAX_ENTRIES - len(g) - 40)]
            dups += [self.tsn(self.maxrel + 5000 + i) for i in range(40)]
            self.ev("bad sack cum=%d gaps=%s dups=%d" % (self.cum, g, len(dups)))
            return [self.sack(gaps=g, dups=dups)]
        if n == "renege":
            if self.maxrel < (BAD_FROM + BAD_TO) // 2:
                self.ev("sack cum=%d gaps=%s (to be reneged)" % (self.cum, g))
                return [self.sack(gaps=g)]
            if not self.reneged:
                self.ev("renege: forget %s" % sorted(r for r in self.recv if r > self.cum))
            self.reneged = True
            self.recv = set(r for r in self.recv if r <= self.cum)
            self.ev("bad sack cum=%d no gaps (renege)" % self.cum)
            return [self.sack()]
        if n == "repeat":
            # the first copy acks what arrived, the next 100 nothing new
            c = self.sack(gaps=g)
            if self.bad_sacks <= 4:
                self.ev("sack cum=%d gaps=%s, 101 copies" % (self.cum, g))
                raw = self.frame([c])
                for _ in range(100):
                    self.peer.sock.send(raw)
            return [c]
        return [self.sane()]

    def respond_zero_window(self):
        # zero_window: from BAD_FROM on, one DATA chunk outstanding (a
        # window probe); zero_window_held: three (two lost, one held), so
        # that lksctp's exception for SACKs of a single window probe does
        # not clear the error counters
        held = self.name == "zero_window_held"
        start = BAD_FROM + 2 if held else BAD_FROM
        if self.zw_until is None and self.maxrel >= start and not self.bad_sacks:
            self.zw_until = time.monotonic() + (3 if held else 1.5)
            self.ev("zero window from cum=%d, TSNs up to %d sent" % (self.cum, self.maxrel))
        if self.zw_until is not None:
            self.bad_sacks += 1
            return [self.sane(rwnd=0)]
        return [self.sane()]

    def respond_shutdown_pending(self):
        count = scenario(self.port)[2]
        held = [r for r in range(count - 3, count) if self.arrivals.get(r, 0) > 1]
        if not held:
            return [self.sane()]
        if self.name == "shutdown_pending_cum_beyond":
            c = self.maxrel + 1000
            self.ev("shutdown-pending: rtx of %s; sack cum=%d (beyond)" % (held, c))
            self.bad_sacks += 1
            return [self.sack(cum=c)]
        # Retransmissions after close(): a reversed-gap SACK and a SACK
        # with duplicates before the sane one.
        self.bad_sacks += 2
        self.ev("shutdown-pending: rtx of %s; reversed gaps, dups, sane" % held)
        return [self.sack(gaps=[(5, 2)]), self.sack(dups=[self.tsn(r) for r in held] * 20),
                self.sane()]

    def on_init_again(self, body):
        self.init_ack()

    def on_shutdown(self, body):
        self.shutdowns += 1
        self.shut_at.append(time.monotonic())
        self.ev("shutdown #%d (their cum ack 0x%08x)" % (self.shutdowns, u32(body, 0)))
        if (self.name == "shutdown_sacks" and self.shutdowns == 1 or
                self.name == "shutdown_no_ack"):
            g = [(1000, 2000), (3, 1)]
            self.ev("answer: sacks instead of shutdown-ack")
            self.bad_sacks += 4
            self.send([self.sane()])
            self.send([self.sack(gaps=g)])
            self.send([self.sack(dups=[self.tsn(self.cum)] * 50)])
            self.send([self.sack(cum=self.cum - 3)])      # old
            return
        self.send([chunk(sp.SHUTDOWN_ACK, b"")])

    def timer(self, now):
        if self.zw_until is not None and now >= self.zw_until:
            self.zw_until = None
            self.ev("window update cum=%d" % self.cum)
            self.send([self.sane()])

    def end_fields(self):
        after = len([r for r in self.recv if r >= BAD_TO and r <= self.acked_cum])
        now = time.monotonic()
        shut = ",".join("%d" % ((t - self.shut_at[0]) * 1000) for t in self.shut_at[1:])
        return ("maxrel=%d cum=%d acked_cum=%d after=%d bad_sacks=%d "
                "sane_sacks=%d heartbeats=%d shutdowns=%d shutdown_rtx_ms=%s end_ms=%d secs=%.2f" %
                (self.maxrel, self.cum, self.acked_cum, after,
                 self.bad_sacks, self.sane_sacks, self.heartbeats, self.shutdowns, shut or "-",
                 (now - self.shut_at[0]) * 1000 if self.shut_at else -1,
                 now - self.log_t0))


class Peer(sp.Peer):
    def serves(self, port):
        return BASE_PORT <= port < BASE_PORT + 10 * len(SCENARIOS)

    def new_assoc(self, key, mac, src, init, ts):
        return Assoc(self, key, mac, src, init)


if __name__ == "__main__":
    sp.main(SCENARIOS, BASE_PORT, Peer, send)

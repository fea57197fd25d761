# SPDX-License-Identifier: GPL-2.0-or-later
"""Scripted SCTP peers of the in-guest tests: what they share.

hostile_peer.py (hostile.sh) and tsnjump_peer.py (tsnjump.sh) each hold a
table of scenarios and play them against a real sender of our module.
Both run as two processes (lib.sh's thin_peer_start):

  SCRIPT list                            "PORT NAME DESCRIPTION" lines
  SCRIPT peer IFACE ADDR OUTDIR TMPDIR   the fake peer on IFACE (address
                                         ADDR), scapy; the kernel of its
                                         namespace must not see SCTP
                                         (nftables drop), so this answers
                                         everything itself
  SCRIPT send ADDR OUTDIR TMPDIR         the real sender, no scapy: for
                                         each peer port read on stdin, its
                                         scenario; prints lines and, last,
                                         "result PORT NAME key=value..."

The scenario of a peer port is the script's SCENARIOS[(port - BASE) / 10];
the sender imports no scapy and runs as one process for every scenario
(process start-up costs seconds under TCG).  TMPDIR is on a local file
system (not 9p), for flag files between the two processes.  The peer
writes one log per association, OUTDIR/peer-PORT.log, whose last line is
"TIME end how=complete|abort ..." (peer_end() reads it).

The peer reads frames with an AF_PACKET socket, which sees them before
netfilter, with kernel receive timestamps (SO_TIMESTAMPNS), and writes
frames built here on the same socket, as scapy's sendp() does: scapy's
packet layers cost tens of ms per frame under TCG, and SACKs that late
make the sender time out.  The CRC32c is scapy's, and at start the peer
checks that its frames and chunks are the bytes scapy builds
(Peer.selfcheck()).  It answers INIT with an INIT-ACK carrying a state
cookie, COOKIE-ECHO with COOKIE-ACK, HEARTBEAT with HEARTBEAT-ACK and
SHUTDOWN with SHUTDOWN-ACK; DATA and everything else are the scenario's
(an Assoc subclass).
"""
import errno
import os
import select
import socket
import struct
import sys
import time

IPPROTO_SCTP = 132
SCTP_RTOINFO = 0
SCTP_ASSOCINFO = 1
SCTP_NODELAY = 3
SCTP_STATUS = 14
SCTP_THIN = 180
SCTP_THIN_INFO = 181
SO_TIMESTAMPNS = 35

# Chunk types (RFC 9260 3.2, RFC 6525 3.1)
DATA, INIT, INIT_ACK, SACK, HEARTBEAT, HEARTBEAT_ACK, ABORT = 0, 1, 2, 3, 4, 5, 6
SHUTDOWN, SHUTDOWN_ACK, COOKIE_ECHO, COOKIE_ACK = 7, 8, 10, 11
SHUTDOWN_COMPLETE, RECONF = 14, 130
STATE_COOKIE = 7        # INIT-ACK parameter

RWND = 65536

ERRNAMES = dict(errno.errorcode)


def errname(e):
    return ERRNAMES.get(e, str(e))


def keyvals(line):
    return dict(w.split("=", 1) for w in line.split() if "=" in w)


def wait_until(secs, cond, step=0.05):
    """Polls cond every step seconds for secs seconds, then once more."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < secs:
        if cond():
            return True
        time.sleep(step)
    return bool(cond())


def rand32():
    return int.from_bytes(os.urandom(4), "big")


def main(scenarios, base, peer_cls, send):
    """The command line of a peer script (see the docstring)."""
    cmd, args = sys.argv[1] if len(sys.argv) > 1 else "", sys.argv[2:]
    if cmd == "list":
        for i, sc in enumerate(scenarios):
            print("%d %s %s" % (base + 10 * i, sc[0], sc[-1]))
    elif cmd == "peer" and len(args) == 4:
        peer_cls(*args).run()
    elif cmd == "send" and len(args) == 3:
        send(*args)
    else:
        sys.exit("usage: %s list | peer IFACE ADDR OUTDIR TMPDIR | send ADDR OUTDIR TMPDIR"
                 % os.path.basename(sys.argv[0]))


# ---------------------------------------------------------------- sender

def sender_socket(thin_flags=0):
    """A one-to-one SCTP socket, SCTP_NODELAY, SCTP_THIN thin_flags (if
    any), 10 s timeouts."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_SCTP)
    s.setsockopt(IPPROTO_SCTP, SCTP_NODELAY, 1)
    if thin_flags:
        set_thin(s, thin_flags)
    s.settimeout(10)
    return s


def set_thin(s, flags):
    s.setsockopt(IPPROTO_SCTP, SCTP_THIN, struct.pack("iIII", 0, flags, 0, 0))


def assoc_row(rport):
    """Our association to peer port rport in /proc/net/sctp/assocs (this
    namespace), its columns, or None.  The columns are shifted against the
    header (ASSOC, SOCK are one word each): read by position, ST 4,
    TX_QUEUE 7, RPORT 12."""
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


def assoc_gone(rport, secs=15):
    """Waits until the association leaves /proc (once it is over and its
    socket closed); True if it did."""
    return wait_until(secs, lambda: assoc_row(rport) is None)


def shutdown_end(s, secs=15):
    """shutdown(SHUT_WR), waits up to secs for the association to end and
    closes s.  Returns how it ended: complete, the socket's error (an errno
    name) or TIMEOUT."""
    # lksctp does not wake recv() when a shutdown we started completes
    # (RCV_SHUTDOWN is set only on a received SHUTDOWN), so poll:
    # SCTP_STATUS fails or says CLOSED (1) once it is over.
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
        if not wait_until(secs, over):
            res.append("TIMEOUT")
    except OSError as e:
        res.append(errname(e.errno))
    s.close()
    return res[0]


def peer_end(outdir, port):
    """The key=value pairs of the peer's end line for port, or None."""
    try:
        with open(os.path.join(outdir, "peer-%d.log" % port)) as f:
            ends = [line for line in f if " end how=" in line]
    except OSError:
        return None
    return keyvals(ends[-1]) if ends else None


def stdin_ports():
    """The peer ports the test script writes on stdin, one a line."""
    for line in sys.stdin:
        if line.strip():
            yield int(line)


# ---------------------------------------------------------------- wire

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


def chunks(sctp):
    """(type, value) of the chunks of an SCTP packet (common header
    included)."""
    off = 12
    while off + 4 <= len(sctp):
        ctype, clen = sctp[off], u16(sctp, off + 2)
        if clen < 4:
            break
        yield ctype, sctp[off + 4:off + clen]
        off += (clen + 3) & ~3


def sack_chunk(cum, gaps=(), dups=(), rwnd=RWND):
    """A SACK chunk: cumulative TSN ack cum, gap blocks (start, end) as
    given (offsets from cum, in any order, reversed ones too), duplicate
    TSNs."""
    body = struct.pack(">IIHH", cum, rwnd, len(gaps), len(dups))
    body += b"".join(struct.pack(">HH", a, b) for a, b in gaps)
    body += b"".join(struct.pack(">I", d) for d in dups)
    return chunk(SACK, body)


def gap_blocks(offsets):
    """The gap blocks (start, end) of the positive offsets (TSN minus the
    cumulative TSN ack) held above the cumulative ack."""
    gaps, start, prev = [], None, None
    for o in sorted(offsets):
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
    return gaps


# ---------------------------------------------------------------- peer

class Assoc:
    """One association of the fake peer: its hand-shake, its log, the
    chunks every scenario answers alike.  A subclass plays the scenario:
    on_data(), end_fields() and any handler of HANDLERS."""
    COOKIE = b"sctp-peer-cookie"
    INIT_ACK_PARAMS = b""       # after the state cookie
    # chunk type: the method (its name) that takes the chunk's value
    HANDLERS = {COOKIE_ECHO: "on_cookie_echo", HEARTBEAT: "on_heartbeat", SHUTDOWN: "on_shutdown"}

    def __init__(self, peer, key, mac, raddr, init, log_t0=None):
        """key: (our port, their port); init: the INIT chunk's value;
        log_t0: time.monotonic() of the log's time 0 (default now)."""
        self.peer = peer
        self.port, self.rport = key
        self.mac, self.raddr = mac, raddr
        self.their_tag, self.itsn = u32(init, 0), u32(init, 12)
        self.my_tag = rand32() | 1
        self.my_tsn = rand32()
        self.heartbeats = 0
        self.log_t0 = time.monotonic() if log_t0 is None else log_t0
        self.log = open(os.path.join(peer.outdir, "peer-%d.log" % self.port), "a")
        self.ev("init rport=%d their_tag=0x%08x my_tag=0x%08x itsn=%d" %
                (self.rport, self.their_tag, self.my_tag, self.itsn))

    def ev(self, msg):
        self.log.write("%.3f %s\n" % (time.monotonic() - self.log_t0, msg))
        self.log.flush()

    def frame(self, chunks_, tag=None):
        """The frame carrying chunks_ (bytes each), with verification tag
        tag (default the sender's)."""
        return self.peer.wire(self.mac, self.raddr, self.port, self.rport, b"".join(chunks_),
                              self.their_tag if tag is None else tag)

    def send(self, chunks_, tag=None):
        self.peer.sock.send(self.frame(chunks_, tag))

    def init_ack(self):
        cookie = struct.pack(">HHI", self.port, self.rport, self.my_tag) + self.COOKIE
        body = struct.pack(">IIHHI", self.my_tag, RWND, 1, 10, self.my_tsn)
        self.send([chunk(INIT_ACK, body + param(STATE_COOKIE, cookie) + self.INIT_ACK_PARAMS)])
        self.ev("init-ack sent")

    def on_init_again(self, body):
        """An INIT on an association that exists."""
        self.ev("unexpected INIT from the sender")

    def on_cookie_echo(self, body):
        self.ev("cookie-echo: established")
        self.send([chunk(COOKIE_ACK, b"")])

    def on_heartbeat(self, body):
        self.heartbeats += 1
        self.send([chunk(HEARTBEAT_ACK, body)])

    def on_shutdown(self, body):
        self.ev("shutdown")
        self.send([chunk(SHUTDOWN_ACK, b"")])

    def on_data(self, tsns, ts, vtag):
        """The TSNs of a packet's DATA chunks, its receive time (time.time()
        scale) and verification tag."""
        raise NotImplementedError

    def timer(self, now):
        """Called at least every Peer.TICK seconds (time.monotonic())."""

    def end_fields(self):
        """The scenario's key=value pairs of the end line."""
        return ""

    def finish(self, how, extra=""):
        self.ev("end how=%s%s %s" % (how, extra, self.end_fields()))
        self.log.close()


class Peer:
    """The fake peer: serves the associations to the ports serves()
    accepts, one Assoc (new_assoc()) each."""
    TICK = 0.05             # timer granularity, s

    def __init__(self, iface, addr, outdir, tmpdir):
        self.iface, self.addr, self.outdir, self.tmpdir = iface, addr, outdir, tmpdir
        with open("/sys/class/net/%s/address" % iface) as f:
            self.mac = f.read().strip()
        self.sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0800))
        self.sock.bind((iface, 0x0800))
        self.sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        self.assocs = {}
        self.ipid = 0
        self.mono0 = time.monotonic()

    def serves(self, port):
        raise NotImplementedError

    def new_assoc(self, key, mac, src, init, ts):
        """The Assoc for an INIT to key (our port, theirs), or None to
        leave it unanswered."""
        raise NotImplementedError

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

    def selfcheck(self):
        """Our frames and chunks are scapy's; a difference is an error on
        stderr (the test scripts count it)."""
        from scapy.layers.inet import IP
        from scapy.layers.l2 import Ether
        from scapy.layers.sctp import SCTP, SCTPChunkInitAck, SCTPChunkParamStateCookie
        from scapy.layers.sctp import SCTPChunkSACK
        from scapy.packet import Raw
        mac, raddr, pay = "02:00:00:00:00:01", "10.0.1.1", chunk(SACK, b"\1" * 12)
        cookie = b"\0" * 8 + self.__class__.__name__.encode()
        pairs = [
            (self.wire(mac, raddr, 9500, 40000, pay, 0x12345678),
             bytes(Ether(src=self.mac, dst=mac) /
                   IP(src=self.addr, dst=raddr, id=self.ipid, flags="DF") /
                   SCTP(sport=9500, dport=40000, tag=0x12345678) / Raw(pay))),
            (sack_chunk(7, [(2, 3), (5, 2)], [7, 9]),
             bytes(SCTPChunkSACK(cumul_tsn_ack=7, a_rwnd=RWND, gap_ack_list=["2:3", "5:2"],
                                 dup_tsn_list=[7, 9]))),
            (chunk(INIT_ACK, struct.pack(">IIHHI", 5, RWND, 1, 10, 9) +
                   param(STATE_COOKIE, cookie)),
             bytes(SCTPChunkInitAck(init_tag=5, a_rwnd=RWND, n_out_streams=1, n_in_streams=10,
                                    init_tsn=9,
                                    params=[SCTPChunkParamStateCookie(cookie=cookie)]))),
        ]
        for ours, ref in pairs:
            if ours != ref:
                print("peer: bytes differ from scapy's:\n%s\n%s" % (ours.hex(), ref.hex()),
                      file=sys.stderr, flush=True)

    def run(self):
        self.selfcheck()
        print("ready", flush=True)
        while True:
            r, _, _ = select.select([self.sock], [], [], self.TICK)
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
                if lvl == socket.SOL_SOCKET and typ == SO_TIMESTAMPNS and len(data) >= 16:
                    sec, nsec = struct.unpack("qq", data[:16])
                    ts = sec + nsec / 1e9
            try:
                self.frame(frame, ts)
            except Exception as e:      # keep serving the other runs
                print("peer: %r" % e, file=sys.stderr, flush=True)

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
        if not self.serves(dport):
            return
        key = (dport, sport)
        a = self.assocs.get(key)
        mac = ":".join("%02x" % x for x in frame[6:12])
        tsns = []
        for ctype, body in chunks(sctp):
            if ctype == INIT:                   # our connect
                if a is not None:
                    a.on_init_again(body)
                    continue
                a = self.new_assoc(key, mac, src, body, ts)
                if a is not None:
                    self.assocs[key] = a
                    a.init_ack()
            elif a is None:
                continue
            elif ctype == DATA:
                tsns.append(u32(body, 0))
            elif ctype in (SHUTDOWN_COMPLETE, ABORT):
                if ctype == SHUTDOWN_COMPLETE:
                    a.finish("complete")
                else:
                    a.finish("abort", abort_cause(body))
                del self.assocs[key]
                a = None
            elif ctype in a.HANDLERS:
                getattr(a, a.HANDLERS[ctype])(body)
            else:
                a.ev("chunk type %d ignored" % ctype)
        if tsns and a is not None:
            a.on_data(tsns, ts, u32(sctp, 4))


def abort_cause(body):
    """ " cause=N causetext=TEXT" of an ABORT chunk's value (its first
    error cause; -1 and - if none)."""
    cause, text = -1, ""
    if len(body) >= 4:
        cause = u16(body, 0)
        text = body[4:u16(body, 2)].decode("ascii", "replace")
        text = "".join(ch if ch.isprintable() else "." for ch in text)
    return " cause=%d causetext=%s" % (cause, text.strip(".").replace(" ", "_") or "-")

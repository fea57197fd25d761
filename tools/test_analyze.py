#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tools/analyze.py against a synthetic cell with known answers.

The captures are built here: a fast retransmit 2 ms after a SACK that
reports the TSN missing, a timeout retransmission with a second chunk
bundled, a spurious timeout retransmission (the receiver had the chunk),
a message fragmented into 3 chunks, a packet with 2 DATA chunks and a SACK
with duplicate TSN reports; and a TCP connection with a fast retransmit, timer
retransmissions (one spurious) and a segment of two messages.
"""
import json
import os
import struct
import sys
import tempfile
import unittest

import dpkt

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analyze  # noqa: E402

SND, RCV = b"\x0a\x00\x01\x01", b"\x0a\x00\x02\x01"
SPORT, PORT = 40000, 7010
T0 = 1_700_000_000_000_000_000
MS = 1_000_000


def chunk(ctype, flags, value):
    c = struct.pack("!BBH", ctype, flags, 4 + len(value)) + value
    return c + b"\0" * (-len(c) % 4)


def data(tsn, flags, body, ssn=0):
    return chunk(0, flags, struct.pack("!IHHI", tsn, 0, ssn, 0) + body)


def msg(idx, seq, size, t):
    return struct.pack("<HHIQ", size, idx, seq, t) + b"p" * (size - 16)


def sack(cum, gaps=(), dups=()):
    v = struct.pack("!IIHH", cum, 65536, len(gaps), len(dups))
    v += b"".join(struct.pack("!HH", s, e) for s, e in gaps)
    v += b"".join(struct.pack("!I", d) for d in dups)
    return chunk(3, 0, v)


def frame(src, dst, sport, dport, chunks):
    sctp = struct.pack("!HHII", sport, dport, 1, 0) + b"".join(chunks)
    ip = dpkt.ip.IP(src=src, dst=dst, p=132, data=sctp)
    ip.len = 20 + len(sctp)
    return bytes(dpkt.ethernet.Ethernet(src=b"\x02" * 6, dst=b"\x04" * 6, type=0x0800, data=ip))


def write_pcap(fn, pkts):
    with open(fn, "wb") as f:
        w = dpkt.pcap.Writer(f, nano=True)
        for t, buf in sorted(pkts, key=lambda p: p[0]):
            w.writepkt(buf, ts=t / 1e9)


class Cell:
    """Messages 0..8 of association 0; see the module docstring."""

    def __init__(self, d):
        sent = {i: T0 + t * MS for i, t in enumerate((0, 250, 500, 750, 760, 2000, 3100, 3200, 3200))}
        size = {i: 100 for i in sent}
        size[6] = 3000
        snd, rcv = [], []

        def out(t, chs):
            snd.append((T0 + t * MS, frame(SND, RCV, SPORT, PORT, chs)))

        def arr(t, chs):
            rcv.append((T0 + t * MS, frame(SND, RCV, SPORT, PORT, chs)))

        def back(t, chs):
            snd.append((T0 + t * MS, frame(RCV, SND, PORT, SPORT, chs)))

        m = {i: msg(0, i, size[i], sent[i]) for i in sent}
        out(0, [data(100, 3, m[0])])
        arr(50, [data(100, 3, m[0])])
        back(100, [sack(100)])
        out(250, [data(101, 3, m[1])])                   # lost
        out(500, [data(102, 3, m[2])])
        arr(550, [data(102, 3, m[2])])
        back(600, [sack(100, [(2, 2)])])                 # 101 missing
        out(602, [data(101, 3, m[1])])                   # FR
        arr(652, [data(101, 3, m[1])])
        back(700, [sack(102)])
        out(750, [data(103, 3, m[3])])                   # lost
        out(760, [data(104, 3, m[4])])                   # lost
        out(1900, [data(103, 3, m[3]), data(104, 3, m[4])])   # TO + B
        arr(1950, [data(103, 3, m[3]), data(104, 3, m[4])])
        back(2000, [sack(104)])
        out(2000, [data(105, 3, m[5])])
        arr(2050, [data(105, 3, m[5])])
        out(3000, [data(105, 3, m[5])])                  # TO, spurious
        arr(3050, [data(105, 3, m[5])])
        back(3060, [sack(105, dups=(105,))])
        b6 = m[6]
        out(3100, [data(106, 2, b6[:1400], 1), data(107, 0, b6[1400:2800], 1)])
        out(3101, [data(108, 1, b6[2800:], 1)])
        arr(3150, [data(106, 2, b6[:1400], 1), data(107, 0, b6[1400:2800], 1)])
        arr(3151, [data(108, 1, b6[2800:], 1)])
        out(3200, [data(109, 3, m[7]), data(110, 3, m[8])])
        arr(3250, [data(109, 3, m[7]), data(110, 3, m[8])])
        back(3300, [sack(110)])
        write_pcap(os.path.join(d, "snd-ours.pcap"), snd)
        write_pcap(os.path.join(d, "rcv-ours.pcap"), rcv)
        recv = {0: 50, 1: 652, 2: 652, 3: 1950, 4: 1950, 5: 2050, 6: 3151, 7: 3250, 8: 3250}
        with open(os.path.join(d, "all.send.log"), "w") as f:
            f.write("# thin-gen send\n# assoc seq size send_ns\n")
            for i in sent:
                f.write("0 %d %d %d\n" % (i, size[i], sent[i]))
        with open(os.path.join(d, "all.sink.log"), "w") as f:
            f.write("# thin-gen sink\n")
            for i in sorted(recv, key=lambda i: recv[i]):
                f.write("0 %d %d %d %d\n" % (i, size[i], sent[i], T0 + recv[i] * MS))
        with open(os.path.join(d, "tcp.send.log"), "w") as f:
            f.write("0 0 100 %d\n" % T0)
        with open(os.path.join(d, "tcp.sink.log"), "w") as f:
            f.write("0 0 100 %d %d\n" % (T0, T0 + 70 * MS))
        with open(os.path.join(d, "variants.txt"), "w") as f:
            f.write("all port=%d proto=sctp options=--thin all\n" % PORT)
            f.write("tcp port=7090 proto=tcp options=\n")
        self.recv, self.sent = recv, sent


TPORT, ISN = 7090, 1000


def tcp_frame(src, dst, sport, dport, seq, ack, flags, payload=b"", sack=()):
    opts = b""
    if sack:
        opts = b"\x01\x01" + struct.pack("!BB", 5, 2 + 8 * len(sack))
        opts += b"".join(struct.pack("!II", l, r) for l, r in sack)
    t = dpkt.tcp.TCP(sport=sport, dport=dport, seq=seq, ack=ack, flags=flags,
                     opts=opts, data=payload)
    t.off = (20 + len(opts)) // 4
    ip = dpkt.ip.IP(src=src, dst=dst, p=6, data=t)
    ip.len = 20 + len(bytes(t))
    return bytes(dpkt.ethernet.Ethernet(src=b"\x02" * 6, dst=b"\x04" * 6, type=0x0800, data=ip))


class TcpCell:
    """Messages 0..6 of association 3 over TCP: message 1 lost and fast-
    retransmitted after a SACK reports it missing; 3 lost and retransmitted
    by a timer; 4 arrives but its ACK is lost, so its timer
    retransmission is spurious; 5 and 6 share a lost segment, retransmitted
    together (TO + B)."""

    def __init__(self, d):
        sent = {i: T0 + t * MS for i, t in enumerate((0, 250, 500, 750, 1250, 2000, 2000))}
        m = {i: msg(3, i, 100, sent[i]) for i in sent}
        snd, rcv = [], []
        ack = 0x10

        def seg(t, first, n, arrive, extra=()):
            off = 100 * first
            pl = b"".join(m[first + k] for k in range(n))
            f = tcp_frame(SND, RCV, SPORT, TPORT, ISN + 1 + off, 1, ack | 0x08, pl)
            snd.append((T0 + t * MS, f))
            if arrive is not None:
                rcv.append((T0 + arrive * MS, f))

        def back(t, upto, sack=()):
            snd.append((T0 + t * MS, tcp_frame(RCV, SND, TPORT, SPORT, 1, ISN + 1 + upto, ack,
                                               sack=[(ISN + 1 + a, ISN + 1 + b) for a, b in sack])))

        snd.append((T0 - 10 * MS, tcp_frame(SND, RCV, SPORT, TPORT, ISN, 0, 0x02)))
        seg(0, 0, 1, 50)
        back(100, 100)
        seg(250, 1, 1, None)                       # lost
        seg(500, 2, 1, 550)
        back(600, 100, [(200, 300)])               # 100-199 missing
        seg(603, 1, 1, 653)                        # FR
        back(700, 300)
        seg(750, 3, 1, None)                       # lost
        seg(1000, 3, 1, 1050)                      # TO
        back(1100, 400)
        seg(1250, 4, 1, 1300)                      # its ACK is lost
        seg(1700, 4, 1, 1750)                      # TO, spurious
        back(1800, 500)
        seg(2000, 5, 2, None)                      # lost
        seg(2400, 5, 2, 2450)                      # TO + B
        back(2500, 700)
        write_pcap(os.path.join(d, "snd-stock.pcap"), snd)
        write_pcap(os.path.join(d, "rcv-stock.pcap"), rcv)
        recv = {0: 50, 1: 653, 2: 653, 3: 1050, 4: 1300, 5: 2450, 6: 2450}
        with open(os.path.join(d, "tcp.send.log"), "w") as f:
            for i in sent:
                f.write("3 %d 100 %d\n" % (i, sent[i]))
        with open(os.path.join(d, "tcp.sink.log"), "w") as f:
            for i in sent:
                f.write("3 %d 100 %d %d\n" % (i, sent[i], T0 + recv[i] * MS))
        with open(os.path.join(d, "variants.txt"), "w") as f:
            f.write("tcp port=%d proto=tcp options=\n" % TPORT)


class TestTcp(unittest.TestCase):
    def test_tcp_causes(self):
        with tempfile.TemporaryDirectory() as d:
            TcpCell(d)
            res, md = analyze.analyze(d)
            r = res["variants"]["tcp"]
            c = r["causes"]["1"]
            self.assertEqual({k: c[k]["count"] for k in c}, {"TO": 3, "FR": 1, "B": 1})
            self.assertEqual({k: c[k]["spurious"] for k in c}, {"TO": 1, "FR": 0, "B": 0})
            self.assertEqual(r["spurious"], 1)
            self.assertEqual(r["messages_matched"], 7)
            self.assertEqual(r["transmissions_histogram"], {"1": 2, "2": 5})
            self.assertAlmostEqual(r["transport_latency_ms"]["max"], 2450 - 2000, places=3)
            self.assertEqual(r["data_packets"], 10)
            self.assertIn("| tcp | 7/7 |", md)
            # a shorter window than the 3 ms from SACK to retransmission
            res, _ = analyze.analyze(d, fr_window_ms=1)
            c = res["variants"]["tcp"]["causes"]["1"]
            self.assertEqual((c["FR"]["count"], c["TO"]["count"]), (0, 4))


class TestAnalyze(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        self.cell = Cell(self.d)

    def tearDown(self):
        self.tmp.cleanup()

    def run_it(self, **kw):
        res, md = analyze.analyze(self.d, **kw)
        return res["variants"]["all"], res, md

    def test_causes(self):
        r, _, _ = self.run_it()
        c = r["causes"]["1"]
        self.assertEqual({k: c[k]["count"] for k in c}, {"TO": 2, "FR": 1, "B": 1})
        self.assertEqual({k: c[k]["spurious"] for k in c}, {"TO": 1, "FR": 0, "B": 0})
        self.assertEqual(r["spurious"], 1)

    def test_fr_window_matters(self):
        # the same retransmission 2 ms after the SACK is a timeout when the
        # window is shorter than that: the classification is not constant
        r, _, _ = self.run_it(fr_window_ms=1)
        c = r["causes"]["1"]
        self.assertEqual(c["FR"]["count"], 0)
        self.assertEqual(c["TO"]["count"], 3)

    def test_transmissions(self):
        r, _, _ = self.run_it()
        self.assertEqual(r["messages_matched"], 9)
        self.assertEqual(r["transmissions_histogram"], {"1": 5, "2": 4})
        self.assertEqual(r["latency_by_retransmission"]["1"]["n"], 4)
        self.assertEqual(r["latency_by_retransmission"]["2"]["n"], 0)

    def test_latencies(self):
        r, _, _ = self.run_it()
        app = r["app_latency_ms"]
        want = [self.cell.recv[i] - (self.cell.sent[i] - T0) / MS for i in self.cell.sent]
        self.assertAlmostEqual(app["max"], max(want), places=3)
        self.assertAlmostEqual(app["mean"], sum(want) / len(want), places=3)
        # transport latency: first arrival of the last chunk; message 1
        # arrived at 652 (FR), message 6's last fragment at 3151
        t = r["transport_latency_ms"]
        self.assertAlmostEqual(t["max"], 1950 - 750, places=3)
        self.assertEqual(t["n"], 9)

    def test_bandwidth_and_tcp(self):
        r, res, md = self.run_it()
        self.assertEqual(r["data_packets"], 12)
        self.assertEqual(r["payload_bytes"], 8 * 100 + 3000)
        self.assertGreater(r["overhead"], 1.0)
        tcp = res["variants"]["tcp"]
        self.assertEqual(tcp["app_latency_ms"]["n"], 1)
        self.assertNotIn("causes", tcp)
        self.assertIn("| all | 9/9 |", md)
        for p in ("analysis.json", "analysis.md", "cdf.png", "fig8.png", "fig9.png", "overhead.png"):
            self.assertTrue(os.path.getsize(os.path.join(self.d, p)) > 0, p)
        json.load(open(os.path.join(self.d, "analysis.json")))

    def test_sack_parsing(self):
        v = sack(5, [(2, 3), (6, 6)], (9, 10))[4:]
        cum, gaps, ndup = analyze.parse_sack(v)
        self.assertEqual((cum, gaps, ndup), (5, [(2, 3), (6, 6)], 2))
        s = (cum, gaps, ndup)
        self.assertTrue(analyze.missing(s, 6))       # offset 1: below gap 2-3
        self.assertFalse(analyze.missing(s, 7))      # inside gap
        self.assertTrue(analyze.missing(s, 9))       # offset 4 below 6
        self.assertFalse(analyze.missing(s, 12))     # above every gap
        self.assertFalse(analyze.missing(s, 5))      # cumulatively acked

    def test_matrix(self):
        os.makedirs(os.path.join(self.d, "m"))
        os.rename(self.d + "/variants.txt", self.d + "/m/variants.txt")
        for f in os.listdir(self.d):
            if f != "m" and os.path.isfile(os.path.join(self.d, f)):
                os.rename(os.path.join(self.d, f), os.path.join(self.d, "m", f))
        with open(os.path.join(self.d, "m", "params.txt"), "w") as f:
            f.write("rtt=100\nloss=u5\n")
        analyze.matrix(self.d)
        rows = json.load(open(os.path.join(self.d, "matrix.json")))
        self.assertEqual({r["variant"] for r in rows}, {"all", "tcp"})
        self.assertEqual(rows[0]["rtt"], "100")


if __name__ == "__main__":
    res = unittest.main(exit=False, verbosity=1).result
    failed = len(res.failures) + len(res.errors)
    print("%d passed, %d failed" % (res.testsRun - failed, failed))
    sys.exit(1 if failed else 0)

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Per-message analysis of one experiment cell, or of a whole matrix.

    analyze.py CELL_DIR [--out DIR] [--fr-window-ms N]
    analyze.py --matrix RESULTS_DIR

A cell directory (tests/exp/guest-exp.sh) holds variants.txt ("<variant>
port=P proto=sctp|tcp options=..."), per variant the thin-gen logs
<v>.send.log ("assoc seq size send_ns") and <v>.sink.log ("assoc seq size
send_ns recv_ns"), and captures snd*.pcap (sender's interface: DATA out,
SACKs in) and rcv*.pcap (receiver's interface: DATA in).  Every message
starts with thin-gen's 16-byte header (u16 length, u16 association index,
u32 sequence, u64 send time, little endian), so DATA chunks map back to
messages.

Per message (SCTP): application latency (sink log: includes head-of-line
blocking), transport latency (first arrival at the receiver of the
message's last chunk, minus the send time), transmissions (times the
sender put its TSN on the wire; for a fragmented message, the most of any
of its chunks).  Each retransmission gets a cause, by these heuristics:

- FR, fast retransmit: the association's last SACK before it arrived at
  most --fr-window-ms (10 ms) earlier and reported the TSN missing (above
  the cumulative ack, outside every gap block, below a gap block);
- otherwise, in its packet, the lowest such TSN is TO (T3-rtx timeout) and
  the others are B (bundled with it, RFC 9260 6.3.3 E3);
- spurious, whatever the cause: the copy was not needed, because an
  earlier one reached the receiver.  A TSN that arrived k times in the
  receiver's capture had k - 1 needless copies; its last k - 1
  retransmissions count as spurious (loss happens before the receiver's
  interface, so every copy that arrives there is a delivered copy).

TCP variants (captured on ports 7090-7100): the same per message, a
message being the byte range thin-gen wrote; see tcp_view().
Output: analysis.json, analysis.md, cdf.png (CDF and, on a log scale, the
tail as in the paper's Fig. 13), fig8.png (latency by 1st/2nd/3rd
retransmission, Fig. 8), fig9.png (causes and spurious shares, Fig. 9),
overhead.png (IP bytes sent per payload byte).  --matrix analyses every
cell below RESULTS_DIR and writes matrix.md, matrix.json and matrix.png.
"""
import bisect
import glob
import json
import os
import re
import struct
import sys
from decimal import Decimal

import dpkt
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

LATE_MS = 400
ORDER = ["stock", "rto200", "rto200-si", "off", "rtomin", "linear", "restart",
         "fr", "noi", "all", "probe", "rdb", "rdb2", "tcp", "tcp-thin"]
CAUSES = ("TO", "FR", "B")


def tsn_lt(a, b):
    return ((a - b) & 0xffffffff) > 0x80000000


def chunks(sctp):
    """(type, flags, value bytes) of each chunk of an SCTP packet."""
    off = 12
    while off + 4 <= len(sctp):
        ctype, flags, clen = struct.unpack_from("!BBH", sctp, off)
        if clen < 4:
            break
        yield ctype, flags, sctp[off + 4:off + clen]
        off += (clen + 3) & ~3


def ip_frames(pattern, proto):
    """(time_ns, IP header, transport bytes) of every IPv4 packet of
    protocol proto in the captures matching pattern, in file order."""
    for fn in sorted(glob.glob(pattern)):
        with open(fn, "rb") as f:
            try:
                rd = dpkt.pcap.Reader(f)
            except (ValueError, dpkt.NeedData):
                continue
            for ts, buf in rd:
                try:
                    ip = dpkt.ethernet.Ethernet(buf).data
                except (dpkt.UnpackError, dpkt.NeedData):
                    continue
                if not isinstance(ip, dpkt.ip.IP) or ip.p != proto:
                    continue
                raw = bytes(ip.data) if not isinstance(ip.data, bytes) else ip.data
                # nanosecond pcaps give Decimal times, microsecond ones float
                t = int(ts * 1000000000) if isinstance(ts, Decimal) else int(round(ts * 1e9))
                yield t, ip, raw


def packets(pattern):
    """(time_ns, src, dst, sport, dport, ip_len, sctp bytes), by time."""
    out = []
    for t, ip, raw in ip_frames(pattern, 132):
        if len(raw) < 12:
            continue
        sport, dport = struct.unpack_from("!HH", raw, 0)
        out.append((t, ip.src, ip.dst, sport, dport, ip.len, raw))
    out.sort(key=lambda p: p[0])
    return out


def parse_sack(v):
    cum, _rwnd, ngap, ndup = struct.unpack_from("!IIHH", v, 0)
    gaps = [struct.unpack_from("!HH", v, 12 + 4 * i) for i in range(ngap)
            if 12 + 4 * i + 4 <= len(v)]
    return cum, gaps, ndup


def missing(sack, tsn):
    cum, gaps, _ = sack
    if not tsn_lt(cum, tsn) or not gaps:
        return False
    off = (tsn - cum) & 0xffffffff
    if any(s <= off <= e for s, e in gaps):
        return False
    return any(s > off for s, _ in gaps)


def pct(a, p):
    return float(np.percentile(a, p)) if len(a) else None


def lat_stats(ms):
    ms = np.asarray(ms, dtype=float)
    if not ms.size:
        return {"n": 0}
    return {"n": int(ms.size), "mean": float(ms.mean()), "p50": pct(ms, 50),
            "p99": pct(ms, 99), "p999": pct(ms, 99.9), "max": float(ms.max()),
            "late_pct": float(100.0 * np.mean(ms > LATE_MS))}


def read_log(fn, cols):
    rows = []
    if not os.path.exists(fn):
        return rows
    for line in open(fn):
        if line.startswith("#"):
            continue
        f = line.split()
        if len(f) >= cols:
            rows.append(tuple(int(x) for x in f[:cols]))
    return rows


def read_variants(cell):
    vs = {}
    fn = os.path.join(cell, "variants.txt")
    for line in open(fn):
        f = line.split()
        if not f:
            continue
        kv = dict(x.split("=", 1) for x in f[1:3] if "=" in x)
        vs[f[0]] = {"port": int(kv.get("port", 0)), "proto": kv.get("proto", "sctp"),
                    "options": line.split("options=", 1)[-1].strip()}
    return vs


def sctp_view(cell, ports, fr_window_ns):
    """Per destination port: chunk transmissions, causes, arrivals."""
    snd = packets(os.path.join(cell, "snd*.pcap"))
    rcv = packets(os.path.join(cell, "rcv*.pcap"))
    arrival = {}            # (assoc, tsn) -> first arrival at the receiver
    arrivals = {}           # (assoc, tsn) -> copies that arrived
    for t, _s, _d, sport, dport, _l, raw in rcv:
        if dport not in ports:
            continue
        for ctype, _f, v in chunks(raw):
            if ctype == 0 and len(v) >= 12:
                k = ((sport, dport), struct.unpack_from("!I", v, 0)[0])
                arrival.setdefault(k, t)
                arrivals[k] = arrivals.get(k, 0) + 1
    view = {p: {"tx": {}, "msg": {}, "rtx": [], "ip_bytes": 0, "data_pkts": 0}
            for p in ports}
    last_sack = {}          # assoc -> (time, sack)
    frag = {}               # assoc -> [message key, tsns] of an open message
    for t, _s, _d, sport, dport, ip_len, raw in snd:
        if sport in ports:      # a SACK from the receiver
            assoc = (dport, sport)
            for ctype, _f, v in chunks(raw):
                if ctype == 3 and len(v) >= 12:
                    last_sack[assoc] = (t, parse_sack(v))
            continue
        if dport not in ports:
            continue
        vw = view[dport]
        assoc = (sport, dport)
        rtx_here = []
        has_data = False
        for ctype, flags, v in chunks(raw):
            if ctype != 0 or len(v) < 12:
                continue
            has_data = True
            tsn = struct.unpack_from("!I", v, 0)[0]
            key = (assoc, tsn)
            n = vw["tx"].get(key, 0) + 1
            vw["tx"][key] = n
            if n == 1:
                body = v[12:]
                if flags & 2 and len(body) >= 16:      # B: message header
                    _ln, idx, seq = struct.unpack_from("<HHI", body, 0)
                    frag[assoc] = [(assoc, idx, seq), [tsn]]
                elif assoc in frag:
                    frag[assoc][1].append(tsn)
                if flags & 1 and assoc in frag:        # E: message complete
                    mk, tsns = frag.pop(assoc)
                    vw["msg"][mk] = tsns
            else:
                rtx_here.append((tsn, n))
        if has_data:
            vw["data_pkts"] += 1
            vw["ip_bytes"] += ip_len
        if not rtx_here:
            continue
        ls = last_sack.get(assoc)
        fr = [ls is not None and t - ls[0] <= fr_window_ns and missing(ls[1], tsn)
              for tsn, _n in rtx_here]
        rest = sorted(tsn for (tsn, _n), f in zip(rtx_here, fr) if not f)
        for (tsn, n), f in zip(rtx_here, fr):
            cause = "FR" if f else ("TO" if tsn == rest[0] else "B")
            vw["rtx"].append({"assoc": assoc, "tsn": tsn, "n": n - 1, "cause": cause,
                              "spurious": False, "t": t})
    for vw in view.values():
        for x in vw["rtx"]:
            k = (x["assoc"], x["tsn"])
            # the last (arrivals - 1) of this TSN's retransmissions
            x["spurious"] = x["n"] > vw["tx"][k] - 1 - (arrivals.get(k, 1) - 1)
    return view, arrival


def tcp_packets(pattern):
    """TCP segments of the captures, by time: (time_ns, sport, dport,
    ip_len, seq, ack, flags, payload length, SACK blocks, payload bytes
    captured)."""
    out = []
    for t, ip, raw in ip_frames(pattern, 6):
        if len(raw) < 20:
            continue
        sport, dport, seq, ack, off, flags = struct.unpack_from("!HHIIBB", raw, 0)
        hl = (off >> 4) * 4
        sack = []
        o = 20
        while o < min(hl, len(raw)):
            kind = raw[o]
            if kind == 0:
                break
            if kind == 1:
                o += 1
                continue
            if o + 1 >= len(raw) or raw[o + 1] < 2:
                break
            ln = raw[o + 1]
            if kind == 5:
                sack += [struct.unpack_from("!II", raw, o + 2 + 8 * i)
                         for i in range((ln - 2) // 8) if o + 10 + 8 * i <= len(raw)]
            o += ln
        plen = ip.len - (ip.hl * 4) - hl
        out.append((t, sport, dport, ip.len, seq, ack, flags, max(plen, 0), sack, raw[hl:]))
    out.sort(key=lambda p: p[0])
    return out


def tcp_view(cell, ports, sizes, fr_window_ns):
    """The sctp_view of TCP variants.  A message is keyed by its
    connection and the stream offset of its last byte; the connection's
    association index comes from thin-gen's header in its first bytes, its
    message offsets from the sizes in the send log (sizes[port][idx], in
    sequence order).  A retransmission (a segment with bytes sent before)
    is FR when the last ACK before it, at most fr_window_ns earlier,
    reported the bytes missing by SACK (or was a duplicate ACK for them),
    else TO (a timer: RTO or tail loss probe); other messages in the same
    segment are B.  Spurious as for SCTP, from the receiver's capture."""
    snd = tcp_packets(os.path.join(cell, "snd*.pcap"))
    rcv = tcp_packets(os.path.join(cell, "rcv*.pcap"))
    isn, idx_of, ends = {}, {}, {}
    view = {p: {"tx": {}, "msg": {}, "rtx": [], "ip_bytes": 0, "data_pkts": 0}
            for p in ports}

    def msgs_in(conn, a, b):
        """(sequence, offset of the last byte) of the messages that end
        inside [a, b)."""
        e = ends.get(conn)
        if e is None:
            return []
        i = bisect.bisect_left(e, a)
        j = bisect.bisect_left(e, b)
        return list(zip(range(i, j), e[i:j]))

    def learn(conn, port, off, payload):
        if conn in idx_of or off != 0 or len(payload) < 8:
            return
        _ln, idx, _seq = struct.unpack_from("<HHI", payload, 0)
        idx_of[conn] = idx
        acc, e = 0, []
        for size in sizes.get(port, {}).get(idx, []):
            acc += size
            e.append(acc - 1)
        ends[conn] = e

    last_ack = {}
    for t, sport, dport, ip_len, seq, ack, flags, plen, sack, payload in snd:
        if sport in ports:              # an ACK from the receiver
            conn = (dport, sport)
            if conn in isn:
                prev = last_ack.get(conn)
                dup = prev is not None and prev[1] == ack and plen == 0
                last_ack[conn] = (t, ack, sack, dup)
            continue
        if dport not in ports:
            continue
        conn = (sport, dport)
        if flags & 0x02:                # SYN
            isn[conn] = seq
            continue
        if conn not in isn or plen == 0:
            continue
        vw = view[dport]
        off = (seq - isn[conn] - 1) & 0xffffffff
        learn(conn, dport, off, payload)
        vw["data_pkts"] += 1
        vw["ip_bytes"] += ip_len
        rtx_here = []
        for mseq, end in msgs_in(conn, off, off + plen):
            key = (conn, end)
            n = vw["tx"].get(key, 0) + 1
            vw["tx"][key] = n
            if n == 1:
                vw["msg"][(conn, idx_of[conn], mseq)] = [end]
            else:
                rtx_here.append((end, n))
        if not rtx_here:
            continue
        la = last_ack.get(conn)
        fr = False
        if la is not None and t - la[0] <= fr_window_ns:
            una = (la[1] - isn[conn] - 1) & 0xffffffff
            blocks = [((l - isn[conn] - 1) & 0xffffffff, (r - isn[conn] - 1) & 0xffffffff)
                      for l, r in la[2]]
            first = rtx_here[0][0]
            inside = any(l <= first < r for l, r in blocks)
            above = any(l > first for l, _r in blocks)
            fr = first >= una and not inside and (above or la[3])
        for k, (end, n) in enumerate(rtx_here):
            cause = ("FR" if fr else "TO") if k == 0 else "B"
            vw["rtx"].append({"assoc": conn, "tsn": end, "n": n - 1, "cause": cause,
                              "spurious": False, "t": t})
    arrival, arrivals = {}, {}
    for t, sport, dport, _l, seq, _a, flags, plen, _s, _p in rcv:
        conn = (sport, dport)
        if dport not in ports or conn not in isn or plen == 0:
            continue
        off = (seq - isn[conn] - 1) & 0xffffffff
        for _mseq, end in msgs_in(conn, off, off + plen):
            k = (conn, end)
            arrival.setdefault(k, t)
            arrivals[k] = arrivals.get(k, 0) + 1
    for vw in view.values():
        for x in vw["rtx"]:
            k = (x["assoc"], x["tsn"])
            x["spurious"] = x["n"] > vw["tx"][k] - 1 - (arrivals.get(k, 1) - 1)
    return view, arrival


def analyze(cell, out=None, fr_window_ms=10.0):
    out = out or cell
    os.makedirs(out, exist_ok=True)
    variants = read_variants(cell)
    sctp_ports = {v["port"] for v in variants.values() if v["proto"] == "sctp"}
    view, arrival = sctp_view(cell, sctp_ports, fr_window_ms * 1e6)
    tcp_ports = {v["port"] for v in variants.values() if v["proto"] == "tcp"}
    sizes = {}
    for name, v in variants.items():
        if v["proto"] == "tcp":
            per = sizes.setdefault(v["port"], {})
            for a, _s, z, _t in sorted(read_log(os.path.join(cell, name + ".send.log"), 4),
                                       key=lambda x: (x[0], x[1])):
                per.setdefault(a, []).append(z)
    tview, tarrival = tcp_view(cell, tcp_ports, sizes, fr_window_ms * 1e6)
    view.update(tview)
    arrival.update(tarrival)
    res = {"cell": os.path.basename(os.path.normpath(cell)), "fr_window_ms": fr_window_ms,
           "variants": {}}
    per_msg = {}
    for name, v in variants.items():
        sent = read_log(os.path.join(cell, name + ".send.log"), 4)
        sink = read_log(os.path.join(cell, name + ".sink.log"), 5)
        app = {(a, s): (r - t) / 1e6 for a, s, _z, t, r in sink}
        send_ns = {(a, s): t for a, s, _z, t in sent}
        r = {"proto": v["proto"], "port": v["port"], "options": v["options"],
             "sent": len(sent), "received": len(sink),
             "app_latency_ms": lat_stats(list(app.values())),
             "payload_bytes": int(sum(z for _a, _s, z, _t in sent))}
        msgs = []
        if v["port"] in view and view[v["port"]]["data_pkts"]:
            vw = view[v["port"]]
            for (assoc, idx, seq), tsns in vw["msg"].items():
                k = (idx, seq)
                if k not in send_ns:
                    continue
                ntx = max(vw["tx"].get((assoc, x), 1) for x in tsns)
                arr = arrival.get((assoc, tsns[-1]))
                msgs.append({"key": k, "tx": ntx, "app": app.get(k),
                             "transport": (arr - send_ns[k]) / 1e6 if arr else None})
            r["messages_matched"] = len(msgs)
            # tcpdump drops packets when the emulated guest falls behind:
            # causes and transmissions are only as good as the capture
            r["capture_complete"] = len(msgs) / len(sent) if sent else None
            r["transport_latency_ms"] = lat_stats(
                [m["transport"] for m in msgs if m["transport"] is not None])
            hist = {}
            for m in msgs:
                hist[m["tx"]] = hist.get(m["tx"], 0) + 1
            r["transmissions_histogram"] = {str(k): hist[k] for k in sorted(hist)}
            by_k = {}
            for k in (1, 2, 3):
                lat = [m["app"] for m in msgs if m["tx"] == k + 1 and m["app"] is not None]
                by_k[str(k)] = lat_stats(lat)
            r["latency_by_retransmission"] = by_k
            causes = {}
            for x in vw["rtx"]:
                c = causes.setdefault(str(min(x["n"], 3)), {c: [0, 0] for c in CAUSES})
                c[x["cause"]][0] += 1
                c[x["cause"]][1] += int(x["spurious"])
            r["causes"] = {k: {c: {"count": v2[0], "spurious": v2[1]} for c, v2 in d.items()}
                           for k, d in sorted(causes.items())}
            nchunks = sum(vw["tx"].values())
            r["data_packets"] = vw["data_pkts"]
            r["ip_bytes"] = vw["ip_bytes"]
            r["overhead"] = vw["ip_bytes"] / r["payload_bytes"] if r["payload_bytes"] else None
            r["retransmitted_share"] = (nchunks - len(vw["tx"])) / nchunks if nchunks else None
            r["spurious"] = sum(int(x["spurious"]) for x in vw["rtx"])
        per_msg[name] = (app, msgs)
        res["variants"][name] = r
    json.dump(res, open(os.path.join(out, "analysis.json"), "w"), indent=1)
    md = table(res)
    open(os.path.join(out, "analysis.md"), "w").write(md)
    plots(res, per_msg, out)
    return res, md


def order(names):
    return sorted(names, key=lambda n: (ORDER.index(n) if n in ORDER else 99, n))


def f1(x):
    return "-" if x is None else "%.0f" % x


def table(res):
    lines = ["| variant | msgs | mean | p50 | p99 | p99.9 | max | >%d ms | rtx TO/FR/B | spurious | overhead | capture |" % LATE_MS,
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for n in order(res["variants"]):
        r = res["variants"][n]
        a = r["app_latency_ms"]
        if "causes" in r:
            tot = {c: sum(d[c]["count"] for d in r["causes"].values()) for c in CAUSES}
            rt = "%d/%d/%d" % (tot["TO"], tot["FR"], tot["B"])
            sp = str(r["spurious"])
            ov = "%.2f" % r["overhead"] if r["overhead"] else "-"
            cap = "-" if r["capture_complete"] is None else "%.0f %%" % (100 * r["capture_complete"])
        else:
            rt = sp = ov = cap = "n/a"
        lines.append("| %s | %d/%d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            n, r["received"], r["sent"], f1(a.get("mean")), f1(a.get("p50")),
            f1(a.get("p99")), f1(a.get("p999")), f1(a.get("max")),
            "-" if a.get("late_pct") is None else "%.2f %%" % a["late_pct"], rt, sp, ov, cap))
    lines += ["", "Application latency by retransmission (messages that needed k "
              "retransmissions): n, mean / p99 / max ms", "",
              "| variant | 1st | 2nd | 3rd |", "|---|---|---|---|"]
    for n in order(res["variants"]):
        r = res["variants"][n]
        if "latency_by_retransmission" not in r:
            continue
        cells = []
        for k in ("1", "2", "3"):
            s = r["latency_by_retransmission"][k]
            cells.append("-" if not s["n"] else "%d: %s / %s / %s" % (
                s["n"], f1(s["mean"]), f1(s["p99"]), f1(s["max"])))
        lines.append("| %s | %s |" % (n, " | ".join(cells)))
    return "\n".join(lines) + "\n"


def plots(res, per_msg, out):
    names = order(res["variants"])
    fig, ax = plt.subplots(1, 2, figsize=(12, 4.5))
    for n in names:
        ms = np.sort(np.array(list(per_msg[n][0].values())))
        if not ms.size:
            continue
        y = np.arange(1, ms.size + 1) / ms.size
        ax[0].plot(ms, y, label=n)
        ax[1].plot(ms, 1 - y + 1.0 / ms.size, label=n)
    ax[0].set_xlim(0, 1200)
    ax[0].set_xlabel("application latency (ms)")
    ax[0].set_ylabel("CDF")
    ax[1].set_yscale("log")
    ax[1].set_xlabel("application latency (ms)")
    ax[1].set_ylabel("1 - CDF (tail, log)")
    ax[0].legend(fontsize=7)
    fig.suptitle(res["cell"])
    fig.tight_layout()
    fig.savefig(os.path.join(out, "cdf.png"), dpi=90)
    plt.close(fig)

    sn = [n for n in names if "causes" in res["variants"][n]]
    fig, ax = plt.subplots(1, 3, figsize=(14, 4.5), sharey=True)
    for i, k in enumerate((1, 2, 3)):
        data = [[m["app"] for m in per_msg[n][1] if m["tx"] == k + 1 and m["app"] is not None]
                for n in sn]
        pos = [j for j, d in enumerate(data) if d]
        if pos:
            ax[i].boxplot([data[j] for j in pos], positions=pos, whis=(0, 100), widths=0.6)
            for j in pos:
                d = np.array(data[j])
                ax[i].plot(j, d.mean(), "g^")
                ax[i].plot(j, np.percentile(d, 99), "rx")
        ax[i].set_xticks(range(len(sn)))
        ax[i].set_xticklabels(sn, rotation=45, fontsize=8)
        ax[i].set_title("%s retransmission" % ("1st", "2nd", "3rd")[i])
    ax[0].set_ylabel("application latency (ms); ^ mean, x p99, whiskers min-max")
    fig.suptitle(res["cell"] + ": latency by retransmission (paper Fig. 8)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "fig8.png"), dpi=90)
    plt.close(fig)

    fig, ax = plt.subplots(1, max(len(sn), 1), figsize=(2.2 * max(len(sn), 1) + 1, 4), sharey=True,
                           squeeze=False)
    colors = {"TO": "tab:red", "FR": "tab:blue", "B": "tab:orange"}
    for i, n in enumerate(sn):
        c = res["variants"][n]["causes"]
        tot = sum(c[k][x]["count"] for k in c for x in CAUSES) or 1
        for j, k in enumerate(("1", "2", "3")):
            bottom = 0
            for x in CAUSES:
                v = c.get(k, {}).get(x, {"count": 0, "spurious": 0})
                h, hs = 100.0 * v["count"] / tot, 100.0 * v["spurious"] / tot
                ax[0][i].bar(j, h - hs, bottom=bottom, color=colors[x],
                             label=x if (i == 0 and j == 0) else None)
                ax[0][i].bar(j, hs, bottom=bottom + h - hs, color=colors[x], hatch="//",
                             edgecolor="k", label=("%s spurious" % x) if (i == 0 and j == 0) else None)
                bottom += h
        ax[0][i].set_xticks(range(3))
        ax[0][i].set_xticklabels(["1st", "2nd", "3rd+"])
        ax[0][i].set_title(n, fontsize=9)
    ax[0][0].set_ylabel("% of retransmissions")
    ax[0][0].legend(fontsize=6)
    fig.suptitle(res["cell"] + ": retransmission causes (paper Fig. 9)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "fig9.png"), dpi=90)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 3.5))
    ov = [res["variants"][n]["overhead"] or 0 for n in sn]
    ax.bar(range(len(sn)), ov)
    ax.set_xticks(range(len(sn)))
    ax.set_xticklabels(sn, rotation=45, fontsize=8)
    ax.set_ylabel("IP bytes sent / payload byte")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "overhead.png"), dpi=90)
    plt.close(fig)


def params(cell):
    p = {}
    fn = os.path.join(cell, "params.txt")
    if os.path.exists(fn):
        for line in open(fn):
            if "=" in line:
                k, v = line.strip().split("=", 1)
                p[k] = v
    return p


def cell_key(path):
    """rtt<R>-<loss>-<interval>: numeric RTT and interval order (rtt50
    before rtt200), then the loss name."""
    m = re.match(r"rtt(\d+)-(\w+)-(\w+)$", os.path.basename(path))
    if not m:
        return (1, 0, "", 0, os.path.basename(path))
    iv = m.group(3)
    return (0, int(m.group(1)), m.group(2), int(iv) if iv.isdigit() else 1 << 30, iv)


def sender_thin(path):
    """The sender's SCTP_THIN_INFO sums (thin-gen's "thin:" line) as ints."""
    try:
        for line in open(path):
            if line.startswith("thin-gen send: thin: "):
                return {k: int(v) for k, v in (x.split("=", 1) for x in line.split()[3:] if "=" in x)
                        if v.isdigit()}
    except OSError:
        pass
    return {}


def matrix(root):
    cells = sorted((os.path.dirname(f) for f in glob.glob(os.path.join(root, "*", "variants.txt"))),
                   key=cell_key)
    rows, md = [], ["| cell | variant | msgs | mean | p99 | p99.9 | max | >%d ms | rtx TO/FR/B | spurious | overhead | capture | probes (spurious) |" % LATE_MS,
                    "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for c in cells:
        res, _ = analyze(c)
        p = params(c)
        for n in order(res["variants"]):
            r = res["variants"][n]
            a = r["app_latency_ms"]
            row = dict(p, cell=res["cell"], variant=n, mean=a.get("mean"), p99=a.get("p99"),
                       p999=a.get("p999"), max=a.get("max"), late_pct=a.get("late_pct"))
            th = sender_thin(os.path.join(c, n + ".send.out"))
            if "probes" in th:
                row.update(probes=th["probes"], probes_spurious=th.get("probes_spurious", 0),
                           probes_repaired=th.get("probes_repaired", 0))
            pr = "%d (%d)" % (th["probes"], th.get("probes_spurious", 0)) if th.get("probes") else "-"
            if "causes" in r:
                tot = {x: sum(d[x]["count"] for d in r["causes"].values()) for x in CAUSES}
                row.update(causes=tot, spurious=r["spurious"], overhead=r["overhead"],
                           capture=r["capture_complete"])
                rt = "%d/%d/%d" % (tot["TO"], tot["FR"], tot["B"])
                sp, ov = str(r["spurious"]), "%.2f" % r["overhead"] if r["overhead"] else "-"
                cap = "-" if r["capture_complete"] is None else "%.0f %%" % (100 * r["capture_complete"])
            else:
                rt = sp = ov = cap = "n/a"
            rows.append(row)
            md.append("| %s | %s | %d/%d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                res["cell"], n, r["received"], r["sent"], f1(a.get("mean")), f1(a.get("p99")),
                f1(a.get("p999")), f1(a.get("max")),
                "-" if a.get("late_pct") is None else "%.2f %%" % a["late_pct"], rt, sp, ov, cap, pr))
    json.dump(rows, open(os.path.join(root, "matrix.json"), "w"), indent=1)
    open(os.path.join(root, "matrix.md"), "w").write("\n".join(md) + "\n")
    if rows:
        names = order({r["variant"] for r in rows})
        cn = [os.path.basename(c) for c in cells]
        fig, ax = plt.subplots(figsize=(max(6, 1.4 * len(cn)), 4.5))
        w = 0.8 / len(names)
        for i, n in enumerate(names):
            y = [next((r["p99"] or 0 for r in rows if r["cell"] == c and r["variant"] == n), 0)
                 for c in cn]
            ax.bar(np.arange(len(cn)) + i * w, y, w, label=n)
        ax.set_xticks(np.arange(len(cn)) + 0.4 - w / 2)
        ax.set_xticklabels(cn, rotation=20, fontsize=8)
        ax.set_ylabel("p99 application latency (ms)")
        ax.legend(fontsize=7, ncol=2)
        fig.tight_layout()
        fig.savefig(os.path.join(root, "matrix.png"), dpi=90)
        plt.close(fig)
    print("\n".join(md))


def main(argv):
    if len(argv) >= 2 and argv[0] == "--matrix":
        matrix(argv[1])
        return 0
    if not argv or argv[0].startswith("-"):
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    out, frw = None, 10.0
    i = 1
    while i < len(argv):
        if argv[i] == "--out":
            out = argv[i + 1]
        elif argv[i] == "--fr-window-ms":
            frw = float(argv[i + 1])
        i += 2
    _, md = analyze(argv[0], out, frw)
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Latency report of a demo run (scripts/demo.sh).

    report.py RESULTS_DIR

RESULTS_DIR holds one directory per receiver configuration: default/
(the receivers' delayed SACK as shipped) and, with DEMO_TUNED=1, tuned/
(delayed SACK off).  Each is a cell of tools/analyze.py, as
tests/demo/guest-demo.sh writes it: variants.txt, per variant the
thin-gen logs <v>.send.log ("assoc seq size send_ns") and <v>.sink.log
("assoc seq size send_ns recv_ns"), and the captures snd-<v>.pcap and
rcv-<v>.pcap.  analyze.py analyses each cell (analysis.json,
analysis.md and its plots in the cell): application-layer latency from
the logs, retransmissions and spurious ones from the captures.

Prints one table per configuration, the default one first, and a compact
comparison of the two; writes summary.md, summary.json and, per
configuration, latency-ccdf-<conf>.png (the tail on a log scale, as the
paper's Fig. 13 shows it) and latency-box-<conf>.png.
"""
import json
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analyze  # noqa: E402

ORDER = ["stock", "rto200", "rto200-si", "thin-noi", "thin", "thin-probe", "tcp", "tcp-thin"]
LABEL = {
    "stock": "lksctp (stock, rto_min 1000)",
    "rto200": "lksctp, rto_min 200",
    "rto200-si": "lksctp, rto_min 200, SACK_IMMEDIATELY",
    "thin-noi": "thin-sctp, all but the I-bit",
    "thin": "thin-sctp (all)",
    "thin-probe": "thin-sctp (all) + tail probe",
    "tcp": "TCP (RACK-TLP)",
    "tcp-thin": "TCP, thin linear timeouts",
}
CONFS = [
    ("default", "default receivers (delayed SACK 200 ms)"),
    ("tuned", "receivers tuned (delayed SACK off)"),
]
LATE_MS = analyze.LATE_MS


def profile(res):
    """The workload of the run: params.txt's "profile:" line (scripts/demo.sh);
    runs from before it had the paper's lab workload."""
    prof = {"name": "lab", "owd_ms": 50, "interval_ms": 250}
    try:
        with open(os.path.join(res, "params.txt")) as f:
            for line in f:
                if line.startswith("profile:"):
                    words = line.split()[1:]
                    prof["name"] = words[0]
                    prof.update({k: int(v) for k, v in (w.split("=") for w in words[1:])})
    except FileNotFoundError:
        pass
    return prof


def order(names):
    return [v for v in ORDER if v in names] + sorted(set(names) - set(ORDER))


def row(r):
    """The table's numbers of one variant of analyze.py's result."""
    a = r["app_latency_ms"]
    out = {"messages": r["received"], "sent": r["sent"],
           "mean_ms": a.get("mean"), "p50_ms": a.get("p50"), "p99_ms": a.get("p99"),
           "p999_ms": a.get("p999"), "max_ms": a.get("max"), "late_pct": a.get("late_pct"),
           "retransmissions": None, "spurious": None, "spurious_pct": None,
           "capture_complete": r.get("capture_complete")}
    if "causes" in r:
        rtx = sum(d[c]["count"] for d in r["causes"].values() for c in analyze.CAUSES)
        out.update(retransmissions=rtx, spurious=r["spurious"],
                   spurious_pct=100.0 * r["spurious"] / rtx if rtx else 0.0)
    return out


def ms(x):
    return "-" if x is None else "%.0f" % x


def spurious(s):
    if s["spurious"] is None:
        return "n/a"
    return "%d of %d (%.1f %%)" % (s["spurious"], s["retransmissions"], s["spurious_pct"])


def table(rows):
    lines = ["| variant | messages (sent) | mean | p50 | p99 | p99.9 | max "
             "| late >%d ms | spurious rtx (of all rtx) |" % LATE_MS,
             "|" + "---|" * 9]
    for v, s in rows.items():
        late = "-" if s["late_pct"] is None else "%.2f %%" % s["late_pct"]
        lines.append("| %s | %d (%d) | %s | %s | %s | %s | %s | %s | %s |" % (
            LABEL.get(v, v), s["messages"], s["sent"], ms(s["mean_ms"]), ms(s["p50_ms"]),
            ms(s["p99_ms"]), ms(s["p999_ms"]), ms(s["max_ms"]), late, spurious(s)))
    return lines


def side_by_side(summary):
    """p99, p99.9, max and the late share of both configurations."""
    a, b = (summary[c]["variants"] for c, _ in CONFS)
    lines = ["| variant | p99 | p99.9 | max | late >%d ms |" % LATE_MS,
             "|---|---|---|---|---|"]
    for v in order(set(a) | set(b)):
        x, y = a.get(v, {}), b.get(v, {})

        def pair(k, f=ms):
            return "%s / %s" % (f(x.get(k)), f(y.get(k)))
        lines.append("| %s | %s | %s | %s | %s |" % (
            LABEL.get(v, v), pair("p99_ms"), pair("p999_ms"), pair("max_ms"),
            pair("late_pct", lambda p: "-" if p is None else "%.2f %%" % p)))
    return lines


def plots(res, conf, title, lat, prof):
    names = list(lat)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for v in names:
        x = np.sort(lat[v])
        if not x.size:
            continue
        ccdf = 1.0 - np.arange(x.size) / x.size
        ax.step(x, ccdf, where="post", label=LABEL.get(v, v))
    ax.set_yscale("log")
    ax.set_xlabel("application-layer latency (ms)")
    ax.set_ylabel("fraction of messages later than x (1 - CDF)")
    ax.set_title("Latency tail, %s\nRTT %d ms, 5 %% loss, 100 B every %d ms"
                 % (title, 2 * prof["owd_ms"], prof["interval_ms"]), fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    ccdf_png = os.path.join(res, "latency-ccdf-%s.png" % conf)
    fig.savefig(ccdf_png, dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(8, 4.5))
    # Delayed: later than the one-way delay plus 0.7 RTT (the lab: 120 ms).
    slow = 2.4 * prof["owd_ms"]
    data = [lat[v][lat[v] > slow] for v in names]
    ax.boxplot(data, tick_labels=[LABEL.get(v, v) for v in names], whis=(1, 99),
               showfliers=True, flierprops={"markersize": 2})
    ax.set_ylabel("latency of delayed messages (> %.0f ms), ms" % slow)
    ax.set_title("Messages that needed a retransmission (whiskers: p1-p99), %s" % title,
                 fontsize=10)
    plt.setp(ax.get_xticklabels(), rotation=20, fontsize=7, ha="right")
    fig.tight_layout()
    box_png = os.path.join(res, "latency-box-%s.png" % conf)
    fig.savefig(box_png, dpi=110)
    plt.close(fig)
    return ccdf_png, box_png


def main(argv):
    if len(argv) != 1:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    res = argv[0]
    prof = profile(res)
    summary, md, pngs = {}, [], []
    for conf, title in CONFS:
        cell = os.path.join(res, conf)
        if not os.path.exists(os.path.join(cell, "variants.txt")):
            continue
        result, _ = analyze.analyze(cell)
        names = order(result["variants"])
        rows = {v: row(result["variants"][v]) for v in names}
        summary[conf] = {"label": title, "variants": rows}
        md += ["## %s" % title[0].upper() + title[1:], "",
               "Application-layer latency, ms (%s/)." % conf, ""]
        md += table(rows) + [""]
        short = ["%s %.0f %%" % (v, 100 * r["capture_complete"]) for v, r in rows.items()
                 if r["capture_complete"] is not None and r["capture_complete"] < 0.99]
        if short:
            md += ["The captures (tcpdump) missed packets: they matched only " +
                   ", ".join(short) + " of the messages sent; retransmission counts are "
                   "incomplete there.", ""]
        lat = {}
        for v in names:
            sink = analyze.read_log(os.path.join(cell, v + ".sink.log"), 5)
            lat[v] = np.array([(r - t) / 1e6 for _a, _s, _z, t, r in sink])
        pngs += plots(res, conf, title, lat, prof)
    if not summary:
        print("report: no default/ or tuned/ cell in %s" % res, file=sys.stderr)
        return 1
    if len(summary) == 2:
        md += ["## Beside each other: default receivers / receivers tuned", "",
               "Application-layer latency, ms; each cell: default / tuned.", ""] + side_by_side(summary) + [""]
    md += ["Workload profile: %s: RTT %d ms, 100 B every %d ms, 5 %% loss (params.txt)."
           % (prof["name"], 2 * prof["owd_ms"], prof["interval_ms"]), ""]
    text = "\n".join(md)
    print(text)
    with open(os.path.join(res, "summary.md"), "w") as f:
        f.write(text)
    with open(os.path.join(res, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print("plots: " + ", ".join(pngs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Latency report of a demo/experiment run directory.

Reads <variant>.txt (thin-lat sink summary) and <variant>.lat (one line per
message: assoc seq latency_us), prints a Markdown table, writes
summary.md, summary.json and plots: the latency CCDF (tail on a log scale,
as the paper's Fig. 13 shows the CDF's tail) and box plots.
"""
import json
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

ORDER = ["stock", "rto200", "thin", "tcp", "tcp-thin"]
LABEL = {
    "stock": "lksctp (stock)",
    "rto200": "lksctp, rto_min 200",
    "thin": "thin-sctp (all)",
    "tcp": "TCP (RACK-TLP)",
    "tcp-thin": "TCP, thin linear timeouts",
}
LATE_MS = 400


def load(res):
    runs = {}
    for name in sorted(os.listdir(res)):
        if not name.endswith(".lat"):
            continue
        v = name[:-4]
        lat = np.loadtxt(os.path.join(res, name), ndmin=2)
        ms = lat[:, 2] / 1000.0 if lat.size else np.array([])
        kv = {}
        txt = os.path.join(res, v + ".txt")
        if os.path.exists(txt):
            for line in open(txt):
                if "=" in line:
                    k, val = line.strip().split("=", 1)
                    kv[k] = val
        runs[v] = (ms, kv)
    return runs


def stats(ms, kv):
    sent = int(kv.get("sent", "0") or 0)
    return {
        "messages": int(ms.size),
        "sent": sent,
        "mean_ms": float(np.mean(ms)) if ms.size else None,
        "p50_ms": float(np.percentile(ms, 50)) if ms.size else None,
        "p99_ms": float(np.percentile(ms, 99)) if ms.size else None,
        "p999_ms": float(np.percentile(ms, 99.9)) if ms.size else None,
        "max_ms": float(np.max(ms)) if ms.size else None,
        "late_pct": float(100.0 * np.mean(ms > LATE_MS)) if ms.size else None,
        "dup_chunks": int(kv.get("dup_chunks", "0") or 0),
    }


def main():
    res = sys.argv[1]
    runs = load(res)
    order = [v for v in ORDER if v in runs] + sorted(set(runs) - set(ORDER))
    table = {v: stats(*runs[v]) for v in order}
    head = ("| variant | messages (sent) | mean | p50 | p99 | p99.9 | max "
            f"| late >{LATE_MS} ms | spurious (dup chunks) |")
    lines = [head, "|" + "---|" * 9]
    for v in order:
        s = table[v]
        spur = str(s["dup_chunks"]) if not v.startswith("tcp") else "n/a"
        lines.append(
            f"| {LABEL.get(v, v)} | {s['messages']} ({s['sent']}) "
            f"| {s['mean_ms']:.0f} | {s['p50_ms']:.0f} | {s['p99_ms']:.0f} "
            f"| {s['p999_ms']:.0f} | {s['max_ms']:.0f} "
            f"| {s['late_pct']:.2f} % | {spur} |")
    md = "\n".join(lines)
    print("Application-layer latency, ms\n")
    print(md)
    with open(os.path.join(res, "summary.md"), "w") as f:
        f.write(md + "\n")
    with open(os.path.join(res, "summary.json"), "w") as f:
        json.dump(table, f, indent=1)

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for v in order:
        ms = np.sort(runs[v][0])
        if not ms.size:
            continue
        ccdf = 1.0 - np.arange(ms.size) / ms.size
        ax.step(ms, ccdf, where="post", label=LABEL.get(v, v))
    ax.set_yscale("log")
    ax.set_xlabel("application-layer latency (ms)")
    ax.set_ylabel("fraction of messages later than x (1 - CDF)")
    ax.set_title("Latency tail: RTT 100 ms, 5 % loss, 100 B every 250 ms")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(res, "latency-ccdf.png"), dpi=110)

    fig, ax = plt.subplots(figsize=(7, 4.5))
    data = [runs[v][0][runs[v][0] > 120] for v in order]
    ax.boxplot(data, tick_labels=[LABEL.get(v, v) for v in order], whis=(1, 99),
               showfliers=True, flierprops={"markersize": 2})
    ax.set_ylabel("latency of delayed messages (> 120 ms), ms")
    ax.set_title("Messages that needed a retransmission (whiskers: p1-p99)")
    plt.setp(ax.get_xticklabels(), rotation=15, fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(res, "latency-box.png"), dpi=110)
    print(f"\nplots: {res}/latency-ccdf.png, {res}/latency-box.png")


if __name__ == "__main__":
    main()

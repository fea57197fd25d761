#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Thin/thick transitions over time (fairness part 3, issue 6).

    plot-states.py DIR [--out PNG]

DIR holds tests/bench/fairness.sh's part 3 files: p3-thin.state.log
(thin-gen --state-log: SCTP_THIN_INFO every 100 ms), p3-thin.send.log
(phase changes), p3-thin.sink.log and p3-greedy.sink.log (receive times).
Prints one Markdown row per phase (rate, goodput of both flows, share of
samples detected thin, mean packets in flight, loss estimate, transitions)
and draws goodput, packets in flight and the thin state against time.
"""
import argparse
import os
import sys

STATE_THIN = 0x01
STATE_CONGESTED = 0x04


def load_states(path):
    """Rows of (t_s, state, in_flight, lossrate, transitions, pkts_sent)."""
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            v = line.split()
            rows.append((float(v[0]) / 1000.0, int(v[2]), int(v[3]),
                         float(v[4]), int(v[5]), int(v[6])))
    return rows


def load_phases(send_log):
    """[(start_s, size, interval_ms)] relative to the first phase, and the
    realtime ns of the first message sent (the sink logs' origin)."""
    phases, first_ns, origin = [], None, None
    with open(send_log) as f:
        for line in f:
            if line.startswith("# phase "):
                kv = dict(x.split("=") for x in line.split()[3:])
                ns = int(kv["from_ns"])
                if origin is None:
                    origin = ns
                phases.append(((ns - origin) / 1e9, int(kv["size"]),
                               float(kv["interval"])))
            elif not line.startswith("#") and first_ns is None and line.strip():
                first_ns = int(line.split()[3])
    return phases, first_ns


def load_sink(path, origin_ns):
    """(recv_s, bytes) of every message, relative to origin_ns."""
    out = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            v = line.split()
            out.append(((int(v[4]) - origin_ns) / 1e9, int(v[2])))
    return out


def phase_table(phases, end_s, states, thin_rx, greedy_rx):
    """One dict per phase; the first 2 s of each are left out of the
    goodput and state averages (the queue settles)."""
    rows = []
    for k, (start, size, iv) in enumerate(phases):
        stop = phases[k + 1][0] if k + 1 < len(phases) else end_s
        a = min(start + 2.0, stop)
        w = max(stop - a, 1e-9)
        st = [r for r in states if a <= r[0] < stop]
        inside = [r for r in states if start <= r[0] < stop]
        rate = "greedy" if iv <= 1 else "%g/s" % (1000.0 / iv)
        rows.append({
            "phase": k, "rate": rate, "size": size, "from_s": start, "to_s": stop,
            "thin_kBps": sum(b for t, b in thin_rx if a <= t < stop) / w / 1000,
            "greedy_kBps": sum(b for t, b in greedy_rx if a <= t < stop) / w / 1000,
            "thin_share": (sum(1 for r in st if r[1] & STATE_THIN) / len(st)) if st else 0.0,
            "congested_share": (sum(1 for r in st if r[1] & STATE_CONGESTED) / len(st)) if st else 0.0,
            "in_flight": (sum(r[2] for r in st) / len(st)) if st else 0.0,
            "lossrate": (sum(r[3] for r in st) / len(st)) if st else 0.0,
            "transitions": (inside[-1][4] - inside[0][4]) if len(inside) > 1 else 0,
        })
    return rows


def markdown(rows):
    out = ["| phase | rate | thin-sctp kB/s | greedy stock kB/s | samples thin "
           "| in flight (mean) | loss estimate | transitions |",
           "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append("| %d (%.0f-%.0f s) | %s x %d B | %.1f | %.1f | %.0f %% | %.1f | %.3f | %d |" % (
            r["phase"], r["from_s"], r["to_s"], r["rate"], r["size"], r["thin_kBps"],
            r["greedy_kBps"], 100 * r["thin_share"], r["in_flight"], r["lossrate"],
            r["transitions"]))
    return "\n".join(out)


def binned(rx, end_s, width=1.0):
    n = int(end_s / width) + 1
    b = [0.0] * n
    for t, by in rx:
        if 0 <= t < n * width:
            b[int(t / width)] += by
    return [i * width for i in range(n)], [x / width / 1000 for x in b]


def plot(path, phases, end_s, states, thin_rx, greedy_rx):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(3, 1, figsize=(9, 7), sharex=True)
    for rx, lab in ((thin_rx, "thin-sctp (all mechanisms)"), (greedy_rx, "greedy stock lksctp")):
        x, y = binned(rx, end_s)
        ax[0].step(x, y, where="post", label=lab)
    ax[0].set_ylabel("goodput, kB/s (1 s bins)")
    ax[0].legend(loc="upper left", fontsize=8)
    t = [r[0] for r in states]
    ax[1].plot(t, [r[2] for r in states], lw=0.8, label="packets in flight")
    thr = [4.0 / (1 - min(r[3], 0.99)) for r in states]
    ax[1].plot(t, thr, lw=0.8, ls="--", label="threshold (pttfr + 1) / (1 - loss)")
    ax[1].set_yscale("symlog", linthresh=10)
    ax[1].set_ylabel("packets")
    ax[1].legend(loc="upper left", fontsize=8)
    ax[2].step(t, [1 if r[1] & STATE_THIN else 0 for r in states], where="post", label="thin")
    ax[2].step(t, [0.5 if r[1] & STATE_CONGESTED else 0 for r in states], where="post",
               label="congestion guard holds it thick")
    ax[2].set_yticks([0, 0.5, 1])
    ax[2].set_yticklabels(["thick", "guard", "thin"])
    ax[2].set_xlabel("seconds since the thin-sctp stream started")
    ax[2].legend(loc="center left", fontsize=8)
    for a in ax:
        for start, size, iv in phases[1:]:
            a.axvline(start, color="grey", lw=0.5)
    for start, size, iv in phases:
        ax[0].annotate("greedy" if iv <= 1 else "%g/s" % (1000.0 / iv), (start + 0.5, 0),
                       xycoords=("data", "axes fraction"), xytext=(0, 2),
                       textcoords="offset points", fontsize=8)
    fig.suptitle("1 Mbit/s, 50 ms each way: one stream from thin to greedy and back")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--out", help="PNG (default DIR/p3-states.png)")
    o = ap.parse_args()
    d = o.dir
    need = ["p3-thin.state.log", "p3-thin.send.log", "p3-thin.sink.log", "p3-greedy.sink.log"]
    for n in need:
        if not os.path.exists(os.path.join(d, n)):
            sys.exit("plot-states: %s: no %s" % (d, n))
    states = load_states(os.path.join(d, "p3-thin.state.log"))
    phases, first_ns = load_phases(os.path.join(d, "p3-thin.send.log"))
    if not states or not phases or first_ns is None:
        sys.exit("plot-states: %s: empty state or send log" % d)
    thin_rx = load_sink(os.path.join(d, "p3-thin.sink.log"), first_ns)
    greedy_rx = load_sink(os.path.join(d, "p3-greedy.sink.log"), first_ns)
    end_s = states[-1][0]
    rows = phase_table(phases, end_s, states, thin_rx, greedy_rx)
    print(markdown(rows))
    png = o.out or os.path.join(d, "p3-states.png")
    plot(png, phases, end_s, states, thin_rx, greedy_rx)
    print("plot-states: %s" % png)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Latency of bench-scale runs, each N against the smallest N (issue 6).

usage: scale-report.py [--skip S] DIR

DIR holds tests/bench/scale.sh's sink logs, <n>-<variant>.sink.log
("assoc seq size send_ns recv_ns").  For every run it prints the message
count, mean and quantiles of the application latency and the share of
messages later than each bound in BOUNDS_MS with its 95 % Wilson interval.
Each run is then compared with the same variant's run at the smallest N:
it is "no worse" when its median is at most MEDIAN_SLACK_MS above the
baseline's and, for every bound, its share of late messages is not
significantly higher (its Wilson interval reaches down to the baseline's
share's upper bound).  --skip S leaves out each run's first S seconds of
messages (from its first send), to show the steady state apart from a
start-up transient.  Comparing quantiles such as p99 directly misleads
when the runs differ a hundredfold in size: at 1 % loss, the p99 of 450
messages sits just below the retransmitted ones, that of 45,000 among them.
"""
import math
import os
import re
import sys

BOUNDS_MS = (100, 200, 400, 1000)
MEDIAN_SLACK_MS = 5.0


def wilson(k, n, z=1.96):
    """95 % Wilson score interval of a proportion k/n, as (lo, hi)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def quantile(v, q):
    """v sorted; nearest rank."""
    return v[min(len(v) - 1, max(0, math.ceil(q * len(v)) - 1))]


def load(path, skip_s=0.0):
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            p = line.split()
            if len(p) >= 5:
                rows.append((int(p[3]), int(p[4])))
    t0 = min((r[0] for r in rows), default=0)
    lat = sorted((r - s) / 1e6 for s, r in rows if s >= t0 + skip_s * 1e9)
    return lat


def stats(lat):
    n = len(lat)
    s = {"n": n}
    if not n:
        return s
    s["mean"] = sum(lat) / n
    for name, q in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("p999", 0.999)):
        s[name] = quantile(lat, q)
    s["max"] = lat[-1]
    for b in BOUNDS_MS:
        k = n - bisect_right(lat, b)
        s["late%d" % b] = (k, wilson(k, n))
    return s


def bisect_right(v, x):
    lo, hi = 0, len(v)
    while lo < hi:
        m = (lo + hi) // 2
        if x < v[m]:
            hi = m
        else:
            lo = m + 1
    return lo


def no_worse(run, base):
    """(verdict, reasons) of run against base."""
    why = []
    if run["p50"] > base["p50"] + MEDIAN_SLACK_MS:
        why.append("median %.1f > %.1f + %.0f ms" % (run["p50"], base["p50"], MEDIAN_SLACK_MS))
    for b in BOUNDS_MS:
        _, (lo, _) = run["late%d" % b]
        _, (_, bhi) = base["late%d" % b]
        if lo > bhi:
            why.append("later than %d ms: %.2f %% (lower bound %.2f %%) > %.2f %%"
                       % (b, 100 * run["late%d" % b][0] / run["n"], 100 * lo, 100 * bhi))
    return not why, why


def pct(k, n):
    return 100.0 * k / n if n else 0.0


def report(d, skip_s=0.0):
    runs = {}
    for name in os.listdir(d):
        m = re.fullmatch(r"(\d+)-(\w+)\.sink\.log", name)
        if m:
            runs[(int(m.group(1)), m.group(2))] = stats(load(os.path.join(d, name), skip_s))
    if not runs:
        print("scale-report: no <n>-<variant>.sink.log in %s" % d, file=sys.stderr)
        return 2
    out = ["| N | variant | messages | mean | p50 | p90 | p99 | p99.9 | max | "
           + " | ".join("> %d ms (%%)" % b for b in BOUNDS_MS) + " | vs smallest N |",
           "|---" * (10 + len(BOUNDS_MS)) + "|"]
    bad = 0
    for v in sorted({v for _, v in runs}):
        ns = sorted(n for n, w in runs if w == v)
        base = runs[(ns[0], v)]
        for n in ns:
            s = runs[(n, v)]
            if not s["n"]:
                out.append("| %d | %s | 0 | | | | | | | %s | no messages |"
                           % (n, v, " | ".join("" for _ in BOUNDS_MS)))
                bad += 1
                continue
            late = " | ".join("%.2f [%.2f, %.2f]" % (pct(s["late%d" % b][0], s["n"]),
                                                     100 * s["late%d" % b][1][0],
                                                     100 * s["late%d" % b][1][1])
                              for b in BOUNDS_MS)
            if n == ns[0] or not base["n"]:
                verdict = "baseline"
            else:
                ok, why = no_worse(s, base)
                verdict = "no worse" if ok else "WORSE: " + "; ".join(why)
                bad += not ok
            out.append("| %d | %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %s | %s |"
                       % (n, v, s["n"], s["mean"], s["p50"], s["p90"], s["p99"],
                          s["p999"], s["max"], late, verdict))
    print("\n".join(out))
    return 1 if bad else 0


def main(argv):
    skip = 0.0
    if len(argv) == 4 and argv[1] == "--skip":
        try:
            skip = float(argv[2])
        except ValueError:
            skip = -1.0
        argv = argv[:1] + argv[3:]
    if len(argv) != 2 or skip < 0:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    return report(argv[1], skip)


if __name__ == "__main__":
    sys.exit(main(sys.argv))

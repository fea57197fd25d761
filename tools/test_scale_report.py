#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Known-answer test of tools/scale-report.py on synthetic sink logs."""
import importlib.util
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
T0 = 1_700_000_000_000_000_000


def write(d, name, n, late_every, late_ms, base_ms=25.0, slow_first=0):
    """n messages of base_ms, every late_every-th one late_ms instead;
    the first slow_first messages (10 ms apart) 2000 ms."""
    with open(os.path.join(d, name), "w") as f:
        f.write("# thin-gen sink proto=sctp\n# assoc seq size send_ns recv_ns\n")
        for i in range(n):
            ms = late_ms if late_every and i % late_every == late_every - 1 else base_ms
            if i < slow_first:
                ms = 2000.0
            s = T0 + i * 10**7
            f.write("%d %d 100 %d %d\n" % (i % 10, i // 10, s, s + int(ms * 1e6)))


def main():
    passed = failed = 0

    def check(name, got, want):
        nonlocal passed, failed
        if got == want:
            passed += 1
            print("ok - %s" % name)
        else:
            failed += 1
            print("not ok - %s: got %r, want %r" % (name, got, want))

    spec = importlib.util.spec_from_file_location("sr", os.path.join(HERE, "scale-report.py"))
    sr = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sr)

    lo, hi = sr.wilson(10, 1000)
    check("wilson 1 % of 1000", (round(lo, 4), round(hi, 4)), (0.0054, 0.0183))
    check("wilson 0 of 0", sr.wilson(0, 0), (0.0, 1.0))
    v = sorted(float(i) for i in range(1, 101))
    check("p50 nearest rank", sr.quantile(v, 0.5), 50.0)
    check("p99 nearest rank", sr.quantile(v, 0.99), 99.0)
    s = sr.stats([25.0] * 99 + [300.0])
    check("late 200 ms count", s["late200"][0], 1)
    check("late 400 ms count", s["late400"][0], 0)
    check("mean", round(s["mean"], 2), 27.75)

    with tempfile.TemporaryDirectory() as d:
        # baseline: 1 % at 300 ms; the big run the same (no worse), a
        # second variant whose big run has 5 % at 300 ms (worse), and a
        # third whose big run's median moved by 10 ms (worse).
        write(d, "10-thin.sink.log", 1000, 100, 300.0)
        write(d, "1000-thin.sink.log", 100000, 100, 300.0)
        write(d, "10-stock.sink.log", 1000, 100, 1100.0)
        write(d, "1000-stock.sink.log", 100000, 20, 1100.0)
        write(d, "10-slow.sink.log", 1000, 0, 0)
        write(d, "1000-slow.sink.log", 100000, 0, 0, base_ms=35.0)
        r = subprocess.run([sys.executable, os.path.join(HERE, "scale-report.py"), d],
                           stdout=subprocess.PIPE, text=True)
        rows = {tuple(line.split("|")[1:3]): line for line in r.stdout.splitlines()}
        row = {(k[0].strip(), k[1].strip()): v for k, v in rows.items() if len(k) == 2}
        check("exit status with a worse run", r.returncode, 1)
        check("thin 1000 no worse", row[("1000", "thin")].rstrip(" |").endswith("no worse"), True)
        check("thin 10 is the baseline", "baseline" in row[("10", "thin")], True)
        check("stock 1000 worse at 200 ms",
              "WORSE" in row[("1000", "stock")] and "later than 200 ms" in row[("1000", "stock")],
              True)
        check("median shift is worse", "median 35.0 > 25.0" in row[("1000", "slow")], True)
        check("message count", row[("1000", "thin")].split("|")[3].strip(), "100000")
        for f in ("10-stock", "1000-stock", "10-slow", "1000-slow"):
            os.remove(os.path.join(d, f + ".sink.log"))
        r = subprocess.run([sys.executable, os.path.join(HERE, "scale-report.py"), d],
                           stdout=subprocess.PIPE, text=True)
        check("exit status when no worse", r.returncode, 0)
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run([sys.executable, os.path.join(HERE, "scale-report.py"), d],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        check("no logs fails", r.returncode == 2 and "no <n>-<variant>" in r.stderr, True)
        # a start-up transient: the first 10 s (1000 of 20,000 messages)
        # late; the baseline lasts 50 s
        write(d, "10-thin.sink.log", 5000, 100, 300.0)
        write(d, "1000-thin.sink.log", 20000, 100, 300.0, slow_first=1000)
        cmd = [sys.executable, os.path.join(HERE, "scale-report.py")]
        r = subprocess.run(cmd + [d], stdout=subprocess.PIPE, text=True)
        check("transient counted", r.returncode, 1)
        r = subprocess.run(cmd + ["--skip", "11", d], stdout=subprocess.PIPE, text=True)
        check("--skip 11 leaves the transient out", r.returncode, 0)
        check("--skip 11 message count", "| 1000 | thin | 18900 |" in r.stdout, True)
        r = subprocess.run(cmd + ["--skip", "-1", d], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        check("negative --skip fails", r.returncode, 2)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

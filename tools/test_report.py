#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Known-answer test of tools/report.py on a synthetic demo run.

default/ holds test_analyze's cell (variant "all": 4 retransmissions in
its captures, 1 spurious; "tcp": no captures) and a "stock" variant of
1000 messages with known latencies and no captures; tuned/ holds the
same "stock" variant with other latencies.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import test_analyze  # noqa: E402

T0, MS = test_analyze.T0, test_analyze.MS


def stock(d, slow_ms):
    """1000 messages: 990 at 60 ms, 9 at 500 ms, 1 at slow_ms; 1010 sent."""
    with open(os.path.join(d, "stock.send.log"), "w") as snd, \
            open(os.path.join(d, "stock.sink.log"), "w") as snk:
        snd.write("# thin-gen send\n# assoc seq size send_ns\n")
        snk.write("# thin-gen sink\n# assoc seq size send_ns recv_ns\n")
        for i in range(1010):
            t = T0 + i * 250 * MS
            snd.write("%d %d 100 %d\n" % (i % 20, i // 20, t))
            if i >= 1000:
                continue
            lat = 60 if i < 990 else (500 if i < 999 else slow_ms)
            snk.write("%d %d 100 %d %d\n" % (i % 20, i // 20, t, t + lat * MS))
    with open(os.path.join(d, "variants.txt"), "a") as f:
        f.write("stock port=7011 proto=sctp module=stock receivers=x options=defaults\n")


def main():
    passed = failed = 0

    def check(cond, what):
        nonlocal passed, failed
        if cond:
            passed += 1
        else:
            failed += 1
            print("not ok - " + what)

    with tempfile.TemporaryDirectory() as res:
        default, tuned = os.path.join(res, "default"), os.path.join(res, "tuned")
        os.makedirs(default)
        os.makedirs(tuned)
        test_analyze.Cell(default)
        stock(default, 2000)
        stock(tuned, 1000)
        out = subprocess.run([sys.executable, os.path.join(HERE, "report.py"), res],
                             check=True, stdout=subprocess.PIPE, text=True).stdout
        summary = json.load(open(os.path.join(res, "summary.json")))
        s = summary["default"]["variants"]["stock"]
        want = {"messages": 1000, "sent": 1010, "p50_ms": 60.0, "max_ms": 2000.0,
                "late_pct": 1.0, "mean_ms": (990 * 60 + 9 * 500 + 2000) / 1000}
        for k, v in want.items():
            check(abs(s[k] - v) < 1e-6, "default stock %s: %s != %s" % (k, s[k], v))
        check(s["spurious"] is None, "stock without captures: spurious n/a")
        a = summary["default"]["variants"]["all"]
        check((a["retransmissions"], a["spurious"]) == (4, 1),
              "all: retransmissions, spurious %s" % ((a["retransmissions"], a["spurious"]),))
        check(abs(a["spurious_pct"] - 25.0) < 1e-6, "all: spurious share")
        check(summary["tuned"]["variants"]["stock"]["max_ms"] == 1000.0, "tuned stock max")
        check(list(summary["default"]["variants"])[:1] == ["stock"], "stock first")
        md = open(os.path.join(res, "summary.md")).read()
        i = md.find("Default receivers (delayed SACK 200 ms)")
        j = md.find("Receivers tuned (delayed SACK off)")
        check(0 <= i < j, "default table first, both labelled")
        check("| thin-sctp" not in md and "| lksctp (stock, rto_min 1000) | 1000 (1010) |" in md,
              "stock row")
        check("| all | 9 (9) |" in md and "1 of 4 (25.0 %)" in md, "all row")
        check("| TCP (RACK-TLP) | 1 (1) |" in md and md.count("n/a") == 3,
              "n/a without captures")
        # p99 of 990 x 60, 9 x 500, 1 x slow: 60 + 0.01 * 440
        check("| lksctp (stock, rto_min 1000) | 64 / 64 | 502 / 501 | 2000 / 1000 |" in md,
              "side by side")
        check(out.startswith("## Default receivers"), "printed")
        for conf in ("default", "tuned"):
            for png in ("latency-ccdf", "latency-box"):
                fn = os.path.join(res, "%s-%s.png" % (png, conf))
                check(os.path.exists(fn) and os.path.getsize(fn) > 1000, fn)
            check(os.path.exists(os.path.join(res, conf, "analysis.json")), conf + " analysed")
        # default alone: no tuned table, no comparison
        shutil.rmtree(tuned)
        os.remove(os.path.join(res, "summary.md"))
        subprocess.run([sys.executable, os.path.join(HERE, "report.py"), res],
                       check=True, stdout=subprocess.DEVNULL)
        md = open(os.path.join(res, "summary.md")).read()
        check("Default receivers" in md and "tuned" not in md, "default only")
        check(list(json.load(open(os.path.join(res, "summary.json")))) == ["default"],
              "summary.json: default only")
        check("Workload profile: lab: RTT 100 ms, 100 B every 250 ms" in md,
              "no params.txt: the paper's lab profile")
        # DEMO_PROFILE=telecom's params.txt line
        with open(os.path.join(res, "params.txt"), "w") as f:
            f.write("thin-sctp: x\nprofile: telecom owd_ms=5 interval_ms=100\n")
        subprocess.run([sys.executable, os.path.join(HERE, "report.py"), res],
                       check=True, stdout=subprocess.DEVNULL)
        md = open(os.path.join(res, "summary.md")).read()
        check("Workload profile: telecom: RTT 10 ms, 100 B every 100 ms" in md,
              "telecom profile from params.txt")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

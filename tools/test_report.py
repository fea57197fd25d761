#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Known-answer test of tools/report.py on a synthetic run directory."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    passed = failed = 0
    with tempfile.TemporaryDirectory() as d:
        # 1000 messages: 990 at 60 ms, 9 at 500 ms, 1 at 2000 ms
        with open(os.path.join(d, "stock.lat"), "w") as f:
            for i in range(1000):
                us = 60000 if i < 990 else (500000 if i < 999 else 2000000)
                f.write(f"{i % 20} {i // 20} {us}\n")
        with open(os.path.join(d, "stock.txt"), "w") as f:
            f.write("dup_chunks=7\nsent=1000\n")
        subprocess.run([sys.executable, os.path.join(HERE, "report.py"), d],
                       check=True, stdout=subprocess.DEVNULL)
        s = json.load(open(os.path.join(d, "summary.json")))["stock"]
        want = {"messages": 1000, "sent": 1000, "p50_ms": 60.0,
                "max_ms": 2000.0, "late_pct": 1.0, "dup_chunks": 7,
                "mean_ms": (990 * 60 + 9 * 500 + 2000) / 1000}
        for k, v in want.items():
            if abs(s[k] - v) < 1e-6:
                passed += 1
            else:
                failed += 1
                print(f"not ok - {k}: {s[k]} != {v}")
        for png in ("latency-ccdf.png", "latency-box.png"):
            ok = os.path.getsize(os.path.join(d, png)) > 1000
            passed += ok
            failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

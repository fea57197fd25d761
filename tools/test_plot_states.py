#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Known-answer test of tools/plot-states.py on synthetic part 3 logs."""
import importlib.util
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
T0 = 1_700_000_000_000_000_000   # realtime ns of the first message
M0 = 5_000_000_000               # monotonic ns of phase 0


def write_logs(d):
    # phases: 0-10 s 4/s x 100 B, 10-20 s greedy 1400 B every 1 ms, 20-30 s 4/s
    with open(os.path.join(d, "p3-thin.send.log"), "w") as f:
        f.write("# thin-gen send proto=sctp\n# assoc seq size send_ns\n")
        f.write("# phase 0 size=100 interval=250 from_ns=%d\n" % M0)
        f.write("0 0 100 %d\n" % T0)
        f.write("# phase 1 size=1400 interval=1 from_ns=%d\n" % (M0 + 10 * 10**9))
        f.write("# phase 2 size=100 interval=250 from_ns=%d\n" % (M0 + 20 * 10**9))
    with open(os.path.join(d, "p3-thin.state.log"), "w") as f:
        f.write("# t_ms assoc state in_flight lossrate transitions ...\n")
        tr = 0
        for i in range(300):
            t = i * 100
            greedy = 10000 <= t < 20000
            # detection lags the rate change by 500 ms
            thin = not (10500 <= t < 20500)
            if t in (10500, 20500):
                tr += 1
            state = 1 if thin else (4 if 15000 <= t < 20500 else 0)
            f.write("%.1f 0 %d %d %.4f %d %d 0 0 0 %d\n" % (
                t, state, 30 if greedy else 1, 0.05 if greedy else 0.0, tr, i, i))
    with open(os.path.join(d, "p3-thin.sink.log"), "w") as f:
        f.write("# assoc seq size send_ns recv_ns\n")
        for ms in range(0, 30000, 250):
            if not 10000 <= ms < 20000:
                ns = T0 + ms * 10**6
                f.write("0 0 100 %d %d\n" % (ns, ns + 50 * 10**6))
        for ms in range(10000, 20000, 10):
            ns = T0 + ms * 10**6
            f.write("0 0 1400 %d %d\n" % (ns, ns + 50 * 10**6))
    with open(os.path.join(d, "p3-greedy.sink.log"), "w") as f:
        f.write("# assoc seq size send_ns recv_ns\n")
        for ms in range(0, 30000, 20):
            ns = T0 + ms * 10**6
            f.write("0 0 1000 %d %d\n" % (ns, ns + 50 * 10**6))


def main():
    spec = importlib.util.spec_from_file_location("plot_states", os.path.join(HERE, "plot-states.py"))
    ps = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ps)
    passed = failed = 0

    def check(name, got, want, tol=1e-6):
        nonlocal passed, failed
        if abs(got - want) <= tol:
            passed += 1
        else:
            failed += 1
            print("not ok - %s: %s != %s" % (name, got, want))

    with tempfile.TemporaryDirectory() as d:
        write_logs(d)
        states = ps.load_states(os.path.join(d, "p3-thin.state.log"))
        phases, first = ps.load_phases(os.path.join(d, "p3-thin.send.log"))
        check("phases", len(phases), 3)
        check("phase 1 start", phases[1][0], 10.0)
        check("first_ns", first, T0)
        rows = ps.phase_table(phases, 30.0, states,
                              ps.load_sink(os.path.join(d, "p3-thin.sink.log"), first),
                              ps.load_sink(os.path.join(d, "p3-greedy.sink.log"), first))
        # averages leave out each phase's first 2 s (8 s windows)
        check("thin goodput phase 0", rows[0]["thin_kBps"], 0.4, 1e-3)
        check("thin goodput phase 1", rows[1]["thin_kBps"], 140.0, 1e-3)
        check("greedy goodput", rows[2]["greedy_kBps"], 50.0, 1e-3)
        check("thin share phase 0", rows[0]["thin_share"], 1.0)
        check("thin share phase 1", rows[1]["thin_share"], 0.0)
        check("thin share phase 2", rows[2]["thin_share"], 1.0)
        check("congested phase 1", rows[1]["congested_share"], 50 / 80)
        check("in flight phase 1", rows[1]["in_flight"], 30.0)
        check("loss phase 1", rows[1]["lossrate"], 0.05)
        check("transitions phase 1", rows[1]["transitions"], 1)
        check("transitions phase 2", rows[2]["transitions"], 1)
        check("transitions phase 0", rows[0]["transitions"], 0)
        md = ps.markdown(rows)
        check("markdown rows", len(md.splitlines()), 5)
        r = subprocess.run([sys.executable, os.path.join(HERE, "plot-states.py"), d],
                           stdout=subprocess.PIPE, text=True)
        check("exit status", r.returncode, 0)
        png = os.path.join(d, "p3-states.png")
        check("png written", os.path.exists(png) and os.path.getsize(png) > 1000, True)
        os.remove(os.path.join(d, "p3-greedy.sink.log"))
        r = subprocess.run([sys.executable, os.path.join(HERE, "plot-states.py"), d],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        check("missing file fails", r.returncode != 0 and "no p3-greedy" in r.stderr, True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Times two commands in interleaved runs (A, B, A, B, …) and prints the
median of the per-pair ratios A/B, of wall time and of CPU time (user +
system of the child), as one tab-separated line:

    wall_ratio  cpu_ratio  a_wall_median  b_wall_median  a_cpu_median  b_cpu_median

On a shared machine the load moves between two runs of hyperfine taken one
after the other; a ratio of runs taken side by side is the steadier figure.

    bench/paired.py RUNS "COMMAND A" "COMMAND B"
"""
import os
import shlex
import statistics
import subprocess
import sys
import time


def run(cmd):
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(cmd)}")
    return wall, ru.ru_utime + ru.ru_stime


def main():
    runs = int(sys.argv[1])
    a, b = shlex.split(sys.argv[2]), shlex.split(sys.argv[3])
    run(a), run(b)  # warm the page cache
    pairs = [(run(a), run(b)) for _ in range(runs)]
    med = statistics.median
    print("\t".join(f"{x:.6f}" for x in (
        med(x[0] / y[0] for x, y in pairs),
        med(x[1] / y[1] for x, y in pairs),
        med(x[0] for x, _ in pairs), med(y[0] for _, y in pairs),
        med(x[1] for x, _ in pairs), med(y[1] for _, y in pairs),
    )))


main()

#!/usr/bin/env python3
"""The cost of one line in a warm REPL, for the benchmark.

    bench/repl_session.py PLANFORGE STORE PLAN LINES

Starts `PLANFORGE --store STORE -p PLAN repl` with its input and output on
pipes, sends `status` (which loads the plan) and waits for its answer, then
sends LINES `add-node` lines one at a time (a new join each), each timed
from the write of the line to the read of the last line of its echo (the
plan-wide counts). Prints `median seconds<TAB>fastest seconds` and exits 1
when the REPL refuses a line or ends early.

Timing each line inside one session leaves the session's cold load (seconds
at 100,000 nodes, and varying more than a line costs) out of the figure; a
script of lines less a script of none, timed whole, could not.
"""

import statistics
import subprocess
import sys
import time


def main():
    pf, store, plan, lines = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    repl = subprocess.Popen(
        [pf, "--store", store, "-p", plan, "repl"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        bufsize=1,
    )

    def answer(last):
        """Reads the answer to one line, up to the line starting `last`."""
        while True:
            line = repl.stdout.readline()
            if not line:
                sys.exit(f"the REPL ended early: {repl.stderr.read()[:500]}")
            if line.startswith("error"):
                sys.exit(f"the REPL refused a line: {line.strip()}")
            if line.startswith(last):
                return

    repl.stdin.write("status\n")
    repl.stdin.flush()
    answer("Issues:")
    tag = time.time_ns()
    times = []
    for i in range(lines):
        start = time.perf_counter()
        repl.stdin.write(f"add-node bench_repl_{tag}_{i} --kind join\n")
        repl.stdin.flush()
        answer("Plan-wide:")
        times.append(time.perf_counter() - start)
    repl.stdin.close()
    repl.wait()
    print(f"{statistics.median(times)}\t{min(times)}")


if __name__ == "__main__":
    main()

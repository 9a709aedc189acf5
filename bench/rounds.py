#!/usr/bin/env python3
"""Times several commands in interleaved rounds (each round runs every
command once, in order) and prints each command's wall times as one JSON
object, `{"name": [seconds, …], …}`, on one line.

    bench/rounds.py [--pause SECONDS] RUNS NAME COMMAND PREPARE [NAME COMMAND PREPARE …]

COMMAND runs without a shell unless it holds shell syntax; PREPARE
(a shell command, untimed, may be empty) runs before each run of its
COMMAND. In each round every command runs twice, the first run untimed:
what the other commands ran in between (`jq` on a 100,000-node document
touches 500 MB) leaves a command's files out of the CPU caches, and the
timed run finds them as a series of runs of the same command does (as
hyperfine's figures do). With `--pause SECONDS`, each timed run instead
follows its preparation after that long idle, as a person or a model
runs a command after reading the last answer (no untimed run first). A
command that fails ends the script with exit 1.

A ratio of two commands is steadiest as the median of its per-round
ratios: on a shared machine the load moves within a minute, and two
figures taken in the same round saw the same load (see bench/paired.py,
which does this for two commands and their CPU times too).
"""
import json
import shlex
import subprocess
import sys
import time


def argv(cmd):
    """A plain command runs without a shell (as hyperfine -N runs it: no
    shell start-up in the figure); one with shell syntax in a shell."""
    return ["sh", "-c", cmd] if any(c in cmd for c in "|&;<>()$`") else shlex.split(cmd)


def run(cmd, prep, pause=None):
    if prep:
        subprocess.run(prep, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if pause:
        time.sleep(pause)
    t = time.perf_counter()
    done = subprocess.run(argv(cmd), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    if done.returncode != 0:
        sys.exit(f"failed (exit {done.returncode}): {cmd}")
    return wall


def main():
    args = sys.argv[1:]
    pause = None
    if args[:1] == ["--pause"]:
        pause = float(args[1])
        args = args[2:]
    if len(args) < 4 or (len(args) - 1) % 3:
        sys.exit(__doc__)
    runs = int(args[0])
    specs = [tuple(args[i:i + 3]) for i in range(1, len(args), 3)]
    walls = {name: [] for name, _, _ in specs}
    for _ in range(runs):
        for name, cmd, prep in specs:
            if pause is None:
                run(cmd, prep)
                walls[name].append(run(cmd, prep))
            else:
                walls[name].append(run(cmd, prep, pause))
    print(json.dumps(walls))


if __name__ == "__main__":
    main()

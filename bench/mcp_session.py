#!/usr/bin/env python3
"""A small MCP client for the benchmark: one warm `planforge mcp` session.

    bench/mcp_session.py [--think SECONDS] PLANFORGE STORE PLAN NODE [CALLS]

Starts `PLANFORGE --store STORE mcp`, initialises the session over a raw
stdio pipe (newline-delimited JSON-RPC, as the MCP stdio transport frames
it), makes one warm-up call of each kind, then times CALLS rounds of
`add_node` (a new join node each time), `connect_nodes` (from it to NODE: a join's one handle),
`plan_status` and `plan_read` of NODE, each round-trip measured from the
write of the request to the read of its reply. Prints one line per tool,
`name<TAB>median seconds<TAB>fastest seconds`, and exits 1 when a call
fails.

By default the calls go back to back, as a script would send them. With
`--think SECONDS` the client waits that long before each call (not timed),
as a model does between its calls (it reads the answer and writes the
next call): what a session does between calls (a digest computed ahead
after a write) is then off the measured path. Say which figure is which.
"""

import json
import os
import statistics
import subprocess
import sys
import time


def main():
    args = sys.argv[1:]
    think = 0.0
    if args[:1] == ["--think"]:
        think = float(args[1])
        args = args[2:]
    pf, store, plan, node = args[:4]
    calls = int(args[4]) if len(args) > 4 else 20
    proc = subprocess.Popen(
        [pf, "--store", store, "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    ids = iter(range(1, 1 << 30))
    # New node ids in every session: an add of a node that is already there
    # changes nothing (and would measure nothing).
    tag = f"{os.getpid()}_{int(time.time())}"

    def send(msg):
        proc.stdin.write((json.dumps(msg) + "\n").encode())
        proc.stdin.flush()

    def request(method, params):
        i = next(ids)
        send({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
        while True:
            line = proc.stdout.readline()
            if not line:
                sys.exit(f"planforge mcp closed the session during {method}")
            reply = json.loads(line)
            if reply.get("id") == i:
                return reply

    request("initialize", {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "planforge-bench", "version": "1"},
    })
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def call(name, args):
        if think > 0:
            time.sleep(think)
        t = time.perf_counter()
        reply = request("tools/call", {"name": name, "arguments": args})
        took = time.perf_counter() - t
        result = reply.get("result") or {}
        if "error" in reply or result.get("isError"):
            sys.exit(f"{name} failed: {json.dumps(reply)[:2000]}")
        return took

    times = {"add_node": [], "connect_nodes": [], "plan_status": [], "plan_read NODE": []}
    for k in range(calls + 1):
        extra = f"bench_warm_{tag}_{k}"
        t_add = call("add_node", {"planId": plan, "node": {"id": extra, "kind": "join", "definition": {}}})
        t_con = call("connect_nodes", {"planId": plan, "edge": {"from": extra, "to": node}})
        t_st = call("plan_status", {"planId": plan})
        t_rd = call("plan_read", {"planId": plan, "node": node})
        if k == 0:
            continue  # the first round loads the plan: not a warm call
        times["add_node"].append(t_add)
        times["connect_nodes"].append(t_con)
        times["plan_status"].append(t_st)
        times["plan_read NODE"].append(t_rd)
    proc.stdin.close()
    proc.wait(timeout=60)
    for name, ts in times.items():
        print(f"{name}\t{statistics.median(ts)}\t{min(ts)}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Instructions per warm call (callgrind), for the warm write path (issue 17).

    bench/warm_callgrind.py PLANFORGE STORE PLAN NODE [N]

Runs `valgrind --tool=callgrind PLANFORGE --store STORE mcp` on pipelined
requests (initialise, one cold `plan_status`, then N rounds of one kind of
call) for each kind, and once with N = 0, and prints one line per kind:
`name<TAB>instructions per call<TAB>instructions of the N = 0 session`
(the difference divided by N). Every kind writes to a copy of STORE, so
each run starts from the same log. Instruction counts do not depend on the
machine's load, unlike wall time.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile


def requests(plan, node, kind, n, tag):
    msgs = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "planforge-bench", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    calls = [("plan_status", {"planId": plan})]
    for k in range(n):
        extra = f"cg_{tag}_{k}"
        add = ("add_node", {"planId": plan, "node": {"id": extra, "kind": "join", "definition": {}}})
        con = ("connect_nodes", {"planId": plan, "edge": {"from": extra, "to": node}})
        if kind == "add_node":
            calls += [add]
        elif kind == "connect_nodes":
            calls += [add, con]
        elif kind == "plan_status":
            calls += [add, con, ("plan_status", {"planId": plan})]
    for i, (name, args) in enumerate(calls):
        msgs.append({"jsonrpc": "2.0", "id": 10 + i, "method": "tools/call",
                     "params": {"name": name, "arguments": args}})
    return "".join(json.dumps(m) + "\n" for m in msgs)


def instructions(pf, store, text):
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "store")
        shutil.copytree(store, copy)
        out = os.path.join(tmp, "cg.out")
        r = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", pf, "--store", copy, "mcp"],
            input=text.encode(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        replies = [json.loads(l) for l in r.stdout.decode().splitlines() if l.strip()]
        for rep in replies:
            if "error" in rep or (rep.get("result") or {}).get("isError"):
                sys.exit(f"a call failed: {json.dumps(rep)[:1000]}")
        m = re.search(r"Collected : (\d+)", r.stderr.decode())
        if not m:
            sys.exit(r.stderr.decode()[-2000:])
        return int(m.group(1)), len(replies)


def main():
    pf, store, plan, node = sys.argv[1:5]
    n = int(sys.argv[5]) if len(sys.argv) > 5 else 10
    kinds = sys.argv[6].split(",") if len(sys.argv) > 6 else ["add_node", "connect_nodes", "plan_status"]
    base, _ = instructions(pf, store, requests(plan, node, "none", 0, "b"))
    print(f"session (init + cold plan_status)\t{base}\t{base}")
    prev = 0
    for kind in kinds:
        total, got = instructions(pf, store, requests(plan, node, kind, n, kind))
        per_round = (total - base) / n
        # Each kind's round includes the earlier kinds' calls: subtract them.
        print(f"{kind}\t{per_round - prev:.0f}\t{total}")
        prev = per_round


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Bytes per model-facing answer on a generated plan (issue 13's cases).

    cargo build --release --example gen_plan && cargo build --release
    python3 bench/answer_bytes.py [--nodes 5000] [--bin target/release/planforge]

Makes a store in a temp folder, imports a generated plan, and runs each tool
call the way a model's MCP call runs (`planforge tool NAME ARGS`, the same
tool table and adapter as the server), printing the bytes of each answer as
a Markdown table.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ap = argparse.ArgumentParser()
ap.add_argument("--nodes", type=int, default=5000)
ap.add_argument("--bin", default="target/release/planforge")
ap.add_argument("--gen", default="target/release/examples/gen_plan")
a = ap.parse_args()
BIN = os.path.abspath(a.bin)
GEN = os.path.abspath(a.gen)
PLAN = "plan-big"


def run(args, stdin=None, ok=(0, 1)):
    p = subprocess.run([BIN] + args, input=stdin, capture_output=True, text=True, env=ENV)
    if p.returncode not in ok:
        sys.exit(f"{args[:3]}: exit {p.returncode}: {p.stderr[:500]}")
    return p


def tool(name, args):
    p = run(["tool", name, json.dumps(args)], ok=(0, 1, 2, 3))
    return p.stdout + p.stderr


rows = []


def measure(case, name, args):
    out = tool(name, args)
    rows.append((case, name, len(out.encode())))
    return out


tmp = tempfile.mkdtemp(prefix="pf-bytes-")
ENV = dict(os.environ, NO_COLOR="1", COLUMNS="100", PLANFORGE_STORE=os.path.join(tmp, "plans"))
run(["init"])
doc = subprocess.run([GEN, "--nodes", str(a.nodes), "--phases", "8", "--seed", "1",
                      "--registry-out", os.path.join(tmp, "plans", "registry.yaml")],
                     capture_output=True, text=True, check=True).stdout
d = json.loads(doc)
# One large phase, as the issue's testers had (the generator cuts phases in
# parts that fit one read): the parts of each phase joined again.
import re
for n in d["nodes"]:
    if n.get("phase"):
        n["phase"] = re.sub(r"_[0-9]+$", "", n["phase"])
doc = json.dumps(d)
path = os.path.join(tmp, "big.json")
open(path, "w").write(doc)
run(["import", path, "--id", PLAN])
ins, outs = {}, {}
for e in d["edges"]:
    ins[e["to"]] = ins.get(e["to"], 0) + 1
    outs[e["from"]] = outs.get(e["from"], 0) + 1
chain = [n["id"] for n in d["nodes"] if ins.get(n["id"]) == 1 and outs.get(n["id"]) == 1]
phases = {}
for n in d["nodes"]:
    phases.setdefault(n.get("phase"), []).append(n["id"])
phase, members = max(phases.items(), key=lambda kv: len(kv[1]))

measure(f"plan_read of phase `{phase}` ({len(members)} nodes)", "plan_read", {"planId": PLAN, "phase": phase})
measure("plan_outline", "plan_outline", {"planId": PLAN})
# A node with 21 successors.
hub = "hub_node"
measure("add_node (an entry-less call)", "add_node", {"planId": PLAN, "node": {"id": hub, "kind": "reason", "definition": {"prompt": [{"text": "Decide."}], "outputSchema": {"type": "string"}}}})
for i in range(21):
    tool("connect_nodes", {"planId": PLAN, "edge": {"from": hub, "to": members[i + 1]}})
measure("connect_nodes (21st successor)", "connect_nodes", {"planId": PLAN, "edge": {"from": hub, "to": members[30]}})
measure("plan_read of a node with 22 successors", "plan_read", {"planId": PLAN, "node": hub})
args = {f"a{i}": f"value number {i} " * 3 for i in range(100)}
measure("add_node with 100 arguments", "add_node", {"planId": PLAN, "node": {"id": "wide", "kind": "call", "definition": {"tool": "tickets_get", "args": args, "output": [{"path": "x", "type": "string", "maxBytes": 10}], "replaySafe": True}}})
parts = [{"text": f"Part {i}: consider the ticket carefully and weigh every factor before answering."} for i in range(60)]
measure("add_node, a 60-part prompt", "add_node", {"planId": PLAN, "node": {"id": "long_prompt", "kind": "reason", "definition": {"prompt": parts, "outputSchema": {"type": "string"}}}})
raw = json.loads(run(["raw", "-p", PLAN, "--format", "json"]).stdout)
edge = next(e["id"] for e in raw["edges"] if e["from"] == hub)
measure("disconnect_edge", "disconnect_edge", {"planId": PLAN, "edgeId": edge})
victim = chain[len(chain) // 2]
measure(f"remove_node `{victim}` (middle of a chain)", "remove_node", {"planId": PLAN, "nodeId": victim})
measure("validate_plan after the removal", "validate_plan", {"planId": PLAN})
measure("freeze_plan refusal after the removal", "freeze_plan", {"planId": PLAN})
measure("plan_status", "plan_status", {"planId": PLAN})

# A chain of the same size, broken in the middle: the error cascade.
CHAIN = "plan-chain"
call = {"tool": "tickets_get", "output": [{"path": "v", "type": "string", "maxBytes": 100}],
        "onMissingValue": "fail", "onIndeterminate": "retry", "replaySafe": True,
        "authority": [{"capability": "tickets", "scope": "support", "verb": "read"}],
        "declassifies": ["v"]}
nodes = [{"id": "start", "kind": "entry", "definition": {"input": []}}]
edges = []
prev = "start"
for i in range(1, a.nodes):
    nid = f"n{i:06d}"
    args = {"id": "fixed"} if i == 1 else {"id": {"$ref": {"node": prev, "select": "first", "path": "v"}}}
    nodes.append({"id": nid, "phase": f"p{i * 8 // a.nodes}", "kind": "call", "definition": dict(call, args=args)})
    edges.append({"from": prev, "to": nid})
    prev = nid
chain = {"planId": CHAIN, "nodes": nodes, "edges": edges,
         "bounds": {"maxNodes": 2 * a.nodes, "maxEdges": 4 * a.nodes, "maxSteps": 40 * a.nodes,
                    "maxConcurrentFrames": 32, "maxEncodedBytes": 100_000_000}}
cpath = os.path.join(tmp, "chain.json")
open(cpath, "w").write(json.dumps(chain))
run(["import", cpath, "--id", CHAIN])
middle = f"n{a.nodes * 2 // 5:06d}"
measure(f"remove_node `{middle}` of a {a.nodes}-node chain", "remove_node", {"planId": CHAIN, "nodeId": middle})
measure("validate_plan after the chain broke", "validate_plan", {"planId": CHAIN})
measure("freeze_plan refusal after the chain broke", "freeze_plan", {"planId": CHAIN})
measure("validate_plan, maxBytes 65536", "validate_plan", {"planId": CHAIN, "maxBytes": 65536})

print(f"| case ({a.nodes}-node plan) | tool | bytes |")
print("|---|---|---:|")
for case, name, n in rows:
    print(f"| {case} | `{name}` | {n:,} |")

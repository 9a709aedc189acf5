#!/usr/bin/env python3
"""An independent MCP client for `planforge mcp`, on the official Python SDK.

`cargo test` runs it (`the_official_python_sdk_client_passes` in
tests/mcp.rs) with the Python of a virtual environment that has the pinned
SDK: PLANFORGE_MCP_PYTHON, else `.venv/bin/python`. By hand:

    python3 -m venv .venv && .venv/bin/pip install mcp==2.3.0
    cargo build && .venv/bin/python tests/mcp_client.py [PATH_TO_PLANFORGE]

It makes a fresh store in a temp folder, connects over stdio
(ClientSession + stdio_client), lists the tools and checks every tool's
title and annotations, builds a three-node plan, expects freeze to be
refused (isError) naming the node and the tool, fixes it, freezes, submits,
reads the `$ref` back from raw_plan in wire form, expects a later mutation
to be refused, and checks the unknown-key and read-only refusals. Then the
retries a model makes: `connect_nodes` sent twice leaves one edge, an
identical `add_node` sent twice is a success that changes nothing,
`undo_change` after `remove_node` brings the node and its edges back, and
(over a raw pipe, since the SDK sends only well-formed frames) truncated
JSON and invalid UTF-8 frames get -32700 replies while the session goes on.
It prints each step and exits 1 at the first surprise.
"""

import asyncio
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

AUTHORING = {
    "create_plan", "add_node", "set_node_config", "set_node_field",
    "set_node_phase", "connect_nodes", "remove_node", "disconnect_edge",
    "set_bounds", "undo_change", "clone_plan", "orchestrate_plan", "get_plan", "validate_plan", "freeze_plan",
    "unfreeze_plan", "submit_plan", "plan_status", "raw_plan", "raw_diff",
    "raw_ops", "plan_outline", "plan_read", "explain_issue",
}
PLAN = "plan-pyclient"
REF = {"$ref": {"node": "start", "select": "first", "path": "ticket"}}


def check(cond, what, detail=""):
    if not cond:
        print(f"FAIL: {what}\n{detail}")
        sys.exit(1)
    print(f"ok   {what}")


def text_of(result):
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def call(session, name, args):
    result = await session.call_tool(name, args)
    return bool(result.is_error), text_of(result)


async def session_for(binary, store, extra, body):
    params = StdioServerParameters(command=binary, args=["--store", store, "mcp", *extra])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await body(session)


async def build(session):
    tools = (await session.list_tools()).tools
    names = {t.name for t in tools}
    check(names == AUTHORING, f"tools/list has exactly the {len(AUTHORING)} authoring tools",
          sorted(names ^ AUTHORING))
    by = {t.name: t for t in tools}
    for t in tools:
        a = t.annotations
        check(bool(t.title) and a is not None and a.open_world_hint is False
              and all(isinstance(h, bool) for h in (a.read_only_hint, a.destructive_hint,
                                                      a.idempotent_hint)),
              f"{t.name}: titled, all four hints, closed world", repr(t))
    check(by["plan_outline"].annotations.read_only_hint is True, "plan_outline is readOnlyHint")
    check(all(by[n].annotations.destructive_hint is True
              for n in ("remove_node", "disconnect_edge", "submit_plan", "set_node_field",
                        "undo_change")),
          "remove_node, disconnect_edge, submit_plan, set_node_field, undo_change are destructiveHint")
    check(by["undo_change"].annotations.idempotent_hint is False, "undo_change is not idempotentHint")

    err, text = await call(session, "create_plan", {"planId": PLAN})
    check(not err, "create_plan", text)
    nodes = [
        {"id": "start", "phase": "intake", "kind": "entry",
         "definition": {"input": [{"path": "ticket", "type": "string"}]}},
        {"id": "fetch", "phase": "work", "kind": "call", "definition": {
            "tool": "read_artifcat", "args": {"path": REF},
            "output": [{"path": "content", "type": "string"}],
            "onMissingValue": "fail",
            "authority": [{"capability": "artifacts", "scope": "tickets", "verb": "read"}],
            "replaySafe": True, "onIndeterminate": "retry", "declassifies": ["content"]}},
        {"id": "summarize", "phase": "work", "kind": "reason", "definition": {
            "prompt": [{"text": "Summarise the ticket"},
                       {"$ref": {"node": "fetch", "select": "first", "path": "content"}}],
            "outputSchema": {"type": "object", "properties": {"summary": {"type": "string"}}},
            "maxAttempts": 2}},
    ]
    for n in nodes:
        err, text = await call(session, "add_node", {"planId": PLAN, "node": n})
        check(not err and len(text) <= 1200, f"add_node {n['id']} ({len(text)} bytes)", text)
    for edge in ({"from": "start", "to": "fetch"}, {"from": "fetch", "to": "summarize"}):
        err, text = await call(session, "connect_nodes", {"planId": PLAN, "edge": edge})
        check(not err, f"connect_nodes {edge['from']} → {edge['to']}", text)

    err, text = await call(session, "plan_outline", {"planId": PLAN})
    check(not err and "fetch" in text, "plan_outline", text)
    print("     " + text.replace("\n", "\n     "))
    err, text = await call(session, "plan_read", {"planId": PLAN, "node": "fetch"})
    check(not err and "start__fetch" in text, "plan_read node fetch (boundary edge start__fetch)", text)

    err, text = await call(session, "freeze_plan", {"planId": PLAN})
    check(err and "fetch" in text and "read_artifcat" in text,
          "freeze_plan refused (isError), naming node `fetch` and tool `read_artifcat`", text)
    print("     " + text.replace("\n", "\n     "))
    err, text = await call(session, "set_node_field",
                           {"planId": PLAN, "nodeId": "fetch", "path": "tool", "value": "read_artifact"})
    check(not err, "set_node_field fetch.tool = read_artifact", text)
    err, text = await call(session, "freeze_plan", {"planId": PLAN})
    check(not err and "reviewable" in text, "freeze_plan accepted", text)
    err, text = await call(session, "submit_plan", {"planId": PLAN, "decidedBy": "owner"})
    check(not err and "executable" in text, "submit_plan", text)
    print("     " + text.replace("\n", "\n     "))

    err, text = await call(session, "raw_plan", {"planId": PLAN})
    raw = json.loads(text)
    fetch = next(n for n in raw["nodes"] if n["id"] == "fetch")
    check(not err and fetch["definition"]["args"]["path"] == REF,
          "raw_plan returns the $ref in wire form", json.dumps(fetch["definition"]["args"]))
    print("     args.path = " + json.dumps(fetch["definition"]["args"]["path"]))

    err, text = await call(session, "add_node", {"planId": PLAN, "node": {
        "id": "late", "kind": "join", "definition": {}}})
    check(err and "executable" in text, "a later add_node is refused", text)
    print("     " + text.replace("\n", "\n     "))

    err, text = await call(session, "create_plan", {"planId": "plan-other", "lable": "typo"})
    check(err and "`lable`" in text, "an unknown argument key is refused, naming it", text)
    print("     " + text.replace("\n", "\n     "))


async def read_only(session):
    err, text = await call(session, "add_node", {"planId": PLAN, "node": {
        "id": "x", "kind": "join", "definition": {}}})
    check(err and "read-only" in text, "--read-only: add_node refused", text)
    err, text = await call(session, "plan_outline", {"planId": PLAN})
    check(not err and "fetch" in text, "--read-only: plan_outline works", text)


async def front(session):
    names = [t.name for t in (await session.list_tools()).tools]
    check(names == ["list_templates", "instantiate_plan", "author_plan"],
          "--tier front lists exactly three tools", names)
    err, text = await call(session, "list_templates", {})
    check(not err and "single" in text, "list_templates", text)
    err, text = await call(session, "instantiate_plan", {"template": "single", "args": {
        "role": "researcher", "goal": "Find the three cheapest flights",
        "input": "dates: May 3-5", "output": "flights.md", "synthesis": "summary.md"}})
    check(not err and "Issues: 0 blocking" in text, "instantiate_plan single", text)
    request = 'Refill my prescription "as usual"\nat the Holly Springs Walgreens'
    err, text = await call(session, "author_plan", {"request": request})
    check(not err and "Holly Springs Walgreens" in text, "author_plan keeps the request", text)
    print("     " + text.replace("\n", "\n     "))


RETRY = "plan-retries"


async def raw(session, plan):
    err, text = await call(session, "raw_plan", {"planId": plan})
    check(not err and "\n" not in text, "raw_plan answers in compact JSON", text[:200])
    doc = json.loads(text)
    key = lambda x: x["id"]
    return doc["revision"], sorted(doc["nodes"], key=key), sorted(doc["edges"], key=key)


async def retries(session):
    """What a model's retries must do: nothing more, and say it succeeded."""
    err, text = await call(session, "create_plan", {"planId": RETRY})
    check(not err, "create_plan", text)
    start = {"id": "start", "kind": "entry",
             "definition": {"input": [{"path": "ticket", "type": "string"}]}}
    for attempt in ("", " again, identical"):
        err, text = await call(session, "add_node", {"planId": RETRY, "node": start})
        check(not err, f"add_node start{attempt}: a success", text)
    rev, nodes, _ = await raw(session, RETRY)
    check(rev == 1 and len(nodes) == 1, "the identical add_node changed nothing", f"rev {rev}, {nodes}")
    for n in ("work", "done"):
        node = {"id": n, "kind": "join", "definition": {}}
        err, text = await call(session, "add_node", {"planId": RETRY, "node": node})
        check(not err, f"add_node {n}", text)
    edge = {"from": "start", "to": "work"}
    for attempt in ("", " again"):
        err, text = await call(session, "connect_nodes", {"planId": RETRY, "edge": edge})
        check(not err and "start__work" in text, f"connect_nodes start → work{attempt}", text)
    rev, _, edges = await raw(session, RETRY)
    check(rev == 4 and [e["id"] for e in edges] == ["start__work"],
          "connect_nodes sent twice leaves one edge", json.dumps(edges))
    for e in ({"from": "work", "to": "done"}, {"from": "start", "to": "done", "handle": "always"}):
        err, text = await call(session, "connect_nodes", {"planId": RETRY, "edge": e})
        check(not err, f"connect_nodes {e['from']} → {e['to']}", text)
    _, nodes, edges = await raw(session, RETRY)
    err, text = await call(session, "remove_node", {"planId": RETRY, "nodeId": "work"})
    check(not err, "remove_node work (and its 2 edges)", text)
    err, text = await call(session, "undo_change", {"planId": RETRY})
    check(not err and "undid" in text, "undo_change", text)
    _, nodes_after, edges_after = await raw(session, RETRY)
    check((nodes_after, edges_after) == (nodes, edges),
          "undo_change brought back the node and every edge", json.dumps(edges_after))


def raw_frames(binary, store):
    """Frames no SDK would send, over a plain pipe: each gets -32700 and the
    session goes on."""
    proc = subprocess.Popen([binary, "--store", store, "mcp"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    lines = queue.Queue()

    def pump():
        for line in proc.stdout:
            lines.put(line)
    threading.Thread(target=pump, daemon=True).start()

    def send(frame):
        proc.stdin.write(frame + b"\n")
        proc.stdin.flush()

    def reply():
        try:
            return json.loads(lines.get(timeout=20))
        except queue.Empty:
            check(False, "a reply within 20 s")

    try:
        send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw-pipe", "version": "0"}}}).encode())
        check(reply().get("id") == 1, "raw pipe: initialize")
        send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')
        for what, frame in (
            ("truncated JSON", b'{"jsonrpc": "2.0", "id": 2, "method": "tools/list"'),
            ("invalid UTF-8", b'{"jsonrpc": "2.0", "id": 3, "method": "\xff\xfe"}'),
        ):
            send(frame)
            r = reply()
            check(r.get("error", {}).get("code") == -32700 and r.get("id") is None,
                  f"raw pipe: {what} gets -32700", json.dumps(r))
        send(b'{"jsonrpc": "2.0", "id": 4, "method": "tools/list"}')
        r = reply()
        check(r.get("id") == 4 and len(r["result"]["tools"]) == len(AUTHORING),
              "raw pipe: the session goes on (tools/list answered)", json.dumps(r)[:300])
    finally:
        proc.stdin.close()
        code = proc.wait(timeout=20)
    check(code == 0, "raw pipe: the server exits 0 when its stdin closes", str(code))


BIG = "plan-budget"
CALL = {"tool": "tickets_get", "output": [{"path": "v", "type": "string", "maxBytes": 100}],
        "onMissingValue": "fail", "onIndeterminate": "retry", "replaySafe": True,
        "authority": [{"capability": "tickets", "scope": "support", "verb": "read"}],
        "declassifies": ["v"]}
ECHO, READ, FINDINGS = 1200, 16 * 1024, 4 * 1024


def chain_document(n):
    """A 5,000-node chain with one 600-node phase: start → n000001 → … ."""
    nodes = [{"id": "start", "kind": "entry", "definition": {"input": []}}]
    edges = []
    prev = "start"
    for i in range(1, n):
        nid = f"n{i:06d}"
        args = {"id": "fixed"} if i == 1 else {
            "id": {"$ref": {"node": prev, "select": "first", "path": "v"}}}
        phase = "wide" if i <= 600 else f"p{i // 30}"
        nodes.append({"id": nid, "phase": phase, "kind": "call",
                      "definition": dict(CALL, args=args)})
        edges.append({"from": prev, "to": nid})
        prev = nid
    return {"planId": BIG, "nodes": nodes, "edges": edges,
            "bounds": {"maxNodes": 2 * n, "maxEdges": 4 * n, "maxSteps": 40 * n,
                       "maxConcurrentFrames": 32, "maxEncodedBytes": 100_000_000}}


async def budgets(session):
    """Issue 13's budgets, on a 5,000-node plan: every answer within its bytes."""
    def within(text, limit, what):
        n = len(text.encode())
        check(n <= limit, f"{what} is within {limit} bytes", f"{n} bytes:\n{text[:600]}")
        print(f"ok: {what}: {n} bytes")
    err, text = await call(session, "plan_read", {"planId": BIG, "phase": "wide"})
    check(not err, "plan_read of a 600-node phase", text)
    within(text, READ, "plan_read of a 600-node phase")
    for i in range(1, 601):
        check(f"n{i:06d}" in text, f"plan_read names node n{i:06d}", text[-400:])
    args = {f"a{i}": f"value number {i} " * 3 for i in range(100)}
    wide = {"id": "wide_call", "kind": "call", "definition": dict(CALL, args=args)}
    err, text = await call(session, "add_node", {"planId": BIG, "node": wide})
    check(not err, "add_node with 100 arguments", text)
    within(text, ECHO, "add_node with 100 arguments")
    parts = [{"text": f"Part {i}: weigh every factor before answering."} for i in range(60)]
    reason = {"id": "long_prompt", "kind": "reason",
              "definition": {"prompt": parts, "outputSchema": {"type": "string"}}}
    err, text = await call(session, "add_node", {"planId": BIG, "node": reason})
    within(text, ECHO, "add_node of a 60-part prompt")
    err, text = await call(session, "connect_nodes",
                           {"planId": BIG, "edge": {"from": "n000010", "to": "wide_call"}})
    within(text, ECHO, "connect_nodes")
    err, text = await call(session, "remove_node", {"planId": BIG, "nodeId": "n002000"})
    check(not err, "remove_node in the middle of the chain", text)
    within(text, ECHO, "remove_node")
    for tool in ("validate_plan", "freeze_plan"):
        err, text = await call(session, tool, {"planId": BIG})
        within(text, FINDINGS, f"{tool} after the chain broke")
        check("nodes cannot be reached from the entry" in text and "nothing connects to" in text
              and "n002001" in text and "reads `n002000`" in text,
              f"{tool} says how many nodes are unreachable and from where", text)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.join(here, "..", "target", "debug", "planforge")
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else default)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([binary, "init"], cwd=tmp, check=True, capture_output=True)
        store = os.path.join(tmp, "plans")
        asyncio.run(session_for(binary, store, [], build))
        asyncio.run(session_for(binary, store, [], retries))
        doc = os.path.join(tmp, "budget.json")
        with open(doc, "w") as f:
            json.dump(chain_document(5000), f)
        subprocess.run([binary, "--store", store, "import", doc], check=True, capture_output=True)
        asyncio.run(session_for(binary, store, [], budgets))
        raw_frames(binary, store)
        asyncio.run(session_for(binary, store, ["--read-only"], read_only))
        asyncio.run(session_for(binary, store, ["--tier", "front"], front))
    print("all passed")


if __name__ == "__main__":
    main()

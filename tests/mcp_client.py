#!/usr/bin/env python3
"""An independent MCP client for `planforge mcp`, on the official Python SDK.

Not run by `cargo test` (it needs `pip install mcp`). Run it by hand:

    cargo build && python3 tests/mcp_client.py [PATH_TO_PLANFORGE]

It makes a fresh store in a temp folder, connects over stdio
(ClientSession + stdio_client), lists the tools, builds a three-node plan,
expects freeze to be refused (isError) naming the node and the tool, fixes
it, freezes, submits, reads the `$ref` back from raw_plan in wire form,
expects a later mutation to be refused, and checks the unknown-key and
read-only refusals. It prints each step and exits 1 at the first surprise.
"""

import asyncio
import json
import os
import subprocess
import sys
import tempfile

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

AUTHORING = {
    "create_plan", "add_node", "set_node_config", "set_node_field",
    "set_node_phase", "connect_nodes", "remove_node", "disconnect_edge",
    "set_bounds", "clone_plan", "get_plan", "validate_plan", "freeze_plan",
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
    check(by["plan_outline"].annotations.read_only_hint is True, "plan_outline is readOnlyHint")
    check(all(by[n].annotations.destructive_hint is True
              for n in ("remove_node", "disconnect_edge", "submit_plan")),
          "remove_node, disconnect_edge, submit_plan are destructiveHint")

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


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.join(here, "..", "target", "debug", "planforge")
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else default)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([binary, "init"], cwd=tmp, check=True, capture_output=True)
        store = os.path.join(tmp, "plans")
        asyncio.run(session_for(binary, store, [], build))
        asyncio.run(session_for(binary, store, ["--read-only"], read_only))
        asyncio.run(session_for(binary, store, ["--tier", "front"], front))
    print("all passed")


if __name__ == "__main__":
    main()

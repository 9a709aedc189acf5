#!/usr/bin/env python3
"""A real LSP client for `planforge lsp`, on pygls (with lsprotocol's types).

`cargo test` runs it (`a_real_lsp_client_passes` in tests/lsp.rs) with the
Python of a virtual environment that has the pinned packages:
PLANFORGE_MCP_PYTHON, else `.venv/bin/python`. By hand:

    .venv/bin/pip install pygls==2.1.1 lsprotocol==2025.0.0
    cargo build && .venv/bin/python tests/lsp_client.py [PATH_TO_PLANFORGE]

In a temp folder it makes a store (`planforge init`) with a registry and a
plan document beside it with three problems, starts `planforge lsp` there,
and checks: three diagnostics at the right ranges (with codes, links and
fixes); an edit that fixes one publishes two; go to definition on a `$ref`'s
node lands on that node's `id` value; find references; hover on a node id
and on a tool name; the outline as symbols; completion inside `"node": "`
offers the upstream node ids first (also with the closing quote not typed
yet); a code action fixes the wrong handle; a missing `select` and a
suppression as code actions; a document that is not valid JSON mid-typing
gets a diagnostic at the syntax error and the server keeps answering; YAML
documents get the same diagnostics, definitions and hovers; a 10,000-node
document gets its diagnostics, in JSON and in YAML (each with the fixing
edit, definition, upstream completion and the handle's action); shutdown and exit end the server with 0;
malformed messages are answered -32700/-32600 and the server goes on, and
`exit` with no `shutdown` exits 1; the messages around `initialize`, a body
with no header and a request with a null id get the answers the specification
gives; a registry edited on disk (didChangeWatchedFiles, the watchers
registered dynamically) and a settings file saved re-check the open
documents; and
(with a second server, debounced by a second) a burst of five changes is
validated once.
It prints each step and exits 1 at the first surprise.
"""

import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from lsprotocol import types as t
from pygls.lsp.client import LanguageClient

TIMEOUT = 120.0

REGISTRY = """tools:
  tickets_get:
    summary: "Fetch one ticket by id"
    returns: text
    requiredArgs: [id]
  tickets_comment:
    summary: "Post a comment on a ticket"
    returns: text
    requiredArgs: [ticket, text]
"""

PLAN = """{
  "formatVersion": 1,
  "planId": "plan-triage",
  "nodes": [
    {"id": "start", "kind": "entry", "definition": {"input": [{"path": "ticket_id", "type": "string", "maxBytes": 64}]}},
    {"id": "fetch", "kind": "call", "phase": "gather", "definition": {
      "tool": "tickets_gett",
      "args": {"id": {"$ref": {"node": "start", "select": "first", "path": "ticket_id"}}},
      "output": [{"path": "id", "type": "string"}, {"path": "body", "type": "string"}],
      "onMissingValue": "fail", "authority": [{"capability": "tickets", "scope": "support", "verb": "read"}],
      "replaySafe": true, "onIndeterminate": "retry", "declassifies": ["id", "body"]}},
    {"id": "post", "kind": "call", "phase": "act", "definition": {
      "tool": "tickets_comment",
      "args": {"ticket": {"$ref": {"node": "fetchh", "select": "first", "path": "id"}}, "text": "thanks"},
      "output": [], "onMissingValue": "fail", "authority": [{"capability": "tickets", "scope": "support", "verb": "update"}],
      "replaySafe": false, "onIndeterminate": "halt"}}
  ],
  "edges": [
    {"id": "e1", "from": "start", "to": "fetch", "handle": "always"},
    {"id": "e2", "from": "fetch", "to": "post", "handle": "alwayz"}
  ]
}
"""

YAML = """formatVersion: 1
planId: plan-triage-yaml
nodes:
  - id: start
    kind: entry
    definition:
      input: [{path: ticket_id, type: string, maxBytes: 64}]
  - id: fetch
    kind: call
    phase: gather
    definition:
      tool: tickets_gett
      args:
        id: {$ref: {node: start, select: first, path: ticket_id}}
      output: [{path: id, type: string}, {path: body, type: string}]
      onMissingValue: fail
      authority: [{capability: tickets, scope: support, verb: read}]
      replaySafe: true
      onIndeterminate: retry
      declassifies: [id, body]
  - id: post
    kind: call
    phase: act
    definition:
      tool: tickets_comment
      args:
        ticket: {$ref: {node: fetchh, select: first, path: id}}
        text: thanks
      output: []
      onMissingValue: fail
      authority: [{capability: tickets, scope: support, verb: update}]
      replaySafe: false
      onIndeterminate: halt
edges:
  - {id: e1, from: start, to: fetch, handle: always}
  - {id: e2, from: fetch, to: post, handle: alwayz}
"""


def check(cond, what, detail=""):
    if not cond:
        print(f"FAIL: {what}\n{detail}", flush=True)
        sys.exit(1)
    print(f"ok   {what}", flush=True)


def position(text, offset):
    """The LSP position (UTF-16) of a character offset."""
    before = text[:offset]
    line = before.count("\n")
    start = before.rfind("\n") + 1
    return t.Position(line=line, character=len(before[start:].encode("utf-16-le")) // 2)


def span(text, needle, nth=0, inner=0):
    """The range of the nth occurrence of needle (shrunk by `inner` chars at both ends)."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    return t.Range(start=position(text, at + inner), end=position(text, at + len(needle) - inner))


def offset_of(text, pos):
    lines = text.split("\n")
    return sum(len(l) + 1 for l in lines[: pos.line]) + pos.character


def apply(text, edits):
    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        a, b = offset_of(text, e.range.start), offset_of(text, e.range.end)
        text = text[:a] + e.new_text + text[b:]
    return text


def rng(r):
    return (r.start.line, r.start.character, r.end.line, r.end.character)


class Session:
    def __init__(self):
        self.client = LanguageClient("planforge-tests", "0")
        self.published = asyncio.Queue()

        self.seen = []

        @self.client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params):
            self.seen.append(params.version)
            self.published.put_nowait(params)

        self.versions = {}
        self.texts = {}

    async def diagnostics(self, uri, version):
        """The diagnostics published for this version of the document."""
        while True:
            p = await asyncio.wait_for(self.published.get(), TIMEOUT)
            if p.uri == uri and p.version == version:
                return p.diagnostics

    async def until(self, uri, pred):
        """The first diagnostics published for `uri` (any version) that `pred` accepts."""
        while True:
            p = await asyncio.wait_for(self.published.get(), TIMEOUT)
            if p.uri == uri and pred(p.diagnostics):
                return p.diagnostics

    def open(self, uri, text, language="json"):
        self.versions[uri] = 1
        self.texts[uri] = text
        self.client.text_document_did_open(
            t.DidOpenTextDocumentParams(
                text_document=t.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)
            )
        )
        return 1

    def replace(self, uri, r, new_text):
        """An incremental change: `r` replaced by `new_text`."""
        self.versions[uri] += 1
        text = self.texts[uri]
        a, b = offset_of(text, r.start), offset_of(text, r.end)
        self.texts[uri] = text[:a] + new_text + text[b:]
        self.client.text_document_did_change(
            t.DidChangeTextDocumentParams(
                text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=[t.TextDocumentContentChangePartial(range=r, text=new_text)],
            )
        )
        return self.versions[uri]

    def set_text(self, uri, text):
        """A whole-document change."""
        self.versions[uri] += 1
        self.texts[uri] = text
        self.client.text_document_did_change(
            t.DidChangeTextDocumentParams(
                text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=[t.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        return self.versions[uri]

    def at(self, uri, pos):
        return dict(text_document=t.TextDocumentIdentifier(uri=uri), position=pos)


def big_plan(n):
    nodes = [{"id": "start", "kind": "entry", "definition": {"input": [{"path": "ticket_id", "type": "string"}]}}]
    edges = []
    for i in range(1, n):
        nodes.append({"id": f"n{i}", "kind": "call", "phase": f"p{i // 30}", "definition": {
            "tool": "tickets_get" if i != n // 2 else "tickets_gett",
            "args": {"id": {"$ref": {"node": "start", "select": "first", "path": "ticket_id"}}},
            "output": [{"path": "id", "type": "string"}], "onMissingValue": "fail",
            "authority": [{"capability": "tickets", "scope": "support", "verb": "read"}],
            "replaySafe": True, "onIndeterminate": "retry", "declassifies": ["id"]}})
        edges.append({"id": f"e{i}", "from": "start" if i == 1 else f"n{i - 1}", "to": f"n{i}", "handle": "always"})
    return json.dumps({"formatVersion": 1, "planId": "plan-big", "bounds": {"maxNodes": n, "maxEdges": n, "maxSteps": 2 * n,
                        "maxConcurrentFrames": 4, "maxEncodedBytes": 64 * 1024 * 1024}, "nodes": nodes, "edges": edges}, indent=1)


def to_yaml(value):
    """A JSON value as block-style YAML: plain scalars where YAML reads them
    back as the same string, else JSON's double-quoted form."""
    plain = re.compile(r"^[A-Za-z_][A-Za-z0-9_./ -]*$")
    reserved = {"true", "false", "null", "yes", "no", "on", "off", "y", "n"}

    def scalar(v):
        if v is None or isinstance(v, bool):
            return json.dumps(v)
        if isinstance(v, (int, float)):
            return json.dumps(v)
        if plain.match(v) and v.lower() not in reserved and not v.endswith(" ") and " #" not in v:
            return v
        return json.dumps(v, ensure_ascii=False)

    def emit(v, indent, out):
        pad = "  " * indent
        if isinstance(v, dict):
            for k, x in v.items():
                out.append(f"\n{pad}{scalar(k)}:")
                member(x, indent + 1, out)
        else:
            for x in v:
                out.append(f"\n{pad}-")
                if isinstance(x, dict) and x:
                    sub = []
                    emit(x, indent + 1, sub)
                    # The first member on the dash's line.
                    out.append(" " + "".join(sub).lstrip("\n").lstrip(" "))
                else:
                    member(x, indent + 1, out)

    def member(x, indent, out):
        if isinstance(x, (dict, list)) and x:
            emit(x, indent, out)
        elif isinstance(x, dict):
            out.append(" {}")
        elif isinstance(x, list):
            out.append(" []")
        else:
            out.append(" " + scalar(x))

    out = []
    emit(value, 0, out)
    return "".join(out).lstrip("\n") + "\n"



async def big_cases(s, pf, root, env, language):
    """The cases at 10,000 nodes, in pretty-printed JSON or block-style YAML:
    the diagnostic at the right range (validate's), an edit that fixes it
    publishes none, go to definition from a `$ref`'s node, completion inside
    its value offers the upstream ids (nearest first), and the handle's code
    action."""
    yaml = language == "yaml"
    text = big_plan(10_000)
    if yaml:
        text = to_yaml(json.loads(text))
    # How a string is written: a plain scalar in YAML, quoted in JSON.
    q = (lambda v: v) if yaml else (lambda v: f'"{v}"')
    key = (lambda k: f"{k}: ") if yaml else (lambda k: f'"{k}": ')
    name = f"big10k.{language}"
    (root / "docs" / name).write_text(text)
    uri = (root / "docs" / name).as_uri()
    what = f"10,000 nodes in {language.upper()}"
    diags = await s.diagnostics(uri, s.open(uri, text, language))
    issues = validate_json(pf, root, env, "docs/" + name)
    want = [(i["code"], i["line"] - 1, i["column"] - 1, i["endLine"] - 1, i["endColumn"] - 1, i["message"])
            for i in issues]
    got = [(d.code,) + rng(d.range) + (d.message.split("\nhelp: ")[0],) for d in diags]
    check(got == want and [d.code for d in diags] == ["unknown_tool"]
          and rng(diags[0].range) == rng(span(text, q("tickets_gett"))),
          f"{what}: the diagnostic at the tool's value, validate's", (got, want))
    v = s.set_text(uri, text.replace(key("tool") + q("tickets_gett"), key("tool") + q("tickets_get")))
    check(len(await s.diagnostics(uri, v)) == 0, f"{what}: an edit that fixes it publishes none")
    text = s.texts[uri]
    at = text.index(key("node") + q("start"), text.index(q("n7000"))) + len(key("node")) + (0 if yaml else 1)
    loc = await s.client.text_document_definition_async(t.DefinitionParams(**s.at(uri, position(text, at))))
    check(loc is not None and rng(loc.range) == rng(span(text, q("start"), nth=0)),
          f"{what}: go to definition from a $ref's node lands on the node's id", loc)
    got = await s.client.text_document_completion_async(t.CompletionParams(**s.at(uri, position(text, at))))
    labels = [i.label for i in got.items]
    upstream = all(x == "start" or int(x[1:]) < 7000 for x in labels)
    check(labels and labels[0] == "n6999" and upstream and all(i.sort_text.startswith("0") for i in got.items)
          and got.is_incomplete,
          f"{what}: completion in a reference's node offers the upstream ids, nearest first", labels[:5])
    v = s.set_text(uri, text.replace(key("handle") + q("always"), key("handle") + q("alwayz"), 1))
    diags = await s.diagnostics(uri, v)
    check([d.code for d in diags] == ["invalid_handle"], f"{what}: a wrong handle",
          [(d.code, d.message) for d in diags])
    got = await s.client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), range=diags[0].range,
        context=t.CodeActionContext(diagnostics=diags)))
    fixed = apply(s.texts[uri], got[0].edit.changes[uri]) if got and got[0].edit else None
    check(fixed == text, f"{what}: the code action fixes the handle", [a.title for a in got or []])
    # Right after a change, before its diagnostics (the new version not read
    # yet): a query outside the change is answered from the last reading, at
    # the places of the text now (an empty line put in at node n3000 moves
    # n7000's reference one line down; its target, `start`, is above it).
    # (The version before, with its wrong handle, was read by the code action.)
    text = s.texts[uri]
    nl = text.index("\n", text.index(q("n3000")))
    v = s.replace(uri, t.Range(start=position(text, nl), end=position(text, nl)), "\n")
    text = s.texts[uri]
    at = text.index(key("node") + q("start"), text.index(q("n7000"))) + len(key("node")) + (0 if yaml else 1)
    loc = await s.client.text_document_definition_async(t.DefinitionParams(**s.at(uri, position(text, at))))
    hover = await s.client.text_document_hover_async(t.HoverParams(**s.at(uri, position(text, at))))
    under = t.Range(start=position(text, at - (0 if yaml else 1)), end=position(text, at + len("start")
                                                                          + (0 if yaml else 1)))
    check(loc is not None and rng(loc.range) == rng(span(text, q("start"), nth=0))
          and hover is not None and rng(hover.range) == rng(under),
          f"{what}: right after a change, definition and hover answer at the places of the text now",
          (loc, hover and hover.range, rng(under)))
    diags = await s.diagnostics(uri, v)
    check([d.code for d in diags] == ["invalid_handle"], f"{what}: that change's diagnostics", diags)
    s.client.text_document_did_close(t.DidCloseTextDocumentParams(text_document=t.TextDocumentIdentifier(uri=uri)))


async def first_problems(s, uri):
    text = PLAN
    diags = await s.diagnostics(uri, s.open(uri, text))
    by_code = {d.code: d for d in diags}
    check(len(diags) == 3 and set(by_code) == {"unknown_tool", "invalid_handle", "missing_reference"},
          "three problems, three diagnostics", [(d.code, d.message) for d in diags])
    check(rng(by_code["unknown_tool"].range) == rng(span(text, '"tickets_gett"')),
          "unknown_tool is at the tool's value", by_code["unknown_tool"].range)
    check(rng(by_code["invalid_handle"].range) == rng(span(text, '"alwayz"')),
          "invalid_handle is at the handle's value", by_code["invalid_handle"].range)
    want = span(text, '{"$ref": {"node": "fetchh", "select": "first", "path": "id"}}')
    check(rng(by_code["missing_reference"].range) == rng(want),
          "missing_reference is at the reference", by_code["missing_reference"].range)
    d = by_code["unknown_tool"]
    check(d.severity == t.DiagnosticSeverity.Error and d.source == "planforge"
          and d.code_description.href.endswith("docs/codes/unknown_tool.md")
          and "help:" in d.message and "tickets_get" in d.message,
          "a diagnostic has its severity, its code's page and its fix", d)
    return by_code


async def navigation(s, uri):
    text = s.texts[uri]
    # Go to definition from the `node` of fetch's $ref (`"start"`, 2nd occurrence).
    on_ref = span(text, '"start"', nth=1, inner=2).start
    loc = await s.client.text_document_definition_async(t.DefinitionParams(**s.at(uri, on_ref)))
    check(loc is not None and rng(loc.range) == rng(span(text, '"start"', nth=0)),
          "go to definition on a $ref node lands on that node's id value", loc)
    on_edge = span(text, '"from": "start"', inner=11).start
    loc = await s.client.text_document_definition_async(t.DefinitionParams(**s.at(uri, on_edge)))
    check(loc is not None and rng(loc.range) == rng(span(text, '"start"', nth=0)),
          "go to definition from an edge's `from`", loc)
    refs = await s.client.text_document_references_async(t.ReferenceParams(
        context=t.ReferenceContext(include_declaration=True), **s.at(uri, on_ref)))
    check(len(refs) == 3, "references of `start`: its id, the $ref, the edge", refs)
    h = await s.client.text_document_hover_async(t.HoverParams(**s.at(uri, span(text, '"fetch"', inner=2).start)))
    value = h.contents.value
    check("call node" in value and "phase `gather`" in value and "reads: `start` (`ticket_id`)" in value
          and "declares: `id`, `body`" in value and "before: `post` (alwayz)" in value,
          "hover on a node id: kind, phase, inputs and outputs", value)
    h = await s.client.text_document_hover_async(t.HoverParams(**s.at(uri, span(text, '"post"', inner=2).start)))
    check("missing_reference" in h.contents.value, "and its findings", h.contents.value)
    h = await s.client.text_document_hover_async(t.HoverParams(**s.at(uri, span(text, '"tickets_comment"', inner=2).start)))
    check("Post a comment on a ticket" in h.contents.value and "`ticket`" in h.contents.value,
          "hover on a tool name: its registry entry", h.contents.value)
    syms = await s.client.text_document_document_symbol_async(
        t.DocumentSymbolParams(text_document=t.TextDocumentIdentifier(uri=uri)))
    names = [(x.name, [c.name for c in (x.children or [])]) for x in syms]
    check(names == [("gather", ["fetch"]), ("act", ["post"]), ("start", [])],
          "document symbols: the phases with their nodes, then the unphased", names)


async def completion(s, uri):
    # Empty the $ref's node: `"node": ""`, the cursor between the quotes.
    text = s.texts[uri]
    v = s.replace(uri, span(text, '"fetchh"'), '""')
    await s.diagnostics(uri, v)
    text = s.texts[uri]
    cursor = span(text, '"node": ""', inner=0).end
    cursor = t.Position(line=cursor.line, character=cursor.character - 1)
    got = await s.client.text_document_completion_async(t.CompletionParams(**s.at(uri, cursor)))
    items = sorted(got.items, key=lambda i: i.sort_text)
    labels = [i.label for i in items]
    check(labels[:2] == ["fetch", "start"] and "post" not in labels,
          "completion inside `\"node\": \"` offers the upstream node ids first", labels)
    check(items[0].text_edit.new_text == '"fetch"', "the completion writes a JSON string", items[0].text_edit)
    # Mid-typing: the closing quote not typed yet (the text is not JSON).
    s.replace(uri, t.Range(start=cursor, end=t.Position(line=cursor.line, character=cursor.character + 1)), "f")
    cursor = t.Position(line=cursor.line, character=cursor.character + 1)
    got = await s.client.text_document_completion_async(t.CompletionParams(**s.at(uri, cursor)))
    labels = [i.label for i in sorted(got.items, key=lambda i: i.sort_text)]
    check(labels == ["fetch"], "completion with no closing quote yet, narrowed to what is typed (`f`)", labels)
    # Paths of the node read, and the handles of the edge's source.
    v = s.set_text(uri, PLAN.replace('"fetchh"', '"fetch"'))
    await s.diagnostics(uri, v)
    text = s.texts[uri]
    path = span(text, '"first", "path": "id"', inner=0).end
    got = await s.client.text_document_completion_async(t.CompletionParams(
        **s.at(uri, t.Position(line=path.line, character=path.character - 3))))
    labels = [i.label for i in got.items]
    check(labels == ["id", "body"], "completion in `$ref.path`: the fields the node read declares", labels)
    got = await s.client.text_document_completion_async(t.CompletionParams(
        **s.at(uri, t.Position(line=path.line, character=path.character - 1))))
    labels = [i.label for i in got.items]
    check(labels == ["id"] and not got.is_incomplete, "and with `id` typed, those matching it", labels)
    handle = span(text, '"alwayz"', inner=1).start
    got = await s.client.text_document_completion_async(t.CompletionParams(**s.at(uri, handle)))
    labels = [i.label for i in got.items]
    check(labels == ["always", "error"], "completion in `handle`: the handles of the source's kind", labels)
    tool = span(text, '"tickets_gett"', inner=1).start
    got = await s.client.text_document_completion_async(t.CompletionParams(**s.at(uri, tool)))
    labels = [i.label for i in got.items]
    check(labels == ["tickets_get", "tickets_comment"], "completion in `tool`: the registry's tools", labels)
    phase = span(text, '"act"', inner=1).start
    got = await s.client.text_document_completion_async(t.CompletionParams(**s.at(uri, phase)))
    labels = [i.label for i in got.items]
    check(labels == ["gather", "act"], "completion in `phase`: the document's phases", labels)
    edge_to = span(text, '"to": "post"', inner=0).end
    got = await s.client.text_document_completion_async(t.CompletionParams(
        **s.at(uri, t.Position(line=edge_to.line, character=edge_to.character - 5))))
    labels = [i.label for i in got.items]
    check(labels == ["start", "fetch", "post"], "completion in an edge's `to`: the node ids", labels)
    v = s.set_text(uri, PLAN.replace('"tickets_gett"', '"tickets_get"'))


async def actions(s, uri, d):
    text = s.texts[uri]
    got = await s.client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), range=d.range,
        context=t.CodeActionContext(diagnostics=[d])))
    fix = [a for a in got if "handle" in a.title]
    check(fix and fix[0].is_preferred, "a code action uses the suggested handle", [a.title for a in got])
    fixed = apply(text, fix[0].edit.changes[uri])
    check('"handle": "always"}\n  ]' in fixed, "its edit sets the handle", fixed[-200:])
    v = s.set_text(uri, fixed)
    diags = await s.diagnostics(uri, v)
    check(all(x.code != "invalid_handle" for x in diags), "applied, the wrong handle is gone",
          [x.code for x in diags])
    # The did-you-mean id and a suppression, on the node that reads a missing one.
    d = [x for x in diags if x.code == "missing_reference"][0]
    got = await s.client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), range=d.range,
        context=t.CodeActionContext(diagnostics=[d])))
    titles = [a.title for a in got]
    check(len(got) >= 2 and "fetch" in titles[0] and got[0].is_preferred,
          "a code action renames to the did-you-mean id", titles)
    renamed = apply(fixed, got[0].edit.changes[uri])
    check('{"$ref": {"node": "fetch", "select": "first", "path": "id"}}' in renamed,
          "its edit changes only the reference's node", renamed)
    sup = [a for a in got if a.title.startswith("suppress")]
    check(sup, "a suppression is offered", titles)
    doc = json.loads(apply(fixed, sup[0].edit.changes[uri]))
    check(doc["nodes"][2]["definition"]["suppress"] == [{"code": "missing_reference", "reason": ""}],
          "the suppression is added to the node's definition, its reason left to write",
          doc["nodes"][2]["definition"])
    v = s.set_text(uri, renamed)
    diags = await s.diagnostics(uri, v)
    check(len(diags) == 0, "applied, the document is clean", [x.code for x in diags])
    # A $ref without `select` is an input error; its fix adds one.
    broken = s.texts[uri].replace('{"node": "start", "select": "first", "path": "ticket_id"}',
                                  '{"node": "start", "path": "ticket_id"}')
    v = s.set_text(uri, broken)
    diags = await s.diagnostics(uri, v)
    check(len(diags) == 1 and diags[0].code == "invalid_document" and "select" in diags[0].message,
          "a $ref without select is an input error", diags)
    got = await s.client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), range=diags[0].range,
        context=t.CodeActionContext(diagnostics=diags)))
    check(got and '"first"' in got[0].title, "a code action adds the missing select", [a.title for a in got])
    repaired = apply(broken, got[0].edit.changes[uri])
    check('{"node": "start", "path": "ticket_id", "select": "first"}' in repaired,
          "its edit adds `select` and leaves the rest", repaired)
    v = s.set_text(uri, repaired)
    diags = await s.diagnostics(uri, v)
    check(all(x.code != "invalid_document" for x in diags), "applied, the document reads", [x.code for x in diags])


async def dangling(s, uri):
    # An edge to a misspelt node: the fold drops it; the fix renames its end.
    text = s.texts[uri]
    typo = text.replace('"to": "post"', '"to": "postt"', 1)
    check(typo != text, "the document has an edge to `post`")
    v = s.set_text(uri, typo)
    diags = await s.diagnostics(uri, v)
    d = [x for x in diags if x.code == "dangling_edge"]
    check(d and "did you mean `post`?" in d[0].message, "a dangling edge names the near node",
          [(x.code, x.message) for x in diags])
    check("names node `postt`, which the document does not have" in d[0].message
          and "was dropped" not in d[0].message, "said of a document, not of a stored plan", d[0].message)
    check(d[0].range.start == position(typo, typo.index('{"id": "e2"')), "at the edge", d[0].range)
    got = await s.client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), range=d[0].range,
        context=t.CodeActionContext(diagnostics=d)))
    titles = [a.title for a in got]
    check(got and got[0].is_preferred and got[0].edit
          and titles[0].startswith('in the edge `e2`, set `to` to "post"'),
          "a code action renames the edge's end, and says so", titles)
    fixed = apply(typo, got[0].edit.changes[uri])
    check(fixed == text, "its edit renames only the edge's end", fixed[-300:])
    v = s.set_text(uri, fixed)
    diags = await s.diagnostics(uri, v)
    check(all(x.code != "dangling_edge" for x in diags), "applied, the edge is kept",
          [x.code for x in diags])


async def survives(s, uri):
    text = s.texts[uri]
    cut = text.index('"edges"')
    broken = text[:cut] + '"edges": [{"id": "e1", "from": '
    v = s.set_text(uri, broken)
    diags = await s.diagnostics(uri, v)
    check(len(diags) == 1 and diags[0].code == "invalid_document",
          "a document that is not JSON mid-typing: one diagnostic", diags)
    end = position(broken, len(broken))
    check(diags[0].range.start.line == end.line, "at the syntax error", (diags[0].range, end))
    h = await s.client.text_document_hover_async(t.HoverParams(**s.at(uri, t.Position(line=0, character=0))))
    syms = await s.client.text_document_document_symbol_async(
        t.DocumentSymbolParams(text_document=t.TextDocumentIdentifier(uri=uri)))
    check(h is None and [x.name for x in syms] == ["gather", "act", "start"],
          "and the server still answers, the outline from the last good version", (h, syms))


async def yaml(s, uri):
    diags = await s.diagnostics(uri, s.open(uri, YAML, "yaml"))
    by_code = {d.code: d for d in diags}
    check(set(by_code) == {"unknown_tool", "invalid_handle", "missing_reference"},
          "YAML: three diagnostics", [d.code for d in diags])
    check(rng(by_code["unknown_tool"].range) == rng(span(YAML, "tickets_gett")),
          "YAML: at the tool's value", by_code["unknown_tool"].range)
    on_ref = span(YAML, "node: start", inner=0)
    at = t.Position(line=on_ref.start.line, character=on_ref.start.character + 7)
    loc = await s.client.text_document_definition_async(t.DefinitionParams(**s.at(uri, at)))
    check(loc is not None and rng(loc.range) == rng(span(YAML, "start", nth=0)),
          "YAML: go to definition lands on the node's id", loc)
    h = await s.client.text_document_hover_async(t.HoverParams(**s.at(uri, span(YAML, "tickets_comment").start)))
    check("Post a comment" in h.contents.value, "YAML: hover on a tool", h.contents.value)
    got = await s.client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), range=by_code["invalid_handle"].range,
        context=t.CodeActionContext(diagnostics=[by_code["invalid_handle"]])))
    fixed = apply(YAML, got[0].edit.changes[uri])
    check("handle: always}" in fixed, "YAML: the handle fix, a plain scalar as the one it replaces", fixed[-120:])
    at = span(YAML, "fetchh", inner=0).start
    got = await s.client.text_document_completion_async(t.CompletionParams(**s.at(uri, at)))
    items = sorted(got.items, key=lambda i: i.sort_text)
    check([i.label for i in items][:2] == ["fetch", "start"] and items[0].text_edit.new_text == "fetch",
          "YAML: completion of a reference's node, upstream first, as a plain scalar",
          [(i.label, i.text_edit.new_text) for i in items])
    at = span(YAML, "select: first", nth=1).start
    at = t.Position(line=at.line, character=at.character + 8)
    got = await s.client.text_document_completion_async(t.CompletionParams(**s.at(uri, at)))
    check([i.label for i in got.items] == ["first", "last", "all"] and got.items[0].text_edit.new_text == "first",
          "YAML: completion of a reference's select", [i.label for i in got.items])
    at = span(YAML, "kind: call", nth=1).start
    at = t.Position(line=at.line, character=at.character + 6)
    got = await s.client.text_document_completion_async(t.CompletionParams(**s.at(uri, at)))
    check({"call", "reason", "select", "join"} <= {i.label for i in got.items} and len(got.items) == 7,
          "YAML: completion of a node's kind", [i.label for i in got.items])
    at = t.Position(line=at.line, character=at.character + 1)
    got = await s.client.text_document_completion_async(t.CompletionParams(**s.at(uri, at)))
    check([i.label for i in got.items] == ["call", "branch", "select"],
          "YAML: `c` typed: the kinds starting with it, then those holding it", [i.label for i in got.items])
    # `node: '` typed (the single quote not closed yet): the document does
    # not read, the repair `'` at the cursor does.
    broken = YAML.replace("node: fetchh", "node: '")
    v = s.set_text(uri, broken)
    at = span(broken, "node: '").end
    got = await s.client.text_document_completion_async(t.CompletionParams(**s.at(uri, at)))
    items = sorted(got.items, key=lambda i: i.sort_text)
    check([i.label for i in items][:2] == ["fetch", "start"] and items[0].text_edit.new_text == "'fetch'"
          and rng(items[0].text_edit.range) == rng(t.Range(start=position(broken, broken.index("node: '") + 6), end=at)),
          "YAML: completion after an unclosed `node: '`, single-quoted", [(i.label, i.text_edit) for i in items])
    await s.diagnostics(uri, v)


async def deep(s, uri):
    # Block-style YAML nested as deep as validate takes: the worker's reader
    # recurses once per level.
    lines = ["planId: deep", "nodes:", "  - id: a", "    kind: reason", "    prompt: [hi]", "    outputSchema:"]
    ind = "      "
    for _ in range(450):
        lines.append(ind + "a:")
        ind += "  "
    lines.append(ind + "b: 1")
    diags = await s.diagnostics(uri, s.open(uri, "\n".join(lines) + "\n", "yaml"))
    h = await s.client.text_document_hover_async(t.HoverParams(**s.at(uri, t.Position(line=2, character=8))))
    check(h is not None and "reason node" in h.contents.value,
          "a YAML document nested 450 levels deep: diagnostics, and the server still answers", (diags, h))


def validate_json(pf, root, env, name):
    """`planforge validate --format json` on a document of the temp folder: its issues."""
    out = subprocess.run([pf, "validate", name, "--format", "json"], cwd=root, env=env,
                         capture_output=True, text=True)
    return json.loads(out.stdout)["issues"]


async def pretty(s, pf, root, env):
    """A pretty-printed document (as `export` writes one): findings across lines, typing at a line's end."""
    example = Path(__file__).resolve().parent.parent / "examples" / "documents" / "ticket_triage.json"
    text = json.dumps(json.loads(example.read_text()), indent=2).replace(
        '"node": "fetch_ticket"', '"node": "fetch_tickt"', 1) + "\n"
    (root / "docs" / "pretty.json").write_text(text)
    uri = (root / "docs" / "pretty.json").as_uri()
    diags = await s.diagnostics(uri, s.open(uri, text))
    issues = validate_json(pf, root, env, "docs/pretty.json")
    ranges = {(i["code"], i["line"] - 1, i["column"] - 1, i["endLine"] - 1, i["endColumn"] - 1) for i in issues}
    got = [(d.code,) + rng(d.range) for d in diags]
    check(got and all(g in ranges for g in got),
          "every diagnostic is at validate's range, start and end", (got, ranges))
    multi = [g for g in got if g[0] == "missing_reference"]
    check(multi and multi[0][1] < multi[0][3] and text.split("\n")[multi[0][1]][multi[0][2]] == "{",
          "a finding across lines: the whole reference, not its first line", multi)
    # Typing a reference's node at the end of its line: `"node": "`, the
    # next member on the next line (the document does not parse).
    line = span(text, '"fetch_tickt",')
    v = s.replace(uri, line, '"')
    diags = await s.diagnostics(uri, v)
    check([d.code for d in diags] == ["invalid_document"], "typing: the syntax error is a diagnostic",
          [(d.code, d.message) for d in diags])
    text = s.texts[uri]
    cursor = t.Position(line=line.start.line, character=line.start.character + 1)
    got = await s.client.text_document_completion_async(t.CompletionParams(**s.at(uri, cursor)))
    items = sorted(got.items, key=lambda i: i.sort_text)
    check([i.label for i in items if i.sort_text.startswith("0")] == ["is_open", "fetch_ticket", "start"]
          and items[0].text_edit.new_text == '"is_open"'
          and rng(items[0].text_edit.range) == (cursor.line, cursor.character - 1, cursor.line, cursor.character),
          "completion after an unclosed `\"node\": \"` at a line's end: the upstream ids first",
          [(i.label, i.sort_text, i.text_edit) for i in items])
    # While it does not parse, the last good version answers, placed in the text as it is now.
    h = await s.client.text_document_hover_async(t.HoverParams(**s.at(uri, span(text, '"fetch_ticket"', inner=2).start)))
    check(h is not None and "call node" in h.contents.value and rng(h.range) == rng(span(text, '"fetch_ticket"')),
          "broken: hover on a node id before the change", h)
    after = span(text, '"node": "summarise"', inner=10).start
    loc = await s.client.text_document_definition_async(t.DefinitionParams(**s.at(uri, after)))
    check(loc is not None and rng(loc.range) == rng(span(text, '"summarise"')),
          "broken: go to definition from after the change lands on the id", loc)
    refs = await s.client.text_document_references_async(t.ReferenceParams(
        context=t.ReferenceContext(include_declaration=True), **s.at(uri, after)))
    check(sorted(rng(r.range) for r in refs) == sorted(rng(span(text, '"summarise"', nth=k)) for k in range(4)),
          "broken: references, each where it is now", refs)
    syms = await s.client.text_document_document_symbol_async(
        t.DocumentSymbolParams(text_document=t.TextDocumentIdentifier(uri=uri)))
    sel = {c.name: rng(c.selection_range) for x in syms for c in (x.children or [x])}
    ids = {n: rng(span(text, f'"id": "{n}"')) for n in
           ["start", "fetch_ticket", "is_open", "summarise", "post_comment", "log_skip"]}
    check(sel == {n: (a, b + 6, c, d) for n, (a, b, c, d) in ids.items()},
          "broken: the outline, each node at its id as it is now", sel)
    on_change = await s.client.text_document_hover_async(t.HoverParams(**s.at(uri, cursor)))
    check(on_change is None, "broken: nothing is made up where the text changed", on_change)


def call(i):
    return {"id": i, "kind": "call", "definition": {
        "tool": "tickets_get", "args": {"id": "1"}, "output": [], "onMissingValue": "fail",
        "authority": [{"capability": "tickets", "scope": "support", "verb": "read"}],
        "replaySafe": True, "onIndeterminate": "halt"}}


async def grouped(s, uri, pf, root, env):
    """Nothing connects to `c`: c, d and e are unreachable (and their calls never run)."""
    doc = {"formatVersion": 1, "nodes": [{"id": "start", "kind": "entry", "definition": {"input": []}},
                                         call("a"), call("c"), call("d"), call("e")],
           "edges": [{"id": "e1", "from": "start", "to": "a"}, {"id": "e3", "from": "c", "to": "d"},
                     {"id": "e4", "from": "d", "to": "e"}]}
    text = json.dumps(doc, indent=1)
    diags = await s.diagnostics(uri, s.open(uri, text))
    check([d.code for d in diags] == ["unreachable_node"], "grouped findings are one diagnostic",
          [(d.code, d.message) for d in diags])
    related = diags[0].related_information or []
    check(len(related) == 5 and all(r.location.uri == uri for r in related),
          "with the findings that follow from it as related locations",
          [r.message for r in related])
    (root / "docs" / "group.json").write_text(text)
    at = {(i["code"], i["nodeId"]): (i["line"] - 1, i["column"] - 1, i["endLine"] - 1, i["endColumn"] - 1)
          for i in validate_json(pf, root, env, "docs/group.json")}
    check(rng(related[0].location.range) == at[("unreachable_node", "d")] and related[0].message.startswith("unreachable_node")
          and rng(diags[0].range) == at[("unreachable_node", "c")],
          "each at its place (validate's)", (related[0], at))


async def debounced(pf, root, env):
    """Changes typed in a burst are validated once, after the document is still."""
    s = Session()
    seen = s.seen
    await s.client.start_io(pf, "lsp", "--debounce-ms", "1000", cwd=str(root), env=env)
    await s.client.initialize_async(t.InitializeParams(capabilities=t.ClientCapabilities()))
    s.client.initialized(t.InitializedParams())
    uri = (root / "docs" / "burst.json").as_uri()
    await s.diagnostics(uri, s.open(uri, PLAN))
    for i in range(5):
        v = s.set_text(uri, PLAN.replace('"thanks"', f'"thanks {i}"'))
    diags = await s.diagnostics(uri, v)
    check(seen == [1, v] and len(diags) == 3, "a burst of changes is validated once (debounced)", seen)
    await s.client.shutdown_async(None)
    s.client.exit(None)
    await s.client.stop()


class Raw:
    """A bare JSON-RPC client on the server's stdio, to send what pygls never would."""

    def __init__(self, pf, root, env):
        self.p = subprocess.Popen([pf, "lsp"], cwd=str(root), env=env, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def raw(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def read(self):
        size = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise EOFError("the server closed stdout")
            if line == b"\r\n":
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                size = int(value)
        return json.loads(self.p.stdout.read(size))

    def answer(self, id):
        while True:
            m = self.read()
            if m.get("id") == id and "method" not in m:
                return m

    def close(self, shutdown):
        if shutdown:
            self.send({"jsonrpc": "2.0", "id": 90, "method": "shutdown"})
            self.answer(90)
        self.send({"jsonrpc": "2.0", "method": "exit"})
        code = self.p.wait(TIMEOUT)
        self.p.stdout.close()
        self.p.stderr.close()
        return code


def malformed(pf, root, env):
    """A malformed message is answered (id null) and the server goes on; exit
    without shutdown exits 1."""
    r = Raw(pf, root, env)
    r.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}})
    r.answer(0)
    r.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    sym = {"jsonrpc": "2.0", "method": "textDocument/documentSymbol",
           "params": {"textDocument": {"uri": (root / "docs" / "none.json").as_uri()}}}
    for i, (data, code) in enumerate([(b"Content-Length: 5\r\n\r\nhello", -32700),
                                      (b'Content-Length: 17\r\n\r\n{"jsonrpc":"2.0"}', -32600),
                                      (b'{"jsonrpc":"2.0","id":99,"method":"shutdown"}\r\n\r\n', -32700)]):
        r.raw(data)
        m = r.answer(None)
        check(m["error"]["code"] == code, f"malformed message {i + 1} answered {code} with id null", m)
        r.send(dict(sym, id=10 + i))
        check(r.answer(10 + i).get("result", "x") is None, "and the server goes on")
    code = r.close(shutdown=False)
    check(code == 1, "exit without shutdown exits 1", code)
    r = Raw(pf, root, env)
    r.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}})
    r.answer(0)
    r.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    check(r.close(shutdown=True) == 0, "exit after shutdown exits 0")


def protocol(pf, root, env):
    """What the specification says of the messages around `initialize`, of a
    body with no header, and of a request whose id is null, an object, an
    array, a boolean or a fraction."""
    r = Raw(pf, root, env)
    sym = {"jsonrpc": "2.0", "method": "textDocument/documentSymbol",
           "params": {"textDocument": {"uri": (root / "docs" / "none.json").as_uri()}}}
    r.send(dict(sym, id=1))
    m = r.answer(1)
    check(m.get("error", {}).get("code") == -32002 and "Request {" not in m["error"]["message"]
          and "textDocument/documentSymbol" in m["error"]["message"],
          "a request before initialize: ServerNotInitialized, in words", m)
    r.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {}})
    r.send({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {"capabilities": {}}})
    check("capabilities" in r.answer(2).get("result", {}), "then initialize is answered")
    r.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    r.send({"jsonrpc": "2.0", "id": 3, "method": "initialize", "params": {"capabilities": {}}})
    m = r.answer(3)
    check(m.get("error", {}).get("code") == -32600, "a second initialize: InvalidRequest", m)
    # A body with no header, on its own line, right before a framed request.
    r.raw(b'{"jsonrpc":"2.0","id":98,"method":"shutdown"}\r\n')
    r.send(dict(sym, id=4))
    m = r.answer(None)
    check(m["error"]["code"] == -32700, "a body with no header: a parse error", m)
    check(r.answer(4).get("result", "x") is None, "and the request after it is answered")
    r.send(dict(sym, id=None))
    m = r.answer(None)
    check(m.get("error", {}).get("code") == -32600, "a request with id null: InvalidRequest with id null", m)
    for bad in ({"x": 1}, [1], True, 1.5):
        r.send(dict(sym, id=bad))
        m = r.answer(None)
        check(m.get("error", {}).get("code") == -32600,
              f"a request with id {json.dumps(bad)}: InvalidRequest with id null", m)
    r.send(dict(sym, id="five"))
    check(r.answer("five").get("result", "x") is None, "a string id is answered with it")
    check(r.close(shutdown=True) == 0, "and the session ends as usual")
    r = Raw(pf, root, env)
    r.send({"jsonrpc": "2.0", "method": "exit"})
    code = r.p.wait(TIMEOUT)
    r.p.stdout.close()
    r.p.stderr.close()
    check(code == 1, "exit before initialize (no shutdown) exits 1", code)


async def watched(pf, root, env):
    """Open documents are checked again when a registry or a settings file
    changes on disk (workspace/didChangeWatchedFiles, with the watchers
    registered dynamically) or is saved (didSave)."""
    s = Session()
    registered = []

    @s.client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def on_register(params):
        registered.extend(params.registrations)

    await s.client.start_io(pf, "lsp", "--debounce-ms", "50", cwd=str(root), env=env)
    await s.client.initialize_async(t.InitializeParams(capabilities=t.ClientCapabilities(
        workspace=t.WorkspaceClientCapabilities(
            did_change_watched_files=t.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True)))))
    s.client.initialized(t.InitializedParams())
    uri = (root / "docs" / "watched.json").as_uri()
    diags = await s.diagnostics(uri, s.open(uri, PLAN))
    check(sorted(d.code for d in diags) == ["invalid_handle", "missing_reference", "unknown_tool"],
          "watched: three diagnostics", [d.code for d in diags])
    globs = [w["globPattern"] for r in registered for w in (r.register_options or {}).get("watchers", [])]
    check([r.method for r in registered] == ["workspace/didChangeWatchedFiles"]
          and {"**/planforge.toml", "**/registry.yaml"} <= set(globs),
          "the watchers are registered dynamically", (registered, globs))
    reg = root / "plans" / "registry.yaml"
    before = reg.read_text()
    reg.write_text(before + '  tickets_gett:\n    summary: "Fetch, misspelt"\n    returns: text\n    requiredArgs: [id]\n')
    s.client.workspace_did_change_watched_files(t.DidChangeWatchedFilesParams(
        changes=[t.FileEvent(uri=reg.as_uri(), type=t.FileChangeType.Changed)]))
    diags = await s.diagnostics(uri, 1)
    check(sorted(d.code for d in diags) == ["invalid_handle", "missing_reference"],
          "a registry edited on disk: the open document is checked again", [d.code for d in diags])
    toml = root / "planforge.toml"
    had = toml.read_text() if toml.exists() else None
    toml.write_text('[validate]\nignore = ["invalid_handle"]\n')
    s.client.text_document_did_save(t.DidSaveTextDocumentParams(
        text_document=t.TextDocumentIdentifier(uri=toml.as_uri())))
    diags = await s.diagnostics(uri, 1)
    check([d.code for d in diags] == ["missing_reference"],
          "a settings file saved: the open document is checked again", [d.code for d in diags])
    reg.write_text(before)
    if had is None:
        toml.unlink()
    else:
        toml.write_text(had)
    await s.client.shutdown_async(None)
    s.client.exit(None)
    await s.client.stop()


async def same_as_validate(s, pf, root, env):
    """One reading per change: the diagnostics equal `validate --format json`'s
    findings (code, range, message) on JSON and YAML documents, with findings,
    a syntax error, shape errors and escaped keys."""
    docs = {
        "eq_three.json": PLAN,
        "eq_three.yaml": YAML,
        "eq_escaped.json": PLAN.replace('"tool": ', '"t\\u006fol": ', 1),
        "eq_syntax.json": PLAN[:PLAN.index('"edges"')] + '"edges": [{"id": ',
        "eq_syntax.yaml": YAML.replace("nodes:", "nodes: [", 1),
        "eq_shape.json": '{"formatVersion": 1, "nodes": 5}',
        "eq_kind.json": PLAN.replace('"kind": "call"', '"kind": 7', 1),
        "eq_label.json": PLAN.replace('"formatVersion": 1', '"formatVersion": 1, "label": "a\\u0000b"', 1),
        "eq_big.json": big_plan(300).replace('"tickets_get"', '"tickets_gte"', 40),
        "eq_dangling.json": PLAN.replace('"to": "post"', '"to": "postt"', 1),
        "eq_dangling.yaml": YAML.replace("to: post", "to: postt", 1),
    }
    for name, text in docs.items():
        (root / "docs" / name).write_text(text)
        uri = (root / "docs" / name).as_uri()
        diags = await s.diagnostics(uri, s.open(uri, text, "yaml" if name.endswith(".yaml") else "json"))
        issues = validate_json(pf, root, env, "docs/" + name)
        want = sorted((i["code"], i.get("line", 1) - 1, i.get("column", 1) - 1, i.get("endLine", 1) - 1,
                       i.get("endColumn", 1) - 1, i["message"]) for i in issues)
        # Findings that follow from another are its related locations.
        got = sorted([(d.code,) + rng(d.range) + (d.message.split("\nhelp: ")[0],) for d in diags]
                     + [tuple(r.message.split(": ", 1)[:1]) + rng(r.location.range) + (r.message.split(": ", 1)[1],)
                        for d in diags for r in (d.related_information or [])])
        check(got == want and len(got) > 0, f"{name}: the diagnostics are validate's, range and message",
              (got[:4], want[:4]))
        if "dangling" in name:
            check(any(w[0] == "dangling_edge" for w in want), f"{name}: has a dangling edge", want)
        s.client.text_document_did_close(t.DidCloseTextDocumentParams(text_document=t.TextDocumentIdentifier(uri=uri)))


async def capped(s, big):
    """Completion on a 10,000-node document: at most 200 ids, isIncomplete
    while some were left out; what is typed narrows them."""
    text = s.texts[big]
    # The reference of node n5000 (its `node` is "start"): emptied, the cursor inside it.
    at = text.index('"node": "start"', text.index('"id": "n5000"')) + len('"node": "')
    s.replace(big, t.Range(start=position(text, at), end=position(text, at + len("start"))), "")
    text = s.texts[big]
    got = await s.client.text_document_completion_async(t.CompletionParams(**s.at(big, position(text, at))))
    labels = [i.label for i in got.items]
    check(got.is_incomplete and 0 < len(labels) <= 200 and len(set(labels)) == len(labels)
          and all(i.sort_text.startswith("0") for i in got.items) and "n5000" not in labels,
          "10,000 nodes: completion is capped at 200 upstream ids, isIncomplete",
          (got.is_incomplete, len(labels), labels[:5]))
    v = s.replace(big, t.Range(start=position(text, at), end=position(text, at)), "N12")
    await s.diagnostics(big, v)
    text = s.texts[big]
    got = await s.client.text_document_completion_async(t.CompletionParams(**s.at(big, position(text, at + 3))))
    labels = [i.label for i in got.items]
    check(not got.is_incomplete and len(labels) == 111 and "n12" in labels
          and all(x.startswith("n12") for x in labels),
          "what is typed (any case) narrows it: every id starting with it, complete",
          (got.is_incomplete, len(labels), labels[:5]))
    v = s.replace(big, t.Range(start=position(text, at), end=position(text, at + 3)), "start")
    await s.diagnostics(big, v)


async def broken_files(s, root):
    """A settings file or registry that cannot be read: the document's
    diagnostic points at the place in that file, which gets the diagnostic
    too, cleared when it is fixed."""
    uri = (root / "docs" / "settings.json").as_uri()
    toml = root / "planforge.toml"
    had = toml.read_text() if toml.exists() else None
    toml.write_text('[validate]\nignore = ["unknown_tol"]\n')
    diags = await s.diagnostics(uri, s.open(uri, PLAN))
    rel = diags[0].related_information or [] if diags else []
    there = await s.diagnostics(toml.as_uri(), None)
    check(len(diags) == 1 and diags[0].severity == t.DiagnosticSeverity.Information and diags[0].code is None
          and diags[0].message.startswith("this document was not checked: `planforge.toml` cannot be read")
          and len(rel) == 1
          and rel[0].location.uri == toml.as_uri() and rng(rel[0].location.range) == (1, 10, 1, 23),
          "a broken planforge.toml: the document is said not to be checked (an Information, not the error "
          "again), pointing at the value in it",
          [(d.code, d.severity, d.message, d.related_information) for d in diags])
    check(len(there) == 1 and rng(there[0].range) == (1, 10, 1, 23) and "unknown_tol" in there[0].message,
          "and planforge.toml gets the diagnostic, at `\"unknown_tol\"`", there)
    toml.write_text('[validate\n')
    s.client.text_document_did_save(t.DidSaveTextDocumentParams(
        text_document=t.TextDocumentIdentifier(uri=toml.as_uri())))
    there = await s.until(toml.as_uri(), lambda d: any("unclosed table" in x.message for x in d))
    check(len(there) == 1 and there[0].range.start.line == 0 and "unclosed table" in there[0].message,
          "a settings file that is not TOML: at the reader's line", there)
    if had is None:
        toml.unlink()
    else:
        toml.write_text(had)
    s.client.text_document_did_save(t.DidSaveTextDocumentParams(
        text_document=t.TextDocumentIdentifier(uri=toml.as_uri())))
    there = await s.until(toml.as_uri(), lambda d: len(d) == 0)
    check(len(there) == 0, "fixed: the settings file's diagnostic is cleared", there)
    reg = root / "plans" / "registry.yaml"
    before = reg.read_text()
    # Written whole, as editors save: a re-check still in flight from the step before may read
    # the registry too (a file being written is empty, "null"), and publish nothing for it.
    replace_file(reg, "tools:\n  get: 5\n")
    s.client.text_document_did_save(t.DidSaveTextDocumentParams(
        text_document=t.TextDocumentIdentifier(uri=reg.as_uri())))
    there = await s.until(reg.as_uri(), lambda d: len(d) > 0)
    check(len(there) == 1 and there[0].range.start.line == 1,
          "a registry whose tool is no object: the diagnostic in the registry, on its line", there)
    replace_file(reg, before)
    s.client.text_document_did_save(t.DidSaveTextDocumentParams(
        text_document=t.TextDocumentIdentifier(uri=reg.as_uri())))
    there = await s.until(reg.as_uri(), lambda d: len(d) == 0)
    check(len(there) == 0, "fixed: the registry's diagnostic is cleared", there)
    s.client.text_document_did_close(t.DidCloseTextDocumentParams(text_document=t.TextDocumentIdentifier(uri=uri)))


def replace_file(path, text):
    """Write `path` whole: a temporary file beside it, renamed over it."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


async def main(pf):
    root = Path(tempfile.mkdtemp(prefix="planforge-lsp-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("PLANFORGE_")}
    env.update(NO_COLOR="1", PLANFORGE_ACTOR="tester")
    subprocess.run([pf, "init"], cwd=root, env=env, check=True, capture_output=True)
    (root / "plans" / "registry.yaml").write_text(REGISTRY)
    (root / "docs").mkdir()
    s = Session()
    await s.client.start_io(pf, "lsp", "--debounce-ms", "50", cwd=str(root), env=env)
    init = await s.client.initialize_async(t.InitializeParams(
        capabilities=t.ClientCapabilities(general=t.GeneralClientCapabilities(position_encodings=["utf-16"])),
        root_uri=root.as_uri()))
    check(init.server_info.name == "planforge" and init.capabilities.position_encoding == "utf-16",
          "initialize", init)
    s.client.initialized(t.InitializedParams())
    uri = (root / "docs" / "triage.json").as_uri()
    by_code = await first_problems(s, uri)
    # Fix the tool: two diagnostics.
    v = s.replace(uri, by_code["unknown_tool"].range, '"tickets_get"')
    diags = await s.diagnostics(uri, v)
    check(sorted(d.code for d in diags) == ["invalid_handle", "missing_reference"],
          "an edit that fixes one publishes two", [d.code for d in diags])
    await navigation(s, uri)
    await completion(s, uri)
    diags = await s.diagnostics(uri, s.set_text(uri, s.texts[uri]))
    await actions(s, uri, [d for d in diags if d.code == "invalid_handle"][0])
    await dangling(s, uri)
    await survives(s, uri)
    await pretty(s, pf, root, env)
    await yaml(s, (root / "docs" / "triage.yaml").as_uri())
    await deep(s, (root / "docs" / "deep.yaml").as_uri())
    await grouped(s, (root / "docs" / "group.json").as_uri(), pf, root, env)
    other = (root / "package.json").as_uri()
    diags = await s.diagnostics(other, s.open(other, '{"name": "x", "version": "1.0.0"}'))
    check(len(diags) == 0, "a JSON file that is no plan document is left alone", diags)
    # Also while it does not parse, when it mentions `nodes` but not at its top level.
    for n, text in enumerate(('{"name": "x", "deps": {"nodes": 1},\n', '{"name": "x", "nodes_x": 1,\n')):
        other = (root / f"other{n}.json").as_uri()
        diags = await s.diagnostics(other, s.open(other, text))
        check(len(diags) == 0, f"a JSON file mid-typing that is no plan document is left alone: {text!r}", diags)
    big = (root / "docs" / "big.json").as_uri()
    diags = await s.diagnostics(big, s.open(big, big_plan(10_000)))
    check([d.code for d in diags] == ["unknown_tool"], "a 10,000-node document: its diagnostics",
          [(d.code, d.message) for d in diags][:5])
    v = s.set_text(big, s.texts[big].replace('"tickets_gett"', '"tickets_get"'))
    check(len(await s.diagnostics(big, v)) == 0, "and after an edit, again")
    await capped(s, big)
    s.client.text_document_did_close(t.DidCloseTextDocumentParams(text_document=t.TextDocumentIdentifier(uri=big)))
    for language in ("json", "yaml"):
        await big_cases(s, pf, root, env, language)
    await same_as_validate(s, pf, root, env)
    await broken_files(s, root)
    await s.client.shutdown_async(None)
    s.client.exit(None)
    code = await asyncio.wait_for(s.client._server.wait(), TIMEOUT)
    check(code == 0, "shutdown and exit end the server with 0", code)
    await s.client.stop()
    await debounced(pf, root, env)
    await watched(pf, root, env)
    malformed(pf, root, env)
    protocol(pf, root, env)
    shutil.rmtree(root, ignore_errors=True)
    print("all passed", flush=True)


if __name__ == "__main__":
    pf = str(Path(sys.argv[1]).resolve()) if len(sys.argv) > 1 else str(Path(__file__).resolve().parent.parent / "target/debug/planforge")
    asyncio.run(main(pf))

#!/usr/bin/env python3
"""How fast `planforge lsp` answers on a large plan document.

    .venv/bin/python bench/lsp_latency.py [--nodes 10000] [--edits 10] [--debounce-ms 200] [--yaml | --one-line]

Builds the release binary and `gen_plan` (unless PLANFORGE_BIN names a
binary and gen_plan is built, or PLANFORGE_GEN names it), generates a realistic plan of N nodes (`examples/gen_plan.rs`) into
a temp store made by `planforge init` (with `--yaml`, written as block-style
YAML, the way people write it: `- id: …` items, plain scalars; with `--one-line`, as JSON on one
line), starts `planforge lsp` there with a
real LSP client (pygls, pinned in `.venv` like the tests' client), and
measures, as an editor sees it:

- open → diagnostics published;
- each edit (a call's tool renamed to a missing one and back, as an
  incremental change) → its diagnostics published, with the debounce in it
  and without;
- typing: a burst of keystrokes (`--burst` of them, 30 ms apart, each an
  incremental change) → the diagnostics of the last, and a hover sent
  right after the burst (what the editor loop costs per keystroke);
- hover, go to definition, completion and document symbols on the document;
- the same, and completion after an unclosed `"node": "` (YAML: `node: '`), while the
  document does not parse (answered from the last good version);
- document symbols again, timed to the last byte of the response with a
  bare JSON-RPC client (a second server), so the server's cost is seen
  without the Python client's decoding of 10,000 symbols.

The baseline, measured in the same run on the same file: `planforge validate FILE`
(the command line's whole reading and checking, process start included, median of 3);
the edits' figures are also given as ratios to it. The load average is printed with the
table (the machine is shared).

It prints a Markdown table of medians and maxima. Nothing here is a test:
figures depend on the machine (docs/performance.md records them).
"""

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as t
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from lsp_client import to_yaml  # noqa: E402 (the tests' block-style YAML writer)


def position(text, offset):
    before = text[:offset]
    line = before.count("\n")
    start = before.rfind("\n") + 1
    return t.Position(line=line, character=len(before[start:].encode("utf-16-le")) // 2)


def build():
    pf = os.environ.get("PLANFORGE_BIN")
    # The generator's output depends only on its arguments, so a debug
    # build of it does as well (PLANFORGE_GEN names one).
    gen = Path(os.environ.get("PLANFORGE_GEN") or ROOT / "target/release/examples/gen_plan")
    if pf and gen.exists():
        return pf, str(gen)
    print("building release binaries…", file=sys.stderr)
    subprocess.run(["cargo", "build", "--release", "-q", "--bin", "planforge", "--example", "gen_plan"],
                   cwd=ROOT, check=True)
    return pf or str(ROOT / "target/release/planforge"), str(gen)


def raw_symbols(pf, root, env, uri, language, text, n=5):
    """Document symbols as the server sends them, without a client decoding
    them: a bare JSON-RPC session (its own server), each request timed until
    the last byte of its response. Returns the times and the body's size."""
    proc = subprocess.Popen([pf, "lsp"], cwd=root, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def send(msg):
        body = json.dumps(msg).encode()
        proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        proc.stdin.flush()

    def read():
        size = None
        while True:
            line = proc.stdout.readline().strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                size = int(line.split(b":")[1])
        return proc.stdout.read(size)

    def until(pred):
        while True:
            body = read()
            if pred(body):
                return body

    send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}})
    until(lambda b: b'"id":0' in b)
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": language, "version": 1, "text": text}}})
    until(lambda b: b"publishDiagnostics" in b)
    times, size = [], 0
    for i in range(1, n + 1):
        sent = time.perf_counter()
        send({"jsonrpc": "2.0", "id": i, "method": "textDocument/documentSymbol",
              "params": {"textDocument": {"uri": uri}}})
        body = until(lambda b: b'"id":%d,' % i in b[:40] or b'"id":%d}' % i in b)
        times.append(time.perf_counter() - sent)
        size = len(body)
    send({"jsonrpc": "2.0", "id": n + 1, "method": "shutdown"})
    until(lambda b: b'"id":%d' % (n + 1) in b)
    send({"jsonrpc": "2.0", "method": "exit"})
    proc.wait(30)
    return times, size


async def run(args):
    pf, gen = build()
    root = Path(tempfile.mkdtemp(prefix="planforge-lsp-bench-"))
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PLANFORGE_")}
        env.update(NO_COLOR="1", PLANFORGE_ACTOR="bench")
        subprocess.run([pf, "init"], cwd=root, env=env, check=True, capture_output=True)
        text = subprocess.run([gen, "--nodes", str(args.nodes), "--phases", str(max(8, args.nodes // 25)),
                               "--seed", "1"], check=True, capture_output=True, text=True).stdout
        language = "yaml" if args.yaml else "json"
        if args.yaml:
            text = to_yaml(json.loads(text))
        elif args.one_line:
            text = json.dumps(json.loads(text))
        doc = root / f"plan.{language}"
        doc.write_text(text)
        uri = doc.as_uri()
        client = LanguageClient("planforge-bench", "0")
        published = asyncio.Queue()

        @client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params):
            published.put_nowait((time.perf_counter(), params))

        async def wait(version):
            while True:
                at, p = await asyncio.wait_for(published.get(), 120)
                if p.uri == uri and p.version == version:
                    return at, p.diagnostics

        await client.start_io(pf, "lsp", "--debounce-ms", str(args.debounce_ms), cwd=str(root), env=env)
        await client.initialize_async(t.InitializeParams(capabilities=t.ClientCapabilities()))
        client.initialized(t.InitializedParams())
        sent = time.perf_counter()
        client.text_document_did_open(t.DidOpenTextDocumentParams(
            text_document=t.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)))
        at, diags = await wait(1)
        rows = [("open → diagnostics", [at - sent], len(diags))]
        # Where values are: JSON's quoted strings, YAML's plain scalars.
        tool_key, ref_key, node_key, ends = (
            ("tool: ", '"$ref":', "node: ", "\n") if args.yaml else ('"tool": "', '"$ref"', '"node": "', '"'))
        tool = text.index(tool_key) + len(tool_key)
        name_end = text.index(ends, tool)
        original = text[tool:name_end]
        start, end = position(text, tool), position(text, name_end)
        lat = []
        version = 1
        count = 0
        for i in range(args.edits):
            version += 1
            new = original + "_missing" if i % 2 == 0 else original
            old_len = len(original) + (0 if i % 2 == 0 else len("_missing"))
            rng = t.Range(start=start, end=t.Position(line=start.line, character=start.character + old_len))
            sent = time.perf_counter()
            client.text_document_did_change(t.DidChangeTextDocumentParams(
                text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[t.TextDocumentContentChangePartial(range=rng, text=new)]))
            at, diags = await wait(version)
            lat.append(at - sent)
            count = len(diags)
        rows.append(("edit → diagnostics (with the debounce)", lat, count))
        rows.append((f"edit → diagnostics, less the {args.debounce_ms} ms debounce",
                     [x - args.debounce_ms / 1000 for x in lat], count))
        # A query elsewhere sent at once after each edit (before its
        # diagnostics): answered from the last reading while the version is
        # not read (a node id two thirds into the document).
        far = text.index(node_key, len(text) * 2 // 3) + len(node_key) + 1
        early = []
        for i in range(args.edits):
            version += 1
            # `original` is in the text now (the edits above end on it when even).
            now_missing = i % 2 == 0 if args.edits % 2 == 0 else i % 2 == 1
            new = original + "_missing" if now_missing else original
            old_len = len(original) + (0 if now_missing else len("_missing"))
            rng = t.Range(start=start, end=t.Position(line=start.line, character=start.character + old_len))
            client.text_document_did_change(t.DidChangeTextDocumentParams(
                text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[t.TextDocumentContentChangePartial(range=rng, text=new)]))
            # (in one-line JSON, the place moves with the edit)
            now = text[:tool] + new + text[name_end:]
            at_far = dict(text_document=t.TextDocumentIdentifier(uri=uri),
                          position=position(now, far + len(new) - len(original)))
            sent = time.perf_counter()
            await client.text_document_hover_async(t.HoverParams(**at_far))
            early.append(time.perf_counter() - sent)
            await wait(version)
        rows.append(("edit, then at once hover on a node id elsewhere (before the diagnostics)", early, None))
        # Typing: a burst of keystrokes at the end of the tool's name, then
        # a hover at once, then the last keystroke's diagnostics.
        pos = t.Position(line=start.line, character=start.character + len(original))
        sent = time.perf_counter()
        for i in range(args.burst):
            version += 1
            ch = t.Position(line=pos.line, character=pos.character + i)
            client.text_document_did_change(t.DidChangeTextDocumentParams(
                text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[t.TextDocumentContentChangePartial(range=t.Range(start=ch, end=ch), text="x")]))
            await asyncio.sleep(0.03)
        burst_end = time.perf_counter()
        on_tool = dict(text_document=t.TextDocumentIdentifier(uri=uri), position=start)
        await client.text_document_hover_async(t.HoverParams(**on_tool))
        hovered = time.perf_counter()
        at, diags = await wait(version)
        rows.append((f"{args.burst} keystrokes 30 ms apart → hover sent after the last", [hovered - burst_end], None))
        rows.append((f"{args.burst} keystrokes → the last one's diagnostics (after the last)", [at - burst_end],
                     len(diags)))
        # Back to the original name.
        version += 1
        typed = t.Position(line=pos.line, character=pos.character + args.burst)
        client.text_document_did_change(t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[t.TextDocumentContentChangePartial(range=t.Range(start=pos, end=typed), text="")]))
        await wait(version)
        ref = text.index(node_key, text.index(ref_key)) + len(node_key) + 1
        at_ref = dict(text_document=t.TextDocumentIdentifier(uri=uri), position=position(text, ref))

        def size(r):
            """What an answer holds: completion items (and whether capped), symbols."""
            if hasattr(r, "items"):
                return f"{len(r.items)} items" + (", isIncomplete" if r.is_incomplete else "")
            if isinstance(r, (list, tuple)):
                return f"{len(r)} symbols, {sum(len(x.children or []) for x in r)} nested"
            return None

        async def timed(label, call, n=5):
            xs = []
            got = None
            for _ in range(n):
                s = time.perf_counter()
                got = await call()
                xs.append(time.perf_counter() - s)
            rows.append((label, xs, size(got)))

        await timed("hover on a node id", lambda: client.text_document_hover_async(t.HoverParams(**at_ref)))
        await timed("go to definition", lambda: client.text_document_definition_async(t.DefinitionParams(**at_ref)))
        await timed("completion in a $ref's node", lambda: client.text_document_completion_async(
            t.CompletionParams(**at_ref)))
        await timed("document symbols", lambda: client.text_document_document_symbol_async(
            t.DocumentSymbolParams(text_document=t.TextDocumentIdentifier(uri=uri))))
        # Broken mid-typing: a `$ref`'s node value cut to an unclosed `"`
        # (YAML: `'`) near the end of the document; queries answer from the
        # last good version (before the change) or the repaired text
        # (completion).
        last = text.rindex(node_key) + len(node_key)
        close = text.index(ends, last)
        version += 1
        cut = t.Range(start=position(text, last), end=position(text, close + (0 if args.yaml else 1)))
        client.text_document_did_change(t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[t.TextDocumentContentChangePartial(range=cut, text="'" if args.yaml else "")]))
        await wait(version)
        at_cut = dict(text_document=t.TextDocumentIdentifier(uri=uri), position=position(text, last))
        await timed("not parsing: hover on a node id (last good version)",
                    lambda: client.text_document_hover_async(t.HoverParams(**at_ref)))
        await timed("not parsing: document symbols (last good version)",
                    lambda: client.text_document_document_symbol_async(
                        t.DocumentSymbolParams(text_document=t.TextDocumentIdentifier(uri=uri))))
        await timed("not parsing: completion after the unclosed `node` value",
                    lambda: client.text_document_completion_async(t.CompletionParams(**at_cut)))
        load = os.getloadavg()
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
        times, size = raw_symbols(pf, root, env, uri, language, text)
        base = []
        for _ in range(3):
            s = time.perf_counter()
            subprocess.run([pf, "validate", str(doc)], cwd=root, env=env, capture_output=True)
            base.append(time.perf_counter() - s)
        baseline = statistics.median(base)
        rows.append(("baseline: `planforge validate FILE` (process included)", base, None))
        rows.append((f"document symbols, to the response's last byte (a bare JSON-RPC client, no decoding; "
                     f"{size / 1e6:.1f} MB)", times, None))
        shape = " one-line" if args.one_line else (" pretty" if not args.yaml else "")
        print(f"\n`planforge lsp` on a {args.nodes:,}-node{shape} {language.upper()} document ({len(text) / 1e6:.1f} MB), "
              f"debounce {args.debounce_ms} ms, load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} "
              f"(1 / 5 / 15 min, {os.cpu_count()} cores)\n")
        print("| step | median | max | median / baseline | max / baseline | diagnostics / answer |")
        print("|---|---|---|---|---|---|")
        for label, xs, n in rows:
            med, top = statistics.median(xs), max(xs)
            print(f"| {label} | {med * 1000:.0f} ms | {top * 1000:.0f} ms | {med / baseline:.2f} | "
                  f"{top / baseline:.2f} | {'' if n is None else n} |")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--nodes", type=int, default=10_000)
    p.add_argument("--edits", type=int, default=10)
    p.add_argument("--debounce-ms", type=int, default=200)
    p.add_argument("--burst", type=int, default=20)
    p.add_argument("--yaml", action="store_true", help="the document in block-style YAML")
    p.add_argument("--one-line", action="store_true", help="the JSON document on one line")
    asyncio.run(run(p.parse_args()))

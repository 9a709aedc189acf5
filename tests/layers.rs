//! The layer order (docs/architecture.md), enforced by reading the sources:
//!
//! ```text
//! model ← wire ← {store, check, registry} ← forge ← render ← {mcp, lsp} ← cli
//! ```
//!
//! A module may use the modules below it and never one beside or above it;
//! `render` sees only `forge` and `model`, and `lsp` only those and
//! `render`. Files also never import each
//! other in a cycle. What counts as an import: every `crate::…` and
//! `super::…` path in a file's code (in `use` lines and inline), outside
//! comments and outside test code (`#[cfg(test)]` modules and files, which
//! may build fixtures from any layer).
//!
//! One file, one concept, and no function longer than 150 lines (from its
//! `fn` line to its closing brace, test code included): a longer one is
//! split by step.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The top-level modules in layer order; modules of one rank are siblings.
const LAYERS: &[(&str, u8)] = &[
    ("model", 0),
    ("wire", 1),
    ("store", 2),
    ("check", 2),
    ("registry", 2),
    ("forge", 3),
    ("render", 4),
    ("mcp", 5),
    ("lsp", 5),
    ("cli", 6),
];

/// Modules a module may use beyond the rule of ranks being stricter.
fn allowed(from: &str, to: &str) -> bool {
    if from == to {
        return true;
    }
    if from == "render" {
        return matches!(to, "forge" | "model");
    }
    // The editor adapter sees what renderers see, and the renderers.
    if from == "lsp" {
        return matches!(to, "forge" | "render" | "model");
    }
    match (rank(from), rank(to)) {
        (Some(a), Some(b)) => b < a,
        _ => false,
    }
}

fn rank(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, r)| *r)
}

/// One source file: its module path and its text.
struct Source {
    file: String,
    module: Vec<String>,
    text: String,
}

fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    if parts == ["lib"] {
        parts.clear();
    }
    parts
}

fn read_tree(root: &Path) -> Vec<Source> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                if rel == "main.rs" {
                    continue;
                }
                out.push(Source {
                    module: module_of(&rel),
                    file: rel,
                    text: std::fs::read_to_string(&path).unwrap(),
                });
            }
        }
    }
    out.sort_by(|a, b| a.file.cmp(&b.file));
    out
}

/// The text without comments, string literals and `#[cfg(test)]` items.
fn code_of(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if text[i..].starts_with("//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if text[i..].starts_with("/*") {
            i = text[i..].find("*/").map_or(b.len(), |e| i + e + 2);
        } else if text[i..].starts_with("r#\"") {
            i = text[i + 3..].find("\"#").map_or(b.len(), |e| i + 3 + e + 2);
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && i + 2 < b.len() && (b[i + 2] == b'\'' || b[i + 1] == b'\\') {
            // A char literal ('x', '\n', '\''); lifetimes are left alone.
            let end = text[i + 2..].find('\'').map_or(b.len(), |e| i + 2 + e + 1);
            i = end;
        } else if text[i..].starts_with("#[cfg(test)]") {
            i = skip_item(text, i + "#[cfg(test)]".len());
        } else {
            let c = text[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// Skips the item after an attribute: to its `;` or its balanced `{…}`.
fn skip_item(text: &str, mut i: usize) -> usize {
    let b = text.as_bytes();
    while i < b.len() && b[i] != b'{' && b[i] != b';' {
        i += 1;
    }
    if i < b.len() && b[i] == b';' {
        return i + 1;
    }
    let mut depth = 0;
    while i < b.len() {
        match b[i] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// Modules declared `#[cfg(test)] mod name;` in a file: test files.
fn test_children(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        rest = &rest[at + "#[cfg(test)]".len()..];
        let item = rest.trim_start();
        let item = item.strip_prefix("pub(crate) ").unwrap_or(item);
        if let Some(decl) = item.strip_prefix("mod ")
            && let Some(end) = decl.find(';')
            && !decl[..end].contains('{')
        {
            out.push(decl[..end].trim().to_string());
        }
    }
    out
}

/// Every `crate::`/`super::` path in `code`, expanded from `use` groups,
/// as absolute module paths (segments after `crate`).
fn paths_in(code: &str, me: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut push = |segs: Vec<String>| {
        let mut segs = segs.into_iter().filter(|s| s != "self" && s != "*");
        let Some(first) = segs.next() else { return };
        let mut base: Vec<String> = match first.as_str() {
            "crate" => Vec::new(),
            "super" => {
                let mut b = me.to_vec();
                b.pop();
                b
            }
            _ => return,
        };
        for s in segs {
            if s == "super" {
                base.pop();
            } else {
                base.push(s);
            }
        }
        out.push(base);
    };
    // `use` statements, with their groups expanded.
    for stmt in use_statements(code) {
        for path in expand(&stmt) {
            push(path.split("::").map(str::to_string).collect());
        }
    }
    // Inline paths.
    let b = code.as_bytes();
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(start) {
            let i = from + at;
            from = i + start.len();
            if i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b':') {
                continue;
            }
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_' || b[j] == b':') {
                j += 1;
            }
            let path = code[i..j].trim_end_matches(':');
            push(path.split("::").map(str::to_string).collect());
        }
    }
    out
}

fn use_statements(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in code.match_indices("use ") {
        let before = &code[..i];
        let line_start = before.rfind('\n').map_or(0, |p| p + 1);
        let prefix = before[line_start..].trim();
        if !(prefix.is_empty() || prefix.starts_with("pub")) {
            continue;
        }
        let Some(end) = code[i..].find(';') else {
            continue;
        };
        // Aliases (`a::b as c`) name the same item: drop them, then the
        // whitespace.
        let words: Vec<&str> = code[i + 4..i + end]
            .split_whitespace()
            .flat_map(|w| w.split_inclusive(','))
            .collect();
        let mut stmt = String::new();
        let mut skip = false;
        for w in words {
            if skip {
                skip = false;
                stmt.extend(w.chars().filter(|c| matches!(c, ',' | '}')));
                continue;
            }
            if w == "as" {
                skip = true;
                continue;
            }
            stmt.push_str(w);
        }
        if stmt.starts_with("crate::") || stmt.starts_with("super::") {
            out.push(stmt);
        }
    }
    out
}

/// `a::{b, c::{d, e}}` → `a::b`, `a::c::d`, `a::c::e` (aliases dropped).
fn expand(u: &str) -> Vec<String> {
    let Some(open) = u.find('{') else {
        return vec![u.to_string()];
    };
    let prefix = &u[..open];
    let inner = &u[open + 1..u.rfind('}').unwrap_or(u.len())];
    let mut parts = Vec::new();
    let (mut depth, mut cur) = (0, String::new());
    for c in inner.chars() {
        match c {
            ',' if depth == 0 => parts.push(std::mem::take(&mut cur)),
            '{' => {
                depth += 1;
                cur.push(c)
            }
            '}' => {
                depth -= 1;
                cur.push(c)
            }
            _ => cur.push(c),
        }
    }
    parts.push(cur);
    parts
        .iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand(p))
        .map(|p| format!("{prefix}{p}"))
        .collect()
}

/// What the analysis finds: imports against the order and file cycles.
#[derive(Debug, Default)]
struct Findings {
    against_order: Vec<String>,
    cycles: Vec<Vec<String>>,
}

fn analyse(sources: &[Source]) -> Findings {
    let by_module: BTreeMap<Vec<String>, &str> = sources
        .iter()
        .map(|s| (s.module.clone(), s.file.as_str()))
        .collect();
    let mut test_files = BTreeSet::new();
    for s in sources {
        for child in test_children(&s.text) {
            let mut m = s.module.clone();
            m.push(child);
            if let Some(f) = by_module.get(&m) {
                test_files.insert(f.to_string());
            }
        }
    }
    let mut findings = Findings::default();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for s in sources {
        if s.module.is_empty() || test_files.contains(&s.file) {
            continue;
        }
        let code = code_of(&s.text);
        let me_top = s.module[0].as_str();
        for path in paths_in(&code, &s.module) {
            let Some(top) = path.first() else { continue };
            if !allowed(me_top, top) && rank(top).is_some() {
                findings
                    .against_order
                    .push(format!("{}: crate::{}", s.file, path.join("::")));
            }
            let target = (0..=path.len())
                .rev()
                .find_map(|n| by_module.get(&path[..n]));
            if let Some(t) = target
                && *t != s.file
            {
                graph
                    .entry(s.file.clone())
                    .or_default()
                    .insert(t.to_string());
            }
        }
    }
    findings.against_order.sort();
    findings.against_order.dedup();
    findings.cycles = cycles(&graph);
    findings
}

/// Strongly connected components of more than one file (Tarjan).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct T<'g> {
        g: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on: BTreeSet<&'g str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'g>(t: &mut T<'g>, v: &'g str) {
        let n = t.index.len();
        t.index.insert(v, n);
        t.low.insert(v, n);
        t.stack.push(v);
        t.on.insert(v);
        if let Some(ws) = t.g.get(v) {
            for w in ws {
                if !t.index.contains_key(w.as_str()) {
                    visit(t, w);
                    let lw = t.low[w.as_str()];
                    let lv = t.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if t.on.contains(w.as_str()) {
                    let iw = t.index[w.as_str()];
                    let lv = t.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        g: graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out
}

#[test]
fn the_sources_follow_the_layer_order_without_cycles() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let sources = read_tree(&src);
    let tops: BTreeSet<&str> = sources
        .iter()
        .filter_map(|s| s.module.first().map(String::as_str))
        .collect();
    for top in &tops {
        assert!(
            rank(top).is_some(),
            "src/{top} is not in the layer order: add it to LAYERS and docs/architecture.md"
        );
    }
    let f = analyse(&sources);
    assert!(
        f.against_order.is_empty(),
        "imports against the layer order (model ← wire ← {{store, check, registry}} ← forge ← render ← {{mcp, lsp}} ← cli; render sees only forge and model, lsp only forge, render and model):\n{}",
        f.against_order.join("\n")
    );
    assert!(
        f.cycles.is_empty(),
        "files that import each other in a cycle:\n{:#?}",
        f.cycles
    );
}

fn src(file: &str, text: &str) -> Source {
    Source {
        file: file.to_string(),
        module: module_of(file),
        text: text.to_string(),
    }
}

#[test]
fn an_import_against_the_order_or_a_cycle_is_found() {
    let tree = || {
        vec![
            src("model/mod.rs", "pub mod node;\n"),
            src("model/node.rs", "pub struct Node;\n"),
            src("wire/mod.rs", "use crate::model::node::Node;\n"),
            src(
                "render/mod.rs",
                "use crate::forge::Forge;\n// use crate::store::Store;\nfn f() -> &'static str { \"crate::cli::x\" }\n",
            ),
            src("forge/mod.rs", "pub struct Forge;\n"),
            src("store/mod.rs", "pub struct Store;\n"),
            src("cli/mod.rs", "use crate::forge::Forge;\n"),
        ]
    };
    let clean = analyse(&tree());
    assert!(clean.against_order.is_empty(), "{:?}", clean.against_order);
    assert!(clean.cycles.is_empty());

    // The model reaching up into the wire layer, inline.
    let mut t = tree();
    t[1].text.push_str("fn f() { crate::wire::encode(); }\n");
    assert_eq!(
        analyse(&t).against_order,
        vec!["model/node.rs: crate::wire::encode"]
    );
    // A renderer using the store, in a grouped use.
    let mut t = tree();
    t[3].text
        .push_str("use crate::{model::node::Node, store::{self, Store}};\n");
    assert_eq!(
        analyse(&t).against_order,
        vec![
            "render/mod.rs: crate::store",
            "render/mod.rs: crate::store::Store"
        ]
    );
    // Siblings never use each other; test code may.
    let mut t = tree();
    t[5].text
        .push_str("#[cfg(test)]\nmod tests {\n    use crate::check::x;\n}\n");
    assert!(analyse(&t).against_order.is_empty());
    t[5].text.push_str("use crate::check::Report;\n");
    assert_eq!(
        analyse(&t).against_order,
        vec!["store/mod.rs: crate::check::Report"]
    );
    // Two files of one layer importing each other.
    let mut t = tree();
    t[0].text.push_str("pub use crate::model::node::Node;\n");
    t[1].text.push_str("use super::Value;\n");
    assert_eq!(
        analyse(&t).cycles,
        vec![vec![
            "model/mod.rs".to_string(),
            "model/node.rs".to_string()
        ]]
    );
}

/// The longest a function may be, counted from its `fn` line to the line
/// of its closing brace.
const MAX_FN_LINES: usize = 150;

/// The text with comments, string and char literals blanked to spaces,
/// newlines kept, so that line numbers still match the file.
fn blank_literals(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, from: &[u8]| {
        out.extend(from.iter().map(|&c| if c == b'\n' { b'\n' } else { b' ' }));
    };
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    while i < b.len() {
        let rest = &b[i..];
        let after_ident = i > 0 && ident(b[i - 1]);
        if rest.starts_with(b"//") {
            let end = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest.starts_with(b"/*") {
            // Block comments nest.
            let (mut j, mut depth) = (2, 1);
            while j < rest.len() && depth > 0 {
                if rest[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if rest[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            blank(&mut out, &rest[..j]);
            i += j;
        } else if !after_ident && let Some(open) = raw_string_open(rest) {
            // r"…", r#"…"#, br##"…"##: closed by a quote and as many hashes.
            let hashes = open
                - rest[..open]
                    .iter()
                    .position(|&c| c == b'#' || c == b'"')
                    .unwrap()
                - 1;
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            let end = rest[open..]
                .windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(rest.len(), |p| open + p + close.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest[0] == b'"' {
            let mut j = 1;
            while j < rest.len() && rest[j] != b'"' {
                j += if rest[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest[0] == b'\'' && char_literal_len(rest).is_some() {
            let end = char_literal_len(rest).unwrap();
            blank(&mut out, &rest[..end]);
            i += end;
        } else {
            out.push(rest[0]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// At a raw string's start (`r"`, `r#"`, `br#"`…), the offset just past its
/// opening quote.
fn raw_string_open(rest: &[u8]) -> Option<usize> {
    let mut j = 0;
    if rest.first() == Some(&b'b') || rest.first() == Some(&b'c') {
        j += 1;
    }
    if rest.get(j) != Some(&b'r') {
        return None;
    }
    j += 1;
    while rest.get(j) == Some(&b'#') {
        j += 1;
    }
    (rest.get(j) == Some(&b'"')).then_some(j + 1)
}

/// The length of a char literal at the start of `rest` ('x', '\n', '\'',
/// '\u{1F600}', 'é'), or `None` for a lifetime or label.
fn char_literal_len(rest: &[u8]) -> Option<usize> {
    if rest.get(1) == Some(&b'\\') {
        let close = rest[3..].iter().position(|&c| c == b'\'')?;
        return Some(3 + close + 1);
    }
    let s = std::str::from_utf8(&rest[1..rest.len().min(6)])
        .ok()
        .or_else(|| {
            // A multi-byte char cut off at the window's end: decode what fits.
            (2..6)
                .rev()
                .find_map(|n| std::str::from_utf8(rest.get(1..n)?).ok())
        })?;
    let c = s.chars().next()?;
    let n = c.len_utf8();
    (rest.get(1 + n) == Some(&b'\'')).then_some(1 + n + 1)
}

/// Every function in `text` with a body, as (name, first line, line count).
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let code = blank_literals(text);
    let b = code.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let line_at = |i: usize| code[..i].matches('\n').count() + 1;
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("fn") {
        let i = from + at;
        from = i + 2;
        if (i > 0 && ident(b[i - 1])) || !b.get(i + 2).is_some_and(|c| c.is_ascii_whitespace()) {
            continue;
        }
        // `fn name` — a function pointer type (`fn(u8)`) has no name.
        let mut j = i + 2;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        let start = j;
        while j < b.len() && ident(b[j]) {
            j += 1;
        }
        if j == start {
            continue;
        }
        let name = code[start..j].to_string();
        // The body opens at the first `{` outside the signature's brackets;
        // a `;` first means a declaration without one. A `$` or a bracket
        // closed before it opened means a macro's pattern or template, whose
        // body is not written here.
        let mut depth = 0i32;
        let open = loop {
            match b.get(j) {
                None | Some(b'$') => break None,
                Some(b'(' | b'[') => depth += 1,
                Some(b')' | b']') if depth == 0 => break None,
                Some(b')' | b']') => depth -= 1,
                Some(b';') if depth == 0 => break None,
                Some(b'{') if depth == 0 => break Some(j),
                _ => {}
            }
            j += 1;
        };
        let Some(open) = open else { continue };
        let mut depth = 0;
        let mut k = open;
        while k < b.len() {
            match b[k] {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            k += 1;
        }
        let (first, last) = (line_at(i), line_at(k.min(b.len())));
        out.push((name, first, last - first + 1));
    }
    out
}

/// Functions longer than `MAX_FN_LINES`, as `file:line name (n lines)`.
fn too_long(sources: &[Source]) -> Vec<String> {
    let mut out = Vec::new();
    for s in sources {
        for (name, line, n) in functions(&s.text) {
            if n > MAX_FN_LINES {
                out.push(format!("src/{}:{line} {name} ({n} lines)", s.file));
            }
        }
    }
    out
}

#[test]
fn no_function_is_longer_than_150_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut sources = read_tree(&src);
    sources.push(Source {
        file: "main.rs".to_string(),
        module: Vec::new(),
        text: std::fs::read_to_string(src.join("main.rs")).unwrap(),
    });
    let long = too_long(&sources);
    assert!(
        long.is_empty(),
        "functions longer than {MAX_FN_LINES} lines (split them by step):\n{}",
        long.join("\n")
    );
}

#[test]
fn a_long_function_is_found() {
    let body = |n: usize| "    let x = 1;\n".repeat(n);
    // 150 lines from `fn` to `}`: allowed; 151: too long.
    let text = format!(
        "/// fn doc() {{\nfn fits() {{\n{}}}\n\nfn over<'a>(s: &'a str, f: fn(u8) -> u8, a: [u8; 2]) -> &'a str\nwhere\n    u8: Copy,\n{{\n{}    s\n}}\n",
        body(148),
        body(145),
    );
    // Braces in strings, chars, raw strings and comments are not code.
    let text = text.replace(
        "    let x = 1;\n",
        "    let x = ('{', \"}\", r#\"{\"#, b'}'); // }\n",
    );
    let sources = vec![src("model/mod.rs", &text)];
    let found = functions(&sources[0].text);
    assert_eq!(
        found,
        vec![("fits".to_string(), 2, 150), ("over".to_string(), 153, 151)]
    );
    assert_eq!(
        too_long(&sources),
        vec!["src/model/mod.rs:153 over (151 lines)"]
    );
    // A declaration in a trait, a function pointer type and a macro's
    // pattern and template have no body here.
    let decl = "trait T { fn f(&self) -> u8; }\nstruct S { f: fn(u8) -> u8 }\nfn g() {}\nmacro_rules! m {\n    (fn run($a:ident) $body:block) => {\n        impl X { fn run(&self, $a: u8) $body }\n    };\n}\nm! { fn run(a) {\n} }\n";
    assert_eq!(
        functions(decl),
        vec![("g".to_string(), 3, 1), ("run".to_string(), 9, 2)]
    );
}

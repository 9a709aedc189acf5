//! The forge's editor answers as LSP results: hover text (Markdown),
//! locations, completion items, document symbols and code actions.

use super::convert::{Encoding, Lines};
use super::documents::{Open, Validated};
use crate::forge::editor::Span;
use crate::forge::editor::complete::Completion;
use crate::forge::editor::hover::{Hover, NodeInfo, ToolInfo};
use crate::forge::editor::symbols::{Symbol, SymbolKind as Kind};
use crate::model::remedy::Voice;
use lsp_types::{
    CodeAction, CodeActionKind, CompletionItem, CompletionItemKind, CompletionTextEdit,
    DocumentSymbol, Hover as LspHover, HoverContents, Location, MarkupContent, MarkupKind, Range,
    SymbolKind, TextEdit, Uri, WorkspaceEdit,
};
use std::collections::HashMap;
use std::sync::Arc;

fn ids(v: &[String]) -> String {
    v.iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn ends(v: &[(String, String)]) -> String {
    v.iter()
        .map(|(n, h)| format!("`{n}` ({h})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A node as Markdown.
pub(crate) fn node_markdown(n: &NodeInfo) -> String {
    if !n.defined {
        return format!("**`{}`**: the document has no node with this id", n.id);
    }
    let kind = n.kind.map_or("node", |k| k.as_str());
    let mut out = format!("**`{}`** — {kind} node", n.id);
    match &n.phase {
        Some(p) => out.push_str(&format!(", phase `{p}`")),
        None => out.push_str(", no phase"),
    }
    out.push_str("\n\n");
    let mut rows: Vec<String> = Vec::new();
    if !n.reads.is_empty() {
        let reads: Vec<String> = n
            .reads
            .iter()
            .map(|(node, paths)| match paths.as_slice() {
                [] => format!("`{node}`"),
                p => format!("`{node}` ({})", ids(p)),
            })
            .collect();
        rows.push(format!("reads: {}", reads.join(", ")));
    }
    if !n.incoming.is_empty() {
        rows.push(format!("after: {}", ends(&n.incoming)));
    }
    if !n.outgoing.is_empty() {
        rows.push(format!("before: {}", ends(&n.outgoing)));
    }
    if !n.outputs.is_empty() {
        rows.push(format!("declares: {}", ids(&n.outputs)));
    }
    out.push_str(&rows.join("  \n"));
    if !n.issues.is_empty() {
        out.push_str("\n\nfindings:\n");
        for i in n.issues.iter().take(20) {
            out.push_str(&format!(
                "- {} `{}`: {}\n",
                i.severity().as_str(),
                i.code,
                i.message
            ));
        }
        if n.issues.len() > 20 {
            out.push_str(&format!("- … and {} more\n", n.issues.len() - 20));
        }
    }
    out
}

/// A tool as Markdown.
pub(crate) fn tool_markdown(t: &ToolInfo) -> String {
    let Some(source) = &t.registry else {
        return format!(
            "**`{}`**: no registry was found for this document (none named by --registry, and no store above it)",
            t.name
        );
    };
    let Some(e) = &t.entry else {
        let near = match t.nearest.as_slice() {
            [] => String::new(),
            n => format!("; did you mean {}?", ids(n)),
        };
        return format!("**`{}`** is not in the registry `{source}`{near}", t.name);
    };
    let mut out = format!("**`{}`** — tool of the registry `{source}`\n\n", t.name);
    if let Some(s) = &e.summary {
        out.push_str(s);
        out.push_str("\n\n");
    }
    let mut rows = Vec::new();
    if let Some(r) = &e.returns {
        rows.push(format!("returns: {}", r.describe()));
    }
    if !e.required_args.is_empty() {
        rows.push(format!("required args: {}", ids(&e.required_args)));
    }
    if e.spawns_agent {
        rows.push(match &e.tools_arg {
            Some(a) => format!("spawns an agent (its tools in `{a}`)"),
            None => "spawns an agent".to_string(),
        });
    }
    if !e.writes.is_empty() {
        rows.push(format!("writes: {}", ids(&e.writes)));
    }
    out.push_str(&rows.join("  \n"));
    out
}

pub(crate) fn hover(open: &Open, offset: usize, enc: Encoding) -> Option<LspHover> {
    let issues = open
        .last
        .as_ref()
        .and_then(|v| v.target.as_deref())
        .map(|t| t.report.issues.as_slice())
        .unwrap_or_default();
    let registry = open.last.as_ref().and_then(|v| v.registry.as_deref());
    let (h, span) = open.doc.hover(offset, registry, issues)?;
    let value = match &h {
        Hover::Node(n) => node_markdown(n),
        Hover::Tool(t) => tool_markdown(t),
    };
    Some(LspHover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range: Some(open.lines.range(&open.doc.text, span, enc)),
    })
}

pub(crate) fn location(uri: &Uri, open: &Open, s: Span, enc: Encoding) -> Location {
    Location {
        uri: uri.clone(),
        range: open.lines.range(&open.doc.text, s, enc),
    }
}

pub(crate) fn completion_items(open: &Open, c: Completion, enc: Encoding) -> Vec<CompletionItem> {
    let range = open.lines.range(&open.doc.text, c.span, enc);
    c.items
        .into_iter()
        .enumerate()
        .map(|(i, cand)| CompletionItem {
            label: cand.label.clone(),
            kind: Some(CompletionItemKind::VALUE),
            detail: cand.detail,
            sort_text: Some(format!("{}{i:07}", cand.rank)),
            filter_text: Some(cand.insert.clone()),
            text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                range,
                new_text: cand.insert,
            })),
            ..CompletionItem::default()
        })
        .collect()
}

/// The outline of an open document as the JSON of the response's result,
/// serialised straight from the symbols (no intermediate value of 10,000
/// entries), and kept with the version while it is well-formed (an
/// unchanged document's outline is not made again; a version that does not
/// read answers from the last good one, which the reader may still be
/// reading, so it is made per request).
pub(crate) fn symbols_json(o: &mut Open, enc: Encoding) -> serde_json::Result<Arc<str>> {
    if let Some(kept) = &o.symbols {
        return Ok(Arc::clone(kept));
    }
    let symbols: Vec<DocumentSymbol> = o
        .doc
        .symbols()
        .into_iter()
        .map(|s| symbol(s, &o.doc.text, &o.lines, enc))
        .collect();
    let json: Arc<str> = serde_json::to_string(&symbols)?.into();
    if o.doc.index_if_read().is_some() {
        o.symbols = Some(Arc::clone(&json));
    }
    Ok(json)
}

#[allow(deprecated)]
pub(crate) fn symbol(s: Symbol, text: &str, lines: &Lines, enc: Encoding) -> DocumentSymbol {
    DocumentSymbol {
        name: s.name,
        detail: s.detail,
        kind: match s.kind {
            Kind::Phase => SymbolKind::NAMESPACE,
            Kind::Node => SymbolKind::OBJECT,
        },
        tags: None,
        deprecated: None,
        range: lines.range(text, s.span, enc),
        selection_range: lines.range(text, s.select, enc),
        // A node has none: no empty list per node (10,000 of them in a
        // large plan's outline).
        children: (!s.children.is_empty()).then(|| {
            s.children
                .into_iter()
                .map(|c| symbol(c, text, lines, enc))
                .collect()
        }),
    }
}

fn overlaps(a: &Range, b: &Range) -> bool {
    a.start <= b.end && b.start <= a.end
}

/// How many findings one code-action request offers fixes for (a
/// selection of the whole document of a large plan meets thousands).
const MAX_FINDINGS: usize = 100;

/// The code actions for the findings whose range meets `range`.
pub(crate) fn actions(
    uri: &Uri,
    open: &Open,
    v: &Validated,
    range: Range,
    enc: Encoding,
) -> Vec<CodeAction> {
    let voice = super::voice::document_voice();
    let text = &open.doc.text;
    let to_edit = |edits: &[crate::forge::editor::edits::Edit]| WorkspaceEdit {
        changes: Some(HashMap::from([(
            uri.clone(),
            edits
                .iter()
                .map(|e| TextEdit {
                    range: open.lines.range(text, e.span, enc),
                    new_text: e.text.clone(),
                })
                .collect(),
        )])),
        ..WorkspaceEdit::default()
    };
    let mut out = Vec::new();
    let Some(target) = &v.target else {
        return Vec::new();
    };
    let hit: Vec<&crate::forge::validate::Finding> = target
        .findings
        .iter()
        .filter(|f| {
            overlaps(
                &super::diagnostics::range_of(f, text, &open.lines, enc),
                &range,
            )
        })
        .take(MAX_FINDINGS)
        .collect();
    for (f, fixes) in hit.iter().zip(open.doc.fixes(&hit)) {
        let diag = super::diagnostics::diagnostics_of_one(f, text, &open.lines, enc);
        for a in fixes.actions {
            // A dangling edge's endpoint renamed: said as the edit it is.
            let mut title = match &a.sets_endpoints {
                Some((edge, sets)) => format!(
                    "in the edge `{edge}`, {}",
                    sets.iter()
                        .map(|(key, node)| format!("set `{key}` to \"{node}\""))
                        .collect::<Vec<_>>()
                        .join(" and ")
                ),
                None => voice.say(&a.fix.remedy),
            };
            if let Some(w) = &a.fix.when {
                title.push_str(&format!(" ({w})"));
            }
            out.push(CodeAction {
                title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diag.clone()]),
                edit: Some(to_edit(&a.edits)),
                is_preferred: Some(a.preferred),
                ..CodeAction::default()
            });
        }
        if let Some(s) = fixes.suppression {
            // Already suppressed (its reason missing): lead to that entry's
            // reason; a second entry would be one more finding.
            if let Some(at) = s.existing {
                let line = open.lines.range(text, at, enc).start.line + 1;
                let why = format!(
                    "`{}` is already suppressed on node `{}` (line {line}): write that entry's reason",
                    s.code, s.node
                );
                out.push(CodeAction {
                    title: why.clone(),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![diag]),
                    disabled: Some(lsp_types::CodeActionDisabled { reason: why }),
                    ..CodeAction::default()
                });
                continue;
            }
            out.push(CodeAction {
                title: format!(
                    "suppress `{}` on node `{}` (then write the reason)",
                    s.code, s.node
                ),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diag]),
                edit: Some(to_edit(&s.edits)),
                is_preferred: Some(false),
                ..CodeAction::default()
            });
        }
    }
    out
}

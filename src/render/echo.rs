//! The bounded mutation echo, as prose and as JSON.

use super::node::{self, Style};
use crate::forge::echo::{Echo, MAX_STRING, Neighbour};
use crate::model::remedy::{Remedy, Voice};
use serde_json::{Value, json};

/// Each issue's problem statement in an echo is cut to this many bytes
/// (never its fix).
const MAX_MESSAGE: usize = 200;
/// What each part of an echo may take at most, in bytes (a part that needs
/// less leaves the rest to the others): the neighbours and the details; the
/// issues near the change take what they need but [`NODE_KEEP`] bytes for
/// the node, which gets what is left.
const NEIGHBOURS_SHARE: usize = 260;
const NODE_KEEP: usize = 300;
const DETAILS_SHARE: usize = 420;
/// A single line of the echo is cut to this many bytes.
const MAX_LINE: usize = 200;

/// Lines added while they fit in `left` bytes (each with its newline),
/// keeping room for one closing note.
struct Fit {
    lines: Vec<String>,
    left: usize,
    /// Room kept for the line that says what was left out.
    note_room: usize,
}

/// Room kept for the line that says what was left out, by default.
const NOTE_ROOM: usize = 110;
/// The same for the issues, whose note names the codes left out.
const ISSUE_NOTE_ROOM: usize = 230;

impl Fit {
    fn new(left: usize) -> Fit {
        Fit {
            lines: Vec::new(),
            left,
            note_room: NOTE_ROOM,
        }
    }
    fn used(&self) -> usize {
        self.lines.iter().map(|l| l.len() + 1).sum()
    }
    /// Adds `line` if it fits with room for a note after it.
    fn push(&mut self, line: String) -> bool {
        if line.len() + 1 + self.note_room > self.left {
            return false;
        }
        self.left -= line.len() + 1;
        self.lines.push(line);
        true
    }
    /// Adds the closing note (it always fits: room was kept for it).
    fn note(&mut self, line: String) {
        let line = crate::model::text::cut(&line, self.note_room.saturating_sub(1));
        self.left = self.left.saturating_sub(line.len() + 1);
        self.lines.push(line);
    }
}

/// `Predecessors: a (edge e1, always), b (edge e2, error) … and 3 more`,
/// within `room` bytes.
fn neighbours(label: &str, list: &[Neighbour], more: usize, room: usize) -> String {
    if list.is_empty() {
        return format!("{label}: (none)");
    }
    let mut s = format!("{label}: ");
    let mut shown = 0;
    for n in list {
        let item = format!("{} (edge {}, {})", n.node_id, n.edge_id, n.handle);
        if shown > 0 && s.len() + item.len() + 24 > room {
            break;
        }
        if shown > 0 {
            s.push_str(", ");
        }
        s.push_str(&item);
        shown += 1;
    }
    let hidden = list.len() - shown + more;
    if hidden > 0 {
        s.push_str(&format!(" … and {hidden} more"));
    }
    s
}

/// The issues near the change: the first always, the others while they fit
/// in `room`, each problem statement cut, each fix whole.
fn issue_lines(e: &Echo, v: &dyn Voice, room: usize) -> Vec<String> {
    if e.issues.is_empty() {
        return Vec::new();
    }
    let groups = super::issues::groups(&e.issues);
    let total = e.issues.len() + e.more_issues;
    let mut fit = Fit::new(room);
    fit.note_room = ISSUE_NOTE_ROOM;
    fit.lines
        .push(format!("Issues near this change ({total}):"));
    let mut shown = 0;
    let mut hidden: Vec<&crate::model::Issue> = Vec::new();
    for (k, g) in groups.iter().enumerate() {
        let mut head = g.head.clone();
        head.message = crate::model::text::cut(&head.message, MAX_MESSAGE);
        let mut line = super::issues::line(&head, v);
        if let Some(f) = super::issues::follow_line(&g.follow) {
            line.push('\n');
            line.push_str(&f);
        }
        if shown == 0 {
            fit.left = fit.left.saturating_sub(line.len() + 1);
            fit.lines.push(line);
        } else if !fit.push(line) {
            for g in &groups[k..] {
                hidden.push(g.head);
                hidden.extend(g.follow.iter().copied());
            }
            break;
        }
        shown += 1 + g.follow.len();
    }
    if total > shown {
        // Name what is hidden, so that the finding that matters is seen.
        let codes = super::issues::code_counts(&hidden);
        let codes = match (codes.is_empty(), e.more_issues) {
            (true, _) => String::new(),
            (false, 0) => format!(": {codes}"),
            (false, _) => format!(": {codes} and others"),
        };
        fit.note(format!(
            "  … and {} more{codes} ({} lists them with their fixes)",
            total - shown,
            v.say(&Remedy::Validate)
        ));
    }
    fit.lines
}

/// The issues near the change as counts by code, and where to read them.
fn issue_counts(e: &Echo, v: &dyn Voice) -> Vec<String> {
    if e.issues.is_empty() {
        return Vec::new();
    }
    let all: Vec<&crate::model::Issue> = e.issues.iter().collect();
    let more = if e.more_issues > 0 { " and others" } else { "" };
    vec![crate::model::text::cut(
        &format!(
            "Issues near this change ({}): {}{more} ({} lists them with their fixes)",
            e.issues.len() + e.more_issues,
            super::issues::code_counts(&all),
            v.say(&Remedy::Validate)
        ),
        ISSUE_NOTE_ROOM + 120,
    )]
}

/// The echoed node's lines within `room`, then how to read the rest.
fn node_lines(e: &Echo, v: &dyn Voice, room: usize) -> Vec<String> {
    let Some(n) = &e.node else {
        return Vec::new();
    };
    let style = Style {
        cut: Some(MAX_STRING),
        ..Style::model()
    };
    // The echo lists neighbours below; the block keeps its own edges out.
    let mut lines = node::block(n, None, &[], &[], &style);
    if lines.last().is_some_and(|l| l.contains("on completion")) {
        lines.pop();
    }
    // A join's block counts the edges it was given (none): the echo says
    // how many it has, and lists them as predecessors.
    let joined = e.predecessors.len() + e.more_predecessors;
    if n.kind == crate::model::NodeKind::Join && joined > 0 {
        for l in lines
            .iter_mut()
            .filter(|l| l.contains("awaits no incoming edge yet"))
        {
            *l = if n.settles() {
                format!(
                    "    settles: fires once every branch from its fork arrived on one of its {joined} incoming edge(s) (an `error` edge included) or stopped: its predecessors, below"
                )
            } else {
                format!("    awaits {joined} incoming edge(s): its predecessors, below")
            };
        }
    }
    let mut fit = Fit::new(room);
    let total = lines.len();
    for l in lines {
        if !fit.push(crate::model::text::cut(&l, MAX_LINE)) {
            break;
        }
    }
    if fit.lines.len() < total {
        fit.note(format!(
            "  … and {} more line(s) of `{}`: {} shows it whole",
            total - fit.lines.len(),
            n.id,
            v.say(&Remedy::ReadNode {
                node: n.id.to_string()
            })
        ));
    }
    fit.lines
}

/// The echo as prose, within [`budget::ECHO`](crate::model::budget::ECHO)
/// bytes whatever the node holds.
pub(crate) fn text(e: &Echo, v: &dyn Voice) -> String {
    // Long ids can make even the first issue's fix (never cut) crowd the
    // budget: then the node, the neighbours and the issue lines give way,
    // in that order, to counts and a pointer.
    let mut out = String::new();
    for level in [Level::Full, Level::NoNode, Level::Counts] {
        out = compose(e, v, level);
        if out.len() <= crate::model::budget::ECHO {
            break;
        }
    }
    out
}

/// How much of the echo is drawn.
#[derive(Clone, Copy, PartialEq)]
enum Level {
    Full,
    /// The node's lines and the neighbours left out.
    NoNode,
    /// The issues only counted, by code.
    Counts,
}

fn compose(e: &Echo, v: &dyn Voice, level: Level) -> String {
    let head = crate::model::text::cut(
        &format!("Plan {} (rev {}) — {}.", e.plan_id, e.revision, e.changed),
        MAX_LINE,
    );
    let tail = format!(
        "Plan-wide: {} (state {}).",
        super::issues::counts(&e.counts),
        e.state
    );
    let mut left = crate::model::budget::ECHO.saturating_sub(head.len() + tail.len() + 4);
    let mut around = Vec::new();
    if e.node.is_some() && level == Level::Full {
        let share = left.min(NEIGHBOURS_SHARE) / 2;
        around.push(neighbours(
            "Predecessors",
            &e.predecessors,
            e.more_predecessors,
            share,
        ));
        around.push(neighbours(
            "Successors",
            &e.successors,
            e.more_successors,
            share,
        ));
        left = left.saturating_sub(around.iter().map(|l| l.len() + 1).sum());
    }
    let mut details = Fit::new(left.min(DETAILS_SHARE));
    for (k, d) in e.details.iter().enumerate() {
        if !details.push(crate::model::text::cut(&format!("  {d}"), MAX_LINE)) {
            details.note(format!(
                "  … and {} more fact(s) about the change",
                e.details.len() - k
            ));
            break;
        }
    }
    left = left.saturating_sub(details.used());
    // The issues come before the rest of the node: they are what to do
    // next. The node keeps a few lines (what was written is known).
    let node_need: usize = node_lines(e, v, left).iter().map(|l| l.len() + 1).sum();
    let issues = match level {
        Level::Counts => issue_counts(e, v),
        _ => issue_lines(e, v, left.saturating_sub(node_need.min(NODE_KEEP))),
    };
    left = left.saturating_sub(issues.iter().map(|l| l.len() + 1).sum());
    let node = match level {
        Level::Full => node_lines(e, v, left),
        _ => Vec::new(),
    };
    let mut out = vec![head];
    if !node.is_empty() {
        out.push(String::new());
        out.extend(node);
        out.push(String::new());
        out.extend(around);
    }
    out.extend(details.lines);
    out.extend(issues);
    out.push(tail);
    out.join("\n")
}

fn neighbour_json(n: &Neighbour) -> Value {
    json!({"edgeId": n.edge_id, "nodeId": n.node_id, "handle": n.handle})
}

/// `{planId, revision, changed, node?, predecessors, successors, issues, counts}`.
pub(crate) fn json(e: &Echo) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("planId".into(), e.plan_id.clone().into());
    m.insert("revision".into(), e.revision.into());
    m.insert("state".into(), e.state.as_str().into());
    m.insert("changed".into(), e.changed.clone().into());
    if let Some(n) = &e.node {
        // Bounded like the prose: long strings are cut (and say so).
        let mut n = n.clone();
        let mut cut = false;
        for v in n.definition.values_mut() {
            cut |= v.cut_strings(MAX_STRING);
        }
        let mut node = crate::forge::present::node_json(&n);
        if cut {
            node["truncated"] = true.into();
        }
        m.insert("node".into(), node);
    }
    m.insert(
        "predecessors".into(),
        Value::Array(e.predecessors.iter().map(neighbour_json).collect()),
    );
    m.insert(
        "successors".into(),
        Value::Array(e.successors.iter().map(neighbour_json).collect()),
    );
    if !e.details.is_empty() {
        m.insert("details".into(), json!(e.details));
    }
    m.insert("issues".into(), super::issues::json_list(&e.issues));
    if e.more_issues > 0 {
        m.insert("moreIssues".into(), e.more_issues.into());
    }
    m.insert("counts".into(), super::issues::counts_json(&e.counts));
    Value::Object(m)
}

//! Complexity: O(n) (each phase name is scanned once).

use crate::model::remedy::{Fill, Remedy};
use crate::model::{Issue, Value, ids};

declare_check! {
    /// ## What it finds
    /// A node whose `phase` breaks the phase rules: 1 to 64 characters, no
    /// control characters, no leading or trailing whitespace, and not the
    /// reserved `(unphased)`.
    ///
    /// ## Why it matters
    /// Phases are how people and models find their way around a plan they
    /// cannot read whole: the outline lists them and reading a phase takes
    /// one as its key.
    /// A name with a newline or a trailing space prints as something you
    /// cannot type back, and `(unphased)` would collide with the outline's
    /// entry for nodes without a phase.
    ///
    /// ## How to fix
    /// Set the node's `phase` to a plain name, or clear it to leave the node
    /// unphased.
    ///
    /// ## Example
    /// ```json
    /// {"id": "fetch", "phase": "gather ", "kind": "call", "definition": {}}
    /// ```
    /// Fixed: `{"id": "fetch", "phase": "gather", …}`.
    pub InvalidPhase { code: "invalid_phase", severity: Blocking, needs: NOTHING, source: Check, scope: Node }
    fn run(cx, out) {
        for (_, n) in cx.nodes() {
            let Some(phase) = n.phase.as_deref() else { continue };
            if phase.is_empty() {
                continue; // empty means unphased
            }
            if let Some(why) = ids::phase_problem(phase) {
                let trimmed: String = phase
                    .chars()
                    .map(|c| if ids::is_line_control(c) { ' ' } else { c })
                    .filter(|c| !ids::is_bidi_control(*c))
                    .take(64)
                    .collect::<String>()
                    .trim_matches(|c: char| c.is_whitespace() || ids::is_invisible(c))
                    .to_string();
                let mut issue = Issue::new(CODE,
                    format!(
                        "node `{}` has the phase \"{}\", which is not allowed: {why}",
                        n.id,
                        ids::quote_id(phase)
                    ),
                )
                .node(n.id.clone())
                .at("/phase");
                if !trimmed.is_empty() && trimmed != ids::UNPHASED {
                    issue = issue.fix(Remedy::SetPhase {
                        node: n.id.to_string(),
                        phase: Some(Fill::Value(Value::String(trimmed.into()))),
                    });
                }
                out.push(issue.fix(
                    Remedy::SetPhase { node: n.id.to_string(), phase: None }.when("to leave it unphased"),
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::InvalidPhase;
    use crate::check::testing::*;
    use crate::model::Value;
    use crate::model::remedy::{Fill, Remedy};

    fn phased(id: &str, phase: &str) -> crate::model::Node {
        let mut n = step(id);
        n.phase = Some(phase.into());
        n
    }

    #[test]
    fn fires_on_bad_phase_names() {
        let p = plan(
            vec![
                phased("a", "gather "),
                phased("b", "two\nlines"),
                phased("c", "(unphased)"),
                phased("d", &"x".repeat(65)),
                phased("e", "gather\u{202e}txt"),
                phased("f", "\u{200b}"),
            ],
            vec![],
        );
        let issues = run_one(&InvalidPhase, &p);
        assert_eq!(issues.len(), 6);
        assert_eq!(issues[0].pointer.as_deref(), Some("/phase"));
        let phase = |node: &str, s: &str| Remedy::SetPhase {
            node: node.into(),
            phase: Some(Fill::Value(Value::String(s.into()))),
        };
        assert_eq!(issues[0].fixes[0].remedy, phase("a", "gather"));
        // The suggested name is itself allowed.
        assert_eq!(issues[4].fixes[0].remedy, phase("e", "gathertxt"));
        // Nothing usable is left of `(unphased)` or a lone invisible: clear it.
        assert_eq!(
            issues[5].fixes[0].remedy,
            Remedy::SetPhase {
                node: "f".into(),
                phase: None
            }
        );
    }

    #[test]
    fn passes_plain_names_and_unphased_nodes() {
        let p = plan(
            vec![phased("a", "gather data"), phased("b", "é"), step("c")],
            vec![],
        );
        assert!(run_one(&InvalidPhase, &p).is_empty());
    }
}

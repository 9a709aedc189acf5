//! Complexity: O(n) (each phase name is scanned once).

use crate::model::Issue;
use crate::model::ids;

declare_check! {
    /// ## What it finds
    /// A node whose `phase` breaks the phase rules: 1 to 64 characters, no
    /// control characters, no leading or trailing whitespace, and not the
    /// reserved `(unphased)`.
    ///
    /// ## Why it matters
    /// Phases are how people and models find their way around a plan they
    /// cannot read whole: `outline` lists them and `read` takes one as its key.
    /// A name with a newline or a trailing space prints as something you
    /// cannot type back, and `(unphased)` would collide with the outline's
    /// entry for nodes without a phase.
    ///
    /// ## How to fix
    /// Give the node a plain name with `planforge phase <node> <name>`, or
    /// `planforge phase <node> --clear` to leave it unphased.
    ///
    /// ## Example
    /// ```json
    /// {"id": "fetch", "phase": "gather ", "kind": "call", "definition": {}}
    /// ```
    /// Fixed: `{"id": "fetch", "phase": "gather", …}`.
    pub InvalidPhase { code: "invalid_phase", severity: Blocking, needs: NOTHING, source: Check }
    fn run(cx, out) {
        for n in &cx.content.nodes {
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
                let hint = if trimmed.is_empty() || trimmed == ids::UNPHASED {
                    format!("`planforge phase {} --clear` to leave it unphased", n.id)
                } else {
                    format!(
                        "e.g. `planforge phase {} \"{}\"`, or `--clear` to leave it unphased",
                        n.id, trimmed
                    )
                };
                out.push(
                    Issue::new(CODE,
                        format!(
                            "node `{}` has the phase \"{}\", which is not allowed: {why}; rename the phase ({hint})",
                            n.id,
                            ids::quote_id(phase)
                        ),
                    )
                    .node(n.id.clone())
                    .at("/phase"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::InvalidPhase;
    use crate::check::testing::*;

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
        assert!(issues[0].message.contains("\"gather\""));
        // The suggested name is itself allowed.
        assert!(
            issues[4].message.contains("\"gathertxt\""),
            "{}",
            issues[4].message
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

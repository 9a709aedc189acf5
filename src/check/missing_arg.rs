//! Complexity: O(n + Σ required args of the tools used).

use crate::check::support::is_canonical;
use crate::model::Issue;
use crate::model::NodeKind;
use crate::model::remedy::{Fill, Fix, Remedy};
use crate::model::suggest;

declare_check! {
    /// ## What it finds
    /// A call whose `args` lack an argument its tool's registry entry lists
    /// in `requiredArgs`. One issue per call, naming every missing argument.
    /// Needs a registry.
    ///
    /// ## Why it matters
    /// The tool cannot run without them; the call would fail at run time,
    /// after earlier steps have already acted.
    ///
    /// ## How to fix
    /// Add each missing argument under the call's `args`, as a literal or a
    /// reference.
    ///
    /// ## Example
    /// ```json
    /// {"tool": "write_synthesis", "args": {"content": "…"}}
    /// ```
    /// where `write_synthesis` requires `path` and `content`. Fixed: add
    /// `"path": "synthesis.md"`.
    pub MissingArg { code: "missing_arg", severity: Blocking, needs: REGISTRY, source: Check, scope: Node }
    fn run(cx, out) {
        let Some(reg) = cx.registry else { return };
        let g = &cx.graph;
        for (i, n) in cx.nodes() {
            if n.kind != NodeKind::Call || !is_canonical(g, i) {
                continue;
            }
            let Some(tool) = n.tool() else { continue };
            let Some(entry) = reg.tool(tool) else { continue };
            let Some(args) = n.get("args").and_then(|a| a.as_object()) else { continue };
            let missing: Vec<&str> = entry
                .required_args
                .iter()
                .map(String::as_str)
                .filter(|a| !args.contains_key(a))
                .collect();
            if missing.is_empty() {
                continue;
            }
            let near: Vec<String> = missing
                .iter()
                .filter_map(|m| {
                    let extra = args.keys().map(|k| k.as_str()).filter(|k| !entry.required_args.iter().any(|r| r == k));
                    suggest::closest(m, extra).map(|k| format!("`{k}` for `{m}`"))
                })
                .collect();
            let hint = if near.is_empty() {
                String::new()
            } else {
                format!(" (did you mean {}?)", near.join(", "))
            };
            let fix = Remedy::SetField {
                node: n.id.to_string(),
                path: format!("args.{}", missing[0]),
                value: Fill::choose("a literal or a reference"),
            };
            let fix = match &missing[1..] {
                [] => Fix::from(fix),
                rest => fix.when(format!(
                    "then the same for {}",
                    suggest::capped_list(rest, 20)
                )),
            };
            out.push(
                Issue::new(CODE,
                    format!(
                        "call `{}` does not pass {} {} that its tool `{tool}` requires{hint}",
                        n.id,
                        if missing.len() == 1 { "the argument" } else { "the arguments" },
                        suggest::capped_list(&missing, 20)
                    ),
                )
                .node(n.id.clone())
                .at("/definition/args")
                .fix(fix),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MissingArg;
    use crate::check::testing::*;
    use crate::model::remedy::{Fill, Remedy};
    use serde_json::json;

    const REG: &str = "tools: {write_synthesis: {returns: text, requiredArgs: [path, content]}}";

    #[test]
    fn fires_naming_every_missing_arg() {
        let p = plan(
            vec![call_with("w", "write_synthesis", json!({"pth": "x"}), &[])],
            vec![],
        );
        let issues = run_reg(&MissingArg, &p, &registry(REG));
        assert_eq!(issues.len(), 1);
        assert!(issues[0].message.contains("`path`, `content`"));
        assert!(
            issues[0].message.contains("did you mean `pth` for `path`"),
            "{}",
            issues[0].message
        );
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::SetField {
                node: "w".into(),
                path: "args.path".into(),
                value: Fill::choose("a literal or a reference"),
            }
        );
        assert_eq!(
            issues[0].fixes[0].when.as_deref(),
            Some("then the same for `content`")
        );
    }

    #[test]
    fn passes_with_every_required_arg() {
        let p = plan(
            vec![call_with(
                "w",
                "write_synthesis",
                json!({"path": "x", "content": r("s", None)}),
                &[],
            )],
            vec![],
        );
        assert!(run_reg(&MissingArg, &p, &registry(REG)).is_empty());
    }
}

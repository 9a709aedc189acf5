//! Complexity: O(refs with a branchId · their segments), after O(n + e) to
//! index edges and joins once.

use crate::check::flow::{RouteWalker, branch_json, routes_to};
use crate::check::support::{branch_fixes, place, ref_text};
use crate::model::{BranchId, Issue};

declare_check! {
    /// ## What it finds
    /// A reference whose `branchId` is not a route from the entry to its
    /// target. A route is built as ir.md §5 describes: it starts at the entry
    /// with no segments; each `{"edge": id}` follows that edge out of the
    /// node reached so far; a join is passed with one
    /// `{"join": id, "of": [every incoming edge id, sorted]}` written right
    /// after the route to the join's fork (its immediate dominator), instead
    /// of the edges into the join. The route must end at the target.
    ///
    /// ## Why it matters
    /// A `branchId` names which execution of the target to read. One that
    /// names no execution reads nothing at run time — typically a stale
    /// route after edges were renamed or rewired.
    ///
    /// ## How to fix
    /// Rewrite the `branchId` along a real route; the message says where it
    /// goes wrong and how the route can continue from there, and the fixes
    /// give the routes when there are few.
    ///
    /// ## Example
    /// ```json
    /// {"$ref": {"node": "notify", "select": "first", "branchId": {"segments": [{"edge": "e9"}]}}}
    /// ```
    /// where no edge `e9` leaves the entry. Fixed: `{"segments": [{"edge": "e1"}, {"edge": "on_match"}]}`.
    pub UnknownBranch { code: "unknown_branch", severity: Blocking, needs: ROUTES, source: Check, scope: Graph }
    fn run(cx, out) {
        let g = &cx.graph;
        let refs = cx.data_refs_where(|_, tag, _| tag.branch());
        if refs.is_empty() {
            return;
        }
        let walker = RouteWalker::new(g);
        let mut memo: crate::model::hash::FastMap<usize, Option<Vec<BranchId>>> =
            crate::model::hash::FastMap::default();
        for d in &refs {
            let bid = d.r.branch_id.as_ref().expect("filtered");
            let Err(why) = walker.check(d.target, bid) else { continue };
            let reader = g.node(d.node);
            let target = g.node(d.target);
            let routes = memo.entry(d.target).or_insert_with(|| routes_to(g, d.target, 4));
            let unreached = g.executions()[d.target] == 0;
            let tail = if unreached {
                format!(". No route reaches `{}` at all", target.id)
            } else {
                String::new()
            };
            let issue = Issue::new(CODE,
                    format!(
                        "node `{}` reads {} at {} with the branchId {}, which is not a route to `{}`: {why}{tail}",
                        reader.id,
                        ref_text(d.r),
                        place(&d.pointer),
                        branch_json(bid),
                        target.id
                    ),
                )
                .node(reader.id.clone())
                .at(d.pointer.clone());
            let fixes = if unreached {
                Vec::new()
            } else {
                branch_fixes(&reader.id, &d.pointer, d.r, routes.as_deref())
            };
            out.push(fixes.into_iter().fold(issue, Issue::fix));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::UnknownBranch;
    use crate::check::flow::branch_json;
    use crate::check::testing::*;
    use crate::model::Value;
    use crate::model::remedy::{Fill, Remedy};
    use serde_json::json;

    fn with_branch(segments: serde_json::Value) -> crate::model::Content {
        let reference =
            json!({"$ref": {"node": "after", "select": "all", "branchId": {"segments": segments}}});
        plan(
            vec![
                entry("s"),
                step("l"),
                step("r"),
                join("j"),
                call_with("after", "t", json!({}), &[]),
                call_with("reader", "t", json!({"a": reference}), &[]),
            ],
            vec![
                edge("e1", "s", "l", "always"),
                edge("e2", "s", "r", "always"),
                edge("e3", "l", "j", "always"),
                edge("e4", "r", "j", "always"),
                edge("e5", "j", "after", "always"),
                edge("e6", "after", "reader", "always"),
            ],
        )
    }

    #[test]
    fn fires_on_routes_that_do_not_lead_to_the_target() {
        for (segs, needle) in [
            (json!([{"edge": "e9"}]), "does not exist"),
            (json!([{"edge": "e1"}, {"edge": "e3"}]), "into the join `j`"),
            (
                json!([{"edge": "e1"}, {"join": "j", "of": ["e3", "e4"]}]),
                "whose fork is `s`, but the route is at `l`",
            ),
            (
                json!([{"join": "j", "of": ["e3"]}, {"edge": "e5"}]),
                "every incoming edge",
            ),
            (json!([{"edge": "e5"}]), "but the route is at `s`"),
            (json!([]), "ends at `s`"),
        ] {
            let issues = run_one(&UnknownBranch, &with_branch(segs.clone()));
            assert_eq!(issues.len(), 1, "{segs}");
            assert!(
                issues[0].message.contains(needle),
                "{segs}: {}",
                issues[0].message
            );
            // The one route to `after`, as the fix's branchId.
            let [fix] = &issues[0].fixes[..] else {
                panic!("{segs}: {:?}", issues[0].fixes)
            };
            let Remedy::SetField {
                value: Fill::Value(Value::Ref(r)),
                ..
            } = &fix.remedy
            else {
                panic!("{fix:?}")
            };
            assert_eq!(
                branch_json(r.branch_id.as_ref().unwrap()),
                r#"{"segments":[{"join":"j","of":["e3","e4"]},{"edge":"e5"}]}"#
            );
            assert_eq!(
                fix.when.as_deref(),
                Some("to read the execution along join `j` → `e5`")
            );
        }
    }

    #[test]
    fn passes_a_real_route_through_a_join() {
        let p = with_branch(json!([{"join": "j", "of": ["e3", "e4"]}, {"edge": "e5"}]));
        assert!(run_one(&UnknownBranch, &p).is_empty());
    }
}

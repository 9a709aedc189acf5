//! `validate --format sarif`: SARIF 2.1.0 (OASIS), the format code-scanning
//! services read. One run; one rule per issue code (every code, in the order
//! the checks run, with its explanation as help); one result per finding
//! with a physical location. Columns count Unicode code points
//! (`columnKind: unicodeCodePoints`); `endColumn` is the column just after
//! the value, as SARIF defines it. Checks that could not run are reported as
//! tool execution notifications.
//!
//! Code scanning keeps an alert across commits by its
//! `partialFingerprints` (`planforgeFinding/v1`, see [`fingerprint`]): a
//! hash of what the finding is about — code, file, plan id, node or edge id
//! and the pointer inside that node or edge — never of its line, so an
//! unrelated edit elsewhere in the document leaves it unchanged. Every rule
//! links its page under `docs/codes/` (`helpUri`), generated from the text
//! `planforge explain CODE` prints. The repository has no public address
//! yet: [`REPOSITORY`] holds the one base every link is built from, with
//! `OWNER` as a placeholder to replace when it is published.

use crate::forge::explain::{self, Explanation};
use crate::forge::present::fingerprint;
use crate::forge::validate::Validation;
use crate::model::Severity;
use serde_json::{Value, json};

pub(crate) const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The repository's address, the base of `informationUri` and every
/// `helpUri`. `OWNER` is a placeholder: the repository has no public
/// address yet; replace it here (and only here) when it has one.
pub(crate) const REPOSITORY: &str = "https://github.com/OWNER/planforge";

/// `runs[].automationDetails.id`: the category `planforge/validate/` (the
/// trailing `/` leaves the run id out, so every run is the same category).
pub(crate) const AUTOMATION_ID: &str = "planforge/validate/";

/// The key of [`fingerprint`] in `partialFingerprints`.
pub(crate) const FINGERPRINT_KEY: &str = crate::forge::present::FINGERPRINT_KEY;

/// The page of `code` under `docs/codes/`.
pub(crate) fn help_uri(code: &str) -> String {
    format!("{REPOSITORY}/blob/main/docs/codes/{code}.md")
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Blocking => "error",
        Severity::Advisory => "warning",
    }
}

/// `unknown_tool` → `UnknownTool` (SARIF's readable rule name). SARIF
/// validators want the name to differ from the id, case aside: a one-word
/// code says where it is (`cycle` → `CycleInPlan`).
fn rule_name(code: &str) -> String {
    let name: String = code
        .split('_')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect();
    if name.eq_ignore_ascii_case(code) {
        name + "InPlan"
    } else {
        name
    }
}

fn rule(e: &Explanation) -> Value {
    let finds = explain::section(&e.explanation, "What it finds")
        .map(|s| explain::paragraph(&s))
        .unwrap_or_else(|| e.summary.clone());
    json!({
        "id": e.code,
        "name": rule_name(e.code),
        "shortDescription": {"text": e.summary},
        "fullDescription": {"text": finds},
        "help": {
            "text": explain::how_to_fix(e.code).unwrap_or_default(),
            "markdown": e.explanation,
        },
        "helpUri": help_uri(e.code),
        "defaultConfiguration": {"level": level(e.severity)},
        "properties": {"tags": ["planforge"], "source": e.source},
    })
}

/// A file name as a SARIF URI reference: `/` separators, percent-encoded
/// bytes outside the unreserved set, `file://` for absolute paths. Plan ids
/// (stored plans) and `stdin` pass through unchanged.
pub(crate) fn uri(file: &str) -> String {
    let path = file.replace('\\', "/");
    let is_drive = path.len() > 2 && path.as_bytes()[1] == b':' && path.as_bytes()[2] == b'/';
    let mut out = String::new();
    if path.starts_with('/') {
        out.push_str("file://");
    } else if is_drive {
        out.push_str("file:///");
    }
    for (i, b) in path.bytes().enumerate() {
        let keep = b.is_ascii_alphanumeric()
            || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/')
            || (is_drive && i == 1 && b == b':');
        if keep {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The SARIF log of a validation.
pub(crate) fn sarif(v: &Validation) -> Value {
    let all = explain::explain_all();
    let index_of = |code: &str| all.iter().position(|e| e.code == code);
    let mut results = Vec::new();
    let mut notes = Vec::new();
    let mut artifacts = Vec::new();
    for (index, t) in v.targets.iter().enumerate() {
        // Repository-relative under %SRCROOT% when the file is in the
        // repository; else its own URI.
        let mut artifact = match &t.repo_path {
            Some(rel) => json!({"uri": uri(rel), "uriBaseId": SRCROOT}),
            None => json!({"uri": uri(&t.file)}),
        };
        artifacts.push(json!({
            "location": artifact.clone(),
            "roles": ["analysisTarget"],
        }));
        artifact["index"] = json!(index);
        for f in &t.findings {
            let i = &f.issue;
            let mut physical = json!({"artifactLocation": artifact});
            if let Some(l) = &f.location {
                physical["region"] = json!({
                    "startLine": l.start.line,
                    "startColumn": l.start.column,
                    "endLine": l.end.line,
                    "endColumn": l.end.column,
                    "byteOffset": l.span.start,
                    "byteLength": l.span.len(),
                });
            } else if t.failed.is_some() {
                // An input that could not be read has no place in it; code
                // scanning wants a region, so the result is at its start.
                physical["region"] =
                    json!({"startLine": 1, "startColumn": 1, "endLine": 1, "endColumn": 1});
            }
            let mut location = json!({"physicalLocation": physical});
            let logical = match (&i.node_id, &i.edge_id) {
                (Some(n), _) => Some(("node", n)),
                (None, Some(e)) => Some(("edge", e)),
                (None, None) => None,
            };
            if let Some((kind, id)) = logical {
                let plan = t.plan_id.as_deref().unwrap_or(&t.file);
                location["logicalLocations"] = json!([{
                    "name": id,
                    "fullyQualifiedName": format!("{plan}/{kind}s/{id}"),
                    "kind": "object",
                }]);
            }
            let mut result = json!({
                "ruleId": i.code.name,
                "level": level(i.severity()),
                "message": {"text": i.message},
                "locations": [location],
                "partialFingerprints": {FINGERPRINT_KEY: fingerprint(t.repo_path.as_deref().unwrap_or(&t.file), t.plan_id.as_deref(), i)},
                "properties": {
                    "planId": t.plan_id,
                    "nodeId": i.node_id,
                    "edgeId": i.edge_id,
                    "pointer": f.pointer,
                },
            });
            if v.baseline {
                // What a baseline run reports is what is not in the
                // baseline; the rest is withheld.
                result["baselineState"] = json!("new");
            }
            if let Some(ix) = index_of(i.code.name) {
                result["ruleIndex"] = json!(ix);
            }
            if let Some(c) = &i.cause {
                // The finding this one follows from (issue 13's groups).
                result["properties"]["cause"] =
                    json!({"ruleId": c.code.name, "nodeId": c.node_id, "edgeId": c.edge_id});
            }
            results.push(result);
        }
        if t.omitted > 0 {
            notes.push(json!({
                "level": "note",
                "message": {"text": format!("{}: {}", t.file, super::diagnostics::omitted_note(t.omitted))},
                "locations": [{"physicalLocation": {"artifactLocation": artifact}}],
            }));
        }
        if let Some(s) = crate::model::issue::skipped_summary(&t.report.skipped) {
            notes.push(json!({
                "level": "note",
                "message": {"text": format!("{}: some checks were {s}", t.file)},
                "locations": [{"physicalLocation": {"artifactLocation": artifact}}],
            }));
        }
    }
    let mut run = json!({
            "tool": {"driver": {
                "name": "planforge",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "informationUri": format!("{REPOSITORY}/blob/main/README.md"),
                "rules": all.iter().map(rule).collect::<Vec<_>>(),
            }},
            "invocations": [{
                "executionSuccessful": true,
                "toolExecutionNotifications": notes,
            }],
            "automationDetails": {"id": AUTOMATION_ID},
            "columnKind": "unicodeCodePoints",
            "artifacts": artifacts,
            "results": results,
    });
    let omitted: usize = v.targets.iter().map(|t| t.omitted).sum();
    if omitted > 0 {
        // Findings past the listing limit: counted here, so a baseline
        // made from this log knows it is incomplete.
        run["properties"] = json!({"omitted": omitted});
    }
    if let Some(root) = &v.root {
        run["originalUriBaseIds"] = json!({SRCROOT: {"uri": dir_uri(&root.to_string_lossy())}});
    }
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [run],
    })
}

/// The base every repository-relative artifact URI is relative to.
pub(crate) const SRCROOT: &str = "%SRCROOT%";

/// An absolute folder as a `file://` URI ending in `/`, as SARIF wants a
/// base URI.
fn dir_uri(dir: &str) -> String {
    let u = uri(dir);
    if u.ends_with('/') { u } else { u + "/" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        assert_eq!(uri("plans/a b.json"), "plans/a%20b.json");
        assert_eq!(uri("/tmp/x/p.yaml"), "file:///tmp/x/p.yaml");
        assert_eq!(uri("C:\\w\\p.json"), "file:///C:/w/p.json");
        assert_eq!(uri("plan-x_1"), "plan-x_1");
        assert_eq!(uri("é.json"), "%C3%A9.json");
    }

    #[test]
    fn rule_names() {
        assert_eq!(rule_name("unknown_tool"), "UnknownTool");
        assert_eq!(rule_name("cycle"), "CycleInPlan");
    }

    #[test]
    fn one_rule_per_code() {
        let s = sarif(&Validation::default());
        let rules = s["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
        assert_eq!(rules.len(), crate::check::CHECKS.len());
        for (r, c) in rules.iter().zip(crate::check::CHECKS) {
            let code = c.code().name;
            assert_eq!(r["id"], code);
            assert_eq!(r["name"], rule_name(code));
            assert_eq!(r["helpUri"], help_uri(code));
            assert!(r["shortDescription"]["text"].is_string());
            assert!(!r["help"]["text"].as_str().unwrap().is_empty());
        }
        assert_eq!(s["runs"][0]["results"], json!([]));
        assert_eq!(s["runs"][0]["automationDetails"]["id"], AUTOMATION_ID);
        assert!(
            s["runs"][0]["tool"]["driver"]["informationUri"]
                .as_str()
                .unwrap()
                .ends_with("/README.md")
        );
    }

    #[test]
    fn fingerprints_hash_what_a_finding_is_about() {
        use crate::model::Issue;
        let at = |node: &str, pointer: Option<&str>| {
            let i = Issue::new(
                crate::model::Code {
                    name: "unknown_tool",
                    severity: Severity::Blocking,
                },
                "m",
            )
            .node(node);
            let i = match pointer {
                Some(p) => i.at(p),
                None => i,
            };
            fingerprint("p.json", Some("plan-a"), &i)
        };
        let a = at("tell", Some("/definition/tool"));
        assert_eq!(a.len(), 64);
        assert_eq!(a, at("tell", Some("/definition/tool")));
        assert_ne!(a, at("fetch", Some("/definition/tool")));
        assert_ne!(a, at("tell", Some("/definition/args")));
        assert_ne!(a, at("tell", None));
        // The message is not part of it.
        let i = Issue::new(
            crate::model::Code {
                name: "unknown_tool",
                severity: Severity::Blocking,
            },
            "other words",
        )
        .node("tell")
        .at("/definition/tool");
        assert_eq!(a, fingerprint("p.json", Some("plan-a"), &i));
    }
}

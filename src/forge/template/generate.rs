//! Generates the built-in template files from the orchestration emitter:
//! test code only. The test `builtin_files_are_fresh` fails when the files
//! under `builtin/` are stale, and
//! `PLANFORGE_UPDATE_TEMPLATES=1 cargo test --lib builtin_files_are_fresh`
//! rewrites them.

use super::builtin::FILES;
use super::{Origin, Template};
use crate::forge::orchestrate::build::{self, Spec, Unit};
use crate::forge::orchestrate::emit;
use crate::forge::orchestrate::mechanism::Mechanism;
use crate::model::{Content, DeclaredField, FieldType, Param, Value};

/// What each file starts with.
pub(crate) const HEADER: &str = "# A built-in planforge template, generated from the orchestration emitter\n# (src/forge/orchestrate/emit.rs). Do not edit: regenerate with\n# PLANFORGE_UPDATE_TEMPLATES=1 cargo test --lib builtin_files_are_fresh\n";

const ROLE_BYTES: u64 = 120;
/// A unit's goal: a bounded task statement that stays in the plan, so no
/// larger than a bounded input (over [`INPUT_BYTES`] it could carry the
/// source text an input may not; one threshold).
const GOAL_BYTES: u64 = INPUT_BYTES;
/// The digest schema's description (`digest`): the owner's words for what a
/// digest holds, not a unit's task.
const DIGEST_SPEC_BYTES: u64 = 2000;
/// A unit's input (`input`, `slice`, `evidence`): a bounded input that stays
/// in the plan, so never source text. Over this size `orchestrate` treats
/// an input as source text and keeps it out of the plan (a slice the run
/// supplies), and `inlined_source` reads it so: one threshold, declared
/// once (`check::DESCRIPTOR_BYTES`). A larger arg is refused by
/// `instantiate` (`invalid_args`), naming the param and its bound.
const INPUT_BYTES: u64 = crate::check::DESCRIPTOR_BYTES;
const PATH_BYTES: u64 = 256;
/// The artifact bound of every built-in unit.
const UNIT_BYTES: u64 = 8192;
/// The digest bound of the bounded-digest units.
const DIGEST_BYTES: u64 = 2048;

fn param(path: &str, max: u64) -> DeclaredField {
    DeclaredField {
        path: path.into(),
        ty: FieldType::String {
            max_bytes: Some(max),
        },
    }
}

fn hole(path: &str) -> Value {
    Value::Param(Param { path: path.into() })
}

/// `prefix_name`, or `name` without a prefix.
fn key(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}_{name}")
    }
}

const WORKER: &str = "Work only on your assigned input, toward your goal, and write one artifact at your output path in the required schema, citing evidence for every factual claim.";
const ADVOCATE: &str = "You are the advocate. From the evidence you are given, argue for the strongest answer it supports: state each claim with the evidence that supports it, and answer the objections you expect.";
const CRITIC: &str = "You are the critic. From the same evidence, challenge the claims an advocate would make: state each objection with the evidence that undermines the claim, and do not invent a deciding fact.";
const DIGESTER: &str = "Read only your assigned slice and return a bounded digest of it in the fixed digest schema; never copy the slice's source text into the digest.";

/// A unit whose fields are holes named `<prefix>_<field>` (`input_key`
/// names its input field: `input`, `slice` …).
fn unit(name: &str, prefix: &str, input_key: &str, instructions: &str) -> Unit {
    Unit {
        name: name.into(),
        slug: name.into(),
        role: hole(&key(prefix, "role")),
        instructions: Value::from(format!("{instructions}\n\n{}", build::NO_SPAWN)),
        tools: vec!["read_artifact".into()],
        goal: hole(&key(prefix, "goal")),
        input: hole(&key(prefix, input_key)),
        output: hole(&key(prefix, "output")),
        done: Value::from(build::DEFAULT_DONE),
        schema: Value::from(build::ARTIFACT_SCHEMA),
        max_output_bytes: UNIT_BYTES,
        needs: Vec::new(),
        challenges: Vec::new(),
        slice: None,
    }
}

/// The params of such a unit, in order.
fn unit_params(prefix: &str, input_key: &str, with_role: bool) -> Vec<DeclaredField> {
    let mut out = Vec::new();
    if with_role {
        out.push(param(&key(prefix, "role"), ROLE_BYTES));
    }
    out.push(param(&key(prefix, "goal"), GOAL_BYTES));
    out.push(param(&key(prefix, input_key), INPUT_BYTES));
    out.push(param(&key(prefix, "output"), PATH_BYTES));
    out
}

fn synthesis() -> DeclaredField {
    param("synthesis", PATH_BYTES)
}

/// The built-in templates, built from the emitter (what the files hold).
pub(crate) fn generate() -> Vec<Template> {
    let mut out = Vec::new();
    let mut add = |id: &str, summary: &str, params: Vec<DeclaredField>, mechanism, units| {
        let spec = Spec {
            mechanism,
            units,
            synthesis: hole("synthesis"),
            accepted: params.clone(),
            adversarial: mechanism == Mechanism::AdvocateCritic,
            protected: Vec::new(),
        };
        let (nodes, edges) = emit::emit(&spec);
        let mut content = Content::empty(id);
        content.nodes = nodes;
        content.edges = edges;
        out.push(Template {
            id: id.into(),
            summary: summary.into(),
            params,
            content,
            bounds: None,
            origin: Origin::Builtin,
        });
    };

    // Single subagent.
    let mut params = unit_params("", "input", true);
    params.push(synthesis());
    add(
        "single",
        "One subagent with one goal: spawn it, read and owner-verify its artifact, then write the synthesis from it (seed 003, row 4).",
        params,
        Mechanism::Single,
        vec![unit("unit", "", "input", WORKER)],
    );

    // Advocate and critic from the same evidence, with a resolve step.
    let mut params = vec![param("evidence", INPUT_BYTES)];
    for who in ["advocate", "critic"] {
        params.push(param(&key(who, "goal"), GOAL_BYTES));
        params.push(param(&key(who, "output"), PATH_BYTES));
    }
    params.push(synthesis());
    let mut advocate = unit("advocate", "advocate", "input", ADVOCATE);
    let mut critic = unit("critic", "critic", "input", CRITIC);
    for (u, role) in [(&mut advocate, "advocate"), (&mut critic, "critic")] {
        u.role = Value::from(role);
        u.input = hole("evidence");
        u.schema = Value::from(build::ADVERSARIAL_SCHEMA);
    }
    critic.challenges = vec![0];
    add(
        "advocate_critic",
        "An advocate and a critic from the same evidence in one turn, with claim-evidence-objection records; the reconcile step resolves each objection against the cited evidence (seed 003, row 6).",
        params,
        Mechanism::AdvocateCritic,
        vec![advocate, critic],
    );

    // Ordered handoffs of 2 and 3.
    for (id, names) in [
        ("ordered_handoff_2", &["first", "second"][..]),
        ("ordered_handoff_3", &["first", "second", "third"][..]),
    ] {
        let mut params = Vec::new();
        let mut units = Vec::new();
        for (k, name) in names.iter().enumerate() {
            params.extend(unit_params(name, "input", true));
            let mut u = unit(name, name, "input", WORKER);
            if k > 0 {
                u.needs = vec![k - 1];
            }
            units.push(u);
        }
        params.push(synthesis());
        add(
            id,
            &format!(
                "{} units in order: each takes the verified handoff of the one before (`<unit>_input` says what it needs from it); a failed handoff stops the run with a failure report (seed 003, row 2).",
                names.len()
            ),
            params,
            Mechanism::OrderedHandoff,
            units,
        );
    }

    // Fan-out of 2 and 3.
    for (id, names) in [
        ("fan_out_2", &["a", "b"][..]),
        ("fan_out_3", &["a", "b", "c"][..]),
    ] {
        let mut params = Vec::new();
        let mut units = Vec::new();
        for name in names {
            params.extend(unit_params(name, "input", true));
            units.push(unit(name, name, "input", WORKER));
        }
        params.push(synthesis());
        add(
            id,
            &format!(
                "{} independent units spawned in one turn, each with its own role and artifact; a join, then a reconcile step with a disposition per unit (seed 003, row 1).",
                names.len()
            ),
            params,
            Mechanism::FanOut,
            units,
        );
    }

    // Bounded digest of 2.
    let mut params = vec![param("digest", DIGEST_SPEC_BYTES)];
    let mut units = Vec::new();
    for name in ["a", "b"] {
        params.extend(unit_params(name, "slice", false));
        let mut u = unit(name, name, "slice", DIGESTER);
        u.role = Value::from("digester");
        u.schema = hole("digest");
        u.max_output_bytes = DIGEST_BYTES;
        units.push(u);
    }
    params.push(synthesis());
    add(
        "bounded_digest_2",
        "2 units that each get only their slice of a large input and return a digest in one fixed schema (`digest`); the orchestrator reconciles the digests, never the source text (seed 003, row 3).",
        params,
        Mechanism::BoundedDigest,
        units,
    );
    out
}

/// The YAML text of a generated template file.
pub(crate) fn file_text(t: &Template) -> String {
    format!("{HEADER}{}", crate::wire::json::yaml(&super::to_json(t)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::Syntax;

    #[test]
    fn builtin_files_are_fresh() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/forge/template/builtin");
        let update = std::env::var_os("PLANFORGE_UPDATE_TEMPLATES").is_some();
        let generated = generate();
        assert_eq!(
            generated.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(),
            FILES.iter().map(|(id, _)| *id).collect::<Vec<_>>(),
        );
        for (t, (id, embedded)) in generated.iter().zip(FILES) {
            let text = file_text(t);
            if update {
                std::fs::write(dir.join(format!("{id}.yaml")), &text).unwrap();
                continue;
            }
            assert_eq!(
                *embedded, text,
                "src/forge/template/builtin/{id}.yaml is stale; run PLANFORGE_UPDATE_TEMPLATES=1 cargo test --lib builtin_files_are_fresh"
            );
            let parsed = super::super::parse(embedded, Syntax::Yaml, Origin::Builtin).unwrap();
            assert_eq!(&parsed, t, "{id} does not read back as generated");
        }
    }

    #[test]
    fn every_builtin_is_clean_and_instantiates_into_a_clean_plan() {
        let reg = crate::forge::templates::default_registry().unwrap();
        let builtins = super::super::builtins();
        assert_eq!(builtins.len(), FILES.len());
        for t in builtins {
            assert_eq!(super::super::check(&t, Some(&reg)), vec![], "{}", t.id);
            let args: crate::model::Map = t
                .params
                .iter()
                .map(|p| (p.path.clone(), Value::from(format!("{}.md", p.path))))
                .collect();
            let mut c = t.content.clone();
            c.nodes = super::super::substitute(&t, &args).unwrap();
            let report = crate::check::run(&c, Some(&reg), Vec::new());
            assert!(report.issues.is_empty(), "{}: {:#?}", t.id, report.issues);
            assert!(report.skipped.is_empty(), "{}: {:?}", t.id, report.skipped);
        }
    }
}

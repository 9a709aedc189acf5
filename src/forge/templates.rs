//! The front operations (SPEC §9, §10): list the templates, instantiate one,
//! author an empty plan from an owner's request kept verbatim, and turn a
//! task decomposition into an orchestration plan.

use super::Forge;
use crate::forge::orchestrate::Decomposition;
use crate::forge::orchestrate::Orchestration;
use crate::forge::plans::{check_plan_id, label_of};
use crate::forge::read::{Outline, outline_of};
use crate::forge::template;
use crate::forge::template::Template;
use crate::model::Counts;
use crate::model::Issue;
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::model::registry::Registry;
use crate::model::remedy::Remedy;
use crate::model::{DeclaredField, Map, OpBody, Provenance, Value};
use crate::store::Loaded;

/// One template as `templates` lists it.
#[derive(Debug, Clone)]
pub(crate) struct TemplateSummary {
    pub(crate) id: String,
    /// Empty when the file could not be read.
    pub(crate) summary: String,
    pub(crate) params: Vec<DeclaredField>,
    /// `built-in` or `templates/<file>`.
    pub(crate) source: String,
    /// Findings of the load-time checks; any blocking one refuses it.
    pub(crate) issues: Vec<Issue>,
    /// Why the file could not be read as a template at all, if so.
    pub(crate) malformed: Option<String>,
    /// Whether the registry checks ran (no registry: `unknown_tool` skipped).
    pub(crate) registry_checked: bool,
}

impl TemplateSummary {
    /// Whether it can be instantiated.
    pub(crate) fn usable(&self) -> bool {
        self.malformed.is_none() && !self.issues.iter().any(Issue::is_blocking)
    }
}

/// What `instantiate` made.
#[derive(Debug, Clone)]
pub(crate) struct Instantiated {
    pub(crate) loaded: Loaded,
    pub(crate) template: String,
    /// The converted args, in the template's param order.
    pub(crate) args: Map,
    /// Findings of the new plan (every check).
    pub(crate) counts: Counts,
    pub(crate) outline: Outline,
}

/// What `orchestrate` made: the decisions, the plan, and — when stored —
/// the stored plan and its outline.
#[derive(Debug, Clone)]
pub(crate) struct Orchestrated {
    pub(crate) orchestration: Orchestration,
    /// The plan's digest (of the content, stored or not).
    pub(crate) digest: String,
    pub(crate) issues: Vec<Issue>,
    pub(crate) skipped: Vec<(&'static str, String)>,
    pub(crate) stored: Option<(Loaded, Outline)>,
}

fn summary_of(t: &Template, registry: Option<&Registry>) -> TemplateSummary {
    TemplateSummary {
        id: t.id.clone(),
        summary: t.summary.clone(),
        params: t.params.clone(),
        source: t.origin.describe(),
        issues: template::check(t, registry),
        malformed: None,
        registry_checked: registry.is_some(),
    }
}

/// The registry `init` writes, for work outside a store.
pub fn default_registry() -> Result<Registry> {
    Registry::parse(
        crate::registry::DEFAULT_REGISTRY_YAML,
        crate::wire::Syntax::Yaml,
        "the default registry",
    )
    .map_err(|(message, pointer)| {
        Error::internal(format!(
            "the built-in default registry does not load ({message} at {pointer})"
        ))
    })
}

/// The first param of a built-in template given a string over the source
/// text threshold (`check::DESCRIPTOR_BYTES`) where the template bounds it
/// there: a unit's input, which a built-in keeps in the plan.
fn source_param(t: &Template, args: &Map) -> Option<String> {
    let limit = crate::check::DESCRIPTOR_BYTES;
    t.params
        .iter()
        .filter(|p| matches!(p.ty, crate::model::FieldType::String { max_bytes: Some(m) } if m == limit))
        .find(|p| args.get(&p.path).and_then(Value::as_str).is_some_and(|s| s.len() as u64 > limit))
        .map(|p| p.path.clone())
}

/// Every emitted plan passes every check against the registry `init`
/// writes: one that does not is refused (nothing is stored) rather than
/// stored with blocking findings. Findings that only a store's own registry
/// causes (a tool it lacks) are stored with their fixes.
fn refuse_blocking(content: &crate::model::Content) -> Result<()> {
    let default = default_registry()?;
    let own = crate::check::run(content, Some(&default), Vec::new());
    let blocking: Vec<&Issue> = own.issues.iter().filter(|i| i.is_blocking()).collect();
    if blocking.is_empty() {
        return Ok(());
    }
    let lines: Vec<String> = blocking.iter().take(5).map(|i| i.line()).collect();
    Err(Error::invalid(format!(
        "the plan orchestrate would emit for this decomposition has {} blocking finding(s), so nothing is stored (an emitted plan must pass every check):\n{}",
        blocking.len(),
        lines.join("\n")
    ))
    .with_help(if blocking.iter().any(|i| i.code == crate::check::INLINED_SOURCE) {
        "this is a planforge defect: report it with the decomposition; meanwhile, declaring `digest` on each task that shares a large input, or giving the tasks separate inputs, may avoid it"
    } else {
        "this is a planforge defect: report it with the decomposition"
    }))
}

/// Checks and builds the plan of a decomposition, without storing it.
pub(crate) fn orchestrate_unstored(
    d: &Decomposition,
    registry: &Registry,
    plan_id: &str,
) -> Result<Orchestrated> {
    let orchestration = crate::forge::orchestrate::orchestrate(d, registry, plan_id)?;
    let (digest, _) = crate::wire::jcs::digest(&orchestration.content);
    let report = crate::check::run(&orchestration.content, Some(registry), Vec::new());
    refuse_blocking(&orchestration.content)?;
    Ok(Orchestrated {
        orchestration,
        digest,
        issues: report.issues,
        skipped: report.skipped,
        stored: None,
    })
}

impl Forge {
    /// Every template — the built-ins, then the store's `templates/` in file
    /// order — each checked against the registry.
    pub(crate) fn templates(&self) -> Result<Vec<TemplateSummary>> {
        let registry = self.registry()?;
        let mut out: Vec<TemplateSummary> = template::builtins()
            .iter()
            .map(|t| summary_of(t, registry))
            .collect();
        for r in template::load_dir(&self.store().templates_dir()) {
            out.push(match r {
                Ok(t) => summary_of(&t, registry),
                Err(m) => TemplateSummary {
                    id: m.id,
                    summary: String::new(),
                    params: Vec::new(),
                    source: format!("templates/{}", m.file),
                    issues: Vec::new(),
                    malformed: Some(m.message),
                    registry_checked: registry.is_some(),
                },
            });
        }
        Ok(out)
    }

    /// Finds a template by id, refusing an unknown id (with the ids), a
    /// file that cannot be read, and a template with blocking findings.
    pub(crate) fn template(&self, id: &str) -> Result<Template> {
        let found = template::builtins()
            .into_iter()
            .map(Ok)
            .chain(template::load_dir(&self.store().templates_dir()))
            .find(|r| match r {
                Ok(t) => t.id == id,
                Err(m) => m.id == id,
            });
        let t = match found {
            Some(Ok(t)) => t,
            Some(Err(m)) => {
                return Err(Error::invalid(format!(
                    "template `{id}` could not be read: {}",
                    m.message
                ))
                .with_help("fix the file, or remove it from the store's templates/ folder"));
            }
            None => {
                let ids: Vec<String> = self.templates()?.into_iter().map(|t| t.id).collect();
                return Err(Error::new(
                    ErrorKind::InvalidInput,
                    format!(
                        "unknown template `{}`{}; the templates are {}",
                        crate::model::ids::quote_id(id),
                        crate::model::suggest::did_you_mean(id, ids.iter().map(String::as_str)),
                        if ids.is_empty() {
                            "(none)".to_string()
                        } else {
                            crate::model::suggest::choices(id, ids.iter().map(String::as_str))
                        }
                    ),
                )
                .fix(Remedy::ListTemplates.when("they are listed with their params"))
                .fix(Remedy::Author.when("when none fits")));
            }
        };
        let issues = template::check(&t, self.registry()?);
        let blocking: Vec<&Issue> = issues.iter().filter(|i| i.is_blocking()).collect();
        if let Some(first) = blocking.first() {
            let lines: Vec<String> = blocking.iter().map(|i| i.line()).collect();
            return Err(Error::refused(format!(
                "template `{id}` ({}) is refused: it is not valid against the current registry:\n{}",
                t.origin.describe(),
                lines.join("\n")
            ))
            .with_issue((*first).clone())
            .fix(Remedy::Explain {
                code: first.code.name.to_string(),
            }));
        }
        Ok(t)
    }

    /// Instantiates a template into a new editable plan: converts the args
    /// by their params' types, fills every hole, and writes the `add_node`s,
    /// the `add_edge`s and one `set_bounds` in one transaction, with
    /// provenance `{kind: template, template, args}`.
    pub(crate) fn instantiate(
        &self,
        template_id: &str,
        args: &Map,
        id: Option<&str>,
    ) -> Result<Instantiated> {
        let t = self.template(template_id)?;
        let args = crate::check::invalid_args::convert_args(&t.params, args).map_err(|issue| {
            let e = Error::invalid(format!(
                "could not instantiate template `{template_id}`: invalid_args — {}",
                issue.message
            ));
            match source_param(&t, args) {
                Some(p) => e.with_help(format!(
                    "`{p}` is a unit's bounded input, which stays in the plan: over {} bytes it is source text, which the orchestrator's context must not hold; give the slice's identity and extent (a path, a range), or orchestrate a decomposition whose task declares a `digest`, which keeps the source out of the plan as a run input",
                    crate::check::DESCRIPTOR_BYTES
                )),
                None => e,
            }
            .with_issue(*issue)
            .fix(Remedy::ListTemplates.when("it lists each template's params with their types"))
        })?;
        let nodes = template::substitute(&t, &args).map_err(|hole| {
            Error::internal(format!(
                "template `{template_id}` kept the hole `{hole}` after its args were checked"
            ))
        })?;
        let plan_id = match id {
            Some(i) => i.to_string(),
            None => crate::model::mint::plan_id(),
        };
        check_plan_id(&plan_id)?;
        let start = crate::store::Start {
            label: Some(label_of(&format!("{}: {}", t.id, t.summary))),
            request: None,
            provenance: Some(Provenance::Template {
                template: t.id.clone(),
                args: args.clone(),
            }),
        };
        let mut bodies: Vec<OpBody> = nodes
            .into_iter()
            .map(|node| OpBody::AddNode { node })
            .collect();
        bodies.extend(
            t.content
                .edges
                .iter()
                .cloned()
                .map(|edge| OpBody::AddEdge { edge }),
        );
        bodies.push(OpBody::SetBounds {
            bounds: t.bounds.unwrap_or_default(),
        });
        self.before_write()?;
        let loaded = self.store().create(&plan_id, self.actor(), start, bodies)?;
        let report = self.check(&loaded)?;
        Ok(Instantiated {
            outline: outline_of(&loaded, &report.issues),
            counts: report.counts(),
            loaded,
            template: t.id,
            args,
        })
    }

    /// An empty editable plan whose metadata keeps the owner's request
    /// verbatim and unparsed, byte for byte; its label is the request's
    /// first 80 characters with whitespace runs folded.
    pub(crate) fn author(&self, request: &str, id: Option<&str>) -> Result<Loaded> {
        if request.trim().is_empty() {
            return Err(Error::invalid(
                "the request is empty; pass the owner's request verbatim (or - to read it from standard input)",
            ));
        }
        let label = label_of(request);
        self.create_plan(id, Some(&label), Some(request))
    }

    /// Turns a decomposition into a plan and stores it (one transaction:
    /// the `add_node`s, the `add_edge`s and one `set_bounds`), checked against the store's
    /// registry (or, without one, the registry `init` writes).
    pub(crate) fn orchestrate(&self, d: &Decomposition, id: Option<&str>) -> Result<Orchestrated> {
        let plan_id = match id {
            Some(i) => i.to_string(),
            None => crate::model::mint::plan_id(),
        };
        check_plan_id(&plan_id)?;
        crate::forge::orchestrate::guard_store(d, self.store().root())?;
        let fallback;
        let registry = match self.registry()? {
            Some(r) => r,
            None => {
                fallback = default_registry()?;
                &fallback
            }
        };
        let mut o = orchestrate_unstored(d, registry, &plan_id)?;
        let start = crate::store::Start {
            label: Some(o.orchestration.label.clone()),
            ..Default::default()
        };
        let content = &o.orchestration.content;
        let mut bodies: Vec<OpBody> = content
            .nodes
            .iter()
            .cloned()
            .map(|node| OpBody::AddNode { node })
            .collect();
        bodies.extend(
            content
                .edges
                .iter()
                .cloned()
                .map(|edge| OpBody::AddEdge { edge }),
        );
        bodies.push(OpBody::SetBounds {
            bounds: content.bounds,
        });
        self.before_write()?;
        let loaded = self.store().create(&plan_id, self.actor(), start, bodies)?;
        let report = self.check(&loaded)?;
        o.digest = loaded.digest().to_string();
        o.issues = report.issues;
        o.skipped = report.skipped;
        let outline = outline_of(&loaded, &o.issues);
        o.stored = Some((loaded, outline));
        Ok(o)
    }
}

#[cfg(test)]
mod tests {
    use super::{default_registry, orchestrate_unstored, refuse_blocking};
    use crate::model::Value;

    #[test]
    fn an_emitted_plan_with_a_blocking_finding_is_refused() {
        let text = "roles:\n  r: {instructions: w, tools: []}\n  q: {instructions: c, tools: []}\ntasks:\n  - {name: a, role: r, goal: g, input: i, output: a.md}\n  - {name: b, role: q, goal: h, input: j, output: b.md}\nsynthesis: {output: out.md}\n";
        let d =
            crate::forge::orchestrate::parse(text, crate::wire::Syntax::Yaml, "t.yaml").unwrap();
        let o = orchestrate_unstored(&d, &default_registry().unwrap(), "plan-t").unwrap();
        let mut content = o.orchestration.content.clone();
        assert!(refuse_blocking(&content).is_ok());
        // The same plan with a unit's no-spawn prohibition lost: refused,
        // naming the finding.
        let spawn = content
            .nodes
            .iter_mut()
            .find(|n| n.id == "spawn_a")
            .unwrap();
        if let Some(Value::Object(args)) = spawn.definition.get_mut("args") {
            args.insert("noSpawn".into(), Value::Bool(false));
        }
        let e = refuse_blocking(&content).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(
            e.message.starts_with("the plan orchestrate would emit for this decomposition has 1 blocking finding(s), so nothing is stored")
                && e.message.contains("incomplete_spawn_spec"),
            "{}",
            e.message
        );
    }
}

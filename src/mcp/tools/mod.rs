//! The model-facing tools (SPEC §10): ONE table of tools — name, tier,
//! description, closed JSON Schema, annotations and handler — over the same
//! forge operations the CLI uses. `planforge tool` and `planforge mcp` are
//! thin adapters over [`call`] / [`call_wire`].
//!
//! Arguments cross the wire boundary once, through `crate::wire::convert`, on
//! the way in; outputs are rendered prose (reusing `crate::render`), except the
//! `raw_*` tools, which return JSON in wire form. Every refusal is text
//! addressed to the model, naming the id it is about.

mod authoring;
mod front;
pub(crate) mod grammar;
mod reading;
pub(crate) mod schema;
mod table;

use crate::forge::Forge;
use crate::mcp::voice::ToolVoice;
use crate::model::Value;
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::model::remedy::{Remedy, Voice};
use crate::model::value::Map;
use serde_json::{Value as J, json};

/// Which surface a tool belongs to (the invocable allowlist is not a tier:
/// it is the registry).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tier {
    /// What a conversational agent sees: exactly three tools.
    Front,
    /// Graph mechanics, for an authoring sub-agent.
    Authoring,
}

impl Tier {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Tier::Front => "front",
            Tier::Authoring => "authoring",
        }
    }
}

/// The tools a server offers: one tier, or all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Selection {
    Front,
    Authoring,
    All,
}

impl Selection {
    pub(crate) fn includes(self, tier: Tier) -> bool {
        match self {
            Selection::All => true,
            Selection::Front => tier == Tier::Front,
            Selection::Authoring => tier == Tier::Authoring,
        }
    }
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Selection::Front => "front",
            Selection::Authoring => "authoring",
            Selection::All => "all",
        }
    }
}

/// One argument: name, JSON Schema, required.
pub(crate) type ParamSpec = (&'static str, J, bool);

/// One model-facing tool.
pub(crate) struct Tool {
    pub(crate) name: &'static str,
    /// A short human title (MCP `title`).
    pub(crate) title: &'static str,
    pub(crate) tier: Tier,
    /// What it does, for the model (see [`Tool::description`] for the
    /// node grammar).
    pub(crate) summary: &'static str,
    /// Whether the tool needs the node grammar: the tool named by
    /// `grammar::HOME` states it in full, every other such tool points there.
    pub(crate) grammar: bool,
    /// Reads only (never gated by `--read-only`).
    pub(crate) read_only: bool,
    /// Overwrites or removes something, or makes an irreversible
    /// transition (MCP `destructiveHint`).
    pub(crate) destructive: bool,
    /// Repeating the call with the same arguments changes nothing more
    /// (MCP `idempotentHint`).
    pub(crate) idempotent: bool,
    /// Appends ops to a plan: takes an optional `expectedRevision`.
    pub(crate) expect_revision: bool,
    params: fn() -> Vec<ParamSpec>,
    handler: fn(&Forge, &Args) -> Result<Outcome>,
}

impl Tool {
    /// The full description: the summary, then the node grammar for the
    /// one tool that states it (`grammar::HOME`: it costs context on every
    /// turn, so it is said once), or one sentence pointing there for the
    /// other tools that need it.
    pub(crate) fn description(&self) -> String {
        match (self.grammar, self.name == grammar::HOME) {
            (false, _) => self.summary.to_string(),
            (true, true) => format!("{}\n\n{}", self.summary, grammar::text()),
            (true, false) => format!("{} {}", self.summary, grammar::pointer()),
        }
    }

    /// The closed JSON Schema of the arguments.
    pub(crate) fn input_schema(&self) -> J {
        let mut props = serde_json::Map::new();
        let mut required = Vec::new();
        let mut params = (self.params)();
        if self.expect_revision {
            params.push((
                "expectedRevision",
                json!({"type": "integer", "minimum": 0, "description": "Refuse (revision_moved) unless the plan is still at this revision"}),
                false,
            ));
        }
        for (name, s, req) in params {
            props.insert(name.to_string(), s);
            if req {
                required.push(J::from(name));
            }
        }
        json!({"type": "object", "properties": props, "required": required, "additionalProperties": false})
    }

    pub(crate) fn mutating(&self) -> bool {
        !self.read_only
    }
}

/// What a tool call produced.
#[derive(Debug, Clone)]
pub(crate) struct Outcome {
    /// False on a refusal (MCP `isError`).
    pub(crate) ok: bool,
    /// The exit code `planforge tool` uses: 0, or the refusal's 1/2/3.
    pub(crate) exit: u8,
    /// What the model reads.
    pub(crate) text: String,
    /// The JSON of a raw tool (wire form).
    pub(crate) json: Option<J>,
    /// The error behind a refusal, if it was one.
    pub(crate) error: Option<Error>,
}

impl Outcome {
    pub(crate) fn text(text: impl Into<String>) -> Outcome {
        Outcome {
            ok: true,
            exit: 0,
            text: text.into(),
            json: None,
            error: None,
        }
    }

    /// A refusal by the plan's rules that is not an error (a freeze with
    /// blocking issues): exit 1.
    pub(crate) fn refused(text: impl Into<String>) -> Outcome {
        Outcome {
            ok: false,
            exit: 1,
            text: text.into(),
            json: None,
            error: None,
        }
    }

    /// JSON in wire form, also as compact text: indentation would only
    /// cost the model context (issue 13).
    pub(crate) fn raw(v: J) -> Outcome {
        Outcome {
            ok: true,
            exit: 0,
            text: serde_json::to_string(&v).expect("JSON values always serialise"),
            json: Some(v),
            error: None,
        }
    }

    /// An error as the model reads it: the tool, the message (naming the id),
    /// where, and what to do, as tool calls.
    pub(crate) fn error(tool: &str, e: Error) -> Outcome {
        let mut text = format!("{tool} refused: {}", e.message);
        if let Some(p) = e.location.as_ref().and_then(|l| l.pointer.as_deref())
            && !p.is_empty()
        {
            text.push_str(&format!("\n(at {p})"));
        }
        let voice = match &e.plan {
            Some(p) => ToolVoice::about(p),
            None => ToolVoice::default(),
        };
        if !e.fixes.is_empty() {
            text.push_str(&format!("\nWhat to do: {}", voice.fixes(&e.fixes)));
        }
        if let Some(h) = &e.help {
            text.push_str(&format!("\n{h}"));
        }
        let front = all()
            .iter()
            .any(|t| t.name == tool && t.tier == Tier::Front);
        if let Some(i) = &e.issue
            && !front
        {
            let explain = Remedy::Explain {
                code: i.code.name.to_string(),
            };
            text.push_str(&format!("\n({} says more)", voice.say(&explain)));
        }
        Outcome {
            ok: false,
            exit: e.exit_code(),
            text,
            json: None,
            error: Some(e),
        }
    }
}

/// The mutating-tool gate.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Gate {
    /// Refuse every mutating tool (`planforge mcp --read-only`).
    pub(crate) read_only: bool,
}

/// A call's arguments, converted from the wire and checked against the
/// tool's schema.
pub(crate) struct Args {
    map: Map,
}

impl Args {
    fn missing(key: &str) -> Error {
        Error::internal(format!(
            "the argument `{key}` passed its schema but is missing"
        ))
    }
    pub(crate) fn get(&self, key: &str) -> Option<&Value> {
        self.map.get(key).filter(|v| !matches!(v, Value::Null))
    }
    pub(crate) fn str(&self, key: &str) -> Result<&str> {
        self.opt_str(key).ok_or_else(|| Args::missing(key))
    }
    pub(crate) fn opt_str(&self, key: &str) -> Option<&str> {
        self.get(key).and_then(Value::as_str)
    }
    pub(crate) fn opt_u64(&self, key: &str) -> Option<u64> {
        self.get(key).and_then(Value::as_u64)
    }
    pub(crate) fn value(&self, key: &str) -> Result<&Value> {
        self.map.get(key).ok_or_else(|| Args::missing(key))
    }
    /// An argument given (even as null).
    pub(crate) fn map_value(&self, key: &str) -> Option<&Value> {
        self.map.get(key)
    }
    /// `expectedRevision`.
    pub(crate) fn expect(&self) -> Option<u64> {
        self.opt_u64("expectedRevision")
    }
}

/// The actor of tool calls: `--actor`, else `PLANFORGE_ACTOR`, else `mcp`
/// (SPEC §1.4: the model-facing surface does not act as `$USER`).
pub(crate) fn actor(flag: Option<&str>) -> Result<String> {
    let from_env = std::env::var("PLANFORGE_ACTOR")
        .ok()
        .is_some_and(|v| !v.is_empty());
    if flag.is_some() || from_env {
        crate::forge::resolve_actor(flag)
    } else {
        Ok("mcp".to_string())
    }
}

/// Every tool, in the order `tools/list` shows them.
pub(crate) fn all() -> &'static [Tool] {
    table::TOOLS
}

/// The tools of a selection.
pub(crate) fn selected(sel: Selection) -> impl Iterator<Item = &'static Tool> {
    all().iter().filter(move |t| sel.includes(t.tier))
}

/// Looks a tool up within a selection.
pub(crate) fn find(sel: Selection, name: &str) -> Option<&'static Tool> {
    selected(sel).find(|t| t.name == name)
}

/// The refusal of a tool name the selection does not have.
pub(crate) fn unknown_tool(sel: Selection, name: &str) -> Error {
    let names: Vec<&str> = selected(sel).map(|t| t.name).collect();
    let elsewhere = all()
        .iter()
        .find(|t| t.name == name)
        .map(|t| format!(" (it belongs to the {} tier)", t.tier.as_str()))
        .unwrap_or_default();
    Error::new(
        ErrorKind::InvalidInput,
        format!(
            "there is no tool `{}` here{elsewhere}{}",
            crate::model::ids::quote_id(name),
            crate::model::suggest::did_you_mean(name, names.iter().copied())
        ),
    )
    .with_help(format!(
        "{}: {}",
        match sel.as_str() {
            "all" => "the tools of every tier are".to_string(),
            tier => format!("the {tier} tools are"),
        },
        names.join(", ")
    ))
}

/// Runs one call whose arguments arrive in wire form (MCP): converts them
/// once, then [`call`]s. `None` arguments are `{}`.
pub(crate) fn call_wire(forge: &Forge, tool: &Tool, args: Option<&J>, gate: Gate) -> Outcome {
    let empty = J::Object(serde_json::Map::new());
    let args = args.unwrap_or(&empty);
    match crate::wire::convert::from_json(args, "") {
        Ok(v) => call(forge, tool, v, gate),
        Err(e) => Outcome::error(tool.name, e.into_error(None)),
    }
}

/// Runs one call with converted arguments: the gate, the schema, the
/// handler. Never panics on bad input; every refusal is an [`Outcome`].
pub(crate) fn call(forge: &Forge, tool: &Tool, args: Value, gate: Gate) -> Outcome {
    if gate.read_only && tool.mutating() {
        let readers: Vec<&str> = all()
            .iter()
            .filter(|t| t.read_only)
            .map(|t| t.name)
            .collect();
        return Outcome::error(
            tool.name,
            Error::refused(format!(
                "this server is read-only, and {} changes plans, so nothing was done",
                tool.name
            ))
            .with_help(format!(
                "read with the read-only tools ({}), or ask the owner for a server that may write",
                readers.join(", ")
            )),
        );
    }
    if let Err(e) = schema::check(tool.name, &tool.input_schema(), &args) {
        return Outcome::error(tool.name, e);
    }
    let Value::Object(map) = args else {
        return Outcome::error(
            tool.name,
            Error::internal("arguments passed the schema but are not an object"),
        );
    };
    let plan = map
        .get("planId")
        .and_then(Value::as_str)
        .map(str::to_string);
    match (tool.handler)(forge, &Args { map }) {
        Ok(o) => o,
        // A refusal's fixes are calls on the plan the call named.
        Err(e) => match (e.plan.is_none(), plan) {
            (true, Some(p)) => Outcome::error(tool.name, e.on_plan(p)),
            _ => Outcome::error(tool.name, e),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uses_only_known_keywords(s: &J, at: &str) {
        let m = s
            .as_object()
            .unwrap_or_else(|| panic!("{at}: not an object"));
        for (k, v) in m {
            assert!(
                schema::KEYWORDS.contains(&k.as_str()),
                "{at}: keyword `{k}`"
            );
            match k.as_str() {
                "properties" => {
                    for (p, ps) in v.as_object().unwrap() {
                        uses_only_known_keywords(ps, &format!("{at}.{p}"));
                    }
                }
                "items" => uses_only_known_keywords(v, &format!("{at}[]")),
                _ => {}
            }
        }
        if m.contains_key("properties") {
            assert_eq!(
                m.get("additionalProperties"),
                Some(&J::Bool(false)),
                "{at}: objects with properties are closed"
            );
        }
    }

    #[test]
    fn the_tiers_hold_exactly_the_named_tools() {
        let front: Vec<&str> = selected(Selection::Front).map(|t| t.name).collect();
        assert_eq!(front, ["list_templates", "instantiate_plan", "author_plan"]);
        let mut authoring: Vec<&str> = selected(Selection::Authoring).map(|t| t.name).collect();
        authoring.sort();
        let mut want = vec![
            "create_plan",
            "add_node",
            "set_node_config",
            "set_node_field",
            "set_node_phase",
            "connect_nodes",
            "remove_node",
            "disconnect_edge",
            "set_bounds",
            "undo_change",
            "clone_plan",
            "orchestrate_plan",
            "get_plan",
            "validate_plan",
            "freeze_plan",
            "unfreeze_plan",
            "submit_plan",
            "plan_status",
            "raw_plan",
            "raw_diff",
            "raw_ops",
            "plan_outline",
            "plan_read",
            "explain_issue",
        ];
        want.sort();
        assert_eq!(authoring, want);
        assert_eq!(selected(Selection::All).count(), 27);
    }

    #[test]
    fn schemas_are_closed_and_use_only_validated_keywords() {
        for t in all() {
            let s = t.input_schema();
            uses_only_known_keywords(&s, t.name);
            assert_eq!(s["type"], "object", "{}", t.name);
            assert_eq!(
                s["properties"].get("expectedRevision").is_some(),
                t.expect_revision,
                "{}",
                t.name
            );
        }
    }

    #[test]
    fn the_grammar_is_stated_once_and_pointed_to() {
        let with: Vec<&str> = all()
            .iter()
            .filter(|t| t.description().contains("NODE GRAMMAR"))
            .map(|t| t.name)
            .collect();
        assert_eq!(with, [grammar::HOME]);
        let home = find(Selection::All, grammar::HOME).unwrap();
        assert!(home.grammar);
        let pointing: Vec<&str> = all()
            .iter()
            .filter(|t| t.description().contains(&grammar::pointer()))
            .map(|t| t.name)
            .collect();
        assert_eq!(
            pointing,
            ["set_node_config", "set_node_field", "connect_nodes"]
        );
        for t in all().iter().filter(|t| t.grammar) {
            // The tool pointed to is offered wherever the pointer is.
            assert_eq!(t.tier, home.tier, "{}", t.name);
        }
        for t in all().iter().filter(|t| !t.grammar) {
            let d = t.description();
            for needle in ["$ref", "$param", "case_", "no_match"] {
                assert!(!d.contains(needle), "{}: {needle}", t.name);
            }
        }
        let outline = all().iter().find(|t| t.name == "plan_outline").unwrap();
        assert!(outline.description().contains("under about 40 nodes"));
    }

    #[test]
    fn annotations_follow_the_spec() {
        let destructive: Vec<&str> = all()
            .iter()
            .filter(|t| t.destructive)
            .map(|t| t.name)
            .collect();
        // Every tool that overwrites or removes (issue 13; SPEC §10 named
        // only the removals and the approval).
        assert_eq!(
            destructive,
            [
                "set_node_config",
                "set_node_field",
                "set_node_phase",
                "remove_node",
                "disconnect_edge",
                "set_bounds",
                "undo_change",
                "unfreeze_plan",
                "submit_plan"
            ]
        );
        for name in [
            "list_templates",
            "get_plan",
            "validate_plan",
            "plan_status",
            "raw_plan",
            "raw_diff",
            "raw_ops",
            "plan_outline",
            "plan_read",
            "explain_issue",
        ] {
            assert!(find(Selection::All, name).unwrap().read_only, "{name}");
        }
        assert_eq!(all().iter().filter(|t| t.read_only).count(), 10);
        // A repeat makes another plan, or takes back one more change.
        let once: Vec<&str> = all()
            .iter()
            .filter(|t| !t.idempotent)
            .map(|t| t.name)
            .collect();
        assert_eq!(
            once,
            [
                "instantiate_plan",
                "author_plan",
                "create_plan",
                "undo_change",
                "orchestrate_plan"
            ]
        );
        for t in all().iter().filter(|t| t.read_only) {
            assert!(t.idempotent && !t.destructive, "{}", t.name);
        }
    }

    #[test]
    fn unknown_tools_are_refused_with_the_tier_list() {
        let e = unknown_tool(Selection::Front, "add_node");
        assert!(e.message.contains("authoring tier"), "{}", e.message);
        let e = unknown_tool(Selection::Authoring, "add_nod");
        assert!(
            e.message.contains("did you mean `add_node`"),
            "{}",
            e.message
        );
    }
}

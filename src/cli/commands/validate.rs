use super::read_input;
use crate::cli::{Format, Reply, Session};
use crate::forge::validate::{self, Target, Validation};
use crate::model::error::Result;
use crate::model::registry::Registry;
use crate::render;
use crate::store::Store;
use crate::wire::Syntax;
use clap::Args;

/// Check plans or plan documents (for CI).
///
/// Check plan documents or stored plans and report every finding, for people
/// and CI. An ARG that is -, an existing file, or ends in .json/.yaml/.yml is
/// a plan document, checked offline as its import would be (no store
/// needed); any other ARG is a plan id. No ARG: the current plan; --all:
/// every plan in the store.
///
/// Registry checks use --registry FILE, else the registry of the store if
/// there is one; without either they are skipped, and the output says so.
///
/// --format text draws each finding on stderr (a labelled snippet on a
/// terminal, file:line:column otherwise) and a summary on stdout; json,
/// sarif (SARIF 2.1.0) and github (workflow commands) print to stdout.
/// Exit 0 with no blocking issue, 1 with one, 2 for unreadable input or an
/// unknown plan id.
#[derive(Args, Debug, Clone)]
pub(crate) struct ValidateArgs {
    /// Plan documents (files, or - for stdin) or plan ids
    pub(crate) args: Vec<String>,
    /// Every plan in the store
    #[arg(long)]
    pub(crate) all: bool,
    /// The registry to check against [default: the store's]
    #[arg(long, value_name = "FILE")]
    pub(crate) registry: Option<std::path::PathBuf>,
    /// List at most N findings per document or plan; the rest are counted
    /// (0: list them all)
    #[arg(long, value_name = "N", default_value_t = validate::DEFAULT_MAX_FINDINGS)]
    pub(crate) max_findings: usize,
    /// Draw at most N bytes of findings in text mode (1024 to 1048576); the
    /// findings not drawn are counted. JSON, SARIF and github list them all
    #[arg(long, value_name = "N")]
    pub(crate) max_bytes: Option<u64>,
}

/// Whether an argument names a plan document rather than a plan id.
pub(crate) fn is_document(arg: &str) -> bool {
    let lower = arg.to_ascii_lowercase();
    arg == "-"
        || std::path::Path::new(arg).is_file()
        || [".json", ".yaml", ".yml"]
            .iter()
            .any(|ext| lower.ends_with(ext))
}

pub(crate) fn run(s: &mut Session, a: ValidateArgs) -> Result<Reply> {
    let max_bytes =
        match a.max_bytes {
            Some(n) => Some(crate::model::budget::requested(Some(n), 0).map_err(|why| {
                crate::model::error::Error::invalid(format!("--max-bytes: {why}"))
            })?),
            None => None,
        };
    let opts = validate::Options {
        one_shot: s.one_shot,
        ..validate::Options::default()
    }
    .listing(a.max_findings);
    let format = s.require_format(
        "validate",
        &[Format::Text, Format::Json, Format::Sarif, Format::Github],
    )?;
    let flag_registry = match &a.registry {
        Some(p) => Some(Registry::load(p, false)?),
        None => None,
    };
    let wants_store = a.all || a.args.is_empty() || a.args.iter().any(|x| !is_document(x));
    // Documents need no store; a store that exists lends its registry.
    let store = if wants_store {
        Some(s.store()?)
    } else {
        Store::open(s.store_path()).ok()
    };
    let registry = match (&flag_registry, &store) {
        (Some(r), _) => Some(r.clone()),
        (None, Some(st)) => match st.registry_path()? {
            Some(p) => Some(Registry::load(&p, true)?),
            None => None,
        },
        (None, None) => None,
    };

    let forge = match &store {
        Some(st) if wants_store => {
            let forge = crate::forge::Forge::new(st.clone(), s.actor()?);
            Some(match &flag_registry {
                Some(_) => forge.with_registry(registry.clone()),
                None => forge,
            })
        }
        _ => None,
    };

    // In the order given; then the current plan, or every plan for --all.
    let mut targets: Vec<Target> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for arg in &a.args {
        if is_document(arg) {
            let text = read_input(arg)?;
            let file = if arg == "-" { "stdin" } else { arg.as_str() };
            let syntax = Syntax::from_path(arg).unwrap_or_else(|| Syntax::sniff(&text));
            targets.push(validate::check_document(
                file,
                text,
                syntax,
                registry.as_ref(),
                &opts,
            )?);
        } else if let Some(f) = &forge {
            targets.push(f.validate(arg, &opts)?);
            seen.push(arg);
        }
    }
    if let (Some(f), Some(st)) = (&forge, &store) {
        if a.args.is_empty() && !a.all {
            targets.push(f.validate(&s.plan_id(st)?, &opts)?);
        }
        if a.all {
            for id in st.plan_ids()? {
                if !seen.contains(&id.as_str()) {
                    targets.push(f.validate(&id, &opts)?);
                }
            }
        }
    }

    let v = Validation { targets };
    let exit = if v.valid() { 0 } else { 1 };
    let (drawn, left) = render::diagnostics::within(
        render::diagnostics::diagnostics(&v, |t| match &t.plan_id {
            Some(p) if t.stored => s.voice(p),
            _ => crate::cli::voice::CliVoice::default(),
        }),
        max_bytes,
    );
    let reply = match format {
        Format::Sarif => Reply::new(
            crate::wire::json::pretty(&render::sarif::sarif(&v)),
            serde_json::Value::Null,
        ),
        Format::Github => Reply::new(render::diagnostics::github(&v), serde_json::Value::Null),
        _ => Reply::new(
            render::diagnostics::summary(&v),
            render::diagnostics::json(&v),
        )
        .diagnostics(drawn),
    };
    let reply = match (left, max_bytes) {
        (0, _) | (_, None) => reply,
        (n, Some(b)) => reply.note(format!(
            "{n} more group(s) of findings were not drawn within --max-bytes {b}; a larger --max-bytes, or --format json, shows them"
        )),
    };
    let reply = if registry.is_none() && format == Format::Text {
        reply.note("no registry was found, so the checks that need one were skipped; pass --registry FILE to run them")
    } else {
        reply
    };
    Ok(reply.exit(exit))
}

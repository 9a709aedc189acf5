use super::read_input;
use super::validate_folders::{Folders, Named};
use crate::cli::{Format, Reply, Session};
use crate::forge::validate::inputs::{Input, expand, wants_store};
use crate::forge::validate::policy::Policy;
use crate::forge::validate::select::{Given, Selection};
use crate::forge::validate::{self, Target, Validation, config};
use crate::model::config::{FailOn as ConfigFailOn, ValidateConfig};
use crate::model::error::{Error, Result};
use crate::model::registry::Registry;
use crate::render;
use crate::render::diagnostics;
use crate::store::{Logless, Store};
use crate::wire::Syntax;
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};

/// Check plans or plan documents (for CI).
///
/// Check plan documents or stored plans and report every finding, for people
/// and CI. An ARG that is -, an existing file, or a path (it holds a / or a
/// dot, or ends in .json/.yaml/.yml) is a plan document, checked offline as
/// its import would be (no store needed); a directory is searched for
/// *.json, *.yaml and *.yml (honouring .gitignore; hidden files and stores
/// are left out); a quoted glob ('docs/**/*.yaml') names the files it
/// matches; any other ARG is a plan id. No ARG: the current plan; --all:
/// every plan in the store.
///
/// Every input is checked: one that cannot be read or parsed (or an
/// unknown plan id) is reported like a finding, as invalid_document with
/// its file:line:column, and the run goes on.
///
/// Registry checks use --registry FILE, else the registry of the store if
/// there is one; without either they are skipped, and the output says so.
///
/// --format text draws each finding on stderr (a labelled snippet on a
/// terminal, file:line:column otherwise) and a summary on stdout; json,
/// sarif (SARIF 2.1.0) and github (workflow commands) print to stdout, or
/// to --output FILE. -q drops the summary and notes, never findings.
///
/// Exit: the worst seen. 2 if an input could not be checked (3 if the
/// store failed), else 1 if a finding fails the run (--fail-on: blocking
/// findings by default), else 0. --fail-on never (or --exit-zero) exits 0
/// whenever the run completes, input errors included, as ruff's
/// --exit-zero does; a bad flag or a malformed --registry still exits 2.
#[derive(Args, Debug, Clone)]
pub(crate) struct ValidateArgs {
    /// Plan documents (files, directories, quoted globs, or - for stdin) or
    /// plan ids
    pub(crate) args: Vec<String>,
    /// Every plan in the store
    #[arg(long)]
    pub(crate) all: bool,
    /// The registry to check against [default: the store's]
    #[arg(long, value_name = "FILE")]
    pub(crate) registry: Option<PathBuf>,
    /// List at most N findings per document or plan; the rest are counted
    /// (0: list them all)
    #[arg(long, value_name = "N", default_value_t = validate::DEFAULT_MAX_FINDINGS)]
    pub(crate) max_findings: usize,
    /// Draw at most N bytes of findings in text mode (1024 to 1048576); the
    /// findings not drawn are counted. JSON, SARIF and github list them all
    #[arg(long, value_name = "N")]
    pub(crate) max_bytes: Option<u64>,
    /// The file name outputs give standard input (-)
    #[arg(long, value_name = "NAME", default_value = "<stdin>")]
    pub(crate) stdin_filename: String,
    /// Write the report, in any --format, to FILE (replaced atomically)
    /// instead of stdout
    #[arg(short = 'o', long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// Which findings fail the run (exit 1): blocking ones, advisories too,
    /// or none (never: exit 0 even on input errors) [default: planforge.toml's
    /// fail-on, else blocking]
    #[arg(long, value_enum, value_name = "WHAT")]
    pub(crate) fail_on: Option<FailOn>,
    /// Exit 0 whatever was found: the same as --fail-on never
    #[arg(long, conflicts_with = "fail_on")]
    pub(crate) exit_zero: bool,
    /// Report only these codes: codes, code prefixes (transform selects
    /// every transform_* code), ALL, blocking, advisory or registry;
    /// comma-separated or repeated. Replaces planforge.toml's select
    #[arg(long, value_name = "CODES")]
    pub(crate) select: Vec<String>,
    /// Leave these codes out (the same selectors as --select), on top of
    /// planforge.toml's; the more specific selector wins
    #[arg(long, value_name = "CODES")]
    pub(crate) ignore: Vec<String>,
    /// Fail only on findings that are not in this earlier report (a
    /// --format json or --format sarif output); the others are not reported
    #[arg(long, value_name = "FILE")]
    pub(crate) baseline: Option<PathBuf>,
    /// Read settings from FILE [default: the nearest planforge.toml up to the
    /// repository root, else the store's]
    #[arg(long, value_name = "FILE", conflicts_with = "isolated")]
    pub(crate) config: Option<PathBuf>,
    /// Read no planforge.toml
    #[arg(long)]
    pub(crate) isolated: bool,
}

/// Which findings make `validate` exit 1.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FailOn {
    /// Blocking findings
    Blocking,
    /// Blocking and advisory findings
    Advisory,
    /// None: exit 0 whenever the run completes
    Never,
}

pub(crate) fn run(s: &mut Session, a: ValidateArgs) -> Result<Reply> {
    let max_bytes = match a.max_bytes {
        Some(n) => Some(
            crate::model::budget::requested(Some(n), 0)
                .map_err(|why| Error::invalid(format!("--max-bytes: {why}")))?,
        ),
        None => None,
    };
    let (policy, config) = policy(s, &a)?;
    let opts = validate::Options {
        one_shot: s.one_shot,
        policy: std::sync::Arc::new(policy),
        ..validate::Options::default()
    }
    .listing(a.max_findings);
    let format = s.require_format(
        "validate",
        &[Format::Text, Format::Json, Format::Sarif, Format::Github],
    )?;
    if let Some(p) = &a.output
        && p.is_dir()
    {
        return Err(Error::invalid(format!(
            "--output {}: that is a directory; name the file to write",
            p.display()
        )));
    }
    let inputs = expand(&a.args);
    if let Some(p) = &a.output {
        refuse_output(p, &inputs)?;
    }
    let (mut v, registry_found) = check_all(s, &a, &inputs, &opts)?;
    if let Ok(cwd) = std::env::current_dir() {
        v.anchor(&cwd);
    }
    let notes = policy_notes(&opts.policy, config.as_ref(), &v);
    let fail_on = if a.exit_zero {
        FailOn::Never
    } else {
        match (a.fail_on, config.as_ref().and_then(|c| c.fail_on)) {
            (Some(f), _) => f,
            (None, Some(f)) => f.into(),
            (None, None) => FailOn::Blocking,
        }
    };
    let exit = exit_code(&v, fail_on);
    let reply = deliver(s, &a, format, &v, registry_found, max_bytes, exit)?;
    Ok(notes.into_iter().fold(reply, Reply::note))
}

/// What the policy left out, said once per run (text mode shows notes).
fn policy_notes(p: &Policy, config: Option<&ValidateConfig>, v: &Validation) -> Vec<String> {
    let mut notes = Vec::new();
    let from = match config {
        Some(c) => format!(" (settings: {})", c.path.display()),
        None => String::new(),
    };
    if p.selection.is_narrowed() {
        notes.push(format!(
            "{} of {} issue codes are not reported by the selection{from}",
            p.selection.left_out(),
            crate::check::CHECKS.len()
        ));
    }
    if let Some(b) = &p.baseline {
        let n = v.withheld().baselined;
        notes.push(format!(
            "{n} finding(s) in the baseline {} were not reported; only new findings count",
            b.file
        ));
    }
    notes
}

impl From<ConfigFailOn> for FailOn {
    fn from(f: ConfigFailOn) -> FailOn {
        match f {
            ConfigFailOn::Blocking => FailOn::Blocking,
            ConfigFailOn::Advisory => FailOn::Advisory,
            ConfigFailOn::Never => FailOn::Never,
        }
    }
}

/// What the run reports: the settings file's selection, then the command
/// line's, and the baseline. Anything wrong with them is refused (exit 2)
/// before an input is read.
fn policy(s: &Session, a: &ValidateArgs) -> Result<(Policy, Option<ValidateConfig>)> {
    let cwd = std::env::current_dir().map_err(|e| Error::io("read", Path::new("."), &e))?;
    let store = s.store_path();
    let store = store.is_dir().then_some(store.as_path());
    policy_at(a, &cwd, store)
}

/// [`policy`] with the settings file found from `from` upwards (else in
/// `store`): a document's own (see `validate_folders`).
fn policy_at(
    a: &ValidateArgs,
    from: &Path,
    store: Option<&Path>,
) -> Result<(Policy, Option<ValidateConfig>)> {
    let cwd = std::env::current_dir().map_err(|e| Error::io("read", Path::new("."), &e))?;
    let config = config::find(a.config.as_deref(), a.isolated, from, store)?;
    let origin = config.as_ref().map(|c| c.path.display().to_string());
    let mut given = Vec::new();
    if let (Some(c), Some(o)) = (&config, &origin) {
        given.push(Given {
            origin: o,
            select: c.select.as_deref(),
            ignore: &c.ignore,
        });
    }
    given.push(Given {
        origin: "--select/--ignore",
        select: (!a.select.is_empty()).then_some(a.select.as_slice()),
        ignore: &a.ignore,
    });
    let selection = Selection::from_given(&given)?;
    let baseline = a.baseline.as_deref().map(config::baseline).transpose()?;
    let root = validate::inputs::repo_root(&cwd);
    Ok((
        Policy {
            selection,
            baseline,
            anchor: Some((root, cwd)),
        },
        config,
    ))
}

/// `--output FILE` must not replace an input, and its folder must exist
/// (refused before anything is read, exit 2).
fn refuse_output(p: &Path, inputs: &[Input]) -> Result<()> {
    let parent = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !parent.is_dir() {
        return Err(Error::invalid(format!(
            "--output {}: the folder {} does not exist",
            p.display(),
            parent.display()
        )));
    }
    if let Ok(out) = std::fs::canonicalize(p) {
        for i in inputs {
            if let Input::File(f) = i
                && std::fs::canonicalize(f).is_ok_and(|c| c == out)
            {
                return Err(Error::invalid(format!(
                    "--output {}: that is an input of this run ({f}); writing the report there would replace it",
                    p.display()
                )));
            }
        }
    }
    Ok(())
}

/// The exit code: the worst seen, as `fail_on` counts findings.
fn exit_code(v: &Validation, fail_on: FailOn) -> u8 {
    if fail_on == FailOn::Never {
        return 0;
    }
    if let Some(code) = v.failed() {
        return code;
    }
    let c = v.counts();
    u8::from(c.blocking > 0 || (fail_on == FailOn::Advisory && c.advisory > 0))
}

/// Checks every input, in the order given; then the current plan, or every
/// plan for --all. Returns the validation and whether a registry was used.
fn check_all(
    s: &Session,
    a: &ValidateArgs,
    inputs: &[Input],
    opts: &validate::Options,
) -> Result<(Validation, bool)> {
    let flag_registry = match &a.registry {
        Some(p) => Some(Registry::load(p, false)?),
        None => None,
    };
    let by_id = a.all || a.args.is_empty();
    let wants_store = by_id || wants_store(inputs);
    // Documents need no store; a store that exists lends its registry. When
    // only plan ids were asked for, a missing store is the whole answer.
    let only_ids = by_id || inputs.iter().all(|i| matches!(i, Input::Plan(_)));
    let (store, store_error) = if wants_store {
        match s.store() {
            Ok(st) => (Some(st), None),
            Err(e) if only_ids => return Err(e),
            Err(e) => (None, Some(e)),
        }
    } else {
        (Store::open(s.store_path()).ok(), None)
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
    let stored = |id: &str| match (&forge, &store_error) {
        (Some(f), _) => f.validate(id, opts).unwrap_or_else(|e| {
            let mut t = validate::failure(&f.log_file(id).unwrap_or_else(|| id.to_string()), &e);
            t.plan_id = Some(id.to_string());
            t
        }),
        (None, Some(e)) => validate::failure(id, e),
        (None, None) => validate::failure(id, &Error::internal("no store was opened")),
    };
    let mut targets: Vec<Target> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    let named = Named {
        config: a.config.is_some(),
        isolated: a.isolated,
        registry: a.registry.is_some(),
    };
    let policy_at = |from: &Path, store: Option<&Path>| Ok(policy_at(a, from, store)?.0);
    let mut folders = Folders::new(s, named, &policy_at, registry.as_ref(), opts);
    for input in inputs {
        targets.push(match input {
            Input::Stdin => document(&a.stdin_filename, "-", registry.as_ref(), opts),
            Input::File(f) => match folders.of(Path::new(f)) {
                Ok((registry, opts)) => document(f, f, registry, opts),
                Err(e) => validate::failure(f, &e),
            },
            Input::Missing(arg, why) => validate::failure(arg, &Error::invalid(why.clone())),
            Input::Plan(id) => {
                seen.push(id);
                stored(id)
            }
        });
    }
    if let (Some(_), Some(st)) = (&forge, &store) {
        if a.args.is_empty() && !a.all {
            targets.push(stored(&s.plan_id(st)?));
        }
        if a.all {
            for id in st.plan_ids()? {
                if !seen.contains(&id.as_str()) {
                    targets.push(stored(&id));
                }
            }
            // A plan folder holding files of its own but no op log cannot
            // be read: an input error. One holding only planforge's caches
            // is what a checkout of a branch without the plan leaves: no
            // plan, passed over (as git sees nothing there).
            for (id, what) in st.logless_folders()? {
                if what != Logless::Leftover && !seen.contains(&id.as_str()) {
                    targets.push(stored(&id));
                }
            }
        }
    }
    Ok((
        Validation {
            targets,
            baseline: a.baseline.is_some(),
            root: None,
        },
        registry.is_some(),
    ))
}

/// One plan document, read from `path` (`-`: stdin) and reported as `name`;
/// one that cannot be read is a target too.
fn document(
    name: &str,
    path: &str,
    registry: Option<&Registry>,
    opts: &validate::Options,
) -> Target {
    match read_input(path) {
        Ok(text) => {
            let syntax = Syntax::from_path(name)
                .or_else(|| Syntax::from_path(path))
                .unwrap_or_else(|| Syntax::sniff(&text));
            validate::check_input(name, text, syntax, registry, opts)
        }
        Err(e) => validate::failure(name, &e),
    }
}

/// The report in `format`: to --output FILE, or stdout (and the findings
/// on stderr in text mode). `-q` drops the summary and the notes, never the
/// findings, whatever the format.
fn deliver(
    s: &Session,
    a: &ValidateArgs,
    format: Format,
    v: &Validation,
    registry_found: bool,
    max_bytes: Option<usize>,
    exit: u8,
) -> Result<Reply> {
    use std::io::Write;
    let quiet = s.global.quiet;
    let mut notes = Vec::new();
    let drawn = if format == Format::Text {
        let (drawn, left) = diagnostics::within(
            diagnostics::diagnostics(v, |t| match &t.plan_id {
                Some(p) if t.stored => s.voice(p),
                _ => crate::cli::voice::CliVoice::default(),
            }),
            max_bytes,
        );
        if let (n @ 1.., Some(b)) = (left, max_bytes) {
            notes.push(format!(
                "{n} more group(s) of findings were not drawn within --max-bytes {b}; a larger --max-bytes, or --format json, shows them"
            ));
        }
        if !registry_found {
            notes.push("no registry was found, so the checks that need one were skipped; pass --registry FILE to run them".to_string());
        }
        drawn
    } else {
        Vec::new()
    };
    let body = match format {
        Format::Sarif => Some(crate::wire::json::pretty(&render::sarif::sarif(v))),
        Format::Github => Some(diagnostics::github(v)),
        _ => None,
    };
    if let Some(path) = &a.output {
        let bytes = match (format, body) {
            (_, Some(b)) => b,
            (Format::Json, None) => {
                crate::wire::json::pretty(&crate::cli::versioned(diagnostics::json(v)))
            }
            (_, None) => {
                let mut t: String = drawn.iter().map(diagnostics::plain).collect();
                if !quiet {
                    t.push_str(&diagnostics::summary(v));
                    t.push('\n');
                }
                t
            }
        };
        write_report(path, bytes.as_bytes())?;
        let reply = Reply::raw(String::new()).exit(exit);
        return Ok(notes.into_iter().fold(reply, Reply::note));
    }
    if quiet {
        // The session prints no prose under -q (only a JSON document): the
        // findings are printed here.
        match (&body, format) {
            (Some(b), _) => {
                if let Err(e) = std::io::stdout().lock().write_all(b.as_bytes()) {
                    let code = crate::cli::unwritten(s, &e, exit);
                    return Ok(Reply::raw(String::new()).exit(code));
                }
            }
            (None, Format::Text) => {
                let style = crate::cli::ui::stderr_style(s.global.color);
                let mut err = std::io::stderr().lock();
                for d in &drawn {
                    let _ = err.write_all(crate::cli::ui::issue_report(d, style).as_bytes());
                }
            }
            _ => {}
        }
    }
    let reply = match body {
        Some(b) => Reply::new(b, serde_json::Value::Null),
        None => Reply::for_format(format, || diagnostics::summary(v), || diagnostics::json(v))
            .diagnostics(drawn),
    };
    Ok(notes.into_iter().fold(reply, Reply::note).exit(exit))
}

/// Replaces `path` whole or not at all: a temporary file beside it, synced,
/// then renamed over it.
/// Writes the report to `path`, as `--output` names it. A regular file (or
/// none yet) is replaced whole ([`write_atomic`]): a reader never sees half
/// a report. Through a symbolic link, the file it names is the one written
/// (the link stays a link). Anything else — a device such as `/dev/stdout`
/// or `/dev/null`, a named pipe — is written in place: renaming a file over
/// it would put a regular file where the device or the pipe was (as root,
/// in a CI container, `--output /dev/null` replaced the device).
fn write_report(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let target = linked(path);
    match std::fs::metadata(&target) {
        Ok(m) if !m.is_file() => std::fs::OpenOptions::new()
            .write(true)
            .open(&target)
            .and_then(|mut f| f.write_all(bytes).and_then(|()| f.flush()))
            .map_err(|e| Error::io("write", &target, &e)),
        _ => write_atomic(&target, bytes),
    }
}

/// The file a path names: the end of its symbolic links when it is one
/// (a link to a file not made yet: the path the link holds), else the path.
fn linked(path: &Path) -> std::path::PathBuf {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if !is_link {
        return path.to_path_buf();
    }
    std::fs::canonicalize(path).unwrap_or_else(|_| match std::fs::read_link(path) {
        Ok(to) => path.parent().unwrap_or(Path::new("")).join(to),
        Err(_) => path.to_path_buf(),
    })
}

fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".planforge-")
        .tempfile_in(dir)
        .map_err(|e| Error::io("create a temporary file in", dir, &e))?;
    tmp.write_all(bytes)
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| Error::io("write", tmp.path(), &e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path).map_or(0o644, |m| m.permissions().mode());
        let _ = tmp
            .as_file()
            .set_permissions(std::fs::Permissions::from_mode(mode));
    }
    tmp.persist(path)
        .map_err(|e| Error::io("replace", path, &e.error))?;
    Ok(())
}

//! The harness the integration tests share: the binary under test, a
//! temporary folder to run it in, and a scrubbed environment.
//!
//! Every `tests/*.rs` is its own crate and uses a different part of this
//! module, hence the `dead_code` allowance.
#![allow(dead_code)]

use serde_json::Value;
use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The planforge binary Cargo built for these tests.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_planforge")
}

/// Environment variables a run must never inherit from the shell running the
/// tests.
pub const SCRUBBED: [&str; 10] = [
    "PLANFORGE_STORE",
    "PLANFORGE_PLAN",
    "PLANFORGE_LOCK_TIMEOUT_MS",
    "PLANFORGE_TEST_CRASH_AFTER_BYTES",
    "PLANFORGE_TEST_HOLD_LOCK_MS",
    "PLANFORGE_NOW",
    "PLANFORGE_ID_SEED",
    "CLICOLOR_FORCE",
    "EDITOR",
    "VISUAL",
];

/// The environment every run starts from: in `root`, no colour, a fixed
/// width, actor `tester`, nothing in [`SCRUBBED`].
fn base(c: &mut Command, root: &Path) {
    c.current_dir(root)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .env("PLANFORGE_ACTOR", "tester");
    for v in SCRUBBED {
        c.env_remove(v);
    }
}

/// `planforge ARGS` in `root` with the base environment and no stdin, for
/// threads that hold only the folder.
pub fn command(root: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(bin());
    base(&mut c, root);
    c.args(args).stdin(Stdio::null());
    c
}

/// Copies the files of folder `from` and its folders into `to`.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// Runs `c` with `input` on its stdin (then closed), capturing its output.
pub fn output_with_stdin(mut c: Command, input: &[u8]) -> Output {
    let mut child = c
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// The one JSON document a run printed, or a panic showing the run.
pub fn parse_json(out: &Output, args: &[&str]) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "planforge {args:?}: not one JSON document ({e}; exit {:?}):\n{}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// A temporary folder to run planforge in (the store, when there is one, is
/// `plans/` inside it), with the environment of every run made there.
pub struct Env {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
    /// Set (`Some`) or removed (`None`) after the base environment.
    vars: Vec<(OsString, Option<OsString>)>,
}

impl Env {
    /// An empty folder: no store.
    pub fn empty() -> Env {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        Env {
            _dir: dir,
            root,
            vars: Vec::new(),
        }
    }

    /// A folder with a store made by `planforge init`.
    pub fn new() -> Env {
        Env::empty().init()
    }

    /// Runs `planforge init`, which must succeed.
    pub fn init(self) -> Env {
        self.ok(&["init"]);
        self
    }

    /// Every run gets `key=value`.
    pub fn var(mut self, key: &str, value: impl AsRef<OsStr>) -> Env {
        self.vars
            .push((key.into(), Some(value.as_ref().to_os_string())));
        self
    }

    /// Every run gets `key` set to `rel` inside the folder (`""`: the folder).
    pub fn var_path(self, key: &str, rel: &str) -> Env {
        let p = if rel.is_empty() {
            self.root.clone()
        } else {
            self.path(rel)
        };
        self.var(key, p)
    }

    /// No run gets `key`.
    pub fn unset(mut self, key: &str) -> Env {
        self.vars.push((key.into(), None));
        self
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    pub fn store(&self) -> PathBuf {
        self.path("plans")
    }

    /// Writes `text` to `name` in the folder and returns its path.
    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    /// Gives `c` this folder and environment (stdio untouched).
    pub fn configure(&self, c: &mut Command) {
        base(c, &self.root);
        for (k, v) in &self.vars {
            match v {
                Some(v) => c.env(k, v),
                None => c.env_remove(k),
            };
        }
    }

    /// `planforge ARGS` here, with no stdin.
    pub fn cmd(&self, args: &[&str]) -> Command {
        let mut c = Command::new(bin());
        self.configure(&mut c);
        c.args(args).stdin(Stdio::null());
        c
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.cmd(args).output().unwrap()
    }

    pub fn with_stdin(&self, args: &[&str], input: &[u8]) -> Output {
        output_with_stdin(self.cmd(args), input)
    }

    /// Stdout of a run that must succeed.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "planforge {args:?} failed ({:?}):\n{}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// The document `planforge --format json ARGS` prints.
    pub fn json(&self, args: &[&str]) -> Value {
        let mut a = vec!["--format", "json"];
        a.extend_from_slice(args);
        parse_json(&self.run(&a), &a)
    }

    pub fn code(&self, args: &[&str]) -> i32 {
        self.run(args).status.code().unwrap()
    }

    /// A run as text.
    pub fn out(&self, args: &[&str]) -> Out {
        self.run(args).into()
    }

    pub fn out_with_stdin(&self, args: &[&str], input: &str) -> Out {
        self.with_stdin(args, input.as_bytes()).into()
    }
}

/// A run's output as text and its exit code (-1: killed by a signal).
pub struct Out {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

impl From<Output> for Out {
    fn from(out: Output) -> Out {
        Out {
            stdout: String::from_utf8(out.stdout).unwrap(),
            stderr: String::from_utf8(out.stderr).unwrap(),
            code: out.status.code().unwrap_or(-1),
        }
    }
}

impl Out {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}\nstderr: {}", self.stdout, self.stderr))
    }

    /// Asserts the run exited `want`.
    pub fn code(self, want: i32) -> Out {
        assert_eq!(
            self.code, want,
            "stdout: {}\nstderr: {}",
            self.stdout, self.stderr
        );
        self
    }

    /// Asserts the run succeeded.
    pub fn ok(self) -> Out {
        self.code(0)
    }
}

/// The CLI commands, as a model must never read them.
const COMMANDS: &[&str] = &[
    "init",
    "list",
    "use",
    "create",
    "remove",
    "author",
    "status",
    "show",
    "outline",
    "read",
    "add-node",
    "set-config",
    "set",
    "phase",
    "connect",
    "disconnect",
    "remove-node",
    "bounds",
    "edit",
    "undo",
    "validate",
    "freeze",
    "unfreeze",
    "submit",
    "clone",
    "diff",
    "raw",
    "ops",
    "export",
    "import",
    "graph",
    "templates",
    "instantiate",
    "orchestrate",
    "explain",
    "tool",
    "mcp",
    "repl",
    "completions",
    "log",
    "redo",
    "registry",
];

/// Panics when text meant for a model speaks the CLI's vocabulary: a
/// `planforge <command>` line, a `--flag`, or the `@node.path` shorthand.
/// (Raw JSON answers are the model's own data and are not checked.)
#[track_caller]
pub fn assert_model_text(text: &str) {
    for (at, _) in text.match_indices("planforge ") {
        let next = text[at + "planforge ".len()..]
            .split(|c: char| !(c.is_ascii_lowercase() || c == '-'))
            .next()
            .unwrap_or("");
        assert!(
            !COMMANDS.contains(&next),
            "a model reads the CLI command `planforge {next}`:\n{text}"
        );
    }
    let b = text.as_bytes();
    for (at, _) in text.match_indices("--") {
        let before_ok = at == 0 || matches!(b[at - 1], b' ' | b'`' | b'(' | b'\n' | b'\'');
        let after = b.get(at + 2).copied().unwrap_or(b' ');
        assert!(
            !(before_ok && after.is_ascii_lowercase()),
            "a model reads a CLI flag at `{}`:\n{text}",
            &text[at..(at + 20).min(text.len())]
        );
    }
    for (at, _) in text.match_indices('@') {
        let before_ok = at == 0 || matches!(b[at - 1], b' ' | b'`' | b'(' | b'\n' | b'\'' | b'"');
        let rest = &text[at + 1..];
        let id: String = rest
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
            .collect();
        let shorthand = !id.is_empty() && rest[id.len()..].starts_with(['.', '[', '`', ' ', ')']);
        assert!(
            !(before_ok && shorthand),
            "a model reads the `@node.path` shorthand `@{id}`:\n{text}"
        );
    }
}

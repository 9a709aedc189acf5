//! `validate`'s arguments as CI passes them: files, `-`, directories
//! (recursing into plan documents, honouring `.gitignore` as ripgrep does,
//! through the `ignore` crate), quoted globs (`globset`), and plan ids; and
//! where a reader's line and column fall in a text.
//!
//! Every argument yields inputs or says why it yields none, so nothing a
//! run was given is passed silently.

use crate::wire::span::{Located, Position, Span};
use std::collections::HashSet;
use std::path::Path;

/// One input of a validation, as the arguments name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Input {
    /// `-`: standard input.
    Stdin,
    /// A file to read, by the name outputs use.
    File(String),
    /// A plan id, checked in the store.
    Plan(String),
    /// An argument that names no input: the argument and why.
    Missing(String, String),
}

/// The extensions of plan documents a directory is searched for.
pub(crate) const EXTENSIONS: [&str; 3] = ["json", "yaml", "yml"];

/// The inputs `args` name, in the order given, each once (a file named
/// twice, or found by a directory and a glob, is checked once). Directory
/// entries come sorted by name.
pub(crate) fn expand(args: &[String]) -> Vec<Input> {
    let mut seen: HashSet<String> = HashSet::new();
    let mut out = Vec::new();
    for arg in args {
        for input in expand_one(arg) {
            let key = match &input {
                Input::Stdin => "\0-".to_string(),
                Input::File(f) => std::fs::canonicalize(f)
                    .map(|p| p.to_string_lossy().into_owned())
                    .unwrap_or_else(|_| f.clone()),
                Input::Plan(p) => format!("\0plan {p}"),
                Input::Missing(a, why) => format!("\0missing {a}\0{why}"),
            };
            if seen.insert(key) {
                out.push(input);
            }
        }
    }
    out
}

/// Whether any input needs the store.
pub(crate) fn wants_store(inputs: &[Input]) -> bool {
    inputs.iter().any(|i| matches!(i, Input::Plan(_)))
}

fn expand_one(arg: &str) -> Vec<Input> {
    if arg == "-" {
        return vec![Input::Stdin];
    }
    match std::fs::metadata(arg) {
        Ok(m) if m.is_dir() => directory(arg),
        Ok(_) => vec![Input::File(arg.to_string())],
        Err(_) if is_glob(arg) => glob(arg),
        Err(_) if looks_like_path(arg) => vec![Input::File(arg.to_string())],
        Err(_) => vec![Input::Plan(arg.to_string())],
    }
}

/// A pattern rather than a name: it holds a glob metacharacter.
fn is_glob(arg: &str) -> bool {
    arg.contains(['*', '?', '[', '{'])
}

/// A path that does not exist (reading it reports why), not a plan id:
/// plan ids hold no separator, dot or extension.
fn looks_like_path(arg: &str) -> bool {
    let lower = arg.to_ascii_lowercase();
    arg.contains(['/', '\\', '.'])
        || EXTENSIONS
            .iter()
            .any(|ext| lower.ends_with(&format!(".{ext}")))
}

fn has_plan_extension(name: &str) -> bool {
    Path::new(name)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| EXTENSIONS.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// A folder that is a store: its plans are checked by id, not as files.
fn is_store(dir: &Path) -> bool {
    dir.join(".planforge").is_file()
}

/// The plan documents under a directory.
fn directory(root: &str) -> Vec<Input> {
    if is_store(Path::new(root)) {
        return vec![Input::Missing(
            root.to_string(),
            "this folder is a plan store, not a folder of plan documents: check its plans by id, or every plan with --all".into(),
        )];
    }
    let found = walk(root, None, has_plan_extension);
    if found.is_empty() {
        return vec![Input::Missing(
            root.to_string(),
            "no plan documents (*.json, *.yaml, *.yml) were found in this folder (files that .gitignore ignores and hidden files are left out)".into(),
        )];
    }
    found
}

/// The files a quoted glob matches (`*` and `?` stay within one path
/// component, `**` crosses them), found as in a directory walk.
fn glob(pattern: &str) -> Vec<Input> {
    let pat = pattern.strip_prefix("./").unwrap_or(pattern);
    let matcher = match globset::GlobBuilder::new(pat)
        .literal_separator(true)
        .build()
    {
        Ok(g) => g.compile_matcher(),
        Err(e) => {
            return vec![Input::Missing(
                pattern.to_string(),
                format!("not a valid glob: {e}"),
            )];
        }
    };
    // Walk from the components before the first metacharacter.
    let parts: Vec<&str> = pat.split('/').collect();
    let fixed = parts.iter().take_while(|p| !is_glob(p)).count();
    let base = match parts[..fixed].join("/") {
        b if b.is_empty() && pat.starts_with('/') => "/".to_string(),
        b if b.is_empty() => ".".to_string(),
        b => b,
    };
    let depth = (!pat.contains("**")).then_some(parts.len() - fixed);
    let found = match Path::new(&base).is_dir() {
        true => walk(&base, depth, |name| matcher.is_match(name)),
        false => Vec::new(),
    };
    if found.is_empty() {
        return vec![Input::Missing(
            pattern.to_string(),
            "no file matches this glob (files that .gitignore ignores and hidden files are left out)".into(),
        )];
    }
    found
}

/// The files under `root` whose names `keep` accepts, sorted by name,
/// skipping what `.gitignore` ignores, hidden files and stores; a folder
/// that cannot be read is an input that says why.
fn walk(root: &str, depth: Option<usize>, keep: impl Fn(&str) -> bool) -> Vec<Input> {
    let mut builder = ignore::WalkBuilder::new(root);
    builder
        .require_git(false)
        .max_depth(depth)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(|e| !(e.depth() > 0 && e.path().is_dir() && is_store(e.path())));
    let mut out = Vec::new();
    for entry in builder.build() {
        match entry {
            Ok(e) if e.file_type().is_some_and(|t| t.is_file()) => {
                let path = e.path().to_string_lossy();
                let name = path.strip_prefix("./").unwrap_or(&path);
                if keep(name) {
                    out.push(Input::File(name.to_string()));
                }
            }
            Ok(_) => {}
            Err(err) => out.push(Input::Missing(root.to_string(), err.to_string())),
        }
    }
    out
}

/// Where a reader's 1-based `line` and `column` (in characters) fall in
/// `text`: the character there (nothing at the end of a line or of the
/// text). `None` when the text does not reach that line.
pub(crate) fn located(text: &str, line: usize, column: usize) -> Option<Located> {
    let line = line.max(1);
    let mut start = 0;
    for _ in 1..line {
        start += text[start..].find('\n')? + 1;
    }
    let rest = &text[start..];
    let eol = rest.find('\n').unwrap_or(rest.len());
    let mut offset = start;
    let mut col = 1;
    // ASCII before the column (the usual case, and a long line's): bytes are
    // characters.
    let before = column.max(1) - 1;
    if before <= eol && rest.as_bytes()[..before].is_ascii() {
        offset = start + before;
        col = column.max(1);
    }
    let from = offset - start;
    for (i, ch) in rest[from..eol].char_indices() {
        let i = i + from;
        if col == column.max(1) {
            offset = start + i;
            break;
        }
        col += 1;
        offset = start + i + ch.len_utf8();
    }
    let width = text[offset..start + eol]
        .chars()
        .next()
        .map_or(0, char::len_utf8);
    let at = Position { line, column: col };
    Some(Located {
        span: Span {
            start: offset,
            end: offset + width,
        },
        start: at,
        end: Position {
            line,
            column: col + usize::from(width > 0),
        },
        pointer: String::new(),
        exact: width > 0,
    })
}

/// How outputs name a file: relative to the working folder, as git names
/// paths (`plans/plan-a/ops.jsonl`, `../plans/plan-a/ops.jsonl`); absolute
/// when they share no folder but the root.
pub(crate) fn shown_path(path: &Path) -> String {
    let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let Some(cwd) = std::env::current_dir().and_then(std::fs::canonicalize).ok() else {
        return abs.to_string_lossy().into_owned();
    };
    let a: Vec<_> = abs.components().collect();
    let c: Vec<_> = cwd.components().collect();
    let common = a.iter().zip(&c).take_while(|(x, y)| x == y).count();
    if common <= 1 {
        return abs.to_string_lossy().into_owned();
    }
    let mut rel = std::path::PathBuf::new();
    for _ in common..c.len() {
        rel.push("..");
    }
    for part in &a[common..] {
        rel.push(part);
    }
    rel.to_string_lossy().into_owned()
}

/// The root repository-relative paths are relative to: the nearest folder
/// at or above `cwd` that holds `.git`, else `cwd` (canonical).
pub(crate) fn repo_root(cwd: &Path) -> std::path::PathBuf {
    let cwd = std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf());
    cwd.ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(&cwd)
        .to_path_buf()
}

/// `file` (relative to `cwd`, or absolute) relative to `root`, with `/`
/// separators; `None` when it lies outside `root`. A file that does not
/// exist (an input error) is placed by its name alone.
pub(crate) fn repo_relative(root: &Path, cwd: &Path, file: &str) -> Option<String> {
    let cwd = std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf());
    let joined = cwd.join(file);
    let abs = std::fs::canonicalize(&joined).unwrap_or_else(|_| lexical(&joined));
    let rel = abs.strip_prefix(root).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// `p` with `.` and `..` taken out by name.
fn lexical(p: &Path) -> std::path::PathBuf {
    use std::path::Component;
    let mut out = std::path::PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_count_characters() {
        let text = "{\n  \"é\": x\n}";
        let l = located(text, 2, 8).unwrap();
        assert_eq!(&text[l.span.start..l.span.end], "x");
        assert_eq!((l.start.column, l.end.column), (8, 9));
        // Past the end of the line: the end of the line, nothing underlined.
        let l = located(text, 2, 40).unwrap();
        assert!(l.span.is_empty());
        assert_eq!(l.start.column, 9);
        assert!(located(text, 9, 1).is_none());
        // ASCII before the column: counted in bytes, the same answer.
        let l = located("abc\ndefg", 2, 3).unwrap();
        assert_eq!((l.span.start, l.start.column, l.end.column), (6, 3, 4));
        assert!(located("", 1, 1).is_some_and(|l| l.span.is_empty()));
    }

    #[test]
    fn arguments_are_classified() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().to_string_lossy().into_owned();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/b.yaml"), "x").unwrap();
        std::fs::write(dir.path().join("a.json"), "x").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "x").unwrap();
        std::fs::write(dir.path().join("skip.json"), "x").unwrap();
        std::fs::write(dir.path().join(".gitignore"), "skip.json\n").unwrap();
        let got = expand(&[
            d.clone(),
            format!("{d}/*.json"),
            "-".into(),
            "plan-x".into(),
            "gone.json".into(),
            format!("{d}/*.nothing"),
        ]);
        assert_eq!(
            &got[..5],
            &[
                Input::File(format!("{d}/a.json")),
                Input::File(format!("{d}/sub/b.yaml")),
                Input::Stdin,
                Input::Plan("plan-x".into()),
                Input::File("gone.json".into()),
            ]
        );
        assert!(matches!(&got[5], Input::Missing(a, _) if a.ends_with("*.nothing")));
        assert_eq!(got.len(), 6);
    }
}

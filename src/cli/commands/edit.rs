use super::echo_reply;
use crate::cli::{Reply, Session};
use crate::forge::Forge;
use crate::forge::kept_edit;
use crate::forge::node_edit::{self, Draft, Parsed};
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use clap::Args;
use std::path::Path;

/// Edit one node as YAML in $VISUAL / $EDITOR.
///
/// Edit one node as YAML in $VISUAL / $EDITOR; saving applies the change as
/// one step. A parse or shape error reopens the file with the error on top;
/// an emptied file aborts.
///
/// The file holds the node's phase, kind and definition (references in
/// wire form, `$ref`), under a comment header with the plan, its revision
/// and the node's current issues. The kind and the id cannot change. When
/// someone else changes the node while you edit it (revision_moved), or you
/// save an error unchanged, nothing is written and your file is kept: its
/// path is printed, and `edit ID --from FILE` reopens it on the current
/// revision (once applied, such a kept copy is removed; a file of your own
/// stays). After 20 saves that still do not read, the edit stops and keeps
/// the file too. The editor is $VISUAL, else $EDITOR, else vi.
#[derive(Args, Debug, Clone)]
pub(crate) struct EditArgs {
    /// The node id
    pub(crate) id: String,
    /// Start from this file (one an earlier edit kept) instead of the node
    /// as it is; the header is renewed for the current revision
    #[arg(long, value_name = "FILE")]
    pub(crate) from: Option<std::path::PathBuf>,
}

/// A kept file's node, without its error block and its old header.
fn kept_body(text: &str) -> String {
    let body = node_edit::strip_errors(text);
    let mut lines = body.split_inclusive('\n').peekable();
    while lines.peek().is_some_and(|l| l.starts_with('#')) {
        lines.next();
    }
    lines.collect()
}

/// The draft's header (its leading comment lines).
fn header(text: &str) -> String {
    text.split_inclusive('\n')
        .take_while(|l| l.starts_with('#'))
        .collect()
}

/// The editor command line: `$VISUAL`, `$EDITOR`, or `vi`.
fn editor() -> Result<Vec<String>> {
    let (var, line) = ["VISUAL", "EDITOR"]
        .iter()
        .find_map(|v| {
            std::env::var(v)
                .ok()
                .filter(|s| !s.trim().is_empty())
                .map(|s| (*v, s))
        })
        .unwrap_or(("the default", "vi".to_string()));
    if var == "the default" && !has_terminal() {
        return Err(Error::invalid(
            "there is no terminal to run the default editor `vi` in (standard input is not a terminal and there is no /dev/tty)",
        )
        .with_help("set $VISUAL or $EDITOR to an editor that needs no terminal, or run `planforge edit` from a terminal"));
    }
    match crate::cli::repl::words::split(&line) {
        Ok(words) if !words.is_empty() => Ok(words),
        _ => Err(
            Error::invalid(format!("the editor {var} = {line:?} is not a command line"))
                .with_help("set $VISUAL or $EDITOR to your editor, e.g. `export EDITOR=nano`"),
        ),
    }
}

/// Whether an editor can reach a terminal: standard input, or /dev/tty.
fn has_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal() || std::fs::File::open("/dev/tty").is_ok()
}

/// How many times a file that does not read is reopened before the edit
/// stops (an editor that changes it on every save would loop for ever).
const MAX_REOPENS: usize = 20;

/// Whether `file` is a copy an earlier `edit ID` kept: in the temporary
/// folder, named `planforge-edit-ID-….yaml`. Only those are removed once
/// applied; a file of one's own given to `--from` stays.
fn is_kept_file(file: &Path, id: &str) -> bool {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let dir = file.parent().and_then(|d| d.canonicalize().ok());
    name.starts_with(&format!("planforge-edit-{id}-"))
        && name.ends_with(".yaml")
        && dir.is_some()
        && dir == std::env::temp_dir().canonicalize().ok()
}

fn run_editor(editor: &[String], file: &Path) -> Result<()> {
    use std::io::IsTerminal;
    let mut command = std::process::Command::new(&editor[0]);
    command.args(&editor[1..]).arg(file);
    crate::model::pages::as_before(&mut command);
    // Under a script (`… | planforge repl`) stdin is the script: the editor
    // must not read the next lines as keystrokes. It gets the terminal when
    // there is one, and nothing otherwise.
    if !std::io::stdin().is_terminal() {
        match std::fs::File::open("/dev/tty") {
            Ok(tty) => command.stdin(tty),
            Err(_) => command.stdin(std::process::Stdio::null()),
        };
    }
    let status = command.status().map_err(|e| {
        Error::invalid(format!("could not start the editor `{}`: {e}", editor[0]))
            .with_help("set $VISUAL or $EDITOR to your editor, e.g. `export EDITOR=nano`")
    })?;
    if !status.success() {
        return Err(Error::invalid(format!(
            "the editor `{}` exited with {status}; nothing was written",
            editor.join(" ")
        )));
    }
    Ok(())
}

fn read(file: &Path) -> Result<String> {
    let bytes = std::fs::read(file).map_err(|e| Error::io("read", file, &e))?;
    String::from_utf8(bytes).map_err(|e| {
        Error::invalid(format!(
            "the edited file is not UTF-8 (first bad byte at offset {}); nothing was written",
            e.utf8_error().valid_up_to()
        ))
    })
}

fn write(file: &Path, text: &str) -> Result<()> {
    std::fs::write(file, text).map_err(|e| Error::io("write", file, &e))
}

/// The text `edit --from FILE` opens: the kept node on the current
/// revision, merged field by field with what changed since the file was
/// made (see `forge::kept_edit`); a conflict refuses.
fn reopen(forge: &Forge, draft: &Draft, from: &Path) -> Result<String> {
    let text = read(from)?;
    let body = kept_body(&text);
    let id = &draft.node.id;
    let Some(base) = kept_edit::header_revision(&text) else {
        return Err(Error::invalid(format!(
            "{} does not say which revision it was made at (its first line `# planforge edit: node … at revision N` is missing), so reopening it could undo changes made since; nothing was written",
            from.display()
        ))
        .with_help("editing the node again starts from it as it is")
        .on_plan(draft.plan_id.clone())
        .fix(crate::model::remedy::Remedy::SetDefinition { node: id.to_string() }));
    };
    let head = header(&draft.text);
    if base == draft.revision {
        return Ok(format!("{head}{body}"));
    }
    let mine = match node_edit::parse(&body, &draft.node) {
        Ok(Parsed::Empty) => return Ok(format!("{head}{body}")),
        Ok(Parsed::Unchanged) => draft.node.clone(),
        Ok(Parsed::Changed(node)) => node,
        Err(e) if forge.changed_since(draft, base)? => {
            return Err(Error::new(
                ErrorKind::RevisionMoved,
                format!(
                    "node `{id}` changed since revision {base}, which the kept file was made at, and the file does not read ({}), so it cannot be merged; nothing was written",
                    e.message.lines().next().unwrap_or_default()
                ),
            )
            .with_help(format!(
                "your file stays in {}; planforge edit {id} starts from the current node: make your change there again",
                from.display()
            )));
        }
        Err(_) => return Ok(format!("{head}{body}")),
    };
    let rebased = forge.rebase_kept(draft, base, &mine).map_err(|e| {
        e.with_help(format!(
            "your file stays in {}; planforge edit {id} starts from the current node: make your change there again",
            from.display()
        ))
    })?;
    if rebased.kept_theirs.is_empty() {
        return Ok(format!("{head}{body}"));
    }
    let fields: Vec<String> = rebased
        .kept_theirs
        .iter()
        .map(|k| format!("`{k}`"))
        .collect();
    let merged = node_edit::render(&draft.plan_id, draft.revision, &rebased.node, &[]);
    Ok(format!(
        "{head}# Reopened from a file made at revision {base}; the changes made since to {} are kept.\n{}",
        fields.join(", "),
        kept_body(&merged)
    ))
}

pub(crate) fn run(s: &mut Session, a: EditArgs) -> Result<Reply> {
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    let draft = forge.edit_draft(&plan, &a.id)?;
    let editor = editor()?;
    let file = tempfile::Builder::new()
        .prefix(&format!("planforge-edit-{}-", a.id))
        .suffix(".yaml")
        .tempfile()
        .map_err(|e| Error::internal(format!("could not create a file to edit in: {e}")))?;
    let path = file.path().to_path_buf();
    let start = match &a.from {
        Some(from) => reopen(&forge, &draft, from)?,
        None => draft.text.clone(),
    };
    write(&path, &start)?;
    let mut written = start;
    let keep = |file: tempfile::NamedTempFile| {
        let kept = file
            .keep()
            .map(|(_, p)| p)
            .unwrap_or_else(|e| e.file.path().to_path_buf());
        format!(
            "your version is kept in {}; planforge edit {} --from {} reopens it on the current revision",
            kept.display(),
            a.id,
            crate::cli::voice::quote(&kept.display().to_string())
        )
    };
    let mut reopened = 0;
    loop {
        run_editor(&editor, &path)?;
        let text = read(&path)?;
        let body = node_edit::strip_errors(&text);
        match node_edit::parse(&body, &draft.node) {
            Ok(Parsed::Empty) => {
                let why = format!(
                    "edit of `{}` aborted: the file was emptied; nothing was written",
                    a.id
                );
                return Ok(echo_reply(s, &forge.edit_noop(&draft, &why)?));
            }
            Ok(Parsed::Unchanged) => {
                let why = format!("no change to `{}`; nothing was written", a.id);
                return Ok(echo_reply(s, &forge.edit_noop(&draft, &why)?));
            }
            Ok(Parsed::Changed(node)) => {
                return match forge.apply_edit(&draft, node) {
                    Ok(echo) => {
                        let mut reply = echo_reply(s, &echo);
                        if let Some(from) = a.from.as_deref().filter(|f| is_kept_file(f, &a.id)) {
                            // Applied: the copy an earlier edit kept is spent.
                            if std::fs::remove_file(from).is_ok() {
                                reply = reply.note(format!(
                                    "removed the kept file {} (its edit is applied)",
                                    from.display()
                                ));
                            }
                        }
                        Ok(reply)
                    }
                    Err(e) if e.kind == ErrorKind::RevisionMoved => Err(e.with_help(keep(file))),
                    Err(e) => Err(e),
                };
            }
            Err(e) => {
                reopened += 1;
                if text == written || reopened > MAX_REOPENS {
                    // Saved as it was reopened: the person gave up on it,
                    // for now. Their work stays on disk. The parser counted
                    // lines in the file without its error block; the place
                    // named counts in the file as kept.
                    let e = shift_lines(e, text.lines().count() - body.lines().count());
                    let help = e.help.clone().unwrap_or_default();
                    return Err(e.with_help(
                        format!(
                            "{help}\n{}; nothing was written\n{}",
                            if text == written {
                                "the file was saved again without a change, so the edit stopped".to_string()
                            } else {
                                format!("the file still did not read after {MAX_REOPENS} reopens, so the edit stopped")
                            },
                            keep(file)
                        )
                        .trim_start()
                        .to_string(),
                    ));
                }
                written = node_edit::with_error(&body, &e, &s.voice(&plan));
                write(&path, &written)?;
            }
        }
    }
}

/// `e` with its line (in its location and in the parser's own
/// `[line N, column M]`) moved down by `by` lines.
fn shift_lines(mut e: Error, by: usize) -> Error {
    if by == 0 {
        return e;
    }
    let Some(line) = e.location.as_ref().and_then(|l| l.line) else {
        return e;
    };
    if let Some(l) = e.location.as_mut() {
        l.line = Some(line + by);
    }
    e.message = e
        .message
        .replace(&format!("[line {line},"), &format!("[line {},", line + by));
    e
}

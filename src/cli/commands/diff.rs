use crate::cli::{Format, Reply, Session};
use crate::forge::Forge;
use crate::model::error::Error;
use crate::model::error::Result;
use crate::render::diff;
use clap::Args;

/// Compare two revisions of a plan, or two plan documents.
///
/// Compare two revisions of the plan (a revision number, `current` or
/// `frozen`), or two plan documents with --files.
///
/// Without A and B: from the last freeze (when the plan was ever frozen,
/// else revision 0) to the current revision. Nodes and edges are matched by
/// id; changed nodes list each changed field (`phase`, or a definition path
/// as `planforge set` takes it) with before → after; a reference is
/// compared as a whole. An edge whose endpoints or handle changed shows as
/// removed and added. With --exit-code: exit 1 when the sides differ; an
/// unknown plan or revision is exit 2.
#[derive(Args, Debug, Clone)]
pub(crate) struct DiffArgs {
    /// From [default: frozen if the plan was ever frozen, else 0]
    pub(crate) a: Option<String>,
    /// To [default: current]
    pub(crate) b: Option<String>,
    /// Compare two plan documents instead (JSON or YAML; no store needed)
    #[arg(long, num_args = 2, value_names = ["X", "Y"], conflicts_with_all = ["a", "b"])]
    pub(crate) files: Option<Vec<String>>,
    /// Exit 1 when there are differences
    #[arg(long)]
    pub(crate) exit_code: bool,
}

pub(crate) fn run(s: &mut Session, a: DiffArgs) -> Result<Reply> {
    let format = s.require_format("diff", &[Format::Text, Format::Json])?;
    let d = match &a.files {
        Some(files) => {
            let [x, y] = files.as_slice() else {
                return Err(Error::invalid("--files takes exactly two plan documents"));
            };
            let dx = super::import::read_document(x, None)?;
            let dy = super::import::read_document(y, None)?;
            let mut d = Forge::diff_documents(&dx, &dy);
            d.from.label = x.clone();
            d.to.label = y.clone();
            d
        }
        None => {
            // An empty argument is not the default: it names nothing.
            if a.a.as_deref() == Some("") || a.b.as_deref() == Some("") {
                return Err(Error::new(
                    crate::model::error::ErrorKind::UnknownRevision,
                    "an empty argument is not a revision: a revision is a number, `current` or `frozen`",
                )
                .with_help("leave the argument out for the default (the last freeze, or revision 0, against `current`)"));
            }
            let forge = s.forge()?;
            let plan = s.plan_id(forge.store())?;
            forge.diff(
                &plan,
                a.a.as_deref().unwrap_or(""),
                a.b.as_deref().unwrap_or(""),
            )?
        }
    };
    let colour_it = format == Format::Text && s.color_stdout();
    let reply = Reply::for_format(
        format,
        || {
            let text = diff::text(&d);
            if colour_it { colour(&text) } else { text }
        },
        || diff::json(&d),
    );
    Ok(if a.exit_code && !d.is_empty() {
        reply.exit(1)
    } else {
        reply
    })
}

/// Colours the `+`, `-` and `~` lines of a diff for a terminal.
fn colour(text: &str) -> String {
    use owo_colors::OwoColorize;
    text.lines()
        .map(|l| {
            if l.starts_with("+ ") {
                l.green().to_string()
            } else if l.starts_with("- ") {
                l.red().to_string()
            } else if l.starts_with("~ ") {
                l.yellow().to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

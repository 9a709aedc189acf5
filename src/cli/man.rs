//! The man pages under `man/man1/`: one page per command (`planforge.1`,
//! `planforge-add-node.1`, `planforge-registry-add.1`, …), none for clap's
//! `help` pseudo-command, each with NAME, SYNOPSIS, DESCRIPTION, OPTIONS,
//! EXAMPLES (the examples `--help` prints, one command a line, copyable)
//! and SEE ALSO, written by `clap_mangen` from the same clap definitions as
//! the help. The committed pages are checked fresh by a test; refresh them
//! with `PLANFORGE_UPDATE_MAN=1 cargo test --lib man_pages_are_fresh`.

use clap::CommandFactory;

/// Text escaped for roff: backslashes, hyphens (so `--phase` stays two
/// ASCII hyphens when copied) and a leading control character.
fn roff_text(s: &str) -> String {
    let t = s.replace('\\', "\\e").replace('-', "\\-");
    if t.starts_with('.') || t.starts_with('\'') {
        format!("\\&{t}")
    } else {
        t
    }
}

/// The EXAMPLES section of the command `name` (`add-node`, `registry add`),
/// if it has any.
fn examples(name: &str) -> String {
    let Some((_, ex)) = super::help::EXAMPLES.iter().find(|(n, _)| *n == name) else {
        return String::new();
    };
    let mut out = String::from(".SH EXAMPLES\n");
    for (line, what) in ex.iter() {
        let what = what[..1].to_uppercase() + &what[1..];
        out.push_str(&format!(
            ".PP\n{}:\n.PP\n.RS 4\n.nf\n{}\n.fi\n.RE\n",
            roff_text(&what),
            roff_text(line)
        ));
    }
    out
}

/// SEE ALSO: the main page, the parent's, and the command's own subcommands.
fn see_also(path: &[String], cmd: &clap::Command) -> String {
    let mut pages: Vec<String> = Vec::new();
    for i in 1..path.len() {
        pages.push(path[..i].join("-"));
    }
    let me = path.join("-");
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        pages.push(format!("{me}-{}", sub.get_name()));
    }
    if path.len() == 1 {
        pages.push("git".into());
    }
    let refs: Vec<String> = pages
        .iter()
        .map(|p| format!("\\fB{}\\fR(1)", roff_text(p)))
        .collect();
    format!(".SH \"SEE ALSO\"\n{}\n", refs.join(", "))
}

/// The page of `cmd`, whose command path from the root is `path`.
fn page(cmd: &clap::Command, path: &[String]) -> Vec<u8> {
    let man = clap_mangen::Man::new(cmd.clone())
        .source(format!("planforge {}", env!("CARGO_PKG_VERSION")))
        .manual("planforge manual");
    let mut out = Vec::new();
    let render = |out: &mut Vec<u8>| -> std::io::Result<()> {
        man.render_title(out)?;
        man.render_name_section(out)?;
        man.render_synopsis_section(out)?;
        man.render_description_section(out)?;
        if cmd.get_arguments().any(|a| !a.is_hide_set()) {
            man.render_options_section(out)?;
        }
        if cmd.get_subcommands().any(|s| s.get_name() != "help") {
            man.render_subcommands_section(out)?;
        }
        if path.len() == 1 {
            let codes = super::EXIT_CODES.lines().skip(1).collect::<Vec<_>>();
            out.extend_from_slice(b".SH \"EXIT STATUS\"\n.nf\n");
            for l in codes {
                out.extend_from_slice(roff_text(l).as_bytes());
                out.push(b'\n');
            }
            out.extend_from_slice(b".fi\n");
            man.render_version_section(out)?;
        }
        Ok(())
    };
    render(&mut out).expect("writing to memory");
    if path.len() > 1 {
        out.extend_from_slice(examples(&path[1..].join(" ")).as_bytes());
    }
    out.extend_from_slice(see_also(path, cmd).as_bytes());
    out
}

/// Every page, by file name.
pub(crate) fn pages() -> Vec<(String, Vec<u8>)> {
    fn walk(cmd: &clap::Command, path: &mut Vec<String>, out: &mut Vec<(String, Vec<u8>)>) {
        out.push((format!("{}.1", path.join("-")), page(cmd, path)));
        for sub in cmd.get_subcommands() {
            if sub.get_name() == "help" || sub.is_hide_set() {
                continue;
            }
            path.push(sub.get_name().to_string());
            walk(sub, path, out);
            path.pop();
        }
    }
    let mut cmd = super::Cli::command().disable_help_subcommand(true);
    let nested: Vec<String> = cmd
        .get_subcommands()
        .filter(|s| s.has_subcommands())
        .map(|s| s.get_name().to_string())
        .collect();
    for n in nested {
        cmd = cmd.mut_subcommand(&n, |s| s.disable_help_subcommand(true));
    }
    cmd.build();
    let mut out = Vec::new();
    walk(&cmd, &mut vec!["planforge".to_string()], &mut out);
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    #[test]
    fn man_pages_are_fresh() {
        let fresh = super::pages();
        let names: Vec<&str> = fresh.iter().map(|(n, _)| n.as_str()).collect();
        assert!(names.contains(&"planforge-add-node.1"), "{names:?}");
        assert!(names.contains(&"planforge-registry-add.1"), "{names:?}");
        assert!(!names.iter().any(|n| n.contains("help")), "{names:?}");
        let (_, add) = fresh
            .iter()
            .find(|(n, _)| n == "planforge-add-node.1")
            .unwrap();
        let add = String::from_utf8_lossy(add);
        for section in [
            ".SH NAME",
            ".SH SYNOPSIS",
            ".SH DESCRIPTION",
            ".SH OPTIONS",
            ".SH EXAMPLES",
            ".SH \"SEE ALSO\"",
        ] {
            assert!(add.contains(section), "{section}: {add}");
        }
        assert!(!add.contains("EXTRA"), "{add}");
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("man");
        let dir = root.join("man1");
        if std::env::var_os("PLANFORGE_UPDATE_MAN").is_some() {
            let _ = std::fs::remove_dir_all(&root);
            std::fs::create_dir_all(&dir).unwrap();
            for (n, text) in &fresh {
                std::fs::write(dir.join(n), text).unwrap();
            }
            return;
        }
        let listing = |d: &Path| -> Vec<String> {
            let mut v: Vec<String> = std::fs::read_dir(d)
                .map(|d| {
                    d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                        .collect()
                })
                .unwrap_or_default();
            v.sort();
            v
        };
        let mut stale = Vec::new();
        if listing(&root) != ["man1"] {
            stale.push(format!("man/ holds {:?}, not only man1/", listing(&root)));
        }
        let old = listing(&dir);
        if old != names {
            stale.push(format!("the pages differ: {old:?} vs {names:?}"));
        }
        for (n, text) in &fresh {
            if std::fs::read(dir.join(n)).ok().as_ref() != Some(text) {
                stale.push(format!("man/man1/{n}"));
            }
        }
        assert!(
            stale.is_empty(),
            "stale man pages (PLANFORGE_UPDATE_MAN=1 cargo test --lib man_pages_are_fresh): {stale:?}"
        );
    }
}

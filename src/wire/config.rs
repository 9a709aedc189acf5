//! `planforge.toml`: the project's validation settings, read from TOML.
//!
//! ```toml
//! [validate]
//! select = ["ALL"]            # codes, code prefixes, ALL, blocking, advisory, registry
//! ignore = ["oversized_phase"]
//! fail-on = "advisory"         # blocking (default) | advisory | never
//! ```
//!
//! Unknown tables and keys are refused (a misspelt `ignor` would otherwise
//! silently change nothing), with the line and column of the key.

use crate::model::config::{FailOn, ValidateConfig};
use crate::model::error::{Error, Location, Result};
use serde::Deserialize;
use std::path::Path;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    validate: Option<Validate>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Validate {
    select: Option<Vec<String>>,
    #[serde(default)]
    ignore: Vec<String>,
    fail_on: Option<String>,
}

/// Reads the text of the config file at `path`.
pub(crate) fn parse(text: &str, path: &Path) -> Result<ValidateConfig> {
    let shown = path.display().to_string();
    let file: File = toml::from_str(text).map_err(|e| {
        let (line, column) = match e.span() {
            Some(s) => line_column(text, s.start),
            None => (1, 1),
        };
        let message = e.message().trim().replace('\n', " ");
        Error::invalid(format!("{shown}:{line}:{column}: {message}"))
            .with_help("planforge.toml holds one table, [validate], with the keys select, ignore and fail-on")
            .at(Location {
                file: Some(shown.clone()),
                pointer: None,
                line: Some(line),
                column: Some(column),
            })
    })?;
    let Some(v) = file.validate else {
        return Ok(ValidateConfig {
            path: path.to_path_buf(),
            ..ValidateConfig::default()
        });
    };
    let fail_on = match v.fail_on.as_deref() {
        None => None,
        Some(s) => Some(FailOn::parse(s).ok_or_else(|| {
            Error::invalid(format!(
                "{shown}: fail-on = \"{}\" is not one of {}{}",
                crate::model::ids::quote_id(s),
                FailOn::NAMES.join(", "),
                crate::model::suggest::did_you_mean(s, FailOn::NAMES)
            ))
        })?),
    };
    Ok(ValidateConfig {
        path: path.to_path_buf(),
        select: v.select,
        ignore: v.ignore,
        fail_on,
    })
}

/// The 1-based line and column (in characters) of byte `at`.
fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |n| n + 1);
    (line, before[start..].chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> &'static Path {
        Path::new("planforge.toml")
    }

    #[test]
    fn reads_the_validate_table() {
        let c = parse(
            "[validate]\nselect = [\"ALL\"]\nignore = [\"oversized_phase\"]\nfail-on = \"advisory\"\n",
            p(),
        )
        .unwrap();
        assert_eq!(c.select, Some(vec!["ALL".to_string()]));
        assert_eq!(c.ignore, ["oversized_phase"]);
        assert_eq!(c.fail_on, Some(FailOn::Advisory));
        assert_eq!(parse("", p()).unwrap().select, None);
    }

    #[test]
    fn refuses_unknown_keys_and_values_with_their_place() {
        let e = parse("[validate]\nignor = [\"x\"]\n", p()).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(
            e.message.starts_with("planforge.toml:2:1: "),
            "{}",
            e.message
        );
        assert!(e.message.contains("ignor"), "{}", e.message);
        let e = parse("[validate]\nfail-on = \"advisry\"\n", p()).unwrap_err();
        assert!(
            e.message.contains("did you mean `advisory`"),
            "{}",
            e.message
        );
        let e = parse("[validate\n", p()).unwrap_err();
        assert!(e.message.starts_with("planforge.toml:1:"), "{}", e.message);
    }
}

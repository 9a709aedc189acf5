//! `--select` / `--ignore` and their `planforge.toml` keys, with ruff's
//! conventions: a selector is a code (`unknown_tool`), a code prefix that
//! ends at a `_` (`transform` selects every `transform_*` code), `ALL`,
//! a severity (`blocking`, `advisory`) or `registry` (the checks that need
//! a registry). Layers apply in order — the config file's, then the
//! command line's: a layer's `select` replaces the set chosen so far, its
//! `ignore` removes from it, and within a layer the more specific selector
//! wins (a code beats a prefix, a longer prefix a shorter one, both beat
//! the groups), `ignore` winning a tie.
//!
//! `invalid_document` is always reported: an input that could not be read
//! was not checked, whatever is selected (ruff reports syntax errors
//! whatever is selected, too).

use crate::check::{self, Check};
use crate::model::Severity;
use crate::model::error::{Error, Result};
use std::collections::HashSet;

/// One parsed selector.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Selector {
    All,
    Severity(Severity),
    Registry,
    /// A code, or a prefix of codes ending before a `_`.
    Prefix(String),
}

impl Selector {
    fn parse(s: &str, origin: &str) -> Result<Selector> {
        let t = s.trim();
        let sel = match t {
            "ALL" | "all" => Selector::All,
            "blocking" => Selector::Severity(Severity::Blocking),
            "advisory" => Selector::Severity(Severity::Advisory),
            "registry" => Selector::Registry,
            _ => Selector::Prefix(t.to_string()),
        };
        if let Selector::Prefix(p) = &sel
            && !check::CHECKS.iter().any(|c| sel.matches(*c))
        {
            let codes = check::CHECKS.iter().map(|c| c.code().name);
            return Err(Error::invalid(format!(
                "{origin}: `{}` selects no issue code{}",
                crate::model::ids::quote_id(p),
                crate::model::suggest::did_you_mean(p, codes)
            ))
            .with_help(
                "a selector is an issue code, a prefix of codes ending before an underscore (transform), ALL, blocking, advisory or registry; explain --all lists the codes",
            ));
        }
        Ok(sel)
    }

    fn matches(&self, c: &dyn Check) -> bool {
        let code = c.code();
        match self {
            Selector::All => true,
            Selector::Severity(s) => code.severity == *s,
            Selector::Registry => c.needs().registry,
            Selector::Prefix(p) => {
                code.name == p
                    || (code.name.starts_with(p.as_str())
                        && code.name.as_bytes().get(p.len()) == Some(&b'_'))
            }
        }
    }

    fn specificity(&self) -> usize {
        match self {
            Selector::All => 0,
            Selector::Severity(_) | Selector::Registry => 1,
            Selector::Prefix(p) => 2 + p.len(),
        }
    }
}

/// One source of selectors: the config file or the command line.
#[derive(Debug, Clone, Default)]
struct Layer {
    select: Option<Vec<Selector>>,
    ignore: Vec<Selector>,
}

/// The codes a validation reports.
#[derive(Debug, Clone)]
pub struct Selection {
    enabled: HashSet<&'static str>,
    /// Some code is left out.
    narrowed: bool,
}

impl Default for Selection {
    fn default() -> Selection {
        Selection::resolve(&[])
    }
}

/// The selectors one source gives: `select` (`None`: not given) and
/// `ignore`, with the name outputs give the source.
pub(crate) struct Given<'a> {
    pub(crate) origin: &'a str,
    pub(crate) select: Option<&'a [String]>,
    pub(crate) ignore: &'a [String],
}

/// Splits `a,b` items the way ruff's comma-separated flags do.
fn items(v: &[String]) -> impl Iterator<Item = &str> {
    v.iter()
        .flat_map(|s| s.split(','))
        .filter(|s| !s.trim().is_empty())
}

impl Selection {
    /// The selection the layers make, first to last; a selector that
    /// selects nothing is refused (exit 2).
    pub(crate) fn from_given(given: &[Given]) -> Result<Selection> {
        let mut layers = Vec::new();
        for g in given {
            let parse = |v: &[String]| -> Result<Vec<Selector>> {
                items(v).map(|s| Selector::parse(s, g.origin)).collect()
            };
            let select = g.select.map(parse).transpose()?;
            if select.as_ref().is_some_and(Vec::is_empty) {
                // `--select "$UNSET"` must not switch the validator off.
                return Err(Error::invalid(format!(
                    "{}: the selection is empty, so nothing would be checked; name codes (or ALL), or leave select out",
                    g.origin
                )));
            }
            layers.push(Layer {
                select,
                ignore: parse(g.ignore)?,
            });
        }
        Ok(Selection::resolve(&layers))
    }

    fn resolve(layers: &[Layer]) -> Selection {
        let mut enabled: HashSet<&'static str> = HashSet::new();
        for c in check::CHECKS {
            let mut on = true;
            for l in layers {
                on = l.decides(*c).unwrap_or(on);
            }
            if on || c.code().name == check::invalid_document::CODE.name {
                enabled.insert(c.code().name);
            }
        }
        let narrowed = enabled.len() < check::CHECKS.len();
        Selection { enabled, narrowed }
    }

    /// Whether findings of `code` are reported.
    pub(crate) fn reports(&self, code: &str) -> bool {
        self.enabled.contains(code)
    }

    /// Some code is not reported.
    pub(crate) fn is_narrowed(&self) -> bool {
        self.narrowed
    }

    /// How many codes are not reported.
    pub(crate) fn left_out(&self) -> usize {
        check::CHECKS.len() - self.enabled.len()
    }
}

impl Layer {
    /// What this layer says about `c`: on, off, or nothing (`None`).
    fn decides(&self, c: &dyn Check) -> Option<bool> {
        let best = |v: &[Selector]| {
            v.iter()
                .filter(|s| s.matches(c))
                .map(Selector::specificity)
                .max()
        };
        let ignored = best(&self.ignore);
        match &self.select {
            Some(sel) => match (best(sel), ignored) {
                (Some(s), Some(i)) => Some(s > i),
                (Some(_), None) => Some(true),
                // A select replaces what came before: unselected is off.
                (None, _) => Some(false),
            },
            None => ignored.map(|_| false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sel(layers: &[(Option<&[&str]>, &[&str])]) -> Result<Selection> {
        let owned: Vec<(Option<Vec<String>>, Vec<String>)> = layers
            .iter()
            .map(|(s, i)| {
                (
                    s.map(|s| s.iter().map(|x| x.to_string()).collect()),
                    i.iter().map(|x| x.to_string()).collect(),
                )
            })
            .collect();
        let given: Vec<Given> = owned
            .iter()
            .map(|(s, i)| Given {
                origin: "--select",
                select: s.as_deref(),
                ignore: i,
            })
            .collect();
        Selection::from_given(&given)
    }

    #[test]
    fn everything_by_default() {
        let s = Selection::default();
        assert!(!s.is_narrowed());
        assert!(s.reports("unknown_tool"));
    }

    #[test]
    fn codes_prefixes_and_groups() {
        let s = sel(&[(Some(&["transform"]), &[])]).unwrap();
        assert!(s.reports("transform_unknown_step"));
        assert!(!s.reports("unknown_tool"));
        // A prefix ends at an underscore: `transform_s` is no prefix.
        assert!(sel(&[(Some(&["transform_s"]), &[])]).is_err());
        let s = sel(&[(None, &["advisory"])]).unwrap();
        assert!(!s.reports("oversized_phase"));
        assert!(s.reports("cycle"));
        let s = sel(&[(None, &["registry"])]).unwrap();
        assert!(!s.reports("unknown_tool"));
        assert!(s.reports("cycle"));
        // Comma-separated, as ruff takes them.
        let s = sel(&[(Some(&["cycle,unknown_tool"]), &[])]).unwrap();
        assert!(s.reports("cycle") && s.reports("unknown_tool"));
        assert!(!s.reports("no_entry"));
    }

    #[test]
    fn the_more_specific_selector_wins_and_ignore_wins_ties() {
        let s = sel(&[(Some(&["transform_step_args"]), &["transform"])]).unwrap();
        assert!(s.reports("transform_step_args"));
        assert!(!s.reports("transform_unknown_step"));
        let s = sel(&[(Some(&["cycle"]), &["cycle"])]).unwrap();
        assert!(!s.reports("cycle"));
        let s = sel(&[(Some(&["ALL"]), &["blocking"])]).unwrap();
        assert!(!s.reports("cycle") && s.reports("oversized_phase"));
    }

    #[test]
    fn a_later_layer_replaces_or_narrows() {
        // The config ignores a code; the command line selects it again.
        let s = sel(&[(None, &["cycle"]), (Some(&["ALL"]), &[])]).unwrap();
        assert!(s.reports("cycle"));
        // The config selects a few; the command line ignores one of them.
        let s = sel(&[(Some(&["cycle", "no_entry"]), &[]), (None, &["cycle"])]).unwrap();
        assert!(!s.reports("cycle") && s.reports("no_entry") && !s.reports("unknown_tool"));
    }

    #[test]
    fn input_errors_are_always_reported_and_typos_refused() {
        let s = sel(&[(None, &["invalid_document", "blocking"])]).unwrap();
        assert!(s.reports("invalid_document"));
        assert!(sel(&[(Some(&[""]), &[])]).is_err());
        assert!(sel(&[(Some(&[]), &[])]).is_err());
        let e = sel(&[(None, &["unknwn_tool"])]).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(
            e.message.contains("did you mean `unknown_tool`"),
            "{}",
            e.message
        );
    }
}

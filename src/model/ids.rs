//! Identifier rules (SPEC §1.2, §1.4). Hand-written matchers: no regex engine.

/// A node's or an edge's id, or a phase name, as the model holds it: up to
/// 24 bytes (every id a plan commonly has) kept inline, without an
/// allocation of its own; a plan holds several per node and per edge.
pub type Id = compact_str::CompactString;

/// Node id: `^[a-z0-9_]{1,64}$`. No `/` or `.`, so it never reads as a path.
pub fn is_valid_node_id(s: &str) -> bool {
    (1..=64).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// Edge id: `^[A-Za-z0-9_-]{1,64}$`.
pub fn is_valid_edge_id(s: &str) -> bool {
    (1..=64).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Plan id: `^plan-[A-Za-z0-9_-]{1,64}$`. It is also a folder name: with this
/// alphabet it can never be `.`/`..` or contain a separator.
pub fn is_valid_plan_id(s: &str) -> bool {
    match s.strip_prefix("plan-") {
        Some(rest) => is_valid_edge_id(rest),
        None => false,
    }
}

/// Template id: `^[a-z0-9][a-z0-9_-]{0,63}$` (it is also a file name).
pub fn is_valid_template_id(s: &str) -> bool {
    let b = s.as_bytes();
    (1..=64).contains(&b.len())
        && (b[0].is_ascii_lowercase() || b[0].is_ascii_digit())
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'_' || *c == b'-')
}

/// Actor: `^[A-Za-z0-9_.@-]{1,64}$`.
pub fn is_valid_actor(s: &str) -> bool {
    (1..=64).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'@' | b'-'))
}

/// The reserved phase label of the outline entry for unphased nodes.
pub const UNPHASED: &str = "(unphased)";

/// Why a phase name is not allowed, if it is not: 1–64 characters, no control
/// characters, no leading or trailing whitespace, not `(unphased)`.
pub fn phase_problem(s: &str) -> Option<&'static str> {
    let chars = s.chars().count();
    if chars == 0 {
        Some("it is empty (leave the phase out, or clear it, to make the node unphased)")
    } else if chars > 64 {
        Some("it is longer than 64 characters")
    } else if s.chars().any(is_line_control) {
        Some("it contains a control character or a line separator")
    } else if s.chars().any(is_bidi_control) {
        Some(
            "it contains a bidirectional control character, which makes it display differently from what it is",
        )
    } else if s.starts_with(|c: char| c.is_whitespace() || is_invisible(c))
        || s.ends_with(|c: char| c.is_whitespace() || is_invisible(c))
    {
        Some("it starts or ends with whitespace or an invisible character")
    } else if s == UNPHASED {
        Some("`(unphased)` is reserved for the outline entry of nodes without a phase")
    } else {
        None
    }
}

/// The longest plan label, in characters.
pub const MAX_LABEL_CHARS: usize = 200;

/// Why a plan label is not allowed, if it is not: one line of at most
/// [`MAX_LABEL_CHARS`] characters, without control, line-separator or
/// bidirectional characters (it is printed in lists and headers).
pub fn label_problem(s: &str) -> Option<String> {
    let chars = s.chars().count();
    if chars > MAX_LABEL_CHARS {
        Some(format!(
            "it is {chars} characters long, more than the {MAX_LABEL_CHARS} a label may have (a label is a one-line title; keep long text in the plan itself, or use `author`, which keeps a request whole)"
        ))
    } else if s.chars().any(is_line_control) {
        Some("it contains a control character or a line break; a label is one line".into())
    } else if s.chars().any(is_bidi_control) {
        Some("it contains a bidirectional control character, which makes it display differently from what it is".into())
    } else {
        None
    }
}

/// A display-safe rendering of an id that failed its rule: control and bidi
/// characters are escaped, and long ids are cut, so a hostile id cannot mangle
/// the terminal or a message.
pub fn quote_id(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i >= 80 {
            out.push('…');
            break;
        }
        if is_line_control(c) || is_bidi_control(c) {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    out
}

/// `s` with control, line-separator and bidirectional characters escaped
/// (`\u{a}`), uncut: for names from a plan printed inside a line of prose,
/// where a raw newline would forge a line of its own.
pub fn escape_controls(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(|c| is_line_control(c) || is_bidi_control(c)) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_line_control(c) || is_bidi_control(c) {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Zero-width characters: invisible where a phase name starts or ends.
pub fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}')
}

/// Control characters, and the Unicode line and paragraph separators (U+2028,
/// U+2029), which break a line where no newline is seen: never allowed in a
/// label a line is built around.
pub fn is_line_control(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// Characters that reorder how text displays (Trojan Source).
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_one_short_line() {
        assert_eq!(label_problem("Weekly report: Lisbon, \"Q3\""), None);
        assert_eq!(label_problem(&"é".repeat(MAX_LABEL_CHARS)), None);
        for bad in [
            "x".repeat(MAX_LABEL_CHARS + 1),
            "two\nlines".into(),
            "a\u{2028}b".into(),
            "a\u{202e}b".into(),
        ] {
            assert!(label_problem(&bad).is_some(), "{bad:?}");
        }
    }

    #[test]
    fn names_in_prose_escape_controls_without_cutting() {
        assert_eq!(escape_controls("tickets_get"), "tickets_get");
        assert_eq!(escape_controls("a\nb\u{202e}"), "a\\u{a}b\\u{202e}");
        assert_eq!(escape_controls(&"x".repeat(300)).len(), 300);
    }

    #[test]
    fn line_separators_are_not_allowed_in_phases_and_are_escaped_in_ids() {
        assert!(phase_problem("intake\u{2028}review").is_some());
        assert!(phase_problem("intake\u{2029}review").is_some());
        assert_eq!(quote_id("a\u{2028}b"), "a\\u{2028}b");
    }

    #[test]
    fn node_ids() {
        for ok in ["fetch_1", "1abc", "a", &"x".repeat(64)] {
            assert!(is_valid_node_id(ok), "{ok}");
        }
        for bad in ["Fetch/Data", ".x", "a-b", "", "A", "a.b", &"x".repeat(65)] {
            assert!(!is_valid_node_id(bad), "{bad}");
        }
    }

    #[test]
    fn plan_ids_cannot_escape() {
        assert!(is_valid_plan_id("plan-a_b-C9"));
        for bad in [
            "../evil",
            "plan-a/../../x",
            "plan-",
            "plan-..",
            "plan-a/b",
            "x",
            "plan-\u{0}",
        ] {
            assert!(!is_valid_plan_id(bad), "{bad}");
        }
    }

    #[test]
    fn phases() {
        assert!(phase_problem("gather").is_none());
        assert!(phase_problem("").is_some());
        assert!(phase_problem(" x").is_some());
        assert!(phase_problem("a\tb").is_some());
        assert!(phase_problem("(unphased)").is_some());
        assert!(phase_problem("ab\u{202e}cd").is_some());
        assert!(phase_problem("\u{2067}x").is_some());
        assert!(phase_problem("\u{200b}").is_some());
        assert!(phase_problem("x\u{feff}").is_some());
        assert!(
            phase_problem("a\u{200d}b").is_none(),
            "joiners inside are text"
        );
        assert!(phase_problem(&"é".repeat(64)).is_none());
        assert!(phase_problem(&"é".repeat(65)).is_some());
    }

    #[test]
    fn quoting_escapes_controls() {
        assert_eq!(quote_id("a\u{202E}b"), "a\\u{202e}b");
        assert!(quote_id(&"x".repeat(500)).ends_with('…'));
    }
}

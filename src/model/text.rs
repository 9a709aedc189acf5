//! Cutting text at a byte budget.

/// The largest char boundary of `s` at or below `i` (for cutting text at
/// a byte budget without splitting a character).
pub fn floor_char_boundary(s: &str, i: usize) -> usize {
    let mut end = i.min(s.len());
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    end
}

/// Cuts text to at most `max` bytes on a char boundary, marking the cut.
pub fn cut(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    format!("{}…", &s[..floor_char_boundary(s, max)])
}

/// `6054` → `6,054`.
pub fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The most bytes a name quoted in prose (between backticks) keeps; longer
/// ones end in `…`. Every id the plan format allows is shorter.
pub const NAME: usize = 120;

/// Prose with every name quoted in it (between backticks) longer than
/// [`NAME`] bytes cut to it: a tool, key or label of any length taken from
/// a plan stays a few words in a message or a fix's condition, whatever
/// budget it is read in. The names stay whole in the data beside the prose
/// (the pointer, the fix's fields).
pub fn cut_names(s: String) -> String {
    if s.len() <= NAME + 2 {
        return s;
    }
    let mut spans = s.split('`');
    // Even pieces are prose, odd pieces are names (a lone backtick leaves the
    // rest as one name, cut like any other).
    if !spans.clone().skip(1).step_by(2).any(|n| n.len() > NAME) {
        return s;
    }
    let mut out = String::with_capacity(s.len().min(4 * NAME));
    for (k, piece) in spans.by_ref().enumerate() {
        if k > 0 {
            out.push('`');
        }
        if k % 2 == 1 {
            out.push_str(&cut(piece, NAME));
        } else {
            out.push_str(piece);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_in_prose_are_cut_and_the_prose_kept() {
        let tool = "t".repeat(30_000);
        let s = cut_names(format!(
            "call `c1` invokes the tool `{tool}`, which is unknown"
        ));
        let short = format!("`{}…`", "t".repeat(NAME));
        assert_eq!(
            s,
            format!("call `c1` invokes the tool {short}, which is unknown")
        );
        // A name of exactly NAME bytes and prose of any length stay whole.
        let name = "n".repeat(NAME);
        let prose = "word ".repeat(100);
        let s = format!("`{name}` {prose}");
        assert_eq!(cut_names(s.clone()), s);
        // A lone backtick: the rest is one name.
        let s = cut_names(format!("x `{tool}"));
        assert_eq!(s, format!("x `{}…", "t".repeat(NAME)));
        // Cut on a char boundary.
        let s = cut_names(format!("`{}`", "é".repeat(100)));
        assert!(s.ends_with("…`") && s.len() <= NAME + 2 + 3);
    }
}

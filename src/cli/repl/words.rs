//! Splitting a REPL line into words the way a POSIX shell would, so a line
//! typed in the REPL means what it means after `planforge` in a shell:
//! whitespace separates words, single quotes keep everything literally,
//! double quotes keep everything but `\"`, `\\`, `\$` and `` \` ``, a
//! backslash outside quotes takes the next character literally, and `#` at the
//! start of a word comments out the rest of the line. No expansion of any kind
//! happens (no variables, globs or `~`).

use std::fmt;

/// Why a line is not a complete command yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Incomplete {
    /// A quote (`'` or `"`) is still open.
    Quote(char),
    /// The line ends with a backslash: it continues on the next line.
    Continuation,
}

impl fmt::Display for Incomplete {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Incomplete::Quote(q) => write!(f, "the quote {q} is not closed"),
            Incomplete::Continuation => {
                f.write_str("the line ends with a backslash (a continuation)")
            }
        }
    }
}

/// One word of a line: its text after quote removal and where it sits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Word {
    pub(crate) text: String,
    /// Byte offset of the word's first character (an opening quote counts).
    pub(crate) start: usize,
}

/// A line split as far as it goes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Split {
    pub(crate) words: Vec<Word>,
    /// Set when the line stops inside a quote or after a trailing backslash.
    pub(crate) incomplete: Option<Incomplete>,
    /// Whether the last word runs to the end of the line (no whitespace and
    /// no comment after it): the word a completion would extend.
    pub(crate) open_word: bool,
    /// Whether the line ends inside a `#` comment.
    pub(crate) in_comment: bool,
}

/// Splits a whole line; an unclosed quote or a trailing backslash is an error.
pub(crate) fn split(line: &str) -> Result<Vec<String>, Incomplete> {
    let s = split_partial(line);
    match s.incomplete {
        Some(why) => Err(why),
        None => Ok(s.words.into_iter().map(|w| w.text).collect()),
    }
}

/// Splits a line that may be cut short (for completion and validation).
pub(crate) fn split_partial(line: &str) -> Split {
    let mut out = Split::default();
    let mut cur: Option<Word> = None;
    let mut quote: Option<char> = None;
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match quote {
            Some('\'') => {
                if c == '\'' {
                    quote = None;
                } else {
                    push(&mut cur, i, c);
                }
            }
            Some(_) => match c {
                '"' => quote = None,
                '\\' => match chars.peek().copied() {
                    Some((_, n @ ('"' | '\\' | '$' | '`'))) => {
                        chars.next();
                        push(&mut cur, i, n);
                    }
                    Some((_, '\n')) => {
                        chars.next();
                    }
                    Some(_) => push(&mut cur, i, '\\'),
                    None => {
                        out.incomplete = Some(Incomplete::Quote('"'));
                        break;
                    }
                },
                _ => push(&mut cur, i, c),
            },
            None => match c {
                c if c.is_whitespace() => {
                    if let Some(w) = cur.take() {
                        out.words.push(w);
                    }
                }
                '#' if cur.is_none() => {
                    out.in_comment = true;
                    break;
                }
                '\'' | '"' => {
                    start(&mut cur, i);
                    quote = Some(c);
                }
                '\\' => match chars.next() {
                    Some((_, '\n')) => {}
                    Some((_, n)) => push(&mut cur, i, n),
                    None => {
                        start(&mut cur, i);
                        out.incomplete = Some(Incomplete::Continuation);
                    }
                },
                _ => push(&mut cur, i, c),
            },
        }
    }
    if let Some(q) = quote {
        out.incomplete = Some(Incomplete::Quote(q));
    }
    if let Some(w) = cur.take() {
        out.open_word = !out.in_comment;
        out.words.push(w);
    }
    out
}

fn start(cur: &mut Option<Word>, at: usize) {
    if cur.is_none() {
        *cur = Some(Word {
            text: String::new(),
            start: at,
        });
    }
}

fn push(cur: &mut Option<Word>, at: usize, c: char) {
    start(cur, at);
    if let Some(w) = cur {
        w.text.push(c);
    }
}

/// Quotes a word for a REPL line when it needs it (`'…'`, with inner single
/// quotes written `'\''`). Parentheses need no quotes here (no subshells), so
/// `(unphased)` stays as the outline prints it.
pub(crate) fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word.chars().all(|c| {
            c.is_alphanumeric()
                || matches!(
                    c,
                    '-' | '_'
                        | '.'
                        | '/'
                        | '@'
                        | ':'
                        | ','
                        | '+'
                        | '='
                        | '%'
                        | '['
                        | ']'
                        | '('
                        | ')'
                )
        });
    if plain && !word.starts_with('#') {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        split(line).unwrap()
    }

    #[test]
    fn whitespace_separates_and_quotes_group() {
        assert_eq!(words("  connect a   b "), ["connect", "a", "b"]);
        assert_eq!(
            words(r#"set n args.x '{"a": "b c"}'"#),
            ["set", "n", "args.x", r#"{"a": "b c"}"#]
        );
        assert_eq!(
            words(r#"phase n "Phase \"One\" \n""#),
            ["phase", "n", r#"Phase "One" \n"#]
        );
        assert_eq!(words(r"a\ b c\'d"), ["a b", "c'd"]);
        assert_eq!(words("x '' y"), ["x", "", "y"]);
        assert_eq!(words("pre'mid'post"), ["premidpost"]);
    }

    #[test]
    fn comments_start_at_a_word() {
        assert_eq!(words("status # the rest"), ["status"]);
        assert_eq!(words("# all of it"), Vec::<String>::new());
        assert_eq!(words("set n x a#b"), ["set", "n", "x", "a#b"]);
        assert_eq!(words("set n x '#b'"), ["set", "n", "x", "#b"]);
    }

    #[test]
    fn unclosed_quotes_and_trailing_backslashes_are_incomplete() {
        assert_eq!(split("set n x 'abc"), Err(Incomplete::Quote('\'')));
        assert_eq!(split("set n x \"abc"), Err(Incomplete::Quote('"')));
        assert_eq!(split("add-node x \\"), Err(Incomplete::Continuation));
        assert_eq!(
            words("add-node x \\\n --kind join"),
            ["add-node", "x", "--kind", "join"]
        );
        assert_eq!(words("set n x 'a\nb'"), ["set", "n", "x", "a\nb"]);
    }

    #[test]
    fn partial_lines_report_the_open_word() {
        let s = split_partial("read fir");
        assert!(s.open_word);
        assert_eq!(s.words.last().unwrap().start, 5);
        let s = split_partial("read ");
        assert!(!s.open_word);
        let s = split_partial("phase n 'Phase O");
        assert!(s.open_word);
        assert_eq!(s.words.last().unwrap().text, "Phase O");
        assert_eq!(s.words.last().unwrap().start, 8);
        assert!(split_partial("status # x").in_comment);
    }

    #[test]
    fn quote_round_trips() {
        for w in ["plain", "two words", "it's", "", "#x", "a\"b", "@n.path"] {
            assert_eq!(words(&quote(w)), [w]);
        }
        assert_eq!(quote("first_step"), "first_step");
        assert_eq!(quote("Phase One"), "'Phase One'");
    }
}

//! JSON spans: a small scanner of our own builds the span tree of a JSON
//! document.

use super::tree::{Kind, Span, Tree};

/// Deeper than the parser accepts, so any document it read fits.
const MAX_SCAN_DEPTH: usize = 512;

struct Scanner<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
    depth: usize,
}

pub(super) fn json_tree(text: &str) -> Option<Tree> {
    let mut s = Scanner {
        text,
        b: text.as_bytes(),
        i: 0,
        depth: 0,
    };
    if text.starts_with('\u{feff}') {
        s.i = 3;
    }
    let t = s.value()?;
    s.ws();
    (s.i == s.b.len()).then_some(t)
}

/// The JSON string starting at `at` in `text`, decoded as the scanner
/// decodes keys.
pub(super) fn decode_string(text: &str, at: usize) -> Option<String> {
    Scanner {
        text,
        b: text.as_bytes(),
        i: at,
        depth: 0,
    }
    .string()
}

impl Scanner<'_> {
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        self.ws();
        (self.b.get(self.i) == Some(&c)).then(|| self.i += 1)
    }

    fn value(&mut self) -> Option<Tree> {
        self.ws();
        let start = self.i;
        match *self.b.get(self.i)? {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' => {
                self.string()?;
                Some(Tree {
                    span: Span { start, end: self.i },
                    kind: Kind::Scalar,
                })
            }
            _ => {
                while let Some(&c) = self.b.get(self.i) {
                    if matches!(c, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r') {
                        break;
                    }
                    self.i += 1;
                }
                (self.i > start).then_some(Tree {
                    span: Span { start, end: self.i },
                    kind: Kind::Scalar,
                })
            }
        }
    }

    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_SCAN_DEPTH).then_some(())
    }

    fn object(&mut self) -> Option<Tree> {
        self.enter()?;
        let start = self.i;
        self.i += 1;
        let mut members = Vec::new();
        self.ws();
        if self.b.get(self.i) == Some(&b'}') {
            self.i += 1;
        } else {
            loop {
                self.ws();
                let key_start = self.i;
                let key = self.string()?;
                let key_span = Span {
                    start: key_start,
                    end: self.i,
                };
                self.eat(b':')?;
                let v = self.value()?;
                members.push((key, key_span, v));
                self.ws();
                match *self.b.get(self.i)? {
                    b',' => self.i += 1,
                    b'}' => {
                        self.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(Tree {
            span: Span { start, end: self.i },
            kind: Kind::Object(members),
        })
    }

    fn array(&mut self) -> Option<Tree> {
        self.enter()?;
        let start = self.i;
        self.i += 1;
        let mut items = Vec::new();
        self.ws();
        if self.b.get(self.i) == Some(&b']') {
            self.i += 1;
        } else {
            loop {
                items.push(self.value()?);
                self.ws();
                match *self.b.get(self.i)? {
                    b',' => self.i += 1,
                    b']' => {
                        self.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(Tree {
            span: Span { start, end: self.i },
            kind: Kind::Array(items),
        })
    }

    /// A string token at the cursor, decoded; the cursor ends after it.
    fn string(&mut self) -> Option<String> {
        if self.b.get(self.i) != Some(&b'"') {
            return None;
        }
        self.i += 1;
        let mut out = String::new();
        let mut run = self.i;
        loop {
            match *self.b.get(self.i)? {
                b'"' => {
                    out.push_str(self.text.get(run..self.i)?);
                    self.i += 1;
                    return Some(out);
                }
                b'\\' => {
                    out.push_str(self.text.get(run..self.i)?);
                    self.i += 1;
                    let c = *self.b.get(self.i)?;
                    self.i += 1;
                    match c {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let ch = if (0xD800..0xDC00).contains(&hi)
                                && self.b.get(self.i..self.i + 2) == Some(b"\\u")
                            {
                                self.i += 2;
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    let cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                                    char::from_u32(cp).unwrap_or('\u{fffd}')
                                } else {
                                    // A lone high surrogate, then another escape.
                                    out.push('\u{fffd}');
                                    char::from_u32(lo).unwrap_or('\u{fffd}')
                                }
                            } else {
                                char::from_u32(hi).unwrap_or('\u{fffd}')
                            };
                            out.push(ch);
                        }
                        _ => return None,
                    }
                    run = self.i;
                }
                _ => self.i += 1,
            }
        }
    }

    fn hex4(&mut self) -> Option<u32> {
        let s = self.text.get(self.i..self.i + 4)?;
        self.i += 4;
        u32::from_str_radix(s, 16).ok()
    }
}

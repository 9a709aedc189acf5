//! Byte offsets ⇄ LSP positions (lines from 0, characters counted in the
//! position encoding agreed at `initialize`: UTF-8 bytes, UTF-16 code
//! units — the protocol's default — or code points), and file URIs ⇄ paths.

use crate::forge::editor::Span;
use lsp_types::{Position, Range};
use std::path::PathBuf;

/// How characters are counted in positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encoding {
    Utf8,
    Utf16,
    Utf32,
}

/// A text's line starts, for conversions both ways.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lines {
    starts: Vec<usize>,
    /// Whether each line is ASCII (its characters are then its bytes).
    ascii: Vec<bool>,
    len: usize,
}

impl Lines {
    pub(crate) fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        let mut ascii = Vec::new();
        let mut all = true;
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                ascii.push(all);
                all = true;
                starts.push(i + 1);
            } else if b >= 0x80 {
                all = false;
            }
        }
        ascii.push(all);
        Lines {
            starts,
            ascii,
            len: text.len(),
        }
    }

    /// The lines of `text`, which is the text these are of with the bytes
    /// `start..end` replaced by `len` bytes: the lines before the change
    /// are kept, those after it moved, and only the lines it touches are
    /// read (a keystroke in a large document costs its line, not the text).
    pub(crate) fn edited(&self, text: &str, start: usize, end: usize, len: usize) -> Lines {
        let first = self.starts.partition_point(|&s| s <= start) - 1;
        let last = self.starts.partition_point(|&s| s <= end) - 1;
        let shift = |s: usize| s - end + start + len;
        // The lines after the change start where they did, moved.
        let tail = last + 1 < self.starts.len();
        let to = if tail {
            shift(self.starts[last + 1])
        } else {
            text.len()
        };
        let mut starts = Vec::with_capacity(self.starts.len() + 1);
        starts.extend_from_slice(&self.starts[..=first]);
        let mut ascii = Vec::with_capacity(self.ascii.len() + 1);
        ascii.extend_from_slice(&self.ascii[..first]);
        let from = self.starts[first];
        let mut all = true;
        for (i, b) in text.as_bytes()[from..to].iter().enumerate() {
            if *b == b'\n' {
                ascii.push(all);
                all = true;
                starts.push(from + i + 1);
            } else if *b >= 0x80 {
                all = false;
            }
        }
        if tail {
            // The read ended at the newline before the next line, whose
            // start it pushed.
            starts.extend(self.starts[last + 2..].iter().map(|&s| shift(s)));
            ascii.extend_from_slice(&self.ascii[last + 1..]);
        } else {
            ascii.push(all);
        }
        Lines {
            starts,
            ascii,
            len: text.len(),
        }
    }

    /// The position of a byte offset (clamped to the text).
    pub(crate) fn position(&self, text: &str, offset: usize, enc: Encoding) -> Position {
        let offset = offset.min(self.len);
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.starts[line];
        let character = if self.ascii[line] || enc == Encoding::Utf8 {
            offset - start
        } else {
            let mut s = offset;
            while !text.is_char_boundary(s) {
                s -= 1;
            }
            let part = &text[start..s];
            match enc {
                Encoding::Utf16 => part.encode_utf16().count(),
                _ => part.chars().count(),
            }
        };
        Position {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            character: u32::try_from(character).unwrap_or(u32::MAX),
        }
    }

    /// The byte offset of a position: clamped to its line's end, and to the
    /// text's end past the last line.
    pub(crate) fn offset(&self, text: &str, p: Position, enc: Encoding) -> usize {
        let Some(&start) = self.starts.get(p.line as usize) else {
            return self.len;
        };
        let end = self
            .starts
            .get(p.line as usize + 1)
            .map_or(self.len, |n| n - 1);
        let line = &text[start..end];
        let want = p.character as usize;
        if self.ascii[p.line as usize] || enc == Encoding::Utf8 {
            let mut at = want.min(line.len());
            while !line.is_char_boundary(at) {
                at -= 1;
            }
            return start + at;
        }
        let mut units = 0;
        for (i, c) in line.char_indices() {
            if units >= want {
                return start + i;
            }
            units += match enc {
                Encoding::Utf16 => c.len_utf16(),
                _ => 1,
            };
        }
        end
    }

    pub(crate) fn range(&self, text: &str, s: Span, enc: Encoding) -> Range {
        Range {
            start: self.position(text, s.start, enc),
            end: self.position(text, s.end, enc),
        }
    }
}

/// The path of a `file:` URI, percent-decoded; `None` for other schemes.
pub(crate) fn path_of(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file:///x` (no host) or `file://localhost/x`.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    let mut bytes = Vec::with_capacity(rest.len());
    let b = rest.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(v) = rest
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            bytes.push(v);
            i += 3;
            continue;
        }
        bytes.push(b[i]);
        i += 1;
    }
    let s = String::from_utf8(bytes).ok()?;
    Some(PathBuf::from(s))
}

/// The `file:` URI of an absolute path, percent-encoded as [`path_of`]
/// decodes it.
pub(crate) fn uri_of(path: &std::path::Path) -> Option<lsp_types::Uri> {
    let path = std::path::absolute(path).ok()?;
    let mut s = String::from("file://");
    for &b in path.to_str()?.as_bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    std::str::FromStr::from_str(&s).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_edited_are_the_lines_of_the_text_edited() {
        let text = "{\n  \"é𝄞\": \"x\",\n  \"b\": 1\n}\n";
        let edits: [(usize, usize, &str); 9] = [
            (0, 0, "x"),
            (0, 1, ""),
            (3, 3, "\n\n"),
            (2, 20, "é"),
            (2, 20, "a\nb"),
            (text.len(), text.len(), "\nz"),
            (text.len() - 1, text.len(), ""),
            (0, text.len(), "one line"),
            (4, 4, "ü"),
        ];
        for (start, end, with) in edits {
            let mut after = text.to_string();
            after.replace_range(start..end, with);
            let got = Lines::new(text).edited(&after, start, end, with.len());
            assert_eq!(got, Lines::new(&after), "{start}..{end} -> {with:?}");
        }
    }

    #[test]
    fn positions_count_in_the_agreed_encoding_both_ways() {
        let text = "{\n  \"é𝄞\": \"x\"\n}";
        let l = Lines::new(text);
        let x = text.find('x').unwrap();
        for (enc, ch) in [
            (Encoding::Utf8, 13),
            (Encoding::Utf16, 10),
            (Encoding::Utf32, 9),
        ] {
            let p = l.position(text, x, enc);
            assert_eq!((p.line, p.character), (1, ch), "{enc:?}");
            assert_eq!(l.offset(text, p, enc), x, "{enc:?}");
        }
        // Past a line's end: its end; past the last line: the text's end.
        assert_eq!(l.offset(text, Position::new(0, 99), Encoding::Utf16), 1);
        assert_eq!(
            l.offset(text, Position::new(9, 0), Encoding::Utf16),
            text.len()
        );
    }

    #[test]
    fn file_uris_are_paths() {
        assert_eq!(
            path_of("file:///tmp/a%20b/p.json"),
            Some(PathBuf::from("/tmp/a b/p.json"))
        );
        assert_eq!(path_of("untitled:Untitled-1"), None);
        let uri = uri_of(std::path::Path::new("/tmp/a b/é.toml")).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%A9.toml");
        assert_eq!(
            path_of(uri.as_str()),
            Some(PathBuf::from("/tmp/a b/é.toml"))
        );
    }
}

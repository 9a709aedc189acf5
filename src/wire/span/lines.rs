//! Byte offsets ⇄ 1-based lines and columns (columns count Unicode scalar
//! values).

/// A 1-based line and column (columns count Unicode scalar values).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Position {
    pub(crate) line: usize,
    pub(crate) column: usize,
}

/// Byte offsets of line starts, for offset → position.
#[derive(Debug)]
pub(super) struct Lines {
    pub(super) starts: Vec<usize>,
    /// Characters before every [`SAMPLE`]-th byte (at a char boundary at or
    /// before it), so a column is counted from the nearest sample rather than
    /// from the start of a line that may be the whole document. Empty for
    /// ASCII text, where characters are bytes.
    samples: Vec<(usize, usize)>,
}

/// Bytes between character-count samples.
const SAMPLE: usize = 256;

impl Lines {
    pub(super) fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        let mut samples = Vec::new();
        if !text.is_ascii() {
            let mut at = 0;
            for (chars, (i, _)) in text.char_indices().enumerate() {
                if i >= at {
                    samples.push((i, chars));
                    at = i + SAMPLE;
                }
            }
        }
        Lines { starts, samples }
    }

    /// Characters before byte `offset` (a char boundary).
    fn chars_before(&self, text: &str, offset: usize) -> usize {
        if self.samples.is_empty() {
            return offset;
        }
        let k = match self.samples.binary_search_by(|(b, _)| b.cmp(&offset)) {
            Ok(k) => k,
            Err(k) => k - 1,
        };
        let (b, c) = self.samples[k];
        c + text[b..offset].chars().count()
    }

    pub(super) fn position(&self, text: &str, offset: usize) -> Position {
        let offset = crate::model::text::floor_char_boundary(text, offset.min(text.len()));
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.starts[line];
        let mut column = self.chars_before(text, offset) - self.chars_before(text, start) + 1;
        // A byte-order mark is not a character of the line: columns on the
        // first line are the same with or without one.
        if line == 0 && offset > 0 && text.starts_with('\u{feff}') {
            column -= 1;
        }
        Position {
            line: line + 1,
            column,
        }
    }
}

/// The 1-based position of a byte offset.
#[cfg(test)]
pub(crate) fn position(text: &str, offset: usize) -> Position {
    Lines::new(text).position(text, offset)
}

/// The byte offset of a 1-based line and column (columns in characters),
/// clamped to the line's end; `None` past the last line.
pub(crate) fn offset(text: &str, line: usize, column: usize) -> Option<usize> {
    if line == 0 {
        return None;
    }
    let lines = Lines::new(text);
    let mut start = *lines.starts.get(line - 1)?;
    // Columns on the first line do not count a byte-order mark.
    if line == 1 && text.starts_with('\u{feff}') {
        start += '\u{feff}'.len_utf8();
    }
    let rest = &text[start..];
    let line_len = rest.find('\n').unwrap_or(rest.len());
    let at = rest[..line_len]
        .char_indices()
        .nth(column.saturating_sub(1))
        .map(|(i, _)| i)
        .unwrap_or(line_len);
    Some(start + at)
}

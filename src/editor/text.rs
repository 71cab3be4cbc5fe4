//! Places in a document as the protocol counts them: lines, and columns in UTF-16 code
//! units, the protocol's default; byte offsets inside the library.

use lsp_types::{Position, Range};

/// Where each line of a text starts.
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    pub fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { starts }
    }

    /// The position of a byte offset (clamped to the text, and back to a character).
    pub fn position(&self, text: &str, at: usize) -> Position {
        let mut at = at.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= at) - 1;
        let column: usize = text[self.starts[line]..at].encode_utf16().count();
        Position::new(line as u32, column as u32)
    }

    pub fn range(&self, text: &str, start: usize, end: usize) -> Range {
        Range::new(self.position(text, start), self.position(text, end))
    }

    /// The byte offset of a position; a line or column past the end is the end of the
    /// text or of its line, as the protocol asks.
    pub fn offset(&self, text: &str, p: Position) -> usize {
        let Some(&start) = self.starts.get(p.line as usize) else {
            return text.len();
        };
        let end = self
            .starts
            .get(p.line as usize + 1)
            .map_or(text.len(), |&e| e - 1);
        let mut units = 0;
        for (i, c) in text[start..end].char_indices() {
            if units >= p.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units_and_round_trip() {
        // `é` is one unit and two bytes; `𝄞` two units and four bytes.
        let text = "ab\né𝄞x\n\nlast";
        let lines = Lines::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(lines.position(text, x), Position::new(1, 3));
        assert_eq!(lines.offset(text, Position::new(1, 3)), x);
        assert_eq!(
            lines.offset(text, Position::new(1, 99)),
            text.find("x\n").unwrap() + 1
        );
        assert_eq!(lines.offset(text, Position::new(9, 0)), text.len());
        assert_eq!(lines.position(text, text.len()), Position::new(3, 4));
        // Inside a character: back to its start.
        assert_eq!(lines.position(text, x - 1), Position::new(1, 1));
    }
}

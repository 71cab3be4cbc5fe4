//! Lines read from the other end of a pipe, bounded: a line longer than [`MAX_LINE`]
//! is read on and dropped, never held, so no input makes the reader hold more.

use std::io::{BufRead, ErrorKind};

/// The longest line kept, in bytes, its end not counted.
pub const MAX_LINE: usize = 64 * 1024;

/// One line read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// Its text without the line end; bytes that are not UTF-8 read as U+FFFD.
    Text(String),
    /// Longer than [`MAX_LINE`]: read to its end and dropped.
    TooLong,
}

/// The lines of `input` until its end or a read error; a last line without its end
/// counts.
pub fn lines(mut input: impl BufRead) -> impl Iterator<Item = Line> {
    let mut buf = Vec::new();
    std::iter::from_fn(move || read_line(&mut input, &mut buf))
}

fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> Option<Line> {
    buf.clear();
    let mut too_long = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        let (part, used, ended) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None if chunk.is_empty() => {
                return match too_long {
                    true => Some(Line::TooLong),
                    false => (!buf.is_empty()).then(|| text(buf)),
                };
            }
            None => (chunk, chunk.len(), false),
        };
        if !too_long && buf.len() + part.len() > MAX_LINE {
            too_long = true;
            buf.clear();
        }
        if !too_long {
            buf.extend_from_slice(part);
        }
        input.consume(used);
        if ended {
            return Some(match too_long {
                true => Line::TooLong,
                false => text(buf),
            });
        }
    }
}

fn text(buf: &[u8]) -> Line {
    Line::Text(
        String::from_utf8_lossy(buf)
            .trim_end_matches('\r')
            .to_string(),
    )
}

/// `text` as far as its 40th character, `…` marking a cut: input echoed back.
pub fn shorten(text: &str) -> String {
    const SHOWN: usize = 40;
    match text.char_indices().nth(SHOWN) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

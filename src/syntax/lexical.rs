//! The file read as a lexer would: quoted text, comments, and the words and marks of
//! the code between them, with the brace depth of each byte. The layout and the
//! editors' highlighting read it; the grammar alone decides what the words mean.

use super::Span;

/// What a byte of the file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Code,
    Quoted,
    Comment,
}

/// Each byte's class, and the brace depth before it.
pub struct Scan {
    pub class: Vec<Class>,
    pub depth: Vec<i32>,
}

pub fn scan(text: &str) -> Scan {
    let b = text.as_bytes();
    let mut class = vec![Class::Code; b.len() + 1];
    let mut depth = vec![0; b.len() + 1];
    let (mut i, mut d) = (0, 0);
    while i < b.len() {
        depth[i] = d;
        if b[i..].starts_with(b"\"\"\"") {
            let end = text[i + 3..]
                .find("\"\"\"")
                .map_or(b.len(), |e| i + 3 + e + 3);
            mark(&mut class, &mut depth, i..end, Class::Quoted, d);
            i = end;
        } else if b[i] == b'"' {
            let close = text[i + 1..]
                .find(['"', '\n'])
                .map_or(b.len(), |e| i + 1 + e);
            let end = (close + 1).min(b.len());
            mark(&mut class, &mut depth, i..end, Class::Quoted, d);
            i = end;
        } else if b[i] == b'#' {
            let end = text[i..].find('\n').map_or(b.len(), |e| i + e);
            mark(&mut class, &mut depth, i..end, Class::Comment, d);
            i = end;
        } else {
            match b[i] {
                b'{' => d += 1,
                b'}' => d -= 1,
                _ => {}
            }
            i += 1;
        }
    }
    depth[b.len()] = d;
    Scan { class, depth }
}

fn mark(class: &mut [Class], depth: &mut [i32], r: std::ops::Range<usize>, c: Class, d: i32) {
    for i in r {
        class[i] = c;
        depth[i] = d;
    }
}

/// What a run of the file is, for highlighting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lexeme {
    /// Letters, digits, `-`, `_` or `+`: a fixed word, a name, a number or a cell.
    Word,
    /// Text in quotes, triple-quoted included.
    Quoted,
    Comment,
}

/// The file's words, quoted texts and comments, in order.
pub fn lexemes(text: &str) -> Vec<(Span, Lexeme)> {
    let s = scan(text);
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'+') || c >= 0x80;
    let mut out = Vec::new();
    // A byte-order mark is no part of the first word.
    let mut i = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
    while i < b.len() {
        let k = s.class[i];
        let mut j = i + 1;
        let lexeme = match k {
            Class::Quoted | Class::Comment => {
                while j < b.len() && s.class[j] == k {
                    j += 1;
                }
                if k == Class::Quoted {
                    Lexeme::Quoted
                } else {
                    Lexeme::Comment
                }
            }
            Class::Code if word(b[i]) => {
                while j < b.len() && s.class[j] == Class::Code && word(b[j]) {
                    j += 1;
                }
                Lexeme::Word
            }
            Class::Code => {
                i = j;
                continue;
            }
        };
        // Keep to character boundaries: a run ends where a character does.
        while j < b.len() && !text.is_char_boundary(j) {
            j += 1;
        }
        out.push((Span::new(i, j), lexeme));
        i = j;
    }
    out
}

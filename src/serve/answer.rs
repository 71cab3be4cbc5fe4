//! What the server sends back: status, content type and body.

use serde_json::{Value, json};

/// An answer: status, content type and body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn json(status: u16, v: &Value) -> Answer {
        Answer {
            status,
            content_type: "application/json; charset=utf-8",
            body: v.to_string().into_bytes(),
        }
    }
    pub fn error(status: u16, reason: impl Into<String>) -> Answer {
        Answer::json(status, &json!({ "error": reason.into() }))
    }
}

/// The most characters of a client's text an answer repeats.
pub const SHOWN_CHARS: usize = 40;

/// A client's text as an answer repeats it: its first [`SHOWN_CHARS`] characters, and
/// `…` when there is more.
pub fn shown(text: &str) -> String {
    match text.char_indices().nth(SHOWN_CHARS) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

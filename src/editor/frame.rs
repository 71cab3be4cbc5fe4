//! Messages framed as the Language Server Protocol frames them (`Content-Length`
//! headers), read with bounds: a header line, the headers and a message body each have
//! a limit, so no client can make the server hold unbounded memory. lsp-server reads
//! whatever length a header names; this reader refuses lengths past the limit first.

use lsp_server::Message;
use std::io::{self, BufRead, Read};

/// The longest message body read: a variant file at its limit, escaped as JSON (at
/// worst six bytes a byte), with room for the rest of the message.
pub const MAX_BODY: usize = 6 * crate::MAX_VARIANT_BYTES as usize + 64 * 1024;

/// The longest header line, and the most header lines, read.
const MAX_HEADER_LINE: usize = 1024;
const MAX_HEADERS: usize = 32;

/// What reading one message gave.
pub enum Read1 {
    Message(Message),
    /// A well-framed body that is not a JSON-RPC message: skipped, the reason kept.
    Skipped(String),
    /// The input ended.
    End,
}

/// Reads one message. A frame that cannot be read past (a bad header, a body too
/// long) is an error: the stream cannot be trusted to find the next frame.
pub fn read_message(input: &mut impl BufRead) -> io::Result<Read1> {
    let mut length = None;
    let mut headers = 0;
    loop {
        let mut line = Vec::new();
        let n = input
            .by_ref()
            .take(MAX_HEADER_LINE as u64 + 1)
            .read_until(b'\n', &mut line)?;
        if n == 0 {
            return if headers == 0 {
                Ok(Read1::End)
            } else {
                Err(bad("the input ended inside a message's headers"))
            };
        }
        if n > MAX_HEADER_LINE || !line.ends_with(b"\r\n") {
            return Err(bad("a header line is too long or not ended by CR LF"));
        }
        headers += 1;
        if headers > MAX_HEADERS {
            return Err(bad("too many header lines"));
        }
        let line = &line[..line.len() - 2];
        if line.is_empty() {
            break;
        }
        let text = std::str::from_utf8(line).map_err(|_| bad("a header is not text"))?;
        let (name, value) = text
            .split_once(':')
            .ok_or_else(|| bad("a header has no `:`"))?;
        if name.trim().eq_ignore_ascii_case("content-length") {
            let n: usize = value
                .trim()
                .parse()
                .map_err(|_| bad("Content-Length is not a number"))?;
            if n > MAX_BODY {
                return Err(bad(&format!(
                    "a message of {n} bytes is longer than the {MAX_BODY} read"
                )));
            }
            length = Some(n);
        }
    }
    let length = length.ok_or_else(|| bad("a message has no Content-Length"))?;
    let mut body = vec![0; length];
    input.read_exact(&mut body)?;
    Ok(match serde_json::from_slice::<Message>(&body) {
        Ok(m) => Read1::Message(m),
        Err(e) => Read1::Skipped(format!("not a JSON-RPC message: {e}")),
    })
}

fn bad(why: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, why.to_string())
}

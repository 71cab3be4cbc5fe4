//! The terminal around a [`Console`]: lines in, replies out, and standard output
//! that ends the program quietly when its reader goes away.

use super::Console;
use std::fmt;
use std::io::{self, BufRead, ErrorKind, Write};

/// The longest input line read, not counting its end (`\n` or `\r\n`); the rest of a
/// longer line is skipped and it is refused.
pub const MAX_LINE_BYTES: usize = 4096;

/// Plays until `quit` or the end of input, the computer answering when it plays a
/// side. A line that is too long or not UTF-8 is refused like any bad command. A
/// closed output ends the game with an error of kind `BrokenPipe`.
pub fn run(
    console: &mut Console,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> io::Result<()> {
    let tell = |out: &mut dyn Write, text: String| -> io::Result<()> {
        if text.is_empty() {
            Ok(())
        } else {
            writeln!(out, "{text}")
        }
    };
    writeln!(out, "{}\nType `help` for commands.", console.status())?;
    tell(out, console.computer_turn())?;
    let mut line = Vec::new();
    loop {
        line.clear();
        let (read, whole) = match read_line(input, &mut line) {
            Ok(r) => r,
            Err(e) => {
                writeln!(
                    out,
                    "Could not read the input ({e}): the game was not saved."
                )?;
                return Ok(());
            }
        };
        if read == 0 {
            writeln!(out, "{}", console.end_of_input())?;
            return Ok(());
        }
        let reply = match std::str::from_utf8(&line) {
            _ if !whole => super::Reply::refused(format!(
                "a line of more than {MAX_LINE_BYTES} bytes; the game goes on"
            )),
            Ok(text) => console.handle(text),
            Err(e) => super::Reply::refused(format!(
                "the line is not UTF-8 text (byte {} is not valid); the game goes on",
                e.valid_up_to() + 1
            )),
        };
        if reply.quit {
            return Ok(());
        }
        tell(out, reply.text)?;
    }
}

/// Reads one line into `buf`, without its end: the bytes consumed, 0 at the end of
/// input, and whether the line fitted in [`MAX_LINE_BYTES`] (only that much is kept).
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<(usize, bool)> {
    // One byte more than the limit is kept, to hold a `\r` before the `\n`.
    const KEEP: usize = MAX_LINE_BYTES + 1;
    let mut read = 0;
    let mut over = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        let (text, take, done) = match chunk.iter().position(|b| *b == b'\n') {
            Some(i) => (i, i + 1, true),
            None => (chunk.len(), chunk.len(), false),
        };
        let room = KEEP.saturating_sub(buf.len());
        over |= text > room;
        buf.extend_from_slice(&chunk[..text.min(room)]);
        input.consume(take);
        read += take;
        if done {
            break;
        }
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok((read, !over && buf.len() <= MAX_LINE_BYTES))
}

/// Writes to standard output. When the reader has gone (`| head -1`), the program ends
/// quietly ([`output_closed`]); another write error ends it with a message. Either way
/// the exit status is a failure: the output was cut short.
pub fn print_stdout(args: fmt::Arguments) {
    if let Err(e) = io::stdout().lock().write_fmt(args) {
        if e.kind() == ErrorKind::BrokenPipe {
            output_closed();
        }
        print_stderr(format_args!("error: cannot write the output: {e}\n"));
        std::process::exit(1);
    }
}

/// Ends the program because its reader has gone: with failure, since not all of the
/// output was read, and without a message, as Unix tools end in a pipe.
pub fn output_closed() -> ! {
    std::process::exit(1)
}

/// Writes to standard error. When it is closed (`2>&1 | head -1` after the reader
/// went), the message is dropped and the program goes on, so its exit status still
/// says whether the command succeeded.
pub fn print_stderr(args: fmt::Arguments) {
    let _ = io::stderr().lock().write_fmt(args);
}

//! The inventor's side of the API: a served file's text and its stamp (for live
//! reload), diagnostics of a text being edited, and saving it back.
//!
//! ```text
//! GET  /api/variants/ID/stamp    {"stamp"}: changes whenever the file's text does
//! GET  /api/variants/ID/events   server-sent events, one {"stamp"} each time it changes
//! GET  /api/variants/ID/source   {"file", "text", "stamp"}
//! POST /api/variants/ID/check    {"text"} -> {"ok", "errors", "warnings", "diagnostics",
//!                                "more", "rendered"}: the first 200 diagnostics, and how
//!                                many more there are
//! POST /api/variants/ID/source   {"text", "stamp"} -> {"stamp"}; 409 with the file's
//!                                text and stamp when it changed since `stamp`
//! GET  /api/variants/ID/pictures  {"pictures": [{player, piece, svg, turns}], "problems"}:
//!                                the pieces' pictures, as the file says how they are drawn
//! ```
//!
//! Only files the server serves are read or written (a variant is named by its id,
//! never by a path), and every `POST` carries the page's token (see `serve::Site`).

use super::answer::{Answer, shown};
use super::request::{field, parse_body};
use crate::diagrams::piece_picture;
use crate::files::{text_hash, write_atomic};
use crate::variant::{Drawing, PictureSet, for_player};
use crate::{Diagnostic, Variant, check_all, read_limited, read_variant_text};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The most bytes of a text saved or checked: what `check` reads from a file.
pub const MAX_SOURCE: usize = 1 << 20;
/// The most diagnostics a check answers with; `more` counts the rest.
pub const MAX_DIAGNOSTICS: usize = 200;

type Reply = Result<Value, Answer>;

fn read(path: &Path) -> Result<String, Answer> {
    read_variant_text(path).map_err(|e| Answer::error(404, e.to_string()))
}

pub(super) fn stamp(path: &Path) -> Reply {
    Ok(json!({"stamp": text_hash(&read(path)?)}))
}

/// The file's stamp each time it changes, starting with the stamp it has now; its
/// text is read again only when its length or time of change moves.
pub(super) fn watch(path: PathBuf) -> super::http::Events {
    let mut seen: Option<(u64, Option<std::time::SystemTime>)> = None;
    let mut last: Option<String> = None;
    Box::new(move || {
        let meta = std::fs::metadata(&path)
            .ok()
            .map(|m| (m.len(), m.modified().ok()));
        if meta.is_some() && meta == seen {
            return None;
        }
        seen = meta;
        let stamp = match read(&path) {
            Ok(text) => text_hash(&text),
            Err(_) => "gone".to_string(),
        };
        if last.as_ref() == Some(&stamp) {
            return None;
        }
        last = Some(stamp.clone());
        Some(json!({"stamp": stamp}).to_string())
    })
}

pub(super) fn source(path: &Path) -> Reply {
    let text = read(path)?;
    Ok(json!({
        "file": path.display().to_string(),
        "stamp": text_hash(&text),
        "text": text,
    }))
}

fn text_field(body: &[u8]) -> Result<(Value, String), Answer> {
    let req = parse_body(body)?;
    let text = field(&req, "text")?;
    if text.len() > MAX_SOURCE {
        return Err(Answer::error(
            413,
            format!("a variant file is at most {MAX_SOURCE} bytes"),
        ));
    }
    Ok((req, text))
}

/// Every diagnostic of `text` as `check` finds them, each with its lines and columns
/// (from 1, columns in characters), and the report as `check` prints it.
pub(super) fn check_text(path: &Path, body: &[u8]) -> Reply {
    let (_, text) = text_field(body)?;
    let checked = check_all(&path.display().to_string(), &text);
    let mut report = checked.report;
    let (errors, warnings) = (report.errors(), report.warnings());
    let more = report.diagnostics.len().saturating_sub(MAX_DIAGNOSTICS);
    report.diagnostics.truncate(MAX_DIAGNOSTICS);
    let list: Vec<Value> = report
        .diagnostics
        .iter()
        .map(|d| diagnostic(&text, d))
        .collect();
    let mut rendered = match report.diagnostics.is_empty() {
        true => String::new(),
        false => report.render(100, false),
    };
    if more > 0 {
        rendered.push_str(&format!("\n… and {more} more not shown\n"));
    }
    Ok(json!({
        "ok": checked.variant.is_some(),
        "errors": errors,
        "warnings": warnings,
        "diagnostics": list,
        "more": more,
        "rendered": rendered,
    }))
}

fn diagnostic(text: &str, d: &Diagnostic) -> Value {
    let place = |start: usize, end: usize, label: &str| {
        let (line, column) = line_column(text, start);
        let (end_line, end_column) = line_column(text, end);
        json!({"line": line, "column": column, "end_line": end_line, "end_column": end_column, "label": label})
    };
    let mut at = place(d.span.start, d.span.end, &d.label);
    at["code"] = json!(d.short_code());
    at["severity"] = json!(if d.is_error() { "error" } else { "warning" });
    at["message"] = json!(d.message);
    at["help"] = json!(d.shown_help());
    at["also"] = d
        .also
        .iter()
        .map(|(s, l)| place(s.start, s.end, l))
        .collect();
    at
}

/// The line and column (from 1; columns in characters) of a byte offset.
fn line_column(text: &str, at: usize) -> (usize, usize) {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

/// Writes the text over the served file, all at once, unless the file changed since
/// the page read it (`stamp`): then nothing is written and the answer carries the
/// file's text, so that neither is lost.
pub(super) fn save(path: &Path, body: &[u8]) -> Reply {
    let (req, text) = text_field(body)?;
    let stamp = field(&req, "stamp")?;
    let now = read(path)?;
    let now_stamp = text_hash(&now);
    if now_stamp != stamp {
        return Err(Answer::json(
            409,
            &json!({
                "error": format!("{} changed on disk since it was opened (stamp `{}`); nothing was written", path.display(), shown(&stamp)),
                "text": now,
                "stamp": now_stamp,
            }),
        ));
    }
    write_atomic(path, &text)
        .map_err(|e| Answer::error(500, format!("cannot write {}: {e}", path.display())))?;
    Ok(json!({"stamp": text_hash(&text)}))
}

/// The most bytes of one piece's picture.
pub const MAX_PICTURE: u64 = 64 << 10;

/// Every player's picture of every piece that has one, first found of: the piece's
/// own `drawn from` files or `drawn as` set; in the folder `STEM.pieces` next to
/// `STEM.var`, `PLAYER-CODE.svg` (the player's name in lower case, the piece's code as
/// the file writes it: `black-N.svg`) or `CODE.svg`; the file's `pieces drawn as`
/// set. A picture that cannot be read (not a regular file, past [`MAX_PICTURE`], not
/// UTF-8) is left out and named in `problems`. `turns`: the picture turns with the
/// board (it points at the opponent) instead of staying upright.
pub(super) fn pictures(path: &Path, v: &Variant) -> Value {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let dir = path
        .file_stem()
        .map(|stem| path.with_file_name(format!("{}.pieces", stem.to_string_lossy())))
        .filter(|d| d.is_dir());
    let (mut found, mut problems) = (Vec::new(), Vec::new());
    for (i, player) in v.players.iter().enumerate() {
        for piece in &v.pieces {
            let promoted = piece.code.starts_with('+');
            let drawn = |set: PictureSet, texts: &[String]| {
                let text = for_player(texts, i).unwrap_or(&piece.code);
                piece_picture(set, text, i, promoted).map(Ok)
            };
            let file = |file: PathBuf| Some(read_picture(folder, &file).map(|svg| (svg, false)));
            let own = match &piece.drawing {
                Some(Drawing::Set(set, texts)) => drawn(*set, texts),
                Some(Drawing::Files(files)) => {
                    for_player(files, i).and_then(|f| file(folder.join(f)))
                }
                None => None,
            };
            let picture = own
                .or_else(|| {
                    let dir = dir.as_ref()?;
                    [
                        format!("{}-{}.svg", player.name.to_lowercase(), piece.code),
                        format!("{}.svg", piece.code),
                    ]
                    .into_iter()
                    .map(|n| dir.join(n))
                    .find(|f| f.exists())
                    .and_then(file)
                })
                .or_else(|| drawn(v.drawing, &[]));
            match picture {
                Some(Ok((svg, turns))) => found.push(
                    json!({"player": player.name, "piece": piece.name, "svg": svg, "turns": turns}),
                ),
                Some(Err(e)) => problems.push(json!(e)),
                None => {}
            }
        }
    }
    json!({"pictures": found, "problems": problems})
}

/// A picture's text, if it lies in `folder` once links are followed: a link out of
/// the variant's folder would let anyone who can reach the page read any file.
fn read_picture(folder: &Path, file: &Path) -> Result<String, String> {
    let inside = |f: &Path| {
        let folder = folder.canonicalize().ok()?;
        f.canonicalize().ok().filter(|f| f.starts_with(&folder))
    };
    let file = &inside(file).ok_or_else(|| {
        format!(
            "{} is not a file in the variant's folder {}",
            file.display(),
            folder.display()
        )
    })?;
    read_limited(file, MAX_PICTURE, "piece picture")
        .map_err(|e| e.to_string())
        .and_then(|b| {
            String::from_utf8(b).map_err(|_| format!("{} is not UTF-8 text", file.display()))
        })
}

/// The statement a name at `at` declares, as the file writes it: from the start of
/// its line to the brace that closes its block (or the line's end), with the comment
/// lines just above it, at most `limit` bytes.
pub(super) fn statement_text(text: &str, at: usize, limit: usize) -> &str {
    let at = at.min(text.len());
    let Some(line_start) = text.get(..at).map(|t| t.rfind('\n').map_or(0, |i| i + 1)) else {
        return "";
    };
    let mut start = line_start;
    while start > 0 {
        let above = text[..start - 1].rfind('\n').map_or(0, |i| i + 1);
        if !text[above..start - 1].trim_start().starts_with('#') {
            break;
        }
        start = above;
    }
    let (mut depth, mut end, mut quoted, mut comment) = (0usize, text.len(), false, false);
    for (i, c) in text[line_start..].char_indices() {
        let i = line_start + i;
        match c {
            '\n' if depth == 0 => {
                end = i;
                break;
            }
            '\n' => comment = false,
            _ if comment => {}
            '"' => quoted = !quoted,
            _ if quoted => {}
            '#' => comment = true,
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    end = i + 1;
                    break;
                }
            }
            _ => {}
        }
    }
    let mut end = end.min(start + limit);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[start..end]
}

#[cfg(test)]
mod tests {
    use super::{line_column, statement_text};

    #[test]
    fn a_statement_is_its_block_with_the_comments_above() {
        let text =
            "name \"x\"\n# Jumps.\n# Far.\npiece A (A) {\n  step 1 any # a { brace\n}\nsetup {}\n";
        let at = text.find("A (A)").unwrap();
        assert_eq!(
            statement_text(text, at, 4096),
            "# Jumps.\n# Far.\npiece A (A) {\n  step 1 any # a { brace\n}"
        );
        assert_eq!(statement_text(text, 0, 4096), "name \"x\"");
        assert_eq!(statement_text(text, at, 10), "# Jumps.\n#");
    }

    #[test]
    fn columns_count_characters_from_one() {
        let text = "ab\nçd\n";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 3), (2, 1));
        // `d` follows a two-byte character.
        assert_eq!(line_column(text, 5), (2, 2));
        assert_eq!(line_column(text, 99), (3, 1));
    }
}

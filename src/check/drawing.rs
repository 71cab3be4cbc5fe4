//! How the studio draws pieces: `pieces drawn as SET`, and a piece's `drawn as` or
//! `drawn from`. Sets are looked up by name, texts and files counted against the
//! players, and picture files looked for beside the variant file.

use super::lookup;
use crate::diagnostic::Diagnostic;
use crate::model::{Drawing, FIGURES, PictureSet, Piece};
use crate::syntax::{Drawn, Name, PieceItemKind, Span, Statement};
use std::path::{Component, Path};

/// The file's set, and each piece's own drawing set on `pieces` (matched by name).
/// `file` is the variant file's path, beside which picture files are looked for.
pub(super) fn check_drawing(
    statements: &[Statement],
    file: &str,
    players: usize,
    pieces: &mut [Piece],
    out: &mut Vec<Diagnostic>,
) -> PictureSet {
    let named = statements.iter().find_map(|s| match s {
        Statement::Drawing(n) => Some(find_set(n, out)),
        _ => None,
    });
    // An unknown game set is reported once, not again for every piece's texts.
    let game_known = !matches!(named, Some(None));
    let game = named.flatten().unwrap_or_default();
    for s in statements {
        let Statement::Piece(decl) = s else { continue };
        let Some(piece) = pieces
            .iter_mut()
            .find(|p| p.name.eq_ignore_ascii_case(&decl.name.node))
        else {
            continue;
        };
        if piece.drawing.is_some() || piece.span != decl.name.span {
            continue;
        }
        let mut drawn = decl.items.iter().filter_map(|item| match &item.kind {
            PieceItemKind::Drawn(d) => Some((item, d)),
            _ => None,
        });
        let Some((item, d)) = drawn.next() else {
            continue;
        };
        if let Some((second, _)) = drawn.next() {
            out.push(
                bad(second.span, "a second `drawn` for one piece").label("the first one counts"),
            );
        }
        if item.guard.is_some() {
            out.push(
                bad(item.span, "how a piece is drawn cannot depend on an option")
                    .label("an `if` or `unless` before `drawn`"),
            );
        }
        piece.drawing = match d {
            Drawn::As(set, texts) => {
                let set = match set {
                    Some(n) => find_set(n, out),
                    None => game_known.then_some(game),
                };
                set.and_then(|set| check_texts(set, set_span(d, item.span), texts, players, out))
                    .map(|set| Drawing::Set(set, texts.iter().map(|t| t.node.clone()).collect()))
            }
            Drawn::From(files) => {
                let fine = check_count(files, players, "picture files", out)
                    && files.iter().filter(|f| check_file(f, file, out)).count() == files.len();
                fine.then(|| Drawing::Files(files.iter().map(|f| f.node.clone()).collect()))
            }
        };
    }
    game
}

fn bad(span: Span, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error("variantlab::bad_drawing", span, message)
}

fn find_set(name: &Name, out: &mut Vec<Diagnostic>) -> Option<PictureSet> {
    let known: Vec<String> = PictureSet::ALL
        .iter()
        .map(|s| s.name().to_string())
        .collect();
    lookup("variantlab::unknown_set", "picture set", &known, name)
        .map(|i| PictureSet::ALL[i])
        .map_err(|d| out.push(d))
        .ok()
}

fn set_span(d: &Drawn, item: Span) -> Span {
    match d {
        Drawn::As(Some(n), _) => n.span,
        _ => item,
    }
}

/// The set when its texts fit it: letters take none, figures only their pictures'
/// names, and there is at most one per player.
fn check_texts(
    set: PictureSet,
    at: Span,
    texts: &[Name],
    players: usize,
    out: &mut Vec<Diagnostic>,
) -> Option<PictureSet> {
    if set == PictureSet::Letters && !texts.is_empty() {
        out.push(
            bad(texts[0].span, "letters draw the piece's code and take no text")
                .label("a text for letters")
                .help("write `drawn as wedges \"...\"` or `drawn as discs \"...\"` to draw a text, or leave the text out")
                .also(at, "drawn as letters"),
        );
        return None;
    }
    if !check_count(texts, players, "texts", out) {
        return None;
    }
    let names: Vec<&str> = FIGURES.iter().map(|(n, _)| *n).collect();
    let unknown: Vec<&Name> = texts
        .iter()
        .filter(|t| set == PictureSet::Figures && !names.contains(&t.node.as_str()))
        .collect();
    for t in &unknown {
        out.push(
            Diagnostic::error(
                "variantlab::unknown_set",
                t.span,
                format!("the set `figures` has no picture named `{}`", t.node),
            )
            .label("no such figure")
            .help(format!("its pictures are `{}`", names.join("`, `"))),
        );
    }
    unknown.is_empty().then_some(set)
}

/// Whether there are at most as many as players (one for every player, or one each).
fn check_count(list: &[Name], players: usize, what: &str, out: &mut Vec<Diagnostic>) -> bool {
    if list.len() <= players.max(1) {
        return true;
    }
    out.push(
        bad(
            list[players].span,
            format!("{} {what} for {players} players", list.len()),
        )
        .label("one too many")
        .help("give one for every player, or one per player in the order they are declared"),
    );
    false
}

/// Whether a picture file names a file beside the variant file, in its folder or one
/// below; a missing one is a warning (the piece keeps its letter), a path that
/// leaves the folder an error.
fn check_file(name: &Name, file: &str, out: &mut Vec<Diagnostic>) -> bool {
    let path = Path::new(&name.node);
    let inside = !name.node.is_empty()
        && path
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if !inside {
        out.push(
            Diagnostic::error(
                "variantlab::picture_outside",
                name.span,
                format!("`{}` is not a file beside the variant file", name.node),
            )
            .label("leaves the variant file's folder")
            .help("name an SVG file in the variant file's folder or below it, such as \"pictures/horse.svg\""),
        );
        return false;
    }
    let full = Path::new(file).parent().unwrap_or(Path::new("")).join(path);
    if !full.is_file() {
        out.push(
            Diagnostic::warning(
                "variantlab::missing_picture",
                name.span,
                format!("there is no picture file {}", full.display()),
            )
            .label("not found")
            .help("the piece is drawn with its letter until the file is there; the name is read from the variant file's folder"),
        );
    }
    true
}

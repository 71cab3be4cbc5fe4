//! The start position: placements by coordinates and pasted diagrams.

use super::board::off_board;
use super::declare::Decls;
use crate::diagnostic::Diagnostic;
use crate::geometry::Layout;
use crate::geometry::{Board, Cell};
use crate::model::*;
use crate::syntax::{Name, SetupDecl, Span, Spanned, Statement};

pub(super) fn check_setup(
    statements: &[Statement],
    board: &Board,
    decls: &Decls,
    out: &mut Vec<Diagnostic>,
) -> Vec<Placed> {
    let mut placed: Vec<(Placed, Span)> = Vec::new();
    for s in statements {
        let Statement::Setup(setup) = s else { continue };
        match setup {
            SetupDecl::Placements(list) => {
                for pl in list {
                    let player = decls.player(&pl.player).map_err(|d| out.push(d)).ok();
                    for (piece_name, cells) in &pl.pieces {
                        let piece = decls.piece(piece_name).map_err(|d| out.push(d)).ok();
                        for c in cells {
                            let Some(cell) = resolve_cell(board, c, out) else {
                                continue;
                            };
                            if let (Some(player), Some(piece)) = (player, piece) {
                                place(
                                    &mut placed,
                                    Placed {
                                        cell,
                                        player,
                                        piece,
                                    },
                                    c.span,
                                    board,
                                    out,
                                );
                            }
                        }
                    }
                }
            }
            SetupDecl::Diagram(text) => read_diagram(text, board, decls, &mut placed, out),
            SetupDecl::Random(_) => {}
        }
    }
    placed.into_iter().map(|(p, _)| p).collect()
}

/// Per player: whether the setup names, for it, a piece that does not exist; every
/// player when it names a player that does not exist.
pub(super) fn unsure_players(statements: &[Statement], decls: &Decls) -> Vec<bool> {
    let mut unsure = vec![false; decls.players.len()];
    let mut mark = |player: &Name, pieces: Vec<&Name>| match decls.player(player) {
        Ok(p) => {
            if pieces.iter().any(|k| decls.piece(k).is_err()) {
                unsure[p.0 as usize] = true;
            }
        }
        Err(_) => unsure.iter_mut().for_each(|u| *u = true),
    };
    for s in statements {
        match s {
            Statement::Setup(SetupDecl::Placements(list)) => {
                for pl in list {
                    let pieces = pl.pieces.iter().map(|(k, _)| k);
                    mark(
                        &pl.player,
                        pieces.chain(pl.hand.iter().map(|(_, k)| k)).collect(),
                    );
                }
            }
            Statement::Setup(SetupDecl::Random(r)) => {
                for pool in &r.pools {
                    mark(&pool.player, pool.pieces.iter().map(|(_, k)| k).collect());
                }
            }
            _ => {}
        }
    }
    unsure
}

/// The pieces in hand at the start, from the setup blocks' `N Piece in hand` entries.
pub(super) fn check_start_hands(
    statements: &[Statement],
    decls: &Decls,
    out: &mut Vec<Diagnostic>,
) -> Vec<(PlayerId, PieceId)> {
    let mut hands = Vec::new();
    for s in statements {
        let Statement::Setup(SetupDecl::Placements(list)) = s else {
            continue;
        };
        // Players are looked up (and reported unknown) with the placements.
        for pl in list.iter().filter(|pl| !pl.hand.is_empty()) {
            let player = decls.player(&pl.player).ok();
            for (count, name) in &pl.hand {
                let piece = decls.piece(name).map_err(|d| out.push(d)).ok();
                if count.node == 0 || count.node > 255 {
                    out.push(
                        Diagnostic::error(
                            "variantlab::hand_count",
                            count.span,
                            format!("{} pieces in hand", count.node),
                        )
                        .label("a hand holds 1 to 255 pieces of a kind")
                        .help("write a count from 1 to 255, or leave the entry out"),
                    );
                    continue;
                }
                if let (Some(player), Some(piece)) = (player, piece) {
                    hands.extend((0..count.node).map(|_| (player, piece)));
                }
            }
        }
    }
    hands
}

pub(super) fn resolve_cell(board: &Board, c: &Name, out: &mut Vec<Diagnostic>) -> Option<Cell> {
    match board.parse_cell(&c.node) {
        Some(cell) => Some(cell),
        None if board.is_hole(&c.node) => {
            out.push(
                Diagnostic::error(
                    "variantlab::cell_in_hole",
                    c.span,
                    format!("`{}` is a hole in the board", c.node),
                )
                .label("a hole")
                .help("pieces cannot stand on a hole; pick another cell or remove the hole"),
            );
            None
        }
        None => {
            out.push(off_board(c.span, &c.node, board));
            None
        }
    }
}

fn place(
    placed: &mut Vec<(Placed, Span)>,
    p: Placed,
    span: Span,
    board: &Board,
    out: &mut Vec<Diagnostic>,
) {
    if let Some((_, first)) = placed.iter().find(|(q, _)| q.cell == p.cell) {
        out.push(
            Diagnostic::error(
                "variantlab::occupied_cell",
                span,
                format!("{} already holds a piece", board.name(p.cell)),
            )
            .label("second piece on this cell")
            .also(*first, "first placed here")
            .help("each cell holds one piece at the start; remove one of the two"),
        );
        return;
    }
    placed.push((p, span));
}

fn read_diagram(
    text: &Spanned<String>,
    board: &Board,
    decls: &Decls,
    placed: &mut Vec<(Placed, Span)>,
    out: &mut Vec<Diagnostic>,
) {
    let layout = Layout::whole(board, 2);
    let slots = match layout.read(&text.node) {
        Ok(s) => s,
        Err(e) => {
            let span = e.line.map_or(text.span, |l| line_span(text, l));
            out.push(
                Diagnostic::error(
                    "variantlab::diagram_shape",
                    span,
                    "this diagram does not match the board",
                )
                .label(e.message)
                .help(format!(
                    "draw the {} as `variantlab board` prints it",
                    board.shape
                )),
            );
            return;
        }
    };
    for slot in slots {
        let (cell, t) = (slot.cell, slot.text.clone());
        if t.is_empty() {
            continue;
        }
        let span = slot_span(text, &slot);
        let capitals = t.chars().any(|c| c.is_ascii_uppercase());
        let lowercase = t.chars().any(|c| c.is_ascii_lowercase());
        let player = decls
            .players
            .iter()
            .position(|p| p.capitals == capitals && capitals != lowercase);
        let piece = decls.piece(&Name::new(t.clone(), span));
        match (player, piece) {
            (Some(pl), Ok(pc)) => place(placed, Placed { cell, player: PlayerId(pl as u8), piece: pc }, span, board, out),
            (None, _) => out.push(
                Diagnostic::error("variantlab::unknown_code", span, format!("`{t}` on {} belongs to no player", board.name(cell)))
                    .label("mixed or unknown letter case")
                    .help("write a piece code all in capitals or all in lowercase, matching a player's case"),
            ),
            (_, Err(_)) => out.push(
                Diagnostic::error("variantlab::unknown_code", span, format!("no piece has the code `{t}` (on {})", board.name(cell)))
                    .label("unknown code")
                    .help(codes_help(decls)),
            ),
        }
    }
}

/// The codes this file declares, for an unknown one.
fn codes_help(decls: &Decls) -> String {
    let codes = decls.codes();
    if codes.is_empty() {
        "no piece declares a code".to_string()
    } else {
        format!("the codes of this file are `{}`", codes.join("`, `"))
    }
}

/// The span of line `l` (counted after leading blank lines) of a diagram.
fn line_span(text: &Spanned<String>, l: usize) -> Span {
    let skip = text
        .node
        .lines()
        .take_while(|x| x.trim().is_empty())
        .count();
    let mut start = text.span.start;
    for (i, line) in text.node.split_inclusive('\n').enumerate() {
        if i == l + skip {
            return Span::new(start, start + line.trim_end().len());
        }
        start += line.len();
    }
    text.span
}

/// The span of a slot's text in the file.
fn slot_span(text: &Spanned<String>, slot: &crate::geometry::ReadSlot) -> Span {
    let line = line_span(text, slot.line);
    let src = &text.node[line.start - text.span.start..];
    let start = line.start
        + src
            .chars()
            .take(slot.column)
            .map(char::len_utf8)
            .sum::<usize>();
    Span::new(start, start + slot.text.len())
}

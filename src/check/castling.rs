//! Castling moves: those written cell by cell, and those whose pieces start anywhere
//! on their line, drawn out into one castling for each pair of starts.

use super::declare::Decls;
use super::setup::resolve_cell;
use super::special::cells;
use crate::diagnostic::Diagnostic;
use crate::geometry::{Board, Cell, Dir};
use crate::model::*;
use crate::syntax::{CastlingDecl, Name, Statement};

/// A castling part as written: the piece, its start if given, its destination.
type Part = (PieceId, Option<Cell>, Cell);

pub(super) fn check_castlings(
    statements: &[Statement],
    board: &Board,
    decls: &Decls,
    pieces: &[Piece],
    out: &mut Vec<Diagnostic>,
) -> Vec<Castling> {
    let mut list = Vec::new();
    // Castling-right bits handed out so far.
    let mut bits = 0usize;
    for s in statements {
        let Statement::Castling(c) = s else { continue };
        let player = decls.player(&c.player).map_err(|d| out.push(d)).ok();
        let mut parts: Vec<Part> = Vec::new();
        for (piece, from, to) in &c.parts {
            let piece = decls.piece(piece).map_err(|d| out.push(d)).ok();
            let start = from.as_ref().map(|f| resolve_cell(board, f, out));
            let to = resolve_cell(board, to, out);
            if let (Some(p), Some(t)) = (piece, to)
                && start != Some(None)
            {
                parts.push((p, start.flatten(), t));
            }
        }
        let Some(player) = player else { continue };
        if parts.len() != c.parts.len() {
            continue;
        }
        if c.anywhere.is_some() {
            if let Some(drawn) = anywhere(c, board, decls, player, &parts, bits, out) {
                bits += drawn.1;
                list.extend(drawn.0);
            }
            continue;
        }
        let mut fixed = Vec::new();
        for ((piece, from, to), (name, ..)) in parts.iter().zip(&c.parts) {
            match from {
                Some(f) => fixed.push((*piece, *f, *to)),
                None => out.push(no_start(name)),
            }
        }
        if fixed.len() != parts.len() {
            continue;
        }
        let empty = cells(board, &c.empty, out);
        let safe = cells(board, &c.safe, out);
        let starts: Vec<Cell> = fixed.iter().map(|p| p.1).collect();
        let aimed = aimed_by(board, decls, pieces, player, &c.aimed, &starts, out);
        let (first, from, to) = fixed[0];
        let forward = decls.players[player.0 as usize].forward;
        let plain = pieces.get(first.0 as usize).is_some_and(|p| {
            p.moves
                .iter()
                .any(|pat| super::reach::reaches_cell(board, pat, forward, from, to))
        });
        let written = match fixed.get(1) {
            Some(second) if plain => (from, second.1),
            _ => (from, to),
        };
        list.push(Castling {
            player,
            parts: fixed,
            empty,
            safe,
            aimed,
            written,
            right: bits.min(255) as u8,
            anywhere: None,
        });
        bits += 1;
    }
    list
}

fn no_start(name: &Name) -> Diagnostic {
    Diagnostic::error(
        "variantlab::castle_start",
        name.span,
        format!("the castling does not say where its {} starts", name.node),
    )
    .label("no start cell")
    .help(format!(
        "write its start before `to` (`{} e1 to g1`), or let the pieces start wherever \
         they stand: `, from anywhere on their line with the ... east of the ...`",
        name.node
    ))
}

fn line_error(
    span: crate::diagnostic::Span,
    message: String,
    label: &str,
    help: &str,
) -> Diagnostic {
    Diagnostic::error("variantlab::castle_line", span, message)
        .label(label.to_string())
        .help(help.to_string())
}

/// `from anywhere on their line with the B SIDE of the A`: one castling for every
/// start of A on the line and start of B on the named side of it, each with its own
/// empty and safe cells; and the number of right bits they take.
fn anywhere(
    c: &CastlingDecl,
    board: &Board,
    decls: &Decls,
    player: PlayerId,
    parts: &[Part],
    bits: usize,
    out: &mut Vec<Diagnostic>,
) -> Option<(Vec<Castling>, usize)> {
    let (second_name, side_name, first_name) = c.anywhere.as_ref()?;
    if parts.len() != 2 {
        out.push(line_error(
            c.span,
            format!(
                "a castling from anywhere moves two pieces, not {}",
                parts.len()
            ),
            "not two pieces",
            "name the two pieces and their destinations: `KIND to CELL and KIND to CELL`",
        ));
        return None;
    }
    for ((_, from, _), (_, written, _)) in parts.iter().zip(&c.parts) {
        if from.is_some()
            && let Some(w) = written
        {
            out.push(
                Diagnostic::error(
                    "variantlab::castle_start",
                    w.span,
                    "a castling from anywhere names no start cells",
                )
                .label("a start cell")
                .help("leave it out: the pieces start wherever they stand on their line"),
            );
            return None;
        }
    }
    if let Some((kind, _)) = c.aimed.first() {
        out.push(line_error(
            kind.span,
            "`lost when ... aims at` needs the cells the pieces start on".into(),
            "no start cells to aim at",
            "leave it out, or write the castling's start cells",
        ));
        return None;
    }
    let (a, ad) = (parts[0].0, parts[0].2);
    let (b, bd) = (parts[1].0, parts[1].2);
    let named = (
        decls.piece(first_name).map_err(|d| out.push(d)).ok()?,
        decls.piece(second_name).map_err(|d| out.push(d)).ok()?,
    );
    if named != (a, b) {
        out.push(line_error(
            first_name.span,
            "the pieces named here are not the castling's, first then second".into(),
            "not the castling's pieces",
            "name the second piece, then the first: `with the SECOND east of the FIRST`",
        ));
        return None;
    }
    let Some((line, along)) = line_through(board, ad, bd) else {
        out.push(line_error(
            c.span,
            format!(
                "{} and {} lie on no straight line of the board",
                board.name(ad),
                board.name(bd)
            ),
            "no common line",
            "the two destinations must share a rank, a file or another line",
        ));
        return None;
    };
    let side = board
        .parse_direction(&side_name.node)
        .filter(|d| *d == along || *d == board.opposite(along));
    let Some(side) = side else {
        out.push(line_error(
            side_name.span,
            format!(
                "`{}` is not a direction along the line through {} and {}",
                side_name.node,
                board.name(ad),
                board.name(bd)
            ),
            "not along the line",
            "name one of the line's two directions, such as `east` or `west`",
        ));
        return None;
    };
    let index = |cell: Cell| line.iter().position(|&x| x == cell);
    let (ia, ib) = (index(ad)?, index(bd)?);
    let between = |i: usize, j: usize| line[i.min(j)..=i.max(j)].to_vec();
    let mut list = Vec::new();
    for (i, &from_a) in line.iter().enumerate() {
        for (j, &from_b) in line.iter().enumerate() {
            let beyond = if side == along { j > i } else { j < i };
            if !beyond {
                continue;
            }
            let safe = between(i, ia);
            let mut empty: Vec<Cell> = safe.iter().copied().chain(between(j, ib)).collect();
            empty.retain(|&x| x != from_a && x != from_b);
            empty.sort();
            empty.dedup();
            list.push(Castling {
                player,
                parts: vec![(a, from_a, ad), (b, from_b, bd)],
                empty,
                safe,
                aimed: vec![],
                written: (from_a, from_b),
                right: (bits + j).min(255) as u8,
                anywhere: Some(side),
            });
        }
    }
    Some((list, line.len()))
}

/// The whole straight line of the board through two cells, in order along the
/// direction that leads from the first to the second, and that direction.
fn line_through(board: &Board, a: Cell, b: Cell) -> Option<(Vec<Cell>, Dir)> {
    let along = (0..board.directions().len() as u8).map(Dir).find(|&d| {
        let mut p = board.point(a);
        loop {
            p = board.shift(p, d);
            match board.at(p) {
                Some(c) if c == b => return true,
                Some(_) => {}
                None => return false,
            }
        }
    })?;
    let walk = |d: Dir| {
        let mut cells = Vec::new();
        let mut p = board.point(a);
        while let Some(c) = board.at(board.shift(p, d)) {
            cells.push(c);
            p = board.point(c);
        }
        cells
    };
    let mut line = walk(board.opposite(along));
    line.reverse();
    line.push(a);
    line.extend(walk(along));
    Some((line, along))
}

/// For `lost when an enemy KIND aims at CELL`: per enemy player, the cells from which
/// a piece of the kind could capture on the cell across an empty board.
fn aimed_by(
    board: &Board,
    decls: &Decls,
    pieces: &[Piece],
    me: PlayerId,
    clauses: &[(Name, Name)],
    starts: &[Cell],
    out: &mut Vec<Diagnostic>,
) -> Vec<Aimed> {
    let mut list = Vec::new();
    for (kind, cell) in clauses {
        let piece = decls.piece(kind).map_err(|d| out.push(d)).ok();
        let target = resolve_cell(board, cell, out);
        let (Some(piece), Some(target)) = (piece, target) else {
            continue;
        };
        if !starts.is_empty() && !starts.contains(&target) {
            let names: Vec<&str> = starts.iter().map(|c| board.name(*c)).collect();
            out.push(
                Diagnostic::error(
                    "variantlab::aimed_cell",
                    cell.span,
                    format!("no piece of this castling starts on {}", board.name(target)),
                )
                .label("not where one of its pieces starts")
                .help(format!(
                    "aim at a cell one of its pieces starts on: {}",
                    names.join(" ")
                )),
            );
            continue;
        }
        let Some(moves) = pieces.get(piece.0 as usize).map(|p| &p.moves) else {
            continue;
        };
        for (i, p) in decls.players.iter().enumerate() {
            let player = PlayerId(i as u8);
            if player == me {
                continue;
            }
            let landing = board
                .cells()
                .filter(|&t| {
                    t != target
                        && moves.iter().any(|pat| {
                            pat.dest.allows_enemy()
                                && super::reach::reaches_cell(board, pat, p.forward, t, target)
                        })
                })
                .collect();
            list.push(Aimed {
                player,
                piece,
                target,
                landing,
            });
        }
    }
    list
}

//! Short move text for reading a game: SAN for variants without hands (`e4`, `Nxf3`,
//! `exd5`, `e8=Q+`, `O-O`), and in variants with hands the western shogi style
//! (`P-7f`, `Bx2b+`, `P*5e`, `G6i-5h`). Written only, never read: moves are played by
//! the notation of [`write_move`](super::write_move).

use super::move_text::single_promotion;
use super::position::{Move, Position, Special};
use crate::compile::Rules;
use crate::model::PieceId;

/// The kind written without its letter in SAN, as pawns are: the one kind that
/// promotes, when exactly one does.
fn unlettered(rules: &Rules) -> Option<PieceId> {
    let v = &rules.variant;
    let mut promoting = (0..v.pieces.len()).filter(|k| !v.pieces[*k].promotion.is_empty());
    match (promoting.next(), promoting.next()) {
        (Some(k), None) => Some(PieceId(k as u8)),
        _ => None,
    }
}

/// `m`, legal in `pos`, in short notation, with its check mark.
pub fn write_short(rules: &Rules, pos: &Position, m: &Move) -> String {
    let mut legal = Vec::new();
    pos.legal_moves(rules, &mut legal);
    let mut after = pos.clone();
    after.make(rules, m);
    let mut replies = Vec::new();
    after.legal_moves(rules, &mut replies);
    body(rules, pos, &legal, m, unlettered(rules)) + check_mark(rules, &after, &replies)
}

/// `+` or `#` when the move leaves the side to move of `after` in check (never in
/// variants with hands, whose `+` is a promotion).
fn check_mark(rules: &Rules, after: &Position, replies: &[Move]) -> &'static str {
    match rules.variant.hand.is_none() && rules.royal != 0 && after.in_check(rules) {
        false => "",
        true if replies.is_empty() => "#",
        true => "+",
    }
}

/// Each move of a game from `start` in short notation.
pub fn write_short_line(rules: &Rules, start: &Position, moves: &[Move]) -> Vec<String> {
    let plain = unlettered(rules);
    let mut pos = start.clone();
    let mut legal = Vec::new();
    let mut out = Vec::with_capacity(moves.len());
    for (i, m) in moves.iter().enumerate() {
        if i == 0 {
            pos.legal_moves(rules, &mut legal);
        }
        let s = body(rules, &pos, &legal, m, plain);
        pos.make(rules, m);
        legal.clear();
        pos.legal_moves(rules, &mut legal);
        out.push(s + check_mark(rules, &pos, &legal));
    }
    out
}

/// The position's legal moves (`legal`, as it lists them) in short notation, without
/// check marks: to match what a person types.
pub fn write_short_moves(rules: &Rules, pos: &Position, legal: &[Move]) -> Vec<String> {
    let plain = unlettered(rules);
    legal
        .iter()
        .map(|m| body(rules, pos, legal, m, plain))
        .collect()
}

/// The move without its check mark; `legal` are the position's legal moves. A wall
/// follows as `,CELL`. Games written in PDN have no shorter form than their own:
/// `11-15`, `22x15`.
fn body(rules: &Rules, pos: &Position, legal: &[Move], m: &Move, plain: Option<PieceId>) -> String {
    // A move that ends where it started (a pass, igui), or a move by jumping that shares
    // its cells with another (the Lion's capture on the way beside its leap), is
    // written as it is read back.
    let jumps = matches!(m.special, Special::Jump { .. });
    let shared = || {
        legal.iter().any(|o| {
            o != m && (o.from, o.to, o.promotion, o.tag) == (m.from, m.to, m.promotion, m.tag)
        })
    };
    let back = m.from == m.to
        && m.promotion.is_none()
        && matches!(m.special, Special::Plain | Special::Jump { .. });
    if rules.variant.pdn || back || jumps && shared() {
        return super::move_text::write_move_at(rules, pos, m);
    }
    let mut s = move_body(rules, legal, m, plain);
    if let Some((k, c)) = m.gate {
        // A piece brought in through a gate: `Nc3/H`, `O-O/Hh1` (a castling names it).
        s.push('/');
        s += &rules.variant.piece(k).code.to_ascii_uppercase();
        if matches!(m.special, Special::Castle(_)) {
            s += rules.variant.board.name(c);
        }
    }
    if let Some(w) = m.written_wall() {
        s.push(',');
        s += rules.variant.board.name(w);
    }
    s
}

/// [`body`] without the wall.
fn move_body(rules: &Rules, legal: &[Move], m: &Move, plain: Option<PieceId>) -> String {
    let v = &rules.variant;
    let board = &v.board;
    let name = |c| board.name(c);
    let file = |c| board.scheme.split(name(c)).map_or(name(c), |(f, _)| f);
    let rank = |c| board.scheme.split(name(c)).map_or(name(c), |(_, r)| r);
    let code = v.piece(m.piece).code.to_ascii_uppercase();
    if v.hand.is_some() {
        if m.special == Special::Drop || m.special == Special::Copy {
            let landed = m.promotion.unwrap_or(m.piece);
            return format!(
                "{}*{}",
                v.piece(landed).code.to_ascii_uppercase(),
                name(m.to)
            );
        }
        let twins = legal.iter().any(|o| {
            o.piece == m.piece && o.to == m.to && o.from != m.from && o.special != Special::Drop
        });
        let from = if twins { name(m.from) } else { "" };
        let sep = if m.captured.is_some() { 'x' } else { '-' };
        let mut s = format!("{code}{from}{sep}{}", name(m.to));
        let promotes = legal
            .iter()
            .any(|o| o.from == m.from && o.to == m.to && o.promotion.is_some());
        match m.promotion {
            Some(_) if single_promotion(v, m.piece) => s.push('+'),
            Some(k) => s += &format!("={}", v.piece(k).code),
            None if promotes => s.push('='),
            None => {}
        }
        return s;
    }
    if let Special::Castle(i) = m.special {
        return castle_text(rules, i as usize);
    }
    let mut s = String::new();
    let capture = m.captured.is_some();
    // A promotion made standing that also moves names where it starts: `d5-e6=F`.
    let stepped = m.promotion.is_some()
        && m.from != m.to
        && v.piece(m.piece).promotion.iter().any(|p| p.when.standing);
    if stepped {
        if Some(m.piece) != plain {
            s += &code;
        }
        s += name(m.from);
        s.push('-');
    } else if Some(m.piece) == plain {
        if capture {
            s += file(m.from);
        }
    } else {
        s += &code;
        let twins: Vec<&Move> = legal
            .iter()
            .filter(|o| o.piece == m.piece && o.to == m.to && o.from != m.from)
            .collect();
        if !twins.is_empty() {
            if twins.iter().all(|o| file(o.from) != file(m.from)) {
                s += file(m.from);
            } else if twins.iter().all(|o| rank(o.from) != rank(m.from)) {
                s += rank(m.from);
            } else {
                s += name(m.from);
            }
        }
    }
    if capture {
        s.push('x');
    }
    s += name(m.to);
    if let Some(k) = m.promotion {
        s.push('=');
        s += &v.piece(k).code.to_ascii_uppercase();
    }
    if let Some(t) = m.tag {
        s.push(':');
        s.push(v.tag(t).mark);
    }
    s
}

/// `O-O` for the castling whose partner travels least among its first piece's
/// castlings, `O-O-O` for the others. Where the pieces start anywhere, that travel
/// depends on the draw: `O-O` is then the side where the first piece ends nearest the
/// board's edge.
fn castle_text(rules: &Rules, i: usize) -> String {
    let board = &rules.variant.board;
    let v = &rules.variant;
    if let Some(side) = v.castlings[i].anywhere {
        let to_edge = |c: &crate::model::Castling| {
            let d = c.anywhere.unwrap_or(side);
            let mut p = board.point(c.parts[0].2);
            let mut n = 0;
            while board.at(board.shift(p, d)).is_some() {
                p = board.shift(p, d);
                n += 1;
            }
            n
        };
        let me = &v.castlings[i];
        let nearest = (v.castlings.iter())
            .filter(|c| c.player == me.player && c.anywhere.is_some())
            .all(|c| to_edge(c) >= to_edge(me));
        return if nearest { "O-O" } else { "O-O-O" }.to_string();
    }
    let travel = |c: &crate::compile::CastleRule| {
        c.parts.get(1).map_or(0, |&(_, from, to)| {
            let (a, b) = (board.point(from), board.point(to));
            (a.0 - b.0).abs() + (a.1 - b.1).abs()
        })
    };
    let me = &rules.castling.castlings[i];
    let shortest = rules
        .castling
        .castlings
        .iter()
        .filter(|c| {
            c.player == me.player && c.parts.first().map(|p| p.1) == me.parts.first().map(|p| p.1)
        })
        .all(|c| travel(c) >= travel(me));
    if shortest { "O-O" } else { "O-O-O" }.to_string()
}

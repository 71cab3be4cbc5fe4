//! Pieces and their move patterns.

use super::declare::{Decls, unknown_direction};
use crate::diagnostic::Diagnostic;
use crate::geometry::{Board, Kind};
use crate::model::*;
use crate::syntax::{self, Clause, Destination, Mode, PieceItemKind, Qualifier, Span, Statement};

/// Non-straight steps one move may take at most: such paths branch at every step.
pub const MAX_CROOKED_STEPS: u32 = 4;

/// Paths one move may take from a cell, at most: move generation walks every one, and
/// each leg multiplies them, so a few long straight legs already make millions. They
/// are counted by the states a walk passes through (see `compile::path_count`).
pub const MAX_PATHS: u64 = 1 << 18;

/// Legs one move may join with `then`, at most: walking a move goes one level deeper
/// for every step of every leg, so a move of thousands of legs would exhaust the stack.
pub const MAX_LEGS: usize = 16;

pub(super) fn check_pieces(
    statements: &[Statement],
    board: &Board,
    decls: &Decls,
    zones: &[Zone],
    out: &mut Vec<Diagnostic>,
) -> Vec<Piece> {
    let mut seen: Vec<String> = Vec::new();
    let mut pieces = Vec::new();
    let mut borrowed = Vec::new();
    for s in statements {
        let Statement::Piece(p) = s else { continue };
        let lower = p.name.node.to_lowercase();
        if seen.contains(&lower) {
            continue;
        }
        seen.push(lower);
        let (piece, from) = check_piece(p, board, decls, zones, out);
        borrowed.push(from);
        pieces.push(piece);
    }
    debug_assert_eq!(pieces.len(), decls.piece_count());
    borrow_moves(&mut pieces, &borrowed, out);
    pieces
}

/// Gives every piece the game's moved wall, where the file has one; a piece that
/// already leaves a wall of its own is an error.
pub(super) fn check_moved_wall(
    statements: &[Statement],
    pieces: &mut [Piece],
    out: &mut Vec<Diagnostic>,
) {
    let Some(span) = statements.iter().find_map(|s| match s {
        Statement::MovedWall(s) => Some(s.span),
        _ => None,
    }) else {
        return;
    };
    for piece in pieces {
        if piece.walling.is_empty() {
            piece.walling.push((None, Walling::Moved));
        } else {
            out.push(
                Diagnostic::error(
                    "variantlab::second_wall",
                    span,
                    format!(
                        "{} leaves a wall of its own, and this wall moves after every move",
                        piece.name
                    ),
                )
                .label("the game's wall")
                .help("a move leaves one wall: take the piece's wall rule out, or this statement"),
            );
        }
    }
}

/// A `moves as` item: its guard, and the pieces named with where they were named.
type Borrowed = Vec<(Option<Guard>, PieceId, Span)>;

/// Gives each piece the moves of the pieces it `moves as`, following chains.
fn borrow_moves(pieces: &mut [Piece], borrowed: &[Borrowed], out: &mut Vec<Diagnostic>) {
    /// Adds the moves of every piece `i` moves as, each piece once, following chains;
    /// fails with the span of a `moves as` that leads back along `trail`.
    fn collect(
        i: usize,
        borrowed: &[Borrowed],
        pieces: &[Piece],
        trail: &mut Vec<usize>,
        done: &mut Vec<usize>,
        acc: &mut Vec<Pattern>,
    ) -> Result<(), Span> {
        for (guard, id, span) in &borrowed[i] {
            let j = id.0 as usize;
            if trail.contains(&j) {
                return Err(*span);
            }
            if done.contains(&j) {
                continue;
            }
            done.push(j);
            for m in &pieces[j].moves {
                let mut m = m.clone();
                m.guard = m.guard.or(*guard);
                acc.push(m);
            }
            trail.push(j);
            collect(j, borrowed, pieces, trail, done, acc)?;
            trail.pop();
        }
        Ok(())
    }
    let mut extra = Vec::new();
    for i in 0..pieces.len() {
        let mut acc = Vec::new();
        if let Err(span) = collect(i, borrowed, pieces, &mut vec![i], &mut vec![], &mut acc) {
            out.push(
                Diagnostic::error(
                    "variantlab::moves_as_cycle",
                    span,
                    format!("{} ends up moving as itself", pieces[i].name),
                )
                .label("leads back to the piece")
                .help("`moves as` must not go round in a circle"),
            );
        }
        extra.push(acc);
    }
    for (p, more) in pieces.iter_mut().zip(extra) {
        p.moves.extend(more);
    }
}

fn check_piece(
    p: &syntax::PieceDecl,
    board: &Board,
    decls: &Decls,
    zones: &[Zone],
    out: &mut Vec<Diagnostic>,
) -> (Piece, Borrowed) {
    let mut borrowed = Vec::new();
    let mut at_once = Vec::new();
    let mut piece = Piece {
        name: p.name.node.clone(),
        code: p.code.node.to_ascii_uppercase(),
        moves: vec![],
        captured_only_by: vec![],
        guarded: vec![],
        not_attacked: vec![],
        royal: vec![],
        check_bound: vec![],
        walling: vec![],
        facing: vec![],
        promotion: vec![],
        demotes_to: None,
        no_drop: vec![],
        drawing: None,
        span: p.name.span,
    };
    for item in &p.items {
        let guard = match decls.guard(&item.guard) {
            Ok(g) => g,
            Err(d) => {
                out.push(d);
                None
            }
        };
        match &item.kind {
            PieceItemKind::Move(m) => {
                if let Some(pat) = check_move(m, guard, item.span, board, decls, zones, out) {
                    piece.moves.push(pat);
                }
            }
            PieceItemKind::CapturedOnlyBy(names) => {
                let ids = names
                    .iter()
                    .filter_map(|n| decls.piece(n).map_err(|d| out.push(d)).ok())
                    .collect();
                piece.captured_only_by.push((guard, ids));
            }
            PieceItemKind::GuardedCapture { by, unless } => {
                let ids = |names: &[syntax::Name], out: &mut Vec<Diagnostic>| -> Vec<PieceId> {
                    (names.iter())
                        .filter_map(|n| decls.piece(n).map_err(|d| out.push(d)).ok())
                        .collect()
                };
                let by = ids(by, out);
                let other_than = (!unless.is_empty()).then(|| ids(unless, out));
                piece.guarded.push(crate::model::GuardedCapture {
                    guard,
                    by,
                    other_than,
                });
            }
            PieceItemKind::NotAttacked => piece.not_attacked.push(guard),
            PieceItemKind::Facing(n) => {
                if let Ok(id) = decls.piece(n).map_err(|d| out.push(d)) {
                    piece.facing.push((guard, id));
                }
            }
            PieceItemKind::Royal => piece.royal.push(guard),
            PieceItemKind::CheckBound => piece.check_bound.push(guard),
            PieceItemKind::MovesAs(names) => {
                for n in names {
                    if let Ok(id) = decls.piece(n).map_err(|d| out.push(d)) {
                        borrowed.push((guard, id, n.span));
                    }
                }
            }
            PieceItemKind::NoDrop(rule) => {
                let kind = |n: &syntax::Name, out: &mut Vec<Diagnostic>| {
                    decls.piece(n).map_err(|d| out.push(d)).ok()
                };
                let rule = match rule {
                    syntax::NoDrop::FileWith(n, count) => {
                        let count = match count {
                            Some(c) if c.node == 0 || c.node > 255 => {
                                out.push(
                                    Diagnostic::error(
                                        "variantlab::bad_count",
                                        c.span,
                                        "a count of pieces on a file is from 1 to 255",
                                    )
                                    .label("out of range"),
                                );
                                1
                            }
                            Some(c) => c.node as u8,
                            None => 1,
                        };
                        kind(n, out).map(|k| NoDrop::FileWith(k, count))
                    }
                    syntax::NoDrop::AttackedBy(n) => kind(n, out).map(NoDrop::AttackedBy),
                    syntax::NoDrop::Check => Some(NoDrop::Check),
                    syntax::NoDrop::Checkmate => Some(NoDrop::Checkmate),
                    syntax::NoDrop::InZone(z) => {
                        super::find_zone(zones, z, out).map(NoDrop::InZone)
                    }
                    syntax::NoDrop::OutsideZone(z) => {
                        super::find_zone(zones, z, out).map(NoDrop::OutsideZone)
                    }
                    syntax::NoDrop::Enclosing => Some(NoDrop::Enclosing),
                    syntax::NoDrop::FirstOn(z) => {
                        super::find_zone(zones, z, out).map(NoDrop::FirstOn)
                    }
                };
                if let Some(rule) = rule {
                    piece.no_drop.push((guard, rule));
                }
            }
            PieceItemKind::Walling(w) => {
                let walling = match w {
                    syntax::WallingDecl::Left => Some(Walling::Left),
                    syntax::WallingDecl::Capturing => Some(Walling::Capturing),
                    syntax::WallingDecl::Placed { reach, except } => {
                        let except = except
                            .iter()
                            .filter_map(|c| super::setup::resolve_cell(board, c, out))
                            .collect();
                        match reach {
                            None => Some(Walling::Placed {
                                reach: None,
                                except,
                            }),
                            Some(n) => decls.piece(n).map_err(|d| out.push(d)).ok().map(|k| {
                                Walling::Placed {
                                    reach: Some(k),
                                    except,
                                }
                            }),
                        }
                    }
                };
                if guard.is_none() && piece.walling.iter().any(|(g, _)| g.is_none()) {
                    out.push(
                        Diagnostic::error(
                            "variantlab::second_wall",
                            item.span,
                            format!("{} already says where its moves leave a wall", piece.name),
                        )
                        .label("a second wall rule")
                        .help("a move leaves one wall: keep one of the rules, or guard them with opposite options"),
                    );
                } else if let Some(w) = walling {
                    piece.walling.push((guard, w));
                }
            }
            // Resolved with the file's own `pieces drawn as`, in `drawing`.
            PieceItemKind::Drawn(_) => {}
            PieceItemKind::Promotion(pr) => {
                let Some(zone) = super::find_zone(zones, &pr.zone, out) else {
                    continue;
                };
                let to: Vec<PieceId> = pr
                    .to
                    .iter()
                    .filter_map(|n| decls.piece(n).map_err(|d| out.push(d)).ok())
                    .collect();
                let player = match &pr.player {
                    Some(n) => match decls.player(n) {
                        Ok(id) => Some(id),
                        Err(d) => {
                            out.push(d);
                            continue;
                        }
                    },
                    None => None,
                };
                let mut most = vec![];
                for (n, kind) in &pr.most {
                    let Ok(k) = decls.piece(kind).map_err(|d| out.push(d)) else {
                        continue;
                    };
                    // A misspelt kind is reported already: the limit may name it rightly.
                    if !pr.to.is_empty() && to.len() == pr.to.len() && !to.contains(&k) {
                        out.push(
                            Diagnostic::error(
                                "variantlab::limit_not_a_choice",
                                kind.span,
                                format!(
                                    "`{}` is not one of the kinds this promotion makes",
                                    kind.node
                                ),
                            )
                            .label("not after `to`")
                            .help("name the kind after `to`, or drop the limit"),
                        );
                        continue;
                    }
                    most.push((k, n.node));
                }
                if let Some(at) = pr.at_once.as_ref().map(|a| a.span) {
                    if pr.optional
                        || pr.to.len() != 1
                        || pr.when & syntax::promote_when::STANDING != 0
                    {
                        out.push(bad_jump(
                            at,
                            "a promotion made at once in a chain is forced, to one kind, on a move",
                            "say `promotes on entering ZONE to KIND, at once`",
                        ));
                    }
                    at_once.push(at);
                }
                let promotion = Promotion {
                    guard,
                    player,
                    optional: pr.optional,
                    lost_only: pr.lost_only,
                    most,
                    forced_if_stuck: pr.forced_if_stuck,
                    at_once: pr.at_once.is_some(),
                    alone: pr.alone,
                    quiet: pr.quiet,
                    when: super::trigger(pr.when),
                    zone,
                    to,
                };
                // Several statements for one player add ways to promote; what a
                // promotion offers must not depend on which of them applies.
                // A statement for a player stands before those for every player.
                let earlier = piece
                    .promotion
                    .iter()
                    .find(|q| q.player == player && !opposite_guards(q.guard, guard));
                if let Some(q) = earlier
                    && (!q.offers_as(&promotion) || q.when.standing || promotion.when.standing)
                {
                    out.push(
                        Diagnostic::error(
                            "variantlab::promotions_disagree",
                            item.span,
                            format!(
                                "{} already promotes by an earlier statement that offers something else",
                                piece.name
                            ),
                        )
                        .label("a second promotion, offering otherwise")
                        .help("several promotion statements for a piece add ways to promote, and must offer the same kinds with the same words after `to` (a promotion `on standing in` must be the piece's only one); or say `for PLAYER`, or guard them with opposite options"),
                    );
                    continue;
                }
                piece.promotion.push(promotion);
            }
        }
    }
    if !piece.moves.iter().any(|m| m.again) {
        for at in at_once {
            out.push(bad_jump(
                at,
                "a promotion at once is made in the middle of a chain, and this piece makes none",
                "give the piece a move that goes on: `..., capturing the piece jumped, again while it can`",
            ));
        }
    }
    if let Some(base) = p.code.node.strip_prefix('+') {
        match decls.piece_by_code(base) {
            Some(id) => piece.demotes_to = Some(id),
            None => out.push(
                Diagnostic::error(
                    "variantlab::unknown_code",
                    p.code.span,
                    format!("no piece has the code `{base}`"),
                )
                .label("the promoted form of an unknown piece")
                .help("`+X` names the promoted form of the piece coded `X`"),
            ),
        }
    }
    if p.items
        .iter()
        .all(|i| !matches!(i.kind, PieceItemKind::Move(_) | PieceItemKind::MovesAs(_)))
        // A piece with drop rules is one to place, like a stone, and may never move.
        && !p.items.iter().any(|i| matches!(i.kind, PieceItemKind::NoDrop(_)))
    {
        out.push(
            Diagnostic::warning(
                "variantlab::immobile_piece",
                p.name.span,
                format!("{} has no move", p.name.node),
            )
            .label("this piece can never move")
            .help("add a move such as `step 1 any`"),
        );
    }
    (piece, borrowed)
}

fn check_move(
    m: &syntax::MoveDecl,
    guard: Option<Guard>,
    span: Span,
    board: &Board,
    decls: &Decls,
    zones: &[Zone],
    out: &mut Vec<Diagnostic>,
) -> Option<Pattern> {
    if let Some(extra) = m.legs.get(MAX_LEGS) {
        let last = m.legs.last().map_or(extra.span, |l| l.span);
        out.push(
            Diagnostic::error(
                "variantlab::too_many_legs",
                Span::new(extra.span.start, last.end),
                format!(
                    "this move joins {} legs; at most {MAX_LEGS} are supported",
                    m.legs.len()
                ),
            )
            .label(format!("legs past the {MAX_LEGS}th"))
            .help("split the move into several moves, or use counts such as `step 2 to 5`"),
        );
        return None;
    }
    let before = out.len();
    let mut no_forward_reported = false;
    let mut legs = Vec::new();
    let mut mode = Mode::Step;
    let mut crooked = 0u32;
    for (i, l) in m.legs.iter().enumerate() {
        if let Some(md) = &l.mode {
            mode = md.node;
        }
        let default_count = if mode == Mode::Slide {
            Count(1, None)
        } else {
            Count(1, Some(1))
        };
        let (min, max) = l
            .count
            .as_ref()
            .map_or((default_count.0, default_count.1), |c| {
                (c.node.min, c.node.max)
            });
        let direct = l.direct || mode == Mode::Slide;
        let count_span = l.count.as_ref().map_or(l.span, |c| c.span);
        if max.is_some_and(|mx| mx < min) {
            out.push(
                Diagnostic::error(
                    "variantlab::bad_count",
                    count_span,
                    "the largest count is below the smallest",
                )
                .label("empty range"),
            );
        }
        if max == Some(0) {
            out.push(
                Diagnostic::error(
                    "variantlab::bad_count",
                    count_span,
                    "a leg of zero steps goes nowhere",
                )
                .label("zero")
                .help("remove the leg, or count from 1"),
            );
        }
        if !direct {
            match max {
                None => out.push(
                    Diagnostic::error(
                        "variantlab::unbounded_path",
                        count_span,
                        "a winding leg needs a largest count",
                    )
                    .label("no limit")
                    .help(
                        "add `direct` to go in a straight line, or give a count such as `up to 3`",
                    ),
                ),
                Some(mx) => crooked = crooked.saturating_add(mx),
            }
        }
        let directions = check_directions(
            &l.directions,
            board,
            decls,
            i == 0,
            &mut no_forward_reported,
            out,
        );
        legs.push(Leg {
            leap: mode == Mode::Leap,
            min,
            max,
            direct,
            directions,
        });
    }
    if crooked > MAX_CROOKED_STEPS {
        out.push(
            Diagnostic::error("variantlab::path_too_long", span, format!("this move winds through {crooked} steps; at most {MAX_CROOKED_STEPS} are supported"))
                .label("too many turning steps")
                .help("use `direct` legs for long straight moves"),
        );
    }
    let mut pat = Pattern {
        guard,
        legs,
        dest: Dest::Either,
        target: None,
        end_not_adjacent: vec![],
        trail: None,
        never_reversing: false,
        tag: None,
        initial: None,
        en_passant: vec![],
        equal_legs: false,
        repeated: false,
        again: false,
        never_turning_back: false,
        to_start: false,
        hurdle: None,
        within: None,
        outside: None,
        copy: false,
        nearby: None,
        span,
    };
    let mut behind: Option<Span> = None;
    let mut jump_capture: Option<Span> = None;
    let mut jump_at_once = false;
    let mut again: Option<Span> = None;
    let mut nearby_at: Option<Span> = None;
    let mut dest_seen: Option<Span> = None;
    for c in &m.clauses {
        match &c.node {
            Clause::Destination(d) => {
                if dest_seen.is_some() {
                    out.push(duplicate_clause(
                        c.span,
                        "the destination is already given",
                        "keep one `to ...` clause",
                    ));
                }
                dest_seen = Some(c.span);
                match d {
                    Destination::Empty => pat.dest = Dest::Empty,
                    // The start is empty once the piece has left it.
                    Destination::Start => {
                        pat.dest = Dest::Empty;
                        pat.to_start = true;
                    }
                    Destination::Enemy(kind) => {
                        pat.dest = Dest::Enemy;
                        if let Some(k) = kind {
                            match decls.piece(k) {
                                Ok(id) => pat.target = Some(id),
                                Err(d) => out.push(d),
                            }
                        }
                    }
                }
            }
            Clause::Tagged(mark) => {
                if pat.tag.is_some() {
                    out.push(duplicate_clause(
                        c.span,
                        "the move is already tagged",
                        "keep one `tagged` clause",
                    ));
                }
                match decls.tag(mark) {
                    Ok(t) => pat.tag = Some(t),
                    Err(d) => out.push(d),
                }
            }
            Clause::EndNotAdjacent(diag) => {
                if pat.end_not_adjacent.contains(&kind(*diag)) {
                    out.push(duplicate_clause(
                        c.span,
                        "the end's distance from the start is already given",
                        "keep one `end not adjacent to start` clause of each kind",
                    ));
                }
                pat.end_not_adjacent.push(kind(*diag))
            }
            Clause::TrailAdjacent(diag) => {
                if pat.trail.is_some() {
                    out.push(duplicate_clause(
                        c.span,
                        "the trail condition is already given",
                        "keep one `each new cell ...` clause",
                    ));
                }
                pat.trail = Some(kind(*diag))
            }
            Clause::NeverReversing => {
                if pat.never_reversing {
                    out.push(duplicate_clause(
                        c.span,
                        "`never reversing` is already given",
                        "keep one `never reversing` clause",
                    ));
                }
                pat.never_reversing = true
            }
            Clause::From { .. } | Clause::FromZone(_) => {
                pat.initial = initial(&c.node, board, zones, out);
            }
            Clause::NotFrom(inner) => {
                pat.initial = initial(inner, board, zones, out).map(|i| Initial::Not(Box::new(i)));
            }
            Clause::EnPassant(names) => {
                pat.en_passant = names
                    .iter()
                    .filter_map(|n| decls.piece(n).map_err(|d| out.push(d)).ok())
                    .collect()
            }
            Clause::EqualLegs => pat.equal_legs = true,
            Clause::Repeated => pat.repeated = true,
            Clause::Within(name) => pat.within = super::find_zone(zones, name, out),
            Clause::Outside(name, passing) => {
                if pat.outside.is_some() {
                    out.push(duplicate_clause(
                        c.span,
                        "the move already keeps outside a zone",
                        "keep one `outside` clause; a zone holding every cell to avoid can name them all",
                    ));
                }
                pat.outside = super::find_zone(zones, name, out).map(|z| (z, *passing))
            }
            Clause::Copy => pat.copy = true,
            Clause::CapturingJumped { at_once } => {
                jump_capture = Some(c.span);
                jump_at_once = *at_once;
            }
            Clause::Again { turning_back } => {
                again = Some(c.span);
                pat.never_turning_back = *turning_back;
            }
            Clause::Over {
                count,
                side,
                except,
            } => {
                if count.node == 0 {
                    out.push(bad_hurdle(
                        count.span,
                        "a move over no piece is an ordinary move",
                        "count 1 or more, or leave the clause out",
                    ));
                }
                pat.hurdle = Some(Hurdle {
                    count: count.node,
                    except: except
                        .iter()
                        .filter_map(|n| decls.piece(n).map_err(|d| out.push(d)).ok())
                        .collect(),
                    right_behind: false,
                    side: match side {
                        syntax::Holder::Enemy => Holder::Enemy,
                        syntax::Holder::Friend => Holder::Friend,
                        syntax::Holder::Piece => Holder::Piece,
                    },
                    captures: false,
                    at_once: false,
                });
            }
            Clause::RightBehind => behind = Some(c.span),
            Clause::Nearby {
                present,
                holder,
                steps,
                directions,
            } => {
                if nearby_at.is_some() {
                    out.push(duplicate_clause(
                        c.span,
                        "the move already has a condition on nearby cells",
                        "keep one `unless ...` or `only if ...` clause",
                    ));
                }
                nearby_at = Some(c.span);
                if steps.node == 0 {
                    out.push(
                        Diagnostic::error(
                            "variantlab::bad_count",
                            steps.span,
                            "zero steps from the start is the start itself",
                        )
                        .label("zero")
                        .help("count from 1: `1 step forward`"),
                    );
                }
                let directions = check_directions(
                    directions,
                    board,
                    decls,
                    true,
                    &mut no_forward_reported,
                    out,
                );
                pat.nearby = Some(Nearby {
                    present: *present,
                    holder: match holder {
                        syntax::Holder::Enemy => Holder::Enemy,
                        syntax::Holder::Friend => Holder::Friend,
                        syntax::Holder::Piece => Holder::Piece,
                    },
                    steps: steps.node,
                    directions,
                });
            }
        }
    }
    if let Some(at) = nearby_at
        && pat.dest != Dest::Empty
    {
        out.push(
            Diagnostic::error(
                "variantlab::nearby_capture",
                at,
                "a condition on nearby cells needs a move that never captures",
            )
            .label("on a move that may capture")
            .help("add `to empty` to the move; a capture elsewhere is another move"),
        );
    }
    if let Some(at) = jump_capture {
        match &mut pat.hurdle {
            Some(h) if h.side != Holder::Friend => {
                h.captures = true;
                h.at_once = jump_at_once;
                // Lands on an empty cell, or with `to enemy` captures there too.
                if pat.dest != Dest::Enemy {
                    pat.dest = Dest::Empty;
                }
            }
            Some(_) => out.push(bad_jump(
                at,
                "a move over friends cannot capture them",
                "jump enemies: `over 1 enemy`",
            )),
            None => out.push(bad_jump(
                at,
                "`capturing the piece jumped` needs a move over pieces",
                "say which pieces it jumps: `over 1 enemy`",
            )),
        }
    }
    if let Some(at) = jump_capture
        && jump_at_once
        && again.is_none()
    {
        out.push(bad_jump(
            at,
            "pieces taken `at once` leave the board in the middle of a chain, and this move makes none",
            "add `again while it can`, or leave out `at once`",
        ));
    }
    if let Some(at) = again {
        if pat.hurdle.as_ref().is_some_and(|h| h.captures) {
            pat.again = true;
        } else {
            out.push(bad_jump(
                at,
                "only a move capturing the pieces it jumps goes on `again`",
                "add `over 1 enemy, capturing the piece jumped` to the move",
            ));
        }
    }
    if let Some(at) = behind {
        match &mut pat.hurdle {
            Some(h) if h.count == 1 => h.right_behind = true,
            _ => out.push(bad_hurdle(
                at,
                "`landing right behind` needs the move to jump exactly one piece",
                "add `over 1 piece` to the move",
            )),
        }
    }
    (out.len() == before || !out[before..].iter().any(Diagnostic::is_error)).then_some(pat)
}

struct Count(u32, Option<u32>);

/// The cells a `from` clause allows.
fn initial(
    c: &Clause,
    board: &Board,
    zones: &[Zone],
    out: &mut Vec<Diagnostic>,
) -> Option<Initial> {
    match c {
        Clause::From { start, cells } => {
            let cells = cells
                .iter()
                .filter_map(|c| super::setup::resolve_cell(board, c, out))
                .collect();
            Some(if *start {
                Initial::StartExcept(cells)
            } else {
                Initial::Cells(cells)
            })
        }
        Clause::FromZone(name) => super::find_zone(zones, name, out).map(Initial::Zone),
        _ => None,
    }
}

fn bad_jump(span: Span, message: &str, help: &str) -> Diagnostic {
    Diagnostic::error("variantlab::bad_jump", span, message)
        .label("cannot capture so")
        .help(help)
}

fn bad_hurdle(span: Span, message: &str, help: &str) -> Diagnostic {
    Diagnostic::error("variantlab::bad_hurdle", span, message)
        .label("no hurdle to jump")
        .help(help)
}

pub(super) fn duplicate_clause(span: Span, message: &str, help: &str) -> Diagnostic {
    Diagnostic::error("variantlab::duplicate_clause", span, message)
        .label("said twice")
        .help(help)
}

fn kind(diagonal: bool) -> Kind {
    if diagonal {
        Kind::Diagonal
    } else {
        Kind::Orthogonal
    }
}

fn check_directions(
    d: &syntax::Spanned<syntax::DirectionsDecl>,
    board: &Board,
    decls: &Decls,
    first_leg: bool,
    reported: &mut bool,
    out: &mut Vec<Diagnostic>,
) -> DirExpr {
    let mut terms = |list: &[syntax::Spanned<syntax::DirTerm>]| -> Vec<DirTerm> {
        list.iter()
            .filter_map(|t| {
                for q in &t.node.qualifiers {
                    if q.node == Qualifier::Outward && first_leg {
                        out.push(
                            Diagnostic::error("variantlab::outward_first", q.span, "`outward` needs a leg before it")
                                .label("nothing to turn from")
                                .help("`outward` turns away from the previous leg's last step; use it after `then`"),
                        );
                        return None;
                    }
                    if q.node != Qualifier::Outward && !decls.lacking_forward.is_empty() {
                        // Once per leg's directions: one missing statement, one report.
                        if !*reported {
                            let names = decls.lacking_forward.join(" and ");
                            out.push(
                                Diagnostic::error("variantlab::no_forward", q.span, format!("this direction is relative to forward, but {names} has no forward direction"))
                                    .label("relative to forward")
                                    .help(format!("add `forward <direction>` to {names}")),
                            );
                            *reported = true;
                        }
                        return None;
                    }
                }
                let base = match &t.node.base {
                    syntax::DirBase::Orthogonal => DirBase::Kind(Kind::Orthogonal),
                    syntax::DirBase::Diagonal => DirBase::Kind(Kind::Diagonal),
                    syntax::DirBase::Any => DirBase::Any,
                    syntax::DirBase::Compass(n) => match board.parse_direction(&n.node) {
                        Some(dir) => DirBase::Compass(dir),
                        None => {
                            out.push(unknown_direction(board, n));
                            return None;
                        }
                    },
                };
                Some(DirTerm { qualifiers: t.node.qualifiers.iter().map(|q| q.node.into()).collect(), base })
            })
            .collect()
    };
    let include = terms(&d.node.include);
    let except = terms(&d.node.except);
    DirExpr { include, except }
}

/// Whether two guards can never hold together: `if X` and `unless X`.
fn opposite_guards(a: Option<Guard>, b: Option<Guard>) -> bool {
    matches!((a, b), (Some(a), Some(b)) if a.option == b.option && a.when != b.when)
}

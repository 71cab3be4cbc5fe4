//! Checking: syntax tree to a resolved [`Variant`], collecting every problem.
//!
//! Each check is a small function returning what it resolved and pushing its
//! diagnostics; one mistake never hides the next.

// Lookups return a whole diagnostic on failure; it is built only when a file is wrong.
#![allow(clippy::result_large_err)]

mod board;
mod castling;
mod declare;
mod drawing;
mod end;
mod pattern;
mod reach;
mod setup;
mod special;
mod walk;

pub use walk::{Reach, destinations, minimal};

use crate::diagnostic::{Diagnostic, Report};
use crate::model::*;
use crate::syntax::{self, Name, Span, Statement};

/// The outcome of checking a file: the variant when there is no error, and the report
/// (warnings only, when the variant is there).
pub struct Checked {
    pub variant: Option<Variant>,
    pub report: Report,
}

/// Parses and checks a variant file's text. `name` labels the file in diagnostics.
pub fn check(name: &str, text: &str) -> Checked {
    let (file, mut diagnostics) = syntax::parse(text);
    let variant = if diagnostics.len() > syntax::MAX_SYNTAX_ERRORS {
        None
    } else if diagnostics.iter().any(Diagnostic::is_error) {
        // Check what parsed too; keep only the mistakes the skipped text cannot explain.
        let mut found = Vec::new();
        check_file(&file, name, false, &mut found);
        diagnostics.extend(
            found
                .into_iter()
                .filter(|d| stands_alone(d, text, &file.skipped)),
        );
        None
    } else {
        check_file(&file, name, true, &mut diagnostics)
    };
    diagnostics.extend(not_text(text));
    words_meant(text, &mut diagnostics);
    let report = Report::new(name, text, diagnostics);
    let variant = if report.has_errors() { None } else { variant };
    Checked { variant, report }
}

/// Unknown names looked for among the grammar's words at most, each costing a parse of
/// its statement: a file with thousands of them stays quick to check.
const MAX_WORDS_MEANT: usize = 32;

/// An unknown name may be a misspelt word of the language that fits where it stands
/// (`forwards` for `forward`): suggests that word when it is closer than any name.
fn words_meant(text: &str, diagnostics: &mut [Diagnostic]) {
    for d in diagnostics
        .iter_mut()
        .filter(|d| d.code.starts_with("variantlab::unknown_"))
        .take(MAX_WORDS_MEANT)
    {
        let Some(word) = text.get(d.span.start..d.span.end) else {
            continue;
        };
        let Some((edits, meant)) = syntax::word_meant(text, d.span) else {
            continue;
        };
        let named = d.meant.as_ref().and_then(|m| {
            crate::suggest::distance(&m.to_lowercase(), &word.to_lowercase(), usize::MAX)
        });
        if named.is_none_or(|n| edits < n) {
            *d = d.clone().meant(meant);
        }
    }
}

/// The most runs of bytes that are not text one file reports.
const MAX_NOT_TEXT: usize = 10;

/// An error for each run of U+FFFD: bytes that were not UTF-8 text when the file was
/// read (see [`crate::load::read_variant_text`]), wherever they stand, strings and
/// comments included.
fn not_text(text: &str) -> Vec<Diagnostic> {
    let mut runs: Vec<Span> = Vec::new();
    for (i, ch) in text.char_indices().filter(|(_, c)| *c == '\u{FFFD}') {
        let end = i + ch.len_utf8();
        if let Some(r) = runs.last_mut().filter(|r| r.end == i) {
            r.end = end;
        } else if runs.len() == MAX_NOT_TEXT {
            break;
        } else {
            runs.push(Span::new(i, end));
        }
    }
    runs.into_iter()
        .map(|span| {
            Diagnostic::error(
                "variantlab::not_text",
                span,
                "bytes here are not UTF-8 text",
            )
            .label("read as U+FFFD")
            .help("save the file as UTF-8, or write the character again")
        })
        .collect()
}

/// Codes that say the file lacks a statement, with a word that statement holds.
const NEEDS_STATEMENT: &[(&str, &str)] = &[
    ("variantlab::no_count", "counting"),
    ("variantlab::no_points", "worth"),
    ("variantlab::no_castling", "castling"),
];

/// Whether a diagnostic found beside syntax errors is a mistake of its own: an error,
/// not about something missing from the whole file, and not about a name that the
/// text skipped after a syntax error may declare or place.
fn stands_alone(d: &Diagnostic, text: &str, skipped: &[Span]) -> bool {
    if !d.is_error() || d.span.start == d.span.end {
        return false;
    }
    let skipped_has = |word: &str| {
        skipped
            .iter()
            .any(|s| text.get(s.start..s.end).is_some_and(|t| t.contains(word)))
    };
    // A rule that needs a statement the skipped text may hold.
    if let Some((_, word)) = NEEDS_STATEMENT.iter().find(|(code, _)| *code == d.code) {
        return !skipped_has(word);
    }
    // A piece the skipped text may place.
    let placed_later = d.code == "variantlab::missing_deciding_piece";
    if !d.code.starts_with("variantlab::unknown_") && !placed_later {
        return true;
    }
    // `+P` names the promoted form of the piece coded `P`, which skipped text may declare.
    let name = text.get(d.span.start..d.span.end).unwrap_or("");
    let lower = name.trim_start_matches('+').to_ascii_lowercase();
    !skipped.iter().any(|s| {
        text.get(s.start..s.end)
            .is_some_and(|t| t.to_ascii_lowercase().contains(&lower))
    })
}

/// Resolves a parsed file, pushing every diagnostic; `None` when a name or the board
/// could not be resolved. `whole`: the file parsed without error, so its moves are
/// worked out too. `path` is the file's, beside which picture files are looked for.
fn check_file(
    file: &syntax::File,
    path: &str,
    whole: bool,
    out: &mut Vec<Diagnostic>,
) -> Option<Variant> {
    check_repeats(&file.statements, out);
    let board = board::check_board(&file.statements, out);
    let meta = |pick: fn(&Statement) -> Option<&Name>| file.statements.iter().find_map(pick);
    let name = meta(|s| {
        if let Statement::Name(n) = s {
            Some(n)
        } else {
            None
        }
    });
    if name.is_none() {
        out.push(
            Diagnostic::warning(
                "variantlab::missing_name",
                Span::new(0, 0),
                "the variant has no name",
            )
            .help("add a line such as `name \"My Chess\"`"),
        );
    }
    let decls = declare::check_declarations(&file.statements, board.as_ref(), out);
    let board = board?;
    let zones = special::check_zones(&file.statements, &board, &decls, out);
    let mut pieces = pattern::check_pieces(&file.statements, &board, &decls, &zones, out);
    pattern::check_moved_wall(&file.statements, &mut pieces, out);
    let drawing = drawing::check_drawing(
        &file.statements,
        path,
        decls.players.len(),
        &mut pieces,
        out,
    );
    let setup = setup::check_setup(&file.statements, &board, &decls, out);
    let start_hands = setup::check_start_hands(&file.statements, &decls, out);
    let mut random = special::check_random(&file.statements, &board, &decls, &setup, out);
    let castlings = castling::check_castlings(&file.statements, &board, &decls, &pieces, out);
    let mut all_placed = setup.clone();
    for pool in random.iter().flat_map(|r| &r.pools) {
        let Some(&cell) = pool.cells.first() else {
            continue;
        };
        all_placed.extend(pool.pieces.iter().map(|&piece| Placed {
            cell,
            player: pool.player,
            piece,
        }));
    }
    // A setup naming an unknown piece or player (reported already) may lack pieces it
    // was meant to place; rules about the start position keep quiet about its players.
    let unsure = setup::unsure_players(&file.statements, &decls);
    let end_rules = end::check_end(&file.statements, &decls, &zones, &all_placed, &unsure, out);
    let redraws = end::check_redraws(&file.statements, &decls, &zones, &all_placed, &unsure, out);
    if let Some(r) = random.as_mut() {
        r.redraw = redraws;
    }
    let points = end::check_points(&file.statements, &decls, out);
    let counts = end::check_counting(&file.statements, &decls, &zones, &all_placed, &unsure, out);
    let drops = check_drops(&file.statements, &decls, !castlings.is_empty(), out);
    let gates = check_gates(&file.statements, &zones, out);
    let hands = !start_hands.is_empty()
        || file
            .statements
            .iter()
            .any(|s| matches!(s, Statement::Hand(_)));
    if !hands {
        check_handless(&file.statements, out);
    }
    let enclosure = check_enclosure(&file.statements, &decls, &zones, &board, out);
    let variant = Variant {
        name: name.map(|n| n.node.clone()).unwrap_or_default(),
        inventor: meta(|s| {
            if let Statement::Inventor(n) = s {
                Some(n)
            } else {
                None
            }
        })
        .map(|n| n.node.clone()),
        description: meta(|s| {
            if let Statement::Description(n) = s {
                Some(n)
            } else {
                None
            }
        })
        .map(|n| n.node.trim().to_string()),
        board,
        players: decls.players.clone(),
        options: decls.options.clone(),
        tags: decls.tags.clone(),
        pieces,
        setup,
        random,
        end_rules,
        zones,
        castlings,
        hand: file.statements.iter().find_map(|s| match s {
            Statement::Hand(h) => Some(Hand {
                mobile_only: h.node.mobile_only,
                keep_promoted: h.node.keep_promoted,
                either_side: h.node.either_side,
            }),
            _ => None,
        }),
        fen_fields: file
            .statements
            .iter()
            .any(|s| matches!(s, Statement::Fen(_))),
        sfen: file
            .statements
            .iter()
            .any(|s| matches!(s, Statement::Sfen(_))),
        pdn: file
            .statements
            .iter()
            .any(|s| matches!(s, Statement::Pdn(_))),
        pass: file.statements.iter().find_map(|s| match s {
            Statement::Pass(p, _) => Some(p.node),
            _ => None,
        }),
        pass_if_stuck: file
            .statements
            .iter()
            .any(|s| matches!(s, Statement::Pass(_, true))),
        enclosure,
        obligations: check_obligations(&file.statements, &decls, out),
        drops,
        gates,
        explosion: check_explosion(&file.statements, &decls, out),
        counterstrike: check_counterstrike(&file.statements, &decls, out),
        royal_check: file
            .statements
            .iter()
            .find_map(|s| match s {
                Statement::Royals(r) => Some(match r.node {
                    syntax::RoyalCheck::Together => crate::model::RoyalCheck::Together,
                    syntax::RoyalCheck::Alone => crate::model::RoyalCheck::Alone,
                }),
                _ => None,
            })
            .unwrap_or_default(),
        clock_kinds: file
            .statements
            .iter()
            .filter_map(|s| match s {
                Statement::Clock(c, _) => Some(&c.node),
                _ => None,
            })
            .flatten()
            .filter_map(|(k, _)| decls.piece(k).map_err(|d| out.push(d)).ok())
            .fold(0, |m, k| m | 1 << k.0),
        forward_moves: end::forward_moves(&file.statements, &decls),
        clock_drops: file
            .statements
            .iter()
            .any(|s| matches!(s, Statement::Clock(_, true))),
        start_hands,
        drawing,
        points,
        counts,
    };
    if out.iter().any(Diagnostic::is_error) {
        return None;
    }
    check_once_pairs(&variant, out);
    check_demotions(&file.statements, &decls, &variant, out);
    end::check_checkmate_royal(&file.statements, &variant, out);
    check_royal_enclosure(&file.statements, &variant, out);
    check_royal_jumps(&variant, out);
    // Beside syntax errors, the moves are not worked out: the file is not usable yet.
    if whole {
        end::check_undecided(&file.statements, &variant, out);
        reach::check_reach(&variant, out);
    }
    Some(variant)
}

/// The `drops ...` statements, their kinds looked up.
fn check_drops(
    statements: &[Statement],
    decls: &declare::Decls,
    castles: bool,
    out: &mut Vec<Diagnostic>,
) -> DropRules {
    let mut rules = DropRules::default();
    let mut seen: Vec<std::mem::Discriminant<syntax::DropsDecl>> = Vec::new();
    for s in statements {
        let Statement::Drops(d) = s else { continue };
        let form = std::mem::discriminant(&d.node);
        if seen.contains(&form) {
            out.push(
                Diagnostic::warning(
                    "variantlab::duplicate_statement",
                    d.span,
                    "this `drops` rule is written a second time",
                )
                .label("already said")
                .help("keep one of the two lines"),
            );
        }
        seen.push(form);
        match &d.node {
            syntax::DropsDecl::Colours(kinds) => {
                for k in kinds {
                    match decls.piece(k) {
                        Ok(p) => rules.spread |= 1 << p.0,
                        Err(e) => out.push(e),
                    }
                }
            }
            syntax::DropsDecl::Castling if !castles => out.push(
                Diagnostic::error(
                    "variantlab::no_castling",
                    d.span,
                    "drops give castling rights, but the game has no castling",
                )
                .label("no castling to give")
                .help("add a `castling` statement, or remove this line"),
            ),
            syntax::DropsDecl::Castling => rules.castling = true,
        }
    }
    rules
}

/// Warns of rules on pieces in hand in a game where no player ever holds one.
fn check_handless(statements: &[Statement], out: &mut Vec<Diagnostic>) {
    for s in statements {
        let span = match s {
            Statement::Drops(d) => d.span,
            Statement::Obligation(o) if o.node.rule.kind == crate::model::MoveKind::Drop => o.span,
            Statement::Gates(z, _) => z.span,
            _ => continue,
        };
        out.push(
            Diagnostic::warning(
                "variantlab::no_hand",
                span,
                "this rule is about pieces in hand, but no player ever holds one",
            )
            .label("never applies")
            .help("give the players pieces in hand in `setup` (`KIND in hand`), or send captured pieces to hand"),
        );
    }
}

/// The most gates a game may have, over all players: one bit each.
pub const MAX_GATES: usize = 64;

/// The zone of `pieces in hand enter through gates on ZONE`, whose cells, over all
/// players, must fit the runtime's bits.
fn check_gates(
    statements: &[Statement],
    zones: &[Zone],
    out: &mut Vec<Diagnostic>,
) -> Option<Gates> {
    let (name, only) = statements.iter().find_map(|s| match s {
        Statement::Gates(z, only) => Some((z, *only)),
        _ => None,
    })?;
    let z = find_zone(zones, name, out)?;
    let n: usize = zones[z].cells.iter().map(Vec::len).sum();
    if n > MAX_GATES {
        out.push(
            Diagnostic::error(
                "variantlab::too_many",
                name.span,
                format!(
                    "this zone has {n} cells over all players; at most {MAX_GATES} may be gates"
                ),
            )
            .label("too many gates")
            .help("name a zone of fewer cells, such as each player's first rank"),
        );
        return None;
    }
    Some(Gates { zone: z, only })
}

/// The kinds `captures explode` spares, looked up.
/// `enclosed enemy pieces are captured, ...`: the statement with its names resolved; a
/// clause given twice is a `duplicate_clause`.
fn check_enclosure(
    statements: &[Statement],
    decls: &declare::Decls,
    zones: &[Zone],
    board: &crate::geometry::Board,
    out: &mut Vec<Diagnostic>,
) -> Option<Enclosure> {
    let (f, span) = statements.iter().find_map(|s| match s {
        Statement::Flip(f) => Some((&f.node, f.span)),
        _ => None,
    })?;
    let mut e = Enclosure {
        which: match f.which {
            syntax::Flip::Enclosed => Flip::Enclosed,
            syntax::Flip::Next => Flip::Next,
        },
        captures: f.captured,
        lines: None,
        single: false,
        hostile: None,
        every_side: None,
        edge_rows: false,
    };
    let mut seen = [false; 4];
    for c in &f.clauses {
        let (i, what) = match &c.node {
            syntax::EnclosureClause::Lines(..) => (0, "the lines"),
            syntax::EnclosureClause::Hostile(_) => (1, "the cells that enclose"),
            syntax::EnclosureClause::EverySide(..) => (2, "the kinds enclosed on every side"),
            syntax::EnclosureClause::EdgeRows => (3, "rows along the edge"),
        };
        if std::mem::replace(&mut seen[i], true) {
            out.push(pattern::duplicate_clause(
                c.span,
                &format!("{what} are already given"),
                "keep one clause of each kind, naming everything in it",
            ));
        }
        match &c.node {
            syntax::EnclosureClause::Lines(kind, single) => {
                e.lines = *kind;
                e.single = *single;
            }
            syntax::EnclosureClause::Hostile(z) => e.hostile = find_zone(zones, z, out),
            syntax::EnclosureClause::EverySide(kinds, zone) => {
                let kinds = end::resolve_kinds(kinds, decls, out);
                let zone = zone.as_ref().and_then(|z| find_zone(zones, z, out));
                e.every_side = Some((kinds, zone));
            }
            syntax::EnclosureClause::EdgeRows => e.edge_rows = true,
        }
    }
    // What a move captures must fit what taking it back keeps: 24 pieces.
    if e.captures && (!e.single || e.edge_rows) && e.which == Flip::Enclosed {
        let dirs = board.directions_of_lines(e.lines);
        let (rays, rows) = (board.rays(dirs), board.edge_rows(dirs));
        let line = |ray: &Vec<_>| if e.single { 1 } else { ray.len() - 1 };
        let row = |fronts: Option<&Vec<_>>| match fronts {
            Some(f) if e.edge_rows => f.len().saturating_sub(1),
            _ => 0,
        };
        let most = (rays.iter().zip(&rows))
            .map(|(r, f)| {
                (r.iter().enumerate())
                    .map(|(i, ray)| line(ray).max(row(f.get(i))))
                    .sum::<usize>()
            })
            .max()
            .unwrap_or(0);
        if most > MOST_ENCLOSED {
            out.push(
                Diagnostic::error(
                    "variantlab::enclosure_limit",
                    span,
                    format!(
                        "on this board one move could capture up to {most} enclosed pieces; at most {MOST_ENCLOSED} can be captured at once"
                    ),
                )
                .help(match e.lines {
                    _ if e.single => "rows along this board's edges are too long to capture at once: leave out `rows along the edge facing enemies too`",
                    None => "capture lines of one piece (`, on lines of one piece`), or lines in fewer directions (`, on orthogonal lines`)",
                    Some(_) => "capture lines of one piece: add `of one piece` after `lines`",
                }),
            );
        }
    }
    Some(e)
}

/// Warns where royal pieces may be captured by enclosure and no end rule is about
/// their capture: check sees only captures where a piece lands, so such a capture
/// would leave the game going on without its royal piece.
fn check_royal_enclosure(statements: &[Statement], variant: &Variant, out: &mut Vec<Diagnostic>) {
    if !variant.enclosure.as_ref().is_some_and(|e| e.captures) {
        return;
    }
    let royal: Vec<PieceId> = (0..variant.pieces.len())
        .map(|i| PieceId(i as u8))
        .filter(|&k| !variant.piece(k).royal.is_empty())
        .collect();
    let ended = variant.end_rules.iter().any(|r| {
        r.condition
            .mentions(&|e| matches!(e, Event::Captured { piece, .. } if royal.contains(piece)))
    });
    if royal.is_empty() || ended {
        return;
    }
    let Some(span) = statements.iter().find_map(|s| match s {
        Statement::Flip(f) => Some(f.span),
        _ => None,
    }) else {
        return;
    };
    out.push(
        Diagnostic::warning(
            "variantlab::enclosed_royal",
            span,
            format!(
                "a royal {} may be captured by enclosure, which check does not see, and no end rule is about its capture",
                variant.piece(royal[0]).name
            ),
        )
        .help(format!(
            "end the game when one is taken (`{} captured: mover wins`)",
            variant.piece(royal[0]).name
        )),
    );
}

/// Refuses captures by jumping in a game with royal pieces: check is judged by where
/// attacks land, and such a capture takes a piece where it does not land.
fn check_royal_jumps(variant: &Variant, out: &mut Vec<Diagnostic>) {
    let Some(royal) = variant.pieces.iter().find(|p| !p.royal.is_empty()) else {
        return;
    };
    for piece in &variant.pieces {
        for m in piece
            .moves
            .iter()
            .filter(|m| m.hurdle.as_ref().is_some_and(|h| h.captures))
        {
            out.push(
                Diagnostic::error(
                    "variantlab::bad_jump",
                    m.span,
                    format!(
                        "a capture of the pieces jumped in a game with a royal piece ({}): check does not see such captures",
                        royal.name
                    ),
                )
                .label("captures where it does not land")
                .help("capture where the move lands (leave out `capturing the piece jumped`), or make no piece royal and end the game on its capture (`King captured: mover wins`)"),
            );
        }
    }
}

/// The most pieces one move may capture by enclosure.
pub const MOST_ENCLOSED: usize = 24;

/// The kinds of the counter-strike rule, as a bit set.
fn check_counterstrike(
    statements: &[Statement],
    decls: &declare::Decls,
    out: &mut Vec<Diagnostic>,
) -> u64 {
    let kinds = statements.iter().filter_map(|s| match s {
        Statement::Counterstrike(k) => Some(&k.node),
        _ => None,
    });
    kinds
        .flatten()
        .filter_map(|k| decls.piece(k).map_err(|d| out.push(d)).ok())
        .fold(0, |m, p| m | 1 << p.0)
}

fn check_explosion(
    statements: &[Statement],
    decls: &declare::Decls,
    out: &mut Vec<Diagnostic>,
) -> Option<Explosion> {
    let spared = statements.iter().find_map(|s| match s {
        Statement::Explode(e) => Some(&e.node),
        _ => None,
    })?;
    let mut explosion = Explosion::default();
    for s in spared {
        for k in &s.kinds {
            match decls.piece(k) {
                Ok(p) if s.around => explosion.spared_around |= 1 << p.0,
                Ok(p) => explosion.spared |= 1 << p.0,
                Err(d) => out.push(d),
            }
        }
    }
    Some(explosion)
}

/// Warns of a kind without a `+` code that several kinds promote to, where captured
/// pieces go to hand unpromoted: a captured one goes to hand as the first kind declared
/// that promotes to it, whichever it promoted from.
fn check_demotions(
    statements: &[Statement],
    decls: &declare::Decls,
    variant: &Variant,
    out: &mut Vec<Diagnostic>,
) {
    if variant.hand.is_none_or(|h| h.keep_promoted) {
        return;
    }
    // (kind promoted to, kind promoting, where it says so), in the file's order.
    let mut promotions: Vec<(PieceId, PieceId, Span)> = Vec::new();
    for s in statements {
        let Statement::Piece(p) = s else { continue };
        let Ok(base) = decls.piece(&p.name) else {
            continue;
        };
        for item in &p.items {
            let syntax::PieceItemKind::Promotion(pr) = &item.kind else {
                continue;
            };
            let kinds: Vec<(PieceId, Span)> = if pr.to.is_empty() {
                (0..variant.pieces.len())
                    .map(|k| PieceId(k as u8))
                    .filter(|&k| k != base && variant.piece(k).royal.is_empty())
                    .map(|k| (k, item.span))
                    .collect()
            } else {
                pr.to
                    .iter()
                    .filter_map(|n| decls.piece(n).ok().map(|k| (k, n.span)))
                    .collect()
            };
            for (k, span) in kinds {
                // A kind with a `+` code goes to hand as its base; turning back is no promotion.
                if variant.piece(k).demotes_to.is_none()
                    && variant.piece(base).demotes_to != Some(k)
                    && !promotions.iter().any(|&(t, b, _)| (t, b) == (k, base))
                {
                    promotions.push((k, base, span));
                }
            }
        }
    }
    for &(kind, base, span) in &promotions {
        let Some(first) = promotions
            .iter()
            .filter(|&&(t, _, _)| t == kind)
            .map(|&(_, b, _)| b)
            .min()
        else {
            continue;
        };
        if first == base {
            continue;
        }
        let (kind, base, first) = (
            variant.piece(kind),
            variant.piece(base),
            variant.piece(first),
        );
        out.push(
            Diagnostic::warning(
                "variantlab::ambiguous_demotion",
                span,
                format!(
                    "a {} promoted to {} goes to hand as a {}",
                    base.name, kind.name, first.name
                ),
            )
            .label(format!("the {} promotes to {} too", first.name, kind.name))
            .help(format!(
                "a captured {kind} goes to hand as the first kind declared that promotes to \
                 it; give the {base}'s promoted kind its own `+` code: declare \
                 `piece Promoted{base} (+{code}) {{ moves as {kind} }}` and promote the {base} \
                 to it",
                kind = kind.name,
                base = base.name,
                code = base.code,
            )),
        );
    }
}

/// (piece, once-per-game tag) pairs the runtime tracks at most: one bit each.
pub const MAX_ONCE_PAIRS: usize = 32;

/// Refuses the move that makes one (piece, once-per-game tag) pair too many, numbering
/// the pairs in the order the runtime does.
fn check_once_pairs(variant: &Variant, out: &mut Vec<Diagnostic>) {
    let mut seen: Vec<(usize, TagId)> = Vec::new();
    for (pi, piece) in variant.pieces.iter().enumerate() {
        for m in &piece.moves {
            let Some(t) = m.tag else { continue };
            if !variant.tag(t).once_per_game || seen.contains(&(pi, t)) {
                continue;
            }
            seen.push((pi, t));
            if seen.len() == MAX_ONCE_PAIRS + 1 {
                out.push(
                    Diagnostic::error(
                        "variantlab::too_many",
                        m.span,
                        format!(
                            "this move makes {} pairs of a piece and a once-per-game tag; at most {MAX_ONCE_PAIRS} are supported",
                            seen.len()
                        ),
                    )
                    .label("one pair too many")
                    .help("share once-per-game tags between fewer pieces"),
                );
            }
        }
    }
}

/// Statements that may appear once: a repeat is an error where the two could
/// disagree about the game (coordinates), a warning otherwise.
fn check_repeats(statements: &[Statement], out: &mut Vec<Diagnostic>) {
    let kinds = [
        ("name", false),
        ("inventor", false),
        ("description", false),
        ("coordinates", true),
        ("pieces", true),
        ("royal", true),
    ];
    for (what, is_error) in kinds {
        // Statements sharing a first word (`pieces drawn`, `pieces are worth`) are
        // repeats only of their own form.
        let same: Vec<&Statement> = statements.iter().filter(|s| s.keyword() == what).collect();
        let spans = same
            .iter()
            .enumerate()
            .filter(|(i, s)| {
                let form = std::mem::discriminant(**s);
                same[..*i]
                    .iter()
                    .any(|f| std::mem::discriminant(*f) == form)
            })
            .filter_map(|(_, s)| s.name_span());
        for span in spans {
            let message = format!("a second `{what}` statement");
            let d = if is_error {
                Diagnostic::error("variantlab::duplicate_statement", span, message)
            } else {
                Diagnostic::warning("variantlab::duplicate_statement", span, message)
            };
            out.push(
                d.label("the first one counts")
                    .help(format!("keep one `{what}` statement")),
            );
        }
    }
    // The two forms of enclosure are one rule of the game: a second would disagree.
    let flips = statements
        .iter()
        .filter(|s| matches!(s, Statement::Flip(_)));
    for span in flips.skip(1).filter_map(|s| s.name_span()) {
        out.push(
            Diagnostic::error(
                "variantlab::duplicate_statement",
                span,
                "a second statement on what a move does to enemy pieces around it",
            )
            .label("the first one counts")
            .help(
                "keep one `... change sides` or `... are captured` statement, with all its clauses",
            ),
        );
    }
}

/// A zone's index by name (any case); when there is none, reports it, naming the
/// zones there are.
fn find_zone(zones: &[Zone], name: &Name, out: &mut Vec<Diagnostic>) -> Option<usize> {
    let known: Vec<String> = zones.iter().map(|z| z.name.clone()).collect();
    lookup("variantlab::unknown_zone", "zone", &known, name)
        .map_err(|d| out.push(d))
        .ok()
}

/// Looks a name up in a list, case-insensitively; on failure, a diagnostic that says
/// what exists and suggests the closest name.
pub(crate) fn lookup(
    code: &'static str,
    what: &str,
    known: &[String],
    name: &Name,
) -> Result<usize, Diagnostic> {
    if let Some(i) = known
        .iter()
        .position(|k| k.eq_ignore_ascii_case(&name.node))
    {
        return Ok(i);
    }
    let mut d = Diagnostic::error(
        code,
        name.span,
        format!("there is no {what} named `{}`", name.node),
    )
    .label(format!("unknown {what}"));
    match closest(known.iter().map(String::as_str), &name.node) {
        Some(k) => d = d.meant(k),
        None if known.is_empty() => d = d.help(format!("no {what} is declared")),
        None => d = d.help(format!("the known ones are `{}`", known.join("`, `"))),
    }
    Err(d)
}

pub(crate) use crate::suggest::closest;

impl From<syntax::Qualifier> for Qualifier {
    fn from(q: syntax::Qualifier) -> Qualifier {
        match q {
            syntax::Qualifier::StraightForward => Qualifier::StraightForward,
            syntax::Qualifier::StraightBackward => Qualifier::StraightBackward,
            syntax::Qualifier::Forward => Qualifier::Forward,
            syntax::Qualifier::Backward => Qualifier::Backward,
            syntax::Qualifier::Sideways => Qualifier::Sideways,
            syntax::Qualifier::Outward => Qualifier::Outward,
            syntax::Qualifier::Left => Qualifier::Left,
            syntax::Qualifier::Right => Qualifier::Right,
        }
    }
}

/// The model's trigger from the syntax tree's bits of [`syntax::promote_when`].
fn trigger(bits: u8) -> Trigger {
    use syntax::promote_when::{CAPTURING, ENTERING, FROM, INTO, STANDING, THROUGH};
    Trigger {
        standing: bits & STANDING != 0,
        capturing: bits & CAPTURING != 0,
        from: bits & FROM != 0,
        into: bits & INTO != 0,
        through: bits & THROUGH != 0,
        entering: bits & ENTERING != 0,
    }
}

/// The obligations as written; a kind of move obliged twice is told once.
fn check_obligations(
    statements: &[Statement],
    decls: &declare::Decls,
    out: &mut Vec<Diagnostic>,
) -> Vec<crate::model::Obligation> {
    use crate::model::{MoveKind, Obligation, Preference};
    let mut kept: Vec<Obligation> = vec![];
    for s in statements {
        let Statement::Obligation(o) = s else {
            continue;
        };
        let rule = o.node.rule;
        if kept.iter().any(|k| k.kind == rule.kind) {
            out.push(
                Diagnostic::warning(
                    "variantlab::duplicate_statement",
                    o.span,
                    format!("`{}` is obliged a second time", s.keyword()),
                )
                .label("already said")
                .help("keep one of the two lines: the first is the one that holds"),
            );
            continue;
        }
        let narrowable = rule.kind == MoveKind::Capture && rule.compulsory;
        if !o.node.prefer.is_empty() && !narrowable {
            out.push(
                Diagnostic::error(
                    "variantlab::most_taken",
                    o.span,
                    "only compulsory captures can be narrowed to the best of them",
                )
                .label("not `captures are compulsory`")
                .help("write `captures are compulsory, taking the most pieces`"),
            );
            continue;
        }
        let mut prefer = Vec::new();
        for (how, names) in o.node.prefer.iter().map(|p| &p.node) {
            let mut kinds = if names.is_empty() { u64::MAX } else { 0 };
            for n in names {
                match decls.piece(n) {
                    Ok(k) => kinds |= 1 << k.0,
                    Err(d) => out.push(d),
                }
            }
            prefer.push(Preference { how: *how, kinds });
        }
        kept.push(Obligation {
            kind: rule.kind,
            compulsory: rule.compulsory,
            prefer,
        });
    }
    kept
}

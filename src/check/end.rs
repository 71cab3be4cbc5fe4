//! Game-end rules.

use super::declare::Decls;
use crate::diagnostic::Diagnostic;
use crate::model::*;
use crate::syntax::{self, Statement};

pub(super) fn check_end(
    statements: &[Statement],
    decls: &Decls,
    zones: &[Zone],
    setup: &[Placed],
    unsure: &[bool],
    out: &mut Vec<Diagnostic>,
) -> Vec<EndRule> {
    let mut rules = Vec::new();
    for s in statements {
        let Statement::End(list) = s else { continue };
        for r in list {
            let guard = decls
                .guard(&r.guard)
                .map_err(|d| out.push(d))
                .ok()
                .flatten();
            let outcome = match &r.outcome {
                syntax::Outcome::Draw => Outcome::Draw,
                syntax::Outcome::Compare { .. } => Outcome::THAT_WINS,
                syntax::Outcome::Scores { who, got, of } => {
                    let who = match who {
                        syntax::Who::Mover => Who::Mover,
                        syntax::Who::That => Who::That,
                        syntax::Who::Checker => Who::Checker,
                        syntax::Who::Player(name) => match decls.player(name) {
                            Ok(p) => Who::Player(p),
                            Err(d) => {
                                out.push(d);
                                continue;
                            }
                        },
                    };
                    Outcome::Scores {
                        who,
                        got: *got,
                        of: *of,
                    }
                }
            };
            let lone = matches!(r.condition.node, syntax::Condition::Is(_));
            let cx = EventCx {
                guard,
                outcome,
                lone,
                ..EventCx::new(statements, decls, zones, setup, unsure)
            };
            let Some(condition) = check_condition(&r.condition.node, &cx, out) else {
                continue;
            };
            if let Outcome::Scores { got: a, of: b, .. } = outcome
                && (b == 0 || a > b)
            {
                out.push(
                    Diagnostic::error(
                        "variantlab::bad_score",
                        r.condition.span,
                        format!("{a}/{b} is not a score between 0 and 1"),
                    )
                    .label("this rule's score")
                    .help("write a fraction such as `3/4`, its top no larger than its bottom"),
                );
            }
            let (by_points, fewest, by_pieces) = match r.outcome {
                syntax::Outcome::Compare { fewer, pieces } => (true, fewer, pieces),
                _ => (false, false, false),
            };
            if by_points
                && !by_pieces
                && !statements.iter().any(|s| matches!(s, Statement::Worth(_)))
            {
                out.push(
                    Diagnostic::error(
                        "variantlab::no_points",
                        r.condition.span,
                        "points decide this rule, but no piece is worth points",
                    )
                    .label("decided by points")
                    .help("say what pieces count, as in `pieces are worth points: KIND 5`"),
                );
            }
            rules.push(EndRule {
                guard,
                condition,
                outcome,
                by_points,
                fewest,
                by_pieces,
            });
        }
    }
    rules
}

/// What a condition of an end rule is checked against.
struct EventCx<'a> {
    statements: &'a [Statement],
    decls: &'a Decls,
    zones: &'a [Zone],
    setup: &'a [Placed],
    unsure: &'a [bool],
    guard: Option<Guard>,
    outcome: Outcome,
    /// The condition is the rule's whole condition.
    lone: bool,
    /// The condition starts a count: `that player` is the player who counts, and
    /// only the position is asked.
    counting: bool,
}

impl<'a> EventCx<'a> {
    /// The context of a condition that is not an end rule's: no guard, no outcome.
    fn new(
        statements: &'a [Statement],
        decls: &'a Decls,
        zones: &'a [Zone],
        setup: &'a [Placed],
        unsure: &'a [bool],
    ) -> Self {
        EventCx {
            statements,
            decls,
            zones,
            setup,
            unsure,
            guard: None,
            outcome: Outcome::Draw,
            lone: false,
            counting: false,
        }
    }
}

fn check_owner(
    owner: &syntax::Owner,
    cx: &EventCx,
    span: syntax::Span,
    out: &mut Vec<Diagnostic>,
) -> Option<Owner> {
    let decls = cx.decls;
    Some(match owner {
        syntax::Owner::AnyPlayer => Owner::AnyPlayer,
        syntax::Owner::Every => Owner::Every,
        syntax::Owner::ToMove => Owner::ToMove,
        syntax::Owner::That if cx.counting => Owner::That,
        syntax::Owner::That => {
            out.push(
                Diagnostic::error(
                    "variantlab::that_player",
                    span,
                    "`that player` names the player who counts, and is said only in a counting line",
                )
                .label("no player named here")
                .help("write `a player` (the outcome's `that player` then names the one for whom it holds), `every player`, `the player to move` or a player's name"),
            );
            return None;
        }
        syntax::Owner::Player(name) => Owner::Player(
            decls
                .player(name)
                .map_err(|d| match name.node.as_str() {
                    // `once it has at most 3 pieces`, as counting lines were written.
                    "it" if cx.counting => out.push(d.help(
                        "the player who counts is `that player`: `once that player has at most 3 pieces on the board`",
                    )),
                    _ => out.push(d),
                })
                .ok()?,
        ),
    })
}

/// Which kinds a rule speaks of, its names resolved.
pub(super) fn resolve_kinds(
    kinds: &syntax::Kinds,
    decls: &Decls,
    out: &mut Vec<Diagnostic>,
) -> Kinds {
    match kinds {
        syntax::Kinds::All => Kinds::All,
        syntax::Kinds::Royal => Kinds::Royal,
        syntax::Kinds::NonRoyal => Kinds::NonRoyal,
        syntax::Kinds::Named(names) => Kinds::Named(kind_mask(decls, names, out)),
    }
}

/// The conditions for drawing a random setup again, checked as end rules' are.
pub(super) fn check_redraws(
    statements: &[Statement],
    decls: &Decls,
    zones: &[Zone],
    setup: &[Placed],
    unsure: &[bool],
    out: &mut Vec<Diagnostic>,
) -> Vec<Redraw> {
    let cx = EventCx::new(statements, decls, zones, setup, unsure);
    let mut redraws = vec![];
    for s in statements {
        let Statement::Setup(syntax::SetupDecl::Random(r)) = s else {
            continue;
        };
        for w in &r.redraw {
            if let Some(condition) = check_condition(&w.condition.node, &cx, out) {
                redraws.push(Redraw {
                    unless: w.unless,
                    condition,
                });
            }
        }
    }
    redraws
}

fn check_condition(
    c: &syntax::Condition,
    cx: &EventCx,
    out: &mut Vec<Diagnostic>,
) -> Option<Condition> {
    Some(match c {
        syntax::Condition::Is(e) => Condition::Is(check_event(e, cx, out)?),
        syntax::Condition::Not(c) => Condition::Not(Box::new(check_condition(c, cx, out)?)),
        syntax::Condition::All(cs) => Condition::All(check_all(cs, cx, out)?),
        syntax::Condition::Any(cs) => Condition::Any(check_all(cs, cx, out)?),
    })
}

/// Every part checked, each error reported, before giving up.
fn check_all(
    cs: &[syntax::Condition],
    cx: &EventCx,
    out: &mut Vec<Diagnostic>,
) -> Option<Vec<Condition>> {
    let checked: Vec<Option<Condition>> = cs.iter().map(|c| check_condition(c, cx, out)).collect();
    checked.into_iter().collect()
}

fn check_event(
    e: &syntax::Spanned<syntax::Event>,
    cx: &EventCx,
    out: &mut Vec<Diagnostic>,
) -> Option<Event> {
    let EventCx {
        statements,
        decls,
        zones,
        setup,
        unsure,
        guard,
        outcome,
        lone,
        counting,
    } = *cx;
    let event = match &e.node {
        syntax::Event::Captured { piece, by } => {
            let Ok(p) = decls.piece(piece).map_err(|d| out.push(d)) else {
                return None;
            };
            let by = match by.as_ref().map(|b| decls.piece(b)) {
                Some(Ok(b)) => Some(b),
                Some(Err(d)) => {
                    out.push(d);
                    return None;
                }
                None => None,
            };
            // A rule behind an option counts under the setting that enables it:
            // `check` answers for every setting `play --option` accepts.
            let when = guard.map_or(String::new(), |g| {
                let on = if g.when { "on" } else { "off" };
                format!(
                    " when `{}` is {on}",
                    decls.options[g.option.0 as usize].name
                )
            });
            let lacking: Vec<&str> = decls
                .players
                .iter()
                .enumerate()
                .filter(|(i, _)| {
                    !unsure.get(*i).copied().unwrap_or(false)
                        && !setup
                            .iter()
                            .any(|x| x.piece == p && x.player.0 as usize == *i)
                })
                .map(|(_, pl)| pl.name.as_str())
                .collect();
            if outcome == Outcome::MOVER_WINS && lone && !lacking.is_empty() {
                out.push(
                    Diagnostic::error(
                        "variantlab::missing_deciding_piece",
                        piece.span,
                        format!(
                            "capturing a {} wins{when}, but there is none at the start for {}",
                            piece.node,
                            lacking.join(" and ")
                        ),
                    )
                    .label("decides the game")
                    .help(format!(
                        "place a {} for {} in the setup, or change this rule",
                        piece.node,
                        lacking.join(" and ")
                    )),
                );
            } else if !setup.is_empty()
                && !unsure.contains(&true)
                && !setup.iter().any(|x| x.piece == p)
            {
                out.push(
                    Diagnostic::warning(
                        "variantlab::absent_piece",
                        piece.span,
                        format!("no {} stands on the board at the start", piece.node),
                    )
                    .label("never in the setup")
                    .help("this rule can only apply if the piece appears later"),
                );
            }
            Event::Captured { piece: p, by }
        }
        syntax::Event::NoLegalMove => Event::NoLegalMove,
        syntax::Event::AllPassed => Event::AllPassed,
        syntax::Event::BoardFull => Event::BoardFull,
        syntax::Event::CountRanOut => {
            if !statements
                .iter()
                .any(|s| matches!(s, Statement::Counting(_)))
            {
                out.push(
                    Diagnostic::error(
                        "variantlab::no_count",
                        e.span,
                        "no count of moves can run out: the file has no `counting`",
                    )
                    .label("never happens")
                    .help(
                        "say when a count starts, as in `counting { a player with only \
                         royal pieces counts once every player has no KIND on the board: 64 moves }`",
                    ),
                );
            }
            Event::CountRanOut
        }
        syntax::Event::Facing { piece, enemy } => {
            let piece = decls.piece(piece).map_err(|d| out.push(d));
            let enemy = decls.piece(enemy).map_err(|d| out.push(d));
            let (Ok(piece), Ok(enemy)) = (piece, enemy) else {
                return None;
            };
            Event::Facing { piece, enemy }
        }
        syntax::Event::Extinct(kinds) => Event::Extinct(kind_mask(decls, kinds, out)),
        syntax::Event::InCheck => Event::InCheck,
        syntax::Event::Can {
            owner,
            capture,
            state,
            kinds,
            into,
        } => {
            let owner = check_owner(owner, cx, e.span, out);
            let kinds = resolve_kinds(kinds, decls, out);
            let into = match into {
                Some(z) => Some(super::find_zone(zones, z, out)?),
                None => None,
            };
            Event::Can {
                owner: owner?,
                capture: *capture,
                kinds,
                state: *state,
                into,
            }
        }
        syntax::Event::Has {
            owner,
            quantity,
            state,
            kinds,
            place,
        } => {
            let owner = check_owner(owner, cx, e.span, out);
            let kinds = resolve_kinds(kinds, decls, out);
            let place = match place {
                syntax::Place::Owned => Place::Owned,
                syntax::Place::Board => Place::Board,
                syntax::Place::Hand => Place::Hand,
                syntax::Place::OneColour => Place::OneColour,
                syntax::Place::Between(k) => {
                    Place::Between(decls.piece(k).map_err(|d| out.push(d)).ok()?)
                }
                syntax::Place::Zone(z) => Place::Zone(super::find_zone(zones, z, out)?),
                syntax::Place::Connected(z) => Place::Connected(super::find_zone(zones, z, out)?),
                syntax::Place::Fort(z) => Place::Fort(super::find_zone(zones, z, out)?),
            };
            let owner = owner?;
            let q = &quantity.node;
            if q.least > q.most {
                out.push(
                    Diagnostic::error(
                        "variantlab::bad_count",
                        quantity.span,
                        "no count of pieces is fewer than 0",
                    )
                    .label("never holds")
                    .help("write `no` for none"),
                );
            }
            Event::Has {
                owner,
                kinds,
                least: q.least,
                most: q.most,
                only: q.only,
                place,
                state: *state,
            }
        }
        syntax::Event::ChecksGiven(n) => {
            if n.node == 0 || n.node > 255 {
                out.push(
                    Diagnostic::error(
                        "variantlab::bad_count",
                        n.span,
                        "a count of checks is from 1 to 255",
                    )
                    .label("out of range"),
                );
            }
            Event::ChecksGiven(n.node.clamp(1, 255))
        }
        syntax::Event::Repetition(n, perpetual) => {
            if n.node < 2 {
                out.push(
                    Diagnostic::error(
                        "variantlab::bad_count",
                        n.span,
                        "a position must occur at least twice to repeat",
                    )
                    .label("too small"),
                );
            }
            Event::Repetition(n.node, *perpetual)
        }
        syntax::Event::Checkmate => Event::Checkmate,
        syntax::Event::CheckmateOnlyBy(kinds) => {
            Event::CheckmateOnlyBy(kind_mask(decls, kinds, out))
        }
        syntax::Event::CheckmateRunWithout(kinds) => {
            Event::CheckmateRunWithout(kind_mask(decls, kinds, out))
        }
        syntax::Event::Stalemate => Event::Stalemate,
        syntax::Event::OnlyPromotions => Event::OnlyPromotions,
        syntax::Event::PliesWithoutCapture(n, kinds, drops) => {
            let mask = kinds
                .iter()
                .filter_map(|(k, _)| decls.piece(k).map_err(|d| out.push(d)).ok())
                .fold(0u64, |m, k| m | 1 << k.0);
            if n.node == 0 {
                out.push(
                    Diagnostic::error(
                        "variantlab::bad_count",
                        n.span,
                        "the game cannot end after zero plies",
                    )
                    .label("zero"),
                );
            }
            Event::PliesWithoutCapture(n.node, mask, *drops)
        }
    };
    if counting && !event.in_place() {
        out.push(
            Diagnostic::error(
                "variantlab::count_condition",
                e.span,
                "a count starts on what the position holds, and this asks what led to it",
            )
            .label("not of the position alone")
            .help("ask what players have (`every player has no KIND on the board`, `that player has at most 3 pieces on the board`), `in check` or `board full`"),
        );
        return None;
    }
    Some(event)
}

/// The kinds named, as a bit set; each unknown name is reported.
fn kind_mask(decls: &Decls, kinds: &[syntax::Name], out: &mut Vec<Diagnostic>) -> u64 {
    kinds
        .iter()
        .filter_map(|k| decls.piece(k).map_err(|d| out.push(d)).ok())
        .fold(0u64, |m, k| m | 1 << k.0)
}

/// The most moves a count may last.
const MOST_COUNTED: u32 = 10_000;

/// The lines of `counting`, in the file's order.
pub(super) fn check_counting(
    statements: &[Statement],
    decls: &Decls,
    zones: &[Zone],
    setup: &[Placed],
    unsure: &[bool],
    out: &mut Vec<Diagnostic>,
) -> Vec<Count> {
    let cx = EventCx {
        counting: true,
        ..EventCx::new(statements, decls, zones, setup, unsure)
    };
    let mut counts = Vec::new();
    let lines = statements.iter().filter_map(|s| match s {
        Statement::Counting(c) => Some(&c.node),
        _ => None,
    });
    for line in lines.flatten() {
        let condition = check_condition(&line.condition.node, &cx, out);
        let mut limits = Vec::new();
        let mut always: Option<syntax::Span> = None;
        for (moves, against) in &line.limits {
            if let Some(at) = always {
                out.push(
                    Diagnostic::error(
                        "variantlab::count_unreachable",
                        moves.span,
                        "this limit is never used: an earlier one applies against any pieces",
                    )
                    .label("never used")
                    .also(at, "always applies")
                    .help("limits are tried in order: put the one without `against` last"),
                );
            }
            if !(1..=MOST_COUNTED).contains(&moves.node) {
                out.push(
                    Diagnostic::error(
                        "variantlab::bad_count",
                        moves.span,
                        format!("a count of moves is from 1 to {MOST_COUNTED}"),
                    )
                    .label("out of range"),
                );
            }
            let against = match against {
                None => {
                    always.get_or_insert(moves.span);
                    None
                }
                Some((n, kind)) => decls
                    .piece(kind)
                    .map_err(|d| out.push(d))
                    .ok()
                    .map(|k| (*n, k)),
            };
            limits.push(CountLimit {
                moves: moves.node.clamp(1, MOST_COUNTED),
                against,
            });
        }
        let Some(condition) = condition else { continue };
        counts.push(Count {
            bare: line.bare,
            condition,
            from_pieces: line.from_pieces,
            limits,
        });
    }
    counts
}

/// The points of `pieces are worth points` and `players start with points`.
pub(super) fn check_points(
    statements: &[Statement],
    decls: &Decls,
    out: &mut Vec<Diagnostic>,
) -> Option<Points> {
    let mut points = Points {
        worth: vec![0; decls.piece_count()],
        bonus: vec![0; decls.players.len()],
    };
    let mut any = false;
    for s in statements {
        match s {
            Statement::Worth(list) => {
                any = true;
                for (name, n) in list {
                    match decls.piece(name) {
                        Ok(p) => points.worth[p.0 as usize] = n.node,
                        Err(d) => out.push(d),
                    }
                }
            }
            Statement::Bonus(list) => {
                for (name, n) in list {
                    match decls.player(name) {
                        Ok(p) => points.bonus[p.0 as usize] = n.node,
                        Err(d) => out.push(d),
                    }
                }
            }
            _ => {}
        }
    }
    any.then_some(points)
}

/// Warns when the rules leave a game without an end: no `game ends` statement, or no
/// rule for a player left without a legal move (such a game stops undecided).
pub(super) fn check_undecided(
    statements: &[Statement],
    variant: &Variant,
    out: &mut Vec<Diagnostic>,
) {
    let Some(end) = statements.iter().find(|s| matches!(s, Statement::End(_))) else {
        out.push(
            Diagnostic::warning(
                "variantlab::missing_end",
                crate::syntax::Span::new(0, 0),
                "the variant has no `game ends` statement: no game will ever be decided",
            )
            .help("add rules such as `game ends { no legal move: mover loses }`"),
        );
        return;
    };
    // Whether some rule without a guard surely holds where the player to move has no
    // legal move, in check and not: `checkmate` and `stalemate` together cover both.
    let decided = [true, false].iter().all(|&check| {
        variant
            .end_rules
            .iter()
            .any(|r| r.guard.is_none() && stuck_holds(&r.condition, check) == Some(true))
    });
    let first_rule = match end {
        Statement::End(list) => list.first().map(|r| r.condition.span),
        _ => None,
    };
    if !decided {
        let span = first_rule.unwrap_or(crate::syntax::Span::new(0, 0));
        out.push(
            Diagnostic::warning(
                "variantlab::undecided_end",
                span,
                "no rule decides a position where the player to move has no legal move",
            )
            .label("the first of these rules")
            .help("such a game stops without a result; add `no legal move: mover wins`, `mover loses` or `draw`"),
        );
    }
}

/// Whether `c` holds for a player to move with no legal move, in check or not; `None`
/// when that depends on more.
fn stuck_holds(c: &Condition, check: bool) -> Option<bool> {
    match c {
        Condition::Is(Event::NoLegalMove) => Some(true),
        Condition::Is(Event::Checkmate | Event::InCheck) => Some(check),
        Condition::Is(Event::Stalemate) => Some(!check),
        Condition::Is(_) => None,
        Condition::Not(c) => stuck_holds(c, check).map(|b| !b),
        Condition::All(cs) => cs
            .iter()
            .try_fold(true, |all, c| match stuck_holds(c, check) {
                Some(false) => Err(()),
                Some(true) => Ok(all),
                None => Ok(false),
            })
            .map_or(Some(false), |all| all.then_some(true)),
        Condition::Any(cs) => {
            let each: Vec<Option<bool>> = cs.iter().map(|c| stuck_holds(c, check)).collect();
            if each.contains(&Some(true)) {
                Some(true)
            } else if each.iter().all(|b| *b == Some(false)) {
                Some(false)
            } else {
                None
            }
        }
    }
}

/// Warns at each `checkmate` rule of a game in which no piece is royal: checkmate needs
/// a royal piece in check, so such a rule never applies.
pub(super) fn check_checkmate_royal(
    statements: &[Statement],
    variant: &Variant,
    out: &mut Vec<Diagnostic>,
) {
    if variant.pieces.iter().any(|p| !p.royal.is_empty()) {
        return;
    }
    let rules = statements.iter().filter_map(|s| match s {
        Statement::End(list) => Some(list),
        _ => None,
    });
    for e in rules.flatten().flat_map(|r| r.condition.node.events()) {
        if matches!(
            e.node,
            syntax::Event::Checkmate
                | syntax::Event::CheckmateOnlyBy(_)
                | syntax::Event::CheckmateRunWithout(_)
                | syntax::Event::InCheck
        ) {
            let word = if e.node == syntax::Event::InCheck {
                "in check"
            } else {
                "checkmate"
            };
            out.push(
                Diagnostic::warning(
                    "variantlab::checkmate_without_royal",
                    e.span,
                    format!("`{word}` never happens here: no piece is `royal`"),
                )
                .label("never applies")
                .help("mark the piece that must be kept safe `royal`, or end the game on its capture (`King captured: mover wins`)"),
            );
        }
    }
    for s in statements {
        if let Statement::Obligation(o) = s
            && o.node.rule.kind == crate::model::MoveKind::Check
        {
            out.push(
                Diagnostic::warning(
                    "variantlab::checkmate_without_royal",
                    o.span,
                    "no move gives check here: no piece is `royal`",
                )
                .label("never applies")
                .help("mark the piece that must be kept safe `royal`, or remove this line"),
            );
        }
    }
}

/// The kinds written `forward KIND move` in a count of quiet plies, in the clock
/// statement or a game-end rule (unknown names are reported where the count is read).
pub(super) fn forward_moves(statements: &[Statement], decls: &Decls) -> u64 {
    let mut kinds: Vec<&syntax::Name> = vec![];
    for s in statements {
        match s {
            Statement::Clock(c, _) => kinds.extend(c.node.iter().filter(|k| k.1).map(|k| &k.0)),
            Statement::End(list) => {
                for e in list.iter().flat_map(|r| r.condition.node.events()) {
                    if let syntax::Event::PliesWithoutCapture(_, ks, _) = &e.node {
                        kinds.extend(ks.iter().filter(|k| k.1).map(|k| &k.0));
                    }
                }
            }
            _ => {}
        }
    }
    kinds
        .into_iter()
        .filter_map(|k| decls.piece(k).ok())
        .fold(0, |m, k| m | 1 << k.0)
}

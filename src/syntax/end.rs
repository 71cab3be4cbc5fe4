//! The syntax of `game ends`: its rules, their conditions and outcomes, and how pest's
//! pairs become them.

use super::Rule;
use super::node::*;
use super::pairs::*;
use crate::diagnostic::Diagnostic;

#[derive(Clone, Debug, PartialEq)]
pub struct EndRule {
    pub guard: Option<Guard>,
    pub condition: Spanned<Condition>,
    pub outcome: Outcome,
}

/// Conditions of the game's state, combined.
#[derive(Clone, Debug, PartialEq)]
pub enum Condition {
    Is(Spanned<Event>),
    Not(Box<Condition>),
    /// Each holds.
    All(Vec<Condition>),
    /// One holds.
    Any(Vec<Condition>),
}

impl Condition {
    /// The single conditions it combines, in the order written.
    pub fn events(&self) -> Vec<&Spanned<Event>> {
        match self {
            Condition::Is(e) => vec![e],
            Condition::Not(c) => c.events(),
            Condition::All(cs) | Condition::Any(cs) => cs.iter().flat_map(|c| c.events()).collect(),
        }
    }
}

/// Whose pieces `has` counts: any one player's, each player's, the player to move's,
/// or a named player's.
#[derive(Clone, Debug, PartialEq)]
pub enum Owner {
    AnyPlayer,
    Every,
    ToMove,
    /// `that player`: in a counting line, the player who counts.
    That,
    Player(Name),
}

/// Which pieces `has` counts.
#[derive(Clone, Debug, PartialEq)]
pub enum Kinds {
    All,
    Royal,
    NonRoyal,
    Named(Vec<Name>),
}

/// Where `has` counts pieces.
#[derive(Clone, Debug, PartialEq)]
pub enum Place {
    /// On the board and in hand together.
    Owned,
    Board,
    Hand,
    Zone(Name),
    /// On cells of some one colour.
    OneColour,
    /// On a line between two of the player's pieces of this kind.
    Between(Name),
    /// `connected to edge`.
    Connected(Name),
    /// `in a fort on edge`.
    Fort(Name),
}

/// How many `has` asks for: at least `least` and at most `most`; `only`: some, and no
/// other pieces.
#[derive(Clone, Debug, PartialEq)]
pub struct Quantity {
    pub least: u32,
    pub most: u32,
    pub only: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    Captured {
        piece: Name,
        by: Option<Name>,
    },
    NoLegalMove,
    Checkmate,
    Stalemate,
    /// A player has none of one of these kinds left.
    Extinct(Vec<Name>),
    /// `a player has no pieces`, `White has at least 2 Queen in hand`.
    Has {
        owner: Owner,
        quantity: Spanned<Quantity>,
        state: Option<State>,
        kinds: Kinds,
        place: Place,
    },
    /// `White can capture an undefended Pawn`, `Black can move a King into goal`.
    Can {
        owner: Owner,
        /// `capture`, not `move`.
        capture: bool,
        state: Option<State>,
        kinds: Kinds,
        into: Option<Name>,
    },
    /// `in check`.
    InCheck,
    /// A player has given check this many times.
    ChecksGiven(Spanned<u32>),
    /// Repeated this many times; `true`: only by perpetual check.
    Repetition(Spanned<u32>, bool),
    /// Plies without a capture or a move of one of the named kinds.
    PliesWithoutCapture(Spanned<u32>, Vec<(Name, bool)>, bool),
    /// `every player passed`.
    AllPassed,
    /// `board full`.
    BoardFull,
    /// `General facing enemy General on an open file`.
    Facing {
        piece: Name,
        enemy: Name,
    },
    /// `checkmate given only by Knight`: every checking piece is of these kinds.
    CheckmateOnlyBy(Vec<Name>),
    /// `checkmate without a check by Rook in its run`.
    CheckmateRunWithout(Vec<Name>),
    /// `count ran out`.
    CountRanOut,
    /// `only promotions left`.
    OnlyPromotions,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Draw,
    /// `who` gets `got / of` (a win is 1/1, a loss 0/1).
    Scores {
        who: Who,
        got: u32,
        of: u32,
    },
    /// `more points win` (`fewer`: the fewest win; `pieces`: pieces on the board count).
    Compare {
        fewer: bool,
        pieces: bool,
    },
}

/// Whom an outcome names.
#[derive(Clone, Debug, PartialEq)]
pub enum Who {
    Mover,
    That,
    Checker,
    Player(Name),
}

pub use crate::terms::State;

/// The most pairs of parentheses a condition may nest: enough for any rule page, and
/// little enough that no stage's walk through a condition runs out of stack.
pub const MAX_NESTING: usize = 32;

/// How deep the parentheses of a rule's text nest.
fn nesting(text: &str) -> usize {
    let (mut depth, mut most) = (0usize, 0usize);
    for b in text.bytes() {
        match b {
            b'(' => {
                depth += 1;
                most = most.max(depth);
            }
            b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    most
}

/// A condition, or `None` with a diagnostic when it nests too deep.
pub(super) fn lower_checked_condition(cx: &mut Ctx, p: P) -> Option<Spanned<Condition>> {
    let depth = nesting(p.as_str());
    if depth > MAX_NESTING {
        let span = cx.span(&p);
        cx.diagnostics.push(
            Diagnostic::error(
                "variantlab::deep_condition",
                span,
                format!(
                    "this condition nests {depth} pairs of parentheses; at most {MAX_NESTING} may"
                ),
            )
            .label("nested too deep")
            .help("write it as several rules: the first that holds decides"),
        );
        return None;
    }
    let span = cx.span(&p);
    Some(Spanned::new(lower_condition(cx, p), span))
}

/// A rule, or `None` with a diagnostic when its condition nests too deep.
pub(super) fn lower_end_rule(cx: &mut Ctx, p: P) -> Option<EndRule> {
    let mut guard = None;
    let mut condition = None;
    let mut outcome = Outcome::Draw;
    for q in p.into_inner().filter(content) {
        match q.as_rule() {
            Rule::guard => guard = Some(lower_guard(cx, q)),
            Rule::condition => condition = Some(lower_checked_condition(cx, q)?),
            _ => outcome = lower_outcome(cx, q),
        }
    }
    Some(EndRule {
        guard,
        condition: condition.expect("grammar requires a condition"),
        outcome,
    })
}

/// `draw`, `more points win`, `Black wins`, `mover scores 3/4`.
fn lower_outcome(cx: &mut Ctx, p: P) -> Outcome {
    let o = p.into_inner().find(content).expect("an outcome");
    match o.as_rule() {
        Rule::compare => Outcome::Compare {
            fewer: o.as_str().starts_with("fewer"),
            pieces: o
                .clone()
                .into_inner()
                .any(|x| x.as_rule() == Rule::kw_pieces),
        },
        Rule::result => {
            let mut who = Who::Mover;
            let (mut got, mut of) = (1, 1);
            let mut numbers = vec![];
            for x in o.into_inner() {
                match x.as_rule() {
                    Rule::who => {
                        let words: String = x.as_str().split_whitespace().collect();
                        who = match x.clone().into_inner().find(|y| y.as_rule() == Rule::ident) {
                            Some(name) => Who::Player(cx.name(&name)),
                            None if words == "thatplayer" => Who::That,
                            None => Who::Mover,
                        };
                    }
                    Rule::checker => who = Who::Checker,
                    Rule::kw_loses => got = 0,
                    Rule::number => numbers.push(cx.number(&x).node),
                    _ => {}
                }
            }
            if let [a, b] = numbers[..] {
                (got, of) = (a, b);
            }
            Outcome::Scores { who, got, of }
        }
        _ => Outcome::Draw,
    }
}

/// `A or B`, each part `C and D`, each of those perhaps `not E` or in parentheses.
pub(super) fn lower_condition(cx: &mut Ctx, p: P) -> Condition {
    let mut parts: Vec<Condition> = p
        .into_inner()
        .filter(|q| q.as_rule() == Rule::all_of)
        .map(|q| {
            let mut each: Vec<Condition> = q
                .into_inner()
                .filter(|n| n.as_rule() == Rule::negated)
                .map(|n| lower_negated(cx, n))
                .collect();
            if each.len() == 1 {
                each.pop().expect("one")
            } else {
                Condition::All(each)
            }
        })
        .collect();
    if parts.len() == 1 {
        parts.pop().expect("one")
    } else {
        Condition::Any(parts)
    }
}

fn lower_negated(cx: &mut Ctx, p: P) -> Condition {
    let mut not = false;
    let mut inner = None;
    for q in p.into_inner() {
        match q.as_rule() {
            Rule::kw_not => not = !not,
            Rule::condition => inner = Some(lower_condition(cx, q)),
            Rule::event => inner = Some(Condition::Is(lower_event(cx, q))),
            _ => {}
        }
    }
    let inner = inner.expect("grammar requires a condition");
    if not {
        Condition::Not(Box::new(inner))
    } else {
        inner
    }
}

/// `a player has fewer than 3 King in hand`, `White can capture an undefended Pawn`.
fn lower_has(cx: &mut Ctx, p: P) -> Event {
    let can = p.as_rule() == Rule::can_event;
    let mut owner = Owner::AnyPlayer;
    let mut quantity = None;
    let mut state = None;
    let mut kinds = Kinds::All;
    let mut place = Place::Owned;
    let (mut capture, mut into) = (false, None);
    for k in p.into_inner() {
        match k.as_rule() {
            Rule::holder_player => {
                let words: String = k.as_str().split_whitespace().collect();
                owner = if let Some(name) = k.into_inner().find(|x| x.as_rule() == Rule::ident) {
                    Owner::Player(cx.name(&name))
                } else if words.starts_with("every") {
                    Owner::Every
                } else if words.starts_with("that") {
                    Owner::That
                } else if words.starts_with("the") {
                    Owner::ToMove
                } else {
                    Owner::AnyPlayer
                };
            }
            Rule::kw_capture => capture = true,
            Rule::ident => into = Some(cx.name(&k)),
            Rule::piece_state => {
                state = Some(match k.as_str() {
                    "attacked" => State::Attacked,
                    "unattacked" => State::Unattacked,
                    "defended" => State::Defended,
                    _ => State::Undefended,
                })
            }
            Rule::quantity => {
                let span = cx.span(&k);
                let parts: Vec<P> = k.clone().into_inner().collect();
                let n = parts
                    .iter()
                    .find(|x| x.as_rule() == Rule::number)
                    .map(|x| cx.number(x).node);
                // The words before the number, blanks left out: `atleast` as `at least`.
                let text = k.as_str();
                let word: String = text[..text
                    .find(|c: char| c.is_ascii_digit())
                    .unwrap_or(text.len())]
                    .split_whitespace()
                    .collect();
                let (least, most, only) = match (word.as_str(), n) {
                    ("no", _) => (0, 0, false),
                    ("only", _) => (1, u32::MAX, true),
                    ("a" | "an", _) => (1, u32::MAX, false),
                    ("fewerthan", Some(n)) => match n.checked_sub(1) {
                        Some(m) => (0, m, false),
                        None => (1, 0, false),
                    },
                    ("morethan", Some(n)) => (n.saturating_add(1), u32::MAX, false),
                    ("atleast", Some(n)) => (n, u32::MAX, false),
                    ("atmost", Some(n)) => (0, n, false),
                    (_, Some(n)) => (n, n, false),
                    _ => (1, u32::MAX, false),
                };
                quantity = Some(Spanned::new(Quantity { least, most, only }, span));
            }
            Rule::kinds => kinds = lower_kinds(cx, k),
            Rule::place => {
                let parts: Vec<P> = k.clone().into_inner().collect();
                let ident = parts.iter().find(|x| x.as_rule() == Rule::ident);
                let fort = parts.iter().find(|x| x.as_rule() == Rule::fort);
                place = if let Some(f) = fort {
                    let zone = f.clone().into_inner().find(|x| x.as_rule() == Rule::ident);
                    Place::Fort(cx.name(&zone.expect("grammar requires a zone")))
                } else if k.as_str().starts_with("between") {
                    Place::Between(cx.name(ident.expect("grammar requires a kind")))
                } else if k.as_str().starts_with("connected") {
                    Place::Connected(cx.name(ident.expect("grammar requires a zone")))
                } else if let Some(z) = ident {
                    Place::Zone(cx.name(z))
                } else if !parts.iter().any(|x| x.as_rule() == Rule::kw_board)
                    && k.as_str().starts_with("on")
                {
                    Place::OneColour
                } else if parts.iter().any(|x| x.as_rule() == Rule::kw_hand) {
                    Place::Hand
                } else {
                    Place::Board
                };
            }
            _ => {}
        }
    }
    if can {
        return Event::Can {
            owner,
            capture,
            state,
            kinds,
            into,
        };
    }
    Event::Has {
        owner,
        quantity: quantity.expect("grammar requires a quantity"),
        state,
        kinds,
        place,
    }
}

fn lower_event(cx: &mut Ctx, p: P) -> Spanned<Event> {
    let span = cx.span(&p);
    let q = p.into_inner().find(content).unwrap();
    let event = match q.as_rule() {
        Rule::captured_event => {
            let mut it = q.into_inner().filter(content);
            let piece = cx.name(&it.next().unwrap());
            Event::Captured {
                piece,
                by: it.next().map(|b| cx.name(&b)),
            }
        }
        Rule::no_move_event => Event::NoLegalMove,
        Rule::passes_event => Event::AllPassed,
        Rule::board_full_event => Event::BoardFull,
        Rule::count_event => Event::CountRanOut,
        Rule::facing_event => {
            let mut it = q.into_inner().filter(|k| k.as_rule() == Rule::ident);
            Event::Facing {
                piece: cx.name(&it.next().unwrap()),
                enemy: cx.name(&it.next().unwrap()),
            }
        }
        Rule::extinct_event => Event::Extinct(
            q.into_inner()
                .filter(|k| k.as_rule() == Rule::ident)
                .map(|k| cx.name(&k))
                .collect(),
        ),
        Rule::checks_event => Event::ChecksGiven(cx.number(&q.into_inner().find(content).unwrap())),
        Rule::has_event | Rule::can_event => lower_has(cx, q),
        Rule::in_check => Event::InCheck,
        Rule::checkmate => Event::Checkmate,
        Rule::mate_checks_event => {
            let only = !q
                .clone()
                .into_inner()
                .any(|k| k.as_rule() == Rule::kw_without);
            let kinds = q
                .into_inner()
                .filter(|k| k.as_rule() == Rule::ident)
                .map(|k| cx.name(&k))
                .collect();
            if only {
                Event::CheckmateOnlyBy(kinds)
            } else {
                Event::CheckmateRunWithout(kinds)
            }
        }
        Rule::stalemate => Event::Stalemate,
        Rule::promotions_event => Event::OnlyPromotions,
        Rule::repetition_event => {
            let mut it = q.into_inner().filter(content);
            let n = cx.number(&it.next().unwrap());
            Event::Repetition(n, it.next().is_some())
        }
        _ => {
            let parts: Vec<P> = q.into_inner().collect();
            let n = cx.number(parts.iter().find(|p| p.as_rule() == Rule::number).unwrap());
            let drops = parts.iter().any(|p| p.as_rule() == Rule::quiet_drop);
            Event::PliesWithoutCapture(n, quiet_kinds(cx, &parts), drops)
        }
    };
    Spanned::new(event, span)
}

/// `royal pieces`, `pieces`, `Queen or Rook`: which kinds a rule speaks of.
pub(super) fn lower_kinds(cx: &Ctx, k: P) -> Kinds {
    let parts: Vec<P> = k.into_inner().collect();
    let names: Vec<Name> = parts
        .iter()
        .filter(|x| x.as_rule() == Rule::ident)
        .map(|x| cx.name(x))
        .collect();
    if !names.is_empty() {
        return Kinds::Named(names);
    }
    match parts.first().map(|x| x.as_rule()) {
        Some(Rule::kw_royal) => Kinds::Royal,
        Some(Rule::kw_non_royal) => Kinds::NonRoyal,
        _ => Kinds::All,
    }
}

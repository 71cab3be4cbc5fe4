//! End rules: the conditions that end a game, their outcomes, and their words as
//! variant files say them.

use super::*;

/// How a game ends when its end rule applies: nobody wins, or one player scores a
/// share and the others the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Draw,
    /// `who` scores `got / of`, every other player an equal part of the rest.
    Scores {
        who: Who,
        got: u32,
        of: u32,
    },
}

/// Whom an outcome names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// The player who made the last move.
    Mover,
    /// The player the rule's condition names (the player to move, for one naming none).
    That,
    /// The side that checked on every move of a repetition cycle.
    Checker,
    Player(PlayerId),
}

impl Outcome {
    pub const MOVER_WINS: Outcome = Outcome::wins(Who::Mover);
    pub const MOVER_LOSES: Outcome = Outcome::loses(Who::Mover);
    pub const THAT_WINS: Outcome = Outcome::wins(Who::That);
    pub const THAT_LOSES: Outcome = Outcome::loses(Who::That);
    pub const CHECKER_LOSES: Outcome = Outcome::loses(Who::Checker);

    pub const fn wins(who: Who) -> Outcome {
        Outcome::Scores { who, got: 1, of: 1 }
    }

    pub const fn loses(who: Who) -> Outcome {
        Outcome::Scores { who, got: 0, of: 1 }
    }

    pub const fn scores(who: Who, got: u32, of: u32) -> Outcome {
        Outcome::Scores { who, got, of }
    }

    /// The player the outcome scores, and its share: `mover` made the last move,
    /// `named` is the player the rule names. `None` for a draw, or where the rule names
    /// nobody the outcome needs.
    pub fn scored(self, mover: PlayerId, named: Option<PlayerId>) -> Option<(PlayerId, u32, u32)> {
        let Outcome::Scores { who, got, of } = self else {
            return None;
        };
        let p = match who {
            Who::Mover => mover,
            Who::That | Who::Checker => named?,
            Who::Player(p) => p,
        };
        Some((p, got.min(of), of.max(1)))
    }
}

#[derive(Clone, Debug)]
pub struct EndRule {
    pub guard: Option<Guard>,
    pub condition: Condition,
    /// `Outcome::THAT_WINS` when `by_points`.
    pub outcome: Outcome,
    /// `more points win`: the player with more points is the player the rule names;
    /// equal points draw.
    pub by_points: bool,
    /// `fewer points win`, `fewer pieces win`: with `by_points`, the player with the
    /// fewest.
    pub fewest: bool,
    /// `more pieces win`: with `by_points`, each piece on the board counts one, and
    /// nothing else does.
    pub by_pieces: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    Captured {
        piece: PieceId,
        by: Option<PieceId>,
    },
    NoLegalMove,
    Checkmate,
    Stalemate,
    /// A player has no piece of one of these kinds (a bit set), on the board or in
    /// hand.
    Extinct(u64),
    /// A player (any, or the one named) has from `least` to `most` pieces of the
    /// kinds in the place; `only`: and none of other kinds there.
    Has {
        owner: Owner,
        kinds: Kinds,
        least: u32,
        most: u32,
        only: bool,
        place: Place,
        /// Only pieces in this state count.
        state: Option<State>,
    },
    /// The player, being the player to move, has a legal move that captures a piece of
    /// the kinds (in the state, before the capture), or (`capture` false) that moves
    /// one into its part of the zone `into`.
    Can {
        owner: Owner,
        capture: bool,
        kinds: Kinds,
        state: Option<State>,
        into: Option<usize>,
    },
    /// A royal piece of the player to move is attacked.
    InCheck,
    /// A player has given check with this many of its moves.
    ChecksGiven(u32),
    /// Repeated this many times; `true`: only when one side checked on every move.
    Repetition(u32, bool),
    /// Plies without a capture or a move of a kind in the bit set (or, when `true`, a
    /// drop).
    PliesWithoutCapture(u32, u64, bool),
    /// The last moves were passes, one by each player.
    AllPassed,
    /// A piece of the first kind and an enemy piece of the second faced each other on
    /// an open file before the last move and still do.
    Facing {
        piece: PieceId,
        enemy: PieceId,
    },
    /// Every cell of the board holds a piece.
    BoardFull,
    /// Checkmate, every piece giving check being of a kind in the bit set.
    CheckmateOnlyBy(u64),
    /// Checkmate, and no check of the mover's run was given by a kind in the bit set:
    /// see `Rules::run_kinds`.
    CheckmateRunWithout(u64),
    /// The running count (see [`Count`]) has passed its limit.
    CountRanOut,
    /// The side to move, not in check, has legal moves, and each is a promotion made
    /// standing (see [`Trigger::standing`]).
    OnlyPromotions,
}

/// Whose pieces [`Event::Has`] counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// Any one player: the player the outcome's `that player` names.
    AnyPlayer,
    /// Each player; `that player` is the player who just moved.
    Every,
    /// The player to move.
    ToMove,
    /// In a counting line, the player who counts.
    That,
    Player(PlayerId),
}

pub use crate::terms::State;

/// Which pieces [`Event::Has`] counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kinds {
    All,
    Royal,
    NonRoyal,
    /// A bit set of kinds.
    Named(u64),
}

/// Where [`Event::Has`] counts pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// On the board and in hand together.
    Owned,
    Board,
    Hand,
    /// On the player's part of a zone.
    Zone(usize),
    /// On cells of some one colour of the board.
    OneColour,
    /// On a straight line between two of the player's pieces of this kind.
    Between(PieceId),
    /// On cells from which a path of orthogonally adjacent cells, none holding another
    /// player's piece (or a wall), reaches the player's part of the zone.
    Connected(usize),
    /// On the player's part of a zone, with an empty cell beside it, walled in by the
    /// player's pieces that no enemy can reach or capture by enclosure.
    Fort(usize),
}

/// Conditions of the game's state, combined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Condition {
    Is(Event),
    Not(Box<Condition>),
    /// Each holds.
    All(Vec<Condition>),
    /// One holds.
    Any(Vec<Condition>),
}

impl Condition {
    /// The single conditions it combines, in the order written.
    pub fn events(&self) -> Vec<Event> {
        match self {
            Condition::Is(e) => vec![*e],
            Condition::Not(c) => c.events(),
            Condition::All(cs) | Condition::Any(cs) => cs.iter().flat_map(|c| c.events()).collect(),
        }
    }
}

impl Condition {
    /// Whether some single condition it combines passes `test`.
    pub fn mentions(&self, test: &impl Fn(&Event) -> bool) -> bool {
        !self.every(&|e| !test(e))
    }

    /// Whether every single condition it combines passes `test`.
    pub fn every(&self, test: &impl Fn(&Event) -> bool) -> bool {
        match self {
            Condition::Is(e) => test(e),
            Condition::Not(c) => c.every(test),
            Condition::All(cs) | Condition::Any(cs) => cs.iter().all(|c| c.every(test)),
        }
    }
}

impl Condition {
    /// The single conditions any one of which, holding, makes the whole hold: those not
    /// under `and` (with another part) or `not`.
    pub fn sufficient(&self) -> Vec<Event> {
        match self {
            Condition::Is(e) => vec![*e],
            Condition::Any(cs) => cs.iter().flat_map(Condition::sufficient).collect(),
            Condition::All(cs) if cs.len() == 1 => cs[0].sufficient(),
            Condition::All(_) | Condition::Not(_) => vec![],
        }
    }
}

impl Condition {
    /// The single conditions it combines that are not under `not`: each holds
    /// whenever the whole does, or may be what makes it hold.
    pub fn positive(&self) -> Vec<Event> {
        match self {
            Condition::Is(e) => vec![*e],
            Condition::Not(_) => vec![],
            Condition::All(cs) | Condition::Any(cs) => {
                cs.iter().flat_map(Condition::positive).collect()
            }
        }
    }
}

impl Condition {
    /// Kinds (a bit set) any piece of which, of any player on the board, makes the
    /// condition fail: a quick test before judging it (`every player has no Pawn`).
    pub fn ruled_out_by(&self) -> u64 {
        match self {
            Condition::Is(Event::Has {
                owner: Owner::Every,
                kinds: Kinds::Named(kinds),
                most: 0,
                place: Place::Board | Place::Owned,
                state: None,
                ..
            }) => *kinds,
            Condition::Is(_) | Condition::Not(_) => 0,
            Condition::All(cs) => cs.iter().fold(0, |m, c| m | c.ruled_out_by()),
            Condition::Any(cs) => cs.iter().fold(u64::MAX, |m, c| m & c.ruled_out_by()),
        }
    }
}

impl EndRule {
    /// The rule's condition when it is a single one, not a combination.
    pub fn event(&self) -> Option<Event> {
        match self.condition {
            Condition::Is(e) => Some(e),
            _ => None,
        }
    }
}

impl Event {
    /// Whether the event is about one player, and holds from the position alone: the
    /// game ends there whatever the last move was (perft stops at it).
    pub fn names_a_player(&self) -> bool {
        matches!(
            self,
            Event::Extinct(..) | Event::Has { .. } | Event::Can { .. } | Event::ChecksGiven(_)
        )
    }

    /// The kind and zone of an event that some player's piece of one kind stands on
    /// its part of a zone: a goal to reach.
    pub fn goal(&self) -> Option<(PieceId, usize)> {
        match *self {
            Event::Has {
                owner,
                kinds: Kinds::Named(k),
                least,
                place: Place::Zone(z),
                only: false,
                ..
            } if k.count_ones() == 1 && least >= 1 && owner != Owner::Every => {
                Some((PieceId(k.trailing_zeros() as u8), z))
            }
            _ => None,
        }
    }

    /// Whether the event is about a player left with few pieces: none, only royal ones,
    /// or at most a few of every non-royal kind.
    pub fn leaves_little(&self) -> bool {
        match *self {
            Event::Has {
                kinds, least, only, ..
            } => {
                (only && kinds == Kinds::Royal)
                    || (least == 0 && matches!(kinds, Kinds::All | Kinds::NonRoyal))
            }
            _ => false,
        }
    }

    /// Whether the event holds or not from the position alone, whatever the last move.
    pub fn in_place(&self) -> bool {
        self.names_a_player() || matches!(self, Event::BoardFull | Event::InCheck)
    }
}

impl Variant {
    /// An end rule in words, as the variant file says it.
    pub fn rule_text(&self, rule: &EndRule) -> String {
        let v = self;
        let event = self.condition_text(&rule.condition, false);
        let compare = match (rule.fewest, rule.by_pieces) {
            (true, true) => "fewer pieces win",
            (true, false) => "fewer points win",
            (false, true) => "more pieces win",
            (false, false) => "more points win",
        };
        let outcome = match rule.outcome {
            _ if rule.by_points => compare.to_string(),
            Outcome::Draw => "draw".to_string(),
            Outcome::Scores { who, got, of } => {
                let who = match who {
                    Who::Mover => "mover",
                    Who::That => "that player",
                    Who::Checker => "checker",
                    Who::Player(p) => &v.player(p).name,
                };
                match (got, of) {
                    (1, 1) => format!("{who} wins"),
                    (0, 1) => format!("{who} loses"),
                    _ => format!("{who} scores {got}/{of}"),
                }
            }
        };
        format!("{event}: {outcome}")
    }

    /// A condition in words; `inner`: parenthesized when it combines others.
    pub fn condition_text(&self, c: &Condition, inner: bool) -> String {
        let joined = |cs: &[Condition], word: &str| {
            let parts: Vec<String> = cs.iter().map(|c| self.condition_text(c, true)).collect();
            let text = parts.join(word);
            if inner { format!("({text})") } else { text }
        };
        match c {
            Condition::Is(e) => event_text(self, *e),
            Condition::Not(c) => format!("not {}", self.condition_text(c, true)),
            Condition::All(cs) => joined(cs, " and "),
            Condition::Any(cs) => joined(cs, " or "),
        }
    }
}

/// A single condition in words.
fn event_text(v: &Variant, e: Event) -> String {
    match e {
        Event::Captured { piece, by: None } => format!("{} captured", v.piece(piece).name),
        Event::Captured { piece, by: Some(b) } => {
            format!("{} captured by {}", v.piece(piece).name, v.piece(b).name)
        }
        Event::NoLegalMove => "no legal move".to_string(),
        Event::Repetition(n, false) => format!("position repeated {n} times"),
        Event::Repetition(n, true) => format!("position repeated {n} times by perpetual check"),
        Event::Checkmate => "checkmate".to_string(),
        Event::Stalemate => "stalemate".to_string(),
        Event::CheckmateOnlyBy(kinds) => format!(
            "checkmate given only by {}",
            v.kind_names(kinds).join(" or ")
        ),
        Event::CheckmateRunWithout(kinds) => format!(
            "checkmate without a check by {} in its run",
            v.kind_names(kinds).join(" or ")
        ),
        Event::AllPassed => "every player passed".to_string(),
        Event::CountRanOut => "count ran out".to_string(),
        Event::OnlyPromotions => "only promotions left".to_string(),
        Event::Facing { piece, enemy } => format!(
            "{} facing enemy {} on an open file",
            v.piece(piece).name,
            v.piece(enemy).name
        ),
        Event::Extinct(kinds) => format!("{} extinct", v.kind_names(kinds).join(" or ")),
        Event::InCheck => "in check".to_string(),
        Event::Can {
            owner,
            capture,
            kinds,
            state,
            into,
        } => {
            let verb = if capture { "capture" } else { "move" };
            let into = into.map_or(String::new(), |z| format!(" into {}", v.zones[z].name));
            let what = article(&format!("{}{}", state_text(state), kinds_text(v, kinds)));
            format!("{} can {verb} {what}{into}", owner_text(v, owner))
        }
        Event::Has {
            owner,
            kinds,
            least,
            most,
            only,
            place,
            state,
        } => {
            let owner = owner_text(v, owner);
            let quantity = match (least, most) {
                _ if only => "only".to_string(),
                (0, 0) => "no".to_string(),
                (1, u32::MAX) => "a".to_string(),
                (n, u32::MAX) => format!("at least {n}"),
                (0, n) => format!("fewer than {}", n as u64 + 1),
                (a, b) if a == b => a.to_string(),
                (a, b) => format!("at least {a} and at most {b}"),
            };
            let kinds = kinds_text(v, kinds);
            let place = match place {
                Place::Owned => String::new(),
                Place::Board => " on the board".to_string(),
                Place::Hand => " in hand".to_string(),
                Place::Zone(z) => format!(" in {}", v.zones[z].name),
                Place::OneColour => " on one colour".to_string(),
                Place::Between(k) => format!(" between two {}", v.piece(k).name),
                Place::Connected(z) => format!(" connected to {}", v.zones[z].name),
                Place::Fort(z) => format!(" in a fort on {}", v.zones[z].name),
            };
            let what = format!("{}{kinds}", state_text(state));
            let what = match quantity.as_str() {
                "a" => article(&what),
                q => format!("{q} {what}"),
            };
            format!("{owner} has {what}{place}")
        }
        Event::BoardFull => "board full".to_string(),
        Event::ChecksGiven(n) => format!("{n} checks given"),
        Event::PliesWithoutCapture(n, kinds, drops) => {
            let mut text = format!("{n} plies without capture");
            for (k, piece) in v.pieces.iter().enumerate() {
                if kinds & (1 << k) != 0 {
                    let forward = if v.forward_moves & (1 << k) != 0 {
                        "forward "
                    } else {
                        ""
                    };
                    text += &format!(" or {forward}{} move", piece.name);
                }
            }
            if drops {
                text += " or drop";
            }
            text
        }
    }
}

fn owner_text(v: &Variant, owner: Owner) -> String {
    match owner {
        Owner::AnyPlayer => "a player".to_string(),
        Owner::Every => "every player".to_string(),
        Owner::ToMove => "the player to move".to_string(),
        Owner::That => "that player".to_string(),
        Owner::Player(p) => v.player(p).name.clone(),
    }
}

fn kinds_text(v: &Variant, kinds: Kinds) -> String {
    match kinds {
        Kinds::All => "pieces".to_string(),
        Kinds::Royal => "royal pieces".to_string(),
        Kinds::NonRoyal => "non-royal pieces".to_string(),
        Kinds::Named(k) => v.kind_names(k).join(" or "),
    }
}

/// The state's word and a blank, or nothing.
fn state_text(state: Option<State>) -> &'static str {
    match state {
        None => "",
        Some(State::Attacked) => "attacked ",
        Some(State::Unattacked) => "unattacked ",
        Some(State::Defended) => "defended ",
        Some(State::Undefended) => "undefended ",
    }
}

/// `a` or `an`, as the words read, before them.
fn article(words: &str) -> String {
    let an = words.starts_with(['a', 'e', 'i', 'o', 'u', 'A', 'E', 'I', 'O', 'U']);
    format!("{} {words}", if an { "an" } else { "a" })
}

//! The resolved variant: every name looked up, every cell placed on the board.

mod drawing;
mod end;

pub use crate::terms::{MoveKind, Preferring};

/// `captures are compulsory`: a player with a legal move of the kind must make one;
/// `checks are forbidden`: no move may be of the kind. Compulsory captures may be
/// narrowed further by preferences, applied in turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Obligation {
    pub kind: MoveKind,
    pub compulsory: bool,
    pub prefer: Vec<Preference>,
}

/// One preference among compulsory captures, and the kinds it names as a bit per kind
/// (every kind for `taking the most pieces`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preference {
    pub how: Preferring,
    pub kinds: u64,
}
pub use end::{Condition, EndRule, Event, Kinds, Outcome, Owner, Place, State, Who};

pub use drawing::{Drawing, FIGURES, PictureSet, for_player};

use crate::diagnostic::Span;
use crate::geometry::{Board, Cell, Dir, DirSet, Kind, angle_between};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerId(pub u8);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceId(pub u8);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TagId(pub u8);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OptionId(pub u8);

/// The most players a variant may have.
pub const MAX_PLAYERS: usize = 4;

/// A checked variant, ready to compile.
#[derive(Clone, Debug)]
pub struct Variant {
    pub name: String,
    pub inventor: Option<String>,
    pub description: Option<String>,
    pub board: Board,
    pub players: Vec<Player>,
    pub options: Vec<OptionDef>,
    pub tags: Vec<TagDef>,
    pub pieces: Vec<Piece>,
    pub setup: Vec<Placed>,
    /// Pieces placed at random at the start, on top of `setup`.
    pub random: Option<RandomSetup>,
    pub end_rules: Vec<EndRule>,
    pub zones: Vec<Zone>,
    pub castlings: Vec<Castling>,
    /// Captured pieces go to the captor's hand, to be dropped later.
    pub hand: Option<Hand>,
    /// Position strings always carry FEN's castling and en passant fields.
    pub fen_fields: bool,
    /// `position strings as in SFEN`: SFEN and USI also without hands.
    pub sfen: bool,
    /// `position strings as in PDN`: squares numbered, as draughts players write them.
    pub pdn: bool,
    /// Players may pass: `Some(true)` when not while in check.
    pub pass: Option<bool>,
    /// Kinds of move a player must make when it can, or may never make, as written.
    pub obligations: Vec<Obligation>,
    /// Rules on every drop (`drops ...`).
    pub drops: DropRules,
    /// `pieces in hand enter [only] through gates on ZONE`.
    pub gates: Option<Gates>,
    /// Captures explode: what an explosion leaves.
    pub explosion: Option<Explosion>,
    /// `after a Lion is captured by another kind, the next move captures one by another
    /// kind only on that cell`: the kinds, as a bit set (0: no such rule).
    pub counterstrike: u64,
    /// When a player with several royal pieces is in check.
    pub royal_check: RoyalCheck,
    /// Kinds whose moves restart FEN's clock, besides captures (`position strings count plies since ...`).
    pub clock_kinds: u64,
    /// Whether a drop restarts that count too.
    pub clock_drops: bool,
    /// Kinds of those (or of a rule's `N plies without capture or ...`) whose moves
    /// restart a count only when they go forward (`forward Pawn move`).
    pub forward_moves: u64,
    /// Pieces in hand at the start, one entry per piece.
    pub start_hands: Vec<(PlayerId, PieceId)>,
    /// How the studio draws the pieces that do not say (`pieces drawn as`).
    pub drawing: PictureSet,
    /// What pieces and players count for `more points win`.
    pub points: Option<Points>,
    /// What each move does to enemy pieces around where it lands.
    pub enclosure: Option<Enclosure>,
    /// With `pass`: only a player with no other legal move may pass.
    pub pass_if_stuck: bool,
    /// `counting { ... }`: the counts of moves to a draw, in the file's order.
    pub counts: Vec<Count>,
}

/// One line of `counting`: when a player may count moves, and for how long. See
/// docs/language.md, "Counting moves to a draw", for how a count starts and runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    /// `only royal pieces`: the counting player has only royal pieces on the board;
    /// otherwise at least one that is not royal.
    pub bare: bool,
    /// `once every player has no Pawn on the board`: when counting may start, of the
    /// position alone (`that player`: the player who counts).
    pub condition: Condition,
    /// `from the pieces on the board`: the count starts at twice the pieces on the
    /// board, in plies.
    pub from_pieces: bool,
    /// Tried in order; the first that applies gives the limit.
    pub limits: Vec<CountLimit>,
}

/// `16 moves against Rook`: a limit, applying when the other players have at least
/// `at_least` pieces of the kind on the board together (always, without `against`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountLimit {
    pub moves: u32,
    pub against: Option<(u32, PieceId)>,
}

/// Points, in tenths (`1.5` is 15).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Points {
    /// Per piece kind: what each piece of the kind a player has counts.
    pub worth: Vec<u32>,
    /// Per player: points it has besides its pieces.
    pub bonus: Vec<u32>,
}

/// What a capture's explosion spares: it removes the capturing piece and every piece
/// on the cells one step around its destination, but for these kinds (bit sets).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Explosion {
    /// Never removed by an explosion, not even as the capturing piece.
    pub spared: u64,
    /// Not removed from the cells around the destination.
    pub spared_around: u64,
}

/// Pieces in hand brought in through gates: a move from a cell of the zone that still
/// holds the piece it held at the start may put one there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gates {
    pub zone: usize,
    /// Pieces in hand enter the board in no other way.
    pub only: bool,
}

/// Rules on every drop of the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DropRules {
    /// `drops keep each player's KIND pieces on different colours`: the kinds, a bit set.
    pub spread: u64,
    /// `drops on castling starts give castling rights`.
    pub castling: bool,
}

/// How hands work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hand {
    /// No drop on a cell from which the piece would have no move.
    pub mobile_only: bool,
    /// A piece a move promoted goes to hand as it stands, not as what it promoted from.
    pub keep_promoted: bool,
    /// A piece in hand may also be dropped as its promoted form.
    pub either_side: bool,
}

/// A restriction on dropping a piece, resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoDrop {
    /// Not on the line along forward through a cell holding the player's piece of this kind.
    /// Not on a file holding this many of the player's pieces of the kind.
    FileWith(PieceId, u8),
    /// Not on a cell the player's piece of this kind attacks.
    AttackedBy(PieceId),
    Check,
    Checkmate,
    /// Not on a cell of the zone (by its index).
    InZone(usize),
    /// Only on cells of the zone.
    OutsideZone(usize),
    /// Only where it encloses a line of enemy pieces (see [`Flip::Enclosed`]).
    Enclosing,
    /// While a cell of the zone is empty, only there (and `Enclosing` waits).
    FirstOn(usize),
}

/// What a move does, once landed, to enemy pieces around its cell: `enclosed enemy
/// pieces change sides` (Othello), `enclosed enemy pieces are captured, on orthogonal
/// lines of one piece` (tafl), `enemy pieces next to where a piece lands change sides`
/// (Ataxx).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enclosure {
    pub which: Flip,
    /// The pieces are captured rather than turned.
    pub captures: bool,
    /// The kind of direction lines run in; `None`: every direction of the board.
    pub lines: Option<crate::geometry::Kind>,
    /// Only lines one piece long.
    pub single: bool,
    /// A zone whose empty cells (the mover's part) close a line as a piece of the
    /// mover would.
    pub hostile: Option<usize>,
    /// Kinds taken only when every cell next to them along the lines holds a piece of
    /// the mover or is such an empty cell; with a zone, only on their owner's part of
    /// it (elsewhere they are taken as others are).
    pub every_side: Option<(Kinds, Option<usize>)>,
    /// Rows of two or more along the board's edge are acted on too when every piece
    /// in them has a piece of the mover beside it away from the edge.
    pub edge_rows: bool,
}

/// Which enemy pieces a move acts on once it lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flip {
    /// Each straight line of one enemy's pieces from the cell to another of the mover's.
    Enclosed,
    /// Every enemy piece one step from the cell.
    Next,
}

/// Named cells per player, for promotion.
#[derive(Clone, Debug)]
pub struct Zone {
    pub name: String,
    /// The zone's cells, by player.
    pub cells: Vec<Vec<Cell>>,
}

/// Whether each part's piece of `player` stands on its start, `at` telling what
/// stands on a cell: the one test of a castling's pieces being in place.
pub fn parts_in_place(
    player: PlayerId,
    parts: &[(PieceId, Cell, Cell)],
    at: impl Fn(Cell) -> Option<(PlayerId, PieceId)>,
) -> bool {
    parts
        .iter()
        .all(|(k, from, _)| at(*from) == Some((player, *k)))
}

/// A move of several pieces at once, lost once any of them has moved.
#[derive(Clone, Debug)]
pub struct Castling {
    pub player: PlayerId,
    /// (piece, from, to); the first names the move.
    pub parts: Vec<(PieceId, Cell, Cell)>,
    pub empty: Vec<Cell>,
    pub safe: Vec<Cell>,
    /// Where enemy pieces land that take the move away (`lost when ... aims at`).
    pub aimed: Vec<Aimed>,
    /// The cells its move text names: the first piece's start and end, or, when the
    /// first piece has an ordinary move between them too, its start and the second
    /// piece's start (the king taking its own rook, as UCI writes Chess960 castling).
    pub written: (Cell, Cell),
    /// Its bit among the castling rights. The castlings one `from anywhere` statement
    /// stands for share a bit per start of the second piece: the first piece stands
    /// on one cell, so only one of them ever has its pieces in place.
    pub right: u8,
    /// For a castling drawn from `from anywhere on their line`: the direction along
    /// the line from the first piece's start to the second's. Such a castling is lost
    /// once a piece of the first kind moves, not when its start cell is touched.
    pub anywhere: Option<Dir>,
}

/// The cells where a piece of one player and kind, landing, takes a castling away.
#[derive(Clone, Debug)]
pub struct Aimed {
    pub player: PlayerId,
    pub piece: PieceId,
    /// The cell aimed at.
    pub target: Cell,
    pub landing: Vec<Cell>,
}

/// Pieces shuffled over cells.
#[derive(Clone, Debug)]
pub struct RandomSetup {
    pub pools: Vec<RandomPool>,
    /// Later players copy the first player's draw, cell by listed cell (when the
    /// guard holds).
    pub mirrored: Option<Option<Guard>>,
    /// Draw again while any of these holds.
    pub redraw: Vec<Redraw>,
}

/// A condition under which a random setup is drawn again.
#[derive(Clone, Debug)]
pub struct Redraw {
    /// `unless`: drawn again while the condition fails.
    pub unless: bool,
    pub condition: Condition,
}

#[derive(Clone, Debug)]
pub struct RandomPool {
    pub player: PlayerId,
    /// One entry per piece to place.
    pub pieces: Vec<PieceId>,
    pub cells: Vec<Cell>,
}

/// A piece's promotion on entering a zone.
#[derive(Clone, Debug)]
pub struct Promotion {
    pub guard: Option<Guard>,
    /// Only this player's pieces promote so; `None`: every player's.
    pub player: Option<PlayerId>,
    pub optional: bool,
    /// Only to kinds the player has fewer of on the board than the setup gives it.
    pub lost_only: bool,
    /// Kinds it may not become while the player has this many on the board.
    pub most: Vec<(PieceId, u32)>,
    /// Forced where the piece could never move again.
    pub forced_if_stuck: bool,
    /// A chain entering the zone promotes there and goes on as the new kind.
    pub at_once: bool,
    /// With `standing`: also anywhere while it is the player's only piece of its kind
    /// on the board.
    pub alone: bool,
    /// Not made where the move gives check or the new piece attacks an enemy piece.
    pub quiet: bool,
    /// Which moves touching the zone promote.
    pub when: Trigger,
    pub zone: usize,
    /// The kinds it may become; empty means every non-royal kind but its own.
    pub to: Vec<PieceId>,
}

impl Promotion {
    /// Whether a move promoting by `other` is offered the same as by this one: the
    /// same kinds, limits and choices, whatever the zone and the moves that promote.
    pub fn offers_as(&self, other: &Promotion) -> bool {
        self.optional == other.optional
            && self.lost_only == other.lost_only
            && self.most == other.most
            && self.forced_if_stuck == other.forced_if_stuck
            && self.at_once == other.at_once
            && self.alone == other.alone
            && self.quiet == other.quiet
            && self.to == other.to
    }
}

/// Cells an initial move may start from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Initial {
    /// Where the player's pieces of this kind stand at the start, less these cells.
    StartExcept(Vec<Cell>),
    Cells(Vec<Cell>),
    /// The cells of the player's zone.
    Zone(usize),
    /// Every cell but those of the inner rule (`not from start`).
    Not(Box<Initial>),
}

#[derive(Clone, Debug)]
pub struct Player {
    pub name: String,
    pub forward: Option<Dir>,
    pub capitals: bool,
}

#[derive(Clone, Debug)]
pub struct OptionDef {
    pub name: String,
    pub default: bool,
    pub about: Option<String>,
}

#[derive(Clone, Debug)]
pub struct TagDef {
    pub mark: char,
    pub about: Option<String>,
    pub once_per_game: bool,
}

/// Holds when the option has the given value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guard {
    pub option: OptionId,
    pub when: bool,
}

/// Values of a variant's options, by `OptionId`.
pub type OptionValues = [bool];

pub fn holds(guard: Option<Guard>, options: &OptionValues) -> bool {
    guard.is_none_or(|g| options[g.option.0 as usize] == g.when)
}

/// `captured by Lion from afar only when undefended, unless the move also captures a
/// piece other than Pawn`: a piece of the kinds `by`, starting on a cell not next to
/// this piece, may capture it only where, once the move is made, no piece of its
/// player could capture on its cell; with `other_than`, also where the move captures a
/// piece of a kind not listed there.
#[derive(Clone, Debug)]
pub struct GuardedCapture {
    pub guard: Option<Guard>,
    pub by: Vec<PieceId>,
    pub other_than: Option<Vec<PieceId>>,
}

#[derive(Clone, Debug)]
pub struct Piece {
    pub name: String,
    /// Upper-case code; each player's case applies when drawn.
    pub code: String,
    pub moves: Vec<Pattern>,
    /// When present and holding: only these pieces may capture this one.
    pub captured_only_by: Vec<(Option<Guard>, Vec<PieceId>)>,
    /// Captures of this piece from afar that need it undefended.
    pub guarded: Vec<GuardedCapture>,
    /// When holding: the piece may not end a move on a cell the enemy attacks.
    pub not_attacked: Vec<Option<Guard>>,
    /// When holding: no move may leave this piece attacked.
    pub royal: Vec<Option<Guard>>,
    /// When holding: while its player is in check, it moves only to capture the one
    /// piece giving check.
    pub check_bound: Vec<Option<Guard>>,
    /// When holding: no move may leave this piece facing an enemy of the kind on an
    /// open file.
    pub facing: Vec<(Option<Guard>, PieceId)>,
    pub promotion: Vec<Promotion>,
    /// What it becomes when captured into a hand: the piece whose code is this one's
    /// without its leading `+`.
    pub demotes_to: Option<PieceId>,
    /// Restrictions on dropping it, each with its guard.
    pub no_drop: Vec<(Option<Guard>, NoDrop)>,
    /// How the studio draws it, when the piece says (`drawn as`, `drawn from`).
    pub drawing: Option<Drawing>,
    /// Where its moves leave a wall, each with its guard.
    pub walling: Vec<(Option<Guard>, Walling)>,
    pub span: Span,
}

/// Where a piece's move leaves a wall: a cell no piece may stand on or pass for the
/// rest of the game. A move that finds no such cell is not made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Walling {
    /// On the cell the piece left.
    Left,
    /// On a cell empty after the move, but those of `except`; with `reach`, only where
    /// a piece of that kind, moving from the piece's new cell over the board as the
    /// move left it, could go to an empty cell (an arrow shot).
    Placed {
        reach: Option<PieceId>,
        except: Vec<Cell>,
    },
    /// On the cell where the piece captured, the piece gone; a move that captures
    /// nothing leaves no wall.
    Capturing,
    /// The board's one wall moves to a cell empty after the move, other than where it
    /// stood; a move that finds none is not made. Set for every piece by the game's
    /// `after each move, the mover moves the wall to another empty cell`.
    Moved,
}

/// What a move's destination may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dest {
    Empty,
    Enemy,
    Either,
}

impl Dest {
    pub fn allows_empty(self) -> bool {
        self != Dest::Enemy
    }
    pub fn allows_enemy(self) -> bool {
        self != Dest::Empty
    }
}

/// One move pattern of a piece.
#[derive(Clone, Debug)]
pub struct Pattern {
    pub guard: Option<Guard>,
    pub legs: Vec<Leg>,
    pub dest: Dest,
    /// Only an enemy of this kind may be captured by this move.
    pub target: Option<PieceId>,
    /// The end may not be adjacent (of each listed kind) to the start.
    pub end_not_adjacent: Vec<Kind>,
    /// Each new cell touches (by this kind) no earlier cell but the one just left.
    pub trail: Option<Kind>,
    pub never_reversing: bool,
    pub tag: Option<TagId>,
    /// Allowed only from these cells.
    pub initial: Option<Initial>,
    /// The kinds that may capture this move's piece on a cell it passed, next move.
    pub en_passant: Vec<PieceId>,
    /// Every leg takes the same number of steps.
    pub equal_legs: bool,
    /// The move may be made again from its end, the same way, through empty cells.
    pub repeated: bool,
    /// The move jumps pieces on the cells it passes.
    pub hurdle: Option<Hurdle>,
    /// `again while it can`: the piece goes on from its end with such a move while
    /// one can be made.
    pub again: bool,
    /// With `again`: the move going on never goes opposite to the one it follows.
    pub never_turning_back: bool,
    /// `to start`: the move ends on the cell it started from.
    pub to_start: bool,
    /// The move starts, passes and ends only on cells of this zone.
    pub within: Option<usize>,
    /// The move ends, and unless it may pass the zone (the flag) passes, only on cells
    /// outside this zone.
    pub outside: Option<(usize, bool)>,
    /// The piece stays, and a copy of it lands on the end.
    pub copy: bool,
    /// A condition on cells near the start.
    pub nearby: Option<Nearby>,
    pub span: Span,
}

/// `unless an enemy is 1 step forward orthogonal`: a move made only when none (or, if
/// `present`, at least one) of the cells `steps` straight steps from the start along
/// the directions holds a piece of `holder`'s side.
#[derive(Clone, Debug)]
pub struct Nearby {
    pub present: bool,
    pub holder: Holder,
    pub steps: u32,
    pub directions: DirExpr,
}

/// Whose piece a [`Nearby`] condition looks for, seen from the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holder {
    Enemy,
    Friend,
    Piece,
}

impl Nearby {
    /// The cells the condition looks at, for a player whose forward is `forward`.
    pub fn cells(&self, board: &Board, forward: Option<Dir>, from: Cell) -> Vec<Cell> {
        self.directions
            .resolve(board, forward, None)
            .iter()
            .filter_map(|d| {
                let mut p = board.point(from);
                for _ in 0..self.steps {
                    p = board.shift(p, d);
                    if !board.within_bounds(p) {
                        return None;
                    }
                }
                board.at(p)
            })
            .collect()
    }
}

/// What a move passing over pieces needs on the cells it passes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hurdle {
    /// Exactly this many of the passed cells hold a piece.
    pub count: u32,
    /// None of those pieces may be of these kinds.
    pub except: Vec<PieceId>,
    /// The piece jumped stands on the last passed cell; the others are empty.
    pub right_behind: bool,
    /// Whose pieces may be jumped, seen from the mover.
    pub side: Holder,
    /// The pieces jumped are captured, and the move ends on an empty cell.
    pub captures: bool,
    /// Captured pieces leave the board as they are jumped, not when the chain ends.
    pub at_once: bool,
}

/// A leg: `min..=max` single steps (no `max`: until the board ends).
#[derive(Clone, Debug)]
pub struct Leg {
    pub leap: bool,
    pub min: u32,
    pub max: Option<u32>,
    pub direct: bool,
    pub directions: DirExpr,
}

/// Directions a leg may take, resolved per player and previous step.
#[derive(Clone, Debug)]
pub struct DirExpr {
    pub include: Vec<DirTerm>,
    pub except: Vec<DirTerm>,
}

#[derive(Clone, Debug)]
pub struct DirTerm {
    pub qualifiers: Vec<Qualifier>,
    pub base: DirBase,
}

#[derive(Clone, Copy, Debug)]
pub enum DirBase {
    Kind(Kind),
    Any,
    Compass(Dir),
}

impl DirExpr {
    /// The directions this expression allows for a player whose forward is `forward`,
    /// after a previous step `prev`.
    pub fn resolve(&self, board: &Board, forward: Option<Dir>, prev: Option<Dir>) -> DirSet {
        let union = |terms: &[DirTerm]| {
            terms.iter().fold(DirSet::EMPTY, |acc, t| {
                acc.union(t.resolve(board, forward, prev))
            })
        };
        union(&self.include).minus(union(&self.except))
    }

    /// Whether the set depends on the player's forward direction.
    pub fn is_relative(&self) -> bool {
        self.include
            .iter()
            .chain(&self.except)
            .flat_map(|t| &t.qualifiers)
            .any(|q| *q != Qualifier::Outward)
    }
}

impl Pattern {
    /// Whether the pattern's cells depend on which player moves.
    pub fn is_relative(&self) -> bool {
        self.legs.iter().any(|l| l.directions.is_relative())
            || self
                .nearby
                .as_ref()
                .is_some_and(|n| n.directions.is_relative())
    }
}

impl DirTerm {
    fn resolve(&self, board: &Board, forward: Option<Dir>, prev: Option<Dir>) -> DirSet {
        let mut set = match self.base {
            DirBase::Kind(k) => board.directions_of(k),
            DirBase::Any => board.all_directions(),
            DirBase::Compass(d) => DirSet::EMPTY.with(d),
        };
        for q in &self.qualifiers {
            let reference = match q {
                Qualifier::Outward => prev,
                _ => forward,
            };
            let Some(r) = reference else {
                return DirSet::EMPTY;
            };
            let rb = board.direction(r).bearing;
            let keep = board.dirs_where(|d| {
                let a = angle_between(d.bearing, rb);
                // Clockwise from the reference, 0..360.
                let turn = (d.bearing as i32 - rb as i32).rem_euclid(360);
                match q {
                    Qualifier::Left => turn > 180,
                    Qualifier::Right => turn > 0 && turn < 180,
                    Qualifier::StraightForward => a == 0,
                    Qualifier::StraightBackward => a == 180,
                    Qualifier::Forward => a < 90,
                    Qualifier::Backward => a > 90,
                    Qualifier::Sideways => a == 90,
                    Qualifier::Outward => a > 0 && a < 90,
                }
            });
            set = DirSet(set.0 & keep.0);
        }
        set
    }
}

/// When a player with several royal pieces is in check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RoyalCheck {
    /// When any one is attacked.
    #[default]
    Each,
    /// When every one is attacked.
    Together,
    /// Only when it has one left: with more, none is royal.
    Alone,
}

/// A direction's relation to the player's forward direction (or, for `Outward`, to
/// the previous step).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Qualifier {
    StraightForward,
    StraightBackward,
    Forward,
    Backward,
    Sideways,
    Outward,
    Left,
    Right,
}

/// Which moves that touch a promotion zone promote; any that holds is enough.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trigger {
    /// Starts in the zone.
    pub from: bool,
    /// Ends in the zone.
    pub into: bool,
    /// Passes a cell of the zone (a cell the move must find empty).
    pub through: bool,
    /// Ends in the zone, not having started there.
    pub entering: bool,
    /// Only a move that captures.
    pub capturing: bool,
    /// A move of its own, by a piece standing in the zone (no other move promotes).
    pub standing: bool,
}

/// A piece standing on a cell at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub cell: Cell,
    pub player: PlayerId,
    pub piece: PieceId,
}

impl Variant {
    /// Whether moves of the kind are compulsory (`true`) or forbidden (`false`).
    pub fn obliges(&self, kind: MoveKind, compulsory: bool) -> bool {
        (self.obligations.iter()).any(|o| o.kind == kind && o.compulsory == compulsory)
    }

    /// Whether positions have hands: captures go to hand, or pieces start there.
    pub fn has_hands(&self) -> bool {
        self.hand.is_some() || !self.start_hands.is_empty()
    }

    /// Whether moves and positions are written as the shogi family's USI and SFEN do:
    /// a game with hands and promoted kinds coded `+X`, unless its file asks for FEN,
    /// or one whose file asks for SFEN.
    pub fn usi_notation(&self) -> bool {
        self.sfen
            || self.has_hands()
                && !self.fen_fields
                && self.pieces.iter().any(|p| p.code.starts_with('+'))
    }
    pub fn default_options(&self) -> Vec<bool> {
        self.options.iter().map(|o| o.default).collect()
    }
    /// A piece by name or code, any case.
    pub fn find_piece(&self, s: &str) -> Option<PieceId> {
        self.pieces
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(s) || p.code.eq_ignore_ascii_case(s))
            .map(|i| PieceId(i as u8))
    }
    pub fn find_player(&self, s: &str) -> Option<PlayerId> {
        self.players
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(s))
            .map(|i| PlayerId(i as u8))
    }
    pub fn find_option(&self, s: &str) -> Option<OptionId> {
        self.options
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(s))
            .map(|i| OptionId(i as u8))
    }
    /// The names of the kinds in a bit set, in the file's order.
    pub fn kind_names(&self, kinds: u64) -> Vec<&str> {
        (0..self.pieces.len())
            .filter(|k| kinds & (1 << k) != 0)
            .map(|k| self.pieces[k].name.as_str())
            .collect()
    }
    pub fn piece(&self, id: PieceId) -> &Piece {
        &self.pieces[id.0 as usize]
    }
    pub fn player(&self, id: PlayerId) -> &Player {
        &self.players[id.0 as usize]
    }
    /// Whether the piece is royal under these option values.
    pub fn is_royal(&self, id: PieceId, options: &OptionValues) -> bool {
        self.piece(id).royal.iter().any(|g| holds(*g, options))
    }
    pub fn tag(&self, id: TagId) -> &TagDef {
        &self.tags[id.0 as usize]
    }
    /// A piece's code as the given player's pieces print.
    pub fn code_for(&self, piece: PieceId, player: PlayerId) -> String {
        let code = &self.piece(piece).code;
        if self.player(player).capitals {
            code.to_ascii_uppercase()
        } else {
            code.to_ascii_lowercase()
        }
    }
}

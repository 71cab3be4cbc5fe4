//! Positions: an unchecked [`Setup`] becomes a [`Position`] only through validation.

use crate::compile::{MAX_PLAYERS, Rules, Sets, Width, by_width};
use crate::geometry::{Cell, CellSet, Wide};
use crate::model::{Enclosure, Flip, PieceId, Placed, PlayerId, TagId, Variant};
use std::fmt;

/// A position as written or read, not yet checked against the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// What stands on each cell, by cell index.
    pub cells: Vec<Option<(PlayerId, PieceId)>>,
    pub to_move: PlayerId,
    /// Once-per-game moves already made: (player, piece kind, tag).
    pub used: Vec<(PlayerId, PieceId, TagId)>,
    /// Plies since the last capture (or move of a kind that resets the count).
    pub quiet_plies: u32,
    /// Move number, starting at 1 and counting full rounds.
    pub move_number: u32,
    /// Castling moves still allowed, by index into the variant's castlings.
    pub castling: Vec<usize>,
    /// Cells the last move passed that may be captured in passing now.
    pub passed: Vec<Cell>,
    /// Pieces in hand: one entry per piece.
    pub hands: Vec<(PlayerId, PieceId)>,
    /// Checks given so far, by player (missing entries: none), in games that count them.
    pub checks: Vec<u8>,
    /// Cells whose pieces got their kind by promotion and go to a hand as the kind
    /// they promoted from (only in variants with hands; see `Rules::promoted_from`).
    pub promoted: Vec<Cell>,
    /// The cell of the piece that passed `passed`, when the position string must say
    /// which piece it was (several could have).
    pub passer: Option<Cell>,
    /// Cells walled off: no piece stands on or passes them (see [`crate::model::Walling`]).
    pub walls: Vec<Cell>,
    /// The running count of moves to a draw, in games that count: its limit and the
    /// plies counted (see [`crate::model::Count`]).
    pub count: Option<(u32, u32)>,
    /// Open gates, in games with gates: cells whose piece has not left them since the
    /// start (a cell that is no gate of the piece standing there counts for nothing).
    pub gates: Vec<Cell>,
    /// Where the last move captured a piece of the counter-strike rule's kinds by
    /// another kind (see [`crate::model::Variant::counterstrike`]).
    pub struck: Option<Cell>,
}

impl Setup {
    /// The variant's start position; a random setup is drawn with seed 0 (see
    /// [`Setup::seeded`] for any other seed, and for the errors a draw may meet).
    pub fn start(rules: &Rules) -> Setup {
        Setup::seeded(rules, 0).unwrap_or_else(|_| Setup::fixed(rules))
    }

    /// The fixed part of the start: the setup's placed pieces only.
    pub fn fixed(rules: &Rules) -> Setup {
        let v = &rules.variant;
        let mut cells = vec![None; v.board.len()];
        for p in &v.setup {
            cells[p.cell.index()] = Some((p.player, p.piece));
        }
        Setup {
            cells,
            to_move: PlayerId(0),
            used: vec![],
            quiet_plies: 0,
            move_number: 1,
            castling: (0..v.castlings.len()).collect(),
            passed: vec![],
            hands: rules.start_hands.clone(),
            checks: vec![],
            promoted: vec![],
            passer: None,
            walls: vec![],
            count: None,
            gates: rules.gate_cells.iter().map(|g| g.1).collect(),
            struck: None,
        }
    }

    /// The pieces on the board, as placements.
    pub fn placed(&self) -> Vec<Placed> {
        self.cells
            .iter()
            .enumerate()
            .filter_map(|(i, c)| {
                c.map(|(player, piece)| Placed {
                    cell: Cell(i as u16),
                    player,
                    piece,
                })
            })
            .collect()
    }
}

/// Why a setup is not a valid position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The setup's cell count differs from the board's.
    WrongSize {
        expected: usize,
        found: usize,
    },
    UnknownPlayer(u8),
    UnknownPiece(u8),
    /// A player lacks a piece whose capture decides the game.
    MissingPiece {
        player: String,
        piece: String,
    },
    /// A once-per-game entry names a move the piece does not have.
    NotOncePerGame {
        piece: String,
        tag: char,
    },
    /// A random setup's rejection rule refused every draw.
    RedrawLimit {
        tries: u32,
    },
    /// A field names something the rules forbid.
    Illegal {
        field: &'static str,
        message: String,
    },
    /// A counter is past [`MAX_COUNTER`].
    CounterTooLarge {
        field: &'static str,
        value: u32,
    },
    /// The position string is malformed.
    Syntax {
        field: &'static str,
        message: String,
    },
    /// The player who moved last has a royal piece attacked: no legal move leaves one
    /// so, and the side to move could take it.
    LastMoverInCheck {
        player: String,
        to_move: String,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::WrongSize { expected, found } => {
                write!(
                    f,
                    "the position has {found} cells, but the board has {expected}"
                )
            }
            PositionError::UnknownPlayer(p) => write!(f, "no player number {p}"),
            PositionError::UnknownPiece(p) => write!(f, "no piece number {p}"),
            PositionError::MissingPiece { player, piece } => {
                write!(f, "{player} has no {piece}, whose capture decides the game")
            }
            PositionError::NotOncePerGame { piece, tag } => {
                write!(f, "{piece} has no once-per-game move tagged `{tag}`")
            }
            PositionError::RedrawLimit { tries } => write!(
                f,
                "the random setup's redraw rule refused {tries} draws in a row; it may never be satisfied"
            ),
            PositionError::Syntax { field, message }
            | PositionError::Illegal { field, message } => {
                write!(f, "in the {field}: {message}")
            }
            PositionError::CounterTooLarge { field, value } => write!(
                f,
                "in the {field}: {value} is more than {MAX_COUNTER}, the largest accepted"
            ),
            PositionError::LastMoverInCheck { player, to_move } => write!(
                f,
                "{player} is in check with {to_move} to move: no legal move leaves its own royal piece attacked"
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// The largest ply count and move number a position may start with. Far below
/// `u32::MAX`, so no game can play its counters into wrapping; past it they would
/// saturate rather than wrap.
pub const MAX_COUNTER: u32 = 1_000_000_000;

/// The most pieces of one kind (counted unpromoted) a position may hold on the board
/// and in all hands together, so that no hand can overflow its count.
pub const MAX_OF_A_KIND: usize = 255;

/// What a move undoes.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    /// The move gave check, counted for its player.
    checked: bool,
    /// The mover's run of checks before the move (see [`Rules::run_kinds`]).
    run: u64,
    key: u64,
    used: u32,
    quiet_plies: u32,
    rights: u64,
    passing: u16,
    victim: Cell,
    passes: u8,
    /// Whether the moving piece and the captured one had been promoted.
    promoted: (bool, bool),
    /// What an explosion removed: a bit per cell around the destination (in the order
    /// of `Rules::around`), bit 15 for the capturing piece.
    blasted: u16,
    /// The pieces removed from the cells around, as `player << 8 | piece`.
    blast: [u16; 12],
    /// Which of them had been promoted.
    blast_promoted: u16,
    /// Pieces that changed sides, per ray from the destination (in the order of
    /// `Rules::rays`): how many, and their owner before as `owner << 6`.
    flipped: [u8; 16],
    /// Pieces captured by enclosure, in the order of `flipped`, as `owner << 8 |
    /// piece`, with [`TAKEN_PROMOTED`] when promoted.
    taken: [u16; crate::check::MOST_ENCLOSED],
    /// [`PositionOf::enclosed`] before the move.
    enclosed: u64,
    /// Pieces captured by jumping, as `cell << 16 | owner << 8 | piece`, with
    /// [`TAKEN_PROMOTED`] when promoted; the first `jumped_count` are used.
    jumped: [u32; crate::compile::MOST_JUMPED],
    jumped_count: u8,
    /// Where the moved wall stood before the move (see [`crate::model::Walling::Moved`]).
    lifted: Option<Cell>,
    struck: Option<Cell>,
    /// The count's limit and plies before the move.
    count: (u32, u32),
    gates: u64,
}

/// The bits of an [`Undo::flipped`] entry that count pieces.
const FLIP_COUNT: u8 = 63;

/// The bit of an [`Undo::taken`] entry for a promoted piece.
const TAKEN_PROMOTED: u16 = 1 << 15;

/// The bit of [`Undo::blasted`] for the capturing piece.
const BLAST_MOVER: u16 = 1 << 15;

/// A legal position. Its cell sets have the width the rules were compiled with; code
/// that needs them works on a `PositionOf` through [`Position::view`].
/// Make and unmake never allocate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    inner: Inner,
}

/// A position of one width made a [`Position`], for what is judged at the top level.
pub(crate) trait Whole: Width {
    fn whole(p: PositionOf<Self>) -> Position;
}

impl Whole for u64 {
    fn whole(p: PositionOf<Self>) -> Position {
        Position {
            inner: Inner::One(p),
        }
    }
}

impl Whole for u128 {
    fn whole(p: PositionOf<Self>) -> Position {
        Position {
            inner: Inner::Two(p),
        }
    }
}

impl Whole for Wide<8> {
    fn whole(p: PositionOf<Self>) -> Position {
        Position {
            inner: Inner::Wide8(Box::new(p)),
        }
    }
}

impl Whole for Wide<16> {
    fn whole(p: PositionOf<Self>) -> Position {
        Position {
            inner: Inner::Wide16(Box::new(p)),
        }
    }
}

// The one- and two-word positions stay inline; only the wide ones are boxed.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
enum Inner {
    One(PositionOf<u64>),
    Two(PositionOf<u128>),
    Wide8(Box<PositionOf<Wide<8>>>),
    Wide16(Box<PositionOf<Wide<16>>>),
}

/// A position at one width, borrowed; see [`Position::view`].
#[derive(Clone, Copy, Debug)]
pub enum View<'a> {
    One(&'a PositionOf<u64>),
    Two(&'a PositionOf<u128>),
    Wide8(&'a PositionOf<Wide<8>>),
    Wide16(&'a PositionOf<Wide<16>>),
}

/// A position at one width, borrowed to change; see [`Position::view_mut`].
pub(super) enum ViewMut<'a> {
    One(&'a mut PositionOf<u64>),
    Two(&'a mut PositionOf<u128>),
    Wide8(&'a mut PositionOf<Wide<8>>),
    Wide16(&'a mut PositionOf<Wide<16>>),
}

/// A legal position with cell sets of type `S`: bitboards per player and kind, a
/// mailbox, and the move state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionOf<S: CellSet> {
    /// Per cell: 0 when empty, else `player << 8 | piece + 1`.
    mailbox: S::Slots,
    by_player: [S; MAX_PLAYERS],
    by_kind: [S; 64],
    occupied: S,
    players: u8,
    to_move: PlayerId,
    /// Once-per-game bits used, per player.
    used: [u32; MAX_PLAYERS],
    quiet_plies: u32,
    move_number: u32,
    /// Castling moves still allowed, one bit each.
    rights: u64,
    /// Open gates, a bit each (see [`Rules::gate_cells`]).
    gates: u64,
    /// What the last move passed, open to capture now: `Rules::passing[passing - 1]`
    /// (0: nothing), and the cells of that entry as a set.
    passing: u16,
    passed: S,
    /// Where the piece that passed them stands.
    victim: Cell,
    /// How many passes were played in a row just now.
    passes: u8,
    /// Cells of pieces that got their kind by promotion (only with hands).
    promoted: S,
    /// The kinds the last move captured by enclosure, a bit each.
    enclosed: u64,
    /// Walled-off cells; they count as occupied too, holding no piece.
    walls: S,
    /// See [`Setup::struck`].
    struck: Option<Cell>,
    /// Pieces in hand, by player and kind.
    hand: [[u8; 64]; MAX_PLAYERS],
    /// Checks given so far, by player, in games that count them.
    checks: [u8; MAX_PLAYERS],
    /// Per player: the kinds with at least one piece in hand.
    in_hand: [u64; MAX_PLAYERS],
    /// Per player, in games that keep runs: the kinds of [`Rules::run_kinds`] that gave
    /// check in the player's current run (its last moves, each of which gave check).
    run: [u64; MAX_PLAYERS],
    /// The running count's limit in plies (0: none) and the plies it has counted.
    /// Repetition does not compare them, so they stay out of the key.
    pub(super) count_limit: u32,
    pub(super) count_ply: u32,
    /// The Zobrist key of all the above that repetition compares (see
    /// [`crate::compile::Keys`]), kept up to date by make and unmake.
    key: u64,
}

/// What sets a move apart from a plain one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    Plain,
    /// The move passes cells open to capture next move: `Rules::passing[i - 1]`.
    Passing(u16),
    /// Captures in passing the piece standing on this cell.
    InPassing(Cell),
    /// The castling move of this index.
    Castle(u8),
    /// A piece put from hand on `to` (`from` is `to` too).
    Drop,
    /// Nothing moves: the side to move passes (`from` and `to` are the cell of its
    /// royal piece, or of another of its pieces).
    Pass,
    /// The piece stays on `from`, and a copy of it lands on `to` (`leaving a copy`);
    /// written as a drop, since which piece made it changes nothing.
    Copy,
    /// Captures the pieces it jumps: the chain of this index among those of the piece
    /// on `from` (see `PositionOf::walk_jumps`), taking `count` pieces.
    Jump {
        index: u16,
        count: u8,
    },
}

/// A move, describing itself: who moves what, where, what it takes, and its tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Cell,
    pub to: Cell,
    pub piece: PieceId,
    pub captured: Option<(PlayerId, PieceId)>,
    pub tag: Option<TagId>,
    /// The kind the piece becomes.
    pub promotion: Option<PieceId>,
    pub special: Special,
    /// The cell the move walls off, last (see [`crate::model::Walling`]).
    pub wall: Option<Cell>,
    /// The piece from hand the move brings onto a gate, and the gate.
    pub gate: Option<(PieceId, Cell)>,
}

impl Move {
    /// The wall that move text names: none where the piece itself turned into it
    /// (see [`crate::model::Walling::Capturing`]), which the move already says.
    #[inline]
    pub fn written_wall(&self) -> Option<Cell> {
        self.wall.filter(|w| *w != self.to)
    }

    /// The cell of the captured piece, if any; none for a capture by jumping, which
    /// may take several (see `PositionOf::jump_chain`).
    #[inline]
    pub fn capture_cell(&self) -> Option<Cell> {
        match self.special {
            Special::Jump { .. } => None,
            Special::InPassing(c) => self.captured.map(|_| c),
            _ => self.captured.map(|_| self.to),
        }
    }
}

impl Position {
    /// Validates a setup against the rules.
    pub fn from_setup(rules: &Rules, setup: &Setup) -> Result<Position, PositionError> {
        // Wide positions are boxed: `into` makes the box, and is a no-op for the others.
        #[allow(clippy::useless_conversion)]
        let inner = by_width!(&rules.sets, Sets => Inner, _, S => {
            PositionOf::<S>::from_setup(rules, setup)?.into()
        });
        Ok(Position { inner })
    }

    /// The variant's start position.
    pub fn start(rules: &Rules) -> Result<Position, PositionError> {
        Position::from_setup(rules, &Setup::start(rules))
    }

    /// The position at its width, for code generic over `CellSet`.
    pub fn view(&self) -> View<'_> {
        by_width!(&self.inner, Inner => View, p => p)
    }

    /// The position at its width, to change; for walks that make and unmake moves.
    pub(super) fn view_mut(&mut self) -> ViewMut<'_> {
        match &mut self.inner {
            Inner::One(p) => ViewMut::One(p),
            Inner::Two(p) => ViewMut::Two(p),
            Inner::Wide8(p) => ViewMut::Wide8(p),
            Inner::Wide16(p) => ViewMut::Wide16(p),
        }
    }

    /// Whether a game can be played from here: each player has every piece whose
    /// capture wins. Positions without one are fine to analyse, not to start a game.
    pub fn check_playable(&self, rules: &Rules) -> Result<(), PositionError> {
        by_width!(&self.inner, Inner, p => p.check_playable(rules))
    }

    /// Back to an unchecked setup.
    pub fn to_setup(&self, rules: &Rules) -> Setup {
        by_width!(&self.inner, Inner, p => p.to_setup(rules))
    }

    /// What stands on a cell.
    #[inline]
    pub fn at(&self, c: Cell) -> Option<(PlayerId, PieceId)> {
        by_width!(&self.inner, Inner, p => p.at(c))
    }
    /// What stands on the board, cell by cell.
    pub fn placed(&self, variant: &Variant) -> Vec<Placed> {
        variant
            .board
            .cells()
            .filter_map(|c| {
                self.at(c).map(|(player, piece)| Placed {
                    cell: c,
                    player,
                    piece,
                })
            })
            .collect()
    }
    /// The walled-off cells, lowest index first.
    pub fn walls(&self) -> Vec<Cell> {
        by_width!(&self.inner, Inner, q => q.walls().iter().collect())
    }
    /// The cells of a player's pieces of one kind, lowest index first.
    pub fn cells_of(&self, p: PlayerId, k: PieceId) -> Vec<Cell> {
        by_width!(&self.inner, Inner, q => q.pieces_of(p, k).iter().collect())
    }
    #[inline]
    pub fn to_move(&self) -> PlayerId {
        by_width!(&self.inner, Inner, p => p.to_move)
    }
    pub fn players(&self) -> u8 {
        by_width!(&self.inner, Inner, p => p.players)
    }
    /// The player who made the last move.
    pub fn last_mover(&self) -> PlayerId {
        let n = self.players();
        PlayerId((self.to_move().0 + n - 1) % n)
    }
    /// The kinds (of those a `checkmate without a check by ... in its run` rule names)
    /// that gave check in `p`'s current run: its last moves, each of which gave check.
    pub fn run(&self, p: PlayerId) -> u64 {
        by_width!(&self.inner, Inner, q => q.run[p.0 as usize])
    }
    #[inline]
    pub fn used_bits(&self, p: PlayerId) -> u32 {
        by_width!(&self.inner, Inner, q => q.used[p.0 as usize])
    }
    pub fn quiet_plies(&self) -> u32 {
        by_width!(&self.inner, Inner, p => p.quiet_plies)
    }
    /// Whether every player passed, one after another, with the last moves.
    pub fn all_passed(&self) -> bool {
        by_width!(&self.inner, Inner, p => p.all_passed())
    }
    /// The kinds the last move captured by enclosure, a bit each.
    pub fn enclosed_kinds(&self) -> u64 {
        by_width!(&self.inner, Inner, p => p.enclosed_kinds())
    }
    /// Whether `m`, not yet made, captures a piece by enclosure.
    pub fn captures_by_enclosure(&self, rules: &Rules, m: &Move) -> bool {
        by_width!(&self.inner, Inner, p => p.captures_by_enclosure(rules, m))
    }
    /// For a capture by jumping, not yet made: the cells it lands on before its end,
    /// in order, and the cells of the pieces it captures (see [`Special::Jump`]); for
    /// any other move, none.
    pub fn jump_path(&self, rules: &Rules, m: &Move) -> (Vec<Cell>, Vec<Cell>) {
        let Special::Jump { index, .. } = m.special else {
            return (Vec::new(), Vec::new());
        };
        by_width!(&self.inner, Inner, p => p.jump_chain(rules, m.from, index).map_or_else(
            || (Vec::new(), Vec::new()),
            |l| (l.path[..l.hops as usize].to_vec(), l.jumped.iter().collect()),
        ))
    }
    /// For a move that ends where it started and captures nothing (`to start`): a cell
    /// it steps through, empty now.
    pub fn passed_through(&self, rules: &Rules, m: &Move) -> Option<Cell> {
        if m.from != m.to || m.captured.is_some() {
            return None;
        }
        by_width!(&self.inner, Inner, p => p.passed_through(rules, m))
    }
    /// How many of the last moves in a row were passes.
    pub fn passes(&self) -> u8 {
        by_width!(&self.inner, Inner, p => p.passes)
    }
    pub fn move_number(&self) -> u32 {
        by_width!(&self.inner, Inner, p => p.move_number)
    }
    /// Castling moves still allowed, one bit each.
    pub fn rights(&self) -> u64 {
        by_width!(&self.inner, Inner, p => p.rights)
    }
    /// What may be captured in passing now: the cells, the kinds that may, and the
    /// cell of the piece that passed them.
    pub fn passed(&self, rules: &Rules) -> Option<(Vec<Cell>, u64, Cell)> {
        by_width!(&self.inner, Inner, p => (p.passing != 0).then(|| {
            let e = &rules.passing[p.passing as usize - 1];
            (e.cells.clone(), e.by, p.victim)
        }))
    }
    /// How many pieces of a kind a player holds in hand.
    pub fn in_hand(&self, p: PlayerId, k: PieceId) -> u8 {
        by_width!(&self.inner, Inner, q => q.in_hand(p, k))
    }
    /// How many pieces of other players, of the kinds in `kinds`, could capture the
    /// piece on `cell` now (0 when the cell is empty).
    pub fn attackers(&self, rules: &Rules, cell: Cell, kinds: u64) -> u32 {
        by_width!(&self.inner, Inner, p => p.attackers(rules, cell, kinds))
    }
    /// What the capture `m` wins once both sides have taken back on its cell (see
    /// `PositionOf::exchange`).
    pub fn exchange(
        &self,
        rules: &Rules,
        m: &Move,
        values: &[i32],
        cheapest_first: &[PieceId],
    ) -> i32 {
        by_width!(&self.inner, Inner, p => p.exchange(rules, m, values, cheapest_first))
    }
    /// Whether a royal piece of the side to move is attacked.
    pub fn in_check(&self, rules: &Rules) -> bool {
        by_width!(&self.inner, Inner, p => p.in_check(rules))
    }

    /// Plays a move known to be legal here; returns what `unmake` needs.
    #[inline]
    pub(crate) fn make(&mut self, rules: &Rules, m: &Move) -> Undo {
        by_width!(&mut self.inner, Inner, p => p.make(rules, m))
    }

    /// Takes back the last move made.
    #[inline]
    pub(crate) fn unmake(&mut self, rules: &Rules, m: &Move, undo: Undo) {
        by_width!(&mut self.inner, Inner, p => p.unmake(rules, m, undo))
    }

    /// Plays `m` without asking whether it is legal here, with the rules this position
    /// was made with: for searches of one's own. A move that is not one of
    /// [`Position::legal_moves`] leaves a position the rules never allow; [`Game::play`]
    /// is the checked way.
    ///
    /// [`Game::play`]: super::Game::play
    pub fn make_unchecked(&mut self, rules: &Rules, m: &Move) -> Undo {
        self.make(rules, m)
    }

    /// Passes the turn without moving (a search's null move): the next player is to
    /// move, nothing is open to capture in passing. No rule allows this in a game.
    pub fn make_pass(&mut self, rules: &Rules) -> Undo {
        by_width!(&mut self.inner, Inner, p => p.make_pass(rules))
    }

    /// Takes back [`Position::make_pass`].
    pub fn unmake_pass(&mut self, rules: &Rules, undo: Undo) {
        by_width!(&mut self.inner, Inner, p => p.unmake_pass(rules, undo))
    }

    /// Takes back what [`Position::make_unchecked`] played.
    pub fn unmake_unchecked(&mut self, rules: &Rules, m: &Move, undo: Undo) {
        self.unmake(rules, m, undo)
    }

    /// The position's Zobrist key: what repetition compares (pieces, hands, side to
    /// move, castling rights, cells open to capture in passing, once-per-game uses).
    /// Kept up to date by make and unmake.
    #[inline]
    pub fn key(&self) -> u64 {
        by_width!(&self.inner, Inner, p => p.key)
    }

    /// The key computed afresh from the position, which [`Position::key`] must equal.
    pub fn key_from_scratch(&self, rules: &Rules) -> u64 {
        by_width!(&self.inner, Inner, p => p.key_from_scratch(rules))
    }

    /// Fills `out` with the legal moves of the side to move. `out` is cleared first and
    /// keeps its capacity, so a reused buffer never allocates.
    pub fn legal_moves(&self, rules: &Rules, out: &mut Vec<Move>) {
        by_width!(&self.inner, Inner, p => p.legal_moves(rules, out))
    }

    /// The legal moves that capture (see `PositionOf::legal_captures`).
    pub fn legal_captures(&self, rules: &Rules, out: &mut Vec<Move>) {
        by_width!(&self.inner, Inner, p => p.legal_captures(rules, out))
    }

    /// The legal moves that pass `keep`, asked of each move before it gets its wall (so
    /// `keep` must not look at [`Move::wall`]): where walls multiply moves, the rest
    /// cost nothing. Returns whether the side to move has any legal move, kept or not.
    pub fn legal_moves_where(
        &self,
        rules: &Rules,
        out: &mut Vec<Move>,
        keep: impl Fn(&Move) -> bool,
    ) -> bool {
        by_width!(&self.inner, Inner, p => p.legal_moves_where(rules, out, keep))
    }
}

impl<S: Width> PositionOf<S> {
    /// See [`Position::passed_through`].
    fn passed_through(&self, rules: &Rules, m: &Move) -> Option<Cell> {
        let sets: &crate::compile::SetTables<S> = rules.sets();
        let mut occupied = *self.occupied();
        occupied.remove(m.from);
        let mut paths = (rules.jump_moves(self.to_move(), m.piece, m.from).iter())
            .filter(|e| e.to == m.to && e.jump & crate::compile::JUMP_CAPTURES == 0)
            .flat_map(|e| sets.paths(e));
        paths
            .find(|path| path.intersection(&occupied).is_empty())
            .and_then(|path| path.iter().next())
    }

    fn from_setup(rules: &Rules, setup: &Setup) -> Result<Self, PositionError> {
        let v = &rules.variant;
        if setup.cells.len() != v.board.len() {
            return Err(PositionError::WrongSize {
                expected: v.board.len(),
                found: setup.cells.len(),
            });
        }
        if setup.to_move.0 as usize >= v.players.len() {
            return Err(PositionError::UnknownPlayer(setup.to_move.0));
        }
        for (field, value) in [
            ("plies since a capture", setup.quiet_plies),
            ("move number", setup.move_number),
            ("count", setup.count.map_or(0, |c| c.0.max(c.1))),
        ] {
            if value > MAX_COUNTER {
                return Err(PositionError::CounterTooLarge { field, value });
            }
        }
        let mut pos = PositionOf {
            mailbox: S::slots(),
            by_player: [S::EMPTY; MAX_PLAYERS],
            by_kind: [S::EMPTY; 64],
            occupied: S::EMPTY,
            players: v.players.len() as u8,
            to_move: setup.to_move,
            used: [0; MAX_PLAYERS],
            quiet_plies: setup.quiet_plies,
            move_number: setup.move_number.max(1),
            rights: 0,
            gates: 0,
            passing: 0,
            passed: S::EMPTY,
            victim: Cell(0),
            passes: 0,
            enclosed: 0,
            promoted: S::EMPTY,
            walls: S::EMPTY,
            struck: None,
            hand: [[0; 64]; MAX_PLAYERS],
            in_hand: [0; MAX_PLAYERS],
            checks: std::array::from_fn(|p| match rules.ends.check_goal {
                Some(_) => setup.checks.get(p).copied().unwrap_or(0),
                None => 0,
            }),
            run: [0; MAX_PLAYERS],
            count_limit: setup.count.map_or(0, |c| c.0),
            count_ply: setup.count.map_or(0, |c| c.1),
            key: 0,
        };
        if setup.struck.is_some() {
            if v.counterstrike == 0 {
                return Err(PositionError::Illegal {
                    field: "hands",
                    message: "this variant has no counter-strike rule".into(),
                });
            }
            pos.struck = setup.struck;
        }
        if setup.count.is_some_and(|c| c.0 > 0) && v.counts.is_empty() {
            return Err(PositionError::Illegal {
                field: "en passant",
                message: "this variant counts no moves to a draw".into(),
            });
        }
        for (c, placed) in v.board.cells().zip(&setup.cells) {
            if let Some((pl, pc)) = *placed {
                if pl.0 as usize >= v.players.len() {
                    return Err(PositionError::UnknownPlayer(pl.0));
                }
                if pc.0 as usize >= v.pieces.len() {
                    return Err(PositionError::UnknownPiece(pc.0));
                }
                pos.put(c, pl, pc);
            }
        }
        for &c in &setup.walls {
            if !rules.walls {
                return Err(PositionError::Illegal {
                    field: "board",
                    message: "this variant has no walls".into(),
                });
            }
            if c.index() >= v.board.len() || setup.cells[c.index()].is_some() {
                return Err(PositionError::Illegal {
                    field: "board",
                    message: "a wall stands on a cell that holds a piece".into(),
                });
            }
            if rules.wall_moves && !pos.walls.is_empty() {
                return Err(PositionError::Illegal {
                    field: "board",
                    message: "this variant has one wall, and the position has more".into(),
                });
            }
            pos.walls.insert(c);
            pos.occupied.insert(c);
        }
        for &(pl, pc) in &setup.hands {
            if pl.0 as usize >= v.players.len() {
                return Err(PositionError::UnknownPlayer(pl.0));
            }
            if pc.0 as usize >= v.pieces.len() {
                return Err(PositionError::UnknownPiece(pc.0));
            }
            let n = &mut pos.hand[pl.0 as usize][pc.0 as usize];
            *n = n.saturating_add(1);
            pos.in_hand[pl.0 as usize] |= 1 << pc.0;
        }
        for &c in &setup.promoted {
            let name = || v.board.name(c).to_string();
            let Some(Some((_, pc))) = setup.cells.get(c.index()) else {
                return Err(PositionError::Illegal {
                    field: "board",
                    message: format!("{} is marked promoted but holds no piece", name()),
                });
            };
            if rules.promoted_from[pc.0 as usize].is_none() {
                return Err(PositionError::Illegal {
                    field: "board",
                    message: format!(
                        "the {} on {} is marked promoted, but no piece promotes to it here",
                        v.piece(*pc).name,
                        name()
                    ),
                });
            }
            pos.promoted.insert(c);
        }
        pos.check_hands(rules, setup)?;
        for &(pl, pc, tag) in &setup.used {
            if pl.0 as usize >= v.players.len() {
                return Err(PositionError::UnknownPlayer(pl.0));
            }
            let bit =
                rules
                    .once_bit(pc, Some(tag))
                    .ok_or_else(|| PositionError::NotOncePerGame {
                        piece: v.piece(pc).name.clone(),
                        tag: v.tag(tag).mark,
                    })?;
            pos.used[pl.0 as usize] |= 1 << bit;
        }
        for &i in &setup.castling {
            let rule = rules
                .castling
                .castlings
                .get(i)
                .ok_or(PositionError::Syntax {
                    field: "castling",
                    message: format!("no castling move number {i}"),
                })?;
            // A right whose pieces are not in place is simply not there.
            if pos.in_place(rule) {
                pos.rights |= 1 << rule.right;
            }
        }
        for &c in &setup.gates {
            if let Some((pl, _)) = pos.at(c) {
                pos.gates |= rules.gates_at(c) & rules.player_gates[pl.0 as usize];
            }
        }
        for p in 0..pos.players {
            pos.gates &= !pos.shut_gates(rules, PlayerId(p));
        }
        if !setup.passed.is_empty() {
            let (victim, entry) = pos
                .find_passers(rules, &setup.passed)
                .into_iter()
                .find(|(c, _)| setup.passer.is_none_or(|p| p == *c))
                .ok_or(PositionError::Syntax {
                    field: "en passant",
                    message: match setup.passer {
                        None => {
                            "no piece of the last mover can have just passed these cells".into()
                        }
                        Some(c) => format!(
                            "the piece on {} cannot have just passed these cells",
                            v.board.name(c)
                        ),
                    },
                })?;
            pos.passing = entry;
            pos.passed = S::from_cells(rules.passing[entry as usize - 1].cells.iter().copied());
            pos.victim = victim;
        }
        let last = PlayerId((pos.to_move.0 + pos.players - 1) % pos.players);
        // A position read from a string starts the last mover's run with the check
        // standing in it.
        pos.run[last.0 as usize] = pos.run_after(rules, 0);
        pos.key = pos.key_from_scratch(rules);
        // With explosions, the move that blew up the side to move's last royal piece
        // may have left the mover's own attacked.
        let blown_up = rules.explosion.is_some()
            && (0..v.pieces.len() as u8)
                .filter(|k| rules.royal & (1 << k) != 0)
                .all(|k| pos.pieces_of(pos.to_move, PieceId(k)).is_empty());
        // In a standoff the player facing it may pass even in check, which ends the game.
        let kept_standoff = pos.standing_off(rules, &rules.ends.standoffs);
        if rules.royal != 0
            && last != pos.to_move
            && !blown_up
            && !kept_standoff
            && pos.royal_attacked(rules, last)
        {
            return Err(PositionError::LastMoverInCheck {
                player: v.player(last).name.clone(),
                to_move: v.player(pos.to_move).name.clone(),
            });
        }
        Ok(pos)
    }

    /// With hands: no piece in hand where the rules send none, no more pieces of a
    /// kind than the game has, and no piece on a cell it could never move from.
    fn check_hands(&self, rules: &Rules, setup: &Setup) -> Result<(), PositionError> {
        let v = &rules.variant;
        if !v.has_hands() {
            if setup.hands.is_empty() {
                return Ok(());
            }
            return Err(PositionError::Illegal {
                field: "hands",
                message: "this variant has no hands".into(),
            });
        }
        for &(pl, pc) in &setup.hands {
            if rules.demote[pc.0 as usize] != pc {
                return Err(PositionError::Illegal {
                    field: "hands",
                    message: format!(
                        "{} holds a {} in hand; pieces in hand are unpromoted",
                        v.player(pl).name,
                        v.piece(pc).name
                    ),
                });
            }
        }
        if v.hand.is_none() {
            // Hands only empty: each holds at most what it held at the start, while
            // promotions may add any number of a kind to the board.
            for &(pl, pc) in &setup.hands {
                let held = setup.hands.iter().filter(|&&h| h == (pl, pc)).count();
                let start = rules.start_hands.iter().filter(|&&h| h == (pl, pc)).count();
                if held > start {
                    return Err(PositionError::Illegal {
                        field: "hands",
                        message: format!(
                            "{} holds {held} {} in hand, but starts with {start}",
                            v.player(pl).name,
                            v.piece(pc).name
                        ),
                    });
                }
            }
            return Ok(());
        }
        // Counted as the kinds they go to hand as: promoted pieces as what they were.
        let mut game = vec![0u32; v.pieces.len()];
        for p in &v.setup {
            game[rules.demote[p.piece.0 as usize].0 as usize] += 1;
        }
        for &(_, pc) in &rules.start_hands {
            game[pc.0 as usize] += 1;
        }
        let mut here = vec![0u32; v.pieces.len()];
        for c in v.board.cells() {
            if let Some((pl, pc)) = self.at(c) {
                here[self.hand_kind(rules, c, pc).0 as usize] += 1;
                if v.hand.is_some_and(|h| h.mobile_only) && rules.moves(pl, pc, c).is_empty() {
                    return Err(PositionError::Illegal {
                        field: "board",
                        message: format!(
                            "{}'s {} on {} could never move",
                            v.player(pl).name,
                            v.piece(pc).name,
                            v.board.name(c)
                        ),
                    });
                }
            }
        }
        for &(_, pc) in &setup.hands {
            here[pc.0 as usize] += 1;
        }
        // Kept promotions: pieces beyond a kind's count may have been what it promotes from.
        if v.hand.is_some_and(|h| h.keep_promoted) {
            for k in 0..here.len() {
                if let Some(base) = rules.promotion_base[k]
                    && here[k] > game[k]
                {
                    here[base.0 as usize] += here[k] - game[k];
                    here[k] = game[k];
                }
            }
        }
        let total = here.iter().sum::<u32>() as usize;
        if total > v.board.len().max(game.iter().sum::<u32>() as usize) {
            return Err(PositionError::Illegal {
                field: "hands",
                message: format!(
                    "{total} pieces on the board and in hand, more than the board's {} cells",
                    v.board.len()
                ),
            });
        }
        if let Some(k) = here.iter().position(|&n| n as usize > MAX_OF_A_KIND) {
            return Err(PositionError::Illegal {
                field: "hands",
                message: format!(
                    "{} {}s on the board and in hand; a position holds at most {MAX_OF_A_KIND} of a kind",
                    here[k], v.pieces[k].name
                ),
            });
        }
        for (k, (&n, &most)) in here.iter().zip(&game).enumerate() {
            if n > most && !(v.setup.is_empty() && rules.start_hands.is_empty()) {
                return Err(PositionError::Illegal {
                    field: "hands",
                    message: format!(
                        "{n} {}s on the board and in hand, but the game has only {most}",
                        v.pieces[k].name
                    ),
                });
            }
        }
        Ok(())
    }

    /// The pieces of the player who moved last that may just have passed `cells`: a
    /// move of its kind from an empty cell to where it stands passes exactly them.
    /// Returns each one's cell and passing entry.
    fn find_passers(&self, rules: &Rules, cells: &[Cell]) -> Vec<(Cell, u16)> {
        let mut found = Vec::new();
        let last = PlayerId((self.to_move.0 + self.players - 1) % self.players);
        let mut wanted = cells.to_vec();
        wanted.sort();
        let board = &rules.variant.board;
        for to in self.by_player[last.0 as usize].iter() {
            let Some((_, now)) = self.at(to) else {
                continue;
            };
            // The move that passed may have promoted the piece on arriving.
            let kinds = (0..rules.variant.pieces.len() as u8)
                .map(PieceId)
                .filter(|&k| {
                    k == now
                        || rules
                            .promotion(last, k)
                            .is_some_and(|r| r.zone[to.index()] && r.to.contains(&now))
                });
            'kinds: for kind in kinds {
                for from in board.cells().filter(|c| self.at(*c).is_none()) {
                    for e in rules.moves(last, kind, from) {
                        if e.to == to && e.passing != 0 {
                            let mut have = rules.passing[e.passing as usize - 1].cells.clone();
                            have.sort();
                            // Fairy-Stockfish lists the passer's own cell too, at times.
                            if have == wanted || wanted.iter().filter(|c| **c != to).eq(&have) {
                                found.push((to, e.passing));
                                break 'kinds;
                            }
                        }
                    }
                }
            }
        }
        found
    }

    fn check_playable(&self, rules: &Rules) -> Result<(), PositionError> {
        let v = &rules.variant;
        let mut kinds = rules.deciding_kinds();
        while kinds != 0 {
            let piece = PieceId(kinds.trailing_zeros() as u8);
            kinds &= kinds - 1;
            for (i, player) in v.players.iter().enumerate() {
                if self.pieces_of(PlayerId(i as u8), piece).is_empty() {
                    return Err(PositionError::MissingPiece {
                        player: player.name.clone(),
                        piece: v.piece(piece).name.clone(),
                    });
                }
            }
        }
        Ok(())
    }

    fn to_setup(&self, rules: &Rules) -> Setup {
        let v = &rules.variant;
        let cells = v.board.cells().map(|c| self.at(c)).collect();
        let walls = self.walls.iter().collect();
        let mut used = vec![];
        for pl in 0..self.players {
            for pc in 0..v.pieces.len() {
                for t in 0..v.tags.len() {
                    let (piece, tag) = (PieceId(pc as u8), TagId(t as u8));
                    if let Some(bit) = rules.once_bit(piece, Some(tag))
                        && self.used[pl as usize] & (1 << bit) != 0
                    {
                        used.push((PlayerId(pl), piece, tag));
                    }
                }
            }
        }
        let mut hands = vec![];
        for pl in 0..self.players {
            for pc in 0..v.pieces.len() {
                for _ in 0..self.hand[pl as usize][pc] {
                    hands.push((PlayerId(pl), PieceId(pc as u8)));
                }
            }
        }
        let passed: Vec<Cell> = self.passed.iter().collect();
        // Named only when another piece could have passed the same cells.
        let passer = (self.passing != 0 && self.find_passers(rules, &passed).len() > 1)
            .then_some(self.victim);
        Setup {
            hands,
            walls,
            promoted: self.promoted.iter().collect(),
            passer,
            cells,
            to_move: self.to_move,
            used,
            quiet_plies: self.quiet_plies,
            move_number: self.move_number,
            castling: (rules.castling.castlings.iter().enumerate())
                .filter(|(_, c)| self.rights & (1 << c.right) != 0 && self.in_place(c))
                .map(|(i, _)| i)
                .collect(),
            passed,
            checks: match rules.ends.check_goal {
                Some(_) => self.checks[..self.players as usize].to_vec(),
                None => vec![],
            },
            count: self.count(),
            struck: self.struck,
            gates: (0..rules.gate_cells.len())
                .filter(|b| self.gates & (1 << b) != 0)
                .map(|b| rules.gate_cells[b].1)
                .collect(),
        }
    }
}

impl<S: CellSet> PositionOf<S> {
    /// How many pieces of a kind a player holds in hand.
    #[inline]
    pub fn in_hand(&self, p: PlayerId, k: PieceId) -> u8 {
        self.hand[p.0 as usize][k.0 as usize]
    }

    /// How many checks a player has given, in games that count them.
    #[inline]
    pub fn checks_given(&self, p: PlayerId) -> u8 {
        self.checks[p.0 as usize]
    }

    /// The kinds a player holds in hand, as a bit set.
    #[inline]
    pub fn hand_kinds(&self, p: PlayerId) -> u64 {
        self.in_hand[p.0 as usize]
    }

    /// The kind the piece of kind `pc` on `c` goes to hand as.
    #[inline]
    fn hand_kind(&self, rules: &Rules, c: Cell, pc: PieceId) -> PieceId {
        match rules.promoted_from[pc.0 as usize] {
            Some(base) if self.promoted.contains(c) => base,
            _ => rules.demote[pc.0 as usize],
        }
    }

    /// The walled-off cells.
    #[inline]
    pub fn walls(&self) -> &S {
        &self.walls
    }

    /// Whether the piece on `c` got its kind by promotion.
    #[inline]
    pub fn is_promoted(&self, c: Cell) -> bool {
        self.promoted.contains(c)
    }

    #[inline]
    fn add_to_hand(&mut self, p: PlayerId, k: PieceId) {
        self.hand[p.0 as usize][k.0 as usize] += 1;
        self.in_hand[p.0 as usize] |= 1 << k.0;
    }

    /// The gates of a player that no longer serve: all of them once its hand is
    /// empty in a game whose captured pieces never go to hand.
    #[inline]
    fn shut_gates(&self, rules: &Rules, p: PlayerId) -> u64 {
        if rules.empty_hand_shuts_gates() && self.in_hand[p.0 as usize] == 0 {
            self.gates & rules.player_gates[p.0 as usize]
        } else {
            0
        }
    }

    #[inline]
    fn take_from_hand(&mut self, p: PlayerId, k: PieceId) {
        let n = &mut self.hand[p.0 as usize][k.0 as usize];
        *n -= 1;
        if *n == 0 {
            self.in_hand[p.0 as usize] &= !(1 << k.0);
        }
    }

    #[inline]
    fn put(&mut self, c: Cell, pl: PlayerId, pc: PieceId) {
        self.mailbox.as_mut()[c.index()] = (pl.0 as u16) << 8 | (pc.0 as u16 + 1);
        self.by_player[pl.0 as usize].insert(c);
        self.by_kind[pc.0 as usize].insert(c);
        self.occupied.insert(c);
    }

    #[inline]
    fn remove(&mut self, c: Cell, pl: PlayerId, pc: PieceId) {
        self.mailbox.as_mut()[c.index()] = 0;
        self.by_player[pl.0 as usize].remove(c);
        self.by_kind[pc.0 as usize].remove(c);
        self.occupied.remove(c);
    }

    /// Whether a castling's pieces stand on its start cells.
    pub fn in_place(&self, c: &crate::compile::CastleRule) -> bool {
        crate::model::parts_in_place(c.player, &c.parts, |cell| self.at(cell))
    }

    /// What stands on a cell.
    #[inline]
    pub fn at(&self, c: Cell) -> Option<(PlayerId, PieceId)> {
        let m = self.mailbox.as_ref()[c.index()];
        (m != 0).then(|| (PlayerId((m >> 8) as u8), PieceId((m & 0xff) as u8 - 1)))
    }
    #[inline]
    pub fn occupied(&self) -> &S {
        &self.occupied
    }
    #[inline]
    pub fn of_player(&self, p: PlayerId) -> &S {
        &self.by_player[p.0 as usize]
    }
    /// Whether a piece of one of the kinds (a bit set) stands on the board.
    #[inline]
    pub fn any_of_kinds(&self, kinds: u64) -> bool {
        let mut m = kinds;
        while m != 0 {
            if !self.by_kind[m.trailing_zeros() as usize].is_empty() {
                return true;
            }
            m &= m - 1;
        }
        false
    }
    #[inline]
    pub fn pieces_of(&self, p: PlayerId, k: PieceId) -> S {
        self.by_player[p.0 as usize].intersection(&self.by_kind[k.0 as usize])
    }
    #[inline]
    pub fn to_move(&self) -> PlayerId {
        self.to_move
    }
    #[inline]
    pub fn players(&self) -> u8 {
        self.players
    }
    #[inline]
    pub fn used_bits(&self, p: PlayerId) -> u32 {
        self.used[p.0 as usize]
    }

    /// Cells capturable in passing, and the cell of the piece that passed them.
    #[inline]
    pub fn passed_cells(&self) -> (&S, Cell) {
        (&self.passed, self.victim)
    }
    /// The kinds that may capture in passing now.
    #[inline]
    pub fn passed_by(&self, rules: &Rules) -> u64 {
        match self.passing {
            0 => 0,
            i => rules.passing[i as usize - 1].by,
        }
    }
    #[inline]
    pub fn rights(&self) -> u64 {
        self.rights
    }

    /// Open gates, a bit each (see [`Rules::gate_cells`]).
    #[inline]
    pub fn open_gates(&self) -> u64 {
        self.gates
    }

    /// The position's key, kept by make and unmake.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key computed afresh: the numbers of everything that holds, combined.
    pub fn key_from_scratch(&self, rules: &Rules) -> u64 {
        let z = rules.keys();
        let mut k = z.side(self.to_move)
            ^ z.rights(self.rights)
            ^ z.passing(self.passing)
            ^ z.gates(self.gates);
        for c in self.occupied.iter() {
            if let Some((pl, pc)) = self.at(c) {
                k ^= z.placed(pl, pc, c);
            }
        }
        for c in self.promoted.iter() {
            k ^= z.promoted(c);
        }
        for c in self.walls.iter() {
            k ^= z.wall(c);
        }
        k ^= z.struck(self.struck);
        for p in (0..self.players).map(PlayerId) {
            let mut used = self.used[p.0 as usize];
            while used != 0 {
                k ^= z.used(p, used.trailing_zeros() as u8);
                used &= used - 1;
            }
            k ^= z.checks(p, self.checks[p.0 as usize]);
            k ^= z.run(p, self.run[p.0 as usize]);
            let mut kinds = self.in_hand[p.0 as usize];
            while kinds != 0 {
                let kind = PieceId(kinds.trailing_zeros() as u8);
                kinds &= kinds - 1;
                k ^= z.held(p, kind, self.in_hand(p, kind));
            }
        }
        k
    }
}

impl<S: Width> PositionOf<S> {
    /// Plays a move known to be legal here; returns what `unmake` needs. The key
    /// changes by the numbers of what changes.
    #[inline]
    pub fn make(&mut self, rules: &Rules, m: &Move) -> Undo {
        let mut undo = self.undo_now();
        let counted = (!rules.variant.counts.is_empty()).then(|| self.bare_counts(rules));
        self.passes = match m.special {
            Special::Pass => self.passes.saturating_add(1),
            _ => 0,
        };
        let z = rules.keys();
        let mut key = self.key;
        let me = self.to_move;
        if self.passing != 0 {
            key ^= z.passing(self.passing);
            self.passing = 0;
            self.passed = S::EMPTY;
        }
        if let Special::Castle(i) = m.special {
            let parts = &rules.castling.castlings[i as usize].parts;
            for (k, from, _) in parts {
                self.remove(*from, me, *k);
                key ^= z.placed(me, *k, *from);
            }
            for (k, _, to) in parts {
                self.put(*to, me, *k);
                key ^= z.placed(me, *k, *to);
            }
            self.quiet_plies = self.quiet_plies.saturating_add(1);
        } else if m.special == Special::Pass {
            self.quiet_plies = self.quiet_plies.saturating_add(1);
        } else if m.special == Special::Drop {
            let n = self.in_hand(me, m.piece);
            let landed = m.promotion.unwrap_or(m.piece);
            key ^= z.held(me, m.piece, n) ^ z.held(me, m.piece, n - 1);
            key ^= z.placed(me, landed, m.to);
            self.take_from_hand(me, m.piece);
            self.put(m.to, me, landed);
            self.quiet_plies = if rules.ends.drops_reset_quiet {
                0
            } else {
                self.quiet_plies.saturating_add(1)
            };
        } else {
            if let Special::Jump { index, .. } = m.special {
                key ^= self.take_jumped(rules, m.from, index, &mut undo);
                self.quiet_plies = 0;
            } else if let Some((pl, pc)) = m.captured {
                let at = m.capture_cell().unwrap_or(m.to);
                let (change, promoted) = self.capture_off(rules, at, pl, pc);
                key ^= change;
                undo.promoted.1 = promoted;
                self.quiet_plies = 0;
            } else if rules.ends.resets_quiet & (1 << m.piece.0) != 0
                && (rules.ends.resets_forward & (1 << m.piece.0) == 0
                    || rules.goes_forward(me, m.from, m.to))
            {
                self.quiet_plies = 0;
            } else {
                self.quiet_plies = self.quiet_plies.saturating_add(1);
            }
            let now = m.promotion.unwrap_or(m.piece);
            if m.special == Special::Copy {
                if rules.ends.drops_reset_quiet {
                    self.quiet_plies = 0;
                }
                self.put(m.to, me, now);
                key ^= z.placed(me, now, m.to);
            } else {
                self.remove(m.from, me, m.piece);
                self.put(m.to, me, now);
                key ^= z.placed(me, m.piece, m.from) ^ z.placed(me, now, m.to);
            }
            if m.special != Special::Copy && self.promoted.contains(m.from) {
                undo.promoted.0 = true;
                self.promoted.remove(m.from);
                key ^= z.promoted(m.from);
            }
            if rules.hands
                && (undo.promoted.0
                    || m.promotion
                        .is_some_and(|k| rules.promoted_from[k.0 as usize].is_some()))
            {
                self.promoted.insert(m.to);
                key ^= z.promoted(m.to);
            }
            if m.captured.is_some()
                && let Some(x) = rules.explosion
            {
                key ^= self.explode(rules, m, now, x, &mut undo);
            }
            if let Special::Passing(i) = m.special {
                self.passing = i;
                self.passed = S::from_cells(rules.passing[i as usize - 1].cells.iter().copied());
                self.victim = m.to;
                key ^= z.passing(i);
            }
        }
        if let Some(e) = &rules.enclosure {
            self.enclosed = 0;
            if m.special != Special::Pass {
                key ^= self.enclose(rules, e, m.to, &mut undo);
            }
        }
        if self.gates != 0 {
            key ^= self.pass_gates(rules, m, me, &undo);
        }
        if self.rights != 0 && m.special != Special::Pass {
            let mut lost = rules.castling.rights_clear[m.from.index()]
                | rules.castling.rights_clear[m.to.index()]
                | rules.rights_aimed(me, m.promotion.unwrap_or(m.piece), m.to);
            if m.special != Special::Drop {
                lost |= rules.rights_moved(me, m.piece);
            }
            if undo.blasted != 0 {
                for (i, c) in rules.around[m.to.index()].iter().enumerate() {
                    if undo.blasted & (1 << i) != 0 {
                        lost |= rules.castling.rights_clear[c.index()];
                    }
                }
            }
            let kept = self.rights & !lost;
            if kept != self.rights {
                key ^= z.rights(self.rights ^ kept);
                self.rights = kept;
            }
        }
        if m.special == Special::Drop && rules.variant.drops.castling {
            // A drop completing a castling's pieces on their starts gives its right.
            let gained = rules
                .castling
                .castlings
                .iter()
                .filter(|c| c.parts.iter().any(|p| p.1 == m.to) && self.in_place(c))
                .fold(0u64, |r, c| r | 1 << c.right)
                & !self.rights;
            if gained != 0 {
                key ^= z.rights(gained);
                self.rights |= gained;
            }
        }
        if let Some(bit) = rules.once_bit(m.piece, m.tag) {
            let used = &mut self.used[me.0 as usize];
            if *used & (1 << bit) == 0 {
                *used |= 1 << bit;
                key ^= z.used(me, bit);
            }
        }
        if let Some(w) = m.wall {
            if rules.wall_moves {
                undo.lifted = self.walls.iter().next();
                if let Some(old) = undo.lifted {
                    self.walls.remove(old);
                    self.occupied.remove(old);
                    key ^= z.wall(old);
                }
            }
            // A wall where the piece landed petrifies it.
            if let Some((pl, pc)) = self.at(w) {
                self.remove(w, pl, pc);
                key ^= z.placed(pl, pc, w);
                if self.promoted.contains(w) {
                    self.promoted.remove(w);
                    key ^= z.promoted(w);
                }
            }
            self.walls.insert(w);
            self.occupied.insert(w);
            key ^= z.wall(w);
        }
        if rules.variant.counterstrike != 0 {
            let struck = self.struck_by(rules, m, &undo);
            key ^= z.struck(self.struck) ^ z.struck(struck);
            self.struck = struck;
        }
        self.to_move = PlayerId((me.0 + 1) % self.players);
        if self.to_move.0 == 0 {
            self.move_number = self.move_number.saturating_add(1);
        }
        self.key = key ^ z.side(me) ^ z.side(self.to_move);
        if rules.ends.check_goal.is_some() && self.in_check(rules) {
            let n = &mut self.checks[me.0 as usize];
            self.key ^= z.checks(me, *n) ^ z.checks(me, n.saturating_add(1));
            *n = n.saturating_add(1);
            undo.checked = true;
        }
        if rules.ends.run_kinds != 0 {
            undo.run = self.run[me.0 as usize];
            let now = self.run_after(rules, undo.run);
            self.key ^= z.run(me, undo.run) ^ z.run(me, now);
            self.run[me.0 as usize] = now;
        }
        if let Some(before) = counted {
            self.recount(rules, me, before);
        }
        undo
    }

    /// The last mover's run after its move, `before` having been its run: the kinds
    /// checking now added to it, or nothing when the side to move is not in check.
    fn run_after(&self, rules: &Rules, before: u64) -> u64 {
        if rules.ends.run_kinds == 0 || !self.in_check(rules) {
            return 0;
        }
        before | self.checking_kinds(rules)
    }

    /// The kinds of [`Rules::run_kinds`] with a piece attacking a royal piece of the
    /// side to move.
    fn checking_kinds(&self, rules: &Rules) -> u64 {
        let royals = self.royals(rules, self.to_move);
        let mut kinds = rules.ends.run_kinds;
        if royals.iter().all(|c| self.attackers(rules, c, kinds) == 0) {
            return 0;
        }
        let mut found = 0;
        while kinds != 0 {
            let k = kinds & kinds.wrapping_neg();
            kinds &= kinds - 1;
            if royals.iter().any(|c| self.attackers(rules, c, k) > 0) {
                found |= k;
            }
        }
        found
    }

    /// Puts the piece a move brings through a gate, and closes the gates the move
    /// leaves, lands on or blasts; returns the change to the key.
    fn pass_gates(&mut self, rules: &Rules, m: &Move, me: PlayerId, undo: &Undo) -> u64 {
        let z = rules.keys();
        let mut key = 0;
        if let Some((k, c)) = m.gate {
            let n = self.in_hand(me, k);
            key ^= z.held(me, k, n) ^ z.held(me, k, n - 1) ^ z.placed(me, k, c);
            self.take_from_hand(me, k);
            self.put(c, me, k);
        }
        let mut shut = match m.special {
            Special::Pass | Special::Drop => 0,
            Special::Castle(i) => (rules.castling.castlings[i as usize].parts.iter())
                .fold(0, |g, p| g | rules.gates_at(p.1)),
            _ => rules.gates_at(m.from) | rules.gates_at(m.to),
        };
        if let Some(c) = m.capture_cell() {
            shut |= rules.gates_at(c);
        }
        if undo.blasted != 0 {
            for (i, c) in rules.around[m.to.index()].iter().enumerate() {
                if undo.blasted & (1 << i) != 0 {
                    shut |= rules.gates_at(*c);
                }
            }
        }
        // The piece just brought in does not open its cell again.
        shut = (shut & self.gates) | self.shut_gates(rules, me);
        self.gates &= !shut;
        key ^ z.gates(shut)
    }

    /// Takes back the last move made.
    #[inline]
    pub fn unmake(&mut self, rules: &Rules, m: &Move, undo: Undo) {
        if self.to_move.0 == 0 {
            self.move_number = self.move_number.saturating_sub(1).max(1);
        }
        let me = PlayerId((self.to_move.0 + self.players - 1) % self.players);
        self.to_move = me;
        if let Some(e) = &rules.enclosure {
            if m.special != Special::Pass {
                self.unenclose(rules, e, m.to, &undo);
            }
            self.enclosed = undo.enclosed;
        }
        // The piece brought in leaves its gate before the mover returns there.
        if let Some((k, c)) = m.gate {
            self.remove(c, me, k);
            self.add_to_hand(me, k);
        }
        if let Some(w) = m.wall {
            self.walls.remove(w);
            self.occupied.remove(w);
            if let Some(old) = undo.lifted {
                self.walls.insert(old);
                self.occupied.insert(old);
            }
            if w == m.to {
                self.put(w, me, m.promotion.unwrap_or(m.piece));
            }
        }
        if let Special::Castle(i) = m.special {
            let parts = &rules.castling.castlings[i as usize].parts;
            for (k, _, to) in parts {
                self.remove(*to, me, *k);
            }
            for (k, from, _) in parts {
                self.put(*from, me, *k);
            }
        } else if m.special == Special::Pass {
        } else if m.special == Special::Drop {
            self.remove(m.to, me, m.promotion.unwrap_or(m.piece));
            self.add_to_hand(me, m.piece);
        } else {
            if undo.blasted != 0 {
                self.unexplode(rules, m, &undo);
            }
            self.remove(m.to, me, m.promotion.unwrap_or(m.piece));
            self.promoted.remove(m.to);
            if m.special != Special::Copy {
                self.put(m.from, me, m.piece);
            }
            if undo.promoted.0 {
                self.promoted.insert(m.from);
            }
            if let Special::Jump { .. } = m.special {
                self.restore_jumped(rules, &undo);
            } else if let Some((pl, pc)) = m.captured {
                let at = m.capture_cell().unwrap_or(m.to);
                self.capture_back(rules, at, pl, pc, undo.promoted.1);
            }
        }
        self.key = undo.key;
        if undo.checked {
            self.checks[me.0 as usize] -= 1;
        }
        self.run[me.0 as usize] = undo.run;
        (self.count_limit, self.count_ply) = undo.count;
        self.used[me.0 as usize] = undo.used;
        self.quiet_plies = undo.quiet_plies;
        self.rights = undo.rights;
        self.gates = undo.gates;
        self.restore_passing(rules, &undo);
        self.struck = undo.struck;
        self.passes = undo.passes;
    }

    /// Whether every player passed, one after another, with the last moves.
    #[inline]
    pub fn all_passed(&self) -> bool {
        self.passes >= self.players
    }

    /// Whether the last move was a pass.
    #[inline]
    pub fn passed_last(&self) -> bool {
        self.passes > 0
    }

    /// What a move or pass made now must put back.
    #[inline]
    fn undo_now(&self) -> Undo {
        Undo {
            checked: false,
            run: 0,
            key: self.key,
            used: self.used[self.to_move.0 as usize],
            quiet_plies: self.quiet_plies,
            rights: self.rights,
            passing: self.passing,
            victim: self.victim,
            passes: self.passes,
            promoted: (false, false),
            blasted: 0,
            blast: [0; 12],
            blast_promoted: 0,
            flipped: [0; 16],
            taken: [0; crate::check::MOST_ENCLOSED],
            jumped: [0; crate::compile::MOST_JUMPED],
            jumped_count: 0,
            enclosed: self.enclosed,
            lifted: None,
            struck: self.struck,
            count: (self.count_limit, self.count_ply),
            gates: self.gates,
        }
    }

    /// Removes what a capture's explosion takes: the pieces around the destination and
    /// the capturing piece (now of kind `now`), but for the kinds spared. Returns the
    /// change to the key.
    fn explode(
        &mut self,
        rules: &Rules,
        m: &Move,
        now: PieceId,
        x: crate::model::Explosion,
        undo: &mut Undo,
    ) -> u64 {
        let z = rules.keys();
        let mut key = 0;
        for (i, &c) in rules.around[m.to.index()].iter().enumerate() {
            let Some((pl, pc)) = self.at(c) else { continue };
            if (x.spared | x.spared_around) & (1 << pc.0) != 0 {
                continue;
            }
            self.remove(c, pl, pc);
            key ^= z.placed(pl, pc, c);
            undo.blasted |= 1 << i;
            undo.blast[i] = (pl.0 as u16) << 8 | pc.0 as u16;
            if self.promoted.contains(c) {
                self.promoted.remove(c);
                key ^= z.promoted(c);
                undo.blast_promoted |= 1 << i;
            }
        }
        if x.spared & (1 << now.0) == 0 {
            let me = self.to_move;
            self.remove(m.to, me, now);
            key ^= z.placed(me, now, m.to);
            undo.blasted |= BLAST_MOVER;
            if self.promoted.contains(m.to) {
                self.promoted.remove(m.to);
                key ^= z.promoted(m.to);
            }
        }
        key
    }

    /// Puts back what [`PositionOf::explode`] removed (the capturing piece on its
    /// destination, to be taken back as usual).
    fn unexplode(&mut self, rules: &Rules, m: &Move, undo: &Undo) {
        for (i, &c) in rules.around[m.to.index()].iter().enumerate() {
            if undo.blasted & (1 << i) != 0 {
                let b = undo.blast[i];
                self.put(c, PlayerId((b >> 8) as u8), PieceId(b as u8));
                if undo.blast_promoted & (1 << i) != 0 {
                    self.promoted.insert(c);
                }
            }
        }
        if undo.blasted & BLAST_MOVER != 0 {
            self.put(m.to, self.to_move, m.promotion.unwrap_or(m.piece));
        }
    }

    /// The enemy pieces a piece of `me` on `at` encloses along its `i`th ray: how many,
    /// and their owner. A line is one enemy's pieces running from the cell next to
    /// `at`, closed by a piece of `me` or by an empty hostile cell; a kind taken only
    /// on every side is taken alone, when every cell next to it along the lines closes.
    pub(super) fn enclosed(
        &self,
        rules: &Rules,
        me: PlayerId,
        at: Cell,
        i: usize,
    ) -> Option<(usize, PlayerId)> {
        self.enclosed_after(rules, me, at, i, None)
    }

    /// [`PositionOf::enclosed`] as it will be once a piece of `me` leaves `vacated`
    /// (if any) for `at`.
    fn enclosed_after(
        &self,
        rules: &Rules,
        me: PlayerId,
        at: Cell,
        i: usize,
        vacated: Option<Cell>,
    ) -> Option<(usize, PlayerId)> {
        let look = |c: Cell| match c {
            c if c == at => Some(me),
            c if Some(c) == vacated => None,
            c => self.at(c).map(|(pl, _)| pl),
        };
        let ray = &rules.rays[at.index()][i];
        if rules.plain_lines {
            return plain_line(ray, me, look);
        }
        let first = *ray.first()?;
        let enemy = look(first).filter(|pl| *pl != me)?;
        let closes = |c: Cell| match look(c) {
            Some(pl) => pl == me,
            None => rules
                .hostile
                .get(me.0 as usize)
                .is_some_and(|h| h[c.index()]),
        };
        let kind_at = |c: Cell| self.at(c).map_or(PieceId(0), |(_, k)| k);
        let guarded = |c: Cell| self.every_side(rules, enemy, kind_at(c), c);
        let line = || {
            if guarded(first) {
                let sides = &rules.rays[first.index()];
                return (sides.len() == rules.sides && sides.iter().all(|r| closes(r[0])))
                    .then_some((1, enemy));
            }
            let n = match rules.enclosure.as_ref().is_some_and(|e| e.single) {
                true => 1,
                false => ray.iter().position(|&c| look(c) != Some(enemy))?,
            };
            if n > 1 && ray[1..n].iter().any(|&c| guarded(c)) {
                return None;
            }
            ray.get(n).is_some_and(|&c| closes(c)).then_some((n, enemy))
        };
        let row = || {
            // A row along the edge, each piece faced by the mover's from inside.
            let fronts = rules.edge_fronts.get(at.index())?.get(i)?;
            let n = (ray.iter().zip(fronts))
                .position(|(&c, &f)| look(c) != Some(enemy) || look(f) != Some(me))
                .filter(|&n| n >= 2 && n < fronts.len())?;
            (look(ray[n]) != Some(enemy) && closes(ray[n]) && !ray[..n].iter().all(|&c| guarded(c)))
                .then_some((n, enemy))
        };
        line().or_else(row)
    }

    /// Whether `m`, not yet made, captures a piece by enclosure.
    pub(super) fn captures_by_enclosure(&self, rules: &Rules, m: &Move) -> bool {
        let Some(e) = rules.enclosure.as_ref().filter(|e| e.captures) else {
            return false;
        };
        if m.special == Special::Pass {
            return false;
        }
        // Where the move changes more of the board than its start and end (a castling,
        // a capture in passing, an explosion), it is made on a copy and looked at.
        if matches!(m.special, Special::Castle(_) | Special::InPassing(_))
            || m.captured.is_some() && rules.explosion.is_some()
        {
            let mut after = self.clone();
            after.make(rules, m);
            return after.enclosed != 0;
        }
        let me = self.to_move;
        let vacated = matches!(m.special, Special::Plain | Special::Passing(_)).then_some(m.from);
        (0..rules.rays[m.to.index()].len())
            .any(|i| self.acted_on(rules, e, me, m.to, i, vacated).is_some())
    }

    /// The enemy pieces the enclosure acts on along the `i`th ray from `at`, where a
    /// piece of `me` lands (leaving `vacated`, if any): how many, and their owner.
    #[inline]
    fn acted_on(
        &self,
        rules: &Rules,
        e: &Enclosure,
        me: PlayerId,
        at: Cell,
        i: usize,
        vacated: Option<Cell>,
    ) -> Option<(usize, PlayerId)> {
        match e.which {
            Flip::Enclosed => self.enclosed_after(rules, me, at, i, vacated),
            Flip::Next => {
                let c = rules.rays[at.index()][i][0];
                let (owner, _) = self
                    .at(c)
                    .filter(|(pl, _)| *pl != me && Some(c) != vacated)?;
                Some((1, owner))
            }
        }
    }

    /// Whether `owner`'s piece of `kind` on `c` is taken only when enclosed on every side.
    #[inline]
    fn every_side(&self, rules: &Rules, owner: PlayerId, kind: PieceId, c: Cell) -> bool {
        let (kinds, zone) = &rules.every_side;
        kinds & (1 << kind.0) != 0 && zone.get(owner.0 as usize).is_none_or(|z| z[c.index()])
    }

    /// Whether a piece of `me` on `at` would enclose a line of enemy pieces.
    #[inline]
    pub fn encloses(&self, rules: &Rules, me: PlayerId, at: Cell) -> bool {
        if rules.plain_lines {
            let owner = |c: Cell| self.at(c).map(|(pl, _)| pl);
            return (rules.rays[at.index()].iter()).any(|ray| plain_line(ray, me, owner).is_some());
        }
        (0..rules.rays[at.index()].len()).any(|i| self.enclosed(rules, me, at, i).is_some())
    }

    /// Turns to the mover, or captures, the enemy pieces the enclosure acts on around
    /// `to`, recording them in `undo`; returns the change to the key.
    fn enclose(&mut self, rules: &Rules, e: &Enclosure, to: Cell, undo: &mut Undo) -> u64 {
        let z = rules.keys();
        let me = self.to_move;
        let mut key = 0;
        let mut taken = 0;
        for (i, ray) in rules.rays[to.index()].iter().enumerate() {
            let Some((n, enemy)) = self.acted_on(rules, e, me, to, i, None) else {
                continue;
            };
            for &c in &ray[..n] {
                let Some((_, pc)) = self.at(c) else { continue };
                // Only a row along the edge holds such a piece: it stays.
                if n > 1 && self.every_side(rules, enemy, pc, c) {
                    continue;
                }
                if !e.captures {
                    self.remove(c, enemy, pc);
                    self.put(c, me, pc);
                    key ^= z.placed(enemy, pc, c) ^ z.placed(me, pc, c);
                    continue;
                }
                let (change, promoted) = self.capture_off(rules, c, enemy, pc);
                key ^= change;
                let mut entry = (enemy.0 as u16) << 8 | pc.0 as u16;
                if promoted {
                    entry |= TAKEN_PROMOTED;
                }
                undo.taken[taken] = entry;
                taken += 1;
                self.enclosed |= 1 << pc.0;
            }
            undo.flipped[i] = n as u8 | enemy.0 << 6;
        }
        if taken > 0 {
            self.quiet_plies = 0;
        }
        key
    }

    /// Puts back what [`PositionOf::enclose`] turned or captured (the mover,
    /// `self.to_move`, being to move again).
    fn unenclose(&mut self, rules: &Rules, e: &Enclosure, to: Cell, undo: &Undo) {
        let me = self.to_move;
        let mut taken = 0;
        for (i, ray) in rules.rays[to.index()].iter().enumerate() {
            let f = undo.flipped[i];
            let enemy = PlayerId(f >> 6);
            for &c in &ray[..(f & FLIP_COUNT) as usize] {
                // What stayed (a guarded piece in a row along the edge) is left alone.
                if !e.captures {
                    let Some((_, pc)) = self.at(c).filter(|(pl, _)| *pl == me) else {
                        continue;
                    };
                    self.remove(c, me, pc);
                    self.put(c, enemy, pc);
                    continue;
                }
                if self.at(c).is_some() {
                    continue;
                }
                let entry = undo.taken[taken];
                taken += 1;
                self.capture_back(
                    rules,
                    c,
                    enemy,
                    PieceId(entry as u8),
                    entry & TAKEN_PROMOTED != 0,
                );
            }
        }
    }

    /// The kinds the last move captured by enclosure, a bit each.
    #[inline]
    pub fn enclosed_kinds(&self) -> u64 {
        self.enclosed
    }

    /// Takes the piece of `pl` off `c`, captured by the side to move, into its hand
    /// where captures go there; returns the change to the key and whether the piece
    /// had been promoted.
    #[inline]
    fn capture_off(&mut self, rules: &Rules, c: Cell, pl: PlayerId, pc: PieceId) -> (u64, bool) {
        let z = rules.keys();
        let me = self.to_move;
        self.remove(c, pl, pc);
        let mut key = z.placed(pl, pc, c);
        if rules.hands {
            let kind = self.hand_kind(rules, c, pc);
            let n = self.in_hand(me, kind);
            key ^= z.held(me, kind, n) ^ z.held(me, kind, n.wrapping_add(1));
            self.add_to_hand(me, kind);
        }
        let promoted = self.promoted.contains(c);
        if promoted {
            self.promoted.remove(c);
            key ^= z.promoted(c);
        }
        (key, promoted)
    }

    /// Puts back a piece [`PositionOf::capture_off`] took, the capturer being to move.
    #[inline]
    fn capture_back(&mut self, rules: &Rules, c: Cell, pl: PlayerId, pc: PieceId, promoted: bool) {
        self.put(c, pl, pc);
        if promoted {
            self.promoted.insert(c);
        }
        if rules.hands {
            self.take_from_hand(self.to_move, self.hand_kind(rules, c, pc));
        }
    }

    /// Captures the pieces the chain of `index` from `from` jumps, recording them in
    /// `undo`; returns the change to the key.
    fn take_jumped(&mut self, rules: &Rules, from: Cell, index: u16, undo: &mut Undo) -> u64 {
        let Some(chain) = self.jump_chain(rules, from, index) else {
            return 0;
        };
        let mut key = 0;
        let mut n = 0;
        for c in chain.jumped.iter() {
            let Some((pl, pc)) = self.at(c) else { continue };
            let (change, promoted) = self.capture_off(rules, c, pl, pc);
            key ^= change;
            let promoted = if promoted { TAKEN_PROMOTED } else { 0 };
            undo.jumped[n] =
                (c.0 as u32) << 16 | (pl.0 as u32) << 8 | pc.0 as u32 | promoted as u32;
            n += 1;
        }
        undo.jumped_count = n as u8;
        key
    }

    /// Where `m`, just made, captured a piece of the counter-strike rule's kinds with a
    /// piece of another kind (on its landing cell first).
    fn struck_by(&self, rules: &Rules, m: &Move, undo: &Undo) -> Option<Cell> {
        let kinds = rules.variant.counterstrike;
        if kinds & (1 << m.piece.0) != 0 {
            return None;
        }
        let of = |k: PieceId| kinds & (1 << k.0) != 0;
        match m.special {
            Special::Jump { .. } => {
                let taken = undo.jumped[..undo.jumped_count as usize]
                    .iter()
                    .map(|&e| (Cell((e >> 16) as u16), PieceId(e as u8 & 0x3f)));
                let hits = taken.filter(|(_, k)| of(*k)).map(|(c, _)| c);
                hits.fold(None, |best, c| match best {
                    Some(b) if b == m.to => Some(b),
                    _ => Some(c),
                })
            }
            _ => m
                .captured
                .filter(|(_, k)| of(*k))
                .map(|_| m.capture_cell().unwrap_or(m.to)),
        }
    }

    /// See [`Setup::struck`].
    #[inline]
    pub(crate) fn struck(&self) -> Option<Cell> {
        self.struck
    }

    /// Puts back the pieces [`PositionOf::take_jumped`] captured.
    fn restore_jumped(&mut self, rules: &Rules, undo: &Undo) {
        for &entry in &undo.jumped[..undo.jumped_count as usize] {
            let c = Cell((entry >> 16) as u16);
            let (pl, pc) = (PlayerId((entry >> 8) as u8 & 0x7f), PieceId(entry as u8));
            self.capture_back(rules, c, pl, pc, entry as u16 & TAKEN_PROMOTED != 0);
        }
    }

    /// See [`Position::make_pass`].
    pub fn make_pass(&mut self, rules: &Rules) -> Undo {
        let undo = self.undo_now();
        let z = rules.keys();
        let mut key = self.key;
        if self.passing != 0 {
            key ^= z.passing(self.passing);
            self.passing = 0;
            self.passed = S::EMPTY;
        }
        key ^= z.struck(self.struck.take());
        let me = self.to_move;
        self.to_move = PlayerId((me.0 + 1) % self.players);
        if self.to_move.0 == 0 {
            self.move_number = self.move_number.saturating_add(1);
        }
        // A pass gives no check: it ends the passer's run.
        let run = std::mem::take(&mut self.run[me.0 as usize]);
        self.key = key ^ z.side(me) ^ z.side(self.to_move) ^ z.run(me, run);
        Undo { run, ..undo }
    }

    /// Puts back the cells open to capture in passing, and the piece that passed them.
    #[inline]
    fn restore_passing(&mut self, rules: &Rules, undo: &Undo) {
        if undo.passing != self.passing {
            self.passing = undo.passing;
            self.passed = match undo.passing {
                0 => S::EMPTY,
                i => S::from_cells(rules.passing[i as usize - 1].cells.iter().copied()),
            };
        }
        self.victim = undo.victim;
    }

    /// See [`Position::unmake_pass`].
    pub fn unmake_pass(&mut self, rules: &Rules, undo: Undo) {
        if self.to_move.0 == 0 {
            self.move_number = self.move_number.saturating_sub(1).max(1);
        }
        self.to_move = PlayerId((self.to_move.0 + self.players - 1) % self.players);
        self.run[self.to_move.0 as usize] = undo.run;
        self.key = undo.key;
        self.restore_passing(rules, &undo);
    }
}

/// Along `ray`, a line of one enemy's pieces from its first cell, closed by a piece of
/// `me` (`owner` tells whose piece stands on a cell): how many, and the enemy. The whole
/// test where lines are read from pieces alone (`Rules::plain_lines`).
#[inline(always)]
fn plain_line(
    ray: &[Cell],
    me: PlayerId,
    owner: impl Fn(Cell) -> Option<PlayerId>,
) -> Option<(usize, PlayerId)> {
    let enemy = owner(*ray.first()?).filter(|pl| *pl != me)?;
    let n = ray.iter().position(|&c| owner(c) != Some(enemy))?;
    (owner(ray[n]) == Some(me)).then_some((n, enemy))
}

//! Positions: an unchecked [`Setup`] becomes a [`Position`] only through validation.

use crate::check::{Event, Outcome, PieceId, PlayerId, TagId};
use crate::compile::{MAX_PLAYERS, Rules};
use crate::geometry::{Cell, MAX_CELLS};
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
            hands: vec![],
        }
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
    /// The position string is malformed.
    Syntax {
        field: &'static str,
        message: String,
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
        }
    }
}

impl std::error::Error for PositionError {}

/// What a move undoes.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    used: u32,
    quiet_plies: u32,
    rights: u32,
    passed: u128,
    passed_by: u64,
    victim: Cell,
}

/// A legal position: bitboards per player and kind, a mailbox, and the move state.
/// Make and unmake never allocate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Per cell: 0 when empty, else `player << 8 | piece + 1`.
    mailbox: [u16; MAX_CELLS],
    by_player: [u128; MAX_PLAYERS],
    by_kind: [u128; 64],
    occupied: u128,
    players: u8,
    to_move: PlayerId,
    /// Once-per-game bits used, per player.
    used: [u32; MAX_PLAYERS],
    quiet_plies: u32,
    move_number: u32,
    /// Castling moves still allowed, one bit each.
    rights: u32,
    /// Cells the last move passed, capturable in passing now by the kinds in `passed_by`.
    passed: u128,
    passed_by: u64,
    /// Where the piece that passed them stands.
    victim: Cell,
    /// Pieces in hand, by player and kind.
    hand: [[u8; 64]; MAX_PLAYERS],
    /// Per player: the kinds with at least one piece in hand.
    in_hand: [u64; MAX_PLAYERS],
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
}

impl Move {
    /// The cell of the captured piece, if any.
    #[inline]
    pub fn capture_cell(&self) -> Option<Cell> {
        self.captured.map(|_| match self.special {
            Special::InPassing(c) => c,
            _ => self.to,
        })
    }
}

impl Position {
    /// Validates a setup against the rules.
    pub fn from_setup(rules: &Rules, setup: &Setup) -> Result<Position, PositionError> {
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
        let mut pos = Position {
            mailbox: [0; MAX_CELLS],
            by_player: [0; MAX_PLAYERS],
            by_kind: [0; 64],
            occupied: 0,
            players: v.players.len() as u8,
            to_move: setup.to_move,
            used: [0; MAX_PLAYERS],
            quiet_plies: setup.quiet_plies,
            move_number: setup.move_number.max(1),
            rights: 0,
            passed: 0,
            passed_by: 0,
            victim: Cell(0),
            hand: [[0; 64]; MAX_PLAYERS],
            in_hand: [0; MAX_PLAYERS],
        };
        for (i, c) in setup.cells.iter().enumerate() {
            if let Some((pl, pc)) = *c {
                if pl.0 as usize >= v.players.len() {
                    return Err(PositionError::UnknownPlayer(pl.0));
                }
                if pc.0 as usize >= v.pieces.len() {
                    return Err(PositionError::UnknownPiece(pc.0));
                }
                pos.put(Cell(i as u8), pl, pc);
            }
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
            let rule = rules.castlings.get(i).ok_or(PositionError::Syntax {
                field: "castling",
                message: format!("no castling move number {i}"),
            })?;
            // A right whose pieces are not in place is simply not there.
            if rule
                .parts
                .iter()
                .all(|(k, from, _)| pos.at(*from) == Some((rule.player, *k)))
            {
                pos.rights |= 1 << i;
            }
        }
        if !setup.passed.is_empty() {
            let cells = setup.passed.iter().fold(0u128, |m, c| m | c.bit());
            let (victim, by) = pos.find_passer(rules, cells).ok_or(PositionError::Syntax {
                field: "en passant",
                message: "no piece of the last mover can have just passed these cells".into(),
            })?;
            pos.passed = cells;
            pos.passed_by = by;
            pos.victim = victim;
        }
        Ok(pos)
    }

    /// With hands: no piece in hand where the rules send none, no more pieces of a
    /// kind than the game has, and no piece on a cell it could never move from.
    fn check_hands(&self, rules: &Rules, setup: &Setup) -> Result<(), PositionError> {
        let v = &rules.variant;
        if !rules.hands {
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
        let mut game = vec![0u32; v.pieces.len()];
        for p in &v.setup {
            game[rules.demote[p.piece.0 as usize].0 as usize] += 1;
        }
        let mut here = vec![0u32; v.pieces.len()];
        for c in v.board.cells() {
            if let Some((pl, pc)) = self.at(c) {
                here[rules.demote[pc.0 as usize].0 as usize] += 1;
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
        for (k, (&n, &most)) in here.iter().zip(&game).enumerate() {
            if n > most && !v.setup.is_empty() {
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

    /// How many pieces of a kind a player holds in hand.
    #[inline]
    pub fn in_hand(&self, p: PlayerId, k: PieceId) -> u8 {
        self.hand[p.0 as usize][k.0 as usize]
    }

    /// The kinds a player holds in hand, as a bit set.
    #[inline]
    pub fn hand_kinds(&self, p: PlayerId) -> u64 {
        self.in_hand[p.0 as usize]
    }

    #[inline]
    fn add_to_hand(&mut self, p: PlayerId, k: PieceId) {
        self.hand[p.0 as usize][k.0 as usize] += 1;
        self.in_hand[p.0 as usize] |= 1 << k.0;
    }

    #[inline]
    fn take_from_hand(&mut self, p: PlayerId, k: PieceId) {
        let n = &mut self.hand[p.0 as usize][k.0 as usize];
        *n -= 1;
        if *n == 0 {
            self.in_hand[p.0 as usize] &= !(1 << k.0);
        }
    }

    /// The piece of the player who moved last that just passed `cells`: a move of its
    /// kind from an empty cell to where it stands passes exactly them.
    fn find_passer(&self, rules: &Rules, cells: u128) -> Option<(Cell, u64)> {
        let last = PlayerId((self.to_move.0 + self.players - 1) % self.players);
        let board = &rules.variant.board;
        for to in board.cells() {
            let Some((pl, kind)) = self.at(to) else {
                continue;
            };
            if pl != last {
                continue;
            }
            for from in board.cells().filter(|c| self.at(*c).is_none()) {
                for e in rules.between(last, kind, from, to) {
                    if e.passing != 0 {
                        let p = rules.passing[e.passing as usize - 1];
                        if p.cells == cells {
                            return Some((to, p.by));
                        }
                    }
                }
            }
        }
        None
    }

    /// Whether a game can be played from here: each player has every piece whose
    /// capture wins. Positions without one are fine to analyse, not to start a game.
    pub fn check_playable(&self, rules: &Rules) -> Result<(), PositionError> {
        let v = &rules.variant;
        let pos = self;
        for rule in &v.end_rules {
            if let Event::Captured { piece, .. } = rule.event
                && rule.outcome == Outcome::MoverWins
                && crate::check::holds(rule.guard, &rules.options)
            {
                for (i, player) in v.players.iter().enumerate() {
                    if pos.pieces_of(PlayerId(i as u8), piece) == 0 {
                        return Err(PositionError::MissingPiece {
                            player: player.name.clone(),
                            piece: v.piece(piece).name.clone(),
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// The start position of the variant.
    pub fn start(rules: &Rules) -> Result<Position, PositionError> {
        Position::from_setup(rules, &Setup::start(rules))
    }

    /// Back to an unchecked setup.
    pub fn to_setup(&self, rules: &Rules) -> Setup {
        let v = &rules.variant;
        let cells = (0..v.board.len()).map(|i| self.at(Cell(i as u8))).collect();
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
        Setup {
            hands,
            cells,
            to_move: self.to_move,
            used,
            quiet_plies: self.quiet_plies,
            move_number: self.move_number,
            castling: (0..32).filter(|i| self.rights & (1 << i) != 0).collect(),
            passed: v
                .board
                .cells()
                .filter(|c| self.passed & c.bit() != 0)
                .collect(),
        }
    }

    #[inline]
    fn put(&mut self, c: Cell, pl: PlayerId, pc: PieceId) {
        self.mailbox[c.index()] = (pl.0 as u16) << 8 | (pc.0 as u16 + 1);
        self.by_player[pl.0 as usize] |= c.bit();
        self.by_kind[pc.0 as usize] |= c.bit();
        self.occupied |= c.bit();
    }

    #[inline]
    fn remove(&mut self, c: Cell, pl: PlayerId, pc: PieceId) {
        self.mailbox[c.index()] = 0;
        self.by_player[pl.0 as usize] &= !c.bit();
        self.by_kind[pc.0 as usize] &= !c.bit();
        self.occupied &= !c.bit();
    }

    /// What stands on a cell.
    #[inline]
    pub fn at(&self, c: Cell) -> Option<(PlayerId, PieceId)> {
        let m = self.mailbox[c.index()];
        (m != 0).then(|| (PlayerId((m >> 8) as u8), PieceId((m & 0xff) as u8 - 1)))
    }
    #[inline]
    pub fn occupied(&self) -> u128 {
        self.occupied
    }
    #[inline]
    pub fn of_player(&self, p: PlayerId) -> u128 {
        self.by_player[p.0 as usize]
    }
    #[inline]
    pub fn pieces_of(&self, p: PlayerId, k: PieceId) -> u128 {
        self.by_player[p.0 as usize] & self.by_kind[k.0 as usize]
    }
    #[inline]
    pub fn to_move(&self) -> PlayerId {
        self.to_move
    }
    pub fn players(&self) -> u8 {
        self.players
    }
    #[inline]
    pub fn used_bits(&self, p: PlayerId) -> u32 {
        self.used[p.0 as usize]
    }
    pub fn quiet_plies(&self) -> u32 {
        self.quiet_plies
    }
    pub fn move_number(&self) -> u32 {
        self.move_number
    }
    #[inline]
    pub fn rights(&self) -> u32 {
        self.rights
    }
    /// Cells capturable in passing, the kinds that may, and the piece that passed.
    #[inline]
    pub fn passed(&self) -> (u128, u64, Cell) {
        (self.passed, self.passed_by, self.victim)
    }

    /// Plays a move known to be legal here; returns what `unmake` needs.
    #[inline]
    pub fn make(&mut self, rules: &Rules, m: &Move) -> Undo {
        let undo = Undo {
            used: self.used[self.to_move.0 as usize],
            quiet_plies: self.quiet_plies,
            rights: self.rights,
            passed: self.passed,
            passed_by: self.passed_by,
            victim: self.victim,
        };
        let me = self.to_move;
        self.passed = 0;
        self.passed_by = 0;
        if let Special::Castle(i) = m.special {
            let parts = &rules.castlings[i as usize].parts;
            for (k, from, _) in parts {
                self.remove(*from, me, *k);
            }
            for (k, _, to) in parts {
                self.put(*to, me, *k);
            }
            self.quiet_plies += 1;
        } else if m.special == Special::Drop {
            self.take_from_hand(me, m.piece);
            self.put(m.to, me, m.piece);
            self.quiet_plies += 1;
        } else {
            if let Some((pl, pc)) = m.captured {
                self.remove(m.capture_cell().unwrap_or(m.to), pl, pc);
                if rules.hands {
                    self.add_to_hand(me, rules.demote[pc.0 as usize]);
                }
                self.quiet_plies = 0;
            } else if rules.resets_quiet & (1 << m.piece.0) != 0 {
                self.quiet_plies = 0;
            } else {
                self.quiet_plies += 1;
            }
            self.remove(m.from, me, m.piece);
            self.put(m.to, me, m.promotion.unwrap_or(m.piece));
            if let Special::Passing(i) = m.special {
                let p = rules.passing[i as usize - 1];
                self.passed = p.cells;
                self.passed_by = p.by;
                self.victim = m.to;
            }
        }
        if self.rights != 0 {
            self.rights &= !(rules.rights_clear[m.from.index()] | rules.rights_clear[m.to.index()]);
        }
        if let Some(bit) = rules.once_bit(m.piece, m.tag) {
            self.used[me.0 as usize] |= 1 << bit;
        }
        self.to_move = PlayerId((me.0 + 1) % self.players);
        if self.to_move.0 == 0 {
            self.move_number += 1;
        }
        undo
    }

    /// Takes back the last move made.
    #[inline]
    pub fn unmake(&mut self, rules: &Rules, m: &Move, undo: Undo) {
        if self.to_move.0 == 0 {
            self.move_number -= 1;
        }
        let me = PlayerId((self.to_move.0 + self.players - 1) % self.players);
        self.to_move = me;
        if let Special::Castle(i) = m.special {
            let parts = &rules.castlings[i as usize].parts;
            for (k, _, to) in parts {
                self.remove(*to, me, *k);
            }
            for (k, from, _) in parts {
                self.put(*from, me, *k);
            }
        } else if m.special == Special::Drop {
            self.remove(m.to, me, m.piece);
            self.add_to_hand(me, m.piece);
        } else {
            self.remove(m.to, me, m.promotion.unwrap_or(m.piece));
            self.put(m.from, me, m.piece);
            if let Some((pl, pc)) = m.captured {
                self.put(m.capture_cell().unwrap_or(m.to), pl, pc);
                if rules.hands {
                    self.take_from_hand(me, rules.demote[pc.0 as usize]);
                }
            }
        }
        self.used[me.0 as usize] = undo.used;
        self.quiet_plies = undo.quiet_plies;
        self.rights = undo.rights;
        self.passed = undo.passed;
        self.passed_by = undo.passed_by;
        self.victim = undo.victim;
    }

    /// A hash of what repetition compares: pieces, side to move, once-per-game uses.
    pub fn repetition_key(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |x: u64| {
            h ^= x;
            h = h.wrapping_mul(0x0100_0000_01b3);
        };
        for (i, m) in self.mailbox.iter().enumerate() {
            if *m != 0 {
                eat((i as u64) << 16 | *m as u64);
            }
        }
        eat(self.to_move.0 as u64 | 1 << 40);
        eat(self.rights as u64 | 1 << 42);
        eat(self.passed as u64 ^ (self.passed >> 64) as u64);
        for u in &self.used {
            eat(*u as u64 | 1 << 41);
        }
        for (p, kinds) in self.in_hand.iter().enumerate() {
            let mut k = *kinds;
            while k != 0 {
                let i = k.trailing_zeros() as usize;
                k &= k - 1;
                eat((p as u64) << 48 | (i as u64) << 8 | self.hand[p][i] as u64 | 1 << 43);
            }
        }
        h
    }
}

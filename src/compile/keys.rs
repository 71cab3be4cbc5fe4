//! The random numbers of the position key (Zobrist hashing): one per (player, piece,
//! cell), side to move, once-per-game bit, castling right, passable cell, count in
//! hand, wall and kind checking in a run, drawn once per compiled variant. A
//! position's key is the XOR of those that hold; make and unmake keep it up to date.

use super::{MAX_PLAYERS, Passing};
use crate::geometry::Cell;
use crate::model::{PieceId, PlayerId, Variant};
use crate::rng::Rng;

/// The most pieces of one kind in one hand that keys tell apart.
const MAX_HELD: usize = 32;

#[derive(Clone, Debug)]
pub struct Keys {
    cells: usize,
    pieces: usize,
    /// By (player, piece, cell).
    placed: Vec<u64>,
    /// By side to move.
    side: [u64; MAX_PLAYERS],
    /// By (player, once-per-game bit).
    used: Vec<u64>,
    /// By (player, piece, count held); count 0 adds nothing.
    held: Vec<u64>,
    /// By castling right.
    rights: [u64; 64],
    /// By passing entry (0: none): the numbers of its cells combined.
    passing: Vec<u64>,
    /// By player: the number of its count of checks given, rotated by the count.
    checks: [u64; MAX_PLAYERS],
    /// By cell: its piece got its kind by promotion.
    promoted: Vec<u64>,
    /// By cell: a wall stands there.
    wall: Vec<u64>,
    /// By (player, piece): the kind gave check in the player's current run of checks.
    run: Vec<u64>,
    /// By gate bit: the gate is open.
    gates: [u64; 64],
    /// By cell: the counter-strike rule's cell.
    struck: Vec<u64>,
}

impl Keys {
    pub(super) fn new(v: &Variant, passing: &[Passing]) -> Keys {
        let (cells, pieces, players) = (v.board.len(), v.pieces.len(), v.players.len());
        let mut rng = Rng::new(0x5eed);
        let mut draw = |n: usize| (0..n).map(|_| rng.next_u64()).collect::<Vec<u64>>();
        let placed = draw(players * pieces * cells);
        let sides = draw(MAX_PLAYERS);
        let used = draw(MAX_PLAYERS * 32);
        let mut held = draw(players * pieces * (MAX_HELD + 1));
        for run in held.chunks_mut(MAX_HELD + 1) {
            run[0] = 0;
        }
        let rights = draw(32);
        let checks = draw(MAX_PLAYERS);
        let passed = draw(cells);
        let passing = std::iter::once(0)
            .chain(
                passing
                    .iter()
                    .map(|p| p.cells.iter().fold(0, |k, c| k ^ passed[c.index()])),
            )
            .collect();
        let promoted = draw(cells);
        let wall = draw(cells);
        let run = draw(players * pieces);
        // Drawn last, so that the numbers drawn before stay as they were.
        let more_rights = draw(32);
        let gates = draw(64);
        let struck = draw(cells);
        Keys {
            struck,
            gates: std::array::from_fn(|i| gates[i]),
            run,
            wall,
            promoted,
            cells,
            pieces,
            placed,
            side: std::array::from_fn(|i| sides[i]),
            used,
            held,
            rights: std::array::from_fn(|i| {
                if i < 32 {
                    rights[i]
                } else {
                    more_rights[i - 32]
                }
            }),
            passing,
            checks: std::array::from_fn(|i| checks[i]),
        }
    }

    /// The number of `player`'s `piece` standing on `cell`.
    #[inline]
    pub fn placed(&self, player: PlayerId, piece: PieceId, cell: Cell) -> u64 {
        self.placed
            [(player.0 as usize * self.pieces + piece.0 as usize) * self.cells + cell.index()]
    }

    /// The number of `player` being to move.
    #[inline]
    pub fn side(&self, player: PlayerId) -> u64 {
        self.side[player.0 as usize]
    }

    /// The number of `player` having used the once-per-game move of this bit.
    #[inline]
    pub fn used(&self, player: PlayerId, bit: u8) -> u64 {
        self.used[player.0 as usize * 32 + bit as usize]
    }

    /// The number of `player` holding `count` pieces of a kind in hand (0 for none).
    #[inline]
    pub fn held(&self, player: PlayerId, piece: PieceId, count: u8) -> u64 {
        self.held[(player.0 as usize * self.pieces + piece.0 as usize) * (MAX_HELD + 1)
            + (count as usize).min(MAX_HELD)]
    }

    /// The numbers of the open gates in a set of gate bits, combined.
    #[inline]
    pub fn gates(&self, set: u64) -> u64 {
        combined(&self.gates, set)
    }

    /// The numbers of the castling rights in a set, combined.
    #[inline]
    pub fn rights(&self, set: u64) -> u64 {
        combined(&self.rights, set)
    }

    /// The number of `player` having given `count` checks (0 for none).
    #[inline]
    pub fn checks(&self, player: PlayerId, count: u8) -> u64 {
        match count {
            0 => 0,
            n => self.checks[player.0 as usize].rotate_left(n as u32) ^ n as u64,
        }
    }

    /// The number of the piece on `cell` having got its kind by promotion.
    #[inline]
    pub fn promoted(&self, cell: Cell) -> u64 {
        self.promoted[cell.index()]
    }

    /// The numbers of the kinds in `kinds` having given check in `player`'s run,
    /// combined.
    #[inline]
    pub fn run(&self, player: PlayerId, mut kinds: u64) -> u64 {
        let mut k = 0;
        while kinds != 0 {
            k ^= self.run[player.0 as usize * self.pieces + kinds.trailing_zeros() as usize];
            kinds &= kinds - 1;
        }
        k
    }

    /// The number of a wall standing on `cell`.
    #[inline]
    pub fn wall(&self, cell: Cell) -> u64 {
        self.wall[cell.index()]
    }

    /// The number of the counter-strike rule's cell, if any.
    pub fn struck(&self, cell: Option<Cell>) -> u64 {
        cell.map_or(0, |c| self.struck[c.index()])
    }

    /// The number of the cells of passing entry `entry` being open to capture (0: none).
    #[inline]
    pub fn passing(&self, entry: u16) -> u64 {
        self.passing[entry as usize]
    }
}

/// The numbers of the bits in `set`, XORed together.
#[inline]
fn combined(numbers: &[u64; 64], mut set: u64) -> u64 {
    let mut k = 0;
    while set != 0 {
        k ^= numbers[set.trailing_zeros() as usize];
        set &= set - 1;
    }
    k
}

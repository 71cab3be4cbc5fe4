//! Zobrist keys: one random number per (cell, player, piece), per side to move and per
//! once-per-game use, XORed together. Pieces in hand fit the same scheme: one number
//! per (player, piece, count held), see [`Zobrist::hand`].

use crate::compile::{MAX_PLAYERS, Rules, by_width};
use crate::geometry::CellSet;
use crate::model::PlayerId;
use crate::rng::Rng;
use crate::runtime::{Position, PositionOf, View};

/// The most pieces of one kind a player can hold in hand that the keys tell apart.
pub const MAX_HELD: usize = 32;

pub struct Zobrist {
    cells: usize,
    pieces: usize,
    /// By (player, piece, cell).
    placed: Vec<u64>,
    /// By side to move.
    side: [u64; MAX_PLAYERS],
    /// By (player, once-per-game bit).
    used: Vec<u64>,
    /// By (player, piece, count held).
    held: Vec<u64>,
}

impl Zobrist {
    pub fn new(rules: &Rules) -> Zobrist {
        let v = &rules.variant;
        let (cells, pieces, players) = (v.board.len(), v.pieces.len(), v.players.len());
        let mut rng = Rng::new(0x5eed);
        let mut draw = |n: usize| (0..n).map(|_| rng.next_u64()).collect::<Vec<u64>>();
        let placed = draw(players * pieces * cells);
        let sides = draw(MAX_PLAYERS);
        let side: [u64; MAX_PLAYERS] = std::array::from_fn(|i| sides[i]);
        let used = draw(MAX_PLAYERS * 32);
        let held = draw(players * pieces * (MAX_HELD + 1));
        Zobrist {
            cells,
            pieces,
            placed,
            side,
            used,
            held,
        }
    }

    /// The key of a position, computed afresh: it depends on nothing but the position,
    /// whatever kinds of move led there.
    pub fn key(&self, pos: &Position) -> u64 {
        by_width!(pos.view(), View, p => self.key_of(p))
    }

    fn key_of<S: CellSet>(&self, pos: &PositionOf<S>) -> u64 {
        let mut k = self.side[pos.to_move().0 as usize];
        for c in pos.occupied().iter() {
            if let Some((pl, pc)) = pos.at(c) {
                k ^= self.placed
                    [(pl.0 as usize * self.pieces + pc.0 as usize) * self.cells + c.index()];
            }
        }
        for pl in 0..pos.players() {
            let mut used = pos.used_bits(PlayerId(pl));
            while used != 0 {
                let bit = used.trailing_zeros() as usize;
                used &= used - 1;
                k ^= self.used[pl as usize * 32 + bit];
            }
            let mut held = pos.hand_kinds(PlayerId(pl));
            while held != 0 {
                let kind = held.trailing_zeros() as usize;
                held &= held - 1;
                let count = pos.in_hand(PlayerId(pl), crate::model::PieceId(kind as u8));
                k ^= self.hand(pl as usize, kind, count as usize);
            }
        }
        k
    }

    /// The number a player's hand contributes for holding `count` pieces of a kind.
    pub fn hand(&self, player: usize, piece: usize, count: usize) -> u64 {
        self.held[(player * self.pieces + piece) * (MAX_HELD + 1) + count.min(MAX_HELD)]
    }
}

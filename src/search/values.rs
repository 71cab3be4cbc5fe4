//! The evaluation, derived from the rules alone: piece values estimated from each
//! piece's compiled moves, mobility, and the safety of the pieces that decide the game.

use super::cells::{count, each_cell};
use crate::check::{Dest, Event, Outcome, PieceId, PlayerId, holds};
use crate::compile::{MoveEntry, Rules};
use crate::runtime::Position;

/// The share of cells taken as occupied when judging how often a move's path is open.
const DENSITY: f64 = 0.3;
/// What the weakest ordinary piece is worth.
const UNIT: f64 = 100.0;

/// What the engine believes a piece is worth, and why.
#[derive(Clone, Debug)]
pub struct PieceValue {
    pub piece: PieceId,
    /// Destinations from an average cell of the empty board.
    pub reach: f64,
    /// The same, each weighed by how often its path is open on a board a third full,
    /// whether it can capture, and whether it is once per game.
    pub weighed: f64,
    /// The value in hundredths of the weakest ordinary piece.
    pub value: i32,
    /// Whether capturing this piece wins the game.
    pub decides: bool,
}

/// For each piece: the kinds whose capture of it wins the game (0 when none does).
pub fn deciding(rules: &Rules) -> Vec<u64> {
    let v = &rules.variant;
    let mut out = vec![0u64; v.pieces.len()];
    for r in v
        .end_rules
        .iter()
        .filter(|r| holds(r.guard, &rules.options))
    {
        if let (Event::Captured { piece, by }, Outcome::MoverWins) = (r.event, r.outcome) {
            out[piece.0 as usize] |=
                by.map_or(u64::MAX, |b| 1 << b.0) & rules.capturable_by[piece.0 as usize];
        }
    }
    out
}

/// Estimates every piece's value from its move tables.
pub fn piece_values(rules: &Rules) -> Vec<PieceValue> {
    let v = &rules.variant;
    let decides = deciding(rules);
    let kinds = v.pieces.len();
    let mut out: Vec<PieceValue> = (0..kinds)
        .map(|k| {
            let piece = PieceId(k as u8);
            let (mut reach, mut weighed, mut runs) = (0.0, 0.0, 0.0);
            for pl in 0..v.players.len() {
                for cell in v.board.cells() {
                    let (r, w) = cell_worth(rules, rules.moves(PlayerId(pl as u8), piece, cell));
                    reach += r;
                    weighed += w;
                    runs += 1.0;
                }
            }
            // A piece few kinds may take lives longer.
            let takers = count_bits(rules.capturable_by[k] & mask(kinds));
            let shelter = 1.0 + 0.25 * (kinds - takers) as f64 / kinds as f64;
            PieceValue {
                piece,
                reach: reach / runs,
                weighed: weighed / runs * shelter,
                value: 0,
                decides: decides[k] != 0,
            }
        })
        .collect();
    let weakest = |ordinary: bool| {
        out.iter()
            .filter(|p| p.weighed > 0.0 && !(ordinary && p.decides))
            .map(|p| p.weighed)
            .fold(f64::INFINITY, f64::min)
    };
    let base = [weakest(true), weakest(false), 1.0]
        .into_iter()
        .find(|b| b.is_finite())
        .unwrap_or(1.0);
    for p in &mut out {
        p.value = (UNIT * p.weighed / base).round().max(1.0) as i32;
    }
    out
}

fn mask(kinds: usize) -> u64 {
    if kinds >= 64 {
        u64::MAX
    } else {
        (1u64 << kinds) - 1
    }
}

fn count_bits(x: u64) -> usize {
    x.count_ones() as usize
}

/// Destinations from one cell, plain and weighed. Entries come grouped by destination;
/// a destination counts once, at its best entry.
fn cell_worth(rules: &Rules, entries: &[MoveEntry]) -> (f64, f64) {
    let (mut reach, mut weighed) = (0.0, 0.0);
    let mut i = 0;
    while i < entries.len() {
        let to = entries[i].to;
        let mut best: f64 = 0.0;
        let mut empty_ok = false;
        while i < entries.len() && entries[i].to == to {
            let e = &entries[i];
            empty_ok |= e.dest.allows_empty();
            best = best.max(entry_worth(rules, e));
            i += 1;
        }
        if empty_ok {
            reach += 1.0;
        }
        weighed += best;
    }
    (reach, weighed)
}

fn entry_worth(rules: &Rules, e: &MoveEntry) -> f64 {
    let mut w = match e.dest {
        Dest::Either => 1.0,
        Dest::Enemy => 0.6,
        Dest::Empty => 0.5,
    };
    if e.target.is_some() {
        w *= 0.3;
    }
    if e.tag.is_some_and(|t| rules.variant.tag(t).once_per_game) {
        w *= 0.15;
    }
    // The chance that at least one of the alternative paths is clear.
    let blocked: f64 = rules
        .paths(e)
        .iter()
        .map(|p| 1.0 - (1.0 - DENSITY).powi(count(*p) as i32))
        .product();
    w * (1.0 - blocked)
}

/// Scores positions for the side to move.
#[derive(Clone, Debug)]
pub struct Evaluator {
    pub values: Vec<i32>,
    /// Kinds whose capture of each kind wins (see [`deciding`]).
    deciding: Vec<u64>,
    /// The kinds that decide the game.
    royal: Vec<PieceId>,
    kinds: usize,
    cells: usize,
    /// By (player, piece, cell): the cells its moves reach on an empty board...
    moves: Vec<u128>,
    /// ...and those where it could capture.
    hits: Vec<u128>,
    mobility: i32,
    threat: i32,
    attacked: i32,
    zone: i32,
}

impl Evaluator {
    pub fn new(rules: &Rules) -> Evaluator {
        let v = &rules.variant;
        let values: Vec<i32> = piece_values(rules).iter().map(|p| p.value).collect();
        let deciding = deciding(rules);
        let royal = (0..values.len())
            .filter(|k| deciding[*k] != 0)
            .map(|k| PieceId(k as u8))
            .collect();
        let (kinds, cells) = (v.pieces.len(), v.board.len());
        let mut moves = vec![0u128; v.players.len() * kinds * cells];
        let mut hits = moves.clone();
        for pl in 0..v.players.len() {
            for k in 0..kinds {
                for c in v.board.cells() {
                    let i = (pl * kinds + k) * cells + c.index();
                    for e in rules.moves(PlayerId(pl as u8), PieceId(k as u8), c) {
                        moves[i] |= e.to.bit();
                        if e.dest.allows_enemy() {
                            hits[i] |= e.to.bit();
                        }
                    }
                }
            }
        }
        Evaluator {
            values,
            deciding,
            royal,
            kinds,
            cells,
            moves,
            hits,
            mobility: 3,
            threat: 4,
            attacked: 60,
            zone: 12,
        }
    }

    /// The value of a piece kind.
    #[inline]
    pub fn value(&self, k: PieceId) -> i32 {
        self.values[k.0 as usize]
    }

    #[inline]
    fn at(&self, p: PlayerId, k: PieceId, c: crate::geometry::Cell) -> usize {
        (p.0 as usize * self.kinds + k.0 as usize) * self.cells + c.index()
    }

    /// The position's worth to the side to move: its material, mobility and the
    /// safety of its deciding pieces, less the same for the others.
    pub fn evaluate(&self, rules: &Rules, pos: &Position) -> i32 {
        let me = pos.to_move();
        let mut total = 0;
        for p in 0..pos.players() {
            let p = PlayerId(p);
            let s = self.side(rules, pos, p);
            total += if p == me { s } else { -s };
        }
        total
    }

    fn side(&self, rules: &Rules, pos: &Position, p: PlayerId) -> i32 {
        let mut s = 0;
        let own = pos.of_player(p);
        let enemy = pos.occupied() & !own;
        for (k, v) in self.values.iter().enumerate() {
            let k = PieceId(k as u8);
            let set = pos.pieces_of(p, k);
            s += *v * count(set) as i32;
            // Mobility on the board as it is, ignoring what blocks the way.
            each_cell(set, |c| {
                let i = self.at(p, k, c);
                s += self.mobility * count(self.moves[i] & !own) as i32;
                s += self.threat * count(self.hits[i] & enemy) as i32;
            });
        }
        for &r in &self.royal {
            each_cell(pos.pieces_of(p, r), |cell| {
                let allowed = self.deciding[r.0 as usize];
                s -= self.attacked * attackers(rules, pos, cell, p, allowed) as i32;
                s -= self.zone * self.pressure(pos, self.moves[self.at(p, r, cell)], p, allowed);
            });
        }
        s
    }

    /// How many of the cells around a deciding piece (those it could move to) enemies
    /// of the allowed kinds could capture on, counted once per enemy.
    fn pressure(&self, pos: &Position, zone: u128, p: PlayerId, allowed: u64) -> i32 {
        let mut n = 0;
        for q in (0..pos.players()).map(PlayerId).filter(|q| *q != p) {
            for k in (0..self.kinds).filter(|k| allowed & (1 << k) != 0) {
                let k = PieceId(k as u8);
                each_cell(pos.pieces_of(q, k), |c| {
                    n += count(self.hits[self.at(q, k, c)] & zone) as i32;
                });
            }
        }
        n
    }
}

/// Enemy pieces of the allowed kinds that could capture on `cell` now.
pub fn attackers(
    rules: &Rules,
    pos: &Position,
    cell: crate::geometry::Cell,
    owner: PlayerId,
    allowed: u64,
) -> u32 {
    let occupied = pos.occupied();
    let victim = pos.at(cell).map(|(_, k)| k);
    let mut n = 0;
    for q in 0..pos.players() {
        let q = PlayerId(q);
        if q == owner {
            continue;
        }
        let used = pos.used_bits(q);
        for k in 0..rules.variant.pieces.len() {
            if allowed & (1 << k) == 0 {
                continue;
            }
            let k = PieceId(k as u8);
            let mut near = pos.pieces_of(q, k) & rules.attackers_of(q, k, cell);
            if near == 0 {
                continue;
            }
            for (from, e) in rules.attacks_on(q, k, cell) {
                if near & from.bit() == 0
                    || e.target.is_some_and(|t| Some(t) != victim)
                    || rules
                        .once_bit(k, e.tag)
                        .is_some_and(|b| used & (1 << b) != 0)
                    || !rules.open(e, occupied)
                {
                    continue;
                }
                near &= !from.bit();
                n += 1;
            }
        }
    }
    n
}

//! Hands: what a player may drop where, and the drops indexed by cell.

use super::*;

/// How a piece may be dropped from hand, compiled per piece kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DropRule {
    /// Not on a file holding the player's own pieces of these kinds.
    pub file_with: u64,
    /// Not on a file holding this many (two or more) of the player's own pieces of a
    /// kind.
    pub file_full: Option<(PieceId, u8)>,
    /// Not on a cell the player's own pieces of these kinds attack.
    pub attacked_by: u64,
    /// Not attacking an enemy royal piece.
    pub no_check: bool,
    /// Not attacking an enemy royal piece and leaving the enemy no legal move.
    pub no_mate: bool,
    /// Only where it encloses a line of enemy pieces.
    pub enclosing: bool,
    /// While a cell of this zone is empty, only there.
    pub first_on: Option<usize>,
}

pub(super) fn drop_rules(v: &Variant, options: &[bool]) -> Vec<DropRule> {
    v.pieces
        .iter()
        .map(|p| {
            let mut r = DropRule::default();
            for (_, rule) in p.no_drop.iter().filter(|(g, _)| holds(*g, options)) {
                match rule {
                    NoDrop::FileWith(k, 1) => r.file_with |= 1 << k.0,
                    NoDrop::FileWith(k, n) => r.file_full = Some((*k, *n)),
                    NoDrop::AttackedBy(k) => r.attacked_by |= 1 << k.0,
                    NoDrop::Check => r.no_check = true,
                    NoDrop::Checkmate => r.no_mate = true,
                    NoDrop::InZone(_) | NoDrop::OutsideZone(_) => {}
                    NoDrop::Enclosing => r.enclosing = true,
                    NoDrop::FirstOn(z) => r.first_on = Some(*z),
                }
            }
            r
        })
        .collect()
}

/// Per (player, piece), the cells a drop may use (with `never dropped where they
/// could never move`, only cells the piece has a move from); per (player, cell), the
/// line through the cell along the player's forward direction.
pub(super) fn index_drops<S: Width>(rules: &mut Rules) {
    let v = &rules.variant;
    let b = &v.board;
    let mobile = v.hand.is_some_and(|h| h.mobile_only);
    let mut drop_cells = Vec::new();
    let mut files = Vec::new();
    for (pl, player) in v.players.iter().enumerate() {
        let pl = PlayerId(pl as u8);
        for pc in 0..v.pieces.len() {
            let pc = PieceId(pc as u8);
            let zones: Vec<(bool, &[Cell])> = v
                .piece(pc)
                .no_drop
                .iter()
                .filter(|(g, _)| holds(*g, &rules.options))
                .filter_map(|(_, r)| match r {
                    NoDrop::InZone(z) => Some((false, &v.zones[*z].cells[pl.0 as usize][..])),
                    NoDrop::OutsideZone(z) => Some((true, &v.zones[*z].cells[pl.0 as usize][..])),
                    _ => None,
                })
                .collect();
            drop_cells.push(S::from_cells(b.cells().filter(|c| {
                (!mobile || !rules.moves(pl, pc, *c).is_empty())
                    && zones.iter().all(|(inside, z)| z.contains(c) == *inside)
            })));
        }
        for c in b.cells() {
            let mut set = S::single(c);
            if let Some(f) = player.forward {
                for d in [f, b.opposite(f)] {
                    let mut at = b.point(c);
                    loop {
                        at = b.shift(at, d);
                        if !b.within_bounds(at) {
                            break;
                        }
                        if let Some(n) = b.at(at) {
                            set.insert(n);
                        }
                    }
                }
            }
            files.push(set);
        }
    }
    let mut around = vec![S::EMPTY; if rules.rays.is_empty() { 0 } else { b.len() }];
    for c in b.cells() {
        for ray in rules.rays.get(c.index()).into_iter().flatten() {
            if let Some(first) = ray.first() {
                around[first.index()].insert(c);
            }
        }
    }
    let mut tables = S::take(&mut rules.sets);
    tables.drop_cells = drop_cells;
    tables.files = files;
    tables.around = around;
    tables.all = S::from_cells(b.cells());
    rules.sets = S::wrap(tables);
}

/// Gates (`pieces in hand enter through gates on ZONE`): each (player, cell) with its
/// bit, the bits per cell (empty without gates), and each player's bits.
pub(super) fn gates(variant: &Variant) -> (Vec<(PlayerId, Cell)>, Vec<u64>, [u64; MAX_PLAYERS]) {
    let (mut gate_cells, mut gate_bits, mut player_gates): (Vec<(PlayerId, Cell)>, Vec<u64>, _) =
        (vec![], vec![], [0u64; MAX_PLAYERS]);
    if let Some(crate::model::Gates { zone: z, .. }) = variant.gates {
        gate_bits = vec![0u64; variant.board.len()];
        for (p, cells) in variant.zones[z].cells.iter().enumerate() {
            for &c in cells {
                let bit = 1u64 << gate_cells.len();
                gate_cells.push((PlayerId(p as u8), c));
                gate_bits[c.index()] |= bit;
                player_gates[p] |= bit;
            }
        }
    }
    (gate_cells, gate_bits, player_gates)
}

/// Per piece: the kinds, as a bit set, it may also be dropped as (its promoted forms,
/// with `dropped either side up`).
pub(super) fn drop_faces(variant: &Variant, demote: &[PieceId]) -> Vec<u64> {
    let pieces = variant.pieces.len();
    let mut drop_faces = vec![0u64; pieces];
    if variant.hand.is_some_and(|h| h.either_side) {
        for (j, base) in demote.iter().enumerate() {
            if base.0 as usize != j {
                drop_faces[base.0 as usize] |= 1 << j;
            }
        }
    }
    drop_faces
}

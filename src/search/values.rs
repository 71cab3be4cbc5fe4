//! The evaluation, derived from the rules alone: piece values estimated from each
//! piece's compiled moves, mobility, and the safety of the pieces that decide the game.

use super::promise::distances;
use super::reaches::{Reaches, Slot};
use crate::compile::{MoveEntry, Rules, SetTables, Sets, Width, by_width};
use crate::geometry::Cell;
use crate::model::{Dest, PieceId, PlayerId};
use crate::rng::Rng;
use crate::runtime::{Position, PositionOf, View};

/// The share of cells taken as occupied when judging how often a move's path is open,
/// and how many such boards are drawn (the same ones every time).
const DENSITY: f64 = 0.3;
const SAMPLES: usize = 256;
/// What the weakest ordinary piece is worth.
const UNIT: f64 = 100.0;

/// What the engine believes a piece is worth, and why.
#[derive(Clone, Debug)]
pub struct PieceValue {
    pub piece: PieceId,
    /// Destinations from an average cell of the empty board.
    pub reach: f64,
    /// The same, each weighed by how often its path is open on a board 30% full,
    /// whether it can capture, and whether it is once per game.
    pub weighed: f64,
    /// The value in hundredths of the weakest ordinary piece.
    pub value: i32,
    /// Whether capturing this piece wins the game.
    pub decides: bool,
}

/// Estimates every piece's value from its move tables.
pub fn piece_values(rules: &Rules) -> Vec<PieceValue> {
    let v = &rules.variant;
    let kinds = v.pieces.len();
    let measured = by_width!(&rules.sets, Sets, _, S => measure::<S>(rules));
    let mut out: Vec<PieceValue> = measured
        .into_iter()
        .enumerate()
        .map(|(k, (reach, weighed))| {
            // A piece few kinds may take lives longer.
            let takers = (rules.capturable_by[k] & mask(kinds)).count_ones() as usize;
            let shelter = 1.0 + 0.25 * (kinds - takers) as f64 / kinds as f64;
            PieceValue {
                piece: PieceId(k as u8),
                reach,
                weighed: weighed * shelter,
                value: 0,
                decides: rules.deciding(PieceId(k as u8)) != 0,
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

/// The kinds of a bit set, lowest first.
fn kinds(mut set: u64) -> impl Iterator<Item = PieceId> {
    std::iter::from_fn(move || {
        let k = set.trailing_zeros();
        set &= set.wrapping_sub(1);
        (k < 64).then_some(PieceId(k as u8))
    })
}

fn mask(kinds: usize) -> u64 {
    if kinds >= 64 {
        u64::MAX
    } else {
        (1u64 << kinds) - 1
    }
}

/// Each piece's average destinations per cell, plain and weighed.
fn measure<S: Width>(rules: &Rules) -> Vec<(f64, f64)> {
    let v = &rules.variant;
    let sets = rules.sets::<S>();
    let mut rng = Rng::new(0x7a1);
    let boards: Vec<S> = (0..SAMPLES)
        .map(|_| {
            S::from_cells(
                v.board
                    .cells()
                    .filter(|_| (rng.next_u64() % 1000) as f64 / 1000.0 < DENSITY),
            )
        })
        .collect();
    let full = S::from_cells(v.board.cells());
    (0..v.pieces.len())
        .map(|k| {
            let (mut reach, mut weighed, mut runs) = (0.0, 0.0, 0.0);
            for pl in 0..v.players.len() {
                for cell in orbit(rules, PlayerId(pl as u8), PieceId(k as u8)) {
                    let entries = rules.moves(PlayerId(pl as u8), PieceId(k as u8), cell);
                    let (r, w) = cell_worth(rules, entries, |e| {
                        if sets.open(e, &full) {
                            1.0
                        } else {
                            open_share(sets, e, &boards)
                        }
                    });
                    reach += r;
                    weighed += w;
                    runs += 1.0;
                }
            }
            (reach / runs, weighed / runs)
        })
        .collect()
}

/// The cells a player's piece of a kind can ever stand on: those it starts on and
/// those its moves reach from there without having to promote. A piece confined to a
/// palace or its own half is judged there, not where it never goes. All cells where
/// pieces come from hands, random setups or promotion.
fn orbit(rules: &Rules, p: PlayerId, k: PieceId) -> Vec<Cell> {
    let v = &rules.variant;
    let all = || v.board.cells().collect();
    if rules.hands || v.random.is_some() || v.gates.is_some() {
        return all();
    }
    let mut seen = vec![false; v.board.len()];
    let mut queue: Vec<Cell> = v
        .setup
        .iter()
        .filter(|s| s.player == p && s.piece == k)
        .map(|s| s.cell)
        .collect();
    if queue.is_empty() {
        return all();
    }
    for c in &queue {
        seen[c.index()] = true;
    }
    let mut head = 0;
    while head < queue.len() {
        let c = queue[head];
        head += 1;
        for e in rules.moves(p, k, c) {
            if e.promote != crate::compile::MUST_PROMOTE && !seen[e.to.index()] {
                seen[e.to.index()] = true;
                queue.push(e.to);
            }
        }
    }
    queue
}

fn open_share<S: Width>(sets: &SetTables<S>, e: &MoveEntry, boards: &[S]) -> f64 {
    boards.iter().filter(|b| sets.open(e, b)).count() as f64 / boards.len() as f64
}

/// Destinations from one cell, plain and weighed. Entries come grouped by destination;
/// a destination counts once, at its best entry.
fn cell_worth(
    rules: &Rules,
    entries: &[MoveEntry],
    open: impl Fn(&MoveEntry) -> f64,
) -> (f64, f64) {
    let (mut reach, mut weighed) = (0.0, 0.0);
    let mut i = 0;
    while i < entries.len() {
        let to = entries[i].to;
        let mut best: f64 = 0.0;
        let mut empty_ok = false;
        while i < entries.len() && entries[i].to == to {
            let e = &entries[i];
            empty_ok |= e.dest.allows_empty();
            best = best.max(entry_weight(rules, e) * open(e));
            i += 1;
        }
        if empty_ok {
            reach += 1.0;
        }
        weighed += best;
    }
    (reach, weighed)
}

fn entry_weight(rules: &Rules, e: &MoveEntry) -> f64 {
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
    w
}

/// Boards up to this many cells get the tables that hunt a lone deciding piece (a
/// table of distances between every two cells, a byte each).
const HUNT_CELLS: usize = 1024;
/// Per step of a hunted deciding piece towards the rim, and per step its hunter's own
/// deciding piece stands away from it.
const RIM: i32 = 8;
const NEAR: i32 = 6;

/// How a deciding piece left without helpers is driven to the rim and met there: the
/// cells by how near the rim and the corners they are, and the distances between
/// cells, both in the piece's own steps on the empty board.
#[derive(Clone, Debug)]
struct Hunt {
    kind: PieceId,
    /// Per cell: 0 in the middle, more towards the rim, most in the corners.
    rim: Vec<i32>,
    /// Steps from cell a to cell b at `a * cells + b`.
    steps: Vec<u8>,
}

fn hunts(rules: &Rules, of: u64) -> Vec<Hunt> {
    let n = rules.variant.board.len();
    if n > HUNT_CELLS {
        return vec![];
    }
    kinds(of)
        .map(|k| {
            let next: Vec<Vec<usize>> = rules
                .variant
                .board
                .cells()
                .map(|c| {
                    let mut to: Vec<usize> = rules
                        .moves(PlayerId(0), k, c)
                        .iter()
                        .filter(|e| e.dest.allows_empty())
                        .map(|e| e.to.index())
                        .collect();
                    to.dedup();
                    to
                })
                .collect();
            let most = next.iter().map(Vec::len).max().unwrap_or(0);
            let edge: Vec<usize> = (0..n).filter(|c| next[*c].len() < most).collect();
            let inside = distances(&next, &edge);
            let deepest = inside.iter().filter(|d| **d < u8::MAX).max().copied();
            let rim = (0..n)
                .map(|c| match deepest {
                    Some(d) if inside[c] < u8::MAX => {
                        2 * (d - inside[c]) as i32 + (most - next[c].len()) as i32
                    }
                    _ => 0,
                })
                .collect();
            let steps = (0..n).flat_map(|c| distances(&next, &[c])).collect();
            Hunt {
                kind: k,
                rim,
                steps,
            }
        })
        .collect()
}

/// A kind that wins by reaching a zone: per player, steps from each cell to the
/// player's part of the zone (`u8::MAX`: never) on the empty board, that part, and per
/// cell the cells a move of the kind reaches it from.
#[derive(Clone, Debug)]
struct Goal {
    kind: PieceId,
    /// Every move of the kind lands on an empty cell: it never takes what stands in its
    /// way, so its way is counted over the empty cells of the position.
    quiet: bool,
    steps: Vec<Vec<u8>>,
    zone: Vec<Vec<u16>>,
    back: Vec<Vec<Vec<u16>>>,
}

impl Goal {
    /// Steps from the player's nearest piece of the kind to an empty cell of its zone,
    /// over empty cells only (`u8::MAX`: no way).
    fn steps_now<S: Width>(&self, pos: &PositionOf<S>, p: PlayerId) -> u8 {
        use crate::geometry::MAX_CELLS;
        let back = &self.back[p.0 as usize];
        let occupied = pos.occupied();
        let mine = pos.pieces_of(p, self.kind);
        let mut dist = [u8::MAX; MAX_CELLS];
        let mut queue = [0u16; MAX_CELLS];
        let (mut head, mut tail) = (0, 0);
        for &z in &self.zone[p.0 as usize] {
            if !occupied.contains(Cell(z)) {
                dist[z as usize] = 0;
                queue[tail] = z;
                tail += 1;
            }
        }
        while head < tail {
            let t = queue[head] as usize;
            head += 1;
            let d = dist[t];
            for &c in &back[t] {
                if dist[c as usize] != u8::MAX {
                    continue;
                }
                if mine.contains(Cell(c)) {
                    return d + 1;
                }
                if !occupied.contains(Cell(c)) && d < u8::MAX - 2 {
                    dist[c as usize] = d + 1;
                    queue[tail] = c;
                    tail += 1;
                }
            }
        }
        u8::MAX
    }
}

/// What a side loses when no piece of a kind that wins by reaching a zone has a way
/// there left (where nothing is ever taken, so what stands in the way stays).
const CUT_OFF: i32 = 100;

/// What being one step nearer a goal is worth, and how many steps away it still
/// counts; the last two steps count double, as the others can rarely stop them.
const GOAL_STEP: i32 = 24;
const GOAL_RANGE: u8 = 8;

/// The kinds that win by reaching a zone, as the end rules in force say.
fn goals(rules: &Rules) -> Vec<Goal> {
    use crate::model::Outcome;
    let n = rules.variant.board.len();
    use crate::model::{Event, Owner, Who};
    // `a player has a King in goal: that player wins`, or a player named on both sides:
    // `White has a King in corners: White wins`.
    let wins_for = |r: &crate::model::EndRule, e: &Event| match (r.outcome, e) {
        (Outcome::THAT_WINS | Outcome::MOVER_WINS, _) => true,
        (
            Outcome::Scores {
                who: Who::Player(q),
                got: 1,
                of: 1,
            },
            Event::Has { owner, .. },
        ) => *owner == Owner::Player(q),
        _ => false,
    };
    let mut found: Vec<(PieceId, usize)> = rules
        .end_rules_in_force()
        .flat_map(|r| r.condition.positive().into_iter().map(move |e| (r, e)))
        .filter(|(r, e)| wins_for(r, e))
        .filter_map(|(_, e)| e.goal())
        .collect();
    found.dedup();
    found
        .into_iter()
        .map(|(kind, zone)| {
            let players = rules.variant.players.len();
            let (mut zones, mut backs) = (Vec::new(), Vec::new());
            let steps = (0..players)
                .map(|p| {
                    let p = PlayerId(p as u8);
                    // Moves backwards: from each cell to those that reach it.
                    let mut back = vec![Vec::new(); n];
                    for c in rules.variant.board.cells() {
                        for e in rules.moves(p, kind, c) {
                            if e.dest.allows_empty() {
                                back[e.to.index()].push(c.index());
                            }
                        }
                    }
                    let cells: Vec<usize> = rules.variant.zones[zone].cells[p.0 as usize]
                        .iter()
                        .map(|c| c.index())
                        .collect();
                    let steps = distances(&back, &cells);
                    zones.push(cells.iter().map(|&c| c as u16).collect());
                    backs.push(
                        back.into_iter()
                            .map(|b| b.into_iter().map(|c| c as u16).collect())
                            .collect(),
                    );
                    steps
                })
                .collect();
            Goal {
                kind,
                quiet: rules.variant.pieces[kind.0 as usize]
                    .moves
                    .iter()
                    .all(|m| m.dest == crate::model::Dest::Empty),
                steps,
                zone: zones,
                back: backs,
            }
        })
        .collect()
}

/// Per cell, when enclosed pieces change sides: [`ANCHOR`] where every line through it
/// ends there, so nothing can enclose a piece on it, else [`EDGE`] for each line that
/// ends there; empty otherwise.
fn anchors(rules: &Rules) -> Vec<i32> {
    let b = &rules.variant.board;
    if rules
        .enclosure
        .as_ref()
        .is_none_or(|e| e.which != crate::model::Flip::Enclosed || e.captures)
    {
        return vec![];
    }
    b.cells()
        .map(|c| {
            let p = b.point(c);
            let n = b.directions().len();
            let ends = (0..n)
                .filter(|&d| {
                    let d = crate::geometry::Dir(d as u8);
                    b.at(b.shift(p, d)).is_none() || b.at(b.shift(p, b.opposite(d))).is_none()
                })
                .count() as i32;
            // Each line is counted from both of its directions.
            if ends == n as i32 {
                ANCHOR
            } else {
                EDGE * ends / 2
            }
        })
        .collect()
}

/// What a piece is worth more for each line that ends on its cell.
const EDGE: i32 = 3;

/// The cells one step from an anchor (see [`anchors`]), each with that anchor.
fn near_anchors(rules: &Rules) -> Vec<(Cell, Cell)> {
    let b = &rules.variant.board;
    let anchors = anchors(rules);
    let mut out = vec![];
    for a in b
        .cells()
        .filter(|a| anchors.get(a.index()) == Some(&ANCHOR))
    {
        for d in 0..b.directions().len() {
            if let Some(c) = b.at(b.shift(b.point(a), crate::geometry::Dir(d as u8))) {
                out.push((c, a));
            }
        }
    }
    out
}

/// Scores positions for the side to move.
#[derive(Clone, Debug)]
pub struct Evaluator {
    pub values: Vec<i32>,
    /// The value of the weakest kind whose capture does not decide the game.
    weakest: i32,
    /// 1, or -1 where the rules reward giving material away: then a side's material,
    /// mobility and threats all count against it; where being checkmated wins
    /// (-[`MATE_BURDEN`]), its material and the safety of its royal pieces do, and its
    /// mobility still counts for it (a side without moves would be stalemated).
    material: i32,
    moves: i32,
    mobility: i32,
    threat: i32,
    attacked: i32,
    zone: i32,
    hunts: Vec<Hunt>,
    /// Where being checkmated wins: the royal kinds, whose steps to the other side's
    /// pieces count against their side.
    approach: Vec<Hunt>,
    goals: Vec<Goal>,
    promise: Option<super::promise::Promise>,
    /// With enclosed pieces changing sides: per cell, what a piece there is worth more
    /// for standing where no line runs through it (a corner, which nothing can enclose).
    anchors: Vec<i32>,
    /// (cell, anchor next to it): a piece there while the anchor is empty may give
    /// the anchor away.
    near_anchors: Vec<(Cell, Cell)>,
    /// Kinds dropped only where they enclose: each such cell open to a player counts
    /// as a move of its.
    enclosing_drops: u64,
    /// Where space decides the game: the cells each side reaches first count.
    territory: Option<Steps>,
    /// Where nothing is ever taken: goals are reached over empty cells only, as what
    /// stands in the way stays there.
    blocked_goals: bool,
    /// Where every move captures: the groups of pieces linked by moves. A piece whose
    /// group holds an enemy is worth double, as it may still move or be taken.
    live: Option<super::groups::Links>,
}

/// Per (player, kind, cell), the cells a piece there reaches without crossing another
/// cell: `ranges[(p * kinds + k) * cells + c]` into `to`.
#[derive(Clone, Debug)]
struct Steps {
    kinds: usize,
    cells: usize,
    ranges: Vec<(u32, u32)>,
    to: Vec<u16>,
}

impl Steps {
    fn new(rules: &Rules) -> Steps {
        by_width!(words Sets::width_for(rules.variant.board.len()), S => Steps::of::<S>(rules))
    }

    fn of<S: Width>(rules: &Rules) -> Steps {
        let sets: &SetTables<S> = rules.sets();
        let v = &rules.variant;
        let (kinds, cells) = (v.pieces.len(), v.board.len());
        let mut ranges = Vec::with_capacity(v.players.len() * kinds * cells);
        let mut to = Vec::new();
        for p in (0..v.players.len()).map(|p| PlayerId(p as u8)) {
            for k in (0..kinds).map(|k| PieceId(k as u8)) {
                for c in v.board.cells() {
                    let first = to.len() as u32;
                    for e in rules.moves(p, k, c) {
                        if e.dest.allows_empty() && sets.paths(e).all(|m| m.is_empty()) {
                            to.push(e.to.index() as u16);
                        }
                    }
                    ranges.push((first, to.len() as u32));
                }
            }
        }
        Steps {
            kinds,
            cells,
            ranges,
            to,
        }
    }

    fn from(&self, p: PlayerId, k: PieceId, c: Cell) -> &[u16] {
        let (a, b) =
            self.ranges[(p.0 as usize * self.kinds + k.0 as usize) * self.cells + c.index()];
        &self.to[a as usize..b as usize]
    }
}

/// Where being checkmated wins: how much a side's material counts against it, what
/// each step between its royal pieces and the others' pieces costs it, and what its
/// royal pieces gain towards the rim. Giving the other side more pieces, walking into
/// them and standing where few cells are left to flee to make a mate likelier.
const MATE_BURDEN: i32 = 4;
const APPROACH: i32 = 16;
const OWN_RIM: i32 = 8;

/// What a piece is worth more on a cell no line runs through.
const ANCHOR: i32 = 40;

impl Evaluator {
    pub fn new(rules: &Rules) -> Evaluator {
        let values: Vec<i32> = piece_values(rules).iter().map(|p| p.value).collect();
        let deciding = rules.deciding_kinds();
        let weakest = (0..values.len())
            .filter(|k| deciding & (1 << k) == 0)
            .map(|k| values[k])
            .min()
            .unwrap_or(0);
        Evaluator {
            weakest,
            material: match (rules.mate_is_a_goal(), rules.material_is_a_burden()) {
                (true, _) => -MATE_BURDEN,
                (false, true) => -1,
                (false, false) => 1,
            },
            moves: if rules.material_is_a_burden() && !rules.mate_is_a_goal() {
                -1
            } else {
                1
            },
            mobility: 3,
            threat: 4,
            attacked: 60,
            zone: 12,
            hunts: hunts(rules, rules.deciding_kinds()),
            approach: if rules.mate_is_a_goal() {
                hunts(rules, rules.royal)
            } else {
                vec![]
            },
            goals: goals(rules),
            promise: super::promise::Promise::new(rules, &values),
            anchors: anchors(rules),
            near_anchors: near_anchors(rules),
            enclosing_drops: (0..rules.drop_rules.len())
                .filter(|&k| rules.drop_rules[k].enclosing)
                .fold(0, |m, k| m | 1 << k),
            // Where a piece wins by reaching a zone, the race there decides, not space.
            territory: (rules.space_decides() && rules.ends.goals.is_empty())
                .then(|| Steps::new(rules)),
            blocked_goals: rules.nothing_is_taken(),
            live: rules
                .every_move_captures()
                .then(|| super::groups::Links::new(rules)),
            values,
        }
    }

    /// The value of a piece kind.
    #[inline]
    pub fn value(&self, k: PieceId) -> i32 {
        self.values[k.0 as usize]
    }

    /// The position's worth to the side to move: its material, mobility and the
    /// safety of its deciding pieces, less the same for the others.
    pub fn evaluate(&self, rules: &Rules, pos: &Position) -> i32 {
        by_width!(pos.view(), View, p => self.evaluate_at(rules, p, None))
    }

    /// The same worth, reusing the pieces' shares of mobility kept in `reaches` where
    /// nothing their moves look at has changed.
    pub(super) fn evaluate_reusing(
        &self,
        rules: &Rules,
        pos: &Position,
        reaches: &mut Reaches,
    ) -> i32 {
        // Walls change what a move may reach without changing what it looks at.
        let reaches = (!rules.walls).then_some(reaches);
        by_width!(pos.view(), View, p => self.evaluate_at(rules, p, reaches))
    }

    fn evaluate_at<S: Width>(
        &self,
        rules: &Rules,
        pos: &PositionOf<S>,
        reaches: Option<&mut Reaches>,
    ) -> i32 {
        let mut slots = reaches.map(|r| r.slots::<S>(rules.variant.board.len()));
        let me = pos.to_move();
        let mut helpers = [0; 8];
        let score: i32 = (0..pos.players())
            .map(|p| {
                let (s, moves, h) = self.side(rules, pos, PlayerId(p), slots.as_deref_mut());
                helpers[p as usize % 8] += h;
                let s = self.material * s + self.moves * moves;
                if PlayerId(p) == me { s } else { -s }
            })
            .sum();
        let score = score + self.approach(pos, me);
        let score = match &self.territory {
            Some(steps) => score + TERRITORY * territory(steps, pos),
            None => score,
        };
        let score = match &self.live {
            Some(links) => {
                let mut live = [0; 8];
                links.live(pos, &self.values, &mut live);
                let total: i32 = live.iter().sum();
                score + self.material * (2 * live[me.0 as usize % 8] - total)
            }
            None => score,
        };
        if self.material < 0 || self.hunts.is_empty() {
            return score;
        }
        let total: i32 = helpers.iter().sum();
        score
            + (0..pos.players())
                .map(|p| {
                    let mine = helpers[p as usize % 8];
                    let s = if mine > 0 && 4 * (total - mine) <= mine {
                        self.hunt(pos, PlayerId(p))
                    } else {
                        0
                    };
                    if PlayerId(p) == me { s } else { -s }
                })
                .sum::<i32>()
    }

    /// Steps from the side to move's royal pieces to the others' pieces, and their
    /// nearness to the rim, less theirs.
    fn approach<S: Width>(&self, pos: &PositionOf<S>, me: PlayerId) -> i32 {
        let mut s = 0;
        for h in &self.approach {
            let n = h.rim.len();
            for p in (0..pos.players()).map(PlayerId) {
                let sign = if p == me { -APPROACH } else { APPROACH };
                let others = pos.occupied().difference(pos.of_player(p));
                for a in pos.pieces_of(p, h.kind).iter() {
                    s -= sign.signum() * OWN_RIM * h.rim[a.index()];
                    for c in others.iter() {
                        s += sign * h.steps[a.index() * n + c.index()].min(16) as i32;
                    }
                }
            }
        }
        s
    }

    /// For a side far ahead in pieces that do not decide the game: the others'
    /// deciding pieces driven to the rim, its own brought near them.
    fn hunt<S: Width>(&self, pos: &PositionOf<S>, p: PlayerId) -> i32 {
        let mut s = 0;
        for h in &self.hunts {
            let n = h.rim.len();
            let own = pos.pieces_of(p, h.kind);
            for q in (0..pos.players()).map(PlayerId).filter(|q| *q != p) {
                for c in pos.pieces_of(q, h.kind).iter() {
                    s += RIM * h.rim[c.index()];
                    for a in own.iter() {
                        s -= NEAR * h.steps[a.index() * n + c.index()].min(16) as i32;
                    }
                }
            }
        }
        s
    }

    /// A side's score less its mobility and threats, those, and the worth of its pieces
    /// that do not decide the game.
    fn side<S: Width>(
        &self,
        rules: &Rules,
        pos: &PositionOf<S>,
        p: PlayerId,
        mut slots: Option<&mut [Slot<S>]>,
    ) -> (i32, i32, i32) {
        let mut s = 0;
        let mut moves = 0;
        let mut helpers = 0;
        let deciding = rules.deciding_kinds();
        let own = *pos.of_player(p);
        let enemy = pos.occupied().difference(&own);
        // Only the moves open now count (and none onto a wall).
        let sets = rules.sets::<S>();
        let occupied = pos.occupied();
        for (k, v) in self.values.iter().enumerate() {
            let k = PieceId(k as u8);
            let set = pos.pieces_of(p, k);
            // A piece in hand is worth what it is on the board: it may be dropped.
            let held = if rules.hands {
                pos.in_hand(p, k) as i32
            } else {
                0
            };
            let n = set.len() as i32 + held;
            s += *v * n;
            if deciding & (1 << k.0) == 0 {
                helpers += *v * n;
            }
            // Mobility and threats on the board as it is.
            for c in set.iter() {
                let share = || {
                    let mut n = 0;
                    let mut last = None;
                    let entries = rules.moves(p, k, c);
                    let mut next = 0;
                    while let Some(e) = entries.get(next) {
                        next += 1;
                        // A closed path closes the entry and those it shades.
                        let (skip, open) = sets.shade(e, occupied);
                        next += skip;
                        if last == Some(e.to)
                            || own.contains(e.to)
                            || (rules.walls && pos.walls().contains(e.to))
                            || !open.unwrap_or_else(|| sets.open(e, occupied))
                        {
                            continue;
                        }
                        last = Some(e.to);
                        n += self.mobility;
                        if e.dest.allows_enemy() && enemy.contains(e.to) {
                            n += self.threat;
                        }
                    }
                    n
                };
                moves += match slots.as_deref_mut().and_then(|s| s.get_mut(c.index())) {
                    Some(slot) => {
                        let run = rules.run(p, k, c);
                        let (seen, mine) =
                            (sets.looked_at(run, occupied), sets.looked_at(run, &own));
                        slot.share(run, seen, mine, share)
                    }
                    None => share(),
                };
            }
        }
        if let Some(promise) = &self.promise {
            s += promise.worth(pos, p);
        }
        if !self.anchors.is_empty() {
            s += own.iter().map(|c| self.anchors[c.index()]).sum::<i32>();
            for &(c, a) in &self.near_anchors {
                if own.contains(c) && !pos.occupied().contains(a) {
                    s -= ANCHOR / 2;
                }
            }
        }
        if pos.hand_kinds(p) & self.enclosing_drops != 0 {
            let open = rules.sets::<S>().all().difference(pos.occupied());
            moves +=
                self.mobility * open.iter().filter(|&c| pos.encloses(rules, p, c)).count() as i32;
        }
        for g in &self.goals {
            let steps = &g.steps[p.0 as usize];
            let pieces = pos.pieces_of(p, g.kind);
            let d = match (self.blocked_goals || g.quiet) && !pieces.is_empty() {
                true => Some(g.steps_now(pos, p)),
                false => pieces.iter().map(|c| steps[c.index()]).min(),
            };
            if d == Some(u8::MAX) && self.blocked_goals {
                s -= CUT_OFF;
            }
            if let Some(d) = d
                && d < GOAL_RANGE
            {
                s += GOAL_STEP * (GOAL_RANGE - d) as i32 + GOAL_STEP * 3u8.saturating_sub(d) as i32;
            }
        }
        for r in kinds(rules.deciding_kinds()) {
            let allowed = rules.deciding(r);
            for cell in pos.pieces_of(p, r).iter() {
                s -= self.attacked * pos.attackers(rules, cell, allowed) as i32;
                let zone = S::from_cells(rules.moves(p, r, cell).iter().map(|e| e.to));
                // Per cell of the zone, so that a far-moving piece is not thought
                // safer near the edge of the board.
                let cells = zone.len().max(8) as i32;
                s -= self.zone * 8 * pressure(rules, pos, &zone, p, allowed) / cells;
            }
        }
        (s, moves, helpers)
    }

    /// Whether the side to move may be thought able to pass without loss (null-move
    /// pruning): with hands it always has a move to spare; otherwise it needs a piece
    /// worth more than the weakest kind that does not decide the game, since with only
    /// those (pawns and a king) every move may make things worse (zugzwang).
    pub fn may_pass(&self, rules: &Rules, pos: &Position) -> bool {
        rules.hands || by_width!(pos.view(), View, p => self.may_pass_at(rules, p))
    }

    fn may_pass_at<S: Width>(&self, rules: &Rules, pos: &PositionOf<S>) -> bool {
        let me = pos.to_move();
        let deciding = rules.deciding_kinds();
        self.values.iter().enumerate().any(|(k, v)| {
            deciding & (1 << k) == 0
                && *v > self.weakest
                && !pos.pieces_of(me, PieceId(k as u8)).is_empty()
        })
    }

    /// Whether an enemy can capture a piece of the side to move whose capture decides
    /// the game: then the side to move may not simply stand still.
    pub fn in_danger(&self, rules: &Rules, pos: &Position) -> bool {
        by_width!(pos.view(), View, p => self.in_danger_at(rules, p))
    }

    fn in_danger_at<S: Width>(&self, rules: &Rules, pos: &PositionOf<S>) -> bool {
        let me = pos.to_move();
        kinds(rules.deciding_kinds()).any(|r| {
            let allowed = rules.deciding(r);
            pos.pieces_of(me, r)
                .iter()
                .any(|c| pos.attackers(rules, c, allowed) > 0)
        })
    }
}

/// How many times enemies of the allowed kinds aim at the cells around a deciding
/// piece (those it could move to).
fn pressure<S: Width>(
    rules: &Rules,
    pos: &PositionOf<S>,
    zone: &S,
    p: PlayerId,
    allowed: u64,
) -> i32 {
    let sets = rules.sets::<S>();
    let mut n = 0;
    for q in (0..pos.players()).map(PlayerId).filter(|q| *q != p) {
        for k in kinds(allowed) {
            let theirs = pos.pieces_of(q, k);
            if theirs.is_empty() {
                continue;
            }
            for z in zone.iter() {
                n += sets.attackers_in(rules.run(q, k, z), &theirs);
            }
        }
    }
    n as i32
}

/// Worth of a cell a side reaches before the others.
const TERRITORY: i32 = 6;

/// Cells the side to move reaches before every other player, less those another
/// reaches first: stepping from each player's pieces over empty cells with its kinds'
/// moves. A cell two players reach first at once counts for neither.
fn territory<S: Width>(steps: &Steps, pos: &PositionOf<S>) -> i32 {
    use crate::geometry::MAX_CELLS;
    const FAR: u16 = u16::MAX;
    const NONE: u8 = u8::MAX;
    let n = steps.cells.min(MAX_CELLS);
    let occupied = pos.occupied();
    let mut best = [FAR; MAX_CELLS];
    let mut owner = [NONE; MAX_CELLS];
    let mut dist = [FAR; MAX_CELLS];
    let mut queue = [0u16; MAX_CELLS];
    for p in (0..pos.players()).map(PlayerId) {
        dist[..n].fill(FAR);
        let (mut head, mut tail) = (0, 0);
        let mut held = 0u64;
        for c in pos.of_player(p).iter() {
            if let Some((_, k)) = pos.at(c) {
                held |= 1 << k.0;
            }
            dist[c.index()] = 0;
            queue[tail] = c.index() as u16;
            tail += 1;
        }
        while head < tail {
            let c = Cell(queue[head]);
            head += 1;
            let d = dist[c.index()];
            let mut k = held;
            while k != 0 {
                let kind = PieceId(k.trailing_zeros() as u8);
                k &= k - 1;
                for &t in steps.from(p, kind, c) {
                    if dist[t as usize] == FAR && !occupied.contains(Cell(t)) {
                        dist[t as usize] = d + 1;
                        queue[tail] = t;
                        tail += 1;
                    }
                }
            }
        }
        for i in 0..n {
            if dist[i] == 0 || dist[i] == FAR {
                continue;
            }
            if dist[i] < best[i] {
                best[i] = dist[i];
                owner[i] = p.0;
            } else if dist[i] == best[i] {
                owner[i] = NONE;
            }
        }
    }
    let me = pos.to_move().0;
    owner[..n]
        .iter()
        .map(|&o| match o {
            NONE => 0,
            o if o == me => 1,
            _ => -1,
        })
        .sum()
}

#[cfg(test)]
mod tests;

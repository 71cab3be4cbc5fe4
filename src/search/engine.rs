//! Iterative-deepening negamax alpha-beta with quiescence on captures.

use super::table::{Bound, Entry, Table};
use super::values::Evaluator;
use crate::compile::Rules;
use crate::model::{Event, Outcome, PieceId, PlayerId};
use crate::runtime::{Move, Position, Verdict, ends_by_capture, perpetual_checker};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The score of a win on the spot; a win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 1_000_000;
const INF: i32 = MATE + 1;
/// Scores beyond this are wins or losses found by the search.
pub const WON: i32 = MATE - 1_000;
const MAX_PLY: usize = 128;
/// The deepest fixed-depth search, in plies: deeper ones would not finish.
pub const MAX_LEVEL: u32 = 32;
/// Captures are followed at most this many plies beyond the horizon; past it the side
/// to move stands on the evaluation. Keeps the capture search finite on boards where
/// every piece can take another (a board full of Queens).
pub const QUIESCENCE_PLIES: i32 = 8;
/// A capture that would leave the side to move this far below what it can already
/// have, even with the captured piece's value, is not searched beyond the horizon.
const DELTA_MARGIN: i32 = 200;
/// From this many plies beyond the horizon on, only captures on the cell the last
/// move went to are followed: the exchange there is played out, nothing else.
const RECAPTURES_FROM: i32 = 2;
/// Where a player left without a move loses, a side with at most this many moves is
/// near losing that way: beyond the horizon it may not stand pat, as if in check.
const FEW_MOVES: usize = 4;

/// One less than the number of worths the evaluation cache keeps.
const EVALS_MASK: usize = (1 << 16) - 1;

/// When to stop thinking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration, in plies (captures are followed beyond it).
    pub depth: u32,
    /// Stop after this long: the last finished iteration's move is played, or a move
    /// the iteration cut short searched in full and found better.
    pub time: Option<Duration>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// The time to aim for (a clock's share for this move): no iteration starts past
    /// half of it, as it would likely not end before it; `time` still bounds the
    /// iteration under way.
    pub soft: Option<Duration>,
}

impl Limits {
    /// A fixed depth (from 1 to [`MAX_LEVEL`]; others are brought into that range):
    /// the same move every time, on any machine.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: depth.clamp(1, MAX_LEVEL),
            time: None,
            nodes: None,
            soft: None,
        }
    }

    /// As deep as the time allows. The first iteration always finishes with a move,
    /// however short the time.
    pub fn time(time: Duration) -> Limits {
        Limits {
            depth: MAX_PLY as u32 / 2,
            time: Some(time),
            nodes: None,
            soft: None,
        }
    }

    /// No limit but the deepest iteration: the search ends when stopped from outside
    /// (see [`Searcher::set_stop`]).
    pub fn infinite() -> Limits {
        Limits {
            depth: MAX_PLY as u32 / 2,
            time: None,
            nodes: None,
            soft: None,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Thought {
    /// None only when the side to move has no legal move.
    pub best: Option<Move>,
    /// For the side to move, in hundredths of the weakest ordinary piece, or
    /// `MATE - n` for a win in `n` plies.
    pub score: i32,
    /// The deepest iteration finished; 0 when even the first one was cut short (only
    /// a node limit can do that) and `best` is the first legal move.
    pub depth: u32,
    /// The principal variation, starting with the best move.
    pub pv: Vec<Move>,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// A score in words: `+1.25`, or `win in 3` / `loss in 4` (plies).
pub fn describe_score(score: i32) -> String {
    if score > WON {
        format!("win in {} plies", MATE - score)
    } else if score < -WON {
        format!("loss in {} plies", MATE + score)
    } else {
        format!("{:+.2}", score as f64 / 100.0)
    }
}

/// A searcher for one variant. Keeps its table between searches of one game.
pub struct Searcher {
    rules: Arc<Rules>,
    eval: Evaluator,
    table: Table,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    /// Per ply: the quiet moves searched so far at the node there, which lose credit
    /// in the history when a later one cuts off.
    tried: Vec<Vec<Move>>,
    buffers: Vec<Vec<Move>>,
    ranks: Vec<Vec<i32>>,
    /// Per ply: the best line found below the node searched there.
    lines: Vec<Vec<Move>>,
    /// How much shallower a late quiet move is searched, by depth and move number:
    /// growing with the logarithms of both.
    reductions: Vec<[i32; 64]>,
    /// Keys of the game's earlier positions, then of the positions on the search path.
    path: Vec<u64>,
    /// How often each key occurs among the game's earlier positions, the first
    /// `earlier` entries of `path`: repetition counts without scanning the game.
    earlier_counts: HashMap<u64, u32>,
    /// Whether some end rule is about repetition.
    repetitions: bool,
    /// Replies found to bring back a position of the game (a buffer).
    repeats: Vec<Move>,
    earlier: usize,
    /// Beside `path`: whether the side to move was in check there. Kept only when a
    /// perpetual-check rule needs it.
    checks: Vec<bool>,
    perpetual: bool,
    /// Whether every repetition the rules judge is a plain draw: then a position met
    /// again inside the search counts as drawn at once, as the cycle can be repeated.
    cycles_draw: bool,
    nodes: u64,
    stop: bool,
    /// Set from another thread to end the search (a protocol's `stop`).
    stop_flag: Option<Arc<AtomicBool>>,
    deadline: Option<Instant>,
    node_limit: u64,
    root_best: Option<Move>,
    /// The root move that last rose above alpha in the iteration under way.
    root_proven: Option<Move>,
    /// The last finished iteration's move, searched first at the root.
    root_hint: Option<Move>,
    /// The iteration under way (its depth).
    iteration: u32,
    /// The side the search is for, and what a draw costs it.
    root_side: PlayerId,
    contempt: i32,
    /// Worths already computed, by position key (slot `key & EVALS_MASK`): a node met
    /// again (a search done again in a wider window or deeper, a transposition)
    /// is not evaluated twice.
    evals: Vec<(u64, i32)>,
    /// The pieces' shares of mobility, kept between evaluations.
    reaches: super::reaches::Reaches,
    /// Whether a player left without a move loses, and no piece is royal.
    stuck_loses: bool,
    /// Whether every move captures: a capture is then the game's ordinary move, ranked,
    /// remembered and searched shallower as quiet moves are elsewhere.
    captures_only: bool,
    /// Where being checkmated wins: the horizon weighs the mates the side to move could
    /// slip into (see [`Searcher::slip_risk`]).
    slips: bool,
    /// Whether the capture search may generate only the captures: nothing else it
    /// looks at needs the quiet moves (see `search`).
    captures_alone: bool,
    /// Whether the evaluation is a measure of material and position that a search
    /// may trust to leave moves and nodes out near the horizon.
    prunes: bool,
    /// Every kind, least valuable first, for static exchanges; empty where the search
    /// does not prune (captures there are not judged by the material they win).
    cheapest_first: Vec<PieceId>,
}

/// What a reply that checkmates costs the player who may play it, where being mated
/// wins, and what a reply that checks costs, divided by the answers it leaves; the sum
/// is taken as a share of all the replies.
const MATE_SLIP: i32 = 10000;
const CHECK_SLIP: i32 = 1500;

/// The root's first window: this far either side of the last iteration's score, from
/// this iteration on.
const ASPIRATION: i32 = 30;
const ASPIRE_FROM: u32 = 4;
/// Null-move pruning from this depth on; the reply is searched this much shallower
/// (and a quarter of the depth more).
const NULL_FROM: i32 = 3;
const NULL_REDUCTION: i32 = 3;
/// The null move's reply is searched a ply shallower still for each this much the
/// worth stands above beta (two at most).
const NULL_MARGIN: i32 = 200;
/// Up to this depth, quiet moves are left out where the worth is this much per ply
/// below alpha, or once more than `LATE_MOVES` and twice the depth squared have been
/// looked at.
const FUTILE_FROM: i32 = 3;
const FUTILITY: i32 = 120;
const LATE_MOVES: usize = 3;
/// What a move may lose in the exchange on its cell, a ply from the horizon, and still
/// be searched: the weakest piece's worth (half of it per ply squared for quiet moves).
const EXCHANGE_LOSS: i32 = 100;
/// Late quiet moves are searched shallower from this depth and this move on.
const REDUCE_FROM_DEPTH: i32 = 3;
const REDUCE_FROM_MOVE: usize = 3;
/// A quiet move's history credit lies within this bound; a cut-off earns at most
/// `HISTORY_BONUS`, and each `HISTORY_PER_PLY` of credit spares (or costs) a ply of
/// reduction.
const HISTORY_MAX: i32 = 16384;
const HISTORY_BONUS: i32 = 1600;
const HISTORY_PER_PLY: i32 = 6000;
/// Nodes the table has no move for are searched a ply shallower from this depth.
const IIR_FROM: i32 = 4;
/// Up to this depth, a node whose worth is `FUTILITY` per ply above beta is cut.
const REVERSE_FUTILE_FROM: i32 = 6;

/// What a draw costs the side searching: it plays on when a move about this much worse
/// than a draw is available, so games end by the rules that decide them more often.
pub const CONTEMPT: i32 = 25;

impl Searcher {
    /// A searcher whose table holds `2^table_bits` entries.
    pub fn new(rules: Arc<Rules>, table_bits: u32) -> Searcher {
        let v = &rules.variant;
        // Whether only captures, and no quiet move, matter beyond the horizon.
        let ordinary = !rules.must_capture
            && !rules.ends.pass_ends
            && rules.ends.goals.is_empty()
            && !rules.mate_is_a_goal()
            && !rules.every_move_captures();
        // Where royal pieces stand, a player left without a move has nearly always been
        // mated: losing that way does not make the material a poor measure, and beyond
        // the horizon it is overlooked as stalemate is elsewhere.
        let royal = rules.royal != 0;
        let stuck_loses = rules.stuck_loses() && !royal;
        let plain = ordinary && !stuck_loses;
        let eval = Evaluator::new(&rules);
        let prunes = plain && !rules.material_is_a_burden();
        let mut cheapest_first: Vec<PieceId> = match prunes {
            true => (0..v.pieces.len() as u8).map(PieceId).collect(),
            false => Vec::new(),
        };
        cheapest_first.sort_by_key(|k| eval.value(*k));
        Searcher {
            eval,
            table: Table::new(table_bits),
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; v.players.len() * v.pieces.len() * v.board.len()],
            tried: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            buffers: (0..=MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            ranks: (0..=MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            lines: (0..=MAX_PLY + 1)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            reductions: (0..64)
                .map(|d| {
                    std::array::from_fn(|i| {
                        let r = 0.5 + (d.max(1) as f64).ln() * ((i + 1) as f64).ln() / 2.25;
                        (r as i32).max(1)
                    })
                })
                .collect(),
            path: Vec::with_capacity(1024),
            earlier_counts: HashMap::new(),
            repetitions: v.end_rules.iter().any(|r| {
                r.condition
                    .mentions(&|e| matches!(e, Event::Repetition(..)))
            }),
            repeats: Vec::new(),
            earlier: 0,
            checks: Vec::with_capacity(1024),
            perpetual: v.end_rules.iter().any(|r| {
                r.condition
                    .mentions(&|e| matches!(e, Event::Repetition(_, true)))
            }),
            cycles_draw: v.end_rules.iter().all(|r| {
                r.condition.every(&|e| !matches!(e, Event::Repetition(..)))
                    || matches!(r.event(), Some(Event::Repetition(_, false)))
                        && matches!(r.outcome, Outcome::Draw)
            }),
            nodes: 0,
            stop: false,
            stop_flag: None,
            deadline: None,
            node_limit: u64::MAX,
            root_best: None,
            root_proven: None,
            root_hint: None,
            iteration: 0,
            root_side: PlayerId(0),
            contempt: CONTEMPT,
            evals: vec![(0, 0); EVALS_MASK + 1],
            reaches: Default::default(),
            stuck_loses,
            captures_only: rules.every_move_captures(),
            slips: rules.mate_is_a_goal(),
            captures_alone: plain,
            prunes,
            cheapest_first,
            rules,
        }
    }

    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }
    pub fn evaluator(&self) -> &Evaluator {
        &self.eval
    }

    /// Sets what a draw costs the searching side (0: a draw is worth exactly even).
    pub fn set_contempt(&mut self, contempt: i32) {
        self.contempt = contempt;
        self.table.clear();
    }

    /// Forgets what earlier searches learnt, so the next one depends on nothing else.
    pub fn clear(&mut self) {
        self.table.clear();
        self.history.fill(0);
        self.killers.fill([None; 2]);
        self.evals.fill((0, 0));
        self.reaches.clear();
    }

    /// A flag another thread may set to end the search under way; it ends as a
    /// reached limit does, with the best move found so far.
    pub fn set_stop(&mut self, flag: Arc<AtomicBool>) {
        self.stop_flag = Some(flag);
    }

    /// Searches `pos`, whose earlier positions in the game had the keys `history`
    /// (oldest first; they count for repetition).
    pub fn think(&mut self, pos: &Position, history: &[u64], limits: &Limits) -> Thought {
        self.think_checked(pos, history, &[], limits)
    }

    /// [`Searcher::think`], also told whether the side to move was in check in each
    /// earlier position (`checks`, beside `history`), so that a perpetual-check rule
    /// can see cycles that began before the search.
    pub fn think_checked(
        &mut self,
        pos: &Position,
        history: &[u64],
        checks: &[bool],
        limits: &Limits,
    ) -> Thought {
        self.think_reporting(pos, history, checks, limits, &mut |_| {})
    }

    /// [`Searcher::think_checked`], telling `report` what each finished iteration found.
    pub fn think_reporting(
        &mut self,
        pos: &Position,
        history: &[u64],
        checks: &[bool],
        limits: &Limits,
        report: &mut dyn FnMut(&Thought),
    ) -> Thought {
        let started = Instant::now();
        self.path.clear();
        self.path.extend_from_slice(history);
        self.earlier = history.len();
        self.earlier_counts.clear();
        for k in history {
            *self.earlier_counts.entry(*k).or_default() += 1;
        }
        self.checks.clear();
        self.checks
            .extend((0..history.len()).map(|i| checks.get(i).copied().unwrap_or(false)));
        self.nodes = 0;
        self.stop = false;
        // A time too long to add to the clock is no limit.
        self.deadline = limits.time.and_then(|t| started.checked_add(t));
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        if self.root_side != pos.to_move() {
            // Draw scores in the table were for the other side.
            self.table.clear();
            self.root_side = pos.to_move();
        }
        let mut pos = pos.clone();
        let mut found = Thought {
            best: None,
            score: 0,
            depth: 0,
            pv: vec![],
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        for depth in 1..=limits.depth.clamp(1, MAX_PLY as u32 / 2) {
            self.root_best = None;
            self.root_proven = None;
            self.root_hint = found.best;
            self.iteration = depth;
            let score = self.aspire(&mut pos, depth, found.score);
            if self.stop && depth > 1 {
                // The last iteration's move was searched first; a move searched in
                // full after it replaced it only by rising above alpha (below it, a
                // score is only a bound).
                if let Some(m) = self.root_proven
                    && Some(m) != found.best
                {
                    found.best = Some(m);
                    found.pv = self.principal_variation(&pos, depth as usize - 1);
                }
                break;
            }
            found.best = self.root_best;
            found.score = score;
            found.depth = depth;
            found.pv = match self.lines[0].first() {
                Some(m) if Some(*m) == found.best => self.lines[0].clone(),
                _ => self.principal_variation(&pos, depth as usize),
            };
            found.nodes = self.nodes;
            found.elapsed = started.elapsed();
            report(&found);
            if self.stop || found.best.is_none() || score.abs() > WON {
                break;
            }
            // With a time alone the next iteration runs until it is up: cut short, it
            // still plays a move it searched in full and found better. With a time to
            // aim for, the next iteration takes longer than every one before it together.
            if limits.soft.is_some_and(|s| started.elapsed() * 2 >= s) {
                break;
            }
        }
        if found.best.is_none() {
            // Only a node limit cuts the first iteration short before a move is
            // searched, or the root already ended: any legal move is better than none.
            let mut moves = vec![];
            pos.legal_moves(&self.rules, &mut moves);
            if let Some(m) = moves.first() {
                found.best = Some(*m);
                found.pv = vec![*m];
                found.depth = 0;
            }
        }
        found.nodes = self.nodes;
        found.elapsed = started.elapsed();
        found
    }

    /// The root searched in a window around the last iteration's score, widened
    /// until the score falls inside it.
    fn aspire(&mut self, pos: &mut Position, depth: u32, last: i32) -> i32 {
        if depth < ASPIRE_FROM || last.abs() > WON {
            return self.node(pos, depth as i32, -INF, INF, 0, None);
        }
        let mut width = ASPIRATION;
        loop {
            let (alpha, beta) = (last - width, last + width);
            let score = self.node(pos, depth as i32, alpha, beta, 0, None);
            if self.stop || (score > alpha && score < beta) {
                return score;
            }
            width *= 4;
            if width > 4 * ASPIRATION * ASPIRATION {
                return self.node(pos, depth as i32, -INF, INF, 0, None);
            }
        }
    }

    fn principal_variation(&self, pos: &Position, depth: usize) -> Vec<Move> {
        let mut pos = pos.clone();
        let mut pv: Vec<Move> = vec![];
        let mut seen = vec![];
        let mut moves = vec![];
        while pv.len() < depth {
            let key = pos.key();
            if seen.contains(&key) {
                break;
            }
            seen.push(key);
            let m = match (pv.is_empty(), self.root_best) {
                (true, Some(m)) => m,
                _ => match self.table.probe(key).and_then(|e| e.best) {
                    Some(m) => m,
                    None => break,
                },
            };
            pos.legal_moves(&self.rules, &mut moves);
            if !moves.contains(&m) {
                break;
            }
            pos.make(&self.rules, &m);
            pv.push(m);
            if ends_by_capture(&self.rules, &m) {
                break;
            }
        }
        pv
    }

    /// The position's worth to the side to move, from the cache when it is there.
    fn evaluate(&mut self, rules: &Rules, pos: &Position, key: u64) -> i32 {
        let slot = &mut self.evals[key as usize & EVALS_MASK];
        if slot.0 == key && key != 0 {
            return slot.1;
        }
        let worth = self.eval.evaluate_reusing(rules, pos, &mut self.reaches);
        self.evals[key as usize & EVALS_MASK] = (key, worth);
        worth
    }

    /// Stops the search when a limit is reached; the clock never stops the first
    /// iteration before a move has been searched in full, so a move is always found.
    fn poll(&mut self) {
        let clock = self.iteration > 1 || self.root_best.is_some();
        let told = || {
            self.stop_flag
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
        };
        if self.nodes >= self.node_limit
            || (clock && (self.deadline.is_some_and(|d| Instant::now() >= d) || told()))
        {
            self.stop = true;
        }
    }

    /// The one player who checked on every move since this position stood `n` times ago.
    fn perpetual_checker(&self, pos: &Position, key: u64, n: u32) -> Option<PlayerId> {
        if !self.perpetual {
            return None;
        }
        let mut seen = (0..self.path.len())
            .filter(|i| self.path[*i] == key)
            .collect::<Vec<_>>();
        seen.push(self.path.len());
        let first = *seen.get(seen.len().checked_sub(n as usize)?)?;
        let mut checked = self.checks[first..].to_vec();
        checked.push(pos.in_check(&self.rules));
        let players = self.rules.variant.players.len() as u8;
        perpetual_checker(&checked, 0, pos.to_move(), players)
    }

    /// How often the position with this key has occurred on the path, this time included.
    fn occurrences(&self, key: u64) -> u32 {
        let before = self.earlier_counts.get(&key).copied().unwrap_or(0);
        let searched = self.path[self.earlier..]
            .iter()
            .filter(|k| **k == key)
            .count();
        1 + before + searched as u32
    }

    /// A draw's score for the side to move.
    fn draw(&self, pos: &Position) -> i32 {
        if pos.to_move() == self.root_side {
            -self.contempt
        } else {
            self.contempt
        }
    }

    fn ended(&self, verdict: Verdict, ply: usize, pos: &Position) -> i32 {
        let outcome = verdict.outcome;
        // The side to move is the one that did not make the last move.
        let Some((who, got, of)) = outcome.scored(pos.last_mover(), verdict.named) else {
            return self.draw(pos);
        };
        // The share of the side to move (of two players).
        let got = if who == pos.to_move() { got } else { of - got };
        match got {
            _ if got == of => MATE - ply as i32,
            0 => -(MATE - ply as i32),
            _ if 2 * got == of => self.draw(pos),
            // A share between a draw and a win: better than any material, short of a
            // win found by the search.
            _ => (WON - 1 - ply as i32) * (2 * got as i32 - of as i32) / of as i32,
        }
    }

    /// Negamax below one position; `depth <= 0` is the quiescence search. Where being
    /// checkmated wins, a side below the root that could give mate by mistake stands
    /// worse by its chance of a slip (the horizon counts it in its own standing pat).
    fn node(
        &mut self,
        pos: &mut Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        last: Option<&Move>,
    ) -> i32 {
        if !self.slips || depth <= 0 || ply == 0 || ply >= MAX_PLY - 1 {
            return self.search(pos, depth, alpha, beta, ply, last);
        }
        let rules = Arc::clone(&self.rules);
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        pos.legal_moves(&rules, &mut moves);
        let risk = self.slip_risk(&rules, pos, &moves, ply);
        self.buffers[ply] = moves;
        let score = self.search(pos, depth, alpha + risk, beta + risk, ply, last);
        if score.abs() >= WON - MAX_PLY as i32 {
            score
        } else {
            score - risk
        }
    }

    fn search(
        &mut self,
        pos: &mut Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        last: Option<&Move>,
    ) -> i32 {
        self.nodes += 1;
        self.lines[ply].clear();
        if self.nodes & 255 == 0 && ply > 0 {
            self.poll();
        }
        if self.stop {
            return 0;
        }
        let rules = Arc::clone(&self.rules);
        let rules = &*rules;
        let key = pos.key();
        if depth > 0 {
            self.table.prefetch(key);
        }
        super::table::prefetch(&self.evals[key as usize & EVALS_MASK]);
        let occurrences = self.occurrences(key);
        if ply > 0 && occurrences > 1 && self.cycles_draw {
            return self.draw(pos);
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        let mut generated = false;
        let lists = self.listing(rules, pos, depth, ply);
        let mut stuck = None;
        let mut generate = |moves: &mut Vec<Move>| lists.generate(rules, pos, moves, &mut stuck);
        let verdict = pos.verdict(
            rules,
            last,
            occurrences,
            || {
                generated = true;
                generate(&mut moves)
            },
            |n| self.perpetual_checker(pos, key, n),
        );
        if let Some(v) = verdict {
            self.buffers[ply] = moves;
            return self.ended(v, ply, pos);
        }
        if !generated {
            generate(&mut moves);
        }
        if stuck == Some(false) && moves.is_empty() {
            // No capture to follow: the position stands as it is.
            self.buffers[ply] = moves;
            return self.evaluate(rules, pos, key);
        }
        if moves.is_empty() {
            // Stuck, and no rule says who won: nobody did.
            self.buffers[ply] = moves;
            return self.draw(pos);
        }
        let quiet = depth <= 0;
        let mut best = -INF;
        let mut hint = None;
        if ply >= MAX_PLY - 1 {
            self.buffers[ply] = moves;
            return self.evaluate(rules, pos, key);
        }
        // At the horizon a side whose deciding piece is attacked may not stand pat;
        // deeper in the captures it may, which keeps the search finite.
        // Captures that cannot raise the score to alpha even with the captured piece
        // are not followed (delta pruning), and none beyond the quiescence limit.
        let mut standing = None;
        // Where captures are compulsory and one is open, every move captures: there is
        // no standing pat; nor for a side about to be left without a move, if that loses.
        let forced = (rules.must_capture && moves.iter().all(|m| m.captured.is_some()))
            || (self.stuck_loses && moves.len() <= FEW_MOVES);
        if quiet && forced && depth <= -QUIESCENCE_PLIES {
            self.buffers[ply] = moves;
            return self.evaluate(rules, pos, key);
        }
        if quiet && !forced && (depth < 0 || !self.eval.in_danger(rules, pos)) {
            let mut stand = self.evaluate(rules, pos, key);
            if self.slips && depth == 0 {
                stand -= self.slip_risk(rules, pos, &moves, ply);
            }
            // Where every move captures, a capture is the game's ordinary move, not a
            // sudden change to look past: the horizon stands where it is, unless so few
            // moves are left that running out of them is near.
            let ordinary = self.captures_only && depth < 0 && moves.len() > FEW_MOVES * 4;
            if stand >= beta || depth <= -QUIESCENCE_PLIES || ordinary {
                self.buffers[ply] = moves;
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            standing = Some(stand);
            self.keep_tactical(pos, &mut moves, stand, alpha, depth, ply, last);
        } else if quiet {
            // Every move is searched, as if in check.
        } else if let Some(e) = self.table.probe(key) {
            hint = e.best;
            // A position the game or the path has met already scores by the moves that
            // led to it (a repetition may end the game): it is searched, not looked up.
            if ply > 0
                && occurrences == 1
                && let Some(score) = cut_by_entry(e, depth, alpha, beta, ply)
            {
                self.buffers[ply] = moves;
                return score;
            }
        }
        // Whether the side to move must answer a threat to a deciding piece (check).
        let threatened = !quiet && self.eval.in_danger(rules, pos);
        // A node the table knows no move for is searched a ply shallower: its first
        // move is a guess, and the next iteration comes back with one.
        let depth = match !quiet && hint.is_none() && depth >= IIR_FROM {
            true => depth - 1,
            false => depth,
        };
        let scout = beta - alpha == 1;
        // Off the principal variation and out of danger, the position's own worth
        // decides what is not worth searching.
        let standing_worth = (!quiet && scout && !threatened && ply > 0 && beta.abs() < WON)
            .then(|| self.evaluate(rules, pos, key));
        let prunes = self.prunes && standing_worth.is_some();
        if let Some(worth) = standing_worth.filter(|_| prunes && depth <= REVERSE_FUTILE_FROM)
            && worth - FUTILITY * depth >= beta
        {
            // So far above beta that no reply at this depth is likely to bring it down.
            self.buffers[ply] = moves;
            return worth;
        }
        if let Some(worth) = standing_worth.filter(|w| *w >= beta)
            && last.is_some()
            && depth >= NULL_FROM
            && self.eval.may_pass(rules, pos)
            && let Some(score) = self.null_move(pos, depth, beta, worth, ply)
        {
            self.buffers[ply] = moves;
            return score;
        }
        // At the root the last iteration's move comes first: the table's entry for the
        // root may have been replaced where the search met the position again.
        let hint = match ply {
            0 => self.root_hint.or(hint),
            _ => hint,
        };
        let mut ranks = std::mem::take(&mut self.ranks[ply]);
        self.rank(&moves, &mut ranks, hint, ply, pos);
        let alpha0 = alpha;
        let mut best_move = None;
        self.path.push(key);
        self.checks.push(self.perpetual && pos.in_check(rules));
        // Near the horizon, quiet moves that cannot bring the score up to alpha, and
        // late quiet moves, are not searched.
        let futile = prunes
            && depth <= FUTILE_FROM
            && standing_worth.is_some_and(|w| w + FUTILITY * (depth + 1) <= alpha);
        let late_quiet = match prunes && depth <= FUTILE_FROM {
            true => LATE_MOVES + (depth * depth) as usize * 2,
            false => usize::MAX,
        };
        let mut quiet_moves = 0;
        let mut tried = std::mem::take(&mut self.tried[ply]);
        tried.clear();
        for i in 0..moves.len() {
            pick(&mut moves, &mut ranks, i);
            let m = moves[i];
            // A quiet move that the futility or late-move test will leave out (unless
            // it threatens a deciding piece, when nothing here leaves it out) needs no
            // exchange.
            let late = i > 0
                && m.captured.is_none()
                && m.promotion.is_none()
                && (futile || quiet_moves + 1 > late_quiet)
                && best > -WON;
            let hangs = prunes
                && depth <= FUTILE_FROM
                && i > 0
                && !late
                && best > -WON
                && m.promotion.is_none()
                && (m.captured.is_none() || ranks[i] < 0)
                && pos.exchange(rules, &m, &self.eval.values, &self.cheapest_first)
                    < -match m.captured {
                        Some(_) => EXCHANGE_LOSS * depth,
                        None => EXCHANGE_LOSS * depth * depth / 2,
                    };
            if standing.is_some() && ranks[i] < 0 && m.captured.is_some() {
                // Loses material in the exchange that follows (ranked so by `rank`).
                continue;
            }
            let undo = pos.make(rules, &m);
            if standing.is_some() && !self.prunes && self.losing_capture(rules, pos, &m) {
                pos.unmake(rules, &m, undo);
                continue;
            }
            // A move that threatens a deciding piece (a check) is searched a ply deeper.
            let gives_danger = !quiet && self.eval.in_danger(rules, pos);
            let checks = gives_danger && ply < 2 * self.iteration as usize;
            if i > 0 && m.captured.is_none() && m.promotion.is_none() && !gives_danger {
                quiet_moves += 1;
                if (futile || quiet_moves > late_quiet) && best > -WON {
                    pos.unmake(rules, &m, undo);
                    continue;
                }
            }
            if hangs && !gives_danger {
                // Near the horizon, a move that loses material in the exchange on its
                // cell (more, the further from the horizon) is not searched.
                pos.unmake(rules, &m, undo);
                continue;
            }
            let next = depth - 1 + checks as i32;
            let score = if i == 0 || quiet {
                -self.node(pos, next, -beta, -alpha, ply + 1, Some(&m))
            } else {
                let late = i >= REDUCE_FROM_MOVE
                    && depth >= REDUCE_FROM_DEPTH
                    && !threatened
                    && !checks
                    && (m.captured.is_none() || self.captures_only || ranks[i] < 0)
                    && m.promotion.is_none()
                    && ranks[i] < KILLER - 1;
                let r = match late {
                    true => self.reduction(pos, &m, depth, i, scout),
                    false => 0,
                };
                let mut s = -self.node(pos, next - r, -alpha - 1, -alpha, ply + 1, Some(&m));
                if r > 0 && s > alpha {
                    s = -self.node(pos, next, -alpha - 1, -alpha, ply + 1, Some(&m));
                }
                if s > alpha && s < beta {
                    -self.node(pos, next, -beta, -alpha, ply + 1, Some(&m))
                } else {
                    s
                }
            };
            pos.unmake(&self.rules, &m, undo);
            if self.stop {
                break;
            }
            let plain = (m.captured.is_none() || self.captures_only) && !quiet;
            if score > best {
                best = score;
                best_move = Some(m);
                // A root move replaces the first only by proving itself better: below
                // alpha a score is only a bound (an aspiration window that failed low).
                if ply == 0 && (score > alpha || self.root_best.is_none()) {
                    self.root_best = Some(m);
                    if score > alpha {
                        self.root_proven = Some(m);
                    }
                }
                if score > alpha {
                    alpha = score;
                    let (line, below) = self.lines.split_at_mut(ply + 1);
                    line[ply].clear();
                    line[ply].push(m);
                    line[ply].extend_from_slice(&below[0]);
                    if alpha >= beta {
                        if plain {
                            self.remember(&m, ply, depth, pos, &tried);
                        }
                        break;
                    }
                }
            }
            if plain {
                tried.push(m);
            }
        }
        self.tried[ply] = tried;
        self.path.pop();
        self.checks.pop();
        self.buffers[ply] = moves;
        self.ranks[ply] = ranks;
        if !quiet && !self.stop && occurrences == 1 {
            self.remember_score(key, best_move, best, (alpha0, beta), depth, ply);
        }
        best
    }

    /// Which moves a node lists.
    #[inline]
    fn listing(&self, rules: &Rules, pos: &Position, depth: i32, ply: usize) -> Listing {
        let horizon = || ply > 1 && (depth < 0 || depth == 0 && !self.eval.in_danger(rules, pos));
        if rules.walls
            && !rules.must_capture
            && !rules.ends.pass_ends
            && rules.ends.goals.is_empty()
            && horizon()
        {
            Listing::Captures
        } else if !rules.walls && self.captures_alone && horizon() {
            Listing::CapturesFirst
        } else {
            Listing::All
        }
    }

    /// Beyond the horizon, standing pat at `stand`: keeps the captures that may raise
    /// the score to alpha, the recaptures on the last move's cell deep in the captures,
    /// quiet moves that may end the game, and right after a root move the replies that
    /// bring back a position of the game.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn keep_tactical(
        &mut self,
        pos: &mut Position,
        moves: &mut Vec<Move>,
        stand: i32,
        alpha: i32,
        depth: i32,
        ply: usize,
        last: Option<&Move>,
    ) {
        let rules = &*Arc::clone(&self.rules);
        let eval = &self.eval;
        let square = (depth <= -RECAPTURES_FROM)
            .then(|| last.map(|l| l.to))
            .flatten();
        let quiet_ends = square.is_none() && (rules.ends.pass_ends || !rules.ends.goals.is_empty());
        // Right after a root move, a reply that brings back a position of the game
        // is followed too: a repetition the other side can make at once is never
        // beyond the horizon.
        let mut back = std::mem::take(&mut self.repeats);
        back.clear();
        if ply == 1 && self.repetitions && !self.earlier_counts.is_empty() {
            for m in moves.iter().filter(|m| m.captured.is_none()) {
                let undo = pos.make(rules, m);
                if self.earlier_counts.contains_key(&pos.key()) {
                    back.push(*m);
                }
                pos.unmake(rules, m, undo);
            }
        }
        let at = &*pos;
        moves.retain(|m| {
            if m.captured.is_none() {
                return (quiet_ends && at.may_end_quietly(rules, m)) || back.contains(m);
            }
            square.is_none_or(|c| m.capture_cell() == Some(c))
                && m.captured.is_some_and(|(_, k)| {
                    let promoted = m
                        .promotion
                        .map_or(0, |p| eval.value(p) - eval.value(m.piece));
                    stand + eval.value(k) + promoted + DELTA_MARGIN > alpha
                        || ends_by_capture(rules, m)
                })
        });
        self.repeats = back;
    }

    /// How many plies less the `i`-th move, late and quiet, is searched: less on the
    /// principal variation, where the window is open, and for a quiet move with a good
    /// history; more for one with a bad.
    #[inline]
    fn reduction(&self, pos: &Position, m: &Move, depth: i32, i: usize, scout: bool) -> i32 {
        let credit = match m.captured.is_none() && !self.captures_only {
            true => self.history[self.history_index(pos, m)] / HISTORY_PER_PLY,
            false => 0,
        };
        (self.reductions[depth.min(63) as usize][i.min(63)] - !scout as i32 - credit)
            .clamp(0, depth - 2)
    }

    /// Null move: if passing still holds beta, a real move would too. The score that
    /// ends the node, if the pass proves it (0 when the search stopped).
    #[inline]
    fn null_move(
        &mut self,
        pos: &mut Position,
        depth: i32,
        beta: i32,
        worth: i32,
        ply: usize,
    ) -> Option<i32> {
        let rules = Arc::clone(&self.rules);
        let key = pos.key();
        let undo = pos.make_pass(&rules);
        self.path.push(key);
        self.checks.push(false);
        let r = NULL_REDUCTION + depth / 4 + ((worth - beta) / NULL_MARGIN).min(2);
        let score = -self.node(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, None);
        self.path.pop();
        self.checks.pop();
        pos.unmake_pass(&rules, undo);
        if self.stop {
            return Some(0);
        }
        (score >= beta).then_some(beta)
    }

    /// Stores a searched node's score, with the bound the window `(alpha, beta)` it
    /// was searched in makes of it.
    #[inline]
    fn remember_score(
        &mut self,
        key: u64,
        best_move: Option<Move>,
        best: i32,
        (alpha, beta): (i32, i32),
        depth: i32,
        ply: usize,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(Entry {
            key,
            best: best_move,
            score: to_table(best, ply),
            depth: depth as i16,
            bound,
        });
    }

    /// Where being checkmated wins, the side to move's legal `moves` that would mate
    /// the other side lose for it, and checks lead there: a player, not always perfect,
    /// who has such moves at hand stands worse than one who has none.
    fn slip_risk(&mut self, rules: &Rules, pos: &mut Position, moves: &[Move], ply: usize) -> i32 {
        let mut replies = std::mem::take(&mut self.buffers[ply + 1]);
        let mut risk = 0;
        for m in moves {
            let undo = pos.make(rules, m);
            if pos.in_check(rules) {
                replies.clear();
                pos.legal_moves(rules, &mut replies);
                // A check that leaves few answers is nearly a mate.
                risk += match replies.len() {
                    0 => MATE_SLIP,
                    n => CHECK_SLIP / n as i32,
                };
            }
            pos.unmake(rules, m, undo);
        }
        self.buffers[ply + 1] = replies;
        risk / moves.len().max(1) as i32
    }

    /// Beyond the horizon, whether the capture just made (`m`, now in `pos`) gives up
    /// more than it takes: a piece worth more than its victim, now standing where the
    /// other side can take it. A capture that decides the game is never losing.
    fn losing_capture(&self, rules: &Rules, pos: &Position, m: &Move) -> bool {
        let Some((_, victim)) = m.captured else {
            return false;
        };
        let mover = m.promotion.unwrap_or(m.piece);
        self.eval.value(mover) > self.eval.value(victim)
            && !ends_by_capture(rules, m)
            && pos.attackers(rules, m.to, u64::MAX) > 0
    }

    /// Where the search prunes, whether the capture `m` gives up more than it takes
    /// once the other side has taken back: only a piece worth more than its victim can.
    fn loses_exchange(&self, pos: &Position, m: &Move) -> bool {
        let Some((_, victim)) = m.captured else {
            return false;
        };
        !self.cheapest_first.is_empty()
            && self.eval.value(m.piece) > self.eval.value(victim)
            && pos.exchange(&self.rules, m, &self.eval.values, &self.cheapest_first) < 0
    }

    fn history_index(&self, pos: &Position, m: &Move) -> usize {
        let v = &self.rules.variant;
        (pos.to_move().0 as usize * v.pieces.len() + m.piece.0 as usize) * v.board.len()
            + m.to.index()
    }

    /// A quiet move that cut off: a killer at this ply, credit in the history, and
    /// as much taken from the quiet moves `tried` before it. Each change moves a
    /// credit part of the way towards its bound, so it stays within `HISTORY_MAX`.
    fn remember(&mut self, m: &Move, ply: usize, depth: i32, pos: &Position, tried: &[Move]) {
        let k = &mut self.killers[ply];
        if k[0] != Some(*m) {
            k[1] = k[0];
            k[0] = Some(*m);
        }
        let bonus = (16 * depth * depth).min(HISTORY_BONUS);
        let i = self.history_index(pos, m);
        self.history[i] += bonus - self.history[i] * bonus / HISTORY_MAX;
        for t in tried {
            let i = self.history_index(pos, t);
            self.history[i] -= bonus + self.history[i] * bonus / HISTORY_MAX;
        }
    }

    /// Ranks moves: the table's move, game-ending captures, other captures by most
    /// valuable victim then least valuable attacker (unless every move captures),
    /// killers, then history.
    fn rank(
        &self,
        moves: &[Move],
        ranks: &mut Vec<i32>,
        hint: Option<Move>,
        ply: usize,
        pos: &Position,
    ) {
        ranks.clear();
        for m in moves {
            let r = if Some(*m) == hint {
                1 << 30
            } else if self.captures_only && ends_by_capture(&self.rules, m) {
                1 << 29
            } else if let Some((_, k)) = m.captured.filter(|_| !self.captures_only) {
                if ends_by_capture(&self.rules, m) {
                    1 << 29
                } else if self.loses_exchange(pos, m) {
                    LOSING_CAPTURE + self.eval.value(k).min(1 << 14)
                } else {
                    (1 << 25) + self.eval.value(k).min(1 << 14) * 256
                        - self.eval.value(m.piece).min(255)
                }
            } else if self.killers[ply][0] == Some(*m) {
                KILLER
            } else if self.killers[ply][1] == Some(*m) {
                KILLER - 1
            } else {
                self.history[self.history_index(pos, m)]
            };
            ranks.push(r);
        }
    }
}

/// The rank of the first killer move; history ranks stay below the second's.
const KILLER: i32 = 1 << 24;
/// Below every quiet move (history ranks stay above -`HISTORY_MAX`): captures that lose
/// material in the exchange, by victim.
const LOSING_CAPTURE: i32 = -(1 << 15);

/// Brings the best remaining move to `i`.
#[inline]
fn pick(moves: &mut [Move], ranks: &mut [i32], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if ranks[j] > ranks[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    ranks.swap(i, best);
}

/// Wins are stored as distances from the stored position, not from the root.
fn to_table(score: i32, ply: usize) -> i32 {
    if score > WON {
        score + ply as i32
    } else if score < -WON {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score > WON {
        score - ply as i32
    } else if score < -WON {
        score + ply as i32
    } else {
        score
    }
}

/// The score a table entry gives a node searched `depth` deep in the window, if its
/// depth and bound settle the node.
fn cut_by_entry(e: &Entry, depth: i32, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
    let score = from_table(e.score, ply);
    let cut = match e.bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    };
    (e.depth as i32 >= depth && cut).then_some(score)
}

/// Which moves a node lists.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Listing {
    All,
    /// Among the captures, where walls multiply moves, only the captures are listed
    /// (unless quiet moves may end the game or bring back a position of the game).
    Captures,
    /// Elsewhere beyond the horizon, and at it out of danger, only the captures are
    /// generated: a side not in check is taken to have a quiet move (stalemate is
    /// overlooked there), one in check is looked at in full.
    CapturesFirst,
}

impl Listing {
    /// Lists the moves into `moves`; says whether there are any, and sets `stuck` to
    /// whether the side has no legal move at all, where only captures were listed.
    #[inline]
    fn generate(
        self,
        rules: &Rules,
        pos: &Position,
        moves: &mut Vec<Move>,
        stuck: &mut Option<bool>,
    ) -> bool {
        match self {
            Listing::Captures => {
                let any = pos.legal_moves_where(rules, moves, |m| m.captured.is_some());
                *stuck = Some(!any);
                any
            }
            Listing::CapturesFirst => {
                pos.legal_captures(rules, moves);
                if moves.is_empty() && pos.in_check(rules) {
                    pos.legal_moves(rules, moves);
                    *stuck = Some(moves.is_empty());
                    return !moves.is_empty();
                }
                *stuck = Some(false);
                true
            }
            Listing::All => {
                pos.legal_moves(rules, moves);
                !moves.is_empty()
            }
        }
    }
}

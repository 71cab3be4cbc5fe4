//! The cell-set parts of the compiled tables, at the width chosen for the board.

use super::MoveEntry;
use super::slides::{Order, Shift, Slide, dest_slot};
use crate::geometry::{Cell, CellSet, MaskWord, Wide};
use crate::model::Dest;

/// Must-be-empty paths and attacker sets, as sets of type `S`.
#[derive(Clone, Debug)]
pub struct SetTables<S: CellSet> {
    pub(super) paths: Vec<S::Mask>,
    /// For each (player, piece, cell) run: the cells from which that piece could
    /// capture on the cell, on an empty board.
    pub(super) attack_from: Vec<S::Mask>,
    /// For each (player, piece, cell) run: the cells its moves look at, destinations
    /// and paths; nothing else changes what the moves are.
    pub(super) looks: Vec<S::Mask>,
    /// For each run: the cells its moves may end on when empty.
    pub(super) lands_empty: Vec<S::Mask>,
    /// The words of wide masks.
    pub(super) pool: Vec<MaskWord>,
    /// Per (player, piece): the cells it may be dropped on, when empty.
    pub(super) drop_cells: Vec<S>,
    /// Per (player, cell): the line through the cell along the player's forward.
    pub(super) files: Vec<S>,
    /// With an enclosure, per cell: the cells whose lines of enclosure start on it.
    pub(super) around: Vec<S>,
    /// Per run, on boards of up to 128 cells: where its slides start in `slides`
    /// (see [`SetTables::reach`]); empty on bigger boards.
    pub(super) slide_offsets: Vec<u32>,
    /// The lines and leaps of the plain runs.
    pub(super) slides: Vec<Slide<S::Mask>>,
    /// Per (player, kind): where its shifts start in `shifts` (see
    /// [`SetTables::shifts`]); empty on boards of over 128 cells.
    pub(super) shift_offsets: Vec<u32>,
    pub(super) shifts: Vec<Shift<S::Mask>>,
    /// Per (player, kind): the cells from which its plain moves are all shifts, and
    /// those of them whose runs have specials.
    pub(super) shift_starts: Vec<(S, S)>,
    /// Per player: the kinds that have shifts, a bit each.
    pub(super) shift_kinds: Vec<u64>,
    /// Every cell of the board.
    pub(super) all: S,
}

impl<S: CellSet> Default for SetTables<S> {
    fn default() -> Self {
        SetTables {
            paths: vec![],
            attack_from: vec![],
            looks: vec![],
            lands_empty: vec![],
            pool: vec![],
            drop_cells: vec![],
            files: vec![],
            around: vec![],
            slide_offsets: vec![],
            slides: vec![],
            shift_offsets: vec![],
            shifts: vec![],
            shift_starts: vec![],
            shift_kinds: vec![],
            all: S::EMPTY,
        }
    }
}

impl<S: CellSet> SetTables<S> {
    /// Whether some path of the entry is clear on the given occupancy: its cells
    /// empty, or for a move over pieces, its hurdles in place (see [`MoveEntry::hurdle`]).
    #[inline(always)]
    pub fn open(&self, e: &MoveEntry, occupied: &S) -> bool {
        if e.hurdle != 0 {
            return self.over(e, occupied, &S::EMPTY);
        }
        self.paths[e.first_path as usize..(e.first_path + e.path_count) as usize]
            .iter()
            .any(|m| occupied.misses(m, &self.pool))
    }

    /// For an entry listed before the entries it shades: how many of those to skip (a
    /// piece on its cell or path closes them all), and whether its own path is open,
    /// where that was tested.
    #[inline(always)]
    pub fn shade(&self, e: &MoveEntry, occupied: &S) -> (usize, Option<bool>) {
        if e.shadow == 0 {
            (0, None)
        } else if occupied.contains(e.to) {
            (e.shadow as usize, None)
        } else if self.open(e, occupied) {
            (0, Some(true))
        } else {
            (e.shadow as usize, Some(false))
        }
    }

    /// Whether a move over pieces can be made: on some path, the cells that must be
    /// empty are, and exactly the entry's count of its hurdle cells are occupied, none
    /// of them in `barred`.
    pub fn over(&self, e: &MoveEntry, occupied: &S, barred: &S) -> bool {
        let pairs = &self.paths[e.first_path as usize..(e.first_path + e.path_count) as usize];
        pairs.chunks_exact(2).any(|p| {
            if !occupied.misses(&p[0], &self.pool) {
                return false;
            }
            let jumped = S::unpack(&p[1], &self.pool).intersection(occupied);
            jumped.len() == e.hurdle as usize && !jumped.intersects(barred)
        })
    }

    /// For a move over pieces, the pieces each of its paths would jump on `occupied`:
    /// those on its hurdle cells, for every path whose cells to pass are empty.
    pub fn jumped<'a>(&'a self, e: &MoveEntry, occupied: &'a S) -> impl Iterator<Item = S> + 'a {
        let pairs = &self.paths[e.first_path as usize..(e.first_path + e.path_count) as usize];
        pairs
            .chunks_exact(2)
            .filter(|p| occupied.misses(&p[0], &self.pool))
            .map(|p| S::unpack(&p[1], &self.pool).intersection(occupied))
    }

    /// The alternative paths of an entry: for each, the cells that must be empty, or for
    /// a move over pieces, those and its hurdle cells together.
    #[inline]
    pub fn paths(&self, e: &MoveEntry) -> impl Iterator<Item = S> + '_ {
        let step = if e.hurdle != 0 { 2 } else { 1 };
        let list = &self.paths[e.first_path as usize..(e.first_path + e.path_count) as usize];
        list.chunks_exact(step).map(|p| {
            p.iter()
                .fold(S::EMPTY, |acc, m| acc.union(&S::unpack(m, &self.pool)))
        })
    }

    /// The cells an entry's condition on nearby cells looks at.
    #[inline]
    pub fn near(&self, e: &MoveEntry) -> S {
        S::unpack(&self.paths[e.first_path as usize - 1], &self.pool)
    }

    /// Whether one alternative path (as [`SetTables::paths`] numbers them) is open.
    pub fn path_open(&self, e: &MoveEntry, i: usize, occupied: &S) -> bool {
        let step = if e.hurdle != 0 { 2 } else { 1 };
        let at = e.first_path as usize + i * step;
        if e.hurdle == 0 {
            return occupied.misses(&self.paths[at], &self.pool);
        }
        let jumped = S::unpack(&self.paths[at + 1], &self.pool).intersection(occupied);
        occupied.misses(&self.paths[at], &self.pool) && jumped.len() == e.hurdle as usize
    }

    /// Roughly the bytes the tables take on the heap.
    pub fn heap_bytes(&self) -> usize {
        fn bytes<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        bytes(&self.paths)
            + bytes(&self.attack_from)
            + bytes(&self.looks)
            + bytes(&self.lands_empty)
            + bytes(&self.pool)
            + bytes(&self.drop_cells)
            + bytes(&self.files)
            + bytes(&self.around)
            + bytes(&self.slide_offsets)
            + bytes(&self.slides)
            + bytes(&self.shift_offsets)
            + bytes(&self.shifts)
            + bytes(&self.shift_starts)
            + bytes(&self.shift_kinds)
    }

    /// Every cell of the board.
    #[inline]
    pub fn all(&self) -> &S {
        &self.all
    }

    /// The cells `player`'s kind `piece` (of `pieces` kinds) may be dropped on.
    #[inline]
    pub fn drop_cells(&self, player: usize, piece: usize, pieces: usize) -> &S {
        &self.drop_cells[player * pieces + piece]
    }

    /// The line through `cell` along `player`'s forward (of a board of `cells` cells).
    #[inline]
    pub fn file(&self, player: usize, cell: Cell, cells: usize) -> &S {
        &self.files[player * cells + cell.index()]
    }

    /// The cells whose lines of enclosure start on `cell`: the only cells where a piece
    /// can enclose one standing on it.
    #[inline]
    pub fn around(&self, cell: Cell) -> &S {
        &self.around[cell.index()]
    }

    /// How many cells of `set` the run's piece could capture on the run's cell from,
    /// on an empty board (see [`super::Rules::run`]).
    #[inline]
    pub fn attackers_in(&self, run: usize, set: &S) -> usize {
        set.count_within(&self.attack_from[run], &self.pool)
    }

    /// The cells of `set` that the run's moves look at (their destinations and paths).
    #[inline]
    pub fn looked_at(&self, run: usize, set: &S) -> S {
        set.within(&self.looks[run], &self.pool)
    }

    /// Whether some move of the run could end on a cell of `empty`, or reach a cell of
    /// `enemy` (one it looks at): where neither, the piece has no move from its table.
    #[inline]
    pub fn may_land(&self, run: usize, empty: &S, enemy: &S) -> bool {
        !empty.misses(&self.lands_empty[run], &self.pool)
            || !enemy.misses(&self.looks[run], &self.pool)
    }

    /// The cells of `set` some move of the run may end on when they are empty.
    #[inline]
    pub fn landings_in(&self, run: usize, set: &S) -> S {
        set.within(&self.lands_empty[run], &self.pool)
    }

    /// For a plain run (see [`super::Rules::plain`]): the cells its moves reach on
    /// `occupied`, cells held by either side included, as three sets by the moves' kind
    /// of destination (in the slots of [`dest_slot`]).
    #[inline]
    pub fn reach(&self, run: usize, occupied: &S) -> [S; 3] {
        let mut reach = [S::EMPTY; 3];
        let Some(&[start, end]) = self.slide_offsets.get(run..run + 2) else {
            reach[0] = S::unpack(&self.lands_empty[run], &self.pool);
            return reach;
        };
        for s in &self.slides[start as usize..end as usize] {
            let cells = S::unpack(&s.cells, &self.pool);
            let cells = match s.order {
                Order::Leaps => cells,
                Order::Rising => cells.reach_along(occupied, false),
                Order::Falling => cells.reach_along(occupied, true),
            };
            let slot = &mut reach[dest_slot(s.dest)];
            *slot = slot.union(&cells);
        }
        reach
    }

    /// The kinds of `player` whose pieces may be moved as sets, a bit each (see
    /// [`SetTables::shifts`]).
    #[inline]
    pub fn shift_kinds(&self, player: usize) -> u64 {
        self.shift_kinds.get(player).copied().unwrap_or(0)
    }

    /// For `player`'s kind `piece` (of `pieces` kinds): the cells from which all its
    /// plain moves are leaps, those of them whose runs have specials left to walk
    /// (see `Rules::specials`), and the leaps as shifts. A piece moves by a shift when
    /// it stands on the shift's `from`, to the cell `by` cells on.
    #[inline]
    pub fn shifts(
        &self,
        player: usize,
        piece: usize,
        pieces: usize,
    ) -> (&(S, S), impl Iterator<Item = (S, i32, Dest)> + '_) {
        let k = player * pieces + piece;
        let span = self.shift_offsets[k] as usize..self.shift_offsets[k + 1] as usize;
        let list = self.shifts[span]
            .iter()
            .map(|s| (S::unpack(&s.from, &self.pool), s.by, s.dest));
        (&self.shift_starts[k], list)
    }

    /// Whether the run's moves look at some cell of `set`.
    #[inline]
    pub fn looks_among(&self, run: usize, set: &S) -> bool {
        !set.misses(&self.looks[run], &self.pool)
    }

    /// Whether some cell of `set` could capture on the run's cell (see [`super::Rules::run`]).
    #[inline]
    pub fn attackers_among(&self, run: usize, set: &S) -> bool {
        !set.misses(&self.attack_from[run], &self.pool)
    }
}

/// The cell-set tables at one of the widths; chosen by the board's size.
#[derive(Clone, Debug)]
pub enum Sets {
    /// Boards of up to 64 cells: one machine word.
    One(SetTables<u64>),
    /// Up to 128 cells: two words.
    Two(SetTables<u128>),
    /// Up to 512 cells: eight words.
    Wide8(SetTables<Wide<8>>),
    /// Up to 1,024 cells: sixteen words.
    Wide16(SetTables<Wide<16>>),
}

impl Sets {
    /// Roughly the bytes the tables take on the heap.
    pub fn heap_bytes(&self) -> usize {
        match self {
            Sets::One(t) => t.heap_bytes(),
            Sets::Two(t) => t.heap_bytes(),
            Sets::Wide8(t) => t.heap_bytes(),
            Sets::Wide16(t) => t.heap_bytes(),
        }
    }

    /// How many words a set needs on a board of `cells` cells.
    pub fn width_for(cells: usize) -> usize {
        cells.div_ceil(64).max(1)
    }
}

/// The one dispatch over board widths. `by_width!(words n, S => body)` runs `body` with
/// `S` the set type for `n` words (see [`Sets::width_for`]). `by_width!(value, E, p, S =>
/// body)` matches `value` of an enum `E` with one variant per width (`One`, `Two`,
/// `Wide8`, `Wide16`, as [`Sets`]), binding the payload to `p` (`S` may be left out);
/// with `E => F`, the result is wrapped in the same width's variant of `F`.
macro_rules! by_width {
    (words $n:expr, $S:ident => $body:expr) => {
        match $n {
            1 => $crate::compile::by_width!(@as u64, $S => $body),
            2 => $crate::compile::by_width!(@as u128, $S => $body),
            3..=8 => $crate::compile::by_width!(@as $crate::geometry::Wide<8>, $S => $body),
            _ => $crate::compile::by_width!(@as $crate::geometry::Wide<16>, $S => $body),
        }
    };
    ($value:expr, $from:ident => $to:ident, $p:pat $(, $S:ident)? => $body:expr) => {
        match $value {
            $from::One($p) => $to::One($crate::compile::by_width!(@as u64, $($S)? => $body)),
            $from::Two($p) => $to::Two($crate::compile::by_width!(@as u128, $($S)? => $body)),
            $from::Wide8($p) => $to::Wide8(
                $crate::compile::by_width!(@as $crate::geometry::Wide<8>, $($S)? => $body),
            ),
            $from::Wide16($p) => $to::Wide16(
                $crate::compile::by_width!(@as $crate::geometry::Wide<16>, $($S)? => $body),
            ),
        }
    };
    ($value:expr, $from:ident, $p:pat $(, $S:ident)? => $body:expr) => {
        match $value {
            $from::One($p) => $crate::compile::by_width!(@as u64, $($S)? => $body),
            $from::Two($p) => $crate::compile::by_width!(@as u128, $($S)? => $body),
            $from::Wide8($p) => {
                $crate::compile::by_width!(@as $crate::geometry::Wide<8>, $($S)? => $body)
            }
            $from::Wide16($p) => {
                $crate::compile::by_width!(@as $crate::geometry::Wide<16>, $($S)? => $body)
            }
        }
    };
    (@as $t:ty, $($S:ident)? => $body:expr) => {{
        $(
            #[allow(dead_code)]
            type $S = $t;
        )?
        $body
    }};
}

pub(crate) use by_width;

/// A set type the compiled tables come in.
pub trait Width: CellSet {
    fn wrap(t: SetTables<Self>) -> Sets;
    /// The tables of this width; panics on rules compiled for another width, which
    /// only happens when a position is used with another variant's rules.
    fn tables(s: &Sets) -> &SetTables<Self>;
    fn take(s: &mut Sets) -> SetTables<Self>;
}

macro_rules! width {
    ($t:ty, $v:ident) => {
        impl Width for $t {
            fn wrap(t: SetTables<Self>) -> Sets {
                Sets::$v(t)
            }
            #[inline]
            fn tables(s: &Sets) -> &SetTables<Self> {
                match s {
                    Sets::$v(t) => t,
                    _ => panic!("a position used with the rules of a board of another size"),
                }
            }
            fn take(s: &mut Sets) -> SetTables<Self> {
                match s {
                    Sets::$v(t) => std::mem::take(t),
                    _ => panic!("tables of another width"),
                }
            }
        }
    };
}

width!(u64, One);
width!(u128, Two);
width!(Wide<8>, Wide8);
width!(Wide<16>, Wide16);

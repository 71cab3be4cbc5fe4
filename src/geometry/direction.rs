//! Directions of a board's cells: vectors in lattice coordinates with a compass bearing.

/// Whether a direction crosses a cell side (orthogonal) or a cell corner (diagonal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Orthogonal,
    Diagonal,
}

/// Index into a board's direction table (at most 12 directions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Dir(pub u8);

/// A set of directions of one board, one bit per direction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DirSet(pub u16);

impl DirSet {
    pub const EMPTY: DirSet = DirSet(0);
    pub fn with(self, d: Dir) -> DirSet {
        DirSet(self.0 | 1 << d.0)
    }
    pub fn contains(self, d: Dir) -> bool {
        self.0 & (1 << d.0) != 0
    }
    pub fn union(self, o: DirSet) -> DirSet {
        DirSet(self.0 | o.0)
    }
    pub fn minus(self, o: DirSet) -> DirSet {
        DirSet(self.0 & !o.0)
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = Dir> {
        (0..16u8).filter(move |i| self.0 & (1 << i) != 0).map(Dir)
    }
}

/// One direction: its names, lattice vector, bearing (degrees clockwise from north) and kind.
#[derive(Clone, Debug)]
pub struct Direction {
    pub name: &'static str,
    pub long_name: Option<&'static str>,
    pub dx: i32,
    pub dy: i32,
    pub bearing: u16,
    pub kind: Kind,
}

const fn d(name: &'static str, dx: i32, dy: i32, bearing: u16, kind: Kind) -> Direction {
    let long_name = match bearing {
        0 => Some("north"),
        90 => Some("east"),
        180 => Some("south"),
        270 => Some("west"),
        _ => None,
    };
    Direction {
        name,
        long_name,
        dx,
        dy,
        bearing,
        kind,
    }
}

use Kind::{Diagonal as D, Orthogonal as O};

/// Square cells, y grows downward.
pub fn square() -> Vec<Direction> {
    vec![
        d("N", 0, -1, 0, O),
        d("NE", 1, -1, 45, D),
        d("E", 1, 0, 90, O),
        d("SE", 1, 1, 135, D),
        d("S", 0, 1, 180, O),
        d("SW", -1, 1, 225, D),
        d("W", -1, 0, 270, O),
        d("NW", -1, -1, 315, D),
    ]
}

/// Flat-topped hexagons in doubled coordinates (column, half-row; y grows downward).
pub fn hex_flat() -> Vec<Direction> {
    vec![
        d("N", 0, -2, 0, O),
        d("NNE", 1, -3, 30, D),
        d("NE", 1, -1, 60, O),
        d("E", 2, 0, 90, D),
        d("SE", 1, 1, 120, O),
        d("SSE", 1, 3, 150, D),
        d("S", 0, 2, 180, O),
        d("SSW", -1, 3, 210, D),
        d("SW", -1, 1, 240, O),
        d("W", -2, 0, 270, D),
        d("NW", -1, -1, 300, O),
        d("NNW", -1, -3, 330, D),
    ]
}

/// Pointy-topped hexagons in doubled coordinates (half-column, row; y grows downward).
pub fn hex_pointy() -> Vec<Direction> {
    vec![
        d("N", 0, -2, 0, D),
        d("NE", 1, -1, 30, O),
        d("ENE", 3, -1, 60, D),
        d("E", 2, 0, 90, O),
        d("ESE", 3, 1, 120, D),
        d("SE", 1, 1, 150, O),
        d("S", 0, 2, 180, D),
        d("SW", -1, 1, 210, O),
        d("WSW", -3, 1, 240, D),
        d("W", -2, 0, 270, O),
        d("WNW", -3, -1, 300, D),
        d("NW", -1, -1, 330, O),
    ]
}

/// The smaller angle between two bearings, 0..=180.
pub fn angle_between(a: u16, b: u16) -> u16 {
    let diff = (a as i32 - b as i32).rem_euclid(360) as u16;
    diff.min(360 - diff)
}

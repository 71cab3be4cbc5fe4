//! Boards: cells, lattice coordinates, directions and coordinate schemes.
//!
//! Every board lives on an integer lattice with y growing downward: plain (x, y) for
//! squares, doubled coordinates for hexagons. Directions are lattice vectors, so move
//! generation treats all boards alike.

mod cellset;
mod direction;
mod layout;
mod scheme;

pub use cellset::{CellSet, MaskWord, Wide};
pub use direction::{Dir, DirSet, Direction, Kind, angle_between};
pub use layout::{Layout, ReadSlot, trim_blank_lines};
pub use scheme::{Labels, Part, Scheme, SchemeError};

use std::collections::HashMap;
use std::fmt;

/// Index of a cell on its board, in reading order; a board has at most
/// `MAX_CELLS` cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub u16);

impl Cell {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The most cells a board may have: one bit each in a `Wide<16>` set.
pub const MAX_CELLS: usize = 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Orientation {
    /// Flat-topped cells in vertical files.
    Flat,
    /// Pointy-topped cells in horizontal ranks.
    Pointy,
}

/// Which way a parallelogram of hexagons leans: the direction of its slanting sides
/// (north-east or north-west for pointy-topped cells, north-east or south-east for
/// flat-topped ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lean {
    NorthEast,
    NorthWest,
    SouthEast,
}

impl Lean {
    /// The compass name of the lean.
    pub fn name(self) -> &'static str {
        match self {
            Lean::NorthEast => "NE",
            Lean::NorthWest => "NW",
            Lean::SouthEast => "SE",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Square {
        width: u32,
        height: u32,
    },
    Hexagon {
        side: u32,
        orientation: Orientation,
    },
    /// Hexagonal cells in `width` by `height` rows: for pointy-topped cells, ranks of
    /// `width` cells, each half a cell towards the lean from the one below; for
    /// flat-topped cells, `width` files of `height` cells, each half a cell towards the
    /// lean from the one on its left.
    Parallelogram {
        width: u32,
        height: u32,
        orientation: Orientation,
        lean: Lean,
    },
}

/// How cells tile the plane: what drawing, naming and colouring depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tiling {
    Square,
    Hex(Orientation),
}

impl Shape {
    pub fn tiling(self) -> Tiling {
        match self {
            Shape::Square { .. } => Tiling::Square,
            Shape::Hexagon { orientation, .. } | Shape::Parallelogram { orientation, .. } => {
                Tiling::Hex(orientation)
            }
        }
    }
}

impl fmt::Display for Orientation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Orientation::Flat => "flat-topped",
            Orientation::Pointy => "pointy-topped",
        })
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Square { width, height } => write!(f, "square {width} by {height}"),
            Shape::Hexagon { side, orientation } => write!(f, "hexagon side {side} {orientation}"),
            Shape::Parallelogram {
                width,
                height,
                orientation,
                lean,
            } => write!(
                f,
                "parallelogram {width} by {height} {orientation}, leaning {}",
                lean.name()
            ),
        }
    }
}

/// Lattice position (may lie off the board).
pub type Point = (i32, i32);

/// Why a board cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    TooManyCells(usize),
    Empty,
    Scheme(SchemeError),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::TooManyCells(n) => {
                write!(
                    f,
                    "the board has {n} cells; at most {MAX_CELLS} are supported"
                )
            }
            BoardError::Empty => write!(f, "the board has no cells"),
            BoardError::Scheme(e) => write!(f, "{e}"),
        }
    }
}

/// A board: its cells in reading order (top row first, left to right), their lattice
/// points and names, and its direction table.
#[derive(Clone, Debug)]
pub struct Board {
    pub shape: Shape,
    pub scheme: Scheme,
    points: Vec<Point>,
    names: Vec<String>,
    /// Per cell: whether it is an extra cell, named by the file rather than the scheme.
    extra: Vec<bool>,
    /// Dense lookup over the bounding box: `grid[(y - y0) * w + (x - x0)]`.
    grid: Vec<Option<Cell>>,
    by_name: HashMap<String, Cell>,
    /// Lattice points of the full shape that are holes, with their names.
    holes: HashMap<String, Point>,
    directions: Vec<Direction>,
    opposites: Vec<Dir>,
    /// The direction of each small vector (|dx|, |dy| <= 3), at `(dy + 3) * 7 + dx + 3`.
    by_vector: [Option<Dir>; 49],
    bounds: (Point, Point),
}

impl Board {
    /// Builds a board; `holes` are names in the scheme (resolved by the caller first
    /// with [`Board::locate_in_shape`]).
    pub fn new(shape: Shape, scheme: Scheme, holes: &[Point]) -> Result<Board, BoardError> {
        Board::with_extras(shape, scheme, holes, &[])
    }

    /// [`Board::new`] with cells beyond the shape, each a lattice point and its name
    /// (the scheme names only the shape's cells).
    pub fn with_extras(
        shape: Shape,
        scheme: Scheme,
        holes: &[Point],
        extras: &[(Point, String)],
    ) -> Result<Board, BoardError> {
        let all = shape_points(shape)?;
        let directions = directions_of(shape);
        let names_all = scheme
            .name_all(&all, &directions)
            .map_err(BoardError::Scheme)?;
        let mut points = Vec::new();
        let mut names = Vec::new();
        let mut hole_names = HashMap::new();
        let mut cells = Vec::new();
        for (p, n) in all.iter().zip(names_all) {
            if holes.contains(p) {
                hole_names.insert(n.to_ascii_lowercase(), *p);
            } else {
                cells.push((*p, n, false));
            }
        }
        if !extras.is_empty() {
            cells.extend(extras.iter().map(|(p, n)| (*p, n.clone(), true)));
            // Reading order, as the shape's points are listed.
            cells.sort_by_key(|(p, ..)| (p.1, p.0));
        }
        let mut extra = Vec::new();
        for (p, n, e) in cells {
            points.push(p);
            names.push(n);
            extra.push(e);
        }
        if points.is_empty() {
            return Err(BoardError::Empty);
        }
        if points.len() > MAX_CELLS {
            return Err(BoardError::TooManyCells(points.len()));
        }
        let by_name = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.to_ascii_lowercase(), Cell(i as u16)))
            .collect();
        let xs = points.iter().map(|p| p.0);
        let ys = points.iter().map(|p| p.1);
        let bounds = (
            (xs.clone().min().unwrap_or(0), ys.clone().min().unwrap_or(0)),
            (xs.max().unwrap_or(0), ys.max().unwrap_or(0)),
        );
        let ((x0, y0), (x1, y1)) = bounds;
        let w = (x1 - x0 + 1) as usize;
        let mut grid = vec![None; w * (y1 - y0 + 1) as usize];
        for (i, p) in points.iter().enumerate() {
            grid[(p.1 - y0) as usize * w + (p.0 - x0) as usize] = Some(Cell(i as u16));
        }
        let opposites = directions
            .iter()
            .map(|d| {
                let i = directions
                    .iter()
                    .position(|o| o.dx == -d.dx && o.dy == -d.dy)
                    .expect("symmetric table");
                Dir(i as u8)
            })
            .collect();
        let mut by_vector = [None; 49];
        for (i, d) in directions.iter().enumerate() {
            by_vector[((d.dy + 3) * 7 + d.dx + 3) as usize] = Some(Dir(i as u8));
        }
        Ok(Board {
            shape,
            scheme,
            points,
            names,
            extra,
            grid,
            by_name,
            holes: hole_names,
            directions,
            opposites,
            by_vector,
            bounds,
        })
    }

    /// The lattice point a name denotes in the full shape (holes included).
    pub fn locate_in_shape(shape: Shape, scheme: &Scheme, name: &str) -> Option<Point> {
        let all = shape_points(shape).ok()?;
        let names = scheme.name_all(&all, &directions_of(shape)).ok()?;
        all.iter()
            .zip(names)
            .find(|(_, n)| n.eq_ignore_ascii_case(name))
            .map(|(p, _)| *p)
    }

    /// [`Board::locate_in_shape`] for many names, naming the cells once.
    pub fn locate_all_in_shape(
        shape: Shape,
        scheme: &Scheme,
        names: &[&str],
    ) -> Vec<Option<Point>> {
        let named = shape_points(shape).ok().and_then(|all| {
            let names = scheme.name_all(&all, &directions_of(shape)).ok()?;
            let mut index = std::collections::HashMap::new();
            for (p, n) in all.iter().zip(names) {
                index.entry(n.to_ascii_lowercase()).or_insert(*p);
            }
            Some(index)
        });
        names
            .iter()
            .map(|n| named.as_ref()?.get(&n.to_ascii_lowercase()).copied())
            .collect()
    }

    /// Whether the cell is one of `extra cells`, named by the file, not the scheme.
    pub fn is_extra(&self, c: Cell) -> bool {
        self.extra[c.index()]
    }

    pub fn len(&self) -> usize {
        self.points.len()
    }
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.points.len()).map(|i| Cell(i as u16))
    }
    pub fn point(&self, c: Cell) -> Point {
        self.points[c.index()]
    }
    pub fn at(&self, p: Point) -> Option<Cell> {
        if !self.within_bounds(p) {
            return None;
        }
        let ((x0, y0), (x1, _)) = self.bounds;
        self.grid[(p.1 - y0) as usize * (x1 - x0 + 1) as usize + (p.0 - x0) as usize]
    }
    pub fn name(&self, c: Cell) -> &str {
        &self.names[c.index()]
    }
    /// A cell by its name, case-insensitive.
    pub fn parse_cell(&self, name: &str) -> Option<Cell> {
        self.by_name.get(&name.to_ascii_lowercase()).copied()
    }
    /// Whether the name denotes a hole of this board.
    pub fn is_hole(&self, name: &str) -> bool {
        self.holes.contains_key(&name.to_ascii_lowercase())
    }
    /// The lattice points of the holes.
    pub fn hole_points(&self) -> impl Iterator<Item = Point> + '_ {
        self.holes.values().copied()
    }
    pub fn directions(&self) -> &[Direction] {
        &self.directions
    }
    pub fn direction(&self, d: Dir) -> &Direction {
        &self.directions[d.0 as usize]
    }
    pub fn all_directions(&self) -> DirSet {
        DirSet((1u16 << self.directions.len()) - 1)
    }
    /// The directions of one kind, or every direction.
    pub fn directions_of_lines(&self, kind: Option<Kind>) -> DirSet {
        match kind {
            Some(k) => self.directions_of(k),
            None => self.all_directions(),
        }
    }
    pub fn directions_of(&self, kind: Kind) -> DirSet {
        self.dirs_where(|d| d.kind == kind)
    }
    pub fn dirs_where(&self, f: impl Fn(&Direction) -> bool) -> DirSet {
        let mut s = DirSet::EMPTY;
        for (i, d) in self.directions.iter().enumerate() {
            if f(d) {
                s = s.with(Dir(i as u8));
            }
        }
        s
    }
    /// A direction by compass name (`NE`, `north`), case-insensitive.
    pub fn parse_direction(&self, name: &str) -> Option<Dir> {
        self.directions
            .iter()
            .position(|d| {
                d.name.eq_ignore_ascii_case(name)
                    || d.long_name.is_some_and(|l| l.eq_ignore_ascii_case(name))
            })
            .map(|i| Dir(i as u8))
    }
    #[inline]
    pub fn opposite(&self, d: Dir) -> Dir {
        self.opposites[d.0 as usize]
    }
    /// The colour a board of this shape gives a lattice point: squares alternate two
    /// colours, hexagons three, so that no two neighbours share one.
    pub fn colour_of(shape: Shape, (x, y): Point) -> u8 {
        match shape.tiling() {
            Tiling::Square => (x + y).rem_euclid(2) as u8,
            // Axial coordinates (q, r); q - r differs between neighbours modulo 3.
            Tiling::Hex(orientation) => {
                let (q, r) = match orientation {
                    Orientation::Flat => (x, (y - x).div_euclid(2)),
                    Orientation::Pointy => ((x - y).div_euclid(2), y),
                };
                (q - r).rem_euclid(3) as u8
            }
        }
    }
    /// How many colours [`Board::colour_of`] gives this board's cells.
    pub fn colours(&self) -> u8 {
        match self.shape.tiling() {
            Tiling::Square => 2,
            Tiling::Hex(_) => 3,
        }
    }
    /// The colour of a cell (see [`Board::colour_of`]).
    pub fn colour(&self, c: Cell) -> u8 {
        Self::colour_of(self.shape, self.point(c))
    }
    /// How far a cell lies along a direction: a projection on it, comparable between
    /// cells only. Hexagon lattices are doubled, so each axis is weighted back to the
    /// plane's true proportions.
    pub fn along(&self, c: Cell, d: Dir) -> i32 {
        let (x, y) = self.point(c);
        let v = self.direction(d);
        let (wx, wy) = match self.shape.tiling() {
            Tiling::Square => (1, 1),
            Tiling::Hex(Orientation::Flat) => (3, 1),
            Tiling::Hex(Orientation::Pointy) => (1, 3),
        };
        wx * x * v.dx + wy * y * v.dy
    }
    /// Per cell, the cells one step away in the directions, in their order.
    pub fn neighbours(&self, dirs: DirSet) -> Vec<Vec<Cell>> {
        self.cells()
            .map(|c| {
                dirs.iter()
                    .filter_map(|d| self.at(self.shift(self.point(c), d)))
                    .collect()
            })
            .collect()
    }
    /// Per cell: for each direction of `dirs`, the cells from it along that direction
    /// to the edge, directions that leave the board at once left out.
    pub fn rays(&self, dirs: DirSet) -> Vec<Vec<Vec<Cell>>> {
        self.cells()
            .map(|c| {
                dirs.iter()
                    .map(|d| {
                        let mut at = self.point(c);
                        let mut ray = Vec::new();
                        loop {
                            at = self.shift(at, d);
                            match self.at(at) {
                                Some(n) => ray.push(n),
                                None => break,
                            }
                        }
                        ray
                    })
                    .filter(|r| !r.is_empty())
                    .collect()
            })
            .collect()
    }
    /// Per cell, beside [`Board::rays`] of the same directions: for each ray, where the
    /// cell lies on an edge of the board that the ray runs along (a side of another
    /// direction of `dirs`, not the ray's own or its opposite, leaves the board), the
    /// cells beside the ray's first cells away from that edge, as far as the ray keeps
    /// to it; otherwise nothing. A hole is an edge too.
    pub fn edge_rows(&self, dirs: DirSet) -> Vec<Vec<Vec<Cell>>> {
        let off = |c: Cell, e: Dir| self.at(self.shift(self.point(c), e)).is_none();
        let step = |c: Cell, d: Dir| self.at(self.shift(self.point(c), d));
        self.cells()
            .map(|c| {
                dirs.iter()
                    .filter(|&d| step(c, d).is_some())
                    .map(|d| {
                        // Of the directions leaving the board, the one most nearly square
                        // to the row (the first in the board's order on a tie).
                        let across = |e: Dir| e != d && e != self.opposite(d) && off(c, e);
                        let Some(e) = dirs
                            .iter()
                            .filter(|&e| across(e))
                            .min_by_key(|&e| self.dot(d, e).abs())
                        else {
                            return vec![];
                        };
                        let mut fronts = Vec::new();
                        let mut at = c;
                        while let Some(n) = step(at, d).filter(|&n| off(n, e)) {
                            match step(n, self.opposite(e)) {
                                Some(front) => fronts.push(front),
                                None => break,
                            }
                            at = n;
                        }
                        fronts
                    })
                    .collect()
            })
            .collect()
    }
    /// The cells as rows in reading order: for squares and pointy-topped hexagons the
    /// ranks from the top, each left to right; for flat-topped hexagons the files from
    /// the left, each from the top down.
    pub fn reading_rows(&self) -> Vec<Vec<Cell>> {
        let mut cells: Vec<Cell> = self.cells().collect();
        let by_file = self.shape.tiling() == Tiling::Hex(Orientation::Flat);
        let key = |c: &Cell| {
            let (x, y) = self.point(*c);
            if by_file { (x, y) } else { (y, x) }
        };
        cells.sort_by_key(key);
        let mut out: Vec<Vec<Cell>> = Vec::new();
        let mut last = None;
        for c in cells {
            let k = key(&c).0;
            if last != Some(k) {
                out.push(Vec::new());
                last = Some(k);
            }
            out.last_mut().expect("pushed").push(c);
        }
        out
    }
    /// The cells in reading order: the numbering of a board whose cells are numbered
    /// from 1, as draughts players number their squares.
    pub fn reading_order(&self) -> Vec<Cell> {
        self.reading_rows().into_iter().flatten().collect()
    }
    /// The dot product of two directions in the plane (hexagon lattices weighted back to
    /// its proportions, as [`Board::along`] does), comparable between pairs of one board.
    pub fn dot(&self, a: Dir, b: Dir) -> i32 {
        let (u, v) = (self.direction(a), self.direction(b));
        let (wx, wy) = match self.shape.tiling() {
            Tiling::Square => (1, 1),
            Tiling::Hex(Orientation::Flat) => (3, 1),
            Tiling::Hex(Orientation::Pointy) => (1, 3),
        };
        wx * u.dx * v.dx + wy * u.dy * v.dy
    }
    /// Per cell, the pairs of cells on either side of it along the directions (each
    /// line once).
    pub fn lines_through(&self, dirs: DirSet) -> Vec<Vec<(Cell, Cell)>> {
        let step = |c: Cell, d: Dir| self.at(self.shift(self.point(c), d));
        self.cells()
            .map(|c| {
                dirs.iter()
                    .filter(|&d| d.0 < self.opposite(d).0)
                    .filter_map(|d| Some((step(c, d)?, step(c, self.opposite(d))?)))
                    .collect()
            })
            .collect()
    }
    /// Moves a lattice point one step.
    pub fn shift(&self, p: Point, d: Dir) -> Point {
        let v = self.direction(d);
        (p.0 + v.dx, p.1 + v.dy)
    }
    /// Whether two cells are one step apart, in a direction of any kind.
    pub fn next_to(&self, a: Cell, b: Cell) -> bool {
        let (p, q) = (self.point(a), self.point(b));
        self.adjacent(p, q, Kind::Orthogonal) || self.adjacent(p, q, Kind::Diagonal)
    }
    /// Whether two lattice points differ by one step of the given kind.
    #[inline]
    pub fn adjacent(&self, a: Point, b: Point, kind: Kind) -> bool {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        if dx.abs() > 3 || dy.abs() > 3 {
            return false;
        }
        self.by_vector[((dy + 3) * 7 + dx + 3) as usize]
            .is_some_and(|d| self.direction(d).kind == kind)
    }
    /// Whether a point lies inside the board's bounding box.
    pub fn within_bounds(&self, p: Point) -> bool {
        let ((x0, y0), (x1, y1)) = self.bounds;
        p.0 >= x0 && p.0 <= x1 && p.1 >= y0 && p.1 <= y1
    }
    pub fn bounds(&self) -> (Point, Point) {
        self.bounds
    }
    /// The centre cell: for even boards, rounded down and to the left.
    pub fn centre(&self) -> Cell {
        let ((x0, y0), (x1, y1)) = self.bounds;
        let mid = |a: i32, b: i32| (a + b).div_euclid(2);
        let target = (mid(x0, x1), (y0 + y1 + 1).div_euclid(2));
        let target = (
            target.0,
            if self.shape.tiling() == Tiling::Square {
                target.1
            } else {
                mid(y0, y1)
            },
        );
        self.cells()
            .min_by_key(|c| {
                let p = self.point(*c);
                ((p.0 - target.0).abs() + (p.1 - target.1).abs(), -p.1, p.0)
            })
            .expect("a board has cells")
    }
}

/// The direction table of a shape's cells.
fn directions_of(shape: Shape) -> Vec<Direction> {
    match shape.tiling() {
        Tiling::Square => direction::square(),
        Tiling::Hex(Orientation::Flat) => direction::hex_flat(),
        Tiling::Hex(Orientation::Pointy) => direction::hex_pointy(),
    }
}

/// The most cells a shape may have before its holes are taken out.
const MAX_SHAPE: usize = 4096;

/// Every lattice point of a shape, in reading order.
fn shape_points(shape: Shape) -> Result<Vec<Point>, BoardError> {
    let mut pts = Vec::new();
    match shape {
        Shape::Square { width, height } => {
            if (width as u64) * (height as u64) > MAX_SHAPE as u64 {
                return Err(BoardError::TooManyCells(
                    (width as usize).saturating_mul(height as usize),
                ));
            }
            for y in 0..height as i32 {
                for x in 0..width as i32 {
                    pts.push((x, y));
                }
            }
        }
        Shape::Hexagon { side, orientation } => {
            if side == 0 {
                return Err(BoardError::Empty);
            }
            // 3s(s-1)+1 overflows a u64 for the largest sides.
            let s = side as u64;
            let cells = (3 * s).saturating_mul(s - 1).saturating_add(1);
            if cells > MAX_SHAPE as u64 {
                return Err(BoardError::TooManyCells(
                    usize::try_from(cells).unwrap_or(usize::MAX),
                ));
            }
            let n = side as i32 - 1;
            for q in -n..=n {
                for r in -n..=n {
                    if (q + r).abs() > n {
                        continue;
                    }
                    pts.push(match orientation {
                        Orientation::Flat => (q, 2 * r + q),
                        Orientation::Pointy => (2 * q + r, r),
                    });
                }
            }
            pts.sort_by_key(|p| (p.1, p.0));
        }
        Shape::Parallelogram {
            width,
            height,
            orientation,
            lean,
        } => {
            if width == 0 || height == 0 {
                return Err(BoardError::Empty);
            }
            if (width as u64) * (height as u64) > MAX_SHAPE as u64 {
                return Err(BoardError::TooManyCells(
                    (width as usize).saturating_mul(height as usize),
                ));
            }
            // Doubled coordinates keep x + y even; up is -y.
            let tilt = match lean {
                Lean::NorthEast | Lean::SouthEast => 1,
                Lean::NorthWest => -1,
            };
            for a in 0..width as i32 {
                for b in 0..height as i32 {
                    pts.push(match orientation {
                        // Rank b from the bottom, cell a from the left.
                        Orientation::Pointy => (2 * a + tilt * b, -b),
                        // File a from the left, cell b from the bottom.
                        Orientation::Flat => {
                            (a, -2 * b - if lean == Lean::SouthEast { -a } else { a })
                        }
                    });
                }
            }
            pts.sort_by_key(|p| (p.1, p.0));
        }
    }
    Ok(pts)
}

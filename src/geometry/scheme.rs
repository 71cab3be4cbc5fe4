//! Coordinate schemes: how cells are named, described by the variant file.
//!
//! A cell's name is two labels side by side. Each label numbers (or letters) a family
//! of parallel lines (files, ranks, or lines along some direction), counting from one
//! side of the board; or, `within` the other part's line, counts the cell's place
//! along that line from one end.

use super::{Direction, Orientation, Point, Shape};
use std::fmt;

/// How a part labels its lines: letters (some perhaps skipped; after the last letter,
/// pairs of them: `aa`, `ab`, ...) or numbers from `first` (1 unless the file says).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Labels {
    Letters { skip: Vec<char> },
    Numbers { first: u32 },
}

impl Labels {
    /// Numbers from 1.
    pub const NUMBERS: Labels = Labels::Numbers { first: 1 };
}

/// One half of a cell's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The compass name of the direction the lines run along (`N` for files).
    pub along: String,
    /// The compass name of the side counting starts from (`W` for "from the left").
    pub from: String,
    pub labels: Labels,
    /// Count the cell's place along the other part's line instead of the lines.
    pub within: bool,
}

/// Two parts, written in this order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheme {
    pub parts: [Part; 2],
}

/// Why a scheme cannot name a board's cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SchemeError {
    /// Part `part` (0 or 1) names a direction the board lacks.
    UnknownDirection {
        part: usize,
        name: String,
    },
    /// Lines are counted from a side they run towards.
    SideAlongLines {
        part: usize,
    },
    /// Places along a line are counted from a side across it.
    SideAcrossLine {
        part: usize,
    },
    /// Both parts count within the other.
    BothWithin,
    TooFewLetters {
        part: usize,
        needed: usize,
        have: usize,
    },
    SameName(String),
}

impl fmt::Display for SchemeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchemeError::UnknownDirection { name, .. } => {
                write!(f, "the board has no direction `{name}`")
            }
            SchemeError::SideAlongLines { .. } => {
                write!(
                    f,
                    "these lines run towards that side, so it cannot start their count"
                )
            }
            SchemeError::SideAcrossLine { .. } => {
                write!(
                    f,
                    "that side lies across the other part's lines, so it cannot start a count along them"
                )
            }
            SchemeError::BothWithin => write!(f, "only one part can count within the other"),
            SchemeError::TooFewLetters { needed, have, .. } => {
                write!(
                    f,
                    "{needed} labels are needed but these letters and their pairs make only {have}"
                )
            }
            SchemeError::SameName(n) => write!(f, "two cells would both be named `{n}`"),
        }
    }
}

impl std::error::Error for SchemeError {}

fn part(along: &str, from: &str, labels: Labels, within: bool) -> Part {
    Part {
        along: along.into(),
        from: from.into(),
        labels,
        within,
    }
}

impl Scheme {
    /// A cell's name cut into its two labels: a letter part is one letter, a number
    /// part its digits. None when both parts are numbers (the name alone does not say
    /// where they split).
    pub fn split<'a>(&self, name: &'a str) -> Option<(&'a str, &'a str)> {
        let at = match [&self.parts[0].labels, &self.parts[1].labels] {
            [Labels::Numbers { .. }, Labels::Numbers { .. }] => return None,
            [Labels::Letters { .. }, _] => name.char_indices().nth(1)?.0,
            [Labels::Numbers { .. }, _] => name.find(|c: char| !c.is_ascii_digit())?,
        };
        Some(name.split_at(at))
    }

    /// The scheme a board uses when the file gives none: files lettered from the left
    /// and ranks numbered from the bottom (of each file, on flat-topped hexagons); on
    /// pointy-topped hexagons, lines rising to the right numbered from the right, then
    /// ranks lettered from the top; on pointy-topped parallelograms, the slanting lines
    /// lettered from the left, then ranks numbered from the bottom.
    pub fn default_for(shape: Shape) -> Scheme {
        let letters = || Labels::Letters { skip: vec![] };
        let parts = match shape {
            Shape::Square { .. } => [
                part("N", "W", letters(), false),
                part("E", "S", Labels::NUMBERS, false),
            ],
            Shape::Hexagon {
                orientation: Orientation::Flat,
                ..
            }
            | Shape::Parallelogram {
                orientation: Orientation::Flat,
                ..
            } => [
                part("N", "W", letters(), false),
                part("N", "S", Labels::NUMBERS, true),
            ],
            Shape::Hexagon {
                orientation: Orientation::Pointy,
                ..
            } => [
                part("NE", "E", Labels::NUMBERS, false),
                part("E", "N", letters(), false),
            ],
            // The slanting sides are the files, as rule pages of such boards name them.
            Shape::Parallelogram {
                orientation: Orientation::Pointy,
                lean,
                ..
            } => [
                part(lean.name(), "W", letters(), false),
                part("E", "S", Labels::NUMBERS, false),
            ],
        };
        Scheme { parts }
    }

    /// Names every point, given in reading order, using the board's directions.
    pub(super) fn name_all(
        &self,
        points: &[Point],
        dirs: &[Direction],
    ) -> Result<Vec<String>, SchemeError> {
        if self.parts.iter().all(|p| p.within) {
            return Err(SchemeError::BothWithin);
        }
        let vector = |part: usize, name: &str| {
            dirs.iter()
                .find(|d| {
                    d.name.eq_ignore_ascii_case(name)
                        || d.long_name.is_some_and(|l| l.eq_ignore_ascii_case(name))
                })
                .map(|d| (d.dx, d.dy))
                .ok_or_else(|| SchemeError::UnknownDirection {
                    part,
                    name: name.to_string(),
                })
        };
        let mut indices: [Vec<usize>; 2] = [vec![], vec![]];
        for i in [0, 1].into_iter().filter(|i| !self.parts[*i].within) {
            indices[i] = line_indices(
                i,
                vector(i, &self.parts[i].along)?,
                vector(i, &self.parts[i].from)?,
                points,
            )?;
        }
        for i in [0, 1].into_iter().filter(|i| self.parts[*i].within) {
            let other = vector(1 - i, &self.parts[1 - i].along)?;
            let side = vector(i, &self.parts[i].from)?;
            indices[i] = places_along(i, other, side, points)?;
        }
        let mut labels: [Vec<String>; 2] = [vec![], vec![]];
        for i in 0..2 {
            labels[i] = label_all(i, &self.parts[i].labels, &indices[i])?;
        }
        let names: Vec<String> = labels[0]
            .iter()
            .zip(&labels[1])
            .map(|(a, b)| format!("{a}{b}"))
            .collect();
        let mut sorted: Vec<String> = names.iter().map(|n| n.to_ascii_lowercase()).collect();
        sorted.sort();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(SchemeError::SameName(w[0].clone()));
        }
        Ok(names)
    }
}

/// `cross(p, d)`: constant along any line parallel to `d`.
fn cross(p: Point, d: Point) -> i64 {
    p.0 as i64 * d.1 as i64 - p.1 as i64 * d.0 as i64
}

/// Each point's line, counted from the side `from` (0 for the nearest line).
fn line_indices(
    part: usize,
    along: Point,
    from: Point,
    points: &[Point],
) -> Result<Vec<usize>, SchemeError> {
    let toward = cross(from, along);
    if toward == 0 {
        return Err(SchemeError::SideAlongLines { part });
    }
    let mut keys: Vec<i64> = points.iter().map(|p| cross(*p, along)).collect();
    keys.sort_unstable();
    keys.dedup();
    if toward > 0 {
        keys.reverse();
    }
    Ok(points
        .iter()
        .map(|p| {
            keys.iter()
                .position(|k| *k == cross(*p, along))
                .expect("listed")
        })
        .collect())
}

/// Each point's place along its line of the other part, counted from the end `from`.
fn places_along(
    part: usize,
    other: Point,
    from: Point,
    points: &[Point],
) -> Result<Vec<usize>, SchemeError> {
    let dot = |p: Point| p.0 as i64 * from.0 as i64 + p.1 as i64 * from.1 as i64;
    if dot(other) == 0 {
        return Err(SchemeError::SideAcrossLine { part });
    }
    Ok(points
        .iter()
        .map(|p| {
            let line = cross(*p, other);
            points
                .iter()
                .filter(|q| cross(**q, other) == line && dot(**q) > dot(*p))
                .count()
        })
        .collect())
}

fn label_all(part: usize, labels: &Labels, indices: &[usize]) -> Result<Vec<String>, SchemeError> {
    match labels {
        Labels::Numbers { first } => Ok(indices
            .iter()
            .map(|&i| (i as u64 + *first as u64).to_string())
            .collect()),
        Labels::Letters { skip } => {
            let letters: Vec<char> = ('a'..='z').filter(|c| !skip.contains(c)).collect();
            let n = letters.len();
            let needed = indices.iter().max().map_or(0, |m| m + 1);
            // Past the last letter, pairs follow in order: aa, ab, ... az, ba, ...
            let have = n + n * n;
            if needed > have {
                return Err(SchemeError::TooFewLetters { part, needed, have });
            }
            Ok(indices
                .iter()
                .map(|&i| match i.checked_sub(n) {
                    None => letters[i].to_string(),
                    Some(j) => format!("{}{}", letters[j / n], letters[j % n]),
                })
                .collect())
        }
    }
}

//! Coordinate schemes: how cells are named.

use super::{BoardError, Orientation, Point, Shape};

/// A named way of writing cell coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// Squares: files a.. from the left, ranks 1.. from the bottom.
    Algebraic,
    /// Flat-topped hexagons: files a.. from the left skipping j, rank k = k-th cell
    /// from the bottom of its file.
    Glinski,
    /// Flat-topped hexagons: files a.. from the left (j included); ranks run along the
    /// file upward, and stay constant along the lines rising to the right.
    GameCourier,
    /// Pointy-topped hexagons: ranks lettered a.. from the top, files numbered 1.. from
    /// the right along the lines rising to the right; written file then rank (`6f`).
    HexShogi,
}

impl Scheme {
    pub const ALL: [Scheme; 4] = [
        Scheme::Algebraic,
        Scheme::Glinski,
        Scheme::GameCourier,
        Scheme::HexShogi,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Scheme::Algebraic => "algebraic",
            Scheme::Glinski => "glinski",
            Scheme::GameCourier => "game-courier",
            Scheme::HexShogi => "hex-shogi",
        }
    }

    pub fn from_name(s: &str) -> Option<Scheme> {
        Scheme::ALL
            .into_iter()
            .find(|x| x.name().eq_ignore_ascii_case(s))
    }

    /// The scheme a shape uses when the file names none.
    pub fn default_for(shape: Shape) -> Scheme {
        match shape {
            Shape::Square { .. } => Scheme::Algebraic,
            Shape::Hexagon {
                orientation: Orientation::Flat,
                ..
            } => Scheme::Glinski,
            Shape::Hexagon {
                orientation: Orientation::Pointy,
                ..
            } => Scheme::HexShogi,
        }
    }

    pub fn fits(self, shape: Shape) -> bool {
        matches!(
            (self, shape),
            (Scheme::Algebraic, Shape::Square { .. })
                | (
                    Scheme::Glinski | Scheme::GameCourier,
                    Shape::Hexagon {
                        orientation: Orientation::Flat,
                        ..
                    }
                )
                | (
                    Scheme::HexShogi,
                    Shape::Hexagon {
                        orientation: Orientation::Pointy,
                        ..
                    }
                )
        )
    }

    /// Names every point of the shape (given in reading order).
    pub(super) fn name_all(
        self,
        shape: Shape,
        points: &[Point],
    ) -> Result<Vec<String>, BoardError> {
        if !self.fits(shape) {
            return Err(BoardError::SchemeMismatch {
                scheme: self,
                shape,
            });
        }
        let letters: Vec<char> = match self {
            Scheme::Glinski => ('a'..='z').filter(|c| *c != 'j').collect(),
            _ => ('a'..='z').collect(),
        };
        let letter = |i: i32| letters.get(i as usize).copied().ok_or(BoardError::TooWide);
        points
            .iter()
            .map(|&(x, y)| match (self, shape) {
                (Scheme::Algebraic, Shape::Square { height, .. }) => {
                    Ok(format!("{}{}", letter(x)?, height as i32 - y))
                }
                (Scheme::Glinski, Shape::Hexagon { side, .. }) => {
                    // Flat doubled coordinates: column x, half-row y. The bottom cell of
                    // column x has y = 2(n-1) - |x|.
                    let n = side as i32 - 1;
                    let bottom = 2 * n - x.abs();
                    Ok(format!("{}{}", letter(x + n)?, (bottom - y) / 2 + 1))
                }
                (Scheme::GameCourier, Shape::Hexagon { side, .. }) => {
                    let n = side as i32;
                    let f = x + n - 1;
                    // y = -2R - F + 3n - 1
                    let r = (3 * n - 1 - f - y) / 2;
                    Ok(format!("{}{}", letter(f)?, r))
                }
                (Scheme::HexShogi, Shape::Hexagon { side, .. }) => {
                    let n = side as i32 - 1;
                    let file = n + 1 - (x + y) / 2;
                    Ok(format!("{}{}", file, letter(y + n)?))
                }
                _ => Err(BoardError::SchemeMismatch {
                    scheme: self,
                    shape,
                }),
            })
            .collect()
    }
}

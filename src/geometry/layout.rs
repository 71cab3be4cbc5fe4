//! Diagram layouts: the empty drawing of a board and where each cell's text goes.
//! One layout both draws diagrams and reads pasted ones back.

use super::{Board, Cell, Orientation, Tiling};

/// What a hole in a hexagonal board shows.
const HOLE: &str = "##";

/// An empty diagram and the slot of each drawn cell.
#[derive(Clone, Debug)]
pub struct Layout {
    lines: Vec<Vec<char>>,
    /// (cell, line, column) of the first character of each slot.
    slots: Vec<(Cell, usize, usize)>,
    /// Characters per slot.
    width: usize,
}

/// What one cell of a pasted diagram holds, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadSlot {
    pub cell: Cell,
    pub text: String,
    pub line: usize,
    pub column: usize,
}

/// Why a pasted diagram cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagramError {
    /// Line of the diagram (0-based), if one line is at fault.
    pub line: Option<usize>,
    pub message: String,
}

impl Layout {
    /// The layout of a whole board in its own style, `width` characters per slot
    /// (hexagonal styles always use 2).
    pub fn whole(board: &Board, width: usize) -> Layout {
        match board.shape.tiling() {
            Tiling::Square => {
                let ((x0, y0), (x1, y1)) = board.bounds();
                let rows = (y0..=y1)
                    .map(|y| (x0..=x1).map(|x| board.at((x, y))).collect())
                    .collect();
                Layout::square(rows, width)
            }
            Tiling::Hex(Orientation::Flat) => Layout::hex_flat(board),
            Tiling::Hex(Orientation::Pointy) => Layout::hex_pointy(board),
        }
    }

    /// Square style: `[..]` per cell, rows top to bottom; `None` leaves a blank.
    pub fn square(rows: Vec<Vec<Option<Cell>>>, width: usize) -> Layout {
        let mut lines = Vec::new();
        let mut slots = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            let mut line = Vec::new();
            for cell in row {
                match cell {
                    Some(c) => {
                        line.push('[');
                        slots.push((*c, r, line.len()));
                        line.extend(std::iter::repeat_n(' ', width));
                        line.push(']');
                    }
                    None => line.extend(std::iter::repeat_n(' ', width + 2)),
                }
            }
            lines.push(line);
        }
        Layout {
            lines,
            slots,
            width,
        }
    }

    /// Flat-topped hexagons: ` __ ` over `/xx\` over `\__/`, files three columns apart.
    fn hex_flat(board: &Board) -> Layout {
        let ((x0, y0), (x1, y1)) = board.bounds();
        let mut canvas = Canvas::new((y1 - y0 + 3) as usize, (3 * (x1 - x0) + 4) as usize);
        let mut slots = Vec::new();
        for c in board.cells() {
            let (x, y) = board.point(c);
            let (col, top) = ((3 * (x - x0)) as usize, (y - y0) as usize);
            canvas.put(top, col + 1, "__");
            canvas.put(top + 1, col, "/");
            canvas.put(top + 1, col + 3, "\\");
            canvas.put(top + 2, col, "\\__/");
            slots.push((c, top + 1, col + 1));
        }
        // Neighbours outline a hole inside the board; mark it so it does not pass for
        // an empty cell.
        for (x, y) in board.hole_points().filter(|p| board.within_bounds(*p)) {
            canvas.put((y - y0) as usize + 1, (3 * (x - x0)) as usize + 1, HOLE);
        }
        Layout {
            lines: canvas.lines,
            slots,
            width: 2,
        }
    }

    /// Pointy-topped hexagons: ` / \ ` over `|xx |` over ` \ / `, two columns a half-cell.
    fn hex_pointy(board: &Board) -> Layout {
        let ((x0, y0), (x1, y1)) = board.bounds();
        let mut canvas = Canvas::new((2 * (y1 - y0) + 3) as usize, (2 * (x1 - x0) + 5) as usize);
        let mut slots = Vec::new();
        for c in board.cells() {
            let (x, y) = board.point(c);
            let (col, top) = ((2 * (x - x0)) as usize, (2 * (y - y0)) as usize);
            canvas.put(top, col + 1, "/ \\");
            canvas.put(top + 1, col, "|");
            canvas.put(top + 1, col + 4, "|");
            canvas.put(top + 2, col + 1, "\\ /");
            slots.push((c, top + 1, col + 1));
        }
        for (x, y) in board.hole_points().filter(|p| board.within_bounds(*p)) {
            canvas.put(2 * (y - y0) as usize + 1, 2 * (x - x0) as usize + 1, HOLE);
        }
        Layout {
            lines: canvas.lines,
            slots,
            width: 2,
        }
    }

    /// Each drawn cell with the line and column of its slot's first character.
    pub fn slots(&self) -> &[(Cell, usize, usize)] {
        &self.slots
    }

    /// Draws the diagram with each cell's text (padded or cut to the slot width).
    pub fn render(&self, text: impl Fn(Cell) -> Option<String>) -> String {
        let mut lines = self.lines.clone();
        for &(cell, line, col) in &self.slots {
            if let Some(t) = text(cell) {
                for (i, ch) in t
                    .chars()
                    .chain(std::iter::repeat(' '))
                    .take(self.width)
                    .enumerate()
                {
                    lines[line][col + i] = ch;
                }
            }
        }
        let mut out = String::new();
        for l in lines {
            let s: String = l.into_iter().collect();
            out.push_str(s.trim_end());
            out.push('\n');
        }
        out
    }

    /// Reads a pasted diagram: the text of every slot, trimmed. Lines may carry any
    /// indentation (pages often lose it), but their drawing must match the board's.
    /// Each slot comes with its line (after leading blank lines) and its character column.
    pub fn read(&self, text: &str) -> Result<Vec<ReadSlot>, DiagramError> {
        let given: Vec<&str> = trim_blank_lines(text);
        if given.len() != self.lines.len() {
            return Err(DiagramError {
                line: None,
                message: format!(
                    "the diagram has {} lines, but this board is drawn with {}",
                    given.len(),
                    self.lines.len()
                ),
            });
        }
        let mut shifts = Vec::new();
        for (i, (g, want)) in given.iter().zip(&self.lines).enumerate() {
            let g: Vec<char> = g.trim_end().chars().collect();
            let want_lead = want.iter().take_while(|c| **c == ' ').count() as isize;
            let g_lead = g.iter().take_while(|c| c.is_whitespace()).count() as isize;
            let shift = g_lead - want_lead;
            let mut blanked: Vec<char> = g.clone();
            for &(_, _, col) in self.slots.iter().filter(|s| s.1 == i) {
                for k in 0..self.width {
                    let at = col as isize + shift + k as isize;
                    if at >= 0 && (at as usize) < blanked.len() {
                        blanked[at as usize] = ' ';
                    }
                }
            }
            let got: String = blanked.iter().collect::<String>().trim().to_string();
            let expect: String = want.iter().collect::<String>().trim().to_string();
            if got != expect {
                return Err(DiagramError {
                    line: Some(i),
                    message: format!("this line should look like `{expect}`"),
                });
            }
            shifts.push(shift);
        }
        let mut out = Vec::new();
        for &(cell, line, col) in &self.slots {
            let chars: Vec<char> = given[line].chars().collect();
            let start = col as isize + shifts[line];
            let t: String = (0..self.width)
                .filter_map(|k| {
                    usize::try_from(start + k as isize)
                        .ok()
                        .and_then(|i| chars.get(i))
                })
                .collect();
            let column = (start.max(0) as usize) + t.len() - t.trim_start().len();
            out.push(ReadSlot {
                cell,
                text: t.trim().to_string(),
                line,
                column,
            });
        }
        Ok(out)
    }
}

/// The lines between the first and the last that are not blank.
pub fn trim_blank_lines(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    let first = lines
        .iter()
        .position(|l| !l.trim().is_empty())
        .unwrap_or(lines.len());
    let last = lines
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .map_or(first, |i| i + 1);
    lines[first..last].to_vec()
}

struct Canvas {
    lines: Vec<Vec<char>>,
}

impl Canvas {
    fn new(height: usize, width: usize) -> Canvas {
        Canvas {
            lines: vec![vec![' '; width]; height],
        }
    }
    fn put(&mut self, line: usize, col: usize, s: &str) {
        for (i, ch) in s.chars().enumerate() {
            self.lines[line][col + i] = ch;
        }
    }
}

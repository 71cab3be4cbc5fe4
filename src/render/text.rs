//! Boards for the terminal: the rule pages' drawing with the scheme's labels along the
//! edges, the last move marked, and colour when asked for.

use super::Layout;
use crate::geometry::{Board, Cell, Orientation, Tiling};
use crate::model::{Placed, Variant};

const RESET: &str = "\x1b[0m";
const LABEL: &str = "\x1b[2m";
const LAST: &str = "\x1b[43;30m";
/// Piece colours by turn order: bold, then bold red, blue and green.
const PLAYERS: [&str; 4] = ["\x1b[1m", "\x1b[1;31m", "\x1b[1;34m", "\x1b[1;32m"];
/// What an emptied start cell of the last move shows.
const LEFT: &str = "..";
/// What a walled-off cell shows.
const WALL: &str = "##";
/// Blank lines and columns around the drawing where labels may go, at the least.
const PAD: usize = 6;

/// What a character is drawn as.
#[derive(Clone, Copy, PartialEq)]
enum Ink {
    Plain,
    Label,
    Last,
    Player(usize),
}

/// The whole board with pieces, walls (`##`), labels along the edges and the last move
/// marked (its emptied start cell shows `..`); ANSI colours when `colour`.
pub fn labelled_board(
    variant: &Variant,
    pieces: &[Placed],
    walls: &[Cell],
    last: Option<(Cell, Cell)>,
    colour: bool,
) -> String {
    let board = &variant.board;
    let layout = Layout::whole(board, 2);
    let drawn = layout.render(|c| {
        pieces
            .iter()
            .find(|p| p.cell == c)
            .map(|p| variant.code_for(p.piece, p.player))
            .or_else(|| walls.contains(&c).then(|| WALL.to_string()))
            .or_else(|| (last.map(|l| l.0) == Some(c)).then(|| LEFT.to_string()))
    });
    let lines: Vec<&str> = drawn.lines().collect();
    // Room for the longest label, however long its numbers run.
    let longest = board
        .cells()
        .map(|c| board.name(c).len())
        .max()
        .unwrap_or(0);
    let pad = PAD.max(longest + 3);
    let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) + 2 * pad;
    let mut grid: Vec<Vec<(char, Ink)>> =
        vec![vec![(' ', Ink::Plain); width]; lines.len() + 2 * pad];
    for (i, l) in lines.iter().enumerate() {
        for (j, ch) in l.chars().enumerate() {
            grid[i + pad][j + pad].0 = ch;
        }
    }
    let slots: Vec<(Cell, usize, usize)> = layout
        .slots()
        .iter()
        .map(|&(c, l, col)| (c, l + pad, col + pad))
        .collect();
    for &(c, l, col) in &slots {
        let ink = if last.is_some_and(|(a, b)| a == c || b == c) {
            Ink::Last
        } else if let Some(p) = pieces.iter().find(|p| p.cell == c) {
            Ink::Player(p.player.0 as usize)
        } else {
            continue;
        };
        for k in 0..2 {
            grid[l][col + k].1 = ink;
        }
    }
    place_labels(board, &slots, &mut grid);
    finish(grid, colour)
}

/// Columns and lines per lattice unit in each drawing style.
fn steps(board: &Board) -> (f64, f64) {
    match board.shape.tiling() {
        Tiling::Square => (4.0, 1.0),
        Tiling::Hex(Orientation::Flat) => (3.0, 1.0),
        Tiling::Hex(Orientation::Pointy) => (2.0, 2.0),
    }
}

/// Writes each label of the scheme once, outside the cell at the back end of its line
/// (or, counting within lines, left of its leftmost cell), moving out until it is clear.
fn place_labels(board: &Board, slots: &[(Cell, usize, usize)], grid: &mut [Vec<(char, Ink)>]) {
    let (cx, cy) = steps(board);
    // Visual units: a character is about twice as tall as it is wide.
    let seen = |(dx, dy): (i32, i32)| (dx as f64 * cx, dy as f64 * cy * 2.0);
    let parts = &board.scheme.parts;
    for (i, part) in parts.iter().enumerate() {
        let along = if part.within {
            &parts[1 - i].along
        } else {
            &part.along
        };
        let Some(d) = board.parse_direction(along) else {
            continue;
        };
        let d = board.direction(d);
        let (ax, ay) = seen((d.dx, d.dy));
        let len = (ax * ax + ay * ay).sqrt();
        let (ox, oy) = if part.within {
            (ay / len, -ax / len)
        } else {
            (-ax / len, -ay / len)
        };
        let mut groups: Vec<(String, Vec<(usize, usize)>)> = Vec::new();
        for &(c, l, col) in slots.iter().filter(|(c, ..)| labelled(board, *c)) {
            let Some(label) = part_label(board, board.name(c), i) else {
                return;
            };
            match groups.iter_mut().find(|(g, _)| *g == label) {
                Some((_, at)) => at.push((l, col)),
                None => groups.push((label, vec![(l, col)])),
            }
        }
        for (label, at) in groups {
            let out = |&(l, col): &(usize, usize)| col as f64 * ox + l as f64 * 2.0 * oy;
            let &(l, col) = at
                .iter()
                .max_by(|a, b| out(a).total_cmp(&out(b)))
                .expect("a label names cells");
            let n = label.chars().count();
            for half in 2..12 {
                let k = len * half as f64 / 2.0;
                let line = (l as f64 + oy * k / 2.0).round();
                let start = (col as f64 + ox * k).round();
                if line < 0.0 || start < 1.0 {
                    break;
                }
                let (line, start) = (line as usize, start as usize);
                let row = &grid[line.min(grid.len() - 1)];
                if line >= grid.len() || start + n + 1 > row.len() {
                    break;
                }
                if row[start - 1..start + n + 1].iter().all(|(c, _)| *c == ' ') {
                    for (k, ch) in label.chars().enumerate() {
                        grid[line][start + k] = (ch, Ink::Label);
                    }
                    break;
                }
            }
        }
    }
}

/// Whether the scheme's labels name the cell: extra cells carry names of their own.
pub fn labelled(board: &Board, c: Cell) -> bool {
    !board.is_extra(c)
}

/// One part of a cell's name (see [`Scheme::split`](crate::geometry::Scheme::split)).
pub fn part_label(board: &Board, name: &str, part: usize) -> Option<String> {
    let (a, b) = board.scheme.split(name)?;
    Some(if part == 0 { a } else { b }.to_string())
}

/// The grid as text without the unused padding, in colour when asked.
fn finish(grid: Vec<Vec<(char, Ink)>>, colour: bool) -> String {
    let used = |row: &Vec<(char, Ink)>| row.iter().any(|(c, _)| *c != ' ');
    let first = grid.iter().position(used).unwrap_or(0);
    let last = grid.iter().rposition(used).map_or(first, |i| i + 1);
    let rows = &grid[first..last];
    let indent = rows
        .iter()
        .filter(|r| used(r))
        .map(|r| r.iter().take_while(|(c, _)| *c == ' ').count())
        .min()
        .unwrap_or(0);
    let mut out = String::new();
    for row in rows {
        let row = &row[indent.min(row.len())..];
        let end = row
            .iter()
            .rposition(|(c, _)| *c != ' ')
            .map_or(0, |i| i + 1);
        let mut ink = Ink::Plain;
        for &(ch, k) in &row[..end] {
            if colour && k != ink {
                if ink != Ink::Plain {
                    out += RESET;
                }
                out += match k {
                    Ink::Plain => "",
                    Ink::Label => LABEL,
                    Ink::Last => LAST,
                    Ink::Player(p) => PLAYERS[p % PLAYERS.len()],
                };
                ink = k;
            }
            out.push(ch);
        }
        if colour && ink != Ink::Plain {
            out += RESET;
        }
        out.push('\n');
    }
    out
}

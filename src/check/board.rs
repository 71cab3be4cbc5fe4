//! The board statement, its coordinate scheme and holes.

use crate::diagnostic::Diagnostic;
use crate::geometry::{
    Board, BoardError, Dir, Labels, Lean, Orientation, Part, Point, Scheme, SchemeError, Shape,
};
use crate::syntax::{BoardShape, CoordinatesDecl, LineFamily, Name, Span, Spanned, Statement};

pub(super) fn check_board(statements: &[Statement], out: &mut Vec<Diagnostic>) -> Option<Board> {
    let boards: Vec<_> = statements
        .iter()
        .filter_map(|s| {
            if let Statement::Board(b) = s {
                Some(b)
            } else {
                None
            }
        })
        .collect();
    let Some(first) = boards.first() else {
        out.push(
            Diagnostic::error(
                "variantlab::missing_board",
                Span::new(0, 0),
                "the variant has no board",
            )
            .help("add a line such as `board square 8 by 8` or `board hexagon side 6 flat-topped`"),
        );
        return None;
    };
    for extra in &boards[1..] {
        out.push(
            Diagnostic::error(
                "variantlab::duplicate_board",
                extra.span,
                "a second board statement",
            )
            .label("the board is already given")
            .help("a variant has one board; remove this line"),
        );
    }
    let shape = match &first.node {
        BoardShape::Square { width, height } => {
            for n in [width, height] {
                if n.node == 0 {
                    out.push(
                        Diagnostic::error(
                            "variantlab::board_size",
                            n.span,
                            "a board needs at least one row and one file",
                        )
                        .label("zero"),
                    );
                    return None;
                }
            }
            Shape::Square {
                width: width.node,
                height: height.node,
            }
        }
        BoardShape::Hexagon { side, pointy } => {
            if side.node == 0 {
                out.push(
                    Diagnostic::error(
                        "variantlab::board_size",
                        side.span,
                        "a hexagon needs at least one cell a side",
                    )
                    .label("zero"),
                );
                return None;
            }
            let orientation = if *pointy {
                Orientation::Pointy
            } else {
                Orientation::Flat
            };
            Shape::Hexagon {
                side: side.node,
                orientation,
            }
        }
        BoardShape::Parallelogram {
            width,
            height,
            pointy,
            lean,
        } => {
            for n in [width, height] {
                if n.node == 0 {
                    out.push(
                        Diagnostic::error(
                            "variantlab::board_size",
                            n.span,
                            "a board needs at least one row and one cell a row",
                        )
                        .label("zero"),
                    );
                    return None;
                }
            }
            let (orientation, leans) = if *pointy {
                (Orientation::Pointy, [Lean::NorthEast, Lean::NorthWest])
            } else {
                (Orientation::Flat, [Lean::NorthEast, Lean::SouthEast])
            };
            let Some(lean) = leans
                .into_iter()
                .find(|l| l.name().eq_ignore_ascii_case(&lean.node))
            else {
                let [a, b] = leans.map(Lean::name);
                out.push(
                    Diagnostic::error(
                        "variantlab::board_lean",
                        lean.span,
                        format!("a {orientation} parallelogram cannot lean `{}`", lean.node),
                    )
                    .label("not a slanting side")
                    .help(format!(
                        "its slanting sides run `{a}` or `{b}`: each row sits half a cell that way from the one before"
                    )),
                );
                return None;
            };
            Shape::Parallelogram {
                width: width.node,
                height: height.node,
                orientation,
                lean,
            }
        }
    };
    let coordinates = statements.iter().find_map(|s| {
        if let Statement::Coordinates(c) = s {
            Some(c)
        } else {
            None
        }
    });
    let scheme = match coordinates {
        None => Scheme::default_for(shape),
        Some(decl) => check_scheme(decl, shape, out)?,
    };
    // A scheme that cannot name the cells is reported once, before holes use it.
    if let Err(BoardError::Scheme(e)) = Board::new(shape, scheme.clone(), &[]) {
        let parts: Vec<Span> =
            coordinates.map_or(vec![], |c| c.node.parts.iter().map(|p| p.span).collect());
        out.push(scheme_error(
            &e,
            &parts,
            coordinates.map_or(first.span, |c| c.span),
        ));
        return None;
    }
    let mut holes = Vec::new();
    let whole = Board::new(shape, scheme.clone(), &[]);
    let listed: Vec<&(Name, Option<Name>)> = statements
        .iter()
        .filter_map(|s| match s {
            Statement::Holes(names) => Some(names),
            _ => None,
        })
        .flatten()
        .collect();
    let words: Vec<&str> = listed
        .iter()
        .flat_map(|(a, b)| std::iter::once(a).chain(b))
        .map(|n| n.node.as_str())
        .collect();
    let mut located = Board::locate_all_in_shape(shape, &scheme, &words).into_iter();
    let extra = extra_names(statements);
    let unknown = |n: &Name, out: &mut Vec<Diagnostic>| {
        if extra.iter().any(|e| e.eq_ignore_ascii_case(&n.node)) {
            out.push(
                Diagnostic::error(
                    "variantlab::cell_off_board",
                    n.span,
                    format!("`{}` is an extra cell, not a cell of the board's shape", n.node),
                )
                .label("not in the shape")
                .help("holes take cells out of the shape; to do without an extra cell, leave it out of `extra cells`"),
            );
        } else if let Ok(b) = &whole {
            out.push(off_board(n.span, &n.node, b));
        }
    };
    for (first, last) in listed {
        let from = located.next().flatten();
        let to = last.as_ref().map(|_| located.next().flatten());
        let points = match (from, to) {
            (None, _) => {
                unknown(first, out);
                if let (Some(l), Some(None)) = (last, to) {
                    unknown(l, out);
                }
                continue;
            }
            (Some(_), Some(None)) => {
                unknown(last.as_ref().expect("a range"), out);
                continue;
            }
            (Some(a), None) => vec![a],
            (Some(a), Some(Some(b))) => {
                let Ok(board) = &whole else { continue };
                match line_between(board, a, b) {
                    Some(line) => line,
                    None => {
                        let l = last.as_ref().expect("a range");
                        out.push(
                            Diagnostic::error(
                                "variantlab::hole_range",
                                Span::new(first.span.start, l.span.end),
                                format!(
                                    "`{}` and `{}` do not lie on one straight line of the board",
                                    first.node, l.node
                                ),
                            )
                            .label("not in a line")
                            .help(
                                "a range runs along one direction of the board, as a rank, a \
                                 file or a diagonal does: name its two ends, or list the cells",
                            ),
                        );
                        continue;
                    }
                }
            }
        };
        for p in points {
            if holes.contains(&p) {
                out.push(
                    Diagnostic::warning(
                        "variantlab::duplicate_hole",
                        first.span,
                        format!(
                            "`{}` is already a hole",
                            match last {
                                None => first.node.clone(),
                                Some(_) => board_name(&whole, p, &first.node),
                            }
                        ),
                    )
                    .label("listed twice"),
                );
            } else {
                holes.push(p);
            }
        }
    }
    let extras = match &whole {
        Ok(board) => extra_cells(statements, board, &scheme, out),
        Err(_) => vec![],
    };
    match Board::with_extras(shape, scheme, &holes, &extras) {
        Ok(b) => Some(b),
        Err(e) => {
            let help = match e {
                BoardError::TooManyCells(_) => {
                    "use a smaller board, or take cells out with `holes`: a 32 by 32 square and a hexagon of side 18 fit"
                }
                _ => "check the board statement",
            };
            out.push(
                Diagnostic::error("variantlab::board_size", first.span, e.to_string())
                    .label("this board")
                    .help(help),
            );
            None
        }
    }
}

/// The points from `a` to `b`, both included, along one direction of the board:
/// the direction that gets there in the fewest steps, if any does.
fn line_between(board: &Board, a: Point, b: Point) -> Option<Vec<Point>> {
    (0..board.directions().len() as u8)
        .map(Dir)
        .filter_map(|d| {
            let mut line = vec![a];
            let mut p = a;
            while p != b {
                p = board.shift(p, d);
                board.at(p)?;
                line.push(p);
            }
            Some(line)
        })
        .min_by_key(|line| line.len())
}

/// A hole's name for a message: the board's, or what was written.
fn board_name(board: &Result<Board, BoardError>, p: Point, written: &str) -> String {
    board
        .as_ref()
        .ok()
        .and_then(|b| b.at(p))
        .map_or(written.to_string(), |c| {
            board.as_ref().unwrap().name(c).to_string()
        })
}

/// A cell name that names no cell; the help names the board's cells nearest to it.
pub(super) fn off_board(span: Span, name: &str, board: &Board) -> Diagnostic {
    let nearest = nearest_cells(name, board);
    let written = match nearest.as_slice() {
        [one] => format!("; the nearest cell is `{one}`"),
        [a, b] => format!("; the nearest cells are `{a}` and `{b}`"),
        _ => {
            let mut cells = board.cells();
            let first = cells.next().map(|c| board.name(c).to_string());
            let last = cells.last().map(|c| board.name(c).to_string());
            match (first, last) {
                (Some(f), Some(l)) => format!("; its cells are written `{f}` to `{l}`"),
                (Some(f), None) => format!("; its one cell is `{f}`"),
                _ => String::new(),
            }
        }
    };
    Diagnostic::error(
        "variantlab::cell_off_board",
        span,
        format!("`{name}` is not a cell of this board"),
    )
    .label("not on the board")
    .help(format!("the board is a {}{written}", board.shape))
}

/// A cell name's letters and number, in either order (`e10`, `6f`).
fn name_parts(name: &str) -> Option<(String, u64)> {
    let name = name.to_ascii_lowercase();
    let split =
        name.find(|c: char| c.is_ascii_digit() != name.starts_with(|d: char| d.is_ascii_digit()))?;
    let (a, b) = name.split_at(split);
    let (letters, digits) = if a.starts_with(|c: char| c.is_ascii_digit()) {
        (b, a)
    } else {
        (a, b)
    };
    let all = |s: &str, f: fn(&char) -> bool| !s.is_empty() && s.chars().all(|c| f(&c));
    if !all(letters, char::is_ascii_lowercase) || !all(digits, char::is_ascii_digit) {
        return None;
    }
    Some((letters.to_string(), digits.parse().ok()?))
}

/// Letters as a count: `a` 1, `z` 26, `aa` 27.
fn letters_rank(letters: &str) -> u64 {
    letters.bytes().fold(0u64, |n, b| {
        n.saturating_mul(26).saturating_add(u64::from(b - b'a' + 1))
    })
}

/// The board's cells nearest to an off-board name: on the line of its letters, the one
/// whose number is closest, and on the line of its number, the one whose letters are
/// closest (at most two names, once each).
fn nearest_cells(name: &str, board: &Board) -> Vec<String> {
    let Some((letters, number)) = name_parts(name) else {
        return vec![];
    };
    let cells: Vec<(String, u64, &str)> = board
        .cells()
        .filter_map(|c| {
            let (l, n) = name_parts(board.name(c))?;
            Some((l, n, board.name(c)))
        })
        .collect();
    let same_letters = cells
        .iter()
        .filter(|(l, _, _)| *l == letters)
        .min_by_key(|(_, n, _)| n.abs_diff(number));
    let same_number = cells
        .iter()
        .filter(|(_, n, _)| *n == number)
        .min_by_key(|(l, _, _)| letters_rank(l).abs_diff(letters_rank(&letters)));
    let mut found: Vec<String> = Vec::new();
    for (_, _, n) in same_letters.into_iter().chain(same_number) {
        if !found.iter().any(|f| f == n) {
            found.push(n.to_string());
        }
    }
    found
}

/// Reads the two parts of a `coordinates` statement.
fn check_scheme(
    decl: &Spanned<CoordinatesDecl>,
    shape: Shape,
    out: &mut Vec<Diagnostic>,
) -> Option<Scheme> {
    let board = Board::new(shape, Scheme::default_for(shape), &[]).ok();
    let known = |n: &Name, out: &mut Vec<Diagnostic>| -> bool {
        match &board {
            Some(b) if b.parse_direction(&n.node).is_none() => {
                out.push(super::declare::unknown_direction(b, n));
                false
            }
            _ => true,
        }
    };
    let mut parts = Vec::new();
    for p in &decl.node.parts {
        let along = match &p.node.along {
            LineFamily::Files => "N".to_string(),
            LineFamily::Ranks => "E".to_string(),
            LineFamily::Along(n) if known(n, out) => n.node.clone(),
            LineFamily::Along(_) => return None,
        };
        let from = match p.node.side.node.to_ascii_lowercase().as_str() {
            "left" => "W".to_string(),
            "right" => "E".to_string(),
            "top" => "N".to_string(),
            "bottom" => "S".to_string(),
            _ if known(&p.node.side, out) => p.node.side.node.clone(),
            _ => return None,
        };
        let labels = match &p.node.letters {
            Some(skip) => Labels::Letters {
                skip: skip.iter().map(|c| c.to_ascii_lowercase()).collect(),
            },
            None => Labels::Numbers {
                first: p.node.first.as_ref().map_or(1, |f| f.node),
            },
        };
        if let (Some(_), Some(first)) = (&p.node.letters, &p.node.first) {
            out.push(
                Diagnostic::error(
                    "variantlab::bad_scheme",
                    first.span,
                    "only numbered lines can start at another label",
                )
                .label("lettered lines start at `a`")
                .help("letters start at `a`: leave a letter out with `skipping`, or number these lines"),
            );
            return None;
        }
        parts.push(Part {
            along,
            from,
            labels,
            within: p.node.within,
        });
    }
    let [first, second]: [Part; 2] = parts.try_into().ok()?;
    Some(Scheme {
        parts: [first, second],
    })
}

/// Each cell of the `extra cells` statements as written: its name, the direction and
/// the cell it lies beyond.
fn extra_entries(statements: &[Statement]) -> impl Iterator<Item = &(Name, Name, Name)> {
    statements
        .iter()
        .filter_map(|s| match s {
            Statement::Extra(cells) => Some(cells),
            _ => None,
        })
        .flatten()
}

/// The names `extra cells` gives, as written.
fn extra_names(statements: &[Statement]) -> Vec<&str> {
    extra_entries(statements)
        .map(|(n, _, _)| n.node.as_str())
        .collect()
}

/// The cells of `extra cells` statements, each a step beyond a cell of the whole
/// shape; any that is unknown, inside the shape or named twice is reported instead.
fn extra_cells(
    statements: &[Statement],
    whole: &Board,
    scheme: &Scheme,
    out: &mut Vec<Diagnostic>,
) -> Vec<(Point, String)> {
    let mut extras: Vec<(Point, String)> = vec![];
    let names = extra_names(statements);
    for (name, dir, base) in extra_entries(statements) {
        let Some(from) = whole.parse_cell(&base.node) else {
            // Beyond another extra cell: say so rather than suggest a cell of the shape.
            if names.iter().any(|n| n.eq_ignore_ascii_case(&base.node)) {
                out.push(
                    Diagnostic::error(
                        "variantlab::extra_cell",
                        base.span,
                        format!(
                            "`{}` is an extra cell: an extra cell lies beyond a cell of the board's shape",
                            base.node
                        ),
                    )
                    .label("not a cell of the shape")
                    .help("name the cell of the shape this one lies beyond"),
                );
            } else {
                out.push(off_board(base.span, &base.node, whole));
            }
            continue;
        };
        let Some(d) = whole.parse_direction(&dir.node) else {
            out.push(super::declare::unknown_direction(whole, dir));
            continue;
        };
        let at = whole.shift(whole.point(from), d);
        let taken = |why: String, label: &str| {
            Diagnostic::error("variantlab::extra_cell", name.span, why)
                .label(label.to_string())
                .help(
                    "an extra cell lies outside the board's shape and has a name no other cell has",
                )
        };
        if let Some(c) = whole.at(at) {
            out.push(taken(
                format!(
                    "`{}` would lie on `{}`, a cell of the board",
                    name.node,
                    whole.name(c)
                ),
                "not beyond the board",
            ));
        } else if Board::locate_in_shape(whole.shape, scheme, &name.node).is_some()
            || extras
                .iter()
                .any(|(_, n)| n.eq_ignore_ascii_case(&name.node))
        {
            out.push(taken(
                format!("`{}` already names a cell", name.node),
                "a name taken",
            ));
        } else if extras.iter().any(|(p, _)| *p == at) {
            out.push(taken(
                format!("`{}` would lie where another extra cell lies", name.node),
                "the same place",
            ));
        } else {
            extras.push((at, name.node.clone()));
        }
    }
    extras
}

/// A scheme that cannot name the board's cells, pointed at the part at fault.
fn scheme_error(e: &SchemeError, parts: &[Span], whole: Span) -> Diagnostic {
    let at = |i: usize| parts.get(i).copied().unwrap_or(whole);
    let (span, help) = match e {
        SchemeError::UnknownDirection { part, .. } => {
            (at(*part), "use one of the board's compass directions")
        }
        SchemeError::SideAlongLines { part } => (
            at(*part),
            "count lines from a side they do not run towards: files from the left or right, ranks from the top or bottom",
        ),
        SchemeError::SideAcrossLine { part } => (
            at(*part),
            "count along a line from one of its ends: along files from the top or bottom",
        ),
        SchemeError::BothWithin => (whole, "keep `of each ...` on one part only"),
        SchemeError::TooFewLetters { part, .. } => (
            at(*part),
            "number these lines instead, or skip fewer letters",
        ),
        SchemeError::SameName(_) => (
            whole,
            "letter one part and number the other, so names cannot run together",
        ),
    };
    Diagnostic::error("variantlab::bad_scheme", span, e.to_string())
        .label("cannot name the cells this way")
        .help(help)
}

//! The board statement, its coordinate scheme and holes.

use crate::diagnostic::Diagnostic;
use crate::geometry::{Board, BoardError, Orientation, Scheme, Shape};
use crate::syntax::{BoardShape, Span, Statement};

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
    };
    let scheme = match statements.iter().find_map(|s| {
        if let Statement::Coordinates(c) = s {
            Some(c)
        } else {
            None
        }
    }) {
        None => Scheme::default_for(shape),
        Some(name) => match Scheme::from_name(&name.node) {
            Some(s) if s.fits(shape) => s,
            Some(s) => {
                let fitting: Vec<&str> = Scheme::ALL
                    .iter()
                    .filter(|x| x.fits(shape))
                    .map(|x| x.name())
                    .collect();
                out.push(
                    Diagnostic::error(
                        "variantlab::scheme_mismatch",
                        name.span,
                        format!("{} coordinates do not fit a {shape} board", s.name()),
                    )
                    .label("wrong scheme for this board")
                    .help(format!("for this board use `{}`", fitting.join("` or `"))),
                );
                return None;
            }
            None => {
                let all: Vec<&str> = Scheme::ALL.iter().map(|x| x.name()).collect();
                out.push(
                    Diagnostic::error(
                        "variantlab::unknown_scheme",
                        name.span,
                        format!("there is no coordinate scheme named `{}`", name.node),
                    )
                    .label("unknown scheme")
                    .help(
                        match super::closest(all.iter().copied(), &name.node) {
                            Some(w) => format!("did you mean `{w}`?"),
                            None => format!("the schemes are `{}`", all.join("`, `")),
                        },
                    ),
                );
                return None;
            }
        },
    };
    let mut holes = Vec::new();
    for s in statements {
        if let Statement::Holes(names) = s {
            for n in names {
                match Board::locate_in_shape(shape, scheme, &n.node) {
                    Some(p) if holes.contains(&p) => out.push(
                        Diagnostic::warning(
                            "variantlab::duplicate_hole",
                            n.span,
                            format!("`{}` is already a hole", n.node),
                        )
                        .label("listed twice"),
                    ),
                    Some(p) => holes.push(p),
                    None => out.push(off_board(n.span, &n.node, shape)),
                }
            }
        }
    }
    match Board::new(shape, scheme, &holes) {
        Ok(b) => Some(b),
        Err(e) => {
            let help = match e {
                BoardError::TooManyCells(_) => "use a smaller board",
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

pub(super) fn off_board(span: Span, name: &str, shape: Shape) -> Diagnostic {
    Diagnostic::error(
        "variantlab::cell_off_board",
        span,
        format!("`{name}` is not a cell of this board"),
    )
    .label("not on the board")
    .help(format!("the board is a {shape}"))
}

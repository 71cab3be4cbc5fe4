//! Lowering: pest pairs to the syntax tree, one `lower_*` function per rule.

use super::Rule;
use super::ast::*;
use super::end::{lower_end_rule, lower_kinds};
use super::pairs::*;
use crate::diagnostic::Diagnostic;

pub(super) fn lower_file(root: P, offset: usize, diagnostics: &mut Vec<Diagnostic>) -> File {
    let mut cx = Ctx {
        offset,
        diagnostics,
    };
    let statements = root
        .into_inner()
        .filter(content)
        .filter(|p| p.as_rule() != Rule::EOI)
        .map(|p| lower_statement(&mut cx, p))
        .collect();
    File {
        statements,
        skipped: Vec::new(),
    }
}

fn lower_statement(cx: &mut Ctx, p: P) -> Statement {
    let rule = p.as_rule();
    let span = cx.span(&p);
    let whole = p.clone();
    let mut inner = p.into_inner().filter(content);
    match rule {
        Rule::name_stmt => Statement::Name(cx.string(inner.next().unwrap())),
        Rule::inventor_stmt => Statement::Inventor(cx.string(inner.next().unwrap())),
        Rule::description_stmt => Statement::Description(cx.string(inner.next().unwrap())),
        Rule::board_stmt => {
            Statement::Board(Spanned::new(lower_board(cx, inner.next().unwrap()), span))
        }
        Rule::coordinates_stmt => {
            let parts = inner.map(|p| lower_coordinate_part(cx, p)).collect();
            Statement::Coordinates(Spanned::new(CoordinatesDecl { parts }, span))
        }
        Rule::holes_stmt => Statement::Holes(
            inner
                .map(|h| {
                    let mut cells = h.into_inner().filter(content);
                    let first = cx.name(&cells.next().unwrap());
                    (first, cells.next().map(|c| cx.name(&c)))
                })
                .collect(),
        ),
        Rule::extra_stmt => {
            // Each extra cell: its name, the direction, the cell it lies beyond.
            let names: Vec<Name> = inner.map(|n| cx.name(&n)).collect();
            Statement::Extra(
                names
                    .chunks(3)
                    .map(|c| (c[0].clone(), c[1].clone(), c[2].clone()))
                    .collect(),
            )
        }
        Rule::player_stmt => Statement::Player(lower_player(cx, inner)),
        Rule::option_stmt => Statement::Option(lower_option(cx, inner)),
        Rule::tag_stmt => Statement::Tag(lower_tag(cx, inner)),
        Rule::piece_stmt => Statement::Piece(lower_piece(cx, inner)),
        Rule::setup_stmt => Statement::Setup(lower_setup(cx, inner.next().unwrap())),
        Rule::end_stmt => Statement::End(inner.filter_map(|r| lower_end_rule(cx, r)).collect()),
        Rule::zone_stmt => Statement::Zone(lower_zone(cx, inner)),
        Rule::castling_stmt => Statement::Castling(lower_castling(cx, inner, span)),
        Rule::hand_stmt => {
            let options: Vec<&str> = inner
                .filter(|p| p.as_rule() == Rule::hand_option)
                .map(|p| p.as_str().trim_start_matches(',').trim_start())
                .collect();
            let has = |first: &str| options.iter().any(|o| o.starts_with(first));
            Statement::Hand(Spanned::new(
                HandDecl {
                    mobile_only: has("never"),
                    keep_promoted: has("promoted"),
                    either_side: has("dropped"),
                },
                span,
            ))
        }
        Rule::fen_stmt if whole.as_str().ends_with("SFEN") => {
            Statement::Sfen(Spanned::new((), span))
        }
        Rule::fen_stmt if whole.as_str().ends_with("PDN") => Statement::Pdn(Spanned::new((), span)),
        Rule::fen_stmt => Statement::Fen(Spanned::new((), span)),
        Rule::pass_stmt => {
            let rule = inner.next().map(|p| p.as_rule());
            Statement::Pass(
                Spanned::new(rule == Some(Rule::except_in_check), span),
                rule == Some(Rule::pass_if_stuck),
            )
        }
        Rule::flip_stmt => {
            // The clauses' fixed words tell them apart: all of the statement's pairs.
            let parts: Vec<_> = whole.clone().into_inner().collect();
            let which = match parts.iter().any(|p| p.as_rule() == Rule::flip_next) {
                true => Flip::Next,
                false => Flip::Enclosed,
            };
            let captured = parts
                .iter()
                .any(|p| p.as_rule() == Rule::flip_effect && p.as_str().starts_with("are"));
            let clauses = enclosure_clauses(cx, &parts);
            Statement::Flip(Spanned::new(
                FlipStmt {
                    which,
                    captured,
                    clauses,
                },
                span,
            ))
        }
        Rule::obligation_stmt => {
            use crate::terms::{MoveKind, Obligation};
            let kind = match whole.as_str().split_whitespace().next() {
                Some("captures") => MoveKind::Capture,
                Some("drops") => MoveKind::Drop,
                Some("checks") => MoveKind::Check,
                _ => MoveKind::Promotion,
            };
            use crate::terms::Preferring;
            let mut prefer = Vec::new();
            for p in (whole.clone().into_inner()).filter(|p| p.as_rule() == Rule::preference) {
                let text = p.as_str();
                let how = if text.starts_with("by") {
                    Preferring::By
                } else if text.ends_with("earliest") {
                    Preferring::Earliest
                } else {
                    Preferring::Most
                };
                let kinds = (p.clone().into_inner())
                    .filter(|k| k.as_rule() == Rule::preferred_kinds)
                    .flat_map(|k| k.into_inner())
                    .filter(|n| n.as_rule() == Rule::ident)
                    .map(|n| cx.name(&n))
                    .collect();
                prefer.push(Spanned::new((how, kinds), cx.span(&p)));
            }
            let compulsory = inner.any(|p| p.as_str() == "compulsory");
            Statement::Obligation(Spanned::new(
                ObligationDecl {
                    rule: Obligation { kind, compulsory },
                    prefer,
                },
                span,
            ))
        }
        Rule::gates_stmt => {
            let parts: Vec<P> = inner.collect();
            let only = whole.into_inner().any(|p| p.as_rule() == Rule::kw_only);
            Statement::Gates(cx.name(parts.last().unwrap()), only)
        }
        Rule::drops_stmt => {
            // Only the colour rule names kinds.
            let kinds: Vec<Name> = inner
                .filter(|p| p.as_rule() == Rule::ident)
                .map(|p| cx.name(&p))
                .collect();
            Statement::Drops(Spanned::new(
                match kinds.is_empty() {
                    true => DropsDecl::Castling,
                    false => DropsDecl::Colours(kinds),
                },
                span,
            ))
        }
        Rule::moved_wall_stmt => Statement::MovedWall(Spanned::new((), span)),
        Rule::counting_stmt => Statement::Counting(Spanned::new(
            inner
                .filter(|q| q.as_rule() == Rule::count_line)
                .map(|q| lower_count_line(cx, q))
                .collect(),
            span,
        )),
        Rule::drawing_stmt => Statement::Drawing(cx.name(&inner.next().unwrap())),
        Rule::points_stmt if whole.as_str().starts_with("pieces") => {
            Statement::Worth(lower_points(cx, inner))
        }
        Rule::points_stmt => Statement::Bonus(lower_points(cx, inner)),
        Rule::together_stmt => {
            let alone = whole.as_str().ends_with("alone");
            Statement::Royals(Spanned::new(
                if alone {
                    RoyalCheck::Alone
                } else {
                    RoyalCheck::Together
                },
                span,
            ))
        }
        Rule::clock_stmt => {
            let parts: Vec<P> = whole.into_inner().collect();
            Statement::Clock(
                Spanned::new(quiet_kinds(cx, &parts), span),
                parts.iter().any(|p| p.as_rule() == Rule::quiet_drop),
            )
        }
        Rule::explode_stmt => {
            let spared = inner
                .map(|e| {
                    let parts: Vec<P> = e.into_inner().filter(content).collect();
                    Spared {
                        around: parts.iter().any(|p| p.as_rule() == Rule::spared_around),
                        kinds: parts
                            .iter()
                            .filter(|p| p.as_rule() == Rule::ident)
                            .map(|p| cx.name(p))
                            .collect(),
                    }
                })
                .collect();
            Statement::Explode(Spanned::new(spared, span))
        }
        Rule::counterstrike_stmt => {
            let kinds = inner
                .filter(|n| n.as_rule() == Rule::ident)
                .map(|n| cx.name(&n))
                .collect();
            Statement::Counterstrike(Spanned::new(kinds, span))
        }
        r => unreachable!("not a statement: {r:?}"),
    }
}

fn lower_board(cx: &mut Ctx, p: P) -> BoardShape {
    let rule = p.as_rule();
    let mut inner = p.into_inner().filter(content);
    match rule {
        Rule::square_shape => {
            let width = cx.number(&inner.next().unwrap());
            let height = cx.number(&inner.next().unwrap());
            BoardShape::Square { width, height }
        }
        Rule::parallelogram_shape => {
            let width = cx.number(&inner.next().unwrap());
            let height = cx.number(&inner.next().unwrap());
            let pointy = inner.next().unwrap().as_str() == "pointy-topped";
            let lean = cx.name(&inner.next().unwrap());
            BoardShape::Parallelogram {
                width,
                height,
                pointy,
                lean,
            }
        }
        _ => {
            let side = cx.number(&inner.next().unwrap());
            let pointy = inner.next().unwrap().as_str() == "pointy-topped";
            BoardShape::Hexagon { side, pointy }
        }
    }
}

fn lower_coordinate_part(cx: &mut Ctx, p: P) -> Spanned<CoordinatePart> {
    let span = cx.span(&p);
    let mut part = CoordinatePart {
        along: LineFamily::Files,
        letters: None,
        side: Spanned::new(String::new(), span),
        within: false,
        first: None,
    };
    for q in p.into_inner().filter(content) {
        match q.as_rule() {
            Rule::line_family => {
                let f = q.into_inner().find(content).unwrap();
                part.along = match f.as_rule() {
                    Rule::files => LineFamily::Files,
                    Rule::ranks => LineFamily::Ranks,
                    _ => LineFamily::Along(cx.name(&f.into_inner().find(content).unwrap())),
                };
            }
            Rule::line_labels => {
                let l = q.into_inner().find(content).unwrap();
                if l.as_rule() == Rule::lettered {
                    part.letters = Some(
                        l.into_inner()
                            .filter(content)
                            .filter_map(|m| m.as_str().chars().next())
                            .collect(),
                    );
                }
            }
            Rule::side => part.side = cx.name(&q.into_inner().find(content).unwrap()),
            Rule::starting_at => {
                part.first = Some(cx.number(&q.into_inner().find(content).unwrap()))
            }
            _ => part.within = true,
        }
    }
    Spanned::new(part, span)
}

fn lower_player<'a>(cx: &mut Ctx, mut inner: impl Iterator<Item = P<'a>>) -> PlayerDecl {
    let name = cx.name(&inner.next().unwrap());
    let mut decl = PlayerDecl {
        name,
        forward: None,
        capitals: None,
    };
    for prop in inner {
        match prop.as_rule() {
            Rule::forward_prop => {
                decl.forward = Some(cx.name(&prop.into_inner().find(content).unwrap()))
            }
            _ => decl.capitals = Some(Spanned::new(prop.as_str() == "capitals", cx.span(&prop))),
        }
    }
    decl
}

fn lower_option<'a>(cx: &mut Ctx, mut inner: impl Iterator<Item = P<'a>>) -> OptionDecl {
    let name = cx.name(&inner.next().unwrap());
    let default = inner.next().unwrap().as_str() == "on";
    let about = inner.next().map(|s| cx.string(s).node);
    OptionDecl {
        name,
        default,
        about,
    }
}

fn lower_tag<'a>(cx: &mut Ctx, inner: impl Iterator<Item = P<'a>>) -> TagDecl {
    let mut decl = TagDecl {
        mark: Spanned::new('?', Span::default()),
        about: None,
        once_per_game: false,
    };
    for p in inner {
        match p.as_rule() {
            Rule::mark => decl.mark = lower_mark(cx, &p),
            Rule::string => decl.about = Some(cx.string(p).node),
            _ => decl.once_per_game = true,
        }
    }
    decl
}

fn lower_mark(cx: &mut Ctx, p: &P) -> Spanned<char> {
    Spanned::new(p.as_str().chars().next().unwrap_or('?'), cx.span(p))
}

fn lower_piece<'a>(cx: &mut Ctx, mut inner: impl Iterator<Item = P<'a>>) -> PieceDecl {
    let name = cx.name(&inner.next().unwrap());
    let code = cx.name(&inner.next().unwrap());
    let items = inner.map(|p| lower_piece_item(cx, p)).collect();
    PieceDecl { name, code, items }
}

fn lower_piece_item(cx: &mut Ctx, p: P) -> PieceItem {
    let span = cx.span(&p);
    let mut guard = None;
    let mut kind = PieceItemKind::NotAttacked;
    for q in p.into_inner().filter(content) {
        match q.as_rule() {
            Rule::guard => guard = Some(lower_guard(cx, q)),
            Rule::captured_only_by => {
                kind = PieceItemKind::CapturedOnlyBy(
                    q.into_inner()
                        .filter(content)
                        .map(|n| cx.name(&n))
                        .collect(),
                )
            }
            Rule::guarded_capture => {
                // Kinds before `from afar` capture; those after `other than` are spared.
                let (mut by, mut unless, mut after) = (Vec::new(), Vec::new(), false);
                for n in q.into_inner() {
                    match n.as_rule() {
                        Rule::unless_kw => after = true,
                        Rule::ident if after => unless.push(cx.name(&n)),
                        Rule::ident => by.push(cx.name(&n)),
                        _ => {}
                    }
                }
                kind = PieceItemKind::GuardedCapture { by, unless }
            }
            Rule::not_attacked => kind = PieceItemKind::NotAttacked,
            Rule::facing => {
                let n = q.into_inner().find(|n| n.as_rule() == Rule::ident).unwrap();
                kind = PieceItemKind::Facing(cx.name(&n))
            }
            Rule::royal => kind = PieceItemKind::Royal,
            Rule::check_bound => kind = PieceItemKind::CheckBound,
            Rule::moves_as => {
                kind = PieceItemKind::MovesAs(
                    q.into_inner()
                        .filter(content)
                        .map(|n| cx.name(&n))
                        .collect(),
                )
            }
            Rule::promotion => kind = PieceItemKind::Promotion(lower_promotion(cx, q)),
            Rule::drop_only => {
                let what = q.into_inner().find(content).unwrap();
                kind = PieceItemKind::NoDrop(match what.as_rule() {
                    Rule::drop_enclosing => NoDrop::Enclosing,
                    Rule::drop_first => {
                        NoDrop::FirstOn(cx.name(&what.into_inner().find(content).unwrap()))
                    }
                    _ => NoDrop::OutsideZone(cx.name(&what)),
                })
            }
            Rule::no_drop => {
                let r = q.into_inner().next().unwrap();
                let rule = r.as_rule();
                let mut names = r.into_inner();
                kind = PieceItemKind::NoDrop(match rule {
                    Rule::drop_file => {
                        let first = names.next().unwrap();
                        if first.as_rule() == Rule::number {
                            let n = cx.number(&first);
                            NoDrop::FileWith(cx.name(&names.next().unwrap()), Some(n))
                        } else {
                            NoDrop::FileWith(cx.name(&first), None)
                        }
                    }
                    Rule::drop_attacked => NoDrop::AttackedBy(cx.name(&names.next().unwrap())),
                    Rule::drop_zone => {
                        let mut names = names.filter(content);
                        NoDrop::InZone(cx.name(&names.next().unwrap()))
                    }
                    _ => match names.next().map(|n| n.as_rule()) {
                        Some(Rule::checkmate) => NoDrop::Checkmate,
                        _ => NoDrop::Check,
                    },
                })
            }
            Rule::drawn => kind = PieceItemKind::Drawn(lower_drawn(cx, q)),
            Rule::walling => {
                let r = q.into_inner().next().unwrap();
                let rule = r.as_rule();
                let any = r.clone().into_inner().any(|n| n.as_rule() == Rule::kw_any);
                let mut names = r
                    .into_inner()
                    .filter(|n| matches!(n.as_rule(), Rule::cell | Rule::ident))
                    .peekable();
                kind = PieceItemKind::Walling(match rule {
                    Rule::wall_petrify => WallingDecl::Capturing,
                    _ if !any => WallingDecl::Left,
                    _ => WallingDecl::Placed {
                        reach: names
                            .next_if(|n| n.as_rule() == Rule::ident)
                            .map(|n| cx.name(&n)),
                        except: names.map(|n| cx.name(&n)).collect(),
                    },
                })
            }
            _ => kind = PieceItemKind::Move(lower_move(cx, q)),
        }
    }
    PieceItem { guard, kind, span }
}

fn lower_drawn(cx: &mut Ctx, p: P) -> Drawn {
    let q = p.into_inner().find(content).unwrap();
    let rule = q.as_rule();
    let inner = q.into_inner().filter(content);
    if rule == Rule::drawn_as {
        let mut inner = inner.peekable();
        let set = inner
            .next_if(|n| n.as_rule() == Rule::ident)
            .map(|n| cx.name(&n));
        Drawn::As(set, inner.map(|s| cx.string(s)).collect())
    } else {
        Drawn::From(inner.map(|s| cx.string(s)).collect())
    }
}

fn lower_move(cx: &mut Ctx, p: P) -> MoveDecl {
    let mut decl = MoveDecl {
        legs: Vec::new(),
        clauses: Vec::new(),
    };
    for q in p.into_inner().filter(content) {
        match q.as_rule() {
            Rule::first_leg | Rule::next_leg => decl.legs.push(lower_leg(cx, q)),
            _ => decl.clauses.push(lower_clause(cx, q)),
        }
    }
    decl
}

fn lower_leg(cx: &mut Ctx, p: P) -> LegDecl {
    let span = cx.span(&p);
    let mut leg = LegDecl {
        mode: None,
        count: None,
        direct: false,
        directions: Spanned::new(
            DirectionsDecl {
                include: vec![],
                except: vec![],
            },
            span,
        ),
        span,
    };
    for q in p.into_inner().filter(content) {
        match q.as_rule() {
            Rule::mode => {
                let m = match q.as_str() {
                    "step" => Mode::Step,
                    "leap" => Mode::Leap,
                    _ => Mode::Slide,
                };
                leg.mode = Some(Spanned::new(m, cx.span(&q)));
            }
            Rule::count => leg.count = Some(lower_count(cx, q)),
            Rule::direct => leg.direct = true,
            _ => leg.directions = lower_directions(cx, q),
        }
    }
    leg
}

fn lower_count(cx: &mut Ctx, p: P) -> Spanned<Count> {
    let span = cx.span(&p);
    let more = p.clone().into_inner().any(|k| k.as_rule() == Rule::kw_more);
    let nums: Vec<u32> = p
        .into_inner()
        .filter(content)
        .map(|n| cx.number(&n).node)
        .collect();
    let count = Count {
        min: nums[0],
        max: if more { None } else { nums.last().copied() },
    };
    Spanned::new(count, span)
}

fn lower_directions(cx: &mut Ctx, p: P) -> Spanned<DirectionsDecl> {
    let span = cx.span(&p);
    let mut unions = p.into_inner().filter(content);
    let include = lower_union(cx, unions.next().unwrap());
    let except = unions
        .next()
        .map(|u| lower_union(cx, u))
        .unwrap_or_default();
    Spanned::new(DirectionsDecl { include, except }, span)
}

fn lower_union(cx: &mut Ctx, p: P) -> Vec<Spanned<DirTerm>> {
    p.into_inner()
        .filter(content)
        .map(|t| lower_direction_term(cx, t))
        .collect()
}

fn lower_direction_term(cx: &mut Ctx, p: P) -> Spanned<DirTerm> {
    let span = cx.span(&p);
    let mut term = DirTerm {
        qualifiers: vec![],
        base: DirBase::Any,
    };
    let mut has_base = false;
    for q in p.into_inner().filter(content) {
        match q.as_rule() {
            Rule::qualifier => {
                let s = cx.span(&q);
                let word = q.into_inner().find(content).unwrap();
                let k = match (word.as_rule(), word.as_str()) {
                    (Rule::straight_forward, _) => Qualifier::StraightForward,
                    (Rule::straight_backward, _) => Qualifier::StraightBackward,
                    (_, "forward") => Qualifier::Forward,
                    (_, "backward") => Qualifier::Backward,
                    (_, "sideways") => Qualifier::Sideways,
                    (_, "left") => Qualifier::Left,
                    (_, "right") => Qualifier::Right,
                    _ => Qualifier::Outward,
                };
                term.qualifiers.push(Spanned::new(k, s));
            }
            Rule::direction_kind => {
                has_base = true;
                term.base = match q.as_str() {
                    "orthogonal" => DirBase::Orthogonal,
                    "diagonal" => DirBase::Diagonal,
                    _ => DirBase::Any,
                }
            }
            _ => {
                has_base = true;
                term.base = DirBase::Compass(cx.name(&q.into_inner().find(content).unwrap()))
            }
        }
    }
    let _ = has_base; // a bare qualifier means `any`, already the default
    Spanned::new(term, span)
}

fn lower_clause(cx: &mut Ctx, p: P) -> Spanned<Clause> {
    let span = cx.span(&p);
    let q = p.into_inner().find(content).unwrap();
    let clause = match q.as_rule() {
        Rule::destination => {
            // `to start` holds keywords only.
            Clause::Destination(match q.into_inner().find(content) {
                None => Destination::Start,
                Some(d) if d.as_rule() == Rule::empty_dest => Destination::Empty,
                Some(d) => Destination::Enemy(d.into_inner().find(content).map(|n| cx.name(&n))),
            })
        }
        Rule::tagged => Clause::Tagged(lower_mark(cx, &q.into_inner().find(content).unwrap())),
        Rule::path_shape => {
            let diagonal = q.as_str().contains("diagonally");
            match q.into_inner().next().map(|w| w.as_rule()) {
                Some(Rule::kw_end) => Clause::EndNotAdjacent(diagonal),
                Some(Rule::kw_each) => Clause::TrailAdjacent(diagonal),
                _ => Clause::NeverReversing,
            }
        }
        Rule::from_cells => {
            let not = q.clone().into_inner().any(|p| p.as_rule() == Rule::kw_not);
            let parts: Vec<P> = q.into_inner().filter(content).collect();
            let from = match parts.first() {
                Some(f) if f.as_rule() == Rule::from_zone => {
                    Clause::FromZone(cx.name(&f.clone().into_inner().next().unwrap()))
                }
                Some(f) if f.as_rule() == Rule::from_start => Clause::From {
                    start: true,
                    cells: f
                        .clone()
                        .into_inner()
                        .filter(content)
                        .map(|c| cx.name(&c))
                        .collect(),
                },
                _ => Clause::From {
                    start: false,
                    cells: parts.iter().map(|c| cx.name(c)).collect(),
                },
            };
            if not {
                Clause::NotFrom(Box::new(from))
            } else {
                from
            }
        }
        Rule::en_passant => Clause::EnPassant(
            q.into_inner()
                .filter(content)
                .map(|n| cx.name(&n))
                .collect(),
        ),
        Rule::equal_legs => Clause::EqualLegs,
        Rule::repeated => Clause::Repeated,
        Rule::over_pieces => {
            let side = match q
                .clone()
                .into_inner()
                .find(|p| p.as_rule() == Rule::jumped_side)
            {
                Some(w) if w.as_str().starts_with("enem") => Holder::Enemy,
                Some(_) => Holder::Friend,
                None => Holder::Piece,
            };
            let mut it = q.into_inner().filter(content);
            let count = cx.number(&it.next().unwrap());
            Clause::Over {
                count,
                side,
                except: it
                    .filter(|n| n.as_rule() == Rule::ident)
                    .map(|n| cx.name(&n))
                    .collect(),
            }
        }
        Rule::right_behind => Clause::RightBehind,
        Rule::capturing_jumped => Clause::CapturingJumped {
            at_once: q.into_inner().any(|n| n.as_rule() == Rule::at_once),
        },
        Rule::again => Clause::Again {
            turning_back: q.into_inner().any(|n| n.as_rule() == Rule::turning_back),
        },
        Rule::within_zone => {
            let parts: Vec<P> = q.into_inner().collect();
            let zone = cx.name(parts.iter().find(|p| p.as_rule() == Rule::ident).unwrap());
            let landing = parts.iter().any(|p| p.as_rule() == Rule::kw_landing);
            match parts.iter().any(|p| p.as_rule() == Rule::kw_within) {
                true => Clause::Within(zone),
                false => Clause::Outside(zone, landing),
            }
        }
        Rule::leaving_copy => Clause::Copy,
        Rule::nearby => {
            // The holder is the word before `is`: `an enemy`, `a friend` or `a piece`.
            let holder = match q
                .as_str()
                .split_whitespace()
                .take_while(|w| *w != "is")
                .last()
            {
                Some("enemy") => Holder::Enemy,
                Some("friend") => Holder::Friend,
                _ => Holder::Piece,
            };
            let mut it = q.into_inner().filter(content);
            let present = it.next().unwrap().as_rule() != Rule::unless_kw;
            let steps = cx.number(&it.next().unwrap());
            let directions =
                lower_directions(cx, it.find(|d| d.as_rule() == Rule::directions).unwrap());
            Clause::Nearby {
                present,
                holder,
                steps,
                directions,
            }
        }
        r => unreachable!("the grammar has no clause {r:?}"),
    };
    Spanned::new(clause, span)
}

fn lower_setup(cx: &mut Ctx, p: P) -> SetupDecl {
    match p.as_rule() {
        Rule::setup_diagram => {
            let long_string = p.into_inner().find(content).unwrap();
            let text = long_string.into_inner().find(content).unwrap();
            SetupDecl::Diagram(Spanned::new(text.as_str().to_string(), cx.span(&text)))
        }
        Rule::setup_random => SetupDecl::Random(lower_random(cx, p)),
        _ => SetupDecl::Placements(
            p.into_inner()
                .filter(content)
                .map(|q| lower_placement(cx, q))
                .collect(),
        ),
    }
}

fn lower_random(cx: &mut Ctx, p: P) -> RandomDecl {
    let mut decl = RandomDecl {
        pools: vec![],
        mirrored: None,
        redraw: vec![],
    };
    for q in p.into_inner().filter(content) {
        match q.as_rule() {
            Rule::mirror_item => {
                let guard = q
                    .into_inner()
                    .filter(content)
                    .find(|g| g.as_rule() == Rule::guard)
                    .map(|g| lower_guard(cx, g));
                decl.mirrored = Some(guard);
            }
            Rule::redraw => {
                let mut unless = false;
                for r in q.into_inner().filter(content) {
                    match r.as_rule() {
                        Rule::unless_kw => unless = true,
                        Rule::condition => {
                            if let Some(condition) = super::end::lower_checked_condition(cx, r) {
                                decl.redraw.push(Redraw { unless, condition });
                            }
                        }
                        _ => {}
                    }
                }
            }
            _ => {
                let span = cx.span(&q);
                let mut it = q.into_inner().filter(content);
                let player = cx.name(&it.next().unwrap());
                let mut pool = Pool {
                    player,
                    pieces: vec![],
                    cells: vec![],
                    span,
                };
                for r in it {
                    if r.as_rule() == Rule::cell {
                        pool.cells.push(cx.name(&r));
                        continue;
                    }
                    let mut n = 1;
                    for s in r.into_inner().filter(content) {
                        if s.as_rule() == Rule::number {
                            n = cx.number(&s).node;
                        } else {
                            pool.pieces.push((n, cx.name(&s)));
                        }
                    }
                }
                decl.pools.push(pool);
            }
        }
    }
    decl
}

fn lower_promotion(cx: &mut Ctx, p: P) -> PromotionDecl {
    let mut inner = p.into_inner().filter(content);
    let optional = inner
        .next()
        .unwrap()
        .into_inner()
        .find(content)
        .is_some_and(|m| m.as_rule() == Rule::may_promote);
    let mut inner = inner.peekable();
    // `on standing in ZONE` has no trigger of its own before the zone's name.
    let when = match inner.next_if(|n| n.as_rule() == Rule::promote_when) {
        None => promote_when::STANDING,
        Some(node) => {
            let relations = |n: P| {
                n.into_inner()
                    .filter(|r| r.as_rule() == Rule::zone_relation)
                    .fold(0, |m, r| {
                        m | match r.as_str() {
                            "from" => promote_when::FROM,
                            "into" => promote_when::INTO,
                            _ => promote_when::THROUGH,
                        }
                    })
            };
            match node.clone().into_inner().next() {
                Some(t) if t.as_rule() == Rule::entering => promote_when::ENTERING,
                Some(t) if t.as_rule() == Rule::moving => relations(t),
                // `capturing in`: a capture ending in the zone.
                _ => {
                    promote_when::CAPTURING
                        | match relations(node) {
                            0 => promote_when::INTO,
                            r => r,
                        }
                }
            }
        }
    };
    let zone = cx.name(&inner.next().unwrap());
    let alone = inner
        .next_if(|n| n.as_rule() == Rule::promotion_alone)
        .is_some();
    let choice = inner.next().unwrap();
    let mut rest = inner;
    let player = rest
        .next_if(|n| n.as_rule() == Rule::promotion_for)
        .and_then(|n| n.into_inner().find(|n| n.as_rule() == Rule::ident))
        .map(|n| cx.name(&n));
    let (mut lost_only, mut most, mut quiet, mut forced_if_stuck) = (false, vec![], false, false);
    let mut at_once = None;
    for n in rest {
        if n.as_rule() == Rule::forced_if_stuck {
            forced_if_stuck = true;
            continue;
        }
        let words: Vec<P> = n.into_inner().collect();
        match words.first().map(|w| w.as_rule()) {
            Some(Rule::kw_only) => lost_only = true,
            Some(Rule::number) => most.push((cx.number(&words[0]), cx.name(&words[1]))),
            Some(Rule::at_once) => at_once = Some(Spanned::new((), cx.span(&words[0]))),
            _ => quiet = true,
        }
    }
    let to = choice
        .into_inner()
        .filter(content)
        .filter(|n| n.as_rule() == Rule::ident)
        .map(|n| cx.name(&n))
        .collect();
    PromotionDecl {
        optional,
        lost_only,
        most,
        forced_if_stuck,
        at_once,
        alone,
        quiet,
        when,
        zone,
        to,
        player,
    }
}

fn lower_zone<'a>(cx: &mut Ctx, mut inner: impl Iterator<Item = P<'a>>) -> ZoneDecl {
    let name = cx.name(&inner.next().unwrap());
    let body = inner.next().unwrap();
    let near = body.as_rule() == Rule::zone_near;
    let far = (body.as_rule() == Rule::zone_far || near)
        .then(|| cx.number(&body.clone().into_inner().next().unwrap()));
    let cells = (body.as_rule() == Rule::zone_cells).then(|| {
        body.clone()
            .into_inner()
            .filter(content)
            .map(|zp| {
                let mut it = zp.into_inner().filter(content);
                let player = cx.name(&it.next().unwrap());
                (player, it.map(|c| cx.name(&c)).collect())
            })
            .collect()
    });
    let shared = (body.as_rule() == Rule::zone_shared).then(|| {
        body.into_inner()
            .filter(content)
            .map(|c| cx.name(&c))
            .collect()
    });
    ZoneDecl {
        name,
        cells,
        shared,
        far,
        near,
    }
}

fn lower_castling<'a>(
    cx: &mut Ctx,
    mut inner: impl Iterator<Item = P<'a>>,
    span: Span,
) -> CastlingDecl {
    let player = cx.name(&inner.next().unwrap());
    let mut decl = CastlingDecl {
        player,
        parts: vec![],
        empty: vec![],
        safe: vec![],
        aimed: vec![],
        anywhere: None,
        span,
    };
    for q in inner {
        if q.as_rule() == Rule::castle_part {
            let v: Vec<Name> = q
                .into_inner()
                .filter(content)
                .map(|n| cx.name(&n))
                .collect();
            let from = (v.len() == 3).then(|| v[1].clone());
            decl.parts
                .push((v[0].clone(), from, v[v.len() - 1].clone()));
            continue;
        }
        let c = q.into_inner().find(content).unwrap();
        let rule = c.as_rule();
        let mut names = c.into_inner().filter(content).map(|n| cx.name(&n));
        match rule {
            Rule::castle_empty => decl.empty.extend(names),
            Rule::castle_anywhere => {
                let v: Vec<Name> = names.collect();
                decl.anywhere = Some((v[0].clone(), v[1].clone(), v[2].clone()));
            }
            Rule::castle_aimed => {
                // `an` and `enemy` are keywords; kind and cell follow.
                let v: Vec<Name> = names.by_ref().collect();
                let n = v.len();
                decl.aimed.push((v[n - 2].clone(), v[n - 1].clone()));
            }
            _ => decl.safe.extend(names),
        }
    }
    decl
}

fn lower_placement(cx: &mut Ctx, p: P) -> Placement {
    let mut inner = p.into_inner().filter(content);
    let player = cx.name(&inner.next().unwrap());
    let (mut pieces, mut hand) = (Vec::new(), Vec::new());
    for pc in inner {
        let rule = pc.as_rule();
        let mut it = pc.into_inner().filter(content);
        if rule == Rule::hand_pieces {
            let first = it.next().unwrap();
            let (count, name) = if first.as_rule() == Rule::number {
                (cx.number(&first), it.next().unwrap())
            } else {
                (Spanned::new(1, cx.span(&first)), first)
            };
            hand.push((count, cx.name(&name)));
        } else {
            let piece = cx.name(&it.next().unwrap());
            pieces.push((piece, it.map(|c| cx.name(&c)).collect()));
        }
    }
    Placement {
        player,
        pieces,
        hand,
    }
}

/// `Chariot 13, Black 1.5`: names and their points, in tenths.
fn lower_count_line(cx: &mut Ctx, p: P) -> CountLine {
    let span = cx.span(&p);
    let mut line = CountLine {
        bare: false,
        condition: Spanned::new(Condition::All(vec![]), span),
        from_pieces: false,
        limits: vec![],
    };
    for q in p.into_inner().filter(content) {
        match q.as_rule() {
            Rule::count_bare => line.bare = true,
            Rule::count_from => line.from_pieces = true,
            Rule::condition => {
                let span = cx.span(&q);
                line.condition = Spanned::new(super::end::lower_condition(cx, q), span);
            }
            Rule::count_limit => {
                let parts: Vec<P> = q.into_inner().filter(content).collect();
                let moves = cx.number(&parts[0]);
                let against = parts
                    .last()
                    .filter(|k| k.as_rule() == Rule::ident)
                    .map(|k| {
                        let n = match parts.get(1).filter(|k| k.as_rule() == Rule::number) {
                            Some(n) => cx.number(n).node,
                            None => 1,
                        };
                        (n, cx.name(k))
                    });
                line.limits.push((moves, against));
            }
            _ => {}
        }
    }
    line
}

fn lower_points<'a>(
    cx: &mut Ctx,
    inner: impl Iterator<Item = P<'a>>,
) -> Vec<(Name, Spanned<Points>)> {
    inner
        .filter(|q| q.as_rule() == Rule::worth_item)
        .map(|q| {
            let mut it = q.into_inner().filter(content);
            let name = cx.name(&it.next().unwrap());
            let p = it.next().unwrap();
            let span = cx.span(&p);
            let (whole, tenth) = p.as_str().split_once('.').unwrap_or((p.as_str(), "0"));
            if tenth.len() > 1 {
                cx.diagnostics.push(
                    Diagnostic::error(
                        "variantlab::bad_points",
                        span,
                        "points have at most one decimal",
                    )
                    .label("more than one decimal")
                    .help("points count in tenths: write `13.5`, not `13.55`"),
                );
                return (name, Spanned::new(0, span));
            }
            let tenths = whole
                .parse::<u32>()
                .ok()
                .and_then(|w| w.checked_mul(10))
                .and_then(|w| w.checked_add(tenth.parse::<u32>().unwrap_or(0)));
            let Some(tenths) = tenths else {
                cx.diagnostics.push(
                    Diagnostic::error(
                        "variantlab::number_too_large",
                        span,
                        "this number of points is too large",
                    )
                    .label("too large")
                    .help("points must be below 429496729.6"),
                );
                return (name, Spanned::new(0, span));
            };
            (name, Spanned::new(tenths, span))
        })
        .collect()
}

/// The clauses after `enclosed enemy pieces ...`: `on orthogonal lines of one piece`,
/// `empty cells in throne enclose too`, `King in castle only when enclosed on every
/// side`. The grammar gives their words in one run; each clause starts with `on` (but
/// for `enclosed on`), `empty` or its kinds.
fn enclosure_clauses(cx: &Ctx, parts: &[P]) -> Vec<Spanned<EnclosureClause>> {
    let Some(first) = parts.iter().position(|p| p.as_rule() == Rule::flip_effect) else {
        return vec![];
    };
    let mut groups: Vec<Vec<&P>> = vec![];
    let mut prev = None;
    for p in &parts[first + 1..] {
        let starts = match p.as_rule() {
            Rule::kw_empty | Rule::kinds | Rule::edge_rows => true,
            Rule::kw_on => prev != Some(Rule::kw_enclosed),
            _ => false,
        };
        match groups.last_mut() {
            Some(g) if !starts => g.push(p),
            _ => groups.push(vec![p]),
        }
        prev = Some(p.as_rule());
    }
    groups
        .iter()
        .map(|g| {
            let (a, b) = (cx.span(g[0]), cx.span(g[g.len() - 1]));
            Spanned::new(enclosure_clause(cx, g), Span::new(a.start, b.end))
        })
        .collect()
}

/// One clause of [`enclosure_clauses`], from its words.
fn enclosure_clause(cx: &Ctx, parts: &[&P]) -> EnclosureClause {
    if parts[0].as_rule() == Rule::edge_rows {
        return EnclosureClause::EdgeRows;
    }
    let zone = parts
        .iter()
        .find(|x| x.as_rule() == Rule::ident)
        .map(|x| cx.name(x));
    if let Some(k) = parts.iter().find(|x| x.as_rule() == Rule::kinds) {
        return EnclosureClause::EverySide(lower_kinds(cx, (*k).clone()), zone);
    }
    if let Some(z) = zone {
        return EnclosureClause::Hostile(z);
    }
    let kind = parts
        .iter()
        .find(|x| x.as_rule() == Rule::direction_kind)
        .and_then(|x| match x.as_str() {
            "orthogonal" => Some(crate::geometry::Kind::Orthogonal),
            "diagonal" => Some(crate::geometry::Kind::Diagonal),
            _ => None,
        });
    let single = parts.iter().any(|x| x.as_rule() == Rule::kw_of);
    EnclosureClause::Lines(kind, single)
}

//! Game-end rules.

use super::declare::Decls;
use super::model::*;
use crate::diagnostic::Diagnostic;
use crate::syntax::{self, Statement};

pub(super) fn check_end(
    statements: &[Statement],
    decls: &Decls,
    setup: &[Placed],
    out: &mut Vec<Diagnostic>,
) -> Vec<EndRule> {
    let mut rules = Vec::new();
    for s in statements {
        let Statement::End(list) = s else { continue };
        for r in list {
            let guard = decls
                .guard(&r.guard)
                .map_err(|d| out.push(d))
                .ok()
                .flatten();
            let event = match &r.event.node {
                syntax::Event::Captured { piece, by } => {
                    let Ok(p) = decls.piece(piece).map_err(|d| out.push(d)) else {
                        continue;
                    };
                    let by = match by.as_ref().map(|b| decls.piece(b)) {
                        Some(Ok(b)) => Some(b),
                        Some(Err(d)) => {
                            out.push(d);
                            continue;
                        }
                        None => None,
                    };
                    if !setup.is_empty() && !setup.iter().any(|x| x.piece == p) {
                        out.push(
                            Diagnostic::warning(
                                "variantlab::absent_piece",
                                piece.span,
                                format!("no {} stands on the board at the start", piece.node),
                            )
                            .label("never in the setup")
                            .help("this rule can only apply if the piece appears later"),
                        );
                    }
                    Event::Captured { piece: p, by }
                }
                syntax::Event::NoLegalMove => Event::NoLegalMove,
                syntax::Event::Repetition(n, perpetual) => {
                    if n.node < 2 {
                        out.push(
                            Diagnostic::error(
                                "variantlab::bad_count",
                                n.span,
                                "a position must occur at least twice to repeat",
                            )
                            .label("too small"),
                        );
                    }
                    Event::Repetition(n.node, *perpetual)
                }
                syntax::Event::Checkmate => Event::Checkmate,
                syntax::Event::Stalemate => Event::Stalemate,
                syntax::Event::PliesWithoutCapture(n, kinds) => {
                    let mask = kinds
                        .iter()
                        .filter_map(|k| decls.piece(k).map_err(|d| out.push(d)).ok())
                        .fold(0u64, |m, k| m | 1 << k.0);
                    if n.node == 0 {
                        out.push(
                            Diagnostic::error(
                                "variantlab::bad_count",
                                n.span,
                                "the game cannot end after zero plies",
                            )
                            .label("zero"),
                        );
                    }
                    Event::PliesWithoutCapture(n.node, mask)
                }
            };
            if let Outcome::MoverScores(a, b) = r.outcome
                && (b == 0 || a > b)
            {
                out.push(
                    Diagnostic::error(
                        "variantlab::bad_score",
                        r.event.span,
                        format!("{a}/{b} is not a score between 0 and 1"),
                    )
                    .label("this rule's score")
                    .help("write a fraction such as `3/4`, its top no larger than its bottom"),
                );
            }
            rules.push(EndRule {
                guard,
                event,
                outcome: r.outcome,
            });
        }
    }
    rules
}

//! Declarations: players, options, tags and piece names, each unique.

use super::lookup;
use crate::diagnostic::Diagnostic;
use crate::geometry::Board;
use crate::model::*;
use crate::syntax::{self, Name, Span, Statement};

/// Every declared name, resolved; later checks look names up here.
pub(super) struct Decls {
    pub players: Vec<Player>,
    /// Players whose declaration gives no forward direction.
    pub lacking_forward: Vec<String>,
    pub options: Vec<OptionDef>,
    pub tags: Vec<TagDef>,
    player_names: Vec<String>,
    option_names: Vec<String>,
    tag_marks: Vec<String>,
    piece_names: Vec<String>,
    piece_codes: Vec<String>,
}

impl Decls {
    /// The pieces' codes, in declaration order.
    pub fn codes(&self) -> Vec<&str> {
        self.piece_codes
            .iter()
            .filter(|c| !c.is_empty())
            .map(String::as_str)
            .collect()
    }
    pub fn piece(&self, name: &Name) -> Result<PieceId, Diagnostic> {
        if let Some(i) = self
            .piece_codes
            .iter()
            .position(|c| c.eq_ignore_ascii_case(&name.node))
        {
            return Ok(PieceId(i as u8));
        }
        lookup(
            "variantlab::unknown_piece",
            "piece",
            &self.piece_names,
            name,
        )
        .map(|i| PieceId(i as u8))
    }
    pub fn player(&self, name: &Name) -> Result<PlayerId, Diagnostic> {
        lookup(
            "variantlab::unknown_player",
            "player",
            &self.player_names,
            name,
        )
        .map(|i| PlayerId(i as u8))
    }
    pub fn tag(&self, mark: &syntax::Spanned<char>) -> Result<TagId, Diagnostic> {
        let name = Name::new(mark.node.to_string(), mark.span);
        self.tag_marks
            .iter()
            .position(|m| *m == name.node)
            .map(|i| TagId(i as u8))
            .ok_or_else(|| {
                let d = Diagnostic::error(
                    "variantlab::unknown_tag",
                    mark.span,
                    format!("there is no tag `{}`", mark.node),
                )
                .label("unknown tag");
                d.help(format!(
                    "declare it first, e.g. `tag {} \"what it marks\"`",
                    mark.node
                ))
            })
    }
    pub fn guard(&self, g: &Option<syntax::Guard>) -> Result<Option<Guard>, Diagnostic> {
        let Some(g) = g else { return Ok(None) };
        let i = lookup(
            "variantlab::unknown_option",
            "option",
            &self.option_names,
            &g.option,
        )?;
        Ok(Some(Guard {
            option: OptionId(i as u8),
            when: g.when,
        }))
    }
    /// The piece with this code, any case.
    pub fn piece_by_code(&self, code: &str) -> Option<PieceId> {
        self.piece_codes
            .iter()
            .position(|c| c.eq_ignore_ascii_case(code))
            .map(|i| PieceId(i as u8))
    }

    pub fn piece_count(&self) -> usize {
        self.piece_names.len()
    }
}

pub(super) fn check_declarations(
    statements: &[Statement],
    board: Option<&Board>,
    out: &mut Vec<Diagnostic>,
) -> Decls {
    let mut d = Decls {
        players: vec![],
        lacking_forward: vec![],
        options: vec![],
        tags: vec![],
        player_names: vec![],
        option_names: vec![],
        tag_marks: vec![],
        piece_names: vec![],
        piece_codes: vec![],
    };
    // Where each accepted name was declared, for "first declared here".
    let mut player_spans: Vec<Span> = vec![];
    let (mut option_spans, mut tag_spans, mut piece_spans, mut code_spans) =
        (vec![], vec![], vec![], vec![]);
    for s in statements {
        match s {
            Statement::Player(p)
                if unique(out, "player", &d.player_names, &player_spans, &p.name) =>
            {
                let forward = match (&p.forward, board) {
                    (Some(f), Some(b)) => match b.parse_direction(&f.node) {
                        Some(dir) => Some(dir),
                        None => {
                            out.push(unknown_direction(b, f));
                            None
                        }
                    },
                    _ => None,
                };
                // Unsaid, a player takes capitals unless an earlier one has them.
                let capitals = p
                    .capitals
                    .as_ref()
                    .map_or(!d.players.iter().any(|q| q.capitals), |c| c.node);
                if p.forward.is_none() {
                    d.lacking_forward.push(p.name.node.clone());
                }
                d.players.push(Player {
                    name: p.name.node.clone(),
                    forward,
                    capitals,
                });
                d.player_names.push(p.name.node.clone());
                player_spans.push(p.name.span);
            }
            Statement::Option(o)
                if unique(out, "option", &d.option_names, &option_spans, &o.name) =>
            {
                option_spans.push(o.name.span);
                d.options.push(OptionDef {
                    name: o.name.node.clone(),
                    default: o.default,
                    about: o.about.clone(),
                });
                d.option_names.push(o.name.node.clone());
            }
            Statement::Tag(t) => {
                let name = Name::new(t.mark.node.to_string(), t.mark.span);
                if matches!(t.mark.node, 'x' | 'o' | 'X' | 'O') {
                    out.push(
                        Diagnostic::error("variantlab::reserved_mark", t.mark.span, format!("`{}` cannot be a tag", t.mark.node))
                            .label("reserved")
                            .help("diagrams use `x` for untagged moves and `o` for the piece; pick another letter"),
                    );
                } else if unique(out, "tag", &d.tag_marks, &tag_spans, &name) {
                    tag_spans.push(name.span);
                    d.tags.push(TagDef {
                        mark: t.mark.node,
                        about: t.about.clone(),
                        once_per_game: t.once_per_game,
                    });
                    d.tag_marks.push(name.node);
                }
            }
            Statement::Piece(p) => {
                let code_clash = d
                    .piece_codes
                    .iter()
                    .position(|c| c.eq_ignore_ascii_case(&p.code.node));
                if let Some(i) = code_clash {
                    out.push(
                        Diagnostic::error(
                            "variantlab::duplicate_code",
                            p.code.span,
                            format!(
                                "the code `{}` is already {}'s",
                                p.code.node, d.piece_names[i]
                            ),
                        )
                        .label("used twice")
                        .also(code_spans[i], "first used here")
                        .help("each piece needs its own code so diagrams can tell them apart"),
                    );
                }
                if unique(out, "piece", &d.piece_names, &piece_spans, &p.name) {
                    piece_spans.push(p.name.span);
                    code_spans.push(p.code.span);
                    d.piece_names.push(p.name.node.clone());
                    d.piece_codes.push(if code_clash.is_some() {
                        String::new()
                    } else {
                        p.code.node.to_ascii_uppercase()
                    });
                }
            }
            _ => {}
        }
    }
    check_limits(statements, out);
    for (i, name) in d.piece_names.iter().enumerate() {
        let clash = d
            .piece_codes
            .iter()
            .enumerate()
            .find(|(j, c)| *j != i && c.eq_ignore_ascii_case(name));
        if let Some((j, code)) = clash {
            out.push(
                Diagnostic::error(
                    "variantlab::ambiguous_name",
                    piece_spans[i],
                    format!(
                        "`{name}` names this piece and is also the code of {}",
                        d.piece_names[j]
                    ),
                )
                .label("name and code at once")
                .also(code_spans[j], format!("`{code}` is this piece's code"))
                .help("setups and diagrams accept names and codes alike; rename the piece or change the code"),
            );
        }
    }
    if d.players.is_empty() {
        out.push(
            Diagnostic::error(
                "variantlab::missing_players",
                Span::new(0, 0),
                "the variant declares no player",
            )
            .help("add lines such as `player White: forward north, capitals`"),
        );
    }
    // Players beyond the limit are refused by `too_many` and not compared again here.
    for (i, span) in player_spans
        .iter()
        .enumerate()
        .take(WRITABLE_PLAYERS)
        .skip(1)
    {
        if let Some(j) = d.players[..i]
            .iter()
            .position(|q| q.capitals == d.players[i].capitals)
        {
            out.push(
                Diagnostic::error(
                    "variantlab::same_case",
                    *span,
                    format!(
                        "{} and {} both print in {}",
                        d.players[j].name,
                        d.players[i].name,
                        if d.players[i].capitals {
                            "capitals"
                        } else {
                            "lowercase"
                        }
                    ),
                )
                .label("same letter case as an earlier player")
                .help("give each player its own case: `capitals` or `lowercase`"),
            );
        }
    }
    d
}

/// Reports a duplicate; true when the name is new.
fn unique(
    out: &mut Vec<Diagnostic>,
    what: &str,
    known: &[String],
    spans: &[Span],
    name: &Name,
) -> bool {
    if let Some(i) = known
        .iter()
        .position(|k| k.eq_ignore_ascii_case(&name.node))
    {
        out.push(
            Diagnostic::error(
                duplicate_code(what),
                name.span,
                format!("the {what} `{}` is declared twice", name.node),
            )
            .label("second declaration")
            .also(spans[i], "first declared here")
            .help(format!("rename or remove one of the two {what}s")),
        );
        return false;
    }
    true
}

fn duplicate_code(what: &str) -> &'static str {
    match what {
        "player" => "variantlab::duplicate_player",
        "option" => "variantlab::duplicate_option",
        "tag" => "variantlab::duplicate_tag",
        _ => "variantlab::duplicate_piece",
    }
}

pub(super) fn unknown_direction(board: &Board, name: &Name) -> Diagnostic {
    let names: Vec<&str> = board.directions().iter().map(|d| d.name).collect();
    let d = Diagnostic::error(
        "variantlab::unknown_direction",
        name.span,
        format!("this board has no direction `{}`", name.node),
    )
    .label("unknown direction");
    let words = board
        .directions()
        .iter()
        .flat_map(|d| [Some(d.name), d.long_name])
        .flatten();
    let d = d.help(format!("this board's directions are {}", names.join(", ")));
    match super::closest(words, &name.node) {
        Some(w) => d.meant(w),
        None => d,
    }
}

/// Players a file can write: each prints its pieces in a letter case of its own, and
/// there are two cases, `capitals` and `lowercase`.
const WRITABLE_PLAYERS: usize = 2;

/// The runtime's fixed sizes: players, piece kinds, options and tags.
fn check_limits(statements: &[Statement], out: &mut Vec<Diagnostic>) {
    let limits = [
        (
            "player",
            "players",
            WRITABLE_PLAYERS.min(crate::model::MAX_PLAYERS),
        ),
        ("piece", "piece kinds", 64),
        ("option", "options", 64),
        ("tag", "tags", 64),
    ];
    for (keyword, what, most) in limits {
        let why = if keyword == "player" {
            "; each player's pieces print in a letter case of its own, `capitals` or `lowercase`"
        } else {
            ""
        };
        // A name declared twice is `duplicate_*`'s to report, and counts once here.
        let mut seen: Vec<String> = Vec::new();
        let mut spans = statements
            .iter()
            .filter(|s| s.keyword() == keyword)
            .filter(|s| {
                let name = match s {
                    Statement::Player(p) => p.name.node.to_ascii_lowercase(),
                    Statement::Option(o) => o.name.node.to_ascii_lowercase(),
                    Statement::Piece(p) => p.name.node.to_ascii_lowercase(),
                    Statement::Tag(t) => t.mark.node.to_ascii_lowercase().to_string(),
                    _ => return true,
                };
                let new = !seen.contains(&name);
                seen.push(name);
                new
            })
            .filter_map(Statement::name_span);
        if let Some(span) = spans.nth(most) {
            out.push(
                Diagnostic::error(
                    "variantlab::too_many",
                    span,
                    format!("a variant may have at most {most} {what}"),
                )
                .label(format!("{what} beyond the first {most}"))
                .help(format!("remove {what} from here on{why}")),
            );
        }
    }
}

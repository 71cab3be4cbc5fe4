//! Turns pest's errors into diagnostics that say what was expected in words.

use super::Rule;
use super::Span;
use crate::diagnostic::Diagnostic;
use pest::error::{ErrorVariant, InputLocation};

/// Words that begin a top-level statement; parsing resumes at a line starting with one.
const TOP_LEVEL: &[&str] = &[
    "name",
    "inventor",
    "description",
    "board",
    "coordinates",
    "holes",
    "player",
    "option",
    "tag",
    "piece",
    "setup",
    "game",
    "zone",
    "castling",
];

pub(super) fn describe(e: &pest::error::Error<Rule>, text: &str, offset: usize) -> Diagnostic {
    let mut pos = offset
        + match e.location {
            InputLocation::Pos(p) => p,
            InputLocation::Span((s, _)) => s,
        };
    // Pest places the error where a rule last failed; a missing `)` or `:` is further on.
    let (further, marks) = punctuation(e);
    let mut rules_expected = true;
    if further + offset > pos && !marks.is_empty() {
        pos = further + offset;
        rules_expected = false;
    }
    let found = found_at(text, pos);
    // Inside a word: the parser took a keyword's letters and stopped, as in `stepp`.
    let is_word = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    let word_start = text[..pos]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word(*c))
        .last()
        .map_or(pos, |(i, _)| i);
    let glued = (word_start < pos && !found.is_empty())
        .then(|| text[word_start..pos + found.len()].to_string());
    let (found, span) = match &glued {
        Some(w) => (w.clone(), Span::new(word_start, pos + found.len())),
        None => (found.clone(), Span::new(pos, pos + found.len())),
    };
    let (message, label) = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let mut wanted: Vec<String> = if pos == further + offset {
                marks
            } else {
                vec![]
            };
            let mut words: Vec<String> = if rules_expected {
                positives.iter().map(|r| expected(*r).to_string()).collect()
            } else {
                vec![]
            };
            words.sort();
            wanted.extend(words);
            wanted.dedup();
            let wanted: Vec<&str> = wanted.iter().map(String::as_str).collect();
            let wanted = join_or(&wanted);
            let message = if found.is_empty() {
                format!("expected {wanted}, but the file ends here")
            } else {
                format!("expected {wanted}, found `{found}`")
            };
            (message, format!("expected {wanted}"))
        }
        ErrorVariant::CustomError { message } => (message.clone(), String::new()),
    };
    let mut d = Diagnostic::error("variantlab::syntax", span, message).label(label);
    if let Some(w) = glued {
        d = d.help(format!(
            "`{w}` is not a word here; it reads as `{}` followed by `{}`: check the spelling",
            &w[..pos - word_start],
            &w[pos - word_start..]
        ));
    } else if let Some((w, near)) = misspelt_before(text, pos) {
        // A misspelt word read as a name (`outwards` as a direction) fails one word on.
        d = d.help(format!(
            "`{w}` is not a word of the language: did you mean `{near}`?"
        ));
    } else if let Some(h) = hint(text, pos, &found) {
        d = d.help(h);
    }
    d
}

/// The word just before `pos` on its line, when it is a near miss of a word of the
/// language, with that word.
fn misspelt_before(text: &str, pos: usize) -> Option<(String, &'static str)> {
    let before = &text[..pos.min(text.len())];
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    let line = line.trim_end();
    let is_word = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    let word = line[line.trim_end_matches(is_word).len()..].to_lowercase();
    if word.len() < 4 || WORDS.contains(&word.as_str()) {
        return None;
    }
    let near = if word.len() >= 7 { 2 } else { 1 };
    WORDS
        .iter()
        .map(|w| (crate::diagnostic::edit_distance(w, &word), *w))
        .min()
        .filter(|(d, _)| *d > 0 && *d <= near)
        .map(|(_, w)| (word, w))
}

/// Punctuation the parser would have taken at the error (a missing `,` or `:`), which
/// pest's rule list leaves out.
/// Where the parser got furthest, and the marks it wanted there.
fn punctuation(e: &pest::error::Error<Rule>) -> (usize, Vec<String>) {
    let Some(attempts) = e.parse_attempts() else {
        return (0, vec![]);
    };
    let marks = attempts
        .expected_tokens()
        .into_iter()
        .map(|t| t.to_string())
        .filter(|t| !t.is_empty() && t != "#" && t.chars().all(|c| c.is_ascii_punctuation()))
        .map(|t| format!("`{t}`"))
        .collect();
    (attempts.max_position, marks)
}

/// The word (or character) at a position, for messages.
fn found_at(text: &str, pos: usize) -> String {
    let rest = &text[pos.min(text.len())..];
    let word: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    if !word.is_empty() {
        return word;
    }
    rest.chars()
        .next()
        .filter(|c| !c.is_whitespace())
        .map(String::from)
        .unwrap_or_default()
}

/// Words used inside statements, for suggestions.
const WORDS: &[&str] = &[
    "then",
    "except",
    "direct",
    "tagged",
    "each",
    "never",
    "reversing",
    "captured",
    "empty",
    "enemy",
    "orthogonal",
    "diagonal",
    "forward",
    "backward",
    "sideways",
    "straight",
    "outward",
    "adjacent",
    "diagonally",
    "capitals",
    "lowercase",
    "hexagon",
    "square",
    "flat-topped",
    "pointy-topped",
    "royal",
    "promotes",
    "promote",
    "entering",
    "moving",
    "into",
    "through",
    "drop",
    "giving",
    "attacks",
    "hand",
    "perpetual",
    "checker",
    "non-royal",
    "passant",
    "start",
    "legs",
    "equal",
    "length",
    "random",
    "mirrored",
    "redraw",
    "undefended",
    "checkmate",
    "stalemate",
    "scores",
    "safe",
];

/// Words that begin a statement inside a piece's braces.
const IN_PIECE: &[&str] = &[
    "step", "leap", "slide", "captured", "may", "if", "unless", "royal", "moves", "promotes", "no",
];

fn hint(text: &str, pos: usize, found: &str) -> Option<String> {
    let pos = pos.min(text.len());
    let line_start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
    if found.is_empty() {
        return None;
    }
    if !text[line_start..pos].trim().is_empty() {
        // Mid-line: a misspelt word of the language.
        let near = if found.len() >= 7 { 2 } else { 1 };
        return WORDS
            .iter()
            .map(|w| {
                (
                    crate::diagnostic::edit_distance(w, &found.to_lowercase()),
                    *w,
                )
            })
            .min()
            .filter(|(d, _)| *d > 0 && *d <= near)
            .map(|(_, w)| format!("did you mean `{w}`?"));
    }
    let (words, what) = if brace_depth(&text[..pos]) > 0 {
        (IN_PIECE, "a line inside braces starts with")
    } else {
        (TOP_LEVEL, "a statement starts with")
    };
    if words.contains(&found) {
        return None;
    }
    let closest = words
        .iter()
        .map(|w| {
            (
                crate::diagnostic::edit_distance(w, &found.to_lowercase()),
                *w,
            )
        })
        .min();
    match closest {
        Some((d, w)) if d <= 2 => Some(format!("did you mean `{w}`?")),
        _ => Some(format!("{what} one of `{}`", words.join("`, `"))),
    }
}

/// How many braces are open at the end of `text`, outside comments and strings.
fn brace_depth(text: &str) -> i32 {
    let b = text.as_bytes();
    let find = |from: usize, f: &dyn Fn(&[u8]) -> bool| {
        (from..b.len()).find(|&j| f(&b[j..])).unwrap_or(b.len())
    };
    let (mut depth, mut i) = (0, 0);
    while i < b.len() {
        if b[i..].starts_with(b"\"\"\"") {
            i = (find(i + 3, &|r| r.starts_with(b"\"\"\"")) + 3).min(b.len());
            continue;
        }
        match b[i] {
            b'#' => i = find(i, &|r| r[0] == b'\n'),
            b'"' => i = find(i + 1, &|r| r[0] == b'"' || r[0] == b'\n') + 1,
            b'{' => (depth, i) = (depth + 1, i + 1),
            b'}' => (depth, i) = (depth - 1, i + 1),
            _ => i += 1,
        }
    }
    depth
}

fn join_or(items: &[&str]) -> String {
    match items {
        [] => "something else".into(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} or {}", rest.join(", "), last),
    }
}

/// What each rule looks like, in words.
fn expected(rule: Rule) -> &'static str {
    use Rule::*;
    match rule {
        EOI => "the end of the file",
        file | statement => "a statement",
        name_stmt | inventor_stmt | description_stmt | board_stmt | coordinates_stmt
        | holes_stmt | player_stmt | option_stmt | tag_stmt | piece_stmt | setup_stmt
        | end_stmt | zone_stmt | castling_stmt | hand_stmt => {
            "a statement such as `piece` or `board`"
        }
        drop_mobile => "`, never dropped where they could never move`",
        promote_when | entering | moving | zone_relation => {
            "`entering` or `moving from, into or through`"
        }
        no_drop | drop_file | drop_attacked | drop_check | check_word => {
            "a drop rule such as `no drop giving check`"
        }
        perpetual => "`by perpetual check`",
        checker_loses => "`checker loses`",
        zone_far => "`: far 3 ranks`",
        forced_if_stuck => "`, forced where it could never move again`",
        royal => "`royal`",
        moves_as => "`moves as ...`",
        promotion | promote_word | may_promote | promotion_choice | any_non_royal => {
            "a promotion such as `promotes on entering far to Queen or Rook`"
        }
        from_cells | from_start => "`from start` or `from` and cells",
        en_passant => "`en passant by ...`",
        equal_legs => "`legs of equal length`",
        setup_random | random_item | random_pool | pool_piece | mirror_item | mirrored | redraw => {
            "a random setup line such as `White: King, Rook on a1 b1 c1`"
        }
        checkmate | stalemate => "`checkmate` or `stalemate`",
        mover_scores => "`mover scores 3/4`",
        zone_last | zone_cells | zone_player => {
            "a zone (`: last cell of each file` or `{ White: a8 b8 }`)"
        }
        castle_part | castle_condition | castle_empty | castle_safe => {
            "a castling part such as `King e1 to g1` or `empty f1 g1`"
        }
        ident | compass => "a name",
        number => "a number",
        cell => "a cell such as `e5`",
        string | short_string | long_string | short_text | long_text => "a quoted text",
        square_shape | hexagon_shape => {
            "a board shape (`square 8 by 8` or `hexagon side 6 flat-topped`)"
        }
        orientation => "`flat-topped` or `pointy-topped`",
        coordinate_part | line_family | files | ranks | lines_along => {
            "a part of a cell name such as `files lettered from the left`"
        }
        line_labels | lettered | numbered => "`lettered` or `numbered`",
        side => "a side such as `left` or `bottom`",
        of_each => "`of each file`",
        player_prop | forward_prop | letter_case => {
            "a player property (`forward north`, `capitals`, `lowercase`)"
        }
        switch => "`on` or `off`",
        mark => "a one-letter mark",
        once_per_game => "`once per game`",
        code => "a one- or two-letter code such as `PN`",
        piece_item | guard | if_kw | unless_kw => {
            "a move (`step`, `leap`, `slide`) or a piece rule"
        }
        captured_only_by => "`captured only by ...`",
        not_attacked => "`may not end on an attacked cell`",
        move_stmt | first_leg | mode => "a move (`step`, `leap` or `slide`)",
        next_leg => "a leg after `then`",
        count | at_least | up_to | between | exactly => {
            "a count such as `2`, `2 or more` or `up to 3`"
        }
        direct => "`direct`",
        directions | direction_union | direction_term | direction_kind | qualifier
        | straight_forward | straight_backward | forward | backward | sideways | outward => {
            "a direction such as `orthogonal`"
        }
        clause | destination | either | empty_dest | enemy_dest | tagged | end_not_adjacent
        | trail_adjacent | adjacency | diagonally | never_reversing => {
            "a move clause such as `to empty`"
        }
        setup_diagram | setup_block => "a setup (`{ ... }` or `diagram \"\"\"...\"\"\"`)",
        placement => "a placement such as `White: King e1`",
        piece_cells => "a piece name followed by cells",
        end_rule | event | captured_event | no_move_event | repetition_event | quiet_event => {
            "a game-end rule such as `King captured: mover wins`"
        }
        outcome | draw | mover_wins | mover_loses => {
            "an outcome (`draw`, `mover wins`, `mover loses`)"
        }
        keyword | word_char | WHITESPACE | COMMENT => "something else",
    }
}

/// Where to resume after an error: the next line after `pos` whose first word starts a
/// top-level statement.
pub(super) fn resume_point(text: &str, pos: usize) -> Option<usize> {
    let mut line_start = text[pos.min(text.len())..]
        .find('\n')
        .map(|i| pos + i + 1)?;
    while line_start < text.len() {
        let line = &text[line_start..];
        let trimmed = line.trim_start();
        let word: String = trimmed
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect();
        if TOP_LEVEL.contains(&word.as_str()) && line.len() - trimmed.len() == 0 {
            return Some(line_start);
        }
        match line.find('\n') {
            Some(i) => line_start += i + 1,
            None => return None,
        }
    }
    None
}

/// The start of the last top-level statement line at or before `pos`, after `from`.
pub(super) fn statement_start_before(text: &str, from: usize, pos: usize) -> Option<usize> {
    let mut best = None;
    let mut at = from;
    while at <= pos && at < text.len() {
        let line = &text[at..];
        let word: String = line
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect();
        if TOP_LEVEL.contains(&word.as_str()) {
            best = Some(at);
        }
        match line.find('\n') {
            Some(i) => at += i + 1,
            None => break,
        }
    }
    best
}

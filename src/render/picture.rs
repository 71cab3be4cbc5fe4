//! Pictures of single pieces, as the studio draws them: a set's picture for a player,
//! chosen by a text. Each is a whole SVG of 100 by 100 units.

use super::svg::esc;
use crate::model::{FIGURES, PictureSet};

/// Fonts for a piece's text: brush-like CJK faces first where the system has them.
const FONTS: &str = "'Noto Serif CJK JP','Noto Serif CJK SC','Noto Sans CJK JP','WenQuanYi Micro Hei','Droid Sans Fallback',serif";
/// The first player's colour on discs, and a promoted piece's text on wedges.
const RED: &str = "#b3171b";
const BLACK: &str = "#1a1a1a";

/// A picture of a piece of `set` showing `text`, for player `player` (from 0), and
/// whether it turns with the board (a wedge points at the opponent, so a flipped
/// board turns it; other pictures stay upright). `None`: the set draws letters, or
/// has no such figure.
pub fn piece_picture(
    set: PictureSet,
    text: &str,
    player: usize,
    promoted: bool,
) -> Option<(String, bool)> {
    match set {
        PictureSet::Letters => None,
        PictureSet::Figures => FIGURES
            .iter()
            .find(|(name, _)| *name == text)
            .map(|(_, svg)| (svg[player.min(1)].to_string(), false)),
        PictureSet::Wedges => Some((wedge(text, player > 0, promoted), true)),
        PictureSet::Discs => Some((disc(text, if player == 0 { RED } else { BLACK }), false)),
    }
}

/// The characters of a text, stacked down the middle between `top` and `bottom`.
fn stacked(text: &str, top: f64, bottom: f64, largest: f64, fill: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let n = chars.len().max(1) as f64;
    let size = largest.min((bottom - top) / n);
    let first = top + ((bottom - top) - size * n) / 2.0 + size / 2.0;
    chars
        .iter()
        .enumerate()
        .map(|(i, c)| {
            format!(
                r#"<text x="50" y="{:.1}" font-size="{size:.1}" fill="{fill}" text-anchor="middle" dominant-baseline="central" font-family="{FONTS}" font-weight="bold">{}</text>"#,
                first + size * i as f64,
                esc(&c.to_string()),
            )
        })
        .collect()
}

/// A five-sided wedge pointing up, or down when `turned`, with the text stacked on it.
fn wedge(text: &str, turned: bool, promoted: bool) -> String {
    let turn = if turned {
        r#" transform="rotate(180 50 50)""#
    } else {
        ""
    };
    let ink = if promoted { RED } else { BLACK };
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><g{turn}><polygon points="50,3 79,15 89,97 11,97 21,15" fill="#f1d7a1" stroke="#6b4a1e" stroke-width="3" stroke-linejoin="round"/>{}</g></svg>"##,
        stacked(text, 22.0, 94.0, 50.0, ink)
    )
}

/// A disc ringed in `colour`, with the text on it in that colour.
fn disc(text: &str, colour: &str) -> String {
    let n = text.chars().count().max(1) as f64;
    let size = (58.0 / n).min(52.0);
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><circle cx="50" cy="50" r="46" fill="#f3e2bf" stroke="{colour}" stroke-width="4"/><circle cx="50" cy="50" r="38" fill="none" stroke="{colour}" stroke-width="1.5"/><text x="50" y="52" font-size="{size:.1}" fill="{colour}" text-anchor="middle" dominant-baseline="central" font-family="{FONTS}" font-weight="bold">{}</text></svg>"##,
        esc(text)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wedges_turn_for_the_second_player_and_redden_when_promoted() {
        let (first, turns) = piece_picture(PictureSet::Wedges, "A", 0, false).unwrap();
        assert!(turns);
        assert!(!first.contains("rotate(180"));
        assert!(first.contains(BLACK));
        let (second, _) = piece_picture(PictureSet::Wedges, "<&", 1, true).unwrap();
        assert!(second.contains("rotate(180 50 50)"));
        assert!(second.contains(RED));
        // One text element per character, escaped.
        assert_eq!(second.matches("<text").count(), 2);
        assert!(second.contains("&lt;") && second.contains("&amp;"));
    }

    #[test]
    fn discs_ring_the_players_in_two_colours_and_figures_pick_by_name() {
        let (red, turns) = piece_picture(PictureSet::Discs, "X", 0, false).unwrap();
        let (black, _) = piece_picture(PictureSet::Discs, "X", 1, false).unwrap();
        assert!(!turns && red.contains(RED) && black.contains(BLACK));
        assert_ne!(
            piece_picture(PictureSet::Figures, "K", 0, false),
            piece_picture(PictureSet::Figures, "K", 1, false)
        );
        assert_eq!(piece_picture(PictureSet::Figures, "Z", 0, false), None);
        assert_eq!(piece_picture(PictureSet::Letters, "K", 0, false), None);
    }
}

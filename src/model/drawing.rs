//! How the studio draws pieces: a built-in set of pictures, or SVG files beside the
//! variant file. Only the studio reads it; the rules never do.

/// A built-in set of piece pictures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PictureSet {
    /// A disc with the piece's code, as the board draws it without pictures.
    #[default]
    Letters,
    /// Drawn figures, chosen by name from `FIGURES` (the piece's code by default).
    Figures,
    /// A five-sided wedge pointing at the opponent, with the piece's text.
    Wedges,
    /// A disc ringed in the player's colour, with the piece's text.
    Discs,
}

impl PictureSet {
    pub const ALL: [PictureSet; 4] = [
        PictureSet::Letters,
        PictureSet::Figures,
        PictureSet::Wedges,
        PictureSet::Discs,
    ];

    /// The set's name in a variant file.
    pub fn name(self) -> &'static str {
        match self {
            PictureSet::Letters => "letters",
            PictureSet::Figures => "figures",
            PictureSet::Wedges => "wedges",
            PictureSet::Discs => "discs",
        }
    }
}

/// How one piece is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Drawing {
    /// A set and the texts it draws: none (the piece's code), one for every player, or
    /// one per player in order.
    Set(PictureSet, Vec<String>),
    /// SVG files, relative to the variant file's folder: one for every player, or one
    /// per player in order.
    Files(Vec<String>),
}

/// Which of a drawing's texts or files is player `player`'s: one for every player, or
/// one each.
pub fn for_player(list: &[String], player: usize) -> Option<&str> {
    list.get(player).or(list.first()).map(String::as_str)
}

macro_rules! figure {
    ($name:literal) => {
        (
            $name,
            [
                include_str!(concat!("../../assets/figures/white-", $name, ".svg")),
                include_str!(concat!("../../assets/figures/black-", $name, ".svg")),
            ],
        )
    };
}

/// The pictures of [`PictureSet::Figures`] by name, each in a light and a dark version
/// (the first player's, every other player's). Public domain (CC0), see
/// `assets/figures/README.md`.
pub const FIGURES: [(&str, [&str; 2]); 6] = [
    figure!("K"),
    figure!("Q"),
    figure!("R"),
    figure!("B"),
    figure!("N"),
    figure!("P"),
];

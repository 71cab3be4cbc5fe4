//! Plain terms of the language that the syntax tree and the resolved rules share: what
//! a word says, with no name to resolve.

/// How a piece stands: whether an enemy piece could capture it, and whether a piece of
/// its own player could capture on its cell were an enemy piece there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Attacked,
    Unattacked,
    Defended,
    Undefended,
}

/// A kind of move an obligation is about (`captures are compulsory`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    Capture,
    Drop,
    /// A move after which an enemy royal piece is attacked.
    Check,
    Promotion,
}

/// `captures are compulsory`: a player with a legal move of the kind must make one;
/// `checks are forbidden`: no move may be of the kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Obligation {
    pub kind: MoveKind,
    pub compulsory: bool,
    /// `, taking the most pieces`: only the moves taking the most pieces are kept.
    pub most: bool,
}

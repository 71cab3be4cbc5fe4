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
}

/// How a preference narrows compulsory captures to the best of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preferring {
    /// `taking the most pieces`, `taking the most King`: the most pieces of the kinds.
    Most,
    /// `by a King`: captures made by a piece of the kinds, where some are.
    By,
    /// `taking King earliest`: a piece of the kinds taken soonest in the capture's order.
    Earliest,
}

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

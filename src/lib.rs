//! variantlab: chess variants written as plain text, checked, drawn and played.

pub mod check;
pub mod compile;
pub mod diagnostic;
pub mod geometry;
pub mod model;
pub mod play;
pub mod playtest;
pub mod render;
pub mod rng;
pub mod runtime;
pub mod search;
pub mod serve;
pub mod suggest;
pub mod syntax;

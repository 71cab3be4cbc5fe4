//! The parts of a resolved [`Variant`]: its players, pieces and their move patterns,
//! zones, setups and end rules, on its board. For programs that read the rules
//! themselves; playing needs only [`Rules`](crate::Rules) and [`Game`](crate::Game).

pub use crate::geometry::{Board, Cell, Dir, DirSet, Direction, Kind, Point, Shape};
pub use crate::model::{
    Aimed, Castling, Condition, Count, CountLimit, Dest, DirBase, DirExpr, DirTerm, Drawing,
    DropRules, EndRule, Event, Explosion, Flip, Gates, Guard, Hand, Holder, Hurdle, Initial, Kinds,
    Leg, MoveKind, Nearby, NoDrop, Obligation, OptionDef, OptionId, OptionValues, Outcome, Owner,
    Pattern, PictureSet, Piece, PieceId, Place, Placed, Player, PlayerId, Points, Preference,
    Preferring, Promotion, Qualifier, RandomPool, RandomSetup, Redraw, RoyalCheck, State, TagDef,
    TagId, Trigger, Variant, Walling, Who, Zone, for_player, holds,
};

//! Reaching the runtime's cell sets, whose width depends on the board.

/// Runs `$body` with `$p` bound to the position at its width (a `&PositionOf<S>`).
macro_rules! by_view {
    ($pos:expr, $p:ident => $body:expr) => {
        match $pos.view() {
            $crate::runtime::View::One($p) => $body,
            $crate::runtime::View::Two($p) => $body,
            $crate::runtime::View::Wide8($p) => $body,
            $crate::runtime::View::Wide16($p) => $body,
        }
    };
}

/// Calls the generic function `$f::<S>(args)` with the set type of the rules' board.
macro_rules! by_width {
    ($rules:expr, $f:ident($($arg:expr),*)) => {
        match &$rules.sets {
            $crate::compile::Sets::One(_) => $f::<u64>($($arg),*),
            $crate::compile::Sets::Two(_) => $f::<u128>($($arg),*),
            $crate::compile::Sets::Wide8(_) => $f::<$crate::geometry::Wide<8>>($($arg),*),
            $crate::compile::Sets::Wide16(_) => $f::<$crate::geometry::Wide<16>>($($arg),*),
        }
    };
}

pub(crate) use {by_view, by_width};

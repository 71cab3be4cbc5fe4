//! Pictures of boards, setups and footprints: text diagrams, SVG, and the pieces'
//! pictures.

pub use crate::geometry::trim_blank_lines;
pub use crate::render::picture::piece_picture;
pub use crate::render::svg::{board_svg, footprint_svg};
pub use crate::render::text::labelled_board;
pub use crate::render::{
    CAPTURE_NOTE, Mark, board_diagram, footprint_diagram, footprint_drawing, footprint_legend,
    footprint_marks, hands_text, has_capture_only,
};

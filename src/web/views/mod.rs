//! What pages draw: the board picture and the move list.

pub mod board_svg;
pub mod legend;
pub mod listed_moves;
pub mod pictures;
pub mod piece_art;

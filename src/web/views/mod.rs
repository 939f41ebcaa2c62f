//! What pages draw: the board picture and the move list.

pub mod board_svg;
pub mod board_text;
#[cfg(test)]
mod contrast;
pub mod history;
pub mod ics;
pub mod legal_moves;
pub mod legend;
pub mod listed_moves;
pub mod move_lines;
pub mod move_warning;
pub mod movement_art;
pub mod pictures;
pub mod piece_art;
pub mod rating_chart;
pub mod svg_num;

/// A variant's name for lists ("Leap Chess (64 squares)" rather than
/// `leap-chess-64`); the stored id itself if no variant has it any more.
pub fn variant_name(id: &str) -> String {
    crate::posted::lookup::variant(id)
        .map(|v| v.name().to_string())
        .unwrap_or_else(|| id.to_string())
}

/// (id, name) of every variant offered, for a form's choices and lists.
pub fn variant_choices() -> Vec<(String, String)> {
    missive_rules::variants()
        .iter()
        .map(|v| (v.id().to_string(), v.name().to_string()))
        .collect()
}

/// (value, label) of the time-control presets a form offers.
pub fn preset_choices() -> Vec<(String, String)> {
    crate::domain::time_control::presets()
        .iter()
        .map(|(v, l)| (v.to_string(), l.to_string()))
        .collect()
}

//! Plain data for drawing a position and listing moves, so the server never
//! needs to know a variant's internals.

use crate::geometry::Square;
use crate::moves::Move;
use crate::piece::Color;
use crate::position::{Position, MAX_KINDS};
use crate::variant::{HandItem, Notation, PieceLabel, Variant};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    Hole,
    Empty,
    Piece { color: Color, label: PieceLabel },
}

#[derive(Clone, Debug)]
pub struct BoardView {
    pub width: u8,
    pub height: u8,
    /// Row-major from rank 1 (index `rank * width + file`).
    pub cells: Vec<Cell>,
    pub hands: Vec<HandItem>,
    pub side_to_move: Color,
    pub side_names: [&'static str; 2],
    /// Squares with a special role and their label.
    pub marks: Vec<(Square, &'static str)>,
    /// Lines drawn between squares' centres ([`Variant::board_lines`]).
    pub lines: Vec<(Square, Square)>,
    /// The variant's id, for pictures drawn from a piece's movement
    /// (empty for a view made up without a variant).
    pub variant: &'static str,
}

impl BoardView {
    pub fn new(variant: &dyn Variant, pos: &Position) -> BoardView {
        let mut cells = Vec::with_capacity(pos.width as usize * pos.height as usize);
        for r in 0..pos.height {
            for f in 0..pos.width {
                let sq = Square::new(f, r);
                cells.push(if pos.is_hole(sq) {
                    Cell::Hole
                } else {
                    match pos.get(sq) {
                        None => Cell::Empty,
                        Some(p) => Cell::Piece {
                            color: p.color,
                            label: filled(variant.piece_label(p)),
                        },
                    }
                });
            }
        }
        let mut hands = Vec::new();
        for color in [Color::White, Color::Black] {
            for kind in 0..MAX_KINDS {
                let count = pos.hand(color, kind as u8);
                if count > 0 {
                    let label =
                        filled(variant.piece_label(crate::piece::Piece::new(kind as u8, color)));
                    hands.push(HandItem {
                        color,
                        label,
                        count,
                    });
                }
            }
        }
        hands.extend(variant.held_counters(pos));
        let mut marks = variant.marked_squares();
        marks.extend(variant.state_marks(pos));
        BoardView {
            width: pos.width,
            height: pos.height,
            cells,
            hands,
            side_to_move: pos.side,
            side_names: [
                variant.side_name(Color::White),
                variant.side_name(Color::Black),
            ],
            marks,
            lines: variant.board_lines(),
            variant: variant.id(),
        }
    }
    pub fn cell(&self, file: u8, rank: u8) -> &Cell {
        &self.cells[rank as usize * self.width as usize + file as usize]
    }
}

fn filled(mut label: PieceLabel) -> PieceLabel {
    label.symbol = label.symbol_or_letter();
    label
}

/// A legal move as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveView {
    pub coordinate: String,
    pub display: String,
    pub game_courier: String,
    pub from: Option<Square>,
    pub to: Square,
}

/// A legal move in the two forms a game page lists it in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalMoveForms {
    pub coordinate: String,
    pub display: String,
    pub from: Option<Square>,
    pub to: Square,
    /// The move in words ([`Variant::describe_move`]).
    pub words: String,
    /// What the move costs its own side, in words ("destroys your Pawn and
    /// Knight"), or empty: such a move is legal but never offered unmarked.
    pub harm: String,
}

impl LegalMoveForms {
    /// Every move of `legal`, the legal move list of `pos` (each notation
    /// written for the whole list at once).
    pub fn all(variant: &dyn Variant, pos: &Position, legal: &[Move]) -> Vec<LegalMoveForms> {
        let costly = variant.moves_may_cost_own_pieces();
        let coordinate = variant.format_legal_moves(pos, legal, Notation::Coordinate);
        let display = variant.format_legal_moves(pos, legal, Notation::Display);
        legal
            .iter()
            .zip(coordinate)
            .zip(display)
            .map(|((mv, coordinate), display)| {
                let (from, to) = variant.move_squares(mv);
                let lost = match costly {
                    true => own_losses(variant, pos, mv),
                    false => Vec::new(),
                };
                LegalMoveForms {
                    coordinate,
                    display,
                    from,
                    to,
                    words: variant.describe_move(pos, mv),
                    harm: if lost.is_empty() {
                        String::new()
                    } else {
                        format!("This move loses {}", listed(&lost))
                    },
                }
            })
            .collect()
    }
}

impl MoveView {
    /// The views of every move of `legal`, the legal move list of `pos`:
    /// the listed forms and Game Courier's.
    pub fn all(variant: &dyn Variant, pos: &Position, legal: &[Move]) -> Vec<MoveView> {
        let game_courier = variant.format_legal_moves(pos, legal, Notation::GameCourier);
        LegalMoveForms::all(variant, pos, legal)
            .into_iter()
            .zip(game_courier)
            .map(|(m, game_courier)| MoveView {
                coordinate: m.coordinate,
                display: m.display,
                game_courier,
                from: m.from,
                to: m.to,
            })
            .collect()
    }
}

// What a move costs its own side, so that a move that destroys or loses
// the mover's own pieces is never offered unmarked.

/// The mover's pieces on the board of `pos`, by name.
fn own_pieces<V: Variant + ?Sized>(v: &V, pos: &Position, side: Color) -> Vec<String> {
    let mut names: Vec<String> = pos
        .squares()
        .filter_map(|s| pos.get(s))
        .filter(|p| p.color == side)
        .map(|p| v.piece_label(p).name)
        .collect();
    names.sort();
    names
}

/// What `mv` costs the side that plays it: the names of its own pieces the
/// move removes from the board (a piece moved onto a trap, a Nuke beside
/// one's own pieces); empty for every ordinary move. An opponent takes
/// nothing on the mover's turn, so fewer pieces after it means the move
/// itself removed them; a promotion swaps one for another.
pub(crate) fn own_losses<V: Variant + ?Sized>(v: &V, pos: &Position, mv: &Move) -> Vec<String> {
    let side = pos.side;
    let was = own_pieces(v, pos, side);
    let after = v.play(pos, mv);
    let now = own_pieces(v, &after, side);
    if now.len() >= was.len() {
        return Vec::new();
    }
    let mut lost = was;
    for n in &now {
        if let Some(i) = lost.iter().position(|l| l == n) {
            lost.remove(i);
        }
    }
    lost
}

/// "your Pawn", "your Pawn and Knight", "your Pawn, Knight and Rook".
pub(crate) fn listed(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => format!("your {one}"),
        [init @ .., last] => format!("your {} and {last}", init.join(", ")),
    }
}

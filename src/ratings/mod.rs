//! Ratings (issue 39): Glicko-2 per player and variant. `store` moves them
//! when a rated game ends, in the transaction that ends it; `read` is what
//! pages, records and the leaderboard show; `rebuild` recomputes them all
//! from the game history.

pub mod game_view;
pub mod read;
pub mod rebuild;
pub mod store;

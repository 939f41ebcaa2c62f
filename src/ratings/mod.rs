//! Ratings (issue 39): Glicko-2 per player and variant. `store` moves them
//! when a rated game ends, in the transaction that ends it; `rebuild`
//! recomputes them all from the game history; `game_view` is a game's
//! ratings as its page shows them. What pages, records and the leaderboard
//! read is `db::ratings`, beside the rows.

pub mod game_view;
pub mod rebuild;
pub mod store;

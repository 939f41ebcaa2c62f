//! Games: one file per act (challenge, play, resign, draw, finish),
//! restoring a game from its row, the mails their acts queue, records. The
//! rows they read and write, and the queries on them, are `db::games`,
//! `db::moves`, `db::conditional_lines`, `db::game_events` and
//! `db::game_notes`.

pub mod challenge;
pub mod clock;
pub mod conditional;
pub mod draw;
pub mod exports;
pub mod finish;
pub mod flag;
pub mod notify;
pub mod play;
pub mod positions;
pub mod rated_pairs;
pub mod records;
pub mod rematch;
pub mod resign;
pub mod restore;
pub mod store_move;
pub mod takeback;

//! Games: one file per act (challenge, play, resign, draw, finish), the
//! rows they read and write, restoring a game from its row, the mails
//! their acts queue, records.

pub mod challenge;
pub mod conditional;
pub mod draw;
pub mod ending;
pub mod events;
pub mod exports;
pub mod finish;
pub mod notify;
pub mod play;
pub mod positions;
pub mod rated_pairs;
pub mod records;
pub mod rematch;
pub mod resign;
pub mod restore;
pub mod rows;
pub mod store_move;
pub mod takeback;

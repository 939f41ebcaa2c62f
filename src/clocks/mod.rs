//! Game clocks as stored: each side's time as it stands, the forfeits and
//! reminders the sweep makes, and leave.

pub mod claim;
pub mod forfeit;
pub mod leave;
pub mod outage;
pub mod reminders;
pub mod silence;
pub mod turn_order;
pub mod weekends;

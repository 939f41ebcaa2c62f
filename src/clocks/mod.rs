//! Game clocks as stored: the sweep that ends games on time, reminders,
//! leave.

pub mod clocks;

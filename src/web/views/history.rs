//! A game's event history as its page shows it.

use crate::db::game_events::GameEvent;
use crate::domain::game_event::EventKind;
use std::collections::HashMap;

/// One line of the history: when, who (if a person), what.
pub struct HistoryLine {
    pub at: String,
    pub who: String,
    pub what: String,
}

/// The history, oldest first.
pub fn lines(events: &[GameEvent], names: &HashMap<i32, String>) -> Vec<HistoryLine> {
    events
        .iter()
        .map(|e| HistoryLine {
            at: e.at.format("%Y-%m-%d %H:%M UTC").to_string(),
            who: e
                .user_id
                .and_then(|u| names.get(&u).cloned())
                .unwrap_or_default(),
            what: e.detail.clone(),
        })
        .collect()
}

/// The outage extensions, as stored ("clocks extended by 3 h 12 min after a
/// service outage on …"), shown by the clocks.
pub fn outages(events: &[GameEvent]) -> Vec<String> {
    events
        .iter()
        .filter(|e| e.kind == EventKind::Outage)
        .map(|e| e.detail.clone())
        .collect()
}

//! The pure domain: what the server knows without a database or a clock
//! of its own. Errors, the states it stores as text (games, tournaments,
//! mails), time controls and their arithmetic, pairing and standings, and
//! reading a form's fields.

pub mod account_token;
pub mod api_credential;
pub mod clock;
pub mod codes;
pub mod conditional_line;
pub mod dutch;
pub mod error;
pub mod form_fields;
pub mod game_end;
pub mod game_event;
pub mod game_state;
pub mod ids;
pub mod mail_kind;
pub mod pairing;
pub mod piece_words;
pub mod push_kind;
pub mod rating;
pub mod reminders;
pub mod round_robin;
pub mod running_time;
pub mod silence;
pub mod standings;
pub mod team_match;
pub mod time_control;
pub mod tournament_state;
pub mod trf;
pub mod trf_round;
pub mod week;

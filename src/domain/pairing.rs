//! The board a tournament round is made of (issue 10). Round robins are
//! Berger tables (`round_robin`); Swiss rounds are paired by the FIDE Dutch
//! system (crate `missive-dutch`, through `crate::domain::dutch`), checked
//! round by round against bbpPairings by tests/it/swiss_oracle.rs.

/// One board of a round robin, players numbered 0..n in seed order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    Game { white: usize, black: usize },
    Bye(usize),
}

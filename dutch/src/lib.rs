//! The FIDE Dutch system (C.04.3, rules of 2025, in force from 2026): one
//! round of a Swiss tournament, exactly.
//!
//! The structure is that of bbpPairings (Bierema Boyz Programming), a
//! FIDE-endorsed program, rewritten here: instead of generating the
//! bracket's candidate pairings one by one in the order of the rules, every
//! pair of players gets a weight whose bit fields encode the criteria, most
//! important first ([`weights`]), and a maximum-weight matching over all the
//! players not yet paired finds the best pairing of the current bracket
//! that still lets the rest be paired (C.4). Brackets are paired from the
//! top score down; within one bracket the moved-down players to pair, their
//! opponents, the exchanges between S1 and S2 and finally each S1 player's
//! opponent are fixed one at a time by nudging the low bits of the weights
//! (the order rules of homogeneous and heterogeneous brackets) and matching
//! again. Colours follow E.1-E.5 ([`players::colour_of`]).

mod blossom;
mod computer;
mod engine;
pub mod players;
mod weights;
mod wide;

pub use engine::{pair, DutchError, DutchRound, MAX_PLAYERS};
pub use players::{Entrant, Record, Tournament};

//! The FIDE Dutch system: the `missive-dutch` crate (dutch/), kept apart so
//! it can be optimised in test builds as the rules engine is. Swiss rounds
//! on the server ([`crate::tournaments::swiss_field`]) and from a TRF
//! ([`super::trf_round`]) are both paired by [`pair`].

pub use missive_dutch::*;

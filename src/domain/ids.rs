//! The ids of games, players and tournaments, each its own type, so that a
//! player's id cannot be passed where a game's is meant. Each is its row's
//! integer key; `db::ids` maps them to and from their columns, and they
//! read and write as that integer (URLs, JSON, mail headers).

use std::fmt;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        #[derive(serde::Serialize, serde::Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub i32);

        impl $name {
            /// The integer key.
            pub fn get(self) -> i32 {
                self.0
            }
        }

        impl From<i32> for $name {
            fn from(id: i32) -> $name {
                $name(id)
            }
        }

        impl From<$name> for i32 {
            fn from(id: $name) -> i32 {
                id.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl std::str::FromStr for $name {
            type Err = std::num::ParseIntError;
            fn from_str(s: &str) -> Result<$name, Self::Err> {
                s.parse().map($name)
            }
        }
    };
}

id_type!(
    /// A game's id (`games.id`).
    GameId
);

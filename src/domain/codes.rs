//! States stored as text: each enum has one table of codes, used to write
//! its column, read it back and print it, so a state's spelling lives in
//! one place. Reading a code that is not in the table is an error, not a
//! default: the column is only ever written from the table.

use std::fmt;

/// A stored code that no variant of the expected state has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownCode {
    pub what: &'static str,
    pub code: String,
}

impl fmt::Display for UnknownCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} code {:?}", self.what, self.code)
    }
}

impl std::error::Error for UnknownCode {}

/// A state with a stored code: what every enum of `text_codes!` has, and
/// what hand-written ones (an end reason wraps the rules engine's) give too.
pub trait Coded: Sized + Copy + 'static {
    /// What the state is, for messages ("game status").
    const WHAT: &'static str;
    fn code(self) -> &'static str;
    fn from_code(code: &str) -> Option<Self>;
    /// [`Coded::from_code`], or the error that names the code.
    fn parse_code(code: &str) -> Result<Self, UnknownCode> {
        Self::from_code(code).ok_or_else(|| UnknownCode {
            what: Self::WHAT,
            code: code.to_string(),
        })
    }
}

/// The conversions every coded state shares: read from a stored `String`,
/// written as its code (`String` and `&'static str`), printed and
/// serialized as its code.
macro_rules! coded_conversions {
    ($name:ident) => {
        impl TryFrom<String> for $name {
            type Error = $crate::domain::codes::UnknownCode;
            fn try_from(s: String) -> Result<Self, Self::Error> {
                <$name as $crate::domain::codes::Coded>::parse_code(&s)
            }
        }
        impl From<$name> for &'static str {
            fn from(s: $name) -> &'static str {
                $crate::domain::codes::Coded::code(s)
            }
        }
        impl From<$name> for String {
            fn from(s: $name) -> String {
                $crate::domain::codes::Coded::code(s).to_string()
            }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str($crate::domain::codes::Coded::code(*self))
            }
        }
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str($crate::domain::codes::Coded::code(*self))
            }
        }
    };
}
pub(crate) use coded_conversions;

/// An enum of plain states with their codes:
/// `text_codes! { "game status", pub enum GameStatus { Pending => "pending", … } }`.
macro_rules! text_codes {
    (
        $what:literal,
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident => $code:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $name {
            /// Every state, in the order of the table.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// The stored code.
            pub const fn code(self) -> &'static str {
                match self {
                    $($name::$variant => $code),+
                }
            }
        }

        impl $crate::domain::codes::Coded for $name {
            const WHAT: &'static str = $what;
            fn code(self) -> &'static str {
                $name::code(self)
            }
            fn from_code(code: &str) -> Option<Self> {
                match code {
                    $($code => Some($name::$variant),)+
                    _ => None,
                }
            }
        }

        $crate::domain::codes::coded_conversions!($name);
    };
}
pub(crate) use text_codes;

#[cfg(test)]
mod tests {
    text_codes! {
        "test state",
        pub enum Light {
            Red => "red",
            Amber => "amber",
            Green => "green",
        }
    }

    #[test]
    fn codes_go_round_and_strangers_are_refused() {
        for &l in Light::ALL {
            assert_eq!(Light::try_from(l.code().to_string()), Ok(l));
            assert_eq!(l.to_string(), l.code());
            assert_eq!(String::from(l), l.code());
        }
        let err = Light::try_from("blue".to_string()).unwrap_err();
        assert_eq!(err.to_string(), "unknown test state code \"blue\"");
        assert_eq!(serde_json::to_string(&Light::Amber).unwrap(), "\"amber\"");
    }
}

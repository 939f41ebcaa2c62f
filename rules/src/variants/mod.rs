//! One module per variant, and the registry.

use crate::variant::Variant;

pub fn registry() -> &'static [&'static dyn Variant] {
    &[]
}

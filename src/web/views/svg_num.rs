//! Numbers written into SVG markup by integer arithmetic: a board writes a
//! few hundred coordinates, and `core::fmt` (float formatting above all)
//! was a good part of drawing one (docs/performance.md).

use std::fmt::{self, Write};

/// Append `n` in decimal.
pub fn push_int(out: &mut String, n: i64) {
    out.push_str(itoa::Buffer::new().format(n));
}

/// `v` in tenths, rounded half away from zero.
fn tenths(v: f32) -> i64 {
    (v * 10.0).round() as i64
}

/// Tenths `t` as a decimal, to a `String` or a `Formatter` alike.
fn write_tenths(out: &mut impl Write, t: i64, always_decimal: bool) -> fmt::Result {
    if t < 0 {
        out.write_char('-')?;
    }
    let t = t.abs();
    out.write_str(itoa::Buffer::new().format(t / 10))?;
    if always_decimal || t % 10 != 0 {
        out.write_char('.')?;
        out.write_char(char::from(b'0' + (t % 10) as u8))?;
    }
    Ok(())
}

/// `v` to one decimal, without a trailing ".0" (`20`, `21.9`).
pub fn push_d1(out: &mut String, v: f32) {
    // Writing to a `String` cannot fail.
    let _ = write_tenths(out, tenths(v), false);
}

/// `v` to one decimal, always written (`20.0`, `21.9`), as `{:.1}` writes
/// it but for a value exactly half a tenth off, rounded away from zero.
pub fn push_f1(out: &mut String, v: f32) {
    let _ = write_tenths(out, tenths(v), true);
}

/// [`push_d1`] for `write!`, passing on the formatter's errors.
pub struct D1(pub f32);

impl fmt::Display for D1 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_tenths(f, tenths(self.0), false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const VALUES: [f32; 12] = [
        0.0, 0.04, 0.05, 12.34, 15.84, -3.84, 43.2, 240.0, 44.96, 21.92, 44.16, 1234.56,
    ];

    #[test]
    fn one_decimal_as_float_formatting_writes_it() {
        for v in VALUES {
            let mut got = String::new();
            push_f1(&mut got, v);
            assert_eq!(got, format!("{v:.1}"), "{v}");
        }
    }

    #[test]
    fn one_decimal_without_a_trailing_zero() {
        for v in VALUES.into_iter().chain([-0.04]) {
            let want = format!("{v:.1}");
            let want = want.strip_suffix(".0").unwrap_or(&want);
            let want = if want == "-0" { "0" } else { want };
            assert_eq!(D1(v).to_string(), want, "{v}");
        }
    }

    #[test]
    fn integers() {
        for n in [0, 7, -12, 408, i64::MAX] {
            let mut got = String::new();
            push_int(&mut got, n);
            assert_eq!(got, n.to_string());
        }
    }
}

//! Timestamps to and from SQLite's text by hand.
//!
//! SQLite keeps a timestamp as text. diesel reads one by trying chrono
//! patterns in turn and writes one through chrono's `format`, both of which
//! read their pattern anew on every call: 3% of a game page's CPU, for the
//! session's and the game row's stamps. [`Stamp`] reads the text diesel
//! writes (`YYYY-MM-DD HH:MM:SS[.fff...]`) digit by digit, and anything
//! else the way diesel does; it writes exactly what diesel wrote, so stored
//! text and text compared against it stay the same. PostgreSQL's stamps are
//! binary and go through diesel's own code.
//!
//! A row type takes it with `#[diesel(deserialize_as = Stamp)]` (or
//! [`MaybeStamp`] for a nullable column) and keeps its `NaiveDateTime`.

use chrono::{Datelike, NaiveDate, NaiveDateTime, Timelike};
use diesel::deserialize::{self, FromSql, FromSqlRow};
use diesel::expression::AsExpression;
use diesel::pg::Pg;
use diesel::serialize::{self, IsNull, Output, ToSql};
use diesel::sql_types::{Nullable, Text, Timestamp};
use diesel::sqlite::Sqlite;
use std::fmt::Write;

use super::MultiBackend;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, FromSqlRow, AsExpression)]
#[diesel(sql_type = Timestamp)]
pub struct Stamp(pub NaiveDateTime);

/// A nullable timestamp column read as [`Stamp`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromSqlRow)]
pub struct MaybeStamp(pub Option<NaiveDateTime>);

impl From<NaiveDateTime> for Stamp {
    fn from(t: NaiveDateTime) -> Stamp {
        Stamp(t)
    }
}

impl From<Stamp> for NaiveDateTime {
    fn from(s: Stamp) -> NaiveDateTime {
        s.0
    }
}

impl From<MaybeStamp> for Option<NaiveDateTime> {
    fn from(s: MaybeStamp) -> Option<NaiveDateTime> {
        s.0
    }
}

/// `YYYY-MM-DD HH:MM:SS` (or a `T` between), then optionally `.` and one
/// to nine digits: the only shape diesel writes. `None` for anything else.
fn parse_plain(text: &str) -> Option<NaiveDateTime> {
    let b = text.as_bytes();
    if b.len() < 19 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b' ' | b'T') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let num = |from: usize, to: usize| -> Option<u32> {
        b[from..to].iter().try_fold(0u32, |n, &c| {
            c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
        })
    };
    let date = NaiveDate::from_ymd_opt(num(0, 4)? as i32, num(5, 7)?, num(8, 10)?)?;
    let nanos = match &b[19..] {
        [] => 0,
        [b'.', digits @ ..] if (1..=9).contains(&digits.len()) => {
            num(20, b.len())? * 10u32.pow(9 - digits.len() as u32)
        }
        _ => return None,
    };
    date.and_hms_nano_opt(num(11, 13)?, num(14, 16)?, num(17, 19)?, nanos)
}

/// What diesel writes: chrono's `%F %T%.f`, whose fraction is left out when
/// zero, else given in 3, 6 or 9 digits, the fewest that hold it exactly.
fn write_plain(t: NaiveDateTime) -> String {
    if !(0..=9999).contains(&t.year()) {
        // chrono signs such years; rare enough to leave to it.
        return t.format("%F %T%.f").to_string();
    }
    let mut s = String::with_capacity(29);
    let _ = write!(
        s,
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
        t.year(),
        t.month(),
        t.day(),
        t.hour(),
        t.minute(),
        t.second()
    );
    let n = t.nanosecond();
    if n == 0 {
    } else if n.is_multiple_of(1_000_000) {
        let _ = write!(s, ".{:03}", n / 1_000_000);
    } else if n.is_multiple_of(1_000) {
        let _ = write!(s, ".{:06}", n / 1_000);
    } else {
        let _ = write!(s, ".{n:09}");
    }
    s
}

/// What diesel makes of a stamp in another shape (written by hand, or a
/// Julian day number): its patterns in its order, then the day number.
fn parse_other(text: &str) -> Option<NaiveDateTime> {
    const PATTERNS: [&str; 18] = [
        "%F %T%.f",
        "%F %T%.f%:z",
        "%F %T",
        "%F %T%:z",
        "%F %R",
        "%F %RZ",
        "%F %R%:z",
        "%F %TZ",
        "%F %T%.fZ",
        "%FT%R",
        "%FT%RZ",
        "%FT%R%:z",
        "%FT%T",
        "%FT%TZ",
        "%FT%T%:z",
        "%FT%T%.f",
        "%FT%T%.fZ",
        "%FT%T%.f%:z",
    ];
    if let Some(t) = PATTERNS
        .iter()
        .find_map(|p| NaiveDateTime::parse_from_str(text, p).ok())
    {
        return Some(t);
    }
    let days: f64 = text.parse().ok()?;
    let secs = (days - 2_440_587.5) * 86_400.0;
    chrono::DateTime::from_timestamp(secs.trunc() as i64, (secs.fract() * 1e9) as u32)
        .map(|t| t.naive_utc())
}

impl FromSql<Timestamp, Sqlite> for Stamp {
    fn from_sql(value: diesel::sqlite::SqliteValue<'_, '_, '_>) -> deserialize::Result<Self> {
        let text = <String as FromSql<Text, Sqlite>>::from_sql(value)?;
        parse_plain(&text)
            .or_else(|| parse_other(&text))
            .map(Stamp)
            .ok_or_else(|| format!("Invalid datetime {text}").into())
    }
}

impl ToSql<Timestamp, Sqlite> for Stamp {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Sqlite>) -> serialize::Result {
        out.set_value(write_plain(self.0));
        Ok(IsNull::No)
    }
}

impl FromSql<Timestamp, Pg> for Stamp {
    fn from_sql(value: diesel::pg::PgValue<'_>) -> deserialize::Result<Self> {
        <NaiveDateTime as FromSql<Timestamp, Pg>>::from_sql(value).map(Stamp)
    }
}

impl ToSql<Timestamp, Pg> for Stamp {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Pg>) -> serialize::Result {
        <NaiveDateTime as ToSql<Timestamp, Pg>>::to_sql(&self.0, out)
    }
}

impl FromSql<Timestamp, MultiBackend> for Stamp {
    fn from_sql(
        value: <MultiBackend as diesel::backend::Backend>::RawValue<'_>,
    ) -> deserialize::Result<Self> {
        value.from_sql::<Self, Timestamp>()
    }
}

impl ToSql<Timestamp, MultiBackend> for Stamp {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, MultiBackend>) -> serialize::Result {
        out.set_value((Timestamp, self));
        Ok(IsNull::No)
    }
}

impl<DB: diesel::backend::Backend> FromSql<Nullable<Timestamp>, DB> for MaybeStamp
where
    Stamp: FromSql<Timestamp, DB>,
{
    fn from_sql(value: DB::RawValue<'_>) -> deserialize::Result<Self> {
        Stamp::from_sql(value).map(|s| MaybeStamp(Some(s.0)))
    }
    fn from_nullable_sql(value: Option<DB::RawValue<'_>>) -> deserialize::Result<Self> {
        value.map_or(Ok(MaybeStamp(None)), Self::from_sql)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use diesel::dsl::sql;
    use diesel::prelude::*;

    fn sqlite() -> diesel::SqliteConnection {
        diesel::SqliteConnection::establish(":memory:").unwrap()
    }

    fn times() -> Vec<NaiveDateTime> {
        let day = NaiveDate::from_ymd_opt(2026, 11, 25).unwrap();
        let mut v = vec![
            day.and_hms_opt(0, 0, 0).unwrap(),
            NaiveDate::from_ymd_opt(999, 1, 2)
                .unwrap()
                .and_hms_opt(23, 59, 59)
                .unwrap(),
            NaiveDate::from_ymd_opt(12345, 6, 7)
                .unwrap()
                .and_hms_opt(8, 9, 10)
                .unwrap(),
        ];
        for nanos in [
            1,
            10,
            999,
            1_000,
            120_000,
            123_456_000,
            5_000_000,
            500_000_000,
            999_999_999,
        ] {
            v.push(day.and_hms_nano_opt(13, 7, 42, nanos).unwrap());
        }
        v
    }

    /// Written as diesel wrote (so stored text compares as before), and
    /// read back as diesel reads.
    #[test]
    fn writes_and_reads_what_diesel_does() {
        let mut c = sqlite();
        for t in times() {
            let ours: String = diesel::select(sql::<Text>("").bind::<Timestamp, _>(Stamp(t)))
                .get_result(&mut c)
                .unwrap();
            let diesels: String = diesel::select(sql::<Text>("").bind::<Timestamp, _>(t))
                .get_result(&mut c)
                .unwrap();
            assert_eq!(ours, diesels);
            let back: Stamp = diesel::select(sql::<Timestamp>("").bind::<Text, _>(&diesels))
                .get_result(&mut c)
                .unwrap();
            assert_eq!(back.0, t, "{diesels}");
        }
    }

    /// Through the connection type the services use (diesel's multi-backend
    /// binding) and as a nullable value, the same text again.
    #[test]
    fn writes_the_same_through_the_multi_backend_and_as_nullable() {
        let dir = tempfile::tempdir().unwrap();
        let mut c = super::super::Manager::new(&dir.path().join("s.db").to_string_lossy())
            .open()
            .unwrap();
        let mut plain = sqlite();
        for t in times() {
            let multi: String = diesel::select(sql::<Text>("").bind::<Timestamp, _>(Stamp(t)))
                .get_result(&mut c)
                .unwrap();
            let nullable: Option<String> = diesel::select(
                sql::<Nullable<Text>>("").bind::<Nullable<Timestamp>, _>(Some(Stamp(t))),
            )
            .get_result(&mut plain)
            .unwrap();
            let diesels: String = diesel::select(sql::<Text>("").bind::<Timestamp, _>(t))
                .get_result(&mut plain)
                .unwrap();
            assert_eq!(multi, diesels);
            assert_eq!(nullable.as_deref(), Some(diesels.as_str()));
        }
    }

    /// Stamps in other shapes (written by hand, SQLite's own functions, a
    /// Julian day number) read as diesel reads them; nonsense is an error.
    #[test]
    fn other_shapes_read_as_diesel_reads_them() {
        let mut c = sqlite();
        for text in [
            "'2026-11-25 13:07:42'",
            "'2026-11-25T13:07:42.5'",
            "'2026-11-25 13:07'",
            "'2026-11-25T13:07:42Z'",
            "'2026-11-25 13:07:42+02:00'",
            "'2026-11-25 13:07:42.1234567891'",
            "datetime('now')",
            "2461005.5",
        ] {
            let ours: Stamp = diesel::select(sql::<Timestamp>(text))
                .get_result(&mut c)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            let diesels: NaiveDateTime = diesel::select(sql::<Timestamp>(text))
                .get_result(&mut c)
                .unwrap();
            assert_eq!(ours.0, diesels, "{text}");
        }
        for text in [
            "'2026-13-01 00:00:00'",
            "'2026-11-25 25:00:00'",
            "'yesterday'",
            "'2026-11-25 13:07:42.'",
        ] {
            let ours = diesel::select(sql::<Timestamp>(text)).get_result::<Stamp>(&mut c);
            let diesels =
                diesel::select(sql::<Timestamp>(text)).get_result::<NaiveDateTime>(&mut c);
            assert_eq!(ours.is_err(), diesels.is_err(), "{text}");
        }
    }

    #[test]
    fn a_null_stamp_is_none() {
        let mut c = sqlite();
        let none: MaybeStamp = diesel::select(sql::<Nullable<Timestamp>>("NULL"))
            .get_result(&mut c)
            .unwrap();
        assert_eq!(none.0, None);
        let some: MaybeStamp = diesel::select(sql::<Nullable<Timestamp>>("'2026-11-25 01:02:03'"))
            .get_result(&mut c)
            .unwrap();
        assert_eq!(
            some.0,
            NaiveDate::from_ymd_opt(2026, 11, 25)
                .unwrap()
                .and_hms_opt(1, 2, 3)
        );
    }
}

//! Reading a nullable coded column ([`crate::domain::codes`]) into an
//! `Option` of its state: `#[diesel(deserialize_as = MaybeCoded<T>)]`.
//! A non-null one needs nothing of its own: `deserialize_as = String`,
//! then the state's `TryFrom<String>`.

use crate::domain::codes::Coded;
use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql, FromSqlRow};
use diesel::sql_types::{Nullable, Text};

#[derive(Debug, Clone, Copy, PartialEq, Eq, FromSqlRow)]
pub struct MaybeCoded<T: Coded>(pub Option<T>);

impl<T: Coded> From<MaybeCoded<T>> for Option<T> {
    fn from(c: MaybeCoded<T>) -> Option<T> {
        c.0
    }
}

impl<T: Coded, DB: Backend> FromSql<Nullable<Text>, DB> for MaybeCoded<T>
where
    String: FromSql<Text, DB>,
{
    fn from_sql(value: DB::RawValue<'_>) -> deserialize::Result<Self> {
        let code = String::from_sql(value)?;
        Ok(MaybeCoded(Some(T::parse_code(&code)?)))
    }
    fn from_nullable_sql(value: Option<DB::RawValue<'_>>) -> deserialize::Result<Self> {
        value.map_or(Ok(MaybeCoded(None)), Self::from_sql)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::game_state::{EndReason, GameResult};
    use diesel::dsl::sql;
    use diesel::prelude::*;

    #[test]
    fn reads_null_a_code_and_refuses_a_stranger() {
        let mut c = diesel::SqliteConnection::establish(":memory:").unwrap();
        let none: MaybeCoded<GameResult> = diesel::select(sql::<Nullable<Text>>("NULL"))
            .get_result(&mut c)
            .unwrap();
        assert_eq!(none.0, None);
        let draw: MaybeCoded<GameResult> = diesel::select(sql::<Nullable<Text>>("'1/2-1/2'"))
            .get_result(&mut c)
            .unwrap();
        assert_eq!(draw.0, Some(GameResult::Draw));
        let mate: MaybeCoded<EndReason> = diesel::select(sql::<Nullable<Text>>("'checkmate'"))
            .get_result(&mut c)
            .unwrap();
        assert_eq!(
            mate.0,
            Some(EndReason::Rules(missive_rules::Reason::Checkmate))
        );
        // diesel reports the field, not the cause: that it fails is the point.
        let stranger = diesel::select(sql::<Nullable<Text>>("'2-0'"))
            .get_result::<MaybeCoded<GameResult>>(&mut c);
        assert!(stranger.is_err());
    }
}

//! The domain's id types as integer columns: read from, written to and
//! compared with `Integer` (and `Nullable<Integer>`) columns as the `i32`
//! they wrap, on either backend. What diesel's derives would write, kept
//! here so that the domain names no database.

use crate::domain::ids::GameId;
use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql, Queryable};
use diesel::expression::AsExpression;
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::{Integer, Nullable, SingleValue};

macro_rules! integer_column {
    ($name:ident) => {
        impl<DB: Backend> FromSql<Integer, DB> for $name
        where
            i32: FromSql<Integer, DB>,
        {
            fn from_sql(value: DB::RawValue<'_>) -> deserialize::Result<Self> {
                i32::from_sql(value).map($name)
            }
        }

        impl<DB: Backend> ToSql<Integer, DB> for $name
        where
            i32: ToSql<Integer, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
                self.0.to_sql(out)
            }
        }

        impl<DB: Backend, ST: SingleValue> Queryable<ST, DB> for $name
        where
            $name: FromSql<ST, DB>,
        {
            type Row = Self;
            fn build(row: Self) -> deserialize::Result<Self> {
                Ok(row)
            }
        }

        impl AsExpression<Integer> for $name {
            type Expression = <i32 as AsExpression<Integer>>::Expression;
            fn as_expression(self) -> Self::Expression {
                <i32 as AsExpression<Integer>>::as_expression(self.0)
            }
        }

        impl AsExpression<Integer> for &$name {
            type Expression = <i32 as AsExpression<Integer>>::Expression;
            fn as_expression(self) -> Self::Expression {
                <i32 as AsExpression<Integer>>::as_expression(self.0)
            }
        }

        impl AsExpression<Nullable<Integer>> for $name {
            type Expression = <i32 as AsExpression<Nullable<Integer>>>::Expression;
            fn as_expression(self) -> Self::Expression {
                <i32 as AsExpression<Nullable<Integer>>>::as_expression(self.0)
            }
        }

        impl AsExpression<Nullable<Integer>> for &$name {
            type Expression = <i32 as AsExpression<Nullable<Integer>>>::Expression;
            fn as_expression(self) -> Self::Expression {
                <i32 as AsExpression<Nullable<Integer>>>::as_expression(self.0)
            }
        }
    };
}

integer_column!(GameId);

#[cfg(test)]
mod tests {
    use super::*;
    use diesel::dsl::sql;
    use diesel::prelude::*;

    #[test]
    fn an_id_reads_writes_and_compares_as_its_integer() {
        let mut c = diesel::SqliteConnection::establish(":memory:").unwrap();
        let id: GameId = diesel::select(sql::<Integer>("7"))
            .get_result(&mut c)
            .unwrap();
        assert_eq!(id, GameId(7));
        let none: Option<GameId> = diesel::select(sql::<Nullable<Integer>>("NULL"))
            .get_result(&mut c)
            .unwrap();
        assert_eq!(none, None);
        let same: bool = diesel::select(sql::<Integer>("7").eq(id))
            .get_result(&mut c)
            .unwrap();
        assert!(same);
        let bound: i32 = diesel::select(GameId(3).into_sql::<Integer>())
            .get_result(&mut c)
            .unwrap();
        assert_eq!(bound, 3);
    }
}

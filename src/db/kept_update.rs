//! An UPDATE that the connection keeps prepared.
//!
//! diesel marks every `UpdateStatement` unsafe to cache (a changeset of
//! optional fields may leave columns out, so its SQL can change from run to
//! run), and so compiled the move's guarded UPDATE of its game again on
//! every move: parsing and planning it was a tenth of the SQLite writer's
//! time and 4% of a move POST (`perf`). [`KeptUpdate`] writes the same
//! `UPDATE table SET … WHERE …` from a changeset and a filter. Its statement
//! is cached under its SQL text (diesel writes the text each run and looks
//! it up), so a changeset that did leave a column out would make a second
//! statement, never run the wrong one.

use diesel::backend::Backend;
use diesel::expression::{AppearsOnTable, Expression};
use diesel::query_builder::{AsChangeset, AstPass, QueryFragment, QueryId};
use diesel::query_dsl::RunQueryDsl;
use diesel::sql_types::Bool;
use diesel::{QueryResult, Table};

/// `UPDATE table SET changeset WHERE filter`, prepared once per connection.
pub struct KeptUpdate<T: Table, C, W> {
    from: T::FromClause,
    changeset: C,
    filter: W,
}

/// Update the rows of `table` that `filter` selects with `values`, as
/// `diesel::update(table.filter(filter)).set(values)` would.
pub fn kept_update<T, V, W>(table: T, filter: W, values: V) -> KeptUpdate<T, V::Changeset, W>
where
    T: Table,
    V: AsChangeset<Target = T>,
    W: Expression<SqlType = Bool> + AppearsOnTable<T>,
{
    KeptUpdate {
        from: table.from_clause(),
        changeset: values.as_changeset(),
        filter,
    }
}

impl<T, C, W, DB> QueryFragment<DB> for KeptUpdate<T, C, W>
where
    DB: Backend,
    T: Table,
    T::FromClause: QueryFragment<DB>,
    C: QueryFragment<DB>,
    W: QueryFragment<DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        out.push_sql("UPDATE ");
        self.from.walk_ast(out.reborrow())?;
        out.push_sql(" SET ");
        self.changeset.walk_ast(out.reborrow())?;
        out.push_sql(" WHERE ");
        self.filter.walk_ast(out.reborrow())
    }
}

/// No static id: the statement cache keys it by its SQL text.
impl<T: Table, C, W> QueryId for KeptUpdate<T, C, W> {
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<T: Table, C, W, Conn> RunQueryDsl<Conn> for KeptUpdate<T, C, W> {}

#[cfg(test)]
mod tests {
    use super::*;
    use diesel::connection::{Instrumentation, InstrumentationEvent};
    use diesel::prelude::*;
    use diesel::sqlite::SqliteConnection;
    use std::sync::{Arc, Mutex};

    diesel::table! {
        items (id) {
            id -> Integer,
            name -> Text,
            n -> Nullable<Integer>,
        }
    }

    /// Counts the statements the connection prepares for its cache.
    #[derive(Clone, Default)]
    struct Prepared(Arc<Mutex<Vec<String>>>);

    impl Instrumentation for Prepared {
        fn on_connection_event(&mut self, event: InstrumentationEvent<'_>) {
            if let InstrumentationEvent::CacheQuery { sql, .. } = event {
                self.0.lock().unwrap().push(sql.to_string());
            }
        }
    }

    fn conn() -> (SqliteConnection, Prepared) {
        let mut c = SqliteConnection::establish(":memory:").unwrap();
        diesel::sql_query(
            "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, n INTEGER)",
        )
        .execute(&mut c)
        .unwrap();
        diesel::sql_query("INSERT INTO items VALUES (1, 'a', NULL), (2, 'b', 5)")
            .execute(&mut c)
            .unwrap();
        let p = Prepared::default();
        c.set_instrumentation(p.clone());
        (c, p)
    }

    fn rows(c: &mut SqliteConnection) -> Vec<(i32, String, Option<i32>)> {
        items::table.order(items::id).load(c).unwrap()
    }

    /// It changes what diesel's own UPDATE changes, with NULLs bound alike.
    #[test]
    fn it_updates_as_diesels_update_does() {
        let (mut a, _) = conn();
        let (mut b, _) = conn();
        for (id, name, n) in [(1, "x", Some(3)), (2, "y", None), (3, "z", Some(1))] {
            let kept = kept_update(
                items::table,
                items::id.eq(id).and(items::name.ne("never")),
                (items::name.eq(name), items::n.eq(n)),
            )
            .execute(&mut a)
            .unwrap();
            let plain =
                diesel::update(items::table.filter(items::id.eq(id).and(items::name.ne("never"))))
                    .set((items::name.eq(name), items::n.eq(n)))
                    .execute(&mut b)
                    .unwrap();
            assert_eq!(kept, plain);
        }
        assert_eq!(rows(&mut a), rows(&mut b));
        assert_eq!(rows(&mut a)[1], (2, "y".to_string(), None));
    }

    /// Prepared once, whatever its values; diesel's own UPDATE is prepared
    /// on every run (what this module is for).
    #[test]
    fn it_is_prepared_once() {
        let (mut c, prepared) = conn();
        for i in 0..5 {
            kept_update(items::table, items::id.eq(1), (items::n.eq(Some(i)),))
                .execute(&mut c)
                .unwrap();
            kept_update(items::table, items::id.eq(2), (items::n.eq(None::<i32>),))
                .execute(&mut c)
                .unwrap();
        }
        assert_eq!(prepared.0.lock().unwrap().len(), 1, "{:?}", prepared.0);
        for i in 0..3 {
            diesel::update(items::table.filter(items::id.eq(1)))
                .set(items::n.eq(Some(i)))
                .execute(&mut c)
                .unwrap();
        }
        assert_eq!(
            prepared.0.lock().unwrap().len(),
            1,
            "diesel's UPDATE is not cached"
        );
    }
}

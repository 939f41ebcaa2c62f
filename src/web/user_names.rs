//! Usernames by user id, kept between pages.
//!
//! Looking up a game's players' names was a twentieth of a game page's CPU
//! (`perf`, docs/performance.md). A username is chosen at sign-up and never
//! changed, so a name once read stays right; the one exception is a
//! deleted account, renamed `deleted-ID`, which the process that deletes
//! it forgets ([`UserNames::forget`]). Another server process on the same
//! database keeps showing the old name until it drops it from its cache.

use crate::domain::error::Error;
use quick_cache::sync::Cache;
use std::collections::HashMap;

pub struct UserNames {
    names: Cache<i32, String>,
}

impl UserNames {
    /// A cache of up to `capacity` names (0: keeps none).
    pub fn new(capacity: usize) -> UserNames {
        UserNames {
            names: Cache::new(capacity),
        }
    }

    /// Drop a name (its account was deleted and renamed).
    pub fn forget(&self, id: i32) {
        self.names.remove(&id);
    }

    /// The names of `ids`: the kept ones, and the others read with `read`
    /// (given only the ids not kept) and kept. An id `read` does not find
    /// is left out, as it would be from the query.
    pub fn of(
        &self,
        ids: &[i32],
        read: impl FnOnce(&[i32]) -> Result<HashMap<i32, String>, Error>,
    ) -> Result<HashMap<i32, String>, Error> {
        let mut found = HashMap::with_capacity(ids.len());
        let mut missing = Vec::new();
        for &id in ids {
            match self.names.get(&id) {
                Some(name) => {
                    found.insert(id, name);
                }
                None if !missing.contains(&id) => missing.push(id),
                None => {}
            }
        }
        if !missing.is_empty() {
            for (id, name) in read(&missing)? {
                self.names.insert(id, name.clone());
                found.insert(id, name);
            }
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    #[test]
    fn names_are_read_once_and_only_the_missing_ones() {
        let names = UserNames::new(100);
        let asked = RefCell::new(Vec::new());
        let read = |ids: &[i32]| {
            asked.borrow_mut().push(ids.to_vec());
            Ok(ids
                .iter()
                .filter(|&&id| id != 404)
                .map(|&id| (id, format!("user{id}")))
                .collect())
        };
        let first = names.of(&[1, 2, 2], read).unwrap();
        assert_eq!(first.len(), 2);
        assert_eq!(first[&2], "user2");
        let second = names.of(&[2, 3, 404], read).unwrap();
        assert_eq!(second.len(), 2, "an unknown id is left out");
        assert_eq!(second[&3], "user3");
        assert_eq!(*asked.borrow(), vec![vec![1, 2], vec![3, 404]]);
        names.of(&[1, 2, 3], read).unwrap();
        assert_eq!(asked.borrow().len(), 2, "all kept: no read");
        assert!(names.of(&[5], |_| Err(Error::internal("down"))).is_err());
        let none = UserNames::new(0);
        none.of(&[1], read).unwrap();
        none.of(&[1], read).unwrap();
        assert_eq!(asked.borrow().len(), 4, "a cache of no size keeps nothing");
    }
}

//! Typed values of a definition's keys: booleans, numbers, game-end values.

use super::ini::Entry;
use super::{SpecError, Value};

pub(super) struct Reader<'a> {
    pub(super) entries: &'a [Entry],
}

impl<'a> Reader<'a> {
    pub(super) fn get(&self, key: &str) -> Option<&'a Entry> {
        self.entries.iter().find(|e| e.key == key)
    }
    pub(super) fn bool(&self, key: &str, default: bool) -> Result<bool, SpecError> {
        match self.get(key) {
            None => Ok(default),
            Some(e) => match e.value.as_str() {
                "true" => Ok(true),
                "false" => Ok(false),
                v => Err(SpecError::key(
                    e.line,
                    key,
                    format_args!("must be true or false, not `{v}`"),
                )),
            },
        }
    }
    pub(super) fn int(&self, key: &str, default: i64, max: i64) -> Result<i64, SpecError> {
        match self.get(key) {
            None => Ok(default),
            Some(e) => e
                .value
                .parse::<i64>()
                .ok()
                .filter(|n| (0..=max).contains(n))
                .ok_or_else(|| {
                    SpecError::key(
                        e.line,
                        key,
                        format_args!("must be a number from 0 to {max}"),
                    )
                }),
        }
    }
    pub(super) fn value(&self, key: &str) -> Result<Option<Option<Value>>, SpecError> {
        let Some(e) = self.get(key) else {
            return Ok(None);
        };
        Ok(Some(match e.value.as_str() {
            "win" => Some(Value::Win),
            "loss" => Some(Value::Loss),
            "draw" => Some(Value::Draw),
            "none" => None,
            v => {
                return Err(SpecError::key(
                    e.line,
                    key,
                    format_args!("must be win, loss, draw or none, not `{v}`"),
                ))
            }
        }))
    }
}

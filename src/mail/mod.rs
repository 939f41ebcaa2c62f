//! Mail: the kinds' template folders, rendering queued mails, the
//! transport, the outbox drain, digests.
//! Mails are queued by the use cases through `db::outbox`.

pub mod account_mails;
pub mod context;
pub mod digest;
pub mod drain;
pub mod kinds;
pub mod render;
pub mod transport;

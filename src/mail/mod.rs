//! Mail: rendering queued mails, the transport, the outbox drain, digests.

pub mod digest;
pub mod mail;

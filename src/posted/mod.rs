//! Variants players post (issue 62): a definition checked before it is
//! kept, versions that games keep to, visibility, and approval for rated
//! play. The variant a stored key names comes from [`lookup`].

pub mod check;
pub mod lookup;
pub mod post;

//! Scoring: the offline rubric analyzer for content (and, with recordings, delivery).
//! Deterministic: the same input gives the same numbers.

pub mod content;
pub mod signals;

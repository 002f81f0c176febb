//! Skills: named sequences of tool calls for the frequent jobs. Built-in skills are Rust; each
//! calls tools through [`crate::tools::call`], so every step is timed, limited and audited.

pub mod compare_expert;
pub mod diagnose_audio;
pub mod diagnose_transcript;
pub mod split_transcript;

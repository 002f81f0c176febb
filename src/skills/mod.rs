//! Skills: named sequences of tool calls for the frequent jobs. Built-in skills are Rust; each
//! calls tools through [`crate::tools::call`], so every step is timed, limited and audited. Each has
//! a SKILL.md ([`manifest`]); users add prompt-only skills ([`registry`]); [`discovery`] routes a
//! request to one.

pub mod batch;
pub mod builtin;
pub mod compare_expert;
pub mod diagnose_audio;
pub mod diagnose_transcript;
pub mod discovery;
pub mod manifest;
pub mod mock_interview;
pub mod mock_session;
pub mod mock_voice;
pub mod registry;
pub mod split_transcript;

/// Record a finished skill in the audit log, with its outcome.
pub(crate) fn audit<T>(
    ctx: &crate::tools::ToolContext,
    name: &str,
    started: std::time::Instant,
    path: &str,
    result: &Result<T, crate::tools::ToolError>,
) {
    let status = result.as_ref().map(|_| "ok").unwrap_or_else(|e| e.code.as_str());
    ctx.audit_call("skill", name, status, started, path.as_bytes());
}

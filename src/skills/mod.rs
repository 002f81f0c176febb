//! Skills: named sequences of tool calls for the frequent jobs. Built-in skills are Rust; each
//! calls tools through [`crate::tools::call`], so every step is timed, limited and audited.

pub mod compare_expert;
pub mod diagnose_audio;
pub mod diagnose_transcript;
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

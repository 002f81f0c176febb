//! Keeping a finished diagnosis: compared with the profile's previous one, stored with its input
//! digest and scores, and given the profile's trend (which the HTML report draws). A history that
//! cannot be written is said on stderr, never a reason to lose the diagnosis.

use sha2::{Digest, Sha256};

use crate::report::build;
use crate::report::model::Report;
use crate::store::Store;
use crate::tools::generate_report::ReportFormat;
use crate::tools::{ToolContext, ToolError};

/// Store `report` (kind "diagnosis" or "mock", `digest` the input's sha256) for the configured profile and fill its
/// `compared_to_last` and `trend`; the report rendered again when anything was added.
pub fn remember(
    ctx: &ToolContext,
    report: &mut Report,
    kind: &str,
    digest: &str,
    format: ReportFormat,
) -> Result<Option<String>, ToolError> {
    if !ctx.config.history {
        return Ok(None);
    }
    let profile = ctx.config.profile.clone();
    let stored = (|| {
        let mut store = Store::open(&ctx.config.home)?;
        let zh = report.meta.lang == "zh";
        if let Some((row, prev)) = store.last_session(&profile, kind)? {
            report.compared_to_last = Some(build::compare(&prev, row.id, report, zh));
        }
        store.record_session(kind, &profile, &report.source.path, digest, report)?;
        // One session is no trend (and its own timestamp would make equal runs differ).
        let trend = store.trend(&profile)?;
        if trend.len() >= 2 {
            report.trend = trend;
        }
        Ok::<(), crate::store::StoreError>(())
    })();
    if let Err(e) = stored {
        eprintln!("warning: the history was not updated: {e}");
        return Ok(None);
    }
    render_as(ctx, report, format).map(Some)
}

/// `report` rendered in `format` (see [`crate::tools::generate_report::render_report`]).
pub fn render_as(ctx: &ToolContext, report: &Report, format: ReportFormat) -> Result<String, ToolError> {
    crate::tools::generate_report::render_report(ctx, report, format)
}

/// sha256 of a file, streamed (recordings can be large).
pub fn digest_file(path: &std::path::Path) -> Result<String, ToolError> {
    use std::io::Read;
    let fail = |e: std::io::Error| {
        ToolError::service(format!("cannot read {}: {e}", path.display()), "check the file's permissions")
    };
    let mut f = std::fs::File::open(path).map_err(fail)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f.read(&mut buf).map_err(fail)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(format!("{:x}", h.finalize()))
}

//! A finished report into its profile's history: compared with the profile's previous session of
//! the same kind, stored with its input digest and per-question scores, and given the profile's
//! trend (which the HTML report draws). The store keeps plain rows; this is where a report
//! becomes them.

use super::build;
use super::model::Report;
use crate::store::history::{NewSession, QuestionScores};
use crate::store::{Store, StoreError};

/// The rows `report` is stored as.
pub fn session(report: &Report, kind: &str, profile: &str, digest: &str) -> Result<NewSession, StoreError> {
    let report_json = serde_json::to_string(report)
        .map_err(|e| StoreError { path: "report".into(), message: format!("cannot encode the report: {e}") })?;
    let questions = report
        .questions
        .iter()
        .map(|q| {
            let c = &q.content;
            QuestionScores {
                entry_id: q.references.first().map(|r| r.id.clone()),
                dimension: q.dimension.clone(),
                overall: c.overall,
                completeness: c.completeness.score,
                depth: c.depth.score,
                accuracy: c.accuracy.score,
                practicality: c.practicality.score,
                speech: q.speech.as_ref().and_then(|s| s.get("overall")).and_then(|v| v.as_i64()),
            }
        })
        .collect();
    Ok(NewSession {
        kind: kind.to_string(),
        profile: profile.to_string(),
        created_at: report.meta.generated_at.clone(),
        source: report.source.path.clone(),
        digest: digest.to_string(),
        language: report.source.language.as_str().to_string(),
        overall: report.summary.overall_score,
        content_avg: report.summary.content_avg,
        speech_avg: report.summary.speech_avg,
        report_json,
        questions,
    })
}

/// Store `report` (kind "diagnosis" or "mock", `digest` the input's sha256) for `profile`, and fill
/// its `compared_to_last` and `trend`. Blocking (SQLite).
pub fn remember(
    store: &mut Store,
    report: &mut Report,
    kind: &str,
    profile: &str,
    digest: &str,
) -> Result<(), StoreError> {
    if let Some((row, json)) = store.last_session(profile, kind)? {
        // A report stored by an older version that no longer reads is simply not compared.
        if let Ok(prev) = serde_json::from_str::<Report>(&json) {
            report.compared_to_last = Some(build::compare(&prev, row.id, report, report.meta.lang.is_zh()));
        }
    }
    store.record_session(&session(report, kind, profile, digest)?)?;
    // One session is no trend (and its own timestamp would make equal runs differ).
    let trend = store.trend(profile)?;
    if trend.len() >= 2 {
        report.trend = trend;
    }
    Ok(())
}

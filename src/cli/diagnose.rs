//! `ivd diagnose FILE`: a transcript, document or recording in, a report out.

use std::path::Path;
use std::sync::Arc;

use anyhow::anyhow;

use super::{context_for_file, write_stdout, CliError, RoleArgs};
use crate::config::Config;
use crate::report::ReportFormat;
use crate::skills::diagnose_transcript;

pub(super) async fn diagnose(
    config: Arc<Config>,
    file: &Path,
    format: ReportFormat,
    out: Option<&Path>,
    lang: Option<crate::lang::Lang>,
    roles: &RoleArgs,
    audio: &super::transcribe::AudioArgs,
) -> Result<(), CliError> {
    let cancel = super::interrupt::token();
    let kept = "nothing was written";
    let (report, rendered) = if crate::audio::is_audio_path(file) {
        super::transcribe::diagnose(config, file, format, lang, roles, audio, &cancel)
            .await
            .map_err(|e| super::interrupt::or_stopped(e, &cancel, kept))?
    } else {
        let (mut ctx, name) = context_for_file(config, file)?;
        ctx.cancel = cancel.clone();
        diagnose_transcript::run(&ctx, &name, &file.display().to_string(), format, lang, &roles.hints()).await.map_err(
            |e| {
                let mut err = super::interrupt::or_stopped(e, &cancel, kept);
                err.error = err.error.context(format!("cannot diagnose {}", file.display()));
                err
            },
        )?
    };
    if report.questions.is_empty() {
        eprintln!("warning: no question/answer pairs found in {}; is this an interview?", file.display());
    }
    match out {
        Some(path) => {
            // Through a temporary file and a rename: an interrupted write leaves no half report.
            crate::skills::batch::write_atomic(path, rendered.as_bytes())
                .map_err(|e| anyhow!("cannot write {}: {e}", path.display()))?;
            eprintln!(
                "wrote {} ({} questions, overall {})",
                path.display(),
                report.questions.len(),
                report.summary.overall_score
            );
            Ok(())
        }
        None => write_stdout(rendered.as_bytes()),
    }
}

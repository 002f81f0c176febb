//! `ivd diagnose FILE`: a transcript, document or recording in, a report out.

use std::path::Path;
use std::sync::Arc;

use anyhow::anyhow;

use super::{context_for_file, write_stdout, CliError, ReportFormatArg, RoleArgs};
use crate::config::Config;
use crate::skills::diagnose_transcript;
use crate::tools::generate_report::ReportFormat;

pub(super) async fn diagnose(
    config: Arc<Config>,
    file: &Path,
    format: ReportFormatArg,
    out: Option<&Path>,
    lang: Option<crate::kb::Lang>,
    roles: &RoleArgs,
    audio: &super::transcribe::AudioArgs,
) -> Result<(), CliError> {
    let format = match format {
        ReportFormatArg::Md => ReportFormat::Md,
        ReportFormatArg::Html => ReportFormat::Html,
        ReportFormatArg::Json => ReportFormat::Json,
    };
    let (report, rendered) = if crate::audio::is_audio_path(file) {
        super::transcribe::diagnose(config, file, format, lang, roles, audio).await?
    } else {
        let (ctx, name) = context_for_file(config, file)?;
        diagnose_transcript::run(&ctx, &name, &file.display().to_string(), format, lang, &roles.hints()).await.map_err(
            |e| {
                let mut err = CliError::from(e);
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
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|e| anyhow!("cannot create {}: {e}", dir.display()))?;
            }
            std::fs::write(path, rendered.as_bytes()).map_err(|e| anyhow!("cannot write {}: {e}", path.display()))?;
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

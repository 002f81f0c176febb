//! `ivd bench`: which figures to measure; the measuring is in [`crate::bench`].

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::anyhow;

use super::CliError;
use crate::bench;
use crate::config::Config;

/// What `ivd bench` was asked for.
pub struct BenchArgs {
    pub runs: usize,
    pub large: bool,
    pub audio: Option<PathBuf>,
    pub whisper_cli: Option<PathBuf>,
    pub llm: bool,
    pub batch: bool,
    pub compare: bool,
    pub serve: bool,
    pub speakers: Option<Vec<PathBuf>>,
}

pub async fn run(config: Arc<Config>, a: BenchArgs) -> Result<(), CliError> {
    let result = if a.llm {
        bench::llm::run(config, a.runs).await
    } else if a.serve {
        bench::serve::run(&config).await
    } else if let Some(files) = a.speakers {
        off_thread(move || bench::speakers::run(&config, &files)).await
    } else if a.compare {
        off_thread(move || bench::compare::run(&config)).await
    } else if a.batch {
        off_thread(move || bench::batch::run(&config)).await
    } else if let Some(file) = a.audio {
        off_thread(move || bench::audio::run(&config, &file, a.whisper_cli.as_deref())).await
    } else {
        bench::diagnosis::run(config, a.runs, a.large).await
    };
    result.map_err(|e| CliError::from(anyhow!(e.0)))
}

async fn off_thread(
    work: impl FnOnce() -> Result<(), bench::BenchError> + Send + 'static,
) -> Result<(), bench::BenchError> {
    tokio::task::spawn_blocking(work).await.map_err(|e| bench::BenchError(e.to_string()))?
}

//! `ivd compare --question Q --answer A`: one answer against the references.

use std::sync::Arc;

use anyhow::{anyhow, Context};

use super::{write_stdout, CliError, SplitFormat};
use crate::config::Config;
use crate::skills::compare_expert;
use crate::tools::ToolContext;

pub(super) async fn compare(
    config: Arc<Config>,
    question: &str,
    answer: &str,
    format: SplitFormat,
    lang: Option<crate::lang::Lang>,
) -> Result<(), CliError> {
    if question.trim().is_empty() || answer.trim().is_empty() {
        return Err(CliError::input(anyhow!("--question and --answer must not be empty")));
    }
    let ctx = ToolContext::new(config);
    let c = compare_expert::run(&ctx, question, answer, lang).await?;
    let out = match format {
        SplitFormat::Json => serde_json::to_string_pretty(&c).context("cannot encode the result")? + "\n",
        SplitFormat::Md => c.to_text(),
    };
    write_stdout(out.as_bytes())
}

//! `ivd compare --question Q --answer A`: one answer against the references; `--input FILE.jsonl
//! --format jsonl`: many, in one process (models and the base loaded once), one line out per row
//! in input order.

use std::io::Write as _;
use std::sync::Arc;

use anyhow::{anyhow, Context};
use futures::StreamExt;
use indicatif::{ProgressBar, ProgressStyle};

use super::{write_stdout, CliError};
use crate::config::Config;
use crate::lang::Lang;
use crate::skills::compare_expert;
use crate::tools::ToolContext;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CompareFormat {
    Md,
    Json,
    /// One JSON object per line (the form of `--input`).
    Jsonl,
}

pub(super) async fn compare(
    config: Arc<Config>,
    question: &str,
    answer: &str,
    format: CompareFormat,
    lang: Option<Lang>,
) -> Result<(), CliError> {
    if question.trim().is_empty() || answer.trim().is_empty() {
        return Err(CliError::input(anyhow!("--question and --answer must not be empty (or give --input FILE.jsonl)")));
    }
    let ctx = ToolContext::new(config);
    let c = compare_expert::run(&ctx, question, answer, lang).await?;
    let out = match format {
        CompareFormat::Json => serde_json::to_string_pretty(&c).context("cannot encode the result")? + "\n",
        CompareFormat::Jsonl => serde_json::to_string(&c).context("cannot encode the result")? + "\n",
        CompareFormat::Md => c.to_text(),
    };
    write_stdout(out.as_bytes())
}

/// One row of `--input`.
struct Row {
    id: serde_json::Value,
    question: String,
    answer: String,
    lang: Option<Lang>,
}

/// A row read, or why it cannot be scored.
fn row(line_no: usize, line: &str) -> Result<Row, (serde_json::Value, String)> {
    let v: serde_json::Value = serde_json::from_str(line)
        .map_err(|e| (serde_json::Value::Null, format!("line {line_no}: not a JSON object: {e}")))?;
    let id = v.get("id").cloned().unwrap_or(serde_json::Value::from(line_no));
    let text = |k: &str| v.get(k).and_then(|x| x.as_str()).unwrap_or("").trim().to_string();
    let (question, answer) = (text("question"), text("answer"));
    if question.is_empty() || answer.is_empty() {
        return Err((id, format!("line {line_no}: needs a non-empty \"question\" and \"answer\"")));
    }
    let lang = v.get("lang").and_then(|x| x.as_str()).and_then(|s| s.parse().ok());
    Ok(Row { id, question, answer, lang })
}

/// Scores every row of a JSONL file. Rows run concurrently (the scoring itself is on the blocking
/// pool, one per core) and are written in input order as they finish; a row that cannot be scored
/// gets an `error` line and the others go on. Exit 1 when any row failed.
pub(super) async fn compare_many(
    config: Arc<Config>,
    input: &std::path::Path,
    lang: Option<Lang>,
) -> Result<(), CliError> {
    let text = std::fs::read(input).map_err(|e| CliError::input(anyhow!("cannot read {}: {e}", input.display())))?;
    let text = String::from_utf8(text)
        .map_err(|_| CliError::input(anyhow!("{} is not UTF-8 text; save it as UTF-8 JSON Lines", input.display())))?;
    let lines: Vec<(usize, &str)> =
        text.lines().enumerate().map(|(i, l)| (i + 1, l)).filter(|(_, l)| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        return Err(CliError::input(anyhow!(
            "{} has no rows: one {{id, question, answer}} object per line",
            input.display()
        )));
    }
    let mut ctx = ToolContext::new(config);
    ctx.cancel = super::interrupt::token();
    let bar = ProgressBar::new(lines.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {per_sec} {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let jobs = std::thread::available_parallelism().map_or(2, |n| n.get()).max(1) * 2;
    let ctx = &ctx;
    let mut results = futures::stream::iter(lines.into_iter().map(|(n, l)| async move {
        let r = match row(n, l) {
            Ok(r) => compare_expert::run(ctx, &r.question, &r.answer, r.lang.or(lang))
                .await
                .map_err(|e| e.message.clone())
                .and_then(|c| serde_json::to_value(&c).map_err(|e| e.to_string()))
                .map(|mut v| {
                    if let Some(o) = v.as_object_mut() {
                        o.insert("id".into(), r.id.clone());
                    }
                    v
                })
                .map_err(|e| (r.id, e)),
            Err(e) => Err(e),
        };
        r.unwrap_or_else(|(id, e)| serde_json::json!({"id": id, "error": e}))
    }))
    .buffered(jobs);
    let (mut failed, mut done) = (0usize, 0usize);
    let mut out = std::io::stdout().lock();
    while let Some(v) = results.next().await {
        if ctx.cancel.is_cancelled() {
            break;
        }
        failed += usize::from(v.get("error").is_some());
        done += 1;
        let line = serde_json::to_string(&v).context("cannot encode a result")? + "\n";
        if let Err(e) = out.write_all(line.as_bytes()) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                return Ok(());
            }
            return Err(anyhow!("cannot write the output: {e}").into());
        }
        bar.inc(1);
    }
    let _ = out.flush();
    bar.finish_and_clear();
    if ctx.cancel.is_cancelled() {
        return Err(super::interrupt::stopped(&format!("{done} row(s) were written")));
    }
    if failed > 0 {
        return Err(anyhow!("{failed} of {done} row(s) could not be scored: see their \"error\" lines").into());
    }
    Ok(())
}

//! `ivd batch DIR --out OUT [--jobs N] [--format json,html] [--shard I/N]` and `ivd batch merge OUT`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::anyhow;
use clap::{Args, Subcommand};
use futures::StreamExt;
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};

use super::{write_stdout, CliError};
use crate::config::Config;
use crate::report::index::{self, Row};
use crate::report::ReportFormat;
use crate::skills::batch::{self as b, Outcome};
use crate::tools::{Progress, ToolContext};

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BatchArgs {
    #[command(subcommand)]
    pub action: Option<BatchAction>,
    /// The folder of transcripts, documents and recordings (searched recursively).
    pub dir: Option<PathBuf>,
    /// Where reports, state and the summary go (shared storage for shards).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Files diagnosed at once.
    #[arg(long, default_value_t = 2)]
    pub jobs: usize,
    /// Report formats, comma-separated.
    #[arg(long, value_enum, default_value = "json,html", value_delimiter = ',')]
    pub format: Vec<ReportFormat>,
    /// This process's part: `I/N`, or `N` with the index from JOB_COMPLETION_INDEX (Kubernetes
    /// Indexed Job) or SLURM_ARRAY_TASK_ID (Slurm array).
    #[arg(long)]
    pub shard: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum BatchAction {
    /// Build the summary and index.html from every shard's state in OUT.
    Merge { out: PathBuf },
}

pub(super) async fn run(config: Arc<Config>, a: BatchArgs) -> Result<(), CliError> {
    if let Some(BatchAction::Merge { out }) = a.action {
        let all = b::outcomes(&out);
        if all.is_empty() {
            return Err(CliError::input(anyhow!(
                "no batch state in {}: run `ivd batch DIR --out {}` first",
                out.display(),
                out.display()
            )));
        }
        return finish(&out, &all, None);
    }
    let dir = a.dir.ok_or_else(|| CliError::input(anyhow!("give the folder to diagnose: ivd batch DIR --out OUT")))?;
    let out = a.out.ok_or_else(|| CliError::input(anyhow!("give --out OUT, the folder for reports")))?;
    if !dir.is_dir() {
        return Err(CliError::input(anyhow!("{} is not a folder", dir.display())));
    }
    let formats = a.format.clone();
    let (index, count) = shard(a.shard.as_deref())?;
    let dir = dir.canonicalize().map_err(|e| anyhow!("cannot open {}: {e}", dir.display()))?;
    std::fs::create_dir_all(&out).map_err(|e| anyhow!("cannot create {}: {e}", out.display()))?;
    let items: Vec<b::Item> = b::plan(&dir, &out).await?.into_iter().filter(|i| b::in_shard(i, index, count)).collect();
    let (skipped, todo): (Vec<_>, Vec<_>) = items.into_iter().partition(|i| b::done(&out, i).is_some());
    eprintln!(
        "batch: {} file(s) in shard {index}/{count}; {} already done, {} to diagnose with {} job(s)",
        skipped.len() + todo.len(),
        skipped.len(),
        todo.len(),
        a.jobs.max(1)
    );
    // One context for the whole batch: the knowledge base and models load once per process.
    let mut ctx = ToolContext::new(config).with_data_root(dir.clone());
    ctx.cancel = super::interrupt::token();
    // Overall progress, and a bar of its own for each recording being transcribed.
    let bars = MultiProgress::new();
    let bar = bars.add(ProgressBar::new(todo.len() as u64));
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed_precise} {wide_msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let results: Vec<Outcome> =
        futures::stream::iter(todo.iter().map(|item| one(&ctx, item, &formats, &out, &bar, &bars)))
            .buffer_unordered(a.jobs.max(1))
            .filter_map(|o| async move { o })
            .collect()
            .await;
    bar.finish_and_clear();
    if ctx.cancel.is_cancelled() {
        let done = results.len();
        return Err(super::interrupt::stopped(&format!(
            "{done} file(s) finished and kept in {}; the same command resumes with the rest",
            out.display()
        )));
    }
    let failed = results.iter().filter(|o| !o.ok).count();
    finish(&out, &b::outcomes(&out), Some((results.len(), skipped.len())))?;
    if failed > 0 {
        return Err(anyhow!(
            "{failed} of {} file(s) failed (listed above, and in {})",
            results.len(),
            out.join("summary.json").display()
        )
        .into());
    }
    Ok(())
}

/// One file, with a progress bar of its own for a recording; None when stopped by Ctrl-C (no new
/// file starts after it, and the ones running stop after their current step).
async fn one(
    ctx: &ToolContext,
    item: &b::Item,
    formats: &[crate::report::ReportFormat],
    out: &Path,
    bar: &ProgressBar,
    bars: &MultiProgress,
) -> Option<Outcome> {
    if ctx.cancel.is_cancelled() {
        return None;
    }
    bar.set_message(item.rel.clone());
    let mut own = ctx.clone();
    let file_bar = crate::audio::is_audio_path(Path::new(&item.rel)).then(|| {
        let fb = bars.add(ProgressBar::new(100));
        fb.set_style(
            ProgressStyle::with_template("  {bar:30} {percent:>3}% {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        fb.set_message(item.rel.clone());
        let hook = fb.clone();
        own.progress = Some(Progress(Arc::new(move |_step: &str, f: f64| hook.set_position((f * 100.0) as u64))));
        fb
    });
    let o = b::diagnose_one(&own, item, formats, out).await;
    if let Some(fb) = file_bar {
        fb.finish_and_clear();
    }
    bar.inc(1);
    o
}

/// Summary table on stdout, `summary.json` and `index.html` in OUT.
fn finish(out: &Path, all: &[Outcome], this_run: Option<(usize, usize)>) -> Result<(), CliError> {
    let rows: Vec<Row> = all
        .iter()
        .map(|o| Row {
            file: o.file.clone(),
            ok: o.ok,
            overall: o.overall,
            questions: o.questions,
            language: o.language.clone(),
            link: o.reports.iter().find(|r| r.ends_with(".html")).or(o.reports.first()).cloned(),
            error: o.error.clone(),
        })
        .collect();
    let write = |name: &str, bytes: &[u8]| {
        b::write_atomic(&out.join(name), bytes).map_err(|e| anyhow!("cannot write {name}: {e}"))
    };
    write("summary.json", &serde_json::to_vec_pretty(all).map_err(|e| anyhow!(e))?)?;
    write("index.html", index::html(&rows, "Interview Doctor: batch").as_bytes())?;
    let mut s = String::new();
    let _ = writeln!(s, "{:<48} {:>7} {:>9}  status", "file", "overall", "questions");
    for o in all {
        let cell = |v: Option<String>| v.unwrap_or_else(|| "-".into());
        let _ = writeln!(
            s,
            "{:<48} {:>7} {:>9}  {}",
            o.file,
            cell(o.overall.map(|v| v.to_string())),
            cell(o.questions.map(|v| v.to_string())),
            o.error.as_deref().unwrap_or("ok")
        );
    }
    let ok = all.iter().filter(|o| o.ok).count();
    let _ = write!(s, "{ok} of {} file(s) diagnosed", all.len());
    if let Some((ran, skipped)) = this_run {
        let _ = write!(s, " ({ran} this run, {skipped} skipped as done and unchanged)");
    }
    let _ = writeln!(s, "; index: {}", out.join("index.html").display());
    write_stdout(s.as_bytes())
}

/// `I/N`, or `N` with the index from the scheduler's environment; `0/1` without `--shard`.
fn shard(spec: Option<&str>) -> Result<(u32, u32), CliError> {
    let bad = |why: String| CliError::input(anyhow!("--shard {}: {why}", spec.unwrap_or("")));
    let Some(spec) = spec else { return Ok((0, 1)) };
    let (i, n) = match spec.split_once('/') {
        Some((i, n)) => (i.trim().to_string(), n.trim().to_string()),
        None => {
            let i = ["JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"]
                .iter()
                .find_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty()))
                .ok_or_else(|| bad("give I/N, or set JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID".into()))?;
            (i, spec.trim().to_string())
        }
    };
    let n: u32 = n.parse().map_err(|_| bad("N must be a whole number".into()))?;
    let i: u32 = i.parse().map_err(|_| bad("the index must be a whole number".into()))?;
    if n == 0 || i >= n {
        return Err(bad(format!("the index must be below N ({i} of {n})")));
    }
    Ok((i, n))
}

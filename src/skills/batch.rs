//! `batch`: every transcript, document and recording under a folder, each diagnosed once. The
//! state of each file is a small JSON record in `OUT/.state/`, written atomically after its reports,
//! so a killed run resumes where it stopped and shards on other machines (sharing `OUT`) never
//! collide: a file belongs to the shard its content hash falls in.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{diagnose_audio, diagnose_transcript};
use crate::report::ReportFormat;
use crate::tools::render_report::{RenderReport, RenderReportArgs};
use crate::tools::{call, ToolContext, ToolError};
use crate::transcript::roles::RoleHints;

/// One input file.
#[derive(Debug, Clone)]
pub struct Item {
    /// Path relative to the batch folder, with `/`.
    pub rel: String,
    pub digest: String,
}

/// What became of one file: the record in `OUT/.state/` and a row of the summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub file: String,
    pub digest: String,
    pub ok: bool,
    pub overall: Option<u32>,
    pub questions: Option<usize>,
    pub language: Option<String>,
    /// Report files, relative to `OUT`.
    pub reports: Vec<String>,
    pub error: Option<String>,
    pub elapsed_ms: u64,
}

/// Every regular, non-hidden file under `dir`, sorted, with its sha256; the output folder is left
/// out when it lies inside `dir` (its reports are not interviews). A file that cannot be read still
/// gets an item (its digest empty): it fails, with its reason, like any other.
pub async fn plan(dir: &Path, out: &Path) -> Result<Vec<Item>, ToolError> {
    let (dir, out) = (dir.to_path_buf(), out.to_path_buf());
    // Walking the folder and hashing every file is blocking I/O: off the async threads.
    tokio::task::spawn_blocking(move || plan_blocking(&dir, &out))
        .await
        .unwrap_or_else(|e| Err(ToolError::service(format!("listing the folder failed: {e}"), "run it again")))
}

fn plan_blocking(dir: &Path, out: &Path) -> Result<Vec<Item>, ToolError> {
    let mut files = Vec::new();
    let out = out.canonicalize().unwrap_or_else(|_| out.to_path_buf());
    walk(dir, dir, &out, &mut files)
        .map_err(|e| ToolError::input(format!("cannot read {}: {e}", dir.display()), "give a folder that exists"))?;
    files.sort();
    Ok(files
        .into_iter()
        .map(|rel| {
            let digest = crate::digest::file(&dir.join(&rel)).unwrap_or_default();
            Item { rel, digest }
        })
        .collect())
}

fn walk(root: &Path, dir: &Path, skip: &Path, out: &mut Vec<String>) -> std::io::Result<()> {
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let p = e.path();
        let kind = e.file_type()?;
        if kind.is_dir() {
            if p.canonicalize().is_ok_and(|c| c == skip) {
                continue;
            }
            walk(root, &p, skip, out)?;
        } else if kind.is_file() {
            if let Ok(rel) = p.strip_prefix(root) {
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    Ok(())
}

/// Whether a file with this content belongs to shard `index` of `count`.
pub fn in_shard(item: &Item, index: u32, count: u32) -> bool {
    let key = if item.digest.is_empty() { hex(&item.rel) } else { item.digest.clone() };
    let n = u64::from_str_radix(key.get(..15).unwrap_or("0"), 16).unwrap_or(0);
    n % count.max(1) as u64 == index as u64
}

fn hex(s: &str) -> String {
    format!("{:x}", Sha256::digest(s.as_bytes()))
}

pub fn state_path(out: &Path, rel: &str) -> PathBuf {
    out.join(".state").join(format!("{}.json", &hex(rel)[..24]))
}

/// The file's earlier outcome, when it was diagnosed from the same content and its reports exist.
pub fn done(out: &Path, item: &Item) -> Option<Outcome> {
    let o: Outcome = serde_json::from_slice(&std::fs::read(state_path(out, &item.rel)).ok()?).ok()?;
    (o.ok && o.digest == item.digest && !item.digest.is_empty() && o.reports.iter().all(|r| out.join(r).is_file()))
        .then_some(o)
}

/// Every outcome recorded in `OUT/.state/`, by file name.
pub fn outcomes(out: &Path) -> Vec<Outcome> {
    let mut v: Vec<Outcome> = std::fs::read_dir(out.join(".state"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .filter_map(|e| serde_json::from_slice(&std::fs::read(e.path()).ok()?).ok())
        .collect();
    v.sort_by(|a: &Outcome, b| a.file.cmp(&b.file));
    v
}

/// Write through a temporary file and a rename, so a reader (or a killed run) never sees half a file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension(format!("tmp-{}-{}", std::process::id(), fastrand::u64(..)));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// [`write_atomic`] on the blocking pool.
async fn write_off_thread(path: PathBuf, bytes: Vec<u8>) -> std::io::Result<()> {
    tokio::task::spawn_blocking(move || write_atomic(&path, &bytes))
        .await
        .unwrap_or_else(|e| Err(std::io::Error::other(e.to_string())))
}

/// Diagnose one file (the context's data root is the batch folder) and write its reports and state.
/// A file stopped by the context's cancellation gets no state (None): the next run does it again.
pub async fn diagnose_one(ctx: &ToolContext, item: &Item, formats: &[ReportFormat], out: &Path) -> Option<Outcome> {
    let started = std::time::Instant::now();
    let result = run(ctx, item, formats, out).await;
    if ctx.cancel.is_cancelled() {
        return None;
    }
    let mut o = match result {
        Ok(o) => o,
        Err(e) => Outcome {
            file: item.rel.clone(),
            digest: item.digest.clone(),
            ok: false,
            overall: None,
            questions: None,
            language: None,
            reports: Vec::new(),
            error: Some(e),
            elapsed_ms: 0,
        },
    };
    o.elapsed_ms = started.elapsed().as_millis() as u64;
    let json = serde_json::to_vec_pretty(&o).unwrap_or_default();
    if let Err(e) = write_off_thread(state_path(out, &item.rel), json).await {
        o.ok = false;
        o.error = Some(format!("cannot record the outcome in {}: {e}", out.display()));
    }
    Some(o)
}

async fn run(ctx: &ToolContext, item: &Item, formats: &[ReportFormat], out: &Path) -> Result<Outcome, String> {
    if item.digest.is_empty() {
        return Err("the file could not be read (it vanished or is not readable)".into());
    }
    let path = std::path::Path::new(&item.rel);
    let hints = RoleHints::default();
    let (report, _) = if crate::tools::transcribe_audio::accepts(path) {
        let opts = diagnose_audio::AudioOptions::default();
        diagnose_audio::run(ctx, &item.rel, &item.rel, ReportFormat::Json, None, &hints, &opts)
            .await
            .map(|(r, s, _)| (r, s))
    } else {
        diagnose_transcript::run(ctx, &item.rel, &item.rel, ReportFormat::Json, None, &hints).await
    }
    .map_err(|e| e.message)?;
    if report.questions.is_empty() {
        return Err("no question/answer pairs found: is this an interview?".into());
    }
    let mut reports = Vec::new();
    for f in formats {
        let ext = f.extension();
        let rel = format!("reports/{}.{ext}", item.rel);
        let args = RenderReportArgs { report: report.clone(), format: *f };
        let text = call(&RenderReport, args, ctx).await.map_err(|e| e.message)?.rendered;
        write_off_thread(out.join(&rel), text.into_bytes()).await.map_err(|e| format!("cannot write {rel}: {e}"))?;
        reports.push(rel);
    }
    Ok(Outcome {
        file: item.rel.clone(),
        digest: item.digest.clone(),
        ok: true,
        overall: Some(report.summary.overall_score),
        questions: Some(report.questions.len()),
        language: Some(report.source.language.as_str().to_string()),
        reports,
        error: None,
        elapsed_ms: 0,
    })
}

//! Diagnoses: the first one in an empty state folder, the first of a new process after the
//! provisioning warm-up, then every sample transcript and two synthetic interviews, cold (a new
//! context, as a new process) and warm (p50/p95 over repeated runs).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use super::{fail, ms, peak_rss, percentile, BenchError};
use crate::config::Config;
use crate::kb::KnowledgeBase;
use crate::models::Models;
use crate::report::ReportFormat;
use crate::skills::diagnose_transcript;
use crate::tools::ToolContext;

/// The whole `ivd bench` (search figures first), in a fresh temporary state folder.
pub async fn run(config: Arc<Config>, runs: usize, large: bool) -> Result<(), BenchError> {
    let runs = runs.max(1);
    let scratch = std::env::temp_dir().join(format!("ivd-bench-{}", std::process::id()));
    let result = bench(&config, runs, large, &scratch).await;
    let _ = std::fs::remove_dir_all(&scratch);
    result
}

async fn bench(config: &Config, runs: usize, large: bool, scratch: &Path) -> Result<(), BenchError> {
    let home = scratch.join("home");
    let data = scratch.join("data");
    std::fs::create_dir_all(&data).map_err(|e| fail!("cannot create {}: {e}", data.display()))?;
    let mut cfg = config.clone();
    cfg.home = home.clone();
    cfg.audit = false;
    let cfg = Arc::new(cfg);
    println!("ivd bench: {runs} warm runs per figure, state in a fresh temporary folder\n");
    let t = Instant::now();
    let kb = KnowledgeBase::load(cfg.kb_dir.as_deref())?;
    println!("knowledge base: {} entries parsed and validated in {:.1} ms", kb.entries.len(), ms(t.elapsed()));
    let models = Models::new(config);
    let (k, m, h, s) = (kb.clone(), models.clone(), home.clone(), scratch.to_path_buf());
    // Blocking work (index builds, embedding) off the async threads.
    tokio::task::spawn_blocking(move || super::search::run(&k, &m, &h, &s, large))
        .await
        .map_err(|e| fail!("{e}"))??;
    let files = inputs(&kb, &data)?;
    if let Some((name, _)) = files.first() {
        first_runs(&cfg, scratch, &data, name).await?;
    }
    println!("{:<34} {:>4} {:>10} {:>10} {:>10}", "diagnose", "Qs", "cold ms", "warm p50", "warm p95");
    let shared = ToolContext::new(cfg.clone()).with_data_root(data.clone());
    for (name, _) in &files {
        // Cold: a new context loads the knowledge base, index and model again (as a new process
        // would), over the state folder's existing index and vector cache.
        let ctx = ToolContext::new(cfg.clone()).with_data_root(data.clone());
        let (cold, questions) = diagnose_ms(&ctx, name).await?;
        drop(ctx);
        diagnose_ms(&shared, name).await?;
        let mut warm = Vec::with_capacity(runs);
        for _ in 0..runs {
            warm.push(diagnose_ms(&shared, name).await?.0);
        }
        warm.sort_by(f64::total_cmp);
        let (p50, p95) = (percentile(&warm, 0.5), percentile(&warm, 0.95));
        println!("{name:<34} {questions:>4} {cold:>10.1} {p50:>10.2} {p95:>10.2}");
    }
    println!("\npeak memory of this bench process: {}", peak_rss());
    Ok(())
}

/// The sample transcripts (copied into `data`) and synthetic interviews of 10 and 100 questions.
fn inputs(kb: &KnowledgeBase, data: &Path) -> Result<Vec<(String, PathBuf)>, BenchError> {
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    if let Ok(rd) = std::fs::read_dir(super::samples::transcripts_dir()) {
        let mut v: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                let n = p.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
                !n.contains(".expected.")
                    && matches!(p.extension().and_then(|e| e.to_str()), Some("txt" | "vtt" | "srt" | "json"))
            })
            .collect();
        v.sort();
        for p in v {
            let name = p.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
            std::fs::copy(&p, data.join(&name)).map_err(|e| fail!("cannot copy {}: {e}", p.display()))?;
            files.push((name, p));
        }
    }
    for n in [10, 100] {
        let name = format!("synthetic_{n}q.txt");
        std::fs::write(data.join(&name), super::samples::synthetic_interview(kb, n))
            .map_err(|e| fail!("cannot write {name}: {e}"))?;
        files.push((name.clone(), data.join(&name)));
    }
    Ok(files)
}

/// A first run with nothing prepared (the index is built and, with models, every question of the
/// knowledge base embedded and cached); then what `ivd models fetch` does once (embed the base's
/// answer side) and the first diagnosis of a new process, as the README's first command runs it.
async fn first_runs(cfg: &Arc<Config>, scratch: &Path, data: &Path, name: &str) -> Result<(), BenchError> {
    let fresh_home = scratch.join("fresh");
    let fresh = || {
        let mut c = (**cfg).clone();
        c.home = fresh_home.clone();
        ToolContext::new(Arc::new(c)).with_data_root(data.to_path_buf())
    };
    let ctx = fresh();
    let (ms_first, _) = diagnose_ms(&ctx, name).await?;
    println!("first diagnosis in an empty state folder ({name}): {ms_first:.0} ms");
    let kb = ctx.load_kb().await?;
    if kb.vectors.is_some() {
        let (k, cancel) = (kb.clone(), ctx.cancel.clone());
        let t = Instant::now();
        tokio::task::spawn_blocking(move || k.warm(&cancel)).await.map_err(|e| fail!("{e}"))??;
        println!(
            "provisioning warm-up (answers, key points, sentences, the wider world's questions): {:.1} s",
            t.elapsed().as_secs_f64()
        );
    }
    drop((ctx, kb));
    let (ms_after, _) = diagnose_ms(&fresh(), name).await?;
    println!("first diagnosis of a new process after the warm-up ({name}): {ms_after:.0} ms");
    let _ = std::fs::remove_dir_all(&fresh_home);
    Ok(())
}

async fn diagnose_ms(ctx: &ToolContext, name: &str) -> Result<(f64, usize), BenchError> {
    let t = Instant::now();
    let (report, _) = diagnose_transcript::run(ctx, name, name, ReportFormat::Json, None, &Default::default()).await?;
    Ok((ms(t.elapsed()), report.questions.len()))
}

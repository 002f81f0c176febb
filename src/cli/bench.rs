//! `ivd bench`: figures for the README and notes, measured in-process on this machine.
//!
//! - diagnosis of every sample transcript, cold (first in a fresh state folder) and warm;
//! - synthetic interviews of 10 and 100 questions built from knowledge-base entries;
//! - knowledge-base load, index build and open;
//! - search latency of the BM25 index against a naive scan over every entry, on the held-out
//!   evaluation paraphrases.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::anyhow;

use super::CliError;
use crate::config::Config;
use crate::kb::index::Bm25Index;
use crate::kb::search::{KbSearch, SearchOptions};
use crate::kb::terms::term_set;
use crate::kb::KnowledgeBase;
use crate::skills::diagnose_transcript;
use crate::tools::generate_report::ReportFormat;
use crate::tools::ToolContext;

fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// A labeled interview of `n` questions from the knowledge base, alternating expert and novice answers.
fn synthetic(kb: &KnowledgeBase, n: usize) -> String {
    let mut s = String::new();
    for (i, e) in kb.entries.iter().cycle().take(n).enumerate() {
        let answer = if i % 2 == 0 { &e.expert_answer } else { &e.novice_answer };
        s.push_str(&format!("面试官：{}\n候选人：{}\n\n", e.question, answer.replace('\n', " ")));
    }
    s
}

async fn diagnose_ms(ctx: &ToolContext, name: &str) -> Result<(f64, usize), CliError> {
    let t = Instant::now();
    let (report, _) = diagnose_transcript::run(ctx, name, name, ReportFormat::Json).await?;
    Ok((ms(t.elapsed()), report.questions.len()))
}

pub async fn run(config: Arc<Config>, runs: usize) -> Result<(), CliError> {
    let runs = runs.max(1);
    let scratch = std::env::temp_dir().join(format!("ivd-bench-{}", std::process::id()));
    let result = bench(&config, runs, &scratch).await;
    let _ = std::fs::remove_dir_all(&scratch);
    result
}

async fn bench(config: &Config, runs: usize, scratch: &Path) -> Result<(), CliError> {
    let home = scratch.join("home");
    let data = scratch.join("data");
    std::fs::create_dir_all(&data).map_err(|e| anyhow!("cannot create {}: {e}", data.display()))?;
    let mut cfg = config.clone();
    cfg.home = home.clone();
    cfg.audit = false;
    let cfg = Arc::new(cfg);

    println!("ivd bench: {runs} warm runs per figure, state in a fresh temporary folder\n");
    // Knowledge base and index.
    let t = Instant::now();
    let kb = KnowledgeBase::load(cfg.kb_dir.as_deref()).map_err(|e| CliError::input(e.into()))?;
    let load_ms = ms(t.elapsed());
    let t = Instant::now();
    let search = KbSearch::open(kb.clone(), &home).map_err(|e| anyhow!(e))?;
    let first_open_ms = ms(t.elapsed());
    let t = Instant::now();
    let _ = Bm25Index::rebuild(&kb, &home).map_err(|e| anyhow!(e))?;
    let build_ms = ms(t.elapsed());
    let t = Instant::now();
    let _ = Bm25Index::open_or_build(&kb, &home).map_err(|e| anyhow!(e))?;
    let open_ms = ms(t.elapsed());
    println!("knowledge base: {} entries parsed and validated in {load_ms:.1} ms", kb.entries.len());
    println!("index: first open in a new process (segmenter load + build) {first_open_ms:.1} ms; rebuild {build_ms:.1} ms; open existing {open_ms:.1} ms\n");

    // Search: index against a naive scan of every entry's question side.
    let queries: Vec<&str> = kb.entries.iter().flat_map(|e| e.eval_paraphrases.iter().map(String::as_str)).collect();
    let opts = SearchOptions { top_k: 5, dimension: None };
    let mut idx_times = Vec::with_capacity(queries.len());
    for q in &queries {
        let t = Instant::now();
        let _ = search.search(q, &opts).map_err(|e| anyhow!(e))?;
        idx_times.push(ms(t.elapsed()));
    }
    let mut naive_times = Vec::with_capacity(queries.len());
    for q in &queries {
        let t = Instant::now();
        let qs = term_set(q);
        let mut scored: Vec<(usize, &str)> = kb
            .entries
            .iter()
            .map(|e| {
                let text = format!("{} {} {}", e.question, e.question_en, e.paraphrases.join(" "));
                (term_set(&text).intersection(&qs).count(), e.id.as_str())
            })
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        naive_times.push(ms(t.elapsed()));
    }
    idx_times.sort_by(f64::total_cmp);
    naive_times.sort_by(f64::total_cmp);
    println!(
        "search over {} queries: bm25 index p50 {:.3} ms p95 {:.3} ms; naive scan p50 {:.3} ms p95 {:.3} ms; index is {:.0}x faster at p50\n",
        queries.len(),
        percentile(&idx_times, 0.5),
        percentile(&idx_times, 0.95),
        percentile(&naive_times, 0.5),
        percentile(&naive_times, 0.95),
        percentile(&naive_times, 0.5) / percentile(&idx_times, 0.5).max(1e-9)
    );

    // Diagnoses.
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/transcripts");
    if let Ok(rd) = std::fs::read_dir(&samples) {
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
            std::fs::copy(&p, data.join(&name)).map_err(|e| anyhow!("cannot copy {}: {e}", p.display()))?;
            files.push((name, p));
        }
    }
    for n in [10, 100] {
        let name = format!("synthetic_{n}q.txt");
        std::fs::write(data.join(&name), synthetic(&kb, n)).map_err(|e| anyhow!("cannot write {name}: {e}"))?;
        files.push((name.clone(), data.join(&name)));
    }
    println!("{:<34} {:>4} {:>10} {:>10} {:>10}", "diagnose", "Qs", "cold ms", "warm p50", "warm p95");
    for (name, _) in &files {
        // Cold: a fresh state folder, so the index is built, and a new context.
        let cold_home = scratch.join(format!("cold-{name}"));
        let mut c = (*cfg).clone();
        c.home = cold_home.clone();
        let ctx = ToolContext::new(Arc::new(c)).with_data_root(data.clone());
        let (cold, questions) = diagnose_ms(&ctx, name).await?;
        let _ = std::fs::remove_dir_all(&cold_home);
        let ctx = ToolContext::new(cfg.clone()).with_data_root(data.clone());
        diagnose_ms(&ctx, name).await?;
        let mut warm = Vec::with_capacity(runs);
        for _ in 0..runs {
            warm.push(diagnose_ms(&ctx, name).await?.0);
        }
        warm.sort_by(f64::total_cmp);
        println!(
            "{:<34} {:>4} {:>10.1} {:>10.2} {:>10.2}",
            name,
            questions,
            cold,
            percentile(&warm, 0.5),
            percentile(&warm, 0.95)
        );
    }
    Ok(())
}

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
use crate::kb::embed::{Embedder, Variant};
use crate::kb::index::Bm25Index;
use crate::kb::search::{KbSearch, SearchMode, SearchOptions};
use crate::kb::terms::term_set;
use crate::kb::KnowledgeBase;
use crate::models::Models;
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
    let (report, _) = diagnose_transcript::run(ctx, name, name, ReportFormat::Json, None, &Default::default()).await?;
    Ok((ms(t.elapsed()), report.questions.len()))
}

pub async fn run(config: Arc<Config>, runs: usize, large: bool) -> Result<(), CliError> {
    let runs = runs.max(1);
    let scratch = std::env::temp_dir().join(format!("ivd-bench-{}", std::process::id()));
    let result = bench(&config, runs, large, &scratch).await;
    let _ = std::fs::remove_dir_all(&scratch);
    result
}

async fn bench(config: &Config, runs: usize, large: bool, scratch: &Path) -> Result<(), CliError> {
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
    let opts = SearchOptions { top_k: 5, dimension: None, mode: SearchMode::Bm25 };
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

    let models = Models::new(config);
    if models.is_provisioned() {
        bench_vectors(&kb, &models, &home, scratch, large)?;
    } else {
        println!("embeddings: skipped, no models in {} (run `ivd models fetch`)\n", models.dir.display());
    }

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
    // A first run with nothing prepared: the index is built and, with models, every question of the
    // knowledge base embedded (then cached).
    if let Some((name, _)) = files.first() {
        let fresh_home = scratch.join("fresh");
        let mut c = (*cfg).clone();
        c.home = fresh_home.clone();
        let ctx = ToolContext::new(Arc::new(c)).with_data_root(data.clone());
        let (ms_first, _) = diagnose_ms(&ctx, name).await?;
        println!("first diagnosis in an empty state folder ({name}): {ms_first:.0} ms");
        // What `ivd models fetch` does once (embed the base's answer side), then the first
        // diagnosis of a new process, as the README's first command runs it.
        let kb = ctx.kb()?;
        if let Some(v) = &kb.vectors {
            let t = Instant::now();
            v.warm(&kb.kb).map_err(|e| anyhow!(e))?;
            println!("provisioning warm-up (answers, key points, sentences): {:.1} s", t.elapsed().as_secs_f64());
        }
        drop(ctx);
        let ctx = ToolContext::new(Arc::new({
            let mut c = (*cfg).clone();
            c.home = fresh_home.clone();
            c
        }))
        .with_data_root(data.clone());
        let (ms_after, _) = diagnose_ms(&ctx, name).await?;
        println!("first diagnosis of a new process after the warm-up ({name}): {ms_after:.0} ms");
        let _ = std::fs::remove_dir_all(&fresh_home);
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
        println!(
            "{:<34} {:>4} {:>10.1} {:>10.2} {:>10.2}",
            name,
            questions,
            cold,
            percentile(&warm, 0.5),
            percentile(&warm, 0.95)
        );
    }
    println!("\npeak memory of this bench process: {}", peak_rss());
    Ok(())
}

/// Peak resident set size, from /proc (Linux); "unknown" elsewhere.
fn peak_rss() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).map(|l| l.trim_start_matches("VmHWM:").trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

fn latencies(search: &KbSearch, queries: &[&str], mode: SearchMode) -> Result<(f64, f64), CliError> {
    let opts = SearchOptions { top_k: 5, dimension: None, mode };
    let mut t = Vec::with_capacity(queries.len());
    for q in queries {
        let started = Instant::now();
        search.search(q, &opts).map_err(|e| anyhow!(e))?;
        t.push(ms(started.elapsed()));
    }
    t.sort_by(f64::total_cmp);
    Ok((percentile(&t, 0.5), percentile(&t, 0.95)))
}

/// p50/p95 per mode, each over its own third of the held-out queries so that every vector and
/// hybrid query is embedded (none is in the query cache yet); then hybrid again over its third,
/// the query vectors now cached, as when a transcript is diagnosed again. Every entry has four
/// held-out paraphrases (two Chinese, two English), so thirds mix languages alike.
fn mode_latencies(search: &KbSearch, queries: &[&str]) -> Result<(), CliError> {
    let third = |offset: usize| -> Vec<&str> { queries.iter().copied().skip(offset).step_by(3).collect() };
    for (offset, mode) in [(0, SearchMode::Bm25), (1, SearchMode::Vector), (2, SearchMode::Hybrid)] {
        let (p50, p95) = latencies(search, &third(offset), mode)?;
        println!(
            "  {:<7} p50 {p50:>7.2} ms  p95 {p95:>7.2} ms ({} queries{})",
            format!("{mode:?}").to_lowercase(),
            third(offset).len(),
            if mode == SearchMode::Bm25 { "" } else { ", each embedded" }
        );
    }
    let (p50, p95) = latencies(search, &third(2), SearchMode::Hybrid)?;
    println!("  hybrid  p50 {p50:>7.2} ms  p95 {p95:>7.2} ms (the same queries again, query vectors cached)");
    Ok(())
}

fn embedder_query(search: &KbSearch, text: &str) -> Result<Vec<f32>, CliError> {
    match &search.vectors {
        Some(v) => Ok(v.query_vector(text).map_err(|e| anyhow!(e))?),
        None => Ok(Vec::new()),
    }
}

/// A knowledge base of `n` entries derived from the shipped one: each keeps its source's English
/// question and answers, and gets a question of its own.
fn synthetic_kb(kb: &KnowledgeBase, n: usize) -> KnowledgeBase {
    let entries = (0..n)
        .map(|j| {
            let mut e = kb.entries[j % kb.entries.len()].clone();
            e.id = format!("synthetic-{j:05}");
            e.question = format!("{}（场景 {}）", e.question, j / kb.entries.len() + 1);
            e.paraphrases.clear();
            e
        })
        .collect();
    KnowledgeBase::from_entries(kb.manifest.clone(), entries)
}

fn bench_vectors(
    kb: &KnowledgeBase,
    models: &Models,
    home: &Path,
    scratch: &Path,
    large: bool,
) -> Result<(), CliError> {
    let t = Instant::now();
    let embedder = Embedder::load(models, Variant::Int8).map_err(|e| anyhow!(e))?;
    println!("embedding model (e5-small int8) load: {:.0} ms", ms(t.elapsed()));
    let sentences: Vec<String> = kb
        .entries
        .iter()
        .flat_map(|e| [format!("query: {}", e.question), format!("query: {}", e.question_en)])
        .take(200)
        .collect();
    let t = Instant::now();
    embedder.embed_raw(&sentences).map_err(|e| anyhow!(e))?;
    let secs = t.elapsed().as_secs_f64();
    println!(
        "embedding throughput: {} zh/en questions in {:.2} s = {:.0} sentences/s",
        sentences.len(),
        secs,
        sentences.len() as f64 / secs
    );
    let t = Instant::now();
    embedder.query("如何设计 Agent 的长期记忆").map_err(|e| anyhow!(e))?;
    println!("one query embedded in {:.1} ms\n", ms(t.elapsed()));
    drop(embedder);

    let queries: Vec<&str> = kb.entries.iter().flat_map(|e| e.eval_paraphrases.iter().map(String::as_str)).collect();
    let search = KbSearch::open_with_models(kb.clone(), home, models).map_err(|e| anyhow!(e))?;
    println!("search latency, {} entries:", kb.entries.len());
    mode_latencies(&search, &queries)?;
    drop(search);
    if !large {
        println!();
        return Ok(());
    }

    let big = synthetic_kb(kb, 10_000);
    let big_home = scratch.join("big");
    let t = Instant::now();
    let search = KbSearch::open_with_models(big.clone(), &big_home, models).map_err(|e| anyhow!(e))?;
    let cold = ms(t.elapsed());
    let rows = search.vectors.as_ref().map(|v| v.rows()).unwrap_or(0);
    println!("\nsynthetic knowledge base: 10,000 entries, {rows} question vectors");
    println!("  index build, cold (BM25 + embedding every question): {:.1} s", cold / 1000.0);
    mode_latencies(&search, &queries)?;
    let sample: Vec<&str> = queries.iter().copied().skip(2).step_by(3).collect();
    let q = embedder_query(&search, sample.first().copied().unwrap_or("记忆"))?;
    let t = Instant::now();
    let scans = 20;
    for _ in 0..scans {
        let _ = search.vectors.as_ref().map(|v| v.rank(&q, |_| true, 50));
    }
    println!("  vector scan alone ({rows} rows x 384): {:.2} ms", ms(t.elapsed()) / scans as f64);
    // One entry edited, as after changing one file: the index is updated in place (that entry's
    // document replaced) and one phrasing re-embedded; the model stays loaded, as in a process
    // that reopens the base, so the figure is the index work alone.
    let Some(embedder) = search.into_embedder() else {
        return Err(anyhow!("the 10,000-entry search lost its embedding model").into());
    };
    let mut changed = big.entries.clone();
    changed[4242].question_en.push_str(" (edited)");
    let changed = KnowledgeBase::from_entries(big.manifest.clone(), changed);
    let t = Instant::now();
    let reopened = KbSearch::open(changed, &big_home).map_err(|e| anyhow!(e))?;
    let bm25_ms = reopened.bm25.build_ms as f64;
    let (added, removed) = (reopened.bm25.added, reopened.bm25.removed);
    let lexical_ms = ms(t.elapsed());
    let t = Instant::now();
    let reopened = KbSearch::open_with_embedder(reopened, &big_home, embedder).map_err(|e| anyhow!(e))?;
    let vectors_ms = ms(t.elapsed());
    println!(
        "  rebuild after changing one entry: {:.2} s = BM25 update {:.0} ms ({added} added, {removed} removed) + term tables {:.0} ms + vectors {:.0} ms (one phrasing embedded, {} from the cache)",
        (lexical_ms + vectors_ms) / 1000.0,
        bm25_ms,
        lexical_ms - bm25_ms,
        vectors_ms,
        reopened.vectors.as_ref().map(|v| v.rows()).unwrap_or(0).saturating_sub(1)
    );
    let t = Instant::now();
    let full = Bm25Index::rebuild(&reopened.kb, &big_home).map_err(|e| anyhow!(e))?;
    println!(
        "  for comparison, the naive way: BM25 index rebuilt from scratch {:.2} s ({} documents)\n",
        ms(t.elapsed()) / 1000.0,
        full.documents()
    );
    Ok(())
}

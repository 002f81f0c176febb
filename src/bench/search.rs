//! Knowledge-base load and index, BM25 against a naive scan, embedding throughput, search
//! latency per mode, and a synthetic 10,000-entry base (build, scan, incremental update).

use std::path::Path;
use std::time::Instant;

use tokio_util::sync::CancellationToken;

use super::{fail, ms, percentile, BenchError};
use crate::kb::embed::{Embedder, Variant};
use crate::kb::index::Bm25Index;
use crate::kb::search::{KbSearch, SearchMode, SearchOptions};
use crate::kb::terms::term_set;
use crate::kb::KnowledgeBase;
use crate::models::Models;

/// Index figures, BM25 against a naive scan, then (with models) the vector figures.
pub fn run(kb: &KnowledgeBase, models: &Models, home: &Path, scratch: &Path, large: bool) -> Result<(), BenchError> {
    let t = Instant::now();
    let search = KbSearch::open(kb.clone(), home)?;
    let first_open_ms = ms(t.elapsed());
    let t = Instant::now();
    let _ = Bm25Index::rebuild(kb, home, &CancellationToken::new())?;
    let build_ms = ms(t.elapsed());
    let t = Instant::now();
    let _ = Bm25Index::open_or_build(kb, home)?;
    let open_ms = ms(t.elapsed());
    println!("index: first open in a new process (segmenter load + build) {first_open_ms:.1} ms; rebuild {build_ms:.1} ms; open existing {open_ms:.1} ms\n");
    index_against_scan(kb, &search)?;
    if models.is_provisioned() {
        bench_vectors(kb, models, home, scratch, large)?;
    } else {
        println!("embeddings: skipped, no models in {} (run `ivd models fetch`)\n", models.dir.display());
    }
    Ok(())
}

/// The BM25 index against a naive scan of every entry's question side, on the held-out paraphrases.
fn index_against_scan(kb: &KnowledgeBase, search: &KbSearch) -> Result<(), BenchError> {
    let queries: Vec<&str> = kb.entries.iter().flat_map(|e| e.eval_paraphrases.iter().map(String::as_str)).collect();
    let opts = SearchOptions { top_k: 5, dimension: None, mode: SearchMode::Bm25 };
    let mut idx_times = Vec::with_capacity(queries.len());
    for q in &queries {
        let t = Instant::now();
        let _ = search.search(q, &opts)?;
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
    Ok(())
}

fn latencies(search: &KbSearch, queries: &[&str], mode: SearchMode) -> Result<(f64, f64), BenchError> {
    let opts = SearchOptions { top_k: 5, dimension: None, mode };
    let mut t = Vec::with_capacity(queries.len());
    for q in queries {
        let started = Instant::now();
        search.search(q, &opts)?;
        t.push(ms(started.elapsed()));
    }
    t.sort_by(f64::total_cmp);
    Ok((percentile(&t, 0.5), percentile(&t, 0.95)))
}

/// p50/p95 per mode, each over its own third of the held-out queries so that every vector and
/// hybrid query is embedded (none is in the query cache yet); then hybrid again over its third,
/// the query vectors now cached, as when a transcript is diagnosed again. Every entry has four
/// held-out paraphrases (two Chinese, two English), so thirds mix languages alike.
fn mode_latencies(search: &KbSearch, queries: &[&str]) -> Result<(), BenchError> {
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

fn embedder_query(search: &KbSearch, text: &str) -> Result<Vec<f32>, BenchError> {
    match &search.vectors {
        Some(v) => Ok(v.query_vector(text)?),
        None => Ok(Vec::new()),
    }
}

fn bench_vectors(
    kb: &KnowledgeBase,
    models: &Models,
    home: &Path,
    scratch: &Path,
    large: bool,
) -> Result<(), BenchError> {
    let t = Instant::now();
    let embedder = Embedder::load(models, Variant::Int8)?;
    println!("embedding model (e5-small int8) load: {:.0} ms", ms(t.elapsed()));
    let sentences: Vec<String> = kb
        .entries
        .iter()
        .flat_map(|e| [format!("query: {}", e.question), format!("query: {}", e.question_en)])
        .take(200)
        .collect();
    let t = Instant::now();
    embedder.embed_raw(&sentences)?;
    let secs = t.elapsed().as_secs_f64();
    println!(
        "embedding throughput: {} zh/en questions in {:.2} s = {:.0} sentences/s",
        sentences.len(),
        secs,
        sentences.len() as f64 / secs
    );
    let t = Instant::now();
    embedder.query("如何设计 Agent 的长期记忆")?;
    println!("one query embedded in {:.1} ms\n", ms(t.elapsed()));
    drop(embedder);

    let queries: Vec<&str> = kb.entries.iter().flat_map(|e| e.eval_paraphrases.iter().map(String::as_str)).collect();
    let search = KbSearch::open_with_models(kb.clone(), home, models, &CancellationToken::new())?;
    search.ready_for_meaning()?;
    println!("search latency, {} entries:", kb.entries.len());
    mode_latencies(&search, &queries)?;
    drop(search);
    if !large {
        println!();
        return Ok(());
    }

    large_base(kb, models, scratch, &queries)
}

/// A synthetic 10,000-entry base: cold build, latency per mode, the vector scan alone, and the
/// incremental update after one edited entry against a rebuild from scratch.
fn large_base(kb: &KnowledgeBase, models: &Models, scratch: &Path, queries: &[&str]) -> Result<(), BenchError> {
    let big = super::samples::synthetic_kb(kb, 10_000);
    let big_home = scratch.join("big");
    let t = Instant::now();
    let search = KbSearch::open_with_models(big.clone(), &big_home, models, &CancellationToken::new())?;
    search.ready_for_meaning()?;
    let cold = ms(t.elapsed());
    let rows = search.vectors.as_ref().map(|v| v.rows()).unwrap_or(0);
    println!("\nsynthetic knowledge base: 10,000 entries, {rows} question vectors");
    println!("  index build, cold (BM25 + embedding every question and expert answer): {:.1} s", cold / 1000.0);
    mode_latencies(&search, queries)?;
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
        return Err(fail!("the 10,000-entry search lost its embedding model"));
    };
    let mut changed = big.entries.clone();
    changed[4242].question_en.push_str(" (edited)");
    let changed = KnowledgeBase::from_entries(big.manifest.clone(), changed);
    let t = Instant::now();
    let reopened = KbSearch::open(changed, &big_home)?;
    let bm25_ms = reopened.bm25.build_ms as f64;
    let (added, removed) = (reopened.bm25.added, reopened.bm25.removed);
    let lexical_ms = ms(t.elapsed());
    let t = Instant::now();
    let reopened = KbSearch::open_with_embedder(reopened, &big_home, embedder, &CancellationToken::new())?;
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
    let full = Bm25Index::rebuild(&reopened.kb, &big_home, &CancellationToken::new())?;
    println!(
        "  for comparison, the naive way: BM25 index rebuilt from scratch {:.2} s ({} documents)\n",
        ms(t.elapsed()) / 1000.0,
        full.documents()
    );
    Ok(())
}

//! Retrieval: every entry's held-out evaluation paraphrases (never indexed) are queries; recall@1
//! and recall@3 of the entry itself, per search mode and per query language, on the test half of
//! the entries; the fusion sweep that chooses the RRF constants runs on the fitting half.

use serde::Serialize;

use crate::kb::search::{KbSearch, SearchMode, SearchOptions};
use crate::kb::KbError;
use crate::lang::is_cjk;

#[derive(Debug, Clone, Serialize)]
pub struct RetrievalRow {
    pub mode: SearchMode,
    /// "all", "zh" or "en".
    pub queries: String,
    pub n: usize,
    pub recall_at_1: f64,
    pub recall_at_3: f64,
}

/// Recall of hybrid search for one choice of the fusion constants.
#[derive(Debug, Clone, Serialize)]
pub struct FusionRow {
    pub weight_vector: f64,
    pub k: f64,
    pub recall_at_1: f64,
    pub recall_at_3: f64,
}

/// Retrieval figures: recall on the test half's held-out paraphrases; the fusion sweep on the
/// fitting half's (where the constants are chosen).
#[derive(Debug, Clone, Serialize)]
pub struct RetrievalReport {
    pub rows: Vec<RetrievalRow>,
    pub fusion_sweep: Vec<FusionRow>,
}

pub fn run(s: &KbSearch, test: &dyn Fn(&str) -> bool) -> Result<RetrievalReport, KbError> {
    let modes: Vec<SearchMode> = if s.vectors.is_some() {
        vec![SearchMode::Bm25, SearchMode::Vector, SearchMode::Hybrid]
    } else {
        vec![SearchMode::Bm25]
    };
    let mut rows = Vec::new();
    for mode in modes {
        // (hits@1, hits@3, n) for all, zh, en.
        let mut acc = [(0usize, 0usize, 0usize); 3];
        for e in s.kb.entries.iter().filter(|e| test(&e.id)) {
            for q in &e.eval_paraphrases {
                let hits = s.search(q, &SearchOptions { top_k: 3, dimension: None, mode })?;
                let at1 = hits.first().is_some_and(|h| h.id == e.id);
                let at3 = hits.iter().any(|h| h.id == e.id);
                let lang = if q.chars().any(is_cjk) { 1 } else { 2 };
                for i in [0, lang] {
                    acc[i].0 += usize::from(at1);
                    acc[i].1 += usize::from(at3);
                    acc[i].2 += 1;
                }
            }
        }
        for (i, name) in ["all", "zh", "en"].iter().enumerate() {
            let (h1, h3, n) = acc[i];
            let d = n.max(1) as f64;
            rows.push(RetrievalRow {
                mode,
                queries: name.to_string(),
                n,
                recall_at_1: h1 as f64 / d,
                recall_at_3: h3 as f64 / d,
            });
        }
    }
    let fusion_sweep = sweep(s, &|id| !test(id))?;
    Ok(RetrievalReport { rows, fusion_sweep })
}

/// Both ranked lists once per query, then every (weight, k) pair fused from them.
fn sweep(s: &KbSearch, fit: &dyn Fn(&str) -> bool) -> Result<Vec<FusionRow>, KbError> {
    if s.vectors.is_none() {
        return Ok(Vec::new());
    }
    let mut lists = Vec::new();
    for e in s.kb.entries.iter().filter(|e| fit(&e.id)) {
        for q in &e.eval_paraphrases {
            let b = s.search(q, &SearchOptions { top_k: 50, dimension: None, mode: SearchMode::Bm25 })?;
            let v = s.search(q, &SearchOptions { top_k: 50, dimension: None, mode: SearchMode::Vector })?;
            let ids = |h: Vec<crate::kb::search::SearchHit>| h.into_iter().map(|h| (h.id, h.score)).collect::<Vec<_>>();
            lists.push((e.id.clone(), ids(b), ids(v)));
        }
    }
    let mut rows = Vec::new();
    for k in [10.0, 30.0, 60.0] {
        for w in [0.0, 0.25, 0.5, 0.75, 1.0, 1.5] {
            let (mut h1, mut h3) = (0usize, 0usize);
            for (id, b, v) in &lists {
                let fused = fuse_with(&[(1.0, b), (w, v)], k, 3);
                h1 += usize::from(fused.first().is_some_and(|x| &x.0 == id));
                h3 += usize::from(fused.iter().any(|x| &x.0 == id));
            }
            let n = lists.len().max(1) as f64;
            rows.push(FusionRow { weight_vector: w, k, recall_at_1: h1 as f64 / n, recall_at_3: h3 as f64 / n });
        }
    }
    Ok(rows)
}

fn fuse_with(lists: &[(f64, &Vec<(String, f64)>)], k: f64, top: usize) -> Vec<(String, f64)> {
    let mut acc: std::collections::HashMap<&str, f64> = std::collections::HashMap::new();
    for (w, list) in lists {
        for (rank, (id, _)) in list.iter().enumerate() {
            *acc.entry(id.as_str()).or_insert(0.0) += w / (k + rank as f64 + 1.0);
        }
    }
    let mut v: Vec<(String, f64)> = acc.into_iter().map(|(i, s)| (i.to_string(), s)).collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v.truncate(top);
    v
}

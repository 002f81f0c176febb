//! Search over the knowledge base. Results come as ranked lists of entry ids so that another list
//! (dense vectors) can be fused in later without touching callers.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::index::Bm25Index;
use super::terms::{term_set, terms};
use super::{KbError, KnowledgeBase};

/// Share of a question's terms that must appear in an entry's question side for the entry to count
/// as a reference for it. Calibrated on the held-out evaluation paraphrases against unrelated
/// questions (see tests/kb.rs): true matches sit above it, off-topic questions below.
pub const RELEVANCE_MIN: f64 = 0.25;
/// How many search hits are considered as references for one interview question.
pub const REFERENCE_CANDIDATES: usize = 10;
/// Shared terms needed for full relevance.
const MIN_SHARED_TERMS: f64 = 2.0;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SearchHit {
    pub id: String,
    pub dimension: String,
    pub question: String,
    /// Ranking score (BM25).
    pub score: f64,
    /// IDF-weighted share of the query's terms found in the entry's question side, 0..1.
    pub relevance: f64,
    /// Best share of one of the entry's phrasings (question or paraphrase) covered by the query:
    /// among equally relevant entries, the one phrased most like the question is the reference.
    pub precision: f64,
}

#[derive(Debug, Clone, Default)]
pub struct SearchOptions {
    pub top_k: usize,
    pub dimension: Option<String>,
}

/// A knowledge base with its index, ready to search.
pub struct KbSearch {
    pub kb: KnowledgeBase,
    pub bm25: Bm25Index,
    /// Per entry (same order as `kb.entries`): the terms of its question side.
    question_terms: Vec<HashSet<String>>,
    /// Per entry: the terms of each phrasing (question, English question, paraphrases).
    phrasings: Vec<Vec<HashSet<String>>>,
    /// Inverse document frequency of question-side terms: common words weigh little in relevance.
    idf: HashMap<String, f64>,
    idf_unseen: f64,
}

impl std::fmt::Debug for KbSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KbSearch").field("entries", &self.kb.entries.len()).field("index", &self.bm25.path).finish()
    }
}

impl KbSearch {
    pub fn open(kb: KnowledgeBase, home: &Path) -> Result<KbSearch, KbError> {
        let bm25 = Bm25Index::open_or_build(&kb, home)?;
        let question_terms = kb
            .entries
            .iter()
            .map(|e| {
                let mut s = term_set(&e.question);
                s.extend(term_set(&e.question_en));
                for p in &e.paraphrases {
                    s.extend(term_set(p));
                }
                for t in &e.tags {
                    s.extend(term_set(t));
                }
                for kp in &e.key_points {
                    for k in &kp.keywords {
                        s.extend(term_set(k));
                    }
                }
                s
            })
            .collect::<Vec<HashSet<String>>>();
        let phrasings = kb
            .entries
            .iter()
            .map(|e| {
                std::iter::once(&e.question)
                    .chain(std::iter::once(&e.question_en))
                    .chain(e.paraphrases.iter())
                    .map(|p| term_set(p))
                    .collect()
            })
            .collect();
        let n = question_terms.len() as f64;
        let mut df: HashMap<String, usize> = HashMap::new();
        for set in &question_terms {
            for t in set {
                *df.entry(t.clone()).or_insert(0) += 1;
            }
        }
        let idf = df.into_iter().map(|(t, d)| (t, (1.0 + n / (1.0 + d as f64)).ln())).collect();
        let idf_unseen = (1.0 + n).ln();
        Ok(KbSearch { kb, bm25, question_terms, phrasings, idf, idf_unseen })
    }

    pub fn search(&self, query: &str, opts: &SearchOptions) -> Result<Vec<SearchHit>, KbError> {
        let q_terms = terms(query);
        let ranked = self.bm25.search(&q_terms, opts.dimension.as_deref(), opts.top_k.max(1))?;
        // A question often opens with a greeting or a segue ("你好，今天聊聊 Agent。先说说…"): the
        // relevance of an entry is its best over the whole question and each of its sentences.
        let mut parts: Vec<HashSet<String>> = vec![q_terms.into_iter().collect()];
        for sentence in crate::transcript::text::sentences(query) {
            let set = term_set(sentence);
            if set.len() >= 2 && set.len() < parts[0].len() {
                parts.push(set);
            }
        }
        Ok(ranked
            .into_iter()
            .filter_map(|(id, score)| {
                let i = self.kb.entries.binary_search_by(|e| e.id.as_str().cmp(&id)).ok()?;
                let e = &self.kb.entries[i];
                Some(SearchHit {
                    id,
                    dimension: e.dimension.clone(),
                    question: e.question.clone(),
                    score: round3(score),
                    relevance: round3(parts.iter().map(|p| self.coverage(p, i)).fold(0.0, f64::max)),
                    precision: round3(self.precision(&parts[0], i)),
                })
            })
            .collect())
    }

    /// The references for an interview question, best first (empty when nothing is relevant).
    pub fn references_for(&self, question: &str) -> Result<Vec<SearchHit>, KbError> {
        Ok(references(&self.search(question, &SearchOptions { top_k: REFERENCE_CANDIDATES, dimension: None })?))
    }

    fn precision(&self, q: &HashSet<String>, entry: usize) -> f64 {
        let weight = |t: &String| self.idf.get(t).copied().unwrap_or(self.idf_unseen);
        self.phrasings[entry]
            .iter()
            .map(|p| {
                let total: f64 = p.iter().map(weight).sum();
                if total <= 0.0 {
                    0.0
                } else {
                    p.iter().filter(|t| q.contains(*t)).map(weight).sum::<f64>() / total
                }
            })
            .fold(0.0, f64::max)
    }

    /// IDF-weighted share of the query's terms found in the entry's question side, halved when
    /// only one term is shared: one common word ("team", "多少") is a coincidence, not a topic.
    fn coverage(&self, q: &HashSet<String>, entry: usize) -> f64 {
        let e = &self.question_terms[entry];
        let weight = |t: &String| self.idf.get(t).copied().unwrap_or(self.idf_unseen);
        let total: f64 = q.iter().map(weight).sum();
        if total <= 0.0 {
            return 0.0;
        }
        let matched: Vec<&String> = q.iter().filter(|t| e.contains(*t)).collect();
        let share = matched.iter().map(|t| weight(t)).sum::<f64>() / total;
        share * (matched.len() as f64 / MIN_SHARED_TERMS).min(1.0)
    }
}

/// The relevant hits for a question, best reference first: relevance (the question's terms the
/// entry covers) and precision (the entry's phrasing the question covers) weigh equally, BM25 rank
/// breaks ties. BM25 alone favours entries that repeat a common word.
pub fn references(hits: &[SearchHit]) -> Vec<SearchHit> {
    let mut relevant: Vec<(usize, &SearchHit)> =
        hits.iter().enumerate().filter(|(_, h)| h.relevance >= RELEVANCE_MIN).collect();
    let key = |h: &SearchHit| h.relevance + h.precision;
    relevant.sort_by(|(ia, a), (ib, b)| key(b).total_cmp(&key(a)).then(ia.cmp(ib)));
    relevant.into_iter().map(|(_, h)| h.clone()).collect()
}

pub fn round3(x: f64) -> f64 {
    // `+ 0.0` turns -0.0 into 0.0, which prints the same everywhere.
    (x * 1000.0).round() / 1000.0 + 0.0
}

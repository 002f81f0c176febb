//! Search over the knowledge base. Results come as ranked lists of entry ids so that another list
//! (dense vectors) can be fused in later without touching callers.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use tokio_util::sync::CancellationToken;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::embed::{Embedder, Variant};
use super::index::Bm25Index;
use super::terms::{term_set, terms};
use super::vectors::KbVectors;
use super::{KbError, KnowledgeBase};
use crate::models::Models;
use crate::store::Store;

/// Share of a question's terms that must appear in an entry's question side for the entry to count
/// as a reference for it. Calibrated on the held-out evaluation paraphrases against unrelated
/// questions (see tests/kb.rs): true matches sit above it, off-topic questions below.
pub const RELEVANCE_MIN: f64 = 0.25;
/// How many search hits are considered as references for one interview question.
pub const REFERENCE_CANDIDATES: usize = 10;
/// Shared terms needed for full relevance.
const MIN_SHARED_TERMS: f64 = 2.0;

/// Reciprocal rank fusion: each list adds `weight / (RRF_K + rank)`. Chosen by `ivd eval`'s sweep
/// over k in {10, 30, 60} and vector weight in {0, 0.25, 0.5, 0.75, 1, 1.5} on the fitting half of
/// the held-out paraphrases. With the ranking by meaning on the question's wordings alone, the
/// vector list was best at a quarter of BM25's weight (recall@1 0.509, @3 0.750; BM25 alone 0.515,
/// 0.727). With the expert answers in it (`kb::dense`), k = 10 at three quarters gives the best
/// recall@1, 0.593 (@3 0.785; equal weights 0.587, 0.814). Test half: 0.481 / 0.758, against
/// 0.481 / 0.719 before. The sweep reruns with every `ivd eval`, so a changed knowledge base or
/// model shows whether the choice still holds.
pub const RRF_K: f64 = 10.0;
pub const RRF_WEIGHT_BM25: f64 = 1.0;
pub const RRF_WEIGHT_VECTOR: f64 = 0.75;
/// The references of an interview question are still found with the wordings alone, at the weight
/// chosen for them (recall@3 0.706 on all 704 then): the same-question model
/// (`scoring::matching`) was fitted on the candidates that search found. With the expert answers
/// in the ranking it met candidates it had not seen and took some for the question asked: "你觉得
/// 自己在这个项目里最大的贡献是什么？" for "你为什么想做 Agent 工程师这个岗位？"
/// (`data/transcripts/zh_first_cue.vtt`), and outside questions matched to an entry rose 11.6% ->
/// 12.1% of 198. Refitting it on the new candidates gained nothing (stop 50 note).
pub const RRF_WEIGHT_WORDINGS: f64 = 0.25;
/// How deep each list goes before fusion.
const FUSION_DEPTH: usize = 50;
/// Cosine (e5, query-query) above which an entry counts as relevant even without shared words.
/// Measured (tests/semantic.rs): held-out paraphrases against their own entry p25 0.881, p50 0.897;
/// unrelated questions (salary, weekends, football) at most 0.884 against any entry.
pub const VECTOR_RELEVANCE_MIN: f64 = 0.89;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SearchMode {
    Bm25,
    Vector,
    #[default]
    Hybrid,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SearchHit {
    pub id: String,
    pub dimension: String,
    pub question: String,
    /// Ranking score: BM25 in that mode, the summed z-scores of `kb::dense` by meaning, the fused
    /// reciprocal ranks in hybrid.
    pub score: f64,
    /// IDF-weighted share of the query's terms found in the entry's question side, 0..1.
    pub relevance: f64,
    /// Best share of one of the entry's phrasings (question or paraphrase) covered by the query:
    /// among equally relevant entries, the one phrased most like the question is the reference.
    pub precision: f64,
    /// Best cosine between the query and the entry's phrasings, when vectors are available.
    pub similarity: Option<f64>,
    /// The best cosine of any other entry of the base to the query (vectors only): an entry's
    /// lead over the rest, which the hits alone understate when few entries share its words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runner_up: Option<f64>,
    /// How well the entry's expert answer fits the query (z over every expert answer of the base),
    /// when asked for (`KbSearch::answer_fit`): another question of the same topic is answered by
    /// another passage, even when the two questions read alike.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer_fit: Option<f64>,
}

#[derive(Debug, Clone, Default)]
pub struct SearchOptions {
    pub top_k: usize,
    pub dimension: Option<String>,
    pub mode: SearchMode,
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
    /// Dense vectors, when the models are provisioned.
    pub vectors: Option<KbVectors>,
    /// Why search runs on BM25 alone, when it does.
    pub degraded: Option<String>,
    /// Answer-side term profiles, built on the first answer scored.
    pub(crate) profiles: std::sync::OnceLock<super::evidence::Profiles>,
    pub(crate) bands: super::evidence::BandCache,
    /// Questions of the wider world (`kb::world`), embedded on first use.
    pub(crate) world: super::world::WorldCache,
    /// Expert answers as passages, for the ranking by meaning (`kb::dense`).
    experts: super::dense::ExpertCache,
}

impl std::fmt::Debug for KbSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KbSearch").field("entries", &self.kb.entries.len()).field("index", &self.bm25.path).finish()
    }
}

impl KbSearch {
    pub fn open(kb: KnowledgeBase, home: &Path) -> Result<KbSearch, KbError> {
        let bm25 = Bm25Index::open_or_build(&kb, home)?;
        // The term tables were computed when each entry was indexed and are stored with its
        // document: reopening a 10,000-entry base does not segment every phrasing again.
        let (question_terms, phrasings) = bm25.term_tables(&kb)?;
        let n = question_terms.len() as f64;
        let mut df: HashMap<String, usize> = HashMap::new();
        for set in &question_terms {
            for t in set {
                *df.entry(t.clone()).or_insert(0) += 1;
            }
        }
        let idf = df.into_iter().map(|(t, d)| (t, (1.0 + n / (1.0 + d as f64)).ln())).collect();
        let idf_unseen = (1.0 + n).ln();
        Ok(KbSearch {
            kb,
            bm25,
            question_terms,
            phrasings,
            idf,
            idf_unseen,
            vectors: None,
            degraded: Some("no embedding model loaded".into()),
            profiles: std::sync::OnceLock::new(),
            bands: Default::default(),
            world: Default::default(),
            experts: Default::default(),
        })
    }

    /// Open with dense vectors when the models are provisioned; without them, BM25 alone and a
    /// `degraded` note saying how to fix it. Broken model files are errors, not a silent fallback.
    /// Loading the model and embedding the base stop once `cancel` fires.
    pub fn open_with_models(
        kb: KnowledgeBase,
        home: &Path,
        models: &Models,
        cancel: &CancellationToken,
    ) -> Result<KbSearch, KbError> {
        let mut s = Self::open(kb, home)?;
        if !models.is_provisioned() {
            s.degraded = Some(format!(
                "search uses BM25 only: no embedding model in {}; run `ivd models fetch` for hybrid search and semantic scoring",
                models.dir.display()
            ));
            return Ok(s);
        }
        let embedder = Embedder::load(models, Variant::Int8)?;
        Self::open_with_embedder(s, home, embedder, cancel)
    }

    /// Add vectors from an already loaded model (a process that reopens a changed base keeps it).
    pub fn open_with_embedder(
        mut s: KbSearch,
        home: &Path,
        embedder: Embedder,
        cancel: &CancellationToken,
    ) -> Result<KbSearch, KbError> {
        let store = Store::open(home)?;
        s.vectors = Some(KbVectors::build(&s.kb, embedder, store, cancel)?);
        s.degraded = None;
        Ok(s)
    }

    /// Give the embedding model back, for reuse by another search.
    pub fn into_embedder(self) -> Option<Embedder> {
        self.vectors.map(|v| v.embedder)
    }

    /// Search as a user does (`ivd kb search`, the console, the agent's tool): by meaning, the
    /// wordings and the expert answers (`kb::dense`).
    pub fn search(&self, query: &str, opts: &SearchOptions) -> Result<Vec<SearchHit>, KbError> {
        self.search_by(query, opts, true)
    }

    /// `with_answers`: whether the ranking by meaning reads the expert answers too, or the
    /// question's wordings alone, as the candidates of the same-question model were found when
    /// it was fitted (`references_for`).
    fn search_by(&self, query: &str, opts: &SearchOptions, with_answers: bool) -> Result<Vec<SearchHit>, KbError> {
        let q_terms = terms(query);
        let k = opts.top_k.max(1);
        let mode = if self.vectors.is_some() { opts.mode } else { SearchMode::Bm25 };
        let depth = if mode == SearchMode::Hybrid { FUSION_DEPTH } else { k };
        let bm25 = || self.bm25.search(&q_terms, opts.dimension.as_deref(), depth);
        let dim = opts.dimension.as_deref();
        let allow = |i: usize| dim.is_none_or(|d| self.kb.entries[i].dimension == d);
        let dense =
            |q: &[f32]| self.with_ids(self.vectors.as_ref().map(|v| v.rank(q, allow, depth)).unwrap_or_default());
        // By meaning: the entry's wordings and its expert answer (`kb::dense`).
        let meaning = |v: &KbVectors, q: &[f32]| -> Result<Vec<(String, f64)>, KbError> {
            Ok(self.with_ids(super::dense::rank(v, &self.kb, &self.experts, q, allow, depth)?))
        };
        // The query is embedded only when the mode ranks by vectors. (Running BM25 on another
        // thread meanwhile made hybrid slower: ONNX Runtime already keeps both cores busy.)
        let (qvec, ranked, by_vector) = match (&self.vectors, mode) {
            (Some(v), SearchMode::Hybrid) => {
                let qvec = v.query_vector(query)?;
                let by_wordings = dense(&qvec);
                let top = top_two(&by_wordings);
                let by_meaning = match with_answers {
                    true => (RRF_WEIGHT_VECTOR, meaning(v, &qvec)?),
                    false => (RRF_WEIGHT_WORDINGS, by_wordings),
                };
                let fused = fuse(&[(RRF_WEIGHT_BM25, bm25()?), by_meaning], k);
                (Some(qvec), fused, top)
            }
            (Some(v), SearchMode::Vector) => {
                let qvec = v.query_vector(query)?;
                let by_wordings = dense(&qvec);
                let top = top_two(&by_wordings);
                let ranked = if with_answers { meaning(v, &qvec)? } else { by_wordings };
                (Some(qvec), ranked, top)
            }
            _ => (None, bm25()?, Vec::new()),
        };
        // The closest other entry of the whole base, by vectors: what a hit's lead is measured
        // against, whether or not that entry made the hits.
        let runner_up = |id: &str| by_vector.iter().find(|(other, _)| other != id).map(|(_, s)| round3(*s));
        let parts = query_parts(query, q_terms);
        Ok(ranked
            .into_iter()
            .filter_map(|(id, score)| {
                let i = self.kb.entries.binary_search_by(|e| e.id.as_str().cmp(&id)).ok()?;
                let e = &self.kb.entries[i];
                // Empty without vectors, so no runner-up then.
                let runner_up = runner_up(&id);
                Some(SearchHit {
                    id,
                    dimension: e.dimension.clone(),
                    question: e.question.clone(),
                    score: round3(score),
                    relevance: round3(parts.iter().map(|p| self.coverage(p, i)).fold(0.0, f64::max)),
                    precision: round3(self.precision(&parts[0], i)),
                    similarity: match (&self.vectors, &qvec) {
                        (Some(v), Some(q)) => Some(round3(v.similarity(q, i) as f64)),
                        _ => None,
                    },
                    runner_up,
                    answer_fit: None,
                })
            })
            .collect())
    }

    /// A ranking by entry index as (id, score).
    fn with_ids(&self, ranked: Vec<(usize, f32)>) -> Vec<(String, f64)> {
        ranked.into_iter().map(|(i, s)| (self.kb.entries[i].id.clone(), f64::from(s))).collect()
    }

    /// The references for an interview question, best first (empty when nothing is relevant).
    pub fn references_for(&self, question: &str) -> Result<Vec<SearchHit>, KbError> {
        Ok(references(&self.search_by(
            question,
            &SearchOptions { top_k: REFERENCE_CANDIDATES, dimension: None, mode: SearchMode::Hybrid },
            false,
        )?))
    }

    /// Embed everything scoring will ask for ([`super::vectors::KbVectors::warm`]) and the wider
    /// world's questions (`kb::world`); nothing without vectors.
    pub fn warm(&self, cancel: &CancellationToken) -> Result<(), KbError> {
        if let Some(v) = &self.vectors {
            v.warm(&self.kb, cancel)?;
            self.world.get(v, &self.kb, cancel)?;
            self.experts.get(v, &self.kb)?;
        }
        Ok(())
    }

    /// Embed what the ranking by meaning needs beyond the questions (every expert answer), so
    /// that the first search does not pay for it; nothing without vectors.
    pub fn ready_for_meaning(&self) -> Result<(), KbError> {
        if let Some(v) = &self.vectors {
            self.experts.get(v, &self.kb)?;
        }
        Ok(())
    }

    /// The index of an entry by id.
    pub fn position(&self, id: &str) -> Option<usize> {
        self.kb.entries.binary_search_by(|e| e.id.as_str().cmp(id)).ok()
    }

    /// IDF-weighted share of the question's terms that the answer uses: an answer to another
    /// question shares few of the words that say what this one is about.
    pub fn question_terms_used(&self, question: &str, answer: &HashSet<String>) -> Option<f64> {
        let weight = |t: &String| self.idf.get(t).copied().unwrap_or(self.idf_unseen);
        let q = term_set(question);
        let total: f64 = q.iter().map(weight).sum();
        (total > 0.0).then(|| q.iter().filter(|t| answer.contains(*t)).map(weight).sum::<f64>() / total)
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

/// The query's terms, whole and per sentence: a question often opens with a greeting or a segue
/// ("你好，今天聊聊 Agent。先说说…"), so an entry's relevance is its best over them.
fn query_parts(query: &str, q_terms: Vec<String>) -> Vec<HashSet<String>> {
    let mut parts: Vec<HashSet<String>> = vec![q_terms.into_iter().collect()];
    for sentence in crate::lang::sentences(query) {
        let set = term_set(sentence);
        if set.len() >= 2 && set.len() < parts[0].len() {
            parts.push(set);
        }
    }
    parts
}

/// Weighted sum of ranked lists by reciprocal rank; ties broken by id.
pub fn fuse(lists: &[(f64, Vec<(String, f64)>)], k: usize) -> Vec<(String, f64)> {
    let mut acc: HashMap<String, f64> = HashMap::new();
    for (w, list) in lists {
        for (rank, (id, _)) in list.iter().enumerate() {
            *acc.entry(id.clone()).or_insert(0.0) += w / (RRF_K + rank as f64 + 1.0);
        }
    }
    let mut v: Vec<(String, f64)> = acc.into_iter().collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v.truncate(k);
    v
}

/// The relevant hits for a question, best reference first. Relevant: enough of the question's
/// terms covered, or (with vectors) a phrasing close in meaning. Order: with vectors, semantic
/// similarity first; without, relevance plus precision (the entry's phrasing the question covers),
/// since BM25 alone favours entries that repeat a common word. Search rank breaks ties.
pub fn references(hits: &[SearchHit]) -> Vec<SearchHit> {
    let mut relevant: Vec<(usize, &SearchHit)> = hits
        .iter()
        .enumerate()
        .filter(|(_, h)| h.relevance >= RELEVANCE_MIN || h.similarity.is_some_and(|s| s >= VECTOR_RELEVANCE_MIN))
        .collect();
    // e5 cosines sit in a narrow band (about 0.85-0.95) and this small model ranks worse than
    // keywords here (`ivd eval`), so the similarity is added unscaled: it breaks near-ties only.
    let key = |h: &SearchHit| h.relevance + h.precision + h.similarity.unwrap_or(0.0);
    relevant.sort_by(|(ia, a), (ib, b)| key(b).total_cmp(&key(a)).then(ia.cmp(ib)));
    relevant.into_iter().map(|(_, h)| h.clone()).collect()
}

/// The first two of a ranking: the best other entry for any hit is one of them.
fn top_two(ranked: &[(String, f64)]) -> Vec<(String, f64)> {
    ranked.iter().take(2).cloned().collect()
}

pub fn round3(x: f64) -> f64 {
    // `+ 0.0` turns -0.0 into 0.0, which prints the same everywhere.
    (x * 1000.0).round() / 1000.0 + 0.0
}

//! Dense vectors of the knowledge base: every phrasing of every question (question, English
//! question, paraphrases; never the held-out evaluation paraphrases), and, on demand per entry, the
//! answer side used by scoring (key points, expert and novice answers).

use std::collections::HashMap;
use std::sync::Mutex;

use super::embed::{dot, EmbedError, Embedder};
use super::KnowledgeBase;
use crate::store::Store;

/// Answer-side vectors of one entry.
#[derive(Debug, Clone)]
pub struct EntryVectors {
    pub key_points: Vec<Vec<f32>>,
    pub expert: Vec<f32>,
    pub novice: Vec<f32>,
}

pub struct KbVectors {
    pub embedder: Embedder,
    dim: usize,
    /// Row-major unit vectors, one row per phrasing.
    rows: Vec<f32>,
    /// The entry (index into `kb.entries`) of each row.
    row_entry: Vec<usize>,
    store: Mutex<Store>,
    answers: Mutex<HashMap<usize, EntryVectors>>,
}

/// e5 texts for symmetric question matching carry the `query: ` prefix on both sides.
pub fn phrasings(e: &super::Entry) -> Vec<String> {
    std::iter::once(&e.question)
        .chain(std::iter::once(&e.question_en))
        .chain(e.paraphrases.iter())
        .map(|p| format!("query: {p}"))
        .collect()
}

impl KbVectors {
    /// Vectors of every phrasing, from the cache where possible.
    pub fn build(kb: &KnowledgeBase, embedder: Embedder, mut store: Store) -> Result<KbVectors, EmbedError> {
        let mut texts = Vec::new();
        let mut row_entry = Vec::new();
        for (i, e) in kb.entries.iter().enumerate() {
            for p in phrasings(e) {
                texts.push(p);
                row_entry.push(i);
            }
        }
        let vecs = embedder.cached(&mut store, &texts)?;
        let dim = vecs.first().map(Vec::len).unwrap_or(0);
        let mut rows = Vec::with_capacity(dim * vecs.len());
        for v in &vecs {
            rows.extend_from_slice(v);
        }
        Ok(KbVectors { embedder, dim, rows, row_entry, store: Mutex::new(store), answers: Mutex::new(HashMap::new()) })
    }

    /// Entries ranked by their best phrasing's cosine to the query vector, best first.
    pub fn rank(&self, query: &[f32], allow: impl Fn(usize) -> bool, k: usize) -> Vec<(usize, f32)> {
        if self.dim == 0 || query.len() != self.dim {
            return Vec::new();
        }
        // A brute-force scan: at 10,000 entries it is a few milliseconds, below an ANN index's
        // build cost and without its recall loss.
        let entries = self.row_entry.last().map_or(0, |e| e + 1);
        let mut best = vec![f32::NEG_INFINITY; entries];
        for (row, &entry) in self.rows.chunks_exact(self.dim).zip(&self.row_entry) {
            let s = dot(row, query);
            if s > best[entry] {
                best[entry] = s;
            }
        }
        let mut v: Vec<(usize, f32)> =
            best.into_iter().enumerate().filter(|(i, s)| s.is_finite() && allow(*i)).collect();
        v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        v.truncate(k);
        v
    }

    /// Best cosine between the query and one entry's phrasings.
    pub fn similarity(&self, query: &[f32], entry: usize) -> f32 {
        self.rows
            .chunks_exact(self.dim.max(1))
            .zip(&self.row_entry)
            .filter(|(_, &e)| e == entry)
            .map(|(row, _)| dot(row, query))
            .fold(f32::MIN, f32::max)
    }

    /// Answer-side vectors of an entry, embedded on first use and cached.
    pub fn answer_side(&self, kb: &KnowledgeBase, entry: usize) -> Result<EntryVectors, EmbedError> {
        if let Some(v) = self.answers.lock().ok().and_then(|m| m.get(&entry).cloned()) {
            return Ok(v);
        }
        let e = &kb.entries[entry];
        let mut texts: Vec<String> = e.key_points.iter().map(|k| format!("passage: {}", k.point)).collect();
        texts.push(format!("passage: {}", e.expert_answer));
        texts.push(format!("passage: {}", e.novice_answer));
        let mut vecs = {
            let mut store = self.store.lock().map_err(|_| EmbedError::Embed("the cache lock was poisoned".into()))?;
            self.embedder.cached(&mut store, &texts)?
        };
        let novice = vecs.pop().unwrap_or_default();
        let expert = vecs.pop().unwrap_or_default();
        let v = EntryVectors { key_points: vecs, expert, novice };
        if let Ok(mut m) = self.answers.lock() {
            m.insert(entry, v.clone());
        }
        Ok(v)
    }

    /// Passage vectors of arbitrary texts (answers and their sentences), through the cache.
    pub fn passages(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let prefixed: Vec<String> = texts.iter().map(|t| format!("passage: {t}")).collect();
        let mut store = self.store.lock().map_err(|_| EmbedError::Embed("the cache lock was poisoned".into()))?;
        self.embedder.cached(&mut store, &prefixed)
    }

    /// A query's vector, through the cache: interview questions recur (every re-diagnosis of a
    /// transcript asks the same ones), and a cache hit costs far less than inference.
    pub fn query_vector(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        let mut store = self.store.lock().map_err(|_| EmbedError::Embed("the cache lock was poisoned".into()))?;
        Ok(self.embedder.cached(&mut store, &[format!("query: {text}")])?.pop().unwrap_or_default())
    }

    pub fn rows(&self) -> usize {
        self.row_entry.len()
    }
}

/// What vectors say about one answer against one entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Semantic {
    /// Per key point: the best cosine between the key point and any sentence of the answer.
    pub key_points: Vec<f32>,
    /// Cosine between the whole answer and the expert answer, and the novice answer.
    pub expert: f32,
    pub novice: f32,
}

/// Sentences shorter than this many characters carry too little to match a key point alone.
const MIN_SENTENCE_CHARS: usize = 6;

impl KbVectors {
    /// Semantic evidence for an answer against entry `entry`.
    pub fn semantic(&self, kb: &KnowledgeBase, entry: usize, answer: &str) -> Result<Semantic, EmbedError> {
        let side = self.answer_side(kb, entry)?;
        let mut texts: Vec<&str> = vec![answer];
        texts.extend(
            crate::transcript::text::sentences(answer).into_iter().filter(|s| s.chars().count() >= MIN_SENTENCE_CHARS),
        );
        let vecs = self.passages(&texts)?;
        let whole = &vecs[0];
        let parts = if vecs.len() > 1 { &vecs[1..] } else { &vecs[..] };
        let key_points =
            side.key_points.iter().map(|kp| parts.iter().map(|s| dot(s, kp)).fold(f32::MIN, f32::max)).collect();
        Ok(Semantic { key_points, expert: dot(whole, &side.expert), novice: dot(whole, &side.novice) })
    }
}

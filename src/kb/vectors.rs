//! Dense vectors of the knowledge base: every phrasing of every question (question, English
//! question, paraphrases; never the held-out evaluation paraphrases), and, on demand per entry, the
//! answer side used by scoring (key points, expert and novice answers).

use std::collections::HashMap;
use std::sync::Mutex;
use tokio_util::sync::CancellationToken;

use super::embed::{dot, EmbedError, Embedder};
use super::KnowledgeBase;
use crate::lang::Lang;
use crate::store::Store;

/// The question-side matrix: one unit row per phrasing, grouped by entry.
pub struct QuestionRows {
    dim: usize,
    /// Row-major unit vectors, one row per phrasing.
    rows: Vec<f32>,
    /// The entry (index into `kb.entries`) of each row, ascending.
    row_entry: Vec<usize>,
    /// The language of each row's phrasing (None: neither, or not known).
    row_lang: Vec<Option<Lang>>,
    /// The rows quantised to i8 with one scale per row: a quarter of the memory to stream per
    /// query, for a first pass whose candidates are then scored exactly.
    qrows: Vec<i8>,
    qscale: Vec<f32>,
}

impl QuestionRows {
    /// Rows `vecs` (all of one length) belonging to entries `row_entry` (ascending).
    pub fn new(vecs: &[Vec<f32>], row_entry: Vec<usize>, row_lang: Vec<Option<Lang>>) -> QuestionRows {
        let dim = vecs.first().map(Vec::len).unwrap_or(0);
        let mut rows = Vec::with_capacity(dim * vecs.len());
        let mut qrows = Vec::with_capacity(dim * vecs.len());
        let mut qscale = Vec::with_capacity(vecs.len());
        for v in vecs {
            rows.extend_from_slice(v);
            let (q, scale) = quantize(v);
            qrows.extend_from_slice(&q);
            qscale.push(scale);
        }
        QuestionRows { dim, rows, row_entry, row_lang, qrows, qscale }
    }

    /// Entries ranked by their best phrasing's cosine to the query vector, best first.
    pub fn rank(&self, query: &[f32], allow: impl Fn(usize) -> bool, k: usize) -> Vec<(usize, f32)> {
        if self.dim == 0 || query.len() != self.dim || k == 0 {
            return Vec::new();
        }
        // A brute-force scan, not an ANN index: at 10,000 entries it takes about a millisecond, with
        // no build cost and no recall loss. First pass on the i8 rows; the best candidates by that
        // estimate are then scored exactly, so the result equals an exact f32 scan's.
        let (q, q_scale) = quantize(query);
        let approx = self.estimates(&q, q_scale);
        let order = |a: &(usize, f32), b: &(usize, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        let mut v: Vec<(usize, f32)> =
            approx.into_iter().enumerate().filter(|(i, s)| s.is_finite() && allow(*i)).collect();
        // Partition out the candidates rather than sorting all 10,000 entries.
        let candidates = k.saturating_mul(2).max(k + RESCORE_MARGIN);
        if v.len() > candidates {
            v.select_nth_unstable_by(candidates - 1, order);
            v.truncate(candidates);
        }
        for c in &mut v {
            c.1 = self.similarity(query, c.0);
        }
        v.sort_by(order);
        v.truncate(k);
        v
    }

    /// Each entry's best estimated cosine. Large matrices are split between two threads at an
    /// entry boundary: the scan is the only work left once the query is embedded.
    fn estimates(&self, q: &[i8], q_scale: f32) -> Vec<f32> {
        let entries = self.row_entry.last().map_or(0, |e| e + 1);
        let mut approx = vec![f32::NEG_INFINITY; entries];
        let n = self.row_entry.len();
        let threads = std::thread::available_parallelism().map_or(1, |t| t.get()).min(2);
        if threads < 2 || n * self.dim < PARALLEL_SCAN_MIN {
            scan_i8(&self.qrows, &self.qscale, &self.row_entry, 0, self.dim, q, q_scale, &mut approx);
            return approx;
        }
        // The split row starts a new entry, so each half writes its own slice of `approx`.
        let mid_entry = self.row_entry[n / 2];
        let split = self.row_entry.partition_point(|&e| e < mid_entry);
        let (lo, hi) = approx.split_at_mut(mid_entry);
        let d = self.dim;
        std::thread::scope(|s| {
            s.spawn(|| {
                scan_i8(
                    &self.qrows[split * d..],
                    &self.qscale[split..],
                    &self.row_entry[split..],
                    mid_entry,
                    d,
                    q,
                    q_scale,
                    hi,
                )
            });
            scan_i8(&self.qrows[..split * d], &self.qscale[..split], &self.row_entry[..split], 0, d, q, q_scale, lo);
        });
        approx
    }

    /// Every entry's best cosine to `query` over its phrasings, exactly (entries with no row get
    /// `f32::MIN`).
    pub fn best_per_entry(&self, query: &[f32], entries: usize) -> Vec<f32> {
        let mut best = vec![f32::MIN; entries];
        if self.dim == 0 || query.len() != self.dim {
            return best;
        }
        for (row, &e) in self.rows.chunks_exact(self.dim).zip(&self.row_entry) {
            if let Some(b) = best.get_mut(e) {
                *b = b.max(dot(row, query));
            }
        }
        best
    }

    /// Best cosine between the query and one entry's phrasings.
    pub fn similarity(&self, query: &[f32], entry: usize) -> f32 {
        // Rows are built entry by entry, so an entry's rows are one contiguous run.
        let start = self.row_entry.partition_point(|&e| e < entry);
        let end = self.row_entry.partition_point(|&e| e <= entry);
        let dim = self.dim.max(1);
        self.rows
            .get(start * dim..end * dim)
            .unwrap_or_default()
            .chunks_exact(dim)
            .map(|row| dot(row, query))
            .fold(f32::MIN, f32::max)
    }

    /// The vector of an entry's first phrasing (its question as written).
    pub fn first_row(&self, entry: usize) -> Option<&[f32]> {
        let start = self.row_entry.partition_point(|&e| e < entry);
        (self.row_entry.get(start) == Some(&entry)).then(|| self.rows.get(start * self.dim..(start + 1) * self.dim))?
    }
}

/// Answer-side vectors of one entry, each field in every language the entry has (Chinese first).
#[derive(Debug, Clone)]
pub struct EntryVectors {
    /// Per key point: the point's vectors.
    pub key_points: Vec<Vec<Vec<f32>>>,
    pub expert: Vec<Vec<f32>>,
    pub novice: Vec<Vec<f32>>,
}

/// Every entry's expert answers and their sentences: the background against which an answer's
/// closeness to one entry is judged (relative to all the others, never against a raw cut-off).
pub struct AnswerMatrix {
    /// (entry, vector) of each expert answer, each language.
    pub experts: Vec<(usize, Vec<f32>)>,
    /// (entry, vector) of each sentence of each expert answer.
    pub sentences: Vec<(usize, Vec<f32>)>,
}

pub struct KbVectors {
    pub embedder: Embedder,
    questions: QuestionRows,
    store: Mutex<Store>,
    answers: Mutex<HashMap<usize, EntryVectors>>,
    matrix: Mutex<Option<std::sync::Arc<AnswerMatrix>>>,
    /// Per question row: mean and spread of its cosine to every expert answer of the base.
    background: Mutex<Option<Background>>,
}

/// Per question row, (mean, standard deviation) of its cosine to every expert answer.
pub type Background = std::sync::Arc<Vec<(f32, f32)>>;

/// Extra candidates scored exactly beyond the k asked for. The i8 estimate is within about 0.002 of
/// the exact cosine (tests check the rankings match an exact scan), far less than the spread of
/// the 64 candidates past the k-th.
const RESCORE_MARGIN: usize = 64;

/// A vector as i8 values and the scale that maps them back (value = q * scale).
fn quantize(v: &[f32]) -> (Vec<i8>, f32) {
    let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
    if max == 0.0 {
        return (vec![0; v.len()], 0.0);
    }
    let scale = max / 127.0;
    (v.iter().map(|x| (x / scale).round().clamp(-127.0, 127.0) as i8).collect(), scale)
}

/// Below this many values (rows x dimensions) a second thread costs more than it saves.
const PARALLEL_SCAN_MIN: usize = 1 << 20;

/// Best estimated cosine per entry over i8 rows; `approx[e - first_entry]` receives entry `e`.
/// Compiled for several instruction sets and picked at run time (integer sums may be reordered,
/// so the loop vectorises as written).
#[allow(clippy::too_many_arguments)]
#[multiversion::multiversion(targets("x86_64+avx2+fma", "x86_64+avx+fma", "x86_64+sse4.1", "aarch64+neon"))]
fn scan_i8(
    qrows: &[i8],
    qscale: &[f32],
    row_entry: &[usize],
    first_entry: usize,
    dim: usize,
    q: &[i8],
    q_scale: f32,
    approx: &mut [f32],
) {
    for ((row, &scale), &entry) in qrows.chunks_exact(dim).zip(qscale).zip(row_entry) {
        let dot: i32 = row.iter().zip(q).map(|(x, y)| i32::from(*x) * i32::from(*y)).sum();
        let s = dot as f32 * scale * q_scale;
        if let Some(best) = approx.get_mut(entry - first_entry) {
            if s > *best {
                *best = s;
            }
        }
    }
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
    pub fn build(
        kb: &KnowledgeBase,
        embedder: Embedder,
        mut store: Store,
        cancel: &CancellationToken,
    ) -> Result<KbVectors, EmbedError> {
        let mut texts = Vec::new();
        let mut row_entry = Vec::new();
        let mut row_lang = Vec::new();
        for (i, e) in kb.entries.iter().enumerate() {
            for p in phrasings(e) {
                row_lang.push(crate::lang::majority(p.trim_start_matches("query: ")));
                texts.push(p);
                row_entry.push(i);
            }
        }
        let vecs = embedder.cached(&mut store, &texts, cancel)?;
        Ok(KbVectors {
            embedder,
            questions: QuestionRows::new(&vecs, row_entry, row_lang),
            store: Mutex::new(store),
            answers: Mutex::new(HashMap::new()),
            matrix: Mutex::new(None),
            background: Mutex::new(None),
        })
    }

    /// Entries ranked by their best phrasing's cosine to the query vector, best first.
    pub fn rank(&self, query: &[f32], allow: impl Fn(usize) -> bool, k: usize) -> Vec<(usize, f32)> {
        self.questions.rank(query, allow, k)
    }

    /// Best cosine between the query and one entry's phrasings.
    pub fn similarity(&self, query: &[f32], entry: usize) -> f32 {
        self.questions.similarity(query, entry)
    }

    /// Every entry's best cosine over its phrasings to a vector (a query's, or an answer's).
    pub fn question_scores(&self, v: &[f32], entries: usize) -> Vec<f32> {
        self.questions.best_per_entry(v, entries)
    }

    /// Answer-side vectors of an entry, embedded on first use and cached.
    pub fn answer_side(
        &self,
        kb: &KnowledgeBase,
        entry: usize,
        cancel: &CancellationToken,
    ) -> Result<EntryVectors, EmbedError> {
        if let Some(v) = self.answers.lock().ok().and_then(|m| m.get(&entry).cloned()) {
            return Ok(v);
        }
        let e = &kb.entries[entry];
        let both = |zh: &str, en: &str| -> Vec<String> {
            [zh, en].iter().filter(|t| !t.trim().is_empty()).map(|t| format!("passage: {t}")).collect()
        };
        let groups: Vec<Vec<String>> = e
            .key_points
            .iter()
            .map(|k| both(&k.point, &k.point_en))
            .chain([both(&e.expert_answer, &e.expert_answer_en), both(&e.novice_answer, &e.novice_answer_en)])
            .collect();
        let flat: Vec<String> = groups.iter().flatten().cloned().collect();
        let vecs = {
            let mut store = self.store.lock().map_err(|_| EmbedError::Embed("the cache lock was poisoned".into()))?;
            self.embedder.cached(&mut store, &flat, cancel)?
        };
        let mut it = vecs.into_iter();
        let mut grouped: Vec<Vec<Vec<f32>>> = groups.iter().map(|g| it.by_ref().take(g.len()).collect()).collect();
        let novice = grouped.pop().unwrap_or_default();
        let expert = grouped.pop().unwrap_or_default();
        let v = EntryVectors { key_points: grouped, expert, novice };
        if let Ok(mut m) = self.answers.lock() {
            m.insert(entry, v.clone());
        }
        Ok(v)
    }

    /// The base-wide answer matrix, embedded (or read from the cache) on first use.
    pub fn answer_matrix(
        &self,
        kb: &KnowledgeBase,
        cancel: &CancellationToken,
    ) -> Result<std::sync::Arc<AnswerMatrix>, EmbedError> {
        let poisoned = || EmbedError::Embed("the answer matrix lock was poisoned".into());
        let mut slot = self.matrix.lock().map_err(|_| poisoned())?;
        if let Some(m) = slot.as_ref() {
            return Ok(m.clone());
        }
        let mut expert_texts = Vec::new();
        let mut sentence_texts = Vec::new();
        for (i, e) in kb.entries.iter().enumerate() {
            for text in [&e.expert_answer, &e.expert_answer_en] {
                if text.trim().is_empty() {
                    continue;
                }
                expert_texts.push((i, format!("passage: {text}")));
                for s in analysis_sentences(text) {
                    sentence_texts.push((i, format!("passage: {s}")));
                }
            }
        }
        let embed = |items: &[(usize, String)]| -> Result<Vec<(usize, Vec<f32>)>, EmbedError> {
            let texts: Vec<String> = items.iter().map(|(_, t)| t.clone()).collect();
            let mut store = self.store.lock().map_err(|_| poisoned())?;
            let vecs = self.embedder.cached(&mut store, &texts, cancel)?;
            Ok(items.iter().map(|(i, _)| *i).zip(vecs).collect())
        };
        let m =
            std::sync::Arc::new(AnswerMatrix { experts: embed(&expert_texts)?, sentences: embed(&sentence_texts)? });
        *slot = Some(m.clone());
        Ok(m)
    }

    /// Per question row, the mean and standard deviation of its cosine to every expert answer
    /// of the base: how close any answer comes to that wording, whatever it says.
    pub fn question_background(
        &self,
        kb: &KnowledgeBase,
        cancel: &CancellationToken,
    ) -> Result<Background, EmbedError> {
        let matrix = self.answer_matrix(kb, cancel)?;
        let mut slot =
            self.background.lock().map_err(|_| EmbedError::Embed("the background lock was poisoned".into()))?;
        if let Some(b) = slot.as_ref() {
            return Ok(b.clone());
        }
        let dim = self.questions.dim.max(1);
        let bg = std::sync::Arc::new(backgrounds(self.questions.rows.chunks_exact(dim), &matrix));
        *slot = Some(bg.clone());
        Ok(bg)
    }

    /// Every entry's best z-scored cosine to an answer over its phrasings in `lang` (each
    /// phrasing's cosine against its own background, see [`Self::question_background`]).
    pub fn question_z_in(&self, v: &[f32], entries: usize, lang: Lang, bg: &[(f32, f32)]) -> Vec<f32> {
        let q = &self.questions;
        let mut best = vec![f32::MIN; entries];
        let mut fallback = vec![f32::MIN; entries];
        if q.dim == 0 || v.len() != q.dim {
            return best;
        }
        let rows = q.rows.chunks_exact(q.dim).zip(&q.row_entry).zip(&q.row_lang).zip(bg);
        for (((row, &e), &l), &(mean, sd)) in rows {
            let z = if sd > 0.0 { (dot(row, v) - mean) / sd } else { 0.0 };
            let slot = if l == Some(lang) { best.get_mut(e) } else { fallback.get_mut(e) };
            if let Some(b) = slot {
                *b = b.max(z);
            }
        }
        best.into_iter().zip(fallback).map(|(b, f)| if b > f32::MIN { b } else { f }).collect()
    }

    /// Embed everything scoring will ask for (every entry's answer side and the answer matrix), so
    /// that the first diagnosis after provisioning finds it all in the cache.
    pub fn warm(&self, kb: &KnowledgeBase, cancel: &CancellationToken) -> Result<(), EmbedError> {
        self.answer_matrix(kb, cancel)?;
        for i in 0..kb.entries.len() {
            self.answer_side(kb, i, cancel)?;
        }
        Ok(())
    }

    /// Passage vectors of arbitrary texts (answers and their sentences), through the cache.
    pub fn passages(&self, texts: &[&str], cancel: &CancellationToken) -> Result<Vec<Vec<f32>>, EmbedError> {
        let prefixed: Vec<String> = texts.iter().map(|t| format!("passage: {t}")).collect();
        let mut store = self.store.lock().map_err(|_| EmbedError::Embed("the cache lock was poisoned".into()))?;
        self.embedder.cached(&mut store, &prefixed, cancel)
    }

    /// One passage's vector (an answer's), through the cache.
    pub fn passage_vector(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        Ok(self.passages(&[text], &CancellationToken::new())?.pop().unwrap_or_default())
    }

    /// A query's vector, through the cache: interview questions recur (every re-diagnosis of a
    /// transcript asks the same ones), and a cache hit costs far less than inference.
    pub fn query_vector(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        // One text: nothing to stop between.
        Ok(self.queries(&[text], &CancellationToken::new())?.pop().unwrap_or_default())
    }

    /// Query vectors of several texts, through the cache.
    pub fn queries(&self, texts: &[&str], cancel: &CancellationToken) -> Result<Vec<Vec<f32>>, EmbedError> {
        let prefixed: Vec<String> = texts.iter().map(|t| format!("query: {t}")).collect();
        let mut store = self.store.lock().map_err(|_| EmbedError::Embed("the cache lock was poisoned".into()))?;
        self.embedder.cached(&mut store, &prefixed, cancel)
    }

    /// The vector of an entry's question as written (a `query: ` vector, as [`Self::query_vector`]
    /// gives for the same text).
    pub fn question_vector(&self, entry: usize) -> Option<&[f32]> {
        self.questions.first_row(entry)
    }

    pub fn rows(&self) -> usize {
        self.questions.row_entry.len()
    }
}

/// Per question vector, the mean and standard deviation of its cosine to every expert answer of
/// the matrix.
pub fn backgrounds<'a>(rows: impl Iterator<Item = &'a [f32]>, matrix: &AnswerMatrix) -> Vec<(f32, f32)> {
    rows.map(|row| {
        let cos: Vec<f64> = matrix.experts.iter().map(|(_, e)| f64::from(dot(row, e))).collect();
        let (mean, sd) = mean_sd(&cos);
        (mean as f32, sd as f32)
    })
    .collect()
}

/// Sentences shorter than this many characters carry too little to match a key point alone.
pub const MIN_SENTENCE_CHARS: usize = 6;

/// The sentences an answer is judged by: split at sentence ends, semicolons and line breaks (lists
/// put one point a line), keeping those long enough to carry a point.
pub fn analysis_sentences(text: &str) -> Vec<&str> {
    text.split(['\n', '；', ';', '。', '！', '？', '!', '?'])
        .flat_map(|line| line.split(". "))
        .map(str::trim)
        .filter(|s| s.chars().count() >= MIN_SENTENCE_CHARS)
        .collect()
}

/// Mean and (population) standard deviation.
pub(crate) fn mean_sd(xs: &[f64]) -> (f64, f64) {
    let n = xs.len().max(1) as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
    (mean, var.sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic pseudo-random unit vectors (xorshift), clustered like e5's: a shared
    /// direction plus noise, so cosines sit in a narrow band as real ones do.
    fn vectors(n: usize, dim: usize, seed: u64) -> Vec<Vec<f32>> {
        let mut x = seed;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 20_000) as f32 / 10_000.0 - 1.0
        };
        let common: Vec<f32> = (0..dim).map(|_| next()).collect();
        (0..n)
            .map(|_| {
                let mut v: Vec<f32> = common.iter().map(|c| 2.0 * c + next()).collect();
                super::super::embed::normalize(&mut v);
                v
            })
            .collect()
    }

    #[test]
    fn quantised_ranking_equals_an_exact_scan() {
        let dim = 384;
        let rows = vectors(3_000, dim, 7);
        let row_entry: Vec<usize> = (0..rows.len()).map(|r| r / 2).collect();
        let m = QuestionRows::new(&rows, row_entry.clone(), vec![None; rows.len()]);
        for (qi, q) in vectors(50, dim, 99).iter().enumerate() {
            let allow = |i: usize| qi % 3 != 0 || i % 2 == 0;
            let mut best = vec![f32::NEG_INFINITY; 1_500];
            for (r, &e) in rows.iter().zip(&row_entry) {
                best[e] = best[e].max(dot(r, q));
            }
            let mut exact: Vec<(usize, f32)> = best.into_iter().enumerate().filter(|(i, _)| allow(*i)).collect();
            exact.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            exact.truncate(50);
            assert_eq!(m.rank(q, allow, 50), exact, "query {qi}");
        }
    }

    #[test]
    fn an_entrys_first_row_is_its_question_as_written() {
        let rows = vectors(5, 8, 11);
        // Entry 0 has two phrasings, entry 1 none, entry 2 three.
        let m = QuestionRows::new(&rows, vec![0, 0, 2, 2, 2], vec![None; 5]);
        assert_eq!(m.first_row(0), Some(rows[0].as_slice()));
        assert_eq!(m.first_row(1), None);
        assert_eq!(m.first_row(2), Some(rows[2].as_slice()));
        assert_eq!(m.first_row(3), None);
    }

    #[test]
    fn quantisation_error_is_small() {
        for v in vectors(200, 384, 3) {
            let (q, scale) = quantize(&v);
            let back: Vec<f32> = q.iter().map(|x| *x as f32 * scale).collect();
            assert!((dot(&back, &v) - 1.0).abs() < 1e-3);
        }
    }
}

//! Dense vectors: multilingual-e5-small through fastembed and ONNX Runtime (loaded dynamically from
//! the models folder), mean pooling, e5's `query: ` / `passage: ` prefixes, and a SQLite cache
//! keyed by model and content hash so unchanged texts are never embedded twice.

use std::sync::Mutex;
use std::time::Instant;
use tokio_util::sync::CancellationToken;

use fastembed::{InitOptionsUserDefined, Pooling, TextEmbedding, TokenizerFiles, UserDefinedEmbeddingModel};
use sha2::{Digest, Sha256};

use crate::models::{self, ModelError, Models};
use crate::store::{Store, StoreError};

/// Batch size for embedding: measured fastest on 2 cores for short sentences (MODELS.md).
const BATCH: usize = 32;
/// Texts embedded between two looks at the cancellation: at most one batch of the model's, and
/// at most [`TOKEN_BUDGET`] estimated tokens (32 whole answers of 512 tokens took 4 s on a busy
/// machine, too long for Ctrl-C to feel prompt; a batch of this budget takes a fraction of that).
pub const CHUNK: usize = BATCH;
const TOKEN_BUDGET: usize = 2048;

/// A rough token count: a CJK character is about one token, four other characters about one;
/// capped at what the model reads.
fn estimated_tokens(text: &str) -> usize {
    let (cjk, other) =
        text.chars().fold((0, 0), |(c, o), ch| if crate::lang::is_cjk(ch) { (c + 1, o) } else { (c, o + 1) });
    (cjk + other / 4 + 2).min(MAX_LENGTH)
}

/// `order` (indices into `texts`, shortest first) cut into batches of at most [`CHUNK`] texts and
/// [`TOKEN_BUDGET`] tokens (a batch always takes at least one text).
fn batches(texts: &[String], order: &[usize]) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut tokens = 0;
    for &i in order {
        let t = estimated_tokens(&texts[i]);
        match out.last_mut() {
            Some(b) if b.len() < CHUNK && tokens + t <= TOKEN_BUDGET => {
                b.push(i);
                tokens += t;
            }
            _ => {
                out.push(vec![i]);
                tokens = t;
            }
        }
    }
    out
}
/// e5's maximum sequence length.
const MAX_LENGTH: usize = 512;

#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    #[error(transparent)]
    Model(#[from] ModelError),
    #[error("cannot load ONNX Runtime from {path}: {message}; run `ivd models fetch` to repair it")]
    Runtime { path: String, message: String },
    #[error("cannot load the embedding model {path}: {message}; run `ivd models fetch` to repair it")]
    Load { path: String, message: String },
    #[error("embedding failed: {0}")]
    Embed(String),
    #[error("the embedding was cancelled")]
    Cancelled,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Which e5 weights to use: int8 is 2x faster and half the memory, with cosine 0.998 to fp32.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    Int8,
    Fp32,
}

fn init_runtime(lib: &std::path::Path) -> Result<ort::environment::Environment, EmbedError> {
    models::onnx_environment(lib).map_err(|message| EmbedError::Runtime { path: lib.display().to_string(), message })
}

pub struct Embedder {
    model: Mutex<TextEmbedding>,
    /// The tokenizer's file, whose unigram vocabulary tells common words from rare ones.
    tokenizer: std::path::PathBuf,
    common: std::sync::OnceLock<std::collections::HashMap<String, f32>>,
    /// Identifies the vectors in the cache: changing weights must not reuse old vectors.
    pub name: String,
    pub load_ms: u64,
}

impl Embedder {
    pub fn load(models: &Models, variant: Variant) -> Result<Embedder, EmbedError> {
        let started = Instant::now();
        let lib = models.file(models::ONNXRUNTIME)?;
        let (onnx_name, name) = match variant {
            Variant::Int8 => (models::E5_INT8, "multilingual-e5-small-int8"),
            Variant::Fp32 => (models::E5_FP32, "multilingual-e5-small-fp32"),
        };
        let onnx = models.file(onnx_name)?;
        let read = |p: std::path::PathBuf| {
            std::fs::read(&p).map_err(|source| EmbedError::Model(ModelError::Io { path: p, source }))
        };
        let tokenizer = models.file(models::E5_TOKENIZER)?;
        let files = TokenizerFiles {
            tokenizer_file: read(tokenizer.clone())?,
            config_file: read(models.file(models::E5_CONFIG)?)?,
            special_tokens_map_file: read(models.file(models::E5_SPECIAL_TOKENS)?)?,
            tokenizer_config_file: read(models.file(models::E5_TOKENIZER_CONFIG)?)?,
        };
        let onnx_bytes = read(onnx.clone())?;
        let env = init_runtime(&lib)?;
        let user = UserDefinedEmbeddingModel::new(onnx_bytes, files).with_pooling(Pooling::Mean);
        let model = TextEmbedding::try_new_from_user_defined(
            user,
            InitOptionsUserDefined::new().with_max_length(MAX_LENGTH).with_environment(env),
        )
        .map_err(|e| EmbedError::Load { path: onnx.display().to_string(), message: e.to_string() })?;
        let manifest_sha = models
            .manifest()?
            .files
            .iter()
            .find(|f| f.name == onnx_name)
            .map(|f| f.sha256[..12].to_string())
            .unwrap_or_default();
        // The batch benchmark counts these lines: one per process, not one per file.
        tracing::info!("embedding model {name} loaded in {} ms", started.elapsed().as_millis());
        Ok(Embedder {
            model: Mutex::new(model),
            tokenizer,
            common: std::sync::OnceLock::new(),
            name: format!("{name}-{manifest_sha}"),
            load_ms: started.elapsed().as_millis() as u64,
        })
    }

    /// How common a word is in the text the model's tokenizer was trained on: the log-probability
    /// of the unigram piece that spells it whole (with or without the word-start mark), for pieces
    /// from [`COMMON_MIN`] up; None for a word it splits into pieces, which is a rare one. Read
    /// from the tokenizer's file on first use; an unreadable file means no word is known common.
    pub fn commonness(&self, word: &str) -> Option<f32> {
        let common = self.common.get_or_init(|| read_common(&self.tokenizer).unwrap_or_default());
        common.get(word).copied()
    }

    /// Embed texts that already carry their e5 prefix; unit-length vectors.
    pub fn embed_raw(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        // The model reads 512 tokens at most, but the tokenizer reads the whole text first: a long
        // answer (thousands of sentences) cost seconds before it was cut. Cut it here instead.
        let texts: Vec<&str> = texts.iter().map(|t| clip(t, MAX_CHARS)).collect();
        let mut model =
            self.model.lock().map_err(|_| EmbedError::Embed("the embedding model lock was poisoned".into()))?;
        let mut out = model.embed(texts, Some(BATCH)).map_err(|e| EmbedError::Embed(e.to_string()))?;
        for v in &mut out {
            normalize(v);
        }
        Ok(out)
    }

    pub fn query(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        Ok(self.embed_raw(&[format!("query: {text}")])?.pop().unwrap_or_default())
    }

    /// Embed texts in batches of similar length, in their order: a batch is padded to its longest
    /// text, and one whole answer (512 tokens) among 31 short sentences made the batch cost as
    /// much as 32 answers. Stops between batches once `cancel` fires.
    fn embed_by_length(&self, texts: &[String], cancel: &CancellationToken) -> Result<Vec<Vec<f32>>, EmbedError> {
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by_key(|&i| texts[i].len());
        let mut out = vec![Vec::new(); texts.len()];
        for chunk in batches(texts, &order) {
            if cancel.is_cancelled() {
                return Err(EmbedError::Cancelled);
            }
            let batch: Vec<String> = chunk.iter().map(|&i| texts[i].clone()).collect();
            for (&i, v) in chunk.iter().zip(self.embed_raw(&batch)?) {
                out[i] = v;
            }
        }
        Ok(out)
    }

    /// Embed prefixed texts through the cache: only texts never seen by this model are embedded.
    /// Embedding stops between batches (see [`CHUNK`]) once `cancel` fires.
    pub fn cached(
        &self,
        store: &mut Store,
        texts: &[String],
        cancel: &CancellationToken,
    ) -> Result<Vec<Vec<f32>>, EmbedError> {
        let hashes: Vec<String> = texts.iter().map(|t| content_hash(t)).collect();
        let mut out: Vec<Option<Vec<f32>>> = Vec::with_capacity(texts.len());
        let mut missing = Vec::new();
        for (i, h) in hashes.iter().enumerate() {
            let v = store.get_embedding(&self.name, h)?;
            if v.is_none() {
                missing.push(i);
            }
            out.push(v);
        }
        if !missing.is_empty() {
            // Each distinct text is embedded once, however often it repeats.
            let mut unique: Vec<usize> = Vec::new();
            let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
            for &i in &missing {
                seen.entry(hashes[i].as_str()).or_insert_with(|| {
                    unique.push(i);
                    unique.len() - 1
                });
            }
            let todo: Vec<String> = unique.iter().map(|&i| texts[i].clone()).collect();
            let vecs = self.embed_by_length(&todo, cancel)?;
            let items: Vec<(String, Vec<f32>)> =
                unique.iter().zip(&vecs).map(|(&i, v)| (hashes[i].clone(), v.clone())).collect();
            store.put_embeddings(&self.name, &items)?;
            for &i in &missing {
                out[i] = seen.get(hashes[i].as_str()).map(|&u| vecs[u].clone());
            }
        }
        Ok(out.into_iter().map(Option::unwrap_or_default).collect())
    }
}

/// More characters than 512 tokens ever hold (about 4 characters a token in English; fewer in
/// Chinese, which the tokenizer then cuts).
const MAX_CHARS: usize = 2400;

/// `t` cut to at most `max` characters, on a character boundary.
fn clip(t: &str, max: usize) -> &str {
    match t.char_indices().nth(max) {
        Some((at, _)) => &t[..at],
        None => t,
    }
}

pub fn content_hash(text: &str) -> String {
    Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

pub fn normalize(v: &mut [f32]) {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if n > 0.0 {
        for x in v.iter_mut() {
            *x /= n;
        }
    }
}

/// Dot product of unit vectors: their cosine. Eight independent sums, because a single running
/// sum is a dependency chain the compiler may not reorder (float addition is not associative), so
/// it cannot use SIMD lanes; this form vectorises and scans 10,000 entries several times faster.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca.remainder().iter().zip(cb.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in ca.zip(cb) {
        for ((s, x), y) in acc.iter_mut().zip(x).zip(y) {
            *s += x * y;
        }
    }
    acc.iter().sum::<f32>() + tail
}

/// Pieces less probable than this are not kept: a word the vocabulary holds whole but rarely
/// ("basically" -14.3) is as good as a rare one for telling filler from substance.
pub const COMMON_MIN: f32 = -14.0;

fn read_common(path: &std::path::Path) -> Option<std::collections::HashMap<String, f32>> {
    #[derive(serde::Deserialize)]
    struct File {
        model: Unigram,
    }
    #[derive(serde::Deserialize)]
    struct Unigram {
        vocab: Vec<(String, f32)>,
    }
    let file: File = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    let mut out: std::collections::HashMap<String, f32> = std::collections::HashMap::new();
    for (piece, score) in file.model.vocab.into_iter().filter(|(_, s)| *s >= COMMON_MIN) {
        let word = piece.trim_start_matches('\u{2581}').to_lowercase();
        let slot = out.entry(word).or_insert(score);
        *slot = slot.max(score);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_matches_the_naive_sum_at_every_length() {
        for n in [0, 1, 7, 8, 9, 383, 384] {
            let a: Vec<f32> = (0..n).map(|i| ((i * 37 % 101) as f32 - 50.0) / 50.0).collect();
            let b: Vec<f32> = (0..n).map(|i| ((i * 53 % 97) as f32 - 48.0) / 48.0).collect();
            let naive: f64 = a.iter().zip(&b).map(|(x, y)| (*x as f64) * (*y as f64)).sum();
            assert!((dot(&a, &b) as f64 - naive).abs() < 1e-4, "n = {n}");
        }
    }
}

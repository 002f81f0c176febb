//! The BM25 index (tantivy) under `$IVD_HOME/index/`, keyed by the knowledge base's fingerprint:
//! opened when it exists, built (into a temporary folder, then renamed) when the base changed.

use std::path::{Path, PathBuf};
use std::time::Instant;

use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, Value, STORED, STRING};
use tantivy::tokenizer::{TextAnalyzer, WhitespaceTokenizer};
use tantivy::{Index, IndexReader, ReloadPolicy, TantivyDocument, Term};

use super::terms::terms;
use super::{KbError, KnowledgeBase};

/// Bump when the schema or the term function changes, so old indexes are not reused.
const INDEX_VERSION: &str = "bm25-v4";
const TOKENIZER: &str = "ivd_terms";
const READY: &str = "READY";
/// Field weights: the question and its paraphrases say what an entry is about; key points and tags
/// name its concepts; the expert answer mentions much else, so it counts least.
const BOOST_QUESTION: f32 = 2.0;
const BOOST_KEYS: f32 = 1.0;
const BOOST_BODY: f32 = 0.3;

pub struct Bm25Index {
    reader: IndexReader,
    f_id: Field,
    f_dim: Field,
    f_question: Field,
    f_keys: Field,
    f_body: Field,
    pub path: PathBuf,
    /// Whether this process built the index (false: an up-to-date one was opened).
    pub built: bool,
    pub build_ms: u64,
}

fn schema() -> (Schema, [Field; 5]) {
    let mut b = Schema::builder();
    let text = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default().set_tokenizer(TOKENIZER).set_index_option(IndexRecordOption::WithFreqs),
    );
    let f_id = b.add_text_field("id", STRING | STORED);
    let f_dim = b.add_text_field("dimension", STRING | STORED);
    let f_question = b.add_text_field("question", text.clone());
    let f_keys = b.add_text_field("keys", text.clone());
    let f_body = b.add_text_field("body", text);
    (b.build(), [f_id, f_dim, f_question, f_keys, f_body])
}

fn register(index: &Index) {
    index.tokenizers().register(TOKENIZER, TextAnalyzer::from(WhitespaceTokenizer::default()));
}

fn err(path: &Path, e: impl std::fmt::Display) -> KbError {
    KbError::Index { path: path.to_path_buf(), message: e.to_string() }
}

impl Bm25Index {
    /// Where the index of this knowledge base lives.
    pub fn dir_for(kb: &KnowledgeBase, home: &Path) -> PathBuf {
        home.join("index").join(format!("{INDEX_VERSION}-{}", &kb.fingerprint[..16]))
    }

    /// Open the index of this exact knowledge base, building it first if needed.
    pub fn open_or_build(kb: &KnowledgeBase, home: &Path) -> Result<Bm25Index, KbError> {
        let dir = Self::dir_for(kb, home);
        if dir.join(READY).is_file() {
            if let Ok(idx) = Self::open(&dir) {
                return Ok(idx);
            }
            // A damaged index is rebuilt rather than reported: it is only a cache.
            let _ = std::fs::remove_dir_all(&dir);
        }
        let started = Instant::now();
        Self::build(kb, &dir)?;
        let mut idx = Self::open(&dir)?;
        idx.built = true;
        idx.build_ms = started.elapsed().as_millis() as u64;
        Ok(idx)
    }

    /// Build unconditionally (for `ivd kb build` and benchmarks).
    pub fn rebuild(kb: &KnowledgeBase, home: &Path) -> Result<Bm25Index, KbError> {
        let dir = Self::dir_for(kb, home);
        let _ = std::fs::remove_dir_all(&dir);
        Self::open_or_build(kb, home)
    }

    fn build(kb: &KnowledgeBase, dir: &Path) -> Result<(), KbError> {
        let parent = dir.parent().unwrap_or(dir);
        std::fs::create_dir_all(parent).map_err(|e| err(parent, e))?;
        let tmp = parent.join(format!(".build-{}-{}", std::process::id(), crate::audit::new_session_id()));
        std::fs::create_dir_all(&tmp).map_err(|e| err(&tmp, e))?;
        let result = (|| -> Result<(), KbError> {
            let (schema, [f_id, f_dim, f_question, f_keys, f_body]) = schema();
            let index = Index::create_in_dir(&tmp, schema).map_err(|e| err(&tmp, e))?;
            register(&index);
            let mut writer =
                index.writer_with_num_threads::<TantivyDocument>(1, 50_000_000).map_err(|e| err(&tmp, e))?;
            for e in &kb.entries {
                let mut doc = TantivyDocument::default();
                doc.add_text(f_id, &e.id);
                doc.add_text(f_dim, &e.dimension);
                let mut q = format!("{} {}", e.question, e.question_en);
                for p in &e.paraphrases {
                    q.push(' ');
                    q.push_str(p);
                }
                doc.add_text(f_question, terms(&q).join(" "));
                let mut keys = e.tags.join(" ");
                for kp in &e.key_points {
                    keys.push(' ');
                    keys.push_str(&kp.point);
                    keys.push(' ');
                    keys.push_str(&kp.keywords.join(" "));
                }
                doc.add_text(f_keys, terms(&keys).join(" "));
                doc.add_text(f_body, terms(&e.expert_answer).join(" "));
                writer.add_document(doc).map_err(|e| err(&tmp, e))?;
            }
            writer.commit().map_err(|e| err(&tmp, e))?;
            writer.wait_merging_threads().map_err(|e| err(&tmp, e))?;
            std::fs::write(tmp.join(READY), INDEX_VERSION).map_err(|e| err(&tmp, e))?;
            Ok(())
        })();
        if let Err(e) = result {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(e);
        }
        // Another process may have finished the same index first: theirs is as good as ours.
        if std::fs::rename(&tmp, dir).is_err() {
            let _ = std::fs::remove_dir_all(&tmp);
            if !dir.join(READY).is_file() {
                return Err(err(dir, "could not move the new index into place"));
            }
        }
        Ok(())
    }

    fn open(dir: &Path) -> Result<Bm25Index, KbError> {
        let index = Index::open_in_dir(dir).map_err(|e| err(dir, e))?;
        register(&index);
        let s = index.schema();
        let field = |name: &str| s.get_field(name).map_err(|e| err(dir, e));
        // The index never changes once built (a changed base gets a new folder): no file watcher.
        let reader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into().map_err(|e| err(dir, e))?;
        Ok(Bm25Index {
            f_id: field("id")?,
            f_dim: field("dimension")?,
            f_question: field("question")?,
            f_keys: field("keys")?,
            f_body: field("body")?,
            reader,
            path: dir.to_path_buf(),
            built: false,
            build_ms: 0,
        })
    }

    /// Top `k` entry ids for OR-ed query terms, best first, ties broken by id.
    pub fn search(
        &self,
        query_terms: &[String],
        dimension: Option<&str>,
        k: usize,
    ) -> Result<Vec<(String, f64)>, KbError> {
        if query_terms.is_empty() || k == 0 {
            return Ok(Vec::new());
        }
        let mut should: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for t in query_terms.iter().filter(|t| seen.insert(t.as_str())) {
            for (f, boost) in [(self.f_question, BOOST_QUESTION), (self.f_keys, BOOST_KEYS), (self.f_body, BOOST_BODY)]
            {
                let tq = TermQuery::new(Term::from_field_text(f, t), IndexRecordOption::WithFreqs);
                should.push((Occur::Should, Box::new(BoostQuery::new(Box::new(tq), boost))));
            }
        }
        let terms_query: Box<dyn Query> = Box::new(BooleanQuery::new(should));
        let query: Box<dyn Query> = match dimension {
            Some(d) => Box::new(BooleanQuery::new(vec![
                (Occur::Must, terms_query),
                (Occur::Must, Box::new(TermQuery::new(Term::from_field_text(self.f_dim, d), IndexRecordOption::Basic))),
            ])),
            None => terms_query,
        };
        let searcher = self.reader.searcher();
        // Fetch a few extra so ties at the cut-off are broken by id, not by document order.
        let top =
            searcher.search(&query, &TopDocs::with_limit(k + 8).order_by_score()).map_err(|e| err(&self.path, e))?;
        let mut out = Vec::with_capacity(top.len());
        for (score, addr) in top {
            let doc: TantivyDocument = searcher.doc(addr).map_err(|e| err(&self.path, e))?;
            if let Some(id) = doc.get_first(self.f_id).and_then(|v| v.as_str()) {
                out.push((id.to_string(), score as f64));
            }
        }
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        out.truncate(k);
        Ok(out)
    }
}

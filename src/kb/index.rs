//! The BM25 index (tantivy) under `$IVD_HOME/index/`, one per knowledge-base source (the shipped
//! base, or a folder), updated in place: each document stores a hash of the entry fields it was
//! built from, so after an edit only the changed entries are deleted and re-added. The commit
//! payload holds the fingerprint of the whole base, so an unchanged base opens without a diff.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

use sha2::{Digest, Sha256};
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, Value, FAST, STORED, STRING};
use tantivy::tokenizer::{TextAnalyzer, WhitespaceTokenizer};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, TantivyDocument, TantivyError, Term};

use super::terms::{term_set, terms};
use super::{Entry, KbError, KnowledgeBase, Source};

/// Bump when the schema or the term function changes, so old indexes are not reused.
const INDEX_VERSION: &str = "bm25-v6";
const TOKENIZER: &str = "ivd_terms";
/// Field weights: the question and its paraphrases say what an entry is about; key points and tags
/// name its concepts; the expert answer mentions much else, so it counts least.
const BOOST_QUESTION: f32 = 2.0;
const BOOST_KEYS: f32 = 1.0;
const BOOST_BODY: f32 = 0.3;
/// How long to wait for another process that is updating the same index.
const LOCK_WAIT: Duration = Duration::from_secs(60);

pub struct Bm25Index {
    reader: IndexReader,
    f_id: Field,
    f_question_terms: Field,
    f_phrasing_terms: Field,
    f_dim: Field,
    f_question: Field,
    f_keys: Field,
    f_body: Field,
    pub path: PathBuf,
    /// Whether this process wrote to the index (false: it was up to date).
    pub built: bool,
    /// Documents added and removed by this process (a changed entry counts in both).
    pub added: usize,
    pub removed: usize,
    pub build_ms: u64,
}

struct Fields {
    id: Field,
    dim: Field,
    hash: Field,
    question_terms: Field,
    phrasing_terms: Field,
    question: Field,
    keys: Field,
    body: Field,
}

fn schema() -> Schema {
    let mut b = Schema::builder();
    let text = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default().set_tokenizer(TOKENIZER).set_index_option(IndexRecordOption::WithFreqs),
    );
    b.add_text_field("id", STRING | STORED | FAST);
    b.add_text_field("dimension", STRING | STORED);
    b.add_text_field("hash", STORED);
    b.add_text_field("question_terms", STORED);
    b.add_text_field("phrasing_terms", STORED);
    b.add_text_field("question", text.clone());
    b.add_text_field("keys", text.clone());
    b.add_text_field("body", text);
    b.build()
}

fn fields(index: &Index, dir: &Path) -> Result<Fields, KbError> {
    let s = index.schema();
    let field = |name: &str| s.get_field(name).map_err(|e| err(dir, e));
    Ok(Fields {
        id: field("id")?,
        dim: field("dimension")?,
        hash: field("hash")?,
        question_terms: field("question_terms")?,
        phrasing_terms: field("phrasing_terms")?,
        question: field("question")?,
        keys: field("keys")?,
        body: field("body")?,
    })
}

fn register(index: &Index) {
    index.tokenizers().register(TOKENIZER, TextAnalyzer::from(WhitespaceTokenizer::default()));
}

fn err(path: &Path, e: impl std::fmt::Display) -> KbError {
    KbError::Index { path: path.to_path_buf(), message: e.to_string() }
}

/// Hash of everything an entry's document is built from: equal hashes, equal documents.
pub fn entry_hash(e: &Entry) -> String {
    let mut h = Sha256::new();
    let mut put = |s: &str| {
        h.update(s.as_bytes());
        h.update([0]);
    };
    put(&e.id);
    put(&e.dimension);
    put(&e.question);
    put(&e.question_en);
    for p in &e.paraphrases {
        put(p);
    }
    put("\u{1}");
    for t in &e.tags {
        put(t);
    }
    put("\u{1}");
    for kp in &e.key_points {
        put(&kp.point);
        put(&kp.point_en);
        for k in kp.all_keywords() {
            put(k);
        }
        put("\u{2}");
    }
    put(&e.expert_answer);
    put(&e.expert_answer_en);
    h.finalize().iter().take(16).map(|b| format!("{b:02x}")).collect()
}

/// Every term of an entry's question side: its phrasings, tags and key-point keywords. Search
/// measures a query's relevance to an entry against this set.
pub fn question_terms(e: &Entry) -> HashSet<String> {
    let mut s = term_set(&e.question);
    s.extend(term_set(&e.question_en));
    for p in &e.paraphrases {
        s.extend(term_set(p));
    }
    for t in &e.tags {
        s.extend(term_set(t));
    }
    for kp in &e.key_points {
        for k in kp.all_keywords() {
            s.extend(term_set(k));
        }
    }
    s
}

/// The terms of each phrasing of an entry's question: question, English question, paraphrases.
pub fn phrasing_terms(e: &Entry) -> Vec<HashSet<String>> {
    std::iter::once(&e.question)
        .chain(std::iter::once(&e.question_en))
        .chain(e.paraphrases.iter())
        .map(|p| term_set(p))
        .collect()
}

/// Per entry (in base order): its question terms and its phrasings' terms.
pub type TermTables = (Vec<HashSet<String>>, Vec<Vec<HashSet<String>>>);

fn document(f: &Fields, e: &Entry, hash: &str) -> TantivyDocument {
    let mut doc = TantivyDocument::default();
    doc.add_text(f.id, &e.id);
    doc.add_text(f.dim, &e.dimension);
    doc.add_text(f.hash, hash);
    // Terms never contain spaces (the indexed fields are split on them), so spaces and newlines
    // can separate terms and phrasings.
    let mut qt: Vec<String> = question_terms(e).into_iter().collect();
    qt.sort();
    doc.add_text(f.question_terms, qt.join(" "));
    let pt: Vec<String> = phrasing_terms(e)
        .into_iter()
        .map(|set| {
            let mut v: Vec<String> = set.into_iter().collect();
            v.sort();
            v.join(" ")
        })
        .collect();
    doc.add_text(f.phrasing_terms, pt.join("\n"));
    let mut q = format!("{} {}", e.question, e.question_en);
    for p in &e.paraphrases {
        q.push(' ');
        q.push_str(p);
    }
    doc.add_text(f.question, terms(&q).join(" "));
    let mut keys = e.tags.join(" ");
    // Both languages: an English question finds a Chinese entry by its English side, and the reverse.
    for kp in &e.key_points {
        for part in [&kp.point, &kp.point_en] {
            keys.push(' ');
            keys.push_str(part);
        }
        keys.push(' ');
        keys.push_str(&kp.keywords.join(" "));
        keys.push(' ');
        keys.push_str(&kp.keywords_en.join(" "));
    }
    doc.add_text(f.keys, terms(&keys).join(" "));
    doc.add_text(f.body, terms(&format!("{}\n{}", e.expert_answer, e.expert_answer_en)).join(" "));
    doc
}

/// Calls `visit` with a text getter for every live document's stored fields.
fn for_each_document(
    reader: &IndexReader,
    dir: &Path,
    mut visit: impl FnMut(&dyn Fn(Field) -> String),
) -> Result<(), KbError> {
    let searcher = reader.searcher();
    for segment in searcher.segment_readers() {
        let store = segment.get_store_reader(1).map_err(|e| err(dir, e))?;
        for doc in store.iter::<TantivyDocument>(segment.alive_bitset()) {
            let doc = doc.map_err(|e| err(dir, e))?;
            visit(&|field| doc.get_first(field).and_then(|v| v.as_str()).unwrap_or_default().to_string());
        }
    }
    Ok(())
}

/// Why one attempt to bring the index up to date failed.
enum SyncError {
    /// Another process held the writer lock for longer than `LOCK_WAIT`.
    Busy(KbError),
    /// The folder is not a usable index: it is only a cache, so it is started afresh.
    Broken(KbError),
}

impl Bm25Index {
    /// Where the index of this knowledge base's source lives: the shipped base has one, each
    /// folder its own (by canonical path), so switching `--kb` back and forth rebuilds nothing.
    pub fn dir_for(kb: &KnowledgeBase, home: &Path) -> PathBuf {
        let key = match &kb.source {
            Source::Shipped => "shipped".to_string(),
            Source::Dir(d) => {
                let canonical = d.canonicalize().unwrap_or_else(|_| d.clone());
                let h = Sha256::digest(canonical.to_string_lossy().as_bytes());
                h.iter().take(8).map(|b| format!("{b:02x}")).collect()
            }
        };
        home.join("index").join(format!("{INDEX_VERSION}-{key}"))
    }

    /// Open the index of this knowledge base, first adding, replacing and deleting the documents
    /// of entries that changed since it was last written.
    pub fn open_or_build(kb: &KnowledgeBase, home: &Path) -> Result<Bm25Index, KbError> {
        let dir = Self::dir_for(kb, home);
        // Changes since the last write are few (an edited entry): seconds even for 10,000
        // entries, so this path does not look at a cancellation.
        match Self::sync(kb, &dir, None) {
            Ok(idx) => Ok(idx),
            Err(SyncError::Busy(e)) => Err(e),
            Err(SyncError::Broken(_)) => {
                let _ = std::fs::remove_dir_all(&dir);
                Self::sync(kb, &dir, None).map_err(|(SyncError::Busy(e) | SyncError::Broken(e))| e)
            }
        }
    }

    /// Build the index from scratch (for `ivd kb build` and benchmarks) in a folder of its own,
    /// then put it in place of the old one: a build stopped by `cancel` leaves the old index as
    /// it was.
    pub fn rebuild(kb: &KnowledgeBase, home: &Path, cancel: &CancellationToken) -> Result<Bm25Index, KbError> {
        let dir = Self::dir_for(kb, home);
        let tmp = dir.with_extension(format!("building-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        let built = Self::sync(kb, &tmp, Some(cancel)).map_err(|(SyncError::Busy(e) | SyncError::Broken(e))| e);
        let built = match built {
            Ok(idx) => idx,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&tmp);
                return Err(e);
            }
        };
        drop(built);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::rename(&tmp, &dir).map_err(|e| err(&dir, e))?;
        Self::open_or_build(kb, home)
    }

    fn sync(kb: &KnowledgeBase, dir: &Path, cancel: Option<&CancellationToken>) -> Result<Bm25Index, SyncError> {
        let started = Instant::now();
        let broken = |e: KbError| SyncError::Broken(e);
        std::fs::create_dir_all(dir).map_err(|e| broken(err(dir, e)))?;
        // Two processes may race to create it: the loser opens the winner's.
        let index = Index::open_in_dir(dir)
            .or_else(|_| Index::create_in_dir(dir, schema()))
            .or_else(|_| Index::open_in_dir(dir))
            .map_err(|e| broken(err(dir, e)))?;
        register(&index);
        let f = fields(&index, dir).map_err(broken)?;
        let up_to_date =
            |index: &Index| index.load_metas().map(|m| m.payload.as_deref() == Some(kb.fingerprint.as_str()));
        let (mut added, mut removed) = (0, 0);
        if !up_to_date(&index).map_err(|e| broken(err(dir, e)))? {
            let mut writer = Self::writer(&index, dir)?;
            // Whoever held the lock may have brought it up to date meanwhile.
            if !up_to_date(&index).map_err(|e| broken(err(dir, e)))? {
                (added, removed) = Self::apply_changes(kb, &index, &f, &mut writer, dir, cancel).map_err(broken)?;
                writer.wait_merging_threads().map_err(|e| broken(err(dir, e)))?;
            }
        }
        // The index changes only through `sync`, which reopens it: no file watcher.
        let reader =
            index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into().map_err(|e| broken(err(dir, e)))?;
        Ok(Bm25Index {
            reader,
            f_id: f.id,
            f_question_terms: f.question_terms,
            f_phrasing_terms: f.phrasing_terms,
            f_dim: f.dim,
            f_question: f.question,
            f_keys: f.keys,
            f_body: f.body,
            path: dir.to_path_buf(),
            built: added + removed > 0,
            added,
            removed,
            build_ms: started.elapsed().as_millis() as u64,
        })
    }

    /// The writer lock, waiting while another process updates the same index.
    fn writer(index: &Index, dir: &Path) -> Result<IndexWriter<TantivyDocument>, SyncError> {
        let deadline = Instant::now() + LOCK_WAIT;
        loop {
            match index.writer_with_num_threads::<TantivyDocument>(1, 50_000_000) {
                Ok(w) => return Ok(w),
                Err(TantivyError::LockFailure(..)) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(50))
                }
                Err(e @ TantivyError::LockFailure(..)) => {
                    return Err(SyncError::Busy(err(
                        dir,
                        format!("{e}: another ivd process has been updating this index for over a minute"),
                    )))
                }
                Err(e) => return Err(SyncError::Broken(err(dir, e))),
            }
        }
    }

    /// Diff the stored entry hashes against the base and commit the difference, with the base's
    /// fingerprint as the commit payload. Returns (added, removed).
    fn apply_changes(
        kb: &KnowledgeBase,
        index: &Index,
        f: &Fields,
        writer: &mut IndexWriter<TantivyDocument>,
        dir: &Path,
        cancel: Option<&CancellationToken>,
    ) -> Result<(usize, usize), KbError> {
        let reader: IndexReader =
            index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into().map_err(|e| err(dir, e))?;
        let mut stored: HashMap<String, String> = HashMap::new();
        for_each_document(&reader, dir, |text| {
            stored.insert(text(f.id), text(f.hash));
        })?;
        let hashes: Vec<String> = kb.entries.iter().map(entry_hash).collect();
        let wanted: HashMap<&str, &str> =
            kb.entries.iter().zip(&hashes).map(|(e, h)| (e.id.as_str(), h.as_str())).collect();
        let mut removed = 0;
        for (id, hash) in &stored {
            if wanted.get(id.as_str()) != Some(&hash.as_str()) {
                writer.delete_term(Term::from_field_text(f.id, id));
                removed += 1;
            }
        }
        let mut added = 0;
        // In base order, so a fresh build is deterministic.
        for (e, hash) in kb.entries.iter().zip(&hashes) {
            if cancel.is_some_and(CancellationToken::is_cancelled) {
                // Nothing was committed: the folder holds no index of this base.
                return Err(KbError::Cancelled);
            }
            if stored.get(&e.id) != Some(hash) {
                writer.add_document(document(f, e, hash)).map_err(|e| err(dir, e))?;
                added += 1;
            }
        }
        let mut commit = writer.prepare_commit().map_err(|e| err(dir, e))?;
        commit.set_payload(&kb.fingerprint);
        commit.commit().map_err(|e| err(dir, e))?;
        // Deleted documents still count in BM25's term statistics until their segment is merged
        // away, which would make rankings depend on the edit history. Merging the segments that
        // hold deletes keeps them equal to a build from scratch (measured by `ivd bench`).
        let with_deletes: Vec<_> = index
            .searchable_segment_metas()
            .map_err(|e| err(dir, e))?
            .into_iter()
            .filter(|m| m.has_deletes())
            .map(|m| m.id())
            .collect();
        if !with_deletes.is_empty() {
            writer.merge(&with_deletes).wait().map_err(|e| err(dir, e))?;
        }
        Ok((added, removed))
    }

    /// The term tables of the base's entries, read back from their documents (`sync` made the
    /// documents match the base); an entry without a document is segmented afresh.
    pub fn term_tables(&self, kb: &KnowledgeBase) -> Result<TermTables, KbError> {
        let mut stored: HashMap<String, (String, String)> = HashMap::with_capacity(kb.entries.len());
        for_each_document(&self.reader, &self.path, |text| {
            stored.insert(text(self.f_id), (text(self.f_question_terms), text(self.f_phrasing_terms)));
        })?;
        let split = |s: &str| s.split(' ').filter(|t| !t.is_empty()).map(str::to_string).collect::<HashSet<String>>();
        let mut question = Vec::with_capacity(kb.entries.len());
        let mut phrasings = Vec::with_capacity(kb.entries.len());
        for e in &kb.entries {
            match stored.get(&e.id) {
                Some((q, p)) => {
                    question.push(split(q));
                    phrasings.push(p.split('\n').map(split).collect());
                }
                _ => {
                    question.push(question_terms(e));
                    phrasings.push(phrasing_terms(e));
                }
            }
        }
        Ok((question, phrasings))
    }

    /// Live documents in the index: one per entry.
    pub fn documents(&self) -> u64 {
        self.reader.searcher().num_docs()
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
        // Ids come from the fast (columnar) field: fetching stored documents decompresses a block
        // per hit, which cost more than the search itself at 10,000 entries.
        let mut columns: HashMap<u32, Option<tantivy::columnar::StrColumn>> = HashMap::new();
        for (score, addr) in top {
            let column = match columns.entry(addr.segment_ord) {
                std::collections::hash_map::Entry::Occupied(o) => o.into_mut(),
                std::collections::hash_map::Entry::Vacant(v) => v.insert(
                    searcher
                        .segment_reader(addr.segment_ord)
                        .fast_fields()
                        .str("id")
                        .map_err(|e| err(&self.path, e))?,
                ),
            };
            let mut id = String::new();
            let found = match column {
                Some(c) => match c.term_ords(addr.doc_id).next() {
                    Some(ord) => c.ord_to_str(ord, &mut id).map_err(|e| err(&self.path, e))?,
                    None => false,
                },
                None => false,
            };
            if !found {
                let doc: TantivyDocument = searcher.doc(addr).map_err(|e| err(&self.path, e))?;
                id = doc.get_first(self.f_id).and_then(|v| v.as_str()).unwrap_or_default().to_string();
            }
            if !id.is_empty() {
                out.push((id, score as f64));
            }
        }
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        out.truncate(k);
        Ok(out)
    }
}

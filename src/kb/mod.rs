//! The knowledge base: reference entries (human-editable TOML files), their validation, the BM25
//! index and search.
//!
//! The shipped base is compiled into the binary, so `ivd` works from any folder; `--kb DIR` (or
//! `kb_dir` / `IVD_KB`) points at another one, e.g. for another job family.

pub mod bank;
pub mod dense;
pub mod derive;
pub mod embed;
pub mod entry;
pub mod evidence;
pub mod import;
pub mod index;
pub mod search;
pub mod terms;
pub mod validate;
pub mod vectors;
pub mod world;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use include_dir::{include_dir, Dir};
use sha2::{Digest, Sha256};

pub use entry::{Difficulty, Dimension, Entry, KeyPoint, Manifest, Mistake};
pub use validate::Problem;

static SHIPPED: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/knowledge_base");

#[derive(Debug, thiserror::Error)]
pub enum KbError {
    #[error("knowledge base folder {0} does not exist; give a folder holding manifest.toml and <dimension>/<id>.toml entries")]
    Missing(PathBuf),
    #[error("cannot read {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("the knowledge base has {} problem(s):\n{}\nfix them (see `ivd kb validate`)", .0.len(), .0.iter().map(|p| format!("  {p}")).collect::<Vec<_>>().join("\n"))]
    Invalid(Vec<Problem>),
    #[error("search index error in {path}: {message}; delete the folder to rebuild it")]
    Index { path: PathBuf, message: String },
    #[error(transparent)]
    Embed(#[from] embed::EmbedError),
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    #[error("stopped before it finished; nothing was changed")]
    Cancelled,
}

/// What `ivd kb validate` reports.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Validation {
    pub entries: usize,
    /// Entries without an English side: allowed in a user's base, reported so it is a choice.
    pub chinese_only: usize,
    pub problems: Vec<Problem>,
}

/// Where a knowledge base came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Shipped,
    Dir(PathBuf),
}

/// A loaded, valid knowledge base.
#[derive(Debug, Clone)]
pub struct KnowledgeBase {
    pub source: Source,
    pub manifest: Manifest,
    /// Sorted by id.
    pub entries: Vec<Entry>,
    /// sha256 over every file's path and content: the index is rebuilt when it changes.
    pub fingerprint: String,
}

/// The raw files of a knowledge base: (path relative to its root, content).
pub(crate) type Files = Vec<(String, String)>;

impl KnowledgeBase {
    /// The knowledge base compiled into the binary.
    pub fn shipped() -> Result<KnowledgeBase, KbError> {
        Self::from_files(Source::Shipped, shipped_files())
    }

    /// A knowledge base in a folder.
    pub fn load_dir(dir: &Path) -> Result<KnowledgeBase, KbError> {
        Self::from_files(Source::Dir(dir.to_path_buf()), read_dir_files(dir)?)
    }

    /// The configured base: a folder if one is given, else the shipped one.
    pub fn load(dir: Option<&Path>) -> Result<KnowledgeBase, KbError> {
        match dir {
            Some(d) => Self::load_dir(d),
            None => Self::shipped(),
        }
    }

    fn from_files(source: Source, mut files: Files) -> Result<KnowledgeBase, KbError> {
        files.sort();
        let (manifest, entries, problems) = validate::check(&files);
        match manifest {
            Some(manifest) if problems.is_empty() => {
                let mut h = Sha256::new();
                for (p, c) in &files {
                    h.update(p.as_bytes());
                    h.update([0]);
                    h.update(c.as_bytes());
                    h.update([0]);
                }
                let fingerprint = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
                Ok(KnowledgeBase { source, manifest, entries, fingerprint })
            }
            _ => Err(KbError::Invalid(problems)),
        }
    }

    /// A knowledge base built in memory (benchmarks, synthetic data); not validated.
    pub fn from_entries(manifest: Manifest, mut entries: Vec<Entry>) -> KnowledgeBase {
        entries.sort_by(|a, b| a.id.cmp(&b.id));
        let mut h = Sha256::new();
        for e in &entries {
            h.update(toml::to_string(e).unwrap_or_default().as_bytes());
        }
        let fingerprint = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
        KnowledgeBase { source: Source::Shipped, manifest, entries, fingerprint }
    }

    /// Problems of a folder (or the shipped base), without failing on the first; with the number of
    /// entries read and how many of them are single-language (no English side).
    pub fn validate(dir: Option<&Path>) -> Result<Validation, KbError> {
        let mut files = match dir {
            Some(d) => read_dir_files(d)?,
            None => shipped_files(),
        };
        files.sort();
        let (_, entries, problems) = validate::check(&files);
        let chinese_only = entries.iter().filter(|e| !e.has_english()).count();
        Ok(Validation { entries: entries.len(), chinese_only, problems })
    }

    pub fn get(&self, id: &str) -> Option<&Entry> {
        self.entries.binary_search_by(|e| e.id.as_str().cmp(id)).ok().map(|i| &self.entries[i])
    }

    pub fn dimension(&self, id: &str) -> Option<&Dimension> {
        self.manifest.dimensions.iter().find(|d| d.id == id)
    }

    /// Entry counts per dimension, in manifest order.
    pub fn stats(&self) -> BTreeMap<String, usize> {
        let mut m: BTreeMap<String, usize> = self.manifest.dimensions.iter().map(|d| (d.id.clone(), 0)).collect();
        for e in &self.entries {
            *m.entry(e.dimension.clone()).or_insert(0) += 1;
        }
        m
    }

    pub fn source_label(&self) -> String {
        match &self.source {
            Source::Shipped => "shipped".into(),
            Source::Dir(d) => d.display().to_string(),
        }
    }
}

/// The files of the knowledge base compiled into the binary.
fn shipped_files() -> Files {
    let mut files = Vec::new();
    collect_embedded(&SHIPPED, &mut files);
    files
}

fn collect_embedded(dir: &Dir<'_>, out: &mut Files) {
    for f in dir.files() {
        if let Some(text) = f.contents_utf8() {
            out.push((f.path().to_string_lossy().replace('\\', "/"), text.to_string()));
        }
    }
    for d in dir.dirs() {
        collect_embedded(d, out);
    }
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> KbError + '_ {
    move |source| KbError::Io { path: path.to_path_buf(), source }
}

/// `manifest.toml` and `*/*.toml` under a folder.
fn read_dir_files(dir: &Path) -> Result<Files, KbError> {
    if !dir.is_dir() {
        return Err(KbError::Missing(dir.to_path_buf()));
    }
    let mut files = Vec::new();
    let manifest = dir.join("manifest.toml");
    if manifest.is_file() {
        files.push(("manifest.toml".to_string(), read_text(&manifest)?));
    }
    for sub in std::fs::read_dir(dir).map_err(io(dir))? {
        let sub = sub.map_err(io(dir))?.path();
        if !sub.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&sub).map_err(io(&sub))? {
            let f = f.map_err(io(&sub))?.path();
            if f.extension().is_some_and(|e| e == "toml") {
                let rel = f.strip_prefix(dir).unwrap_or(&f).to_string_lossy().replace('\\', "/");
                files.push((rel, read_text(&f)?));
            }
        }
    }
    Ok(files)
}

fn read_text(path: &Path) -> Result<String, KbError> {
    let bytes = std::fs::read(path).map_err(|source| KbError::Io { path: path.to_path_buf(), source })?;
    String::from_utf8(bytes).map_err(|_| {
        KbError::Invalid(vec![Problem::new(path.display().to_string(), None, "not UTF-8 text; save it as UTF-8")])
    })
}

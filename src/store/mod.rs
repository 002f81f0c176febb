//! SQLite state under `$IVD_HOME/ivd.sqlite` (WAL): the embedding cache and the history of
//! diagnoses and mock sessions ([`history`]). The schema is versioned in `PRAGMA user_version` and
//! brought up to date by [`MIGRATIONS`], each step in its own transaction.

pub mod history;
pub mod mock;

use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, OptionalExtension};

#[derive(Debug, thiserror::Error)]
#[error("database {path}: {message}; delete it to start afresh (it holds only caches and history)")]
pub struct StoreError {
    pub path: PathBuf,
    pub message: String,
}

pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl Store {
    pub fn open(home: &Path) -> Result<Store, StoreError> {
        let path = home.join("ivd.sqlite");
        let fail = |e: &dyn std::fmt::Display| StoreError { path: path.clone(), message: e.to_string() };
        std::fs::create_dir_all(home).map_err(|e| fail(&e))?;
        let conn = Connection::open(&path).map_err(|e| fail(&e))?;
        conn.busy_timeout(std::time::Duration::from_secs(10)).map_err(|e| fail(&e))?;
        conn.execute_batch("PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON;").map_err(|e| fail(&e))?;
        migrate(&conn).map_err(|e| fail(&e))?;
        Ok(Store { conn, path })
    }

    /// The schema version in use (the number of migrations applied).
    pub fn schema_version(&self) -> Result<u32, StoreError> {
        self.conn.query_row("PRAGMA user_version", [], |r| r.get(0)).map_err(|e| self.err(e))
    }

    /// `PRAGMA integrity_check`: "ok" for a sound file.
    pub fn integrity_check(&self) -> Result<String, StoreError> {
        self.conn.query_row("PRAGMA integrity_check", [], |r| r.get(0)).map_err(|e| self.err(e))
    }

    fn err(&self, e: rusqlite::Error) -> StoreError {
        StoreError { path: self.path.clone(), message: e.to_string() }
    }

    /// A cached vector for (model, content hash).
    pub fn get_embedding(&self, model: &str, hash: &str) -> Result<Option<Vec<f32>>, StoreError> {
        // A cached statement: a 10,000-entry knowledge base looks up 20,000 vectors at start.
        let mut stmt = self
            .conn
            .prepare_cached("SELECT vector FROM embeddings WHERE model = ?1 AND hash = ?2")
            .map_err(|e| self.err(e))?;
        let blob: Option<Vec<u8>> =
            stmt.query_row(params![model, hash], |r| r.get(0)).optional().map_err(|e| self.err(e))?;
        Ok(blob.map(|b| b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()))
    }

    /// Store many vectors in one transaction.
    pub fn put_embeddings(&mut self, model: &str, items: &[(String, Vec<f32>)]) -> Result<(), StoreError> {
        let tx = self.conn.transaction().map_err(|e| StoreError { path: self.path.clone(), message: e.to_string() })?;
        {
            let mut stmt = tx
                .prepare("INSERT OR REPLACE INTO embeddings (model, hash, dim, vector) VALUES (?1, ?2, ?3, ?4)")
                .map_err(|e| StoreError { path: self.path.clone(), message: e.to_string() })?;
            for (hash, v) in items {
                let blob: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
                stmt.execute(params![model, hash, v.len() as i64, blob])
                    .map_err(|e| StoreError { path: self.path.clone(), message: e.to_string() })?;
            }
        }
        tx.commit().map_err(|e| StoreError { path: self.path.clone(), message: e.to_string() })
    }

    pub fn count_embeddings(&self, model: &str) -> Result<usize, StoreError> {
        self.conn
            .query_row("SELECT COUNT(*) FROM embeddings WHERE model = ?1", params![model], |r| r.get::<_, i64>(0))
            .map(|n| n as usize)
            .map_err(|e| self.err(e))
    }
}

/// Schema steps, applied in order from the file's `user_version`. Never edit a shipped step: add one.
pub const MIGRATIONS: &[&str] = &[
    // 1: the embedding cache (files from before versioning already have it).
    "CREATE TABLE IF NOT EXISTS embeddings (
         model TEXT NOT NULL,
         hash TEXT NOT NULL,
         dim INTEGER NOT NULL,
         vector BLOB NOT NULL,
         PRIMARY KEY (model, hash)
     );",
    // 2: history. One row per diagnosis or mock session, its scores per question and dimension.
    "CREATE TABLE sessions (
         id INTEGER PRIMARY KEY AUTOINCREMENT,
         kind TEXT NOT NULL,
         profile TEXT NOT NULL,
         created_at TEXT NOT NULL,
         source TEXT NOT NULL,
         digest TEXT NOT NULL,
         language TEXT NOT NULL,
         overall INTEGER NOT NULL,
         content_avg INTEGER NOT NULL,
         speech_avg INTEGER,
         questions INTEGER NOT NULL,
         report TEXT NOT NULL
     );
     CREATE INDEX sessions_by_profile ON sessions (profile, id);
     CREATE TABLE question_scores (
         session_id INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
         idx INTEGER NOT NULL,
         entry_id TEXT,
         kb_dimension TEXT,
         overall INTEGER NOT NULL,
         completeness INTEGER NOT NULL,
         depth INTEGER NOT NULL,
         accuracy INTEGER NOT NULL,
         practicality INTEGER NOT NULL,
         speech INTEGER,
         PRIMARY KEY (session_id, idx)
     );",
    // 3: mock interviews in progress (or finished), saved after every answer.
    "CREATE TABLE mock_sessions (
         id INTEGER PRIMARY KEY AUTOINCREMENT,
         profile TEXT NOT NULL,
         created_at TEXT NOT NULL,
         updated_at TEXT NOT NULL,
         finished INTEGER NOT NULL DEFAULT 0,
         state TEXT NOT NULL
     );
     CREATE INDEX mock_by_profile ON mock_sessions (profile, id);",
];

fn migrate(conn: &Connection) -> rusqlite::Result<()> {
    let version: usize = conn.query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0))? as usize;
    for (i, step) in MIGRATIONS.iter().enumerate().skip(version) {
        // Two processes may open a fresh file at once: the step and its version commit together,
        // and a step already applied by the other is seen under the write lock.
        conn.execute_batch("BEGIN IMMEDIATE")?;
        let now: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if now as usize > i {
            conn.execute_batch("COMMIT")?;
            continue;
        }
        let applied =
            conn.execute_batch(step).and_then(|_| conn.execute_batch(&format!("PRAGMA user_version = {}", i + 1)));
        match applied {
            Ok(()) => conn.execute_batch("COMMIT")?,
            Err(e) => {
                let _ = conn.execute_batch("ROLLBACK");
                return Err(e);
            }
        }
    }
    Ok(())
}

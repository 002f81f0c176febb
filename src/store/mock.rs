//! Mock interviews in progress: the whole session state as JSON, saved after every answer, so a
//! killed session loses nothing and `ivd mock --resume` continues it.

use rusqlite::{params, OptionalExtension};

use super::{Store, StoreError};

impl Store {
    /// Create a session row; its id.
    pub fn mock_create(&self, profile: &str, state: &str, now: &str) -> Result<i64, StoreError> {
        self.conn
            .execute(
                "INSERT INTO mock_sessions (profile, created_at, updated_at, state) VALUES (?1, ?2, ?2, ?3)",
                params![profile, now, state],
            )
            .map_err(|e| self.err(e))?;
        Ok(self.conn.last_insert_rowid())
    }

    pub fn mock_save(&self, id: i64, state: &str, finished: bool, now: &str) -> Result<(), StoreError> {
        self.conn
            .execute(
                "UPDATE mock_sessions SET state = ?2, finished = ?3, updated_at = ?4 WHERE id = ?1",
                params![id, state, finished as i64, now],
            )
            .map(|_| ())
            .map_err(|e| self.err(e))
    }

    /// One session: (profile, state, finished).
    pub fn mock_get(&self, id: i64) -> Result<Option<(String, String, bool)>, StoreError> {
        self.conn
            .query_row("SELECT profile, state, finished FROM mock_sessions WHERE id = ?1", params![id], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get::<_, i64>(2)? != 0))
            })
            .optional()
            .map_err(|e| self.err(e))
    }

    /// The profile's latest unfinished session: (id, state).
    pub fn mock_unfinished(&self, profile: &str) -> Result<Option<(i64, String)>, StoreError> {
        self.conn
            .query_row(
                "SELECT id, state FROM mock_sessions WHERE profile = ?1 AND finished = 0 ORDER BY id DESC LIMIT 1",
                params![profile],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(|e| self.err(e))
    }

    /// Knowledge-base entries the profile was asked in its last `sessions` sessions (diagnoses and
    /// mocks, finished or not): practice does not repeat them.
    pub fn recent_entries(&self, profile: &str, sessions: usize) -> Result<Vec<String>, StoreError> {
        let mut out: Vec<String> = Vec::new();
        let mut stmt = self
            .conn
            .prepare(
                "SELECT q.entry_id FROM question_scores q WHERE q.entry_id IS NOT NULL AND q.session_id IN
                   (SELECT id FROM sessions WHERE profile = ?1 ORDER BY id DESC LIMIT ?2)",
            )
            .map_err(|e| self.err(e))?;
        let rows =
            stmt.query_map(params![profile, sessions as i64], |r| r.get::<_, String>(0)).map_err(|e| self.err(e))?;
        for r in rows {
            out.push(r.map_err(|e| self.err(e))?);
        }
        // Sessions still in progress hold their questions in their state.
        let mut stmt = self
            .conn
            .prepare("SELECT state FROM mock_sessions WHERE profile = ?1 ORDER BY id DESC LIMIT ?2")
            .map_err(|e| self.err(e))?;
        let rows =
            stmt.query_map(params![profile, sessions as i64], |r| r.get::<_, String>(0)).map_err(|e| self.err(e))?;
        for r in rows {
            let state: serde_json::Value = serde_json::from_str(&r.map_err(|e| self.err(e))?).unwrap_or_default();
            for q in state["questions"].as_array().into_iter().flatten() {
                if let Some(id) = q["id"].as_str() {
                    out.push(id.to_string());
                }
            }
        }
        out.sort();
        out.dedup();
        Ok(out)
    }

    /// Mean overall per knowledge-base dimension over the profile's stored questions.
    pub fn dimension_means(&self, profile: &str) -> Result<Vec<(String, f64)>, StoreError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT q.kb_dimension, AVG(q.overall) FROM question_scores q JOIN sessions s ON s.id = q.session_id
                 WHERE s.profile = ?1 AND q.kb_dimension IS NOT NULL GROUP BY q.kb_dimension",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt.query_map(params![profile], |r| Ok((r.get(0)?, r.get(1)?))).map_err(|e| self.err(e))?;
        rows.collect::<rusqlite::Result<Vec<_>>>().map_err(|e| self.err(e))
    }
}

//! The history of diagnoses and mock sessions, per candidate profile: every report with its input
//! digest and its scores per question and dimension, for "compared to last time", trends, and (for
//! practice) which questions a profile has already seen.

use rusqlite::{params, OptionalExtension};
use serde::{Deserialize, Serialize};

use super::{Store, StoreError};

/// A finished session to store: its summary figures, its report as JSON (the store does not read
/// it), and the scores of each question.
#[derive(Debug, Clone, PartialEq)]
pub struct NewSession {
    /// "diagnosis" or "mock".
    pub kind: String,
    pub profile: String,
    pub created_at: String,
    pub source: String,
    pub digest: String,
    pub language: String,
    pub overall: u32,
    pub content_avg: u32,
    pub speech_avg: Option<u32>,
    pub report_json: String,
    pub questions: Vec<QuestionScores>,
}

/// One question's scores, as the trend aggregates them.
#[derive(Debug, Clone, PartialEq)]
pub struct QuestionScores {
    pub entry_id: Option<String>,
    pub dimension: Option<String>,
    pub overall: u32,
    pub completeness: u32,
    pub depth: u32,
    pub accuracy: u32,
    pub practicality: u32,
    pub speech: Option<i64>,
}

/// One session of a profile's history: the mean of each dimension over its questions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TrendPoint {
    pub id: i64,
    pub at: String,
    pub kind: String,
    pub overall: u32,
    pub completeness: Option<u32>,
    pub depth: Option<u32>,
    pub accuracy: Option<u32>,
    pub practicality: Option<u32>,
    pub speech: Option<u32>,
}

/// One stored session, without its report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SessionRow {
    pub id: i64,
    /// "diagnosis" or "mock".
    pub kind: String,
    pub profile: String,
    pub created_at: String,
    pub source: String,
    pub digest: String,
    pub language: String,
    pub overall: u32,
    pub content_avg: u32,
    pub speech_avg: Option<u32>,
    pub questions: u32,
}

const ROW: &str =
    "id, kind, profile, created_at, source, digest, language, overall, content_avg, speech_avg, questions";

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<SessionRow> {
    Ok(SessionRow {
        id: r.get(0)?,
        kind: r.get(1)?,
        profile: r.get(2)?,
        created_at: r.get(3)?,
        source: r.get(4)?,
        digest: r.get(5)?,
        language: r.get(6)?,
        overall: r.get(7)?,
        content_avg: r.get(8)?,
        speech_avg: r.get(9)?,
        questions: r.get(10)?,
    })
}

impl Store {
    /// Store a finished session and its per-question scores in one transaction; its id.
    pub fn record_session(&mut self, session: &NewSession) -> Result<i64, StoreError> {
        let path = self.path.clone();
        let err = move |e: rusqlite::Error| StoreError { path: path.clone(), message: e.to_string() };
        let tx = self.conn.transaction().map_err(&err)?;
        let n = &session;
        tx.execute(
            "INSERT INTO sessions (kind, profile, created_at, source, digest, language, overall, content_avg, speech_avg, questions, report)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            params![
                n.kind,
                n.profile,
                n.created_at,
                n.source,
                n.digest,
                n.language,
                n.overall,
                n.content_avg,
                n.speech_avg,
                n.questions.len() as u32,
                n.report_json
            ],
        )
        .map_err(&err)?;
        let id = tx.last_insert_rowid();
        for (i, q) in n.questions.iter().enumerate() {
            tx.execute(
                "INSERT INTO question_scores (session_id, idx, entry_id, kb_dimension, overall, completeness, depth, accuracy, practicality, speech)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    id,
                    i as i64 + 1,
                    q.entry_id,
                    q.dimension,
                    q.overall,
                    q.completeness,
                    q.depth,
                    q.accuracy,
                    q.practicality,
                    q.speech
                ],
            )
            .map_err(&err)?;
        }
        tx.commit().map_err(&err)?;
        Ok(id)
    }

    /// The profile's latest session of `kind`, with its report's JSON.
    pub fn last_session(&self, profile: &str, kind: &str) -> Result<Option<(SessionRow, String)>, StoreError> {
        let found = self
            .conn
            .query_row(
                &format!(
                    "SELECT {ROW}, report FROM sessions WHERE profile = ?1 AND kind = ?2 ORDER BY id DESC LIMIT 1"
                ),
                params![profile, kind],
                |r| Ok((row(r)?, r.get::<_, String>(11)?)),
            )
            .optional()
            .map_err(|e| self.err(e))?;
        Ok(found)
    }

    /// Sessions, newest first; of one profile, or all.
    pub fn sessions(&self, profile: Option<&str>) -> Result<Vec<SessionRow>, StoreError> {
        let mut stmt = self
            .conn
            .prepare(&format!("SELECT {ROW} FROM sessions WHERE ?1 IS NULL OR profile = ?1 ORDER BY id DESC"))
            .map_err(|e| self.err(e))?;
        let rows = stmt.query_map(params![profile], row).map_err(|e| self.err(e))?;
        rows.collect::<rusqlite::Result<Vec<_>>>().map_err(|e| self.err(e))
    }

    /// Each dimension's mean per session of the profile, oldest first.
    pub fn trend(&self, profile: &str) -> Result<Vec<TrendPoint>, StoreError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT s.id, s.created_at, s.kind, s.overall,
                        CAST(ROUND(AVG(q.completeness)) AS INTEGER), CAST(ROUND(AVG(q.depth)) AS INTEGER),
                        CAST(ROUND(AVG(q.accuracy)) AS INTEGER), CAST(ROUND(AVG(q.practicality)) AS INTEGER),
                        s.speech_avg
                 FROM sessions s LEFT JOIN question_scores q ON q.session_id = s.id
                 WHERE s.profile = ?1 GROUP BY s.id ORDER BY s.id",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map(params![profile], |r| {
                Ok(TrendPoint {
                    id: r.get(0)?,
                    at: r.get(1)?,
                    kind: r.get(2)?,
                    overall: r.get(3)?,
                    completeness: r.get(4)?,
                    depth: r.get(5)?,
                    accuracy: r.get(6)?,
                    practicality: r.get(7)?,
                    speech: r.get(8)?,
                })
            })
            .map_err(|e| self.err(e))?;
        rows.collect::<rusqlite::Result<Vec<_>>>().map_err(|e| self.err(e))
    }

    /// One session's report as it was stored (JSON), if the session exists.
    pub fn session_report(&self, id: i64) -> Result<Option<String>, StoreError> {
        self.conn
            .query_row("SELECT report FROM sessions WHERE id = ?1", params![id], |r| r.get(0))
            .optional()
            .map_err(|e| self.err(e))
    }

    /// Delete one session (its scores go with it); whether it existed.
    pub fn delete_session(&mut self, id: i64) -> Result<bool, StoreError> {
        self.conn.execute("DELETE FROM sessions WHERE id = ?1", params![id]).map(|n| n > 0).map_err(|e| self.err(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_versioned_and_idempotent() {
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(dir.path()).unwrap();
        assert_eq!(s.schema_version().unwrap() as usize, super::super::MIGRATIONS.len());
        drop(s);
        let s = Store::open(dir.path()).unwrap();
        assert_eq!(s.schema_version().unwrap() as usize, super::super::MIGRATIONS.len());
        assert_eq!(s.integrity_check().unwrap(), "ok");
        assert!(s.sessions(None).unwrap().is_empty());
    }
}

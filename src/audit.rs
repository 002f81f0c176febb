//! The audit trail: one JSON line per tool or skill call, under `$IVD_HOME/audit.jsonl`.
//! It records what ran and how it ended, never the arguments themselves (only their digest).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use serde::Serialize;
use sha2::{Digest, Sha256};

#[derive(Debug)]
pub struct AuditLog {
    path: PathBuf,
    // Serialises appends from concurrent tool calls so lines never interleave.
    lock: Mutex<()>,
}

#[derive(Debug, Serialize)]
pub struct AuditRecord<'a> {
    pub time: String,
    pub session: &'a str,
    /// "tool" or "skill".
    pub kind: &'a str,
    pub name: &'a str,
    /// "ok" or the error code.
    pub status: &'a str,
    pub latency_ms: u64,
    /// sha256 of the canonical JSON arguments.
    pub args_sha256: String,
}

impl AuditLog {
    pub fn new(home: &Path) -> AuditLog {
        AuditLog { path: home.join("audit.jsonl"), lock: Mutex::new(()) }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Append one record. Failing to audit must not fail the call, so errors are only logged.
    pub fn append(&self, rec: &AuditRecord<'_>) {
        let Ok(mut line) = serde_json::to_vec(rec) else { return };
        line.push(b'\n');
        let _guard = self.lock.lock();
        let result = (|| -> std::io::Result<()> {
            if let Some(dir) = self.path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            let mut f = std::fs::OpenOptions::new().create(true).append(true).open(&self.path)?;
            f.write_all(&line)
        })();
        if let Err(e) = result {
            tracing::warn!("could not write the audit log {}: {e}", self.path.display());
        }
    }
}

pub fn now_rfc3339() -> String {
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}

pub fn digest(bytes: &[u8]) -> String {
    let d = Sha256::digest(bytes);
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// A session id unique enough for one machine: start time and process id.
pub fn new_session_id() -> String {
    let nanos = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    format!("{:x}-{:x}", nanos, std::process::id())
}

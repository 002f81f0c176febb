//! `ivd kb import`: a question bank file into a knowledge-base folder, checked by the same
//! validation every base gets before anything is written.

use std::collections::HashMap;
use std::path::Path;

use super::derive::{self, WriteError, Written};
use super::import::{self, ImportError, RowProblem};
use super::KnowledgeBase;

/// What an import did.
#[derive(Debug, serde::Serialize)]
pub struct Imported {
    pub file: String,
    pub rows: usize,
    pub entries: usize,
    /// Entries whose key points were derived from the reference answer.
    pub derived_key_points: usize,
    /// The rows left out, with their line numbers.
    pub problems: Vec<RowProblem>,
    #[serde(flatten)]
    pub written: Written,
}

#[derive(Debug, thiserror::Error)]
pub enum BankError {
    #[error("cannot read {path}: {source}")]
    Read { path: String, source: std::io::Error },
    #[error(transparent)]
    Import(#[from] ImportError),
    #[error(transparent)]
    Write(#[from] WriteError),
    #[error("{file}: {} bad row(s), nothing imported (--strict):\n{}", .problems.len(), lines(.problems))]
    Strict { file: String, problems: Vec<RowProblem> },
    #[error("{file}: no row could be imported:\n{}", lines(.problems))]
    NoRows { file: String, problems: Vec<RowProblem> },
    #[error("the imported folder does not validate: {0}")]
    Invalid(String),
}

fn lines(problems: &[RowProblem]) -> String {
    problems.iter().map(|p| format!("  line {}: {}", p.line, p.message)).collect::<Vec<_>>().join("\n")
}

/// Reads `file`, derives what its rows leave out and writes the entries under `out`. Rows without
/// a dimension go to `dimension` (by default the file's name).
pub fn import(file: &Path, out: &Path, dimension: Option<&str>, strict: bool) -> Result<Imported, BankError> {
    let name = file.file_name().map_or_else(|| file.display().to_string(), |n| n.to_string_lossy().into_owned());
    let format = import::Format::of(&name)?;
    let bytes = std::fs::read(file).map_err(|source| BankError::Read { path: file.display().to_string(), source })?;
    let (text, mut problems) = import::decode(&bytes);
    let (rows, parse_problems) = import::parse(format, &text)?;
    problems.extend(parse_problems);
    let stem = file.file_stem().map_or_else(|| "imported".to_string(), |s| s.to_string_lossy().into_owned());
    let default_dim = dimension.unwrap_or(&stem);
    let built = derive::entries(&rows, &name, default_dim);
    problems.extend(built.problems);
    problems.sort_by_key(|p| p.line);
    if strict && !problems.is_empty() {
        return Err(BankError::Strict { file: name, problems });
    }
    if built.entries.is_empty() {
        return Err(BankError::NoRows { file: name, problems });
    }
    // Display names of the dimensions, as the bank spelled them.
    let mut names: HashMap<String, String> = HashMap::new();
    for r in &rows {
        let given = r.dimension.as_deref().unwrap_or(default_dim);
        names.entry(derive::slug(given)).or_insert_with(|| given.trim().to_string());
    }
    let written = derive::write(out, &built.entries, &names)?;
    let v = KnowledgeBase::validate(Some(out)).map_err(|e| BankError::Invalid(e.to_string()))?;
    if !v.problems.is_empty() {
        let text = v.problems.iter().map(|p| format!("\n  {p}")).collect::<String>();
        return Err(BankError::Invalid(text));
    }
    Ok(Imported {
        file: name,
        rows: rows.len(),
        entries: built.entries.len(),
        derived_key_points: built.entries.iter().filter(|e| e.derived.iter().any(|d| d == "key_points")).count(),
        problems,
        written,
    })
}

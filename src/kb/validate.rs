//! Validation of knowledge-base files: every problem with its file and field, not just the first.

use std::collections::{HashMap, HashSet};
use std::fmt;

use super::entry::{Entry, Manifest};
use super::Files;

/// One problem in one file.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Problem {
    pub file: String,
    pub field: Option<String>,
    pub message: String,
}

impl Problem {
    pub fn new(file: impl Into<String>, field: Option<&str>, message: impl Into<String>) -> Problem {
        Problem { file: file.into(), field: field.map(str::to_string), message: message.into() }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Some(field) => write!(f, "{}: {}: {}", self.file, field, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// Parse and check all files. Returns the manifest, the valid entries (sorted by id) and every
/// problem found.
pub(crate) fn check(files: &Files) -> (Option<Manifest>, Vec<Entry>, Vec<Problem>) {
    let mut problems = Vec::new();
    let manifest = match files.iter().find(|(p, _)| p == "manifest.toml") {
        None => {
            problems.push(Problem::new(
                "manifest.toml",
                None,
                "missing: the knowledge base needs a manifest listing its dimensions",
            ));
            None
        }
        Some((p, text)) => match toml::from_str::<Manifest>(text) {
            Ok(m) => {
                if m.dimensions.is_empty() {
                    problems.push(Problem::new(p.as_str(), Some("dimensions"), "lists no dimension"));
                }
                Some(m)
            }
            Err(e) => {
                problems.push(toml_problem(p, &e));
                None
            }
        },
    };
    let dims: HashSet<&str> = manifest.iter().flat_map(|m| m.dimensions.iter().map(|d| d.id.as_str())).collect();
    let mut entries = Vec::new();
    let mut seen: HashMap<String, String> = HashMap::new();
    for (path, text) in files.iter().filter(|(p, _)| p.contains('/') && p.ends_with(".toml")) {
        let entry: Entry = match toml::from_str(text) {
            Ok(e) => e,
            Err(e) => {
                problems.push(toml_problem(path, &e));
                continue;
            }
        };
        let before = problems.len();
        check_entry(path, &entry, &dims, &mut problems);
        if let Some(first) = seen.insert(entry.id.clone(), path.clone()) {
            problems.push(Problem::new(
                path.as_str(),
                Some("id"),
                format!("duplicate id {:?}: also used by {first}", entry.id),
            ));
        }
        if problems.len() == before {
            entries.push(entry);
        }
    }
    if entries.is_empty() && problems.is_empty() {
        problems.push(Problem::new(".", None, "no entries: add <dimension>/<id>.toml files"));
    }
    entries.sort_by(|a, b| a.id.cmp(&b.id));
    (manifest, entries, problems)
}

fn toml_problem(path: &str, e: &toml::de::Error) -> Problem {
    let msg = e.message().to_string();
    // serde's messages name the field in backticks: "missing field `expert_answer`".
    let field = msg.split('`').nth(1).map(str::to_string);
    let at = e.span().map(|s| format!(" (at byte {})", s.start)).unwrap_or_default();
    Problem { file: path.to_string(), field, message: format!("{msg}{at}") }
}

fn check_entry(path: &str, e: &Entry, dims: &HashSet<&str>, out: &mut Vec<Problem>) {
    let mut bad = |field: &str, msg: String| out.push(Problem::new(path, Some(field), msg));
    if e.id.is_empty() || !e.id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-') {
        bad("id", format!("{:?} must be lowercase letters, digits and '-'", e.id));
    }
    let stem = path.rsplit('/').next().unwrap_or(path).trim_end_matches(".toml");
    if stem != e.id {
        bad("id", format!("{:?} does not match the file name {stem:?}", e.id));
    }
    if !dims.is_empty() && !dims.contains(e.dimension.as_str()) {
        bad("dimension", format!("{:?} is not listed in manifest.toml", e.dimension));
    }
    let folder = path.split('/').next().unwrap_or("");
    if folder != e.dimension {
        bad("dimension", format!("{:?} does not match the folder {folder:?}", e.dimension));
    }
    // An imported entry needs only its question and reference answer (`ivd kb import`).
    for (field, value) in [
        ("question", &e.question),
        ("question_en", &e.question_en),
        ("novice_answer", &e.novice_answer),
        ("expert_answer", &e.expert_answer),
        ("gap_analysis", &e.gap_analysis),
    ] {
        let optional = e.is_imported() && matches!(field, "question_en" | "novice_answer" | "gap_analysis");
        if value.trim().is_empty() && !optional {
            bad(field, "is empty".into());
        }
    }
    if e.key_points.is_empty() {
        bad("key_points", "needs at least one key point: they are the rubric".into());
    }
    for (i, kp) in e.key_points.iter().enumerate() {
        if kp.point.trim().is_empty() {
            bad("key_points", format!("key point {} has an empty point", i + 1));
        }
        if kp.keywords.iter().all(|k| k.trim().is_empty()) {
            bad("key_points", format!("key point {} ({}) has no keywords", i + 1, kp.point));
        }
    }
    for (i, m) in e.common_mistakes.iter().enumerate() {
        if m.signals.iter().all(|s| s.trim().is_empty()) {
            bad("common_mistakes", format!("mistake {} ({}) has no signals", i + 1, m.mistake));
        }
        let expert = e.expert_answer.to_lowercase();
        for s in &m.signals {
            if !s.trim().is_empty() && expert.contains(&s.to_lowercase()) {
                bad(
                    "common_mistakes",
                    format!("signal {s:?} occurs in the expert answer, which would flag the expert as wrong"),
                );
            }
        }
    }
    if e.paraphrases.is_empty() && !e.is_imported() {
        bad("paraphrases", "needs at least one paraphrase (English) so English questions find this entry".into());
    }
    check_english(e, &mut bad);
}

/// An entry with any English field must have them all (the shipped base is bilingual); one with
/// none is a single-language (Chinese) entry, which a user's base may be.
fn check_english(e: &Entry, bad: &mut impl FnMut(&str, String)) {
    let kp_en = e.key_points.iter().any(|k| !k.point_en.is_empty() || !k.keywords_en.is_empty());
    let m_en = e.common_mistakes.iter().any(|m| !m.mistake_en.is_empty() || !m.signals_en.is_empty());
    if !e.has_english() && e.gap_analysis_en.is_empty() && e.novice_answer_en.is_empty() && !kp_en && !m_en {
        return;
    }
    if e.is_imported() {
        // A bilingual bank gives the question and reference in both languages; the rest is optional.
        if e.question_en.trim().is_empty() {
            bad("question_en", "is missing: an entry with an English reference needs the English question".into());
        }
        return;
    }
    for (field, value) in [
        ("expert_answer_en", &e.expert_answer_en),
        ("novice_answer_en", &e.novice_answer_en),
        ("gap_analysis_en", &e.gap_analysis_en),
    ] {
        if value.trim().is_empty() {
            bad(field, "is missing: an entry with an English side needs every English field".into());
        }
    }
    if e.follow_ups_en.len() != e.follow_ups.len() {
        bad("follow_ups_en", format!("has {} items for {} follow_ups", e.follow_ups_en.len(), e.follow_ups.len()));
    }
    for (i, kp) in e.key_points.iter().enumerate() {
        if kp.point_en.trim().is_empty() || kp.keywords_en.iter().all(|k| k.trim().is_empty()) {
            bad("key_points", format!("key point {} ({}) lacks point_en or keywords_en", i + 1, kp.point));
        }
    }
    let expert = e.expert_answer_en.to_lowercase();
    for (i, m) in e.common_mistakes.iter().enumerate() {
        if m.mistake_en.trim().is_empty() || m.signals_en.is_empty() || m.correction_en.trim().is_empty() {
            bad("common_mistakes", format!("mistake {} lacks mistake_en, signals_en or correction_en", i + 1));
        }
        for s in &m.signals_en {
            if !s.trim().is_empty() && expert.contains(&s.to_lowercase()) {
                bad("common_mistakes", format!("signal {s:?} occurs in expert_answer_en"));
            }
        }
    }
}

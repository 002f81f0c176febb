//! From a user's bank rows to knowledge-base entries: what a row leaves out is derived from its
//! reference answer and marked as derived (`Entry::derived`), and the folder is written so that
//! re-importing the same file changes nothing and a changed row changes only its entry.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use sha2::{Digest, Sha256};

use super::entry::{Difficulty, Dimension, Entry, KeyPoint, Manifest};
use super::import::{Row, RowProblem};
use super::terms::{surface_terms, term_set};
use crate::lang::{self, Lang};

/// A claim shorter than this many terms joins its neighbour: "It is fast." is not a point alone.
const MIN_CLAIM_TERMS: usize = 4;
/// At most this many derived key points: longer answers have their shortest claims merged.
const MAX_CLAIMS: usize = 8;
/// Keywords kept per derived key point (two of them show the point was made).
const KEYWORDS: usize = 3;

/// Entries built from rows, and the rows that could not become one.
pub struct Built {
    pub entries: Vec<Entry>,
    pub problems: Vec<RowProblem>,
}

/// Entries of the good rows; a row with no question, no answer or a duplicate id is a problem.
pub fn entries(rows: &[Row], file: &str, default_dimension: &str) -> Built {
    let idf = Idf::of(rows);
    let mut seen: HashMap<String, usize> = HashMap::new();
    let (mut entries, mut problems) = (Vec::new(), Vec::new());
    for row in rows {
        let bad = |message: String| RowProblem { line: row.line, message };
        if row.question.trim().is_empty() {
            problems.push(bad("no question".into()));
            continue;
        }
        if row.answer.trim().is_empty() {
            problems.push(bad("no reference answer".into()));
            continue;
        }
        let dimension = slug(row.dimension.as_deref().unwrap_or(default_dimension));
        let dimension = if dimension.is_empty() { "imported".to_string() } else { dimension };
        let id = match &row.id {
            Some(id) if !slug(id).is_empty() => slug(id),
            _ => format!("{dimension}-{}", short_hash(&row.question)),
        };
        if let Some(first) = seen.insert(id.clone(), row.line) {
            problems.push(bad(format!("duplicate id {id:?}: also used by the row on line {first}")));
            continue;
        }
        entries.push(entry(row, id, dimension, file, &idf));
    }
    Built { entries, problems }
}

/// Lowercase letters, digits and single dashes.
pub fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.trim().to_lowercase().chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

fn short_hash(s: &str) -> String {
    Sha256::digest(s.trim().as_bytes()).iter().take(4).map(|b| format!("{b:02x}")).collect()
}

/// One language's side of a row.
struct Side<'a> {
    question: &'a str,
    answer: &'a str,
}

fn entry(row: &Row, id: String, dimension: String, file: &str, idf: &Idf) -> Entry {
    let main = Side { question: &row.question, answer: &row.answer };
    let other = (!row.answer_other.trim().is_empty()).then_some(Side {
        question: if row.question_other.trim().is_empty() { &row.question } else { &row.question_other },
        answer: &row.answer_other,
    });
    let main_lang = lang::majority(&format!("{}\n{}", row.question, row.answer)).unwrap_or(Lang::En);
    // The entry's first side is Chinese and its `_en` side English (knowledge_base/README.md); a
    // single-language bank fills the first side only, whatever its language.
    let (first, english) = match other {
        Some(o) if main_lang == Lang::En => (o, Some(main)),
        Some(o) => (main, Some(o)),
        None => (main, None),
    };
    let mut derived = Vec::new();
    if row.id.is_none() {
        derived.push("id".to_string());
    }
    let difficulty = match row.difficulty.as_deref() {
        Some("easy" | "简单" | "1") => Difficulty::Easy,
        Some("hard" | "困难" | "3") => Difficulty::Hard,
        Some("medium" | "中等" | "2") => Difficulty::Medium,
        _ => {
            derived.push("difficulty".to_string());
            Difficulty::Medium
        }
    };
    let key_points = if row.key_points.is_empty() {
        derived.push("key_points".to_string());
        derive_key_points(&first, english.as_ref(), idf)
    } else {
        given_key_points(&row.key_points, first.question, idf)
    };
    let (question_en, expert_en) = english
        .as_ref()
        .map_or((String::new(), String::new()), |e| (e.question.trim().to_string(), e.answer.trim().to_string()));
    Entry {
        id,
        dimension,
        difficulty,
        tags: row.tags.clone(),
        question: first.question.trim().to_string(),
        question_en,
        paraphrases: Vec::new(),
        eval_paraphrases: Vec::new(),
        novice_answer: row.novice_answer.trim().to_string(),
        expert_answer: first.answer.trim().to_string(),
        gap_analysis: String::new(),
        follow_ups: row.follow_ups.clone(),
        key_points,
        common_mistakes: Vec::new(),
        expert_answer_en: expert_en,
        novice_answer_en: String::new(),
        gap_analysis_en: String::new(),
        follow_ups_en: Vec::new(),
        source: format!("{file}:{}", row.line),
        derived,
    }
}

/// Inverse document frequency of terms over the bank's reference answers (the terms that carry a
/// claim are the ones few other answers use), times their rarity in the shipped base's answers: a
/// small bank alone cannot tell "because" or "以及" from "B+ tree", 352 answers of prose can.
struct Idf {
    n: f64,
    df: HashMap<String, usize>,
    background: HashMap<String, usize>,
    background_n: f64,
}

impl Idf {
    fn of(rows: &[Row]) -> Idf {
        let mut df: HashMap<String, usize> = HashMap::new();
        for r in rows {
            for t in term_set(&format!("{}\n{}", r.answer, r.answer_other)) {
                *df.entry(t).or_insert(0) += 1;
            }
        }
        let mut background: HashMap<String, usize> = HashMap::new();
        let shipped = super::KnowledgeBase::shipped().map(|kb| kb.entries).unwrap_or_default();
        for e in &shipped {
            for text in [&e.expert_answer, &e.expert_answer_en, &e.novice_answer, &e.novice_answer_en] {
                for t in term_set(text) {
                    *background.entry(t).or_insert(0) += 1;
                }
            }
        }
        let background_n = (shipped.len() * 4) as f64;
        Idf { n: rows.len() as f64, df, background, background_n }
    }

    fn weight(&self, term: &str) -> f64 {
        let d = self.df.get(term).copied().unwrap_or(0) as f64;
        let bank = ((self.n + 1.0) / (d + 0.5)).ln().max(0.05);
        let b = self.background.get(term).copied().unwrap_or(0) as f64;
        let general = ((self.background_n + 1.0) / (b + 1.0)).ln().max(0.05);
        bank * general
    }
}

/// The reference answer's distinct claims (its sentences, short ones merged), each with the terms
/// that carry it; where the other language's answer has as many claims, they are paired.
fn derive_key_points(first: &Side<'_>, english: Option<&Side<'_>>, idf: &Idf) -> Vec<KeyPoint> {
    let claims = claims(first.answer);
    let en_claims = english.map(|e| claims_of(e, idf)).filter(|c| c.len() == claims.len());
    claims
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let (point_en, keywords_en) = en_claims.as_ref().and_then(|e| e.get(i).cloned()).unwrap_or_default();
            KeyPoint { point: c.clone(), keywords: keywords(c, first.question, idf), point_en, keywords_en }
        })
        .collect()
}

fn claims_of(side: &Side<'_>, idf: &Idf) -> Vec<(String, Vec<String>)> {
    claims(side.answer).into_iter().map(|c| (c.clone(), keywords(&c, side.question, idf))).collect()
}

fn given_key_points(points: &[String], question: &str, idf: &Idf) -> Vec<KeyPoint> {
    points
        .iter()
        .map(|p| KeyPoint {
            point: p.clone(),
            keywords: keywords(p, question, idf),
            point_en: String::new(),
            keywords_en: Vec::new(),
        })
        .collect()
}

/// Sentences of a reference answer, list markers dropped, short ones merged into a neighbour.
pub fn claims(answer: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in lang::sentences(answer) {
        let s = s.trim_start_matches(|c: char| c.is_ascii_digit() || matches!(c, '.' | ')' | '-' | '*' | '•' | ' '));
        let s = s.trim();
        if s.is_empty() {
            continue;
        }
        match out.last_mut() {
            Some(prev) if term_count(prev) < MIN_CLAIM_TERMS || term_count(s) < MIN_CLAIM_TERMS => {
                prev.push(' ');
                prev.push_str(s);
            }
            _ => out.push(s.to_string()),
        }
    }
    while out.len() > MAX_CLAIMS {
        // Merge the shortest adjacent pair.
        let i = (0..out.len() - 1).min_by_key(|&i| term_count(&out[i]) + term_count(&out[i + 1])).unwrap_or(0);
        let next = out.remove(i + 1);
        out[i].push(' ');
        out[i].push_str(&next);
    }
    out
}

fn term_count(s: &str) -> usize {
    surface_terms(s).len()
}

/// The claim's most distinctive words: rare across the bank, not words of the question (repeating
/// the question does not make a point), longest first among equals.
fn keywords(claim: &str, question: &str, idf: &Idf) -> Vec<String> {
    let asked = term_set(question);
    let pick = |skip_asked: bool| {
        let mut seen = HashSet::new();
        let mut scored: Vec<(f64, String)> = surface_terms(claim)
            .into_iter()
            .filter(|(w, t)| w.chars().count() >= 2 && !(skip_asked && asked.contains(t)) && seen.insert(t.clone()))
            .map(|(w, t)| (idf.weight(&t) + 0.01 * w.chars().count() as f64, w))
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        scored.into_iter().take(KEYWORDS).map(|(_, w)| w).collect::<Vec<_>>()
    };
    let k = pick(true);
    if k.is_empty() {
        pick(false)
    } else {
        k
    }
}

/// What writing the folder did.
#[derive(Debug, Default, serde::Serialize)]
pub struct Written {
    pub written: Vec<String>,
    pub unchanged: usize,
    pub manifest_changed: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("cannot write {path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{0}/manifest.toml is not a knowledge-base manifest ({1}); import into an empty folder or a base")]
    Manifest(String, String),
}

/// Writes the entries as `<dimension>/<id>.toml` under `dir` and adds their dimensions to its
/// manifest. A file whose content would not change is not rewritten; other files are left alone.
pub fn write(dir: &Path, entries: &[Entry], names: &HashMap<String, String>) -> Result<Written, WriteError> {
    let io = |p: &Path| {
        let path = p.display().to_string();
        move |source| WriteError::Io { path: path.clone(), source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let mut out = Written::default();
    let manifest_path = dir.join("manifest.toml");
    let mut manifest = match std::fs::read_to_string(&manifest_path) {
        Ok(text) => toml::from_str::<Manifest>(&text)
            .map_err(|e| WriteError::Manifest(dir.display().to_string(), e.message().to_string()))?,
        Err(_) => Manifest { version: 1, dimensions: Vec::new() },
    };
    for e in entries {
        if !manifest.dimensions.iter().any(|d| d.id == e.dimension) {
            let name = names.get(&e.dimension).cloned().unwrap_or_else(|| e.dimension.clone());
            manifest.dimensions.push(Dimension { id: e.dimension.clone(), name_zh: name.clone(), name_en: name });
        }
    }
    let text = format!(
        "# Dimensions of this knowledge base (written by `ivd kb import`; edit freely).\n{}",
        toml::to_string_pretty(&manifest).unwrap_or_default()
    );
    out.manifest_changed = write_if_changed(&manifest_path, &text).map_err(io(&manifest_path))?;
    for e in entries {
        let folder = dir.join(&e.dimension);
        std::fs::create_dir_all(&folder).map_err(io(&folder))?;
        let path = folder.join(format!("{}.toml", e.id));
        let body = format!(
            "# Imported from {} by `ivd kb import`. Fields listed in `derived` were derived from the\n# reference answer; edit them, and re-importing a changed row replaces this file.\n{}",
            e.source,
            toml::to_string_pretty(e).unwrap_or_default()
        );
        if write_if_changed(&path, &body).map_err(io(&path))? {
            out.written.push(format!("{}/{}.toml", e.dimension, e.id));
        } else {
            out.unchanged += 1;
        }
    }
    Ok(out)
}

/// Writes through a temporary file and a rename, only when the content differs.
fn write_if_changed(path: &Path, text: &str) -> std::io::Result<bool> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(false);
    }
    let tmp = path.with_extension("toml.tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_merge_short_sentences_and_keywords_skip_the_question() {
        let c = claims("1. An index is a sorted B+ tree of keys. Fast. It avoids a full table scan of every row.");
        assert_eq!(c.len(), 2, "{c:?}");
        let rows = vec![Row {
            line: 1,
            question: "What is a database index?".into(),
            answer: "An index is a sorted B+ tree of keys.".into(),
            ..Row::default()
        }];
        let idf = Idf::of(&rows);
        let k = keywords(&c[0], "What is a database index?", &idf);
        assert!(!k.iter().any(|w| w == "index"), "{k:?}");
        assert!(k.iter().any(|w| w == "sorted" || w == "tree" || w == "keys"), "{k:?}");
    }

    #[test]
    fn a_minimal_row_becomes_an_entry_marked_derived() {
        let rows = vec![
            Row {
                line: 2,
                question: "什么是死锁？".into(),
                answer: "两个事务互相等待对方持有的锁，谁都无法继续。数据库会检测环路并回滚其中一个事务。".into(),
                ..Row::default()
            },
            Row { line: 3, question: "".into(), answer: "x".into(), ..Row::default() },
        ];
        let b = entries(&rows, "bank.csv", "Databases");
        assert_eq!(b.problems.len(), 1);
        assert_eq!(b.problems[0].line, 3);
        let e = &b.entries[0];
        assert_eq!(e.dimension, "databases");
        assert!(e.derived.contains(&"key_points".to_string()));
        assert_eq!(e.key_points.len(), 2);
        assert!(e.key_points.iter().all(|k| !k.keywords.is_empty()));
        assert_eq!(e.source, "bank.csv:2");
    }
}

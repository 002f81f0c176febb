//! Completeness: which key points of the reference the answer makes, by its words (keywords of
//! either language, inflections, numbers however written) or by the meaning of one of its
//! sentences (a per-key-point band from `kb::evidence`).

use std::collections::HashSet;

use crate::kb::terms::term_set;
use crate::kb::KeyPoint;

/// Semantic level (0..1 within the key point's band) at which a point counts as fully made. The
/// band runs from what unrelated sentences reach (95th percentile) to what the expert answer's own
/// best sentence reaches; a paraphrase lands partway.
pub const SEMANTIC_FULL: f64 = 0.7;

/// Level of a key point of which one distinctive keyword (of two needed) occurs.
const SINGLE_KEYWORD: f64 = 0.6;

/// How far one key point is made: 0, partly, or 1.
pub fn key_point_level(kp: &KeyPoint, normalized: &str, stems: &HashSet<String>, semantic: Option<f64>) -> f64 {
    let keywords: Vec<&String> = kp.all_keywords().filter(|k| !k.trim().is_empty()).collect();
    let hits = keywords.iter().filter(|k| keyword_hit(k, normalized, stems)).count();
    let need = keywords.len().clamp(1, 2);
    let lexical = if hits >= need {
        1.0
    } else if hits > 0 {
        SINGLE_KEYWORD
    } else {
        0.0
    };
    let meaning = semantic.map_or(0.0, |s| (s / SEMANTIC_FULL).min(1.0));
    f64::max(lexical, meaning)
}

/// A keyword occurs as written (after numbers are normalised), or, for English words, with the same
/// stems ("retries" for "retry", "chunked" for "chunking").
fn keyword_hit(keyword: &str, normalized: &str, stems: &HashSet<String>) -> bool {
    let k = keyword.to_lowercase();
    if normalized.contains(&k) {
        return true;
    }
    // "json schema" / "jsonschema" / "json-schema", "tool_choice" / "tool choice".
    let squeeze = |t: &str| t.chars().filter(|c| !matches!(c, ' ' | '-' | '_')).collect::<String>();
    let sk = squeeze(&k);
    if sk.chars().count() >= 4 && squeeze(normalized).contains(&sk) {
        return true;
    }
    if !k.is_ascii() {
        return false;
    }
    let ks = term_set(&k);
    !ks.is_empty() && ks.iter().all(|t| stems.contains(t))
}

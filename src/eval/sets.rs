//! Answers built from the base for the non-circular checks: never an entry's own expert answer
//! scored against its own question in its own language.
//!
//! - wrong question: entry B's expert answer given to entry A's question (B from another dimension,
//!   and B from the same dimension);
//! - other language: the English expert answer against the Chinese question, and the reverse;
//! - partial: the expert answer cut to the sentences that make its first k key points, k = 0..n;
//! - gaming: a bare list of the key points' keywords; the keywords around the entry's own
//!   misconceptions;
//! - the novice answer, and "I don't know".

use crate::kb::vectors::analysis_sentences;
use crate::kb::{Entry, KnowledgeBase};
use crate::lang::Lang;

/// One built answer to score.
#[derive(Debug, Clone)]
pub struct Case {
    pub set: &'static str,
    /// The entry whose question is asked (index into the base).
    pub entry: usize,
    pub lang: Lang,
    pub question: String,
    pub answer: String,
    /// For partial answers: k.
    pub k: usize,
}

/// Another entry for `i`: from another dimension (half the base away) or the same one (the next).
fn partner(kb: &KnowledgeBase, i: usize, same_dimension: bool) -> Option<usize> {
    let n = kb.entries.len();
    let dim = &kb.entries[i].dimension;
    (1..n).map(|step| if same_dimension { (i + step) % n } else { (i + n / 2 + step - 1) % n }).find(|&j| {
        j != i && (kb.entries[j].dimension == *dim) == same_dimension && !kb.entries[j].expert_answer_en.is_empty()
    })
}

pub fn build(kb: &KnowledgeBase, entries: &[usize]) -> Vec<Case> {
    let mut cases = Vec::new();
    for &i in entries {
        let e = &kb.entries[i];
        if !e.has_english() {
            continue;
        }
        for lang in [Lang::Zh, Lang::En] {
            let q = e.question_in(lang).to_string();
            let case = |set, answer: String, k| Case { set, entry: i, lang, question: q.clone(), answer, k };
            for (set, same) in [("wrong-question-other-dimension", false), ("wrong-question-same-dimension", true)] {
                if let Some(j) = partner(kb, i, same) {
                    cases.push(case(set, kb.entries[j].expert_in(lang).to_string(), 0));
                }
            }
            let other = lang.other();
            cases.push(case("other-language", e.expert_in(other).to_string(), 0));
            cases.push(case("novice", e.novice_in(lang).to_string(), 0));
            cases.push(case("keyword-list", keyword_list(e, lang), 0));
            cases.push(case("keywords-around-misconceptions", keywords_around_mistakes(e, lang), 0));
            cases.push(case("dont-know", dont_know(lang).to_string(), 0));
        }
        // Partial answers in the question's own language would be the base's own sentences; in the
        // other language they are at least not scored against their own wording.
        for (k, answer) in partials(e, Lang::En).into_iter().enumerate() {
            cases.push(Case { set: "partial", entry: i, lang: Lang::Zh, question: e.question.clone(), answer, k });
        }
    }
    cases
}

fn keyword_list(e: &Entry, lang: Lang) -> String {
    let words: Vec<&str> = e
        .key_points
        .iter()
        .flat_map(|kp| if lang == Lang::Zh { &kp.keywords } else { &kp.keywords_en })
        .map(String::as_str)
        .collect();
    words.join(if lang == Lang::Zh { "、" } else { ", " })
}

/// The key points' keywords, each misconception stated as fact between them.
fn keywords_around_mistakes(e: &Entry, lang: Lang) -> String {
    let list = keyword_list(e, lang);
    let mistakes: Vec<String> = e
        .common_mistakes
        .iter()
        .filter_map(|m| if lang == Lang::Zh { m.signals.first() } else { m.signals_en.first() })
        .map(|s| s.to_string())
        .collect();
    if lang == Lang::Zh {
        format!("{list}。{}。{list}", mistakes.join("。"))
    } else {
        format!("{list}. {}. {list}", mistakes.join(". "))
    }
}

fn dont_know(lang: Lang) -> &'static str {
    match lang {
        Lang::Zh => "这个我不太清楚，之前没接触过。",
        Lang::En => "Sorry, I don't know. I haven't worked with that.",
    }
}

/// The expert answer (in `lang`) cut to the sentences that make its first k key points (by their
/// keywords), k = 0..=n, in the answer's order. k = 0 keeps none of them: an empty answer.
pub fn partials(e: &Entry, lang: Lang) -> Vec<String> {
    let sentences = analysis_sentences(e.expert_in(lang));
    let makes = |s: &str, kp: &crate::kb::KeyPoint| {
        let lower = s.to_lowercase();
        kp.all_keywords().any(|k| !k.trim().is_empty() && lower.contains(&k.to_lowercase()))
    };
    let sep = if lang == Lang::Zh { "。" } else { ". " };
    (0..=e.key_points.len())
        .map(|k| {
            let kept: Vec<&str> =
                sentences.iter().copied().filter(|s| e.key_points[..k].iter().any(|kp| makes(s, kp))).collect();
            kept.join(sep)
        })
        .collect()
}

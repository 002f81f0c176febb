//! Whether a question is of the base's field (building applications on language models: agents,
//! RAG, prompts, tools, evaluation...) or from outside it (databases, networks, operating systems,
//! system design, classical machine learning...). The small e5 model puts every technical
//! question close to every other (cosines of 0.85-0.9), so the same-question model (`matching`)
//! took 40% of the outside questions of the test half of `data/eval/out_of_field_halves.jsonl`
//! for one of the base's: "How does a CDN work, and how do you handle cache invalidation?" for
//! "how do you version prompts?", "什么是死锁？" for deadlocks between agents. Scored against such
//! an entry, a sound answer reads as off-topic and the plan names a question nobody asked.
//!
//! A logistic model on the question's e5 vector (`data/models/field.json`, fitted by
//! `scripts/fit_field.py` on the base's technical questions and the fitting halves of `data/eval`'s
//! agent-engineering questions and of `in_field_halves.jsonl`, against `out_of_field_fit.jsonl`,
//! the fitting halves of `out_of_field_halves.jsonl` and of the database, networking, OS, testing,
//! web and architecture banks). A story question is of no field: it is matched as before. The
//! model describes the shipped base: an entry whose own question it puts outside (an imported
//! bank, a base a user wrote on another subject) is matched as before.

use std::sync::LazyLock;

use super::vector_model::VectorModel;
use crate::kb::search::KbSearch;

/// Below this probability a question is outside the field, and only an entry certainly the same
/// question (`MATCH_CERTAIN`) may be its reference. Chosen by 5-fold cross-validation on the
/// fitting data (1029 questions of the field, 412 outside), as the highest cut that keeps 99% of
/// the field's questions in it: at 0.1, 99.0% and 162 outside ones (39%) in it too; 0.15: 98.3%
/// and 137; 0.2: 97.9% and 116. On the fitting half of `data/eval`, the base's held-out
/// paraphrases matched to their entry: 57.0% with no cut, 56.7% at 0.1, 55.8% at 0.2.
pub const FIELD_MIN: f64 = 0.1;

static MODEL: LazyLock<Option<VectorModel>> =
    LazyLock::new(|| VectorModel::parse(include_str!("../../data/models/field.json")));

/// The probability that a question with this e5 query vector is of the base's field.
pub fn probability(vector: &[f32]) -> Option<f64> {
    MODEL.as_ref()?.probability(vector)
}

/// Below this probability a question is doubtfully of the field, and an entry needs a match of
/// [`DOUBTFUL_MATCH_MIN`] to be its reference. Chosen on the fitting half of `data/eval` (the
/// match was never fitted on these questions), with a bar of 0.9: outside questions matched to an
/// entry 15.1% -> 6.7% of 357, the base's held-out paraphrases matched 56.7% -> 55.5% of 344,
/// right answers to reworded questions under 25 unchanged (5.4%), the first quiz set 21 -> 20 of
/// 25; at 0.5, 6.2% and 54.7%.
pub const FIELD_SURE: f64 = 0.3;
/// The match a doubtful question's entry needs. At 0.9 (`MATCH_SURE`), a memory follow-up of the
/// sample interview ("如果用户前后说的偏好互相矛盾…", field 0.24) kept its entry at 0.911, a
/// hair's breadth that another CPU's int8 vectors can cross. At 0.8, fitting half: outside
/// questions matched 7.8% of 357 (6.7% at 0.9), the base's held-out paraphrases 56.1% (55.5%).
pub const DOUBTFUL_MATCH_MIN: f64 = 0.8;

/// The match probability an entry of the field needs to be the reference for `question`: none
/// (the usual bar) for a question of the field, a story question, or without vectors;
/// [`DOUBTFUL_MATCH_MIN`] for one doubtfully of it ([`FIELD_SURE`]); `MATCH_CERTAIN` for one
/// outside it ([`FIELD_MIN`]).
pub fn match_needed(kb: &KbSearch, question: &str) -> Option<f64> {
    let p = kb.vectors.as_ref().and_then(|v| v.query_vector(question).ok()).and_then(|v| probability(&v))?;
    if p >= FIELD_SURE || super::asks_story::asks_story(kb, question) {
        return None;
    }
    Some(if p < FIELD_MIN { super::MATCH_CERTAIN } else { DOUBTFUL_MATCH_MIN })
}

/// Whether the entry at `index` is of the field by its own question: an imported entry, or one a
/// user wrote on another subject, is not, and the field says nothing of questions matched to it.
pub fn entry_inside(kb: &KbSearch, index: usize) -> bool {
    let imported = kb.kb.entries.get(index).is_none_or(|e| e.is_imported());
    let p = kb.vectors.as_ref().and_then(|v| v.question_vector(index)).and_then(probability);
    !imported && p.is_some_and(|p| p >= FIELD_MIN)
}

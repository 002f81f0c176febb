//! Scoring: the offline rubric analyzer for content (and, with recordings, delivery).
//! Deterministic: the same input gives the same numbers.

pub mod content;
pub mod coverage;
pub mod relevance;
pub mod signals;
pub mod star;
pub mod text;

use crate::kb::evidence::Evidence;
use crate::kb::search::KbSearch;
use crate::kb::{KbError, Lang};
use content::{analyze, ContentScore, Inputs};

/// Score `answer` to `question` against the reference entry `reference` (an index into the base's
/// entries), the evidence computed once here for every caller (the tool, the evaluation).
pub fn assess(
    kb: &KbSearch,
    question: &str,
    answer: &str,
    reference: Option<usize>,
    lang: Lang,
) -> Result<ContentScore, KbError> {
    assess_with_evidence(kb, question, answer, reference, lang).map(|(score, _)| score)
}

/// [`assess`], also returning the evidence it was judged on (the evaluation records it).
pub fn assess_with_evidence(
    kb: &KbSearch,
    question: &str,
    answer: &str,
    reference: Option<usize>,
    lang: Lang,
) -> Result<(ContentScore, Evidence), KbError> {
    let evidence = kb.evidence(question, answer, reference)?;
    let entry = reference.and_then(|i| kb.kb.entries.get(i));
    let score = analyze(&Inputs { question, answer, reference: entry, evidence: &evidence, lang });
    Ok((score, evidence))
}

/// The language a question's report speaks: Chinese unless the question is English.
pub fn lang_of(question: &str, answer: &str) -> Lang {
    use crate::transcript::lang::{detect, Language};
    match detect(std::iter::once(question)) {
        Language::En => Lang::En,
        Language::Zh => Lang::Zh,
        Language::Mixed => match detect(std::iter::once(answer)) {
            Language::En => Lang::En,
            _ => Lang::Zh,
        },
    }
}

//! The overall of an answer to a question of an imported bank (`ivd kb import`), where the entry is
//! a question and a reference answer, perhaps with nothing else: no novice answer to be closer to
//! than, no hand-made keywords, and references as short as a sentence, against which the
//! interview rubric's expectations of depth and practice do not hold.
//!
//! A linear model of the grade (0-5) on four signals, fitted by least squares on the fitting half
//! of `data/eval/dev_bank_graded.jsonl` (a database and networking bank written for this, graded by
//! hand before scoring, 156 answers of 13 questions; the test half is 84 answers of 7 others):
//! - `recall`: IDF-weighted share of the reference's terms, the question's own left out, that the
//!   answer uses (the strongest single signal, r 0.70 there);
//! - `closer`: the answer's cosine to the reference minus its cosine to the question: an answer
//!   that restates the question sits nearer the question than the answer;
//! - `parroting`: share of the answer's terms that are the question's;
//! - `length`: the answer's length against the reference's, at most 1 (a tenth of the reference
//!   cannot make all its points; a longer answer earns nothing more).

use std::collections::HashSet;

use crate::kb::evidence::Evidence;
use crate::kb::terms::term_set;
use crate::kb::Entry;
use crate::lang::Lang;

const BIAS: f64 = 1.218;
const W_RECALL: f64 = 3.202;
const W_CLOSER: f64 = 5.065;
const W_PARROTING: f64 = -1.611;
const W_LENGTH: f64 = 2.19;

/// The four signals, as `ivd eval --graded --format json` reports them for fitting.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Signals {
    pub recall: f64,
    pub closer: f64,
    pub parroting: f64,
    pub length: f64,
}

impl Signals {
    pub fn read(question: &str, answer: &str, e: &Entry, ev: &Evidence, lang: Lang) -> Signals {
        let asked: HashSet<String> = term_set(&format!("{question}\n{}\n{}", e.question, e.question_en));
        let said = term_set(answer);
        let parroting = if said.is_empty() {
            0.0
        } else {
            said.iter().filter(|t| asked.contains(*t)).count() as f64 / said.len() as f64
        };
        let reference = super::signals::units(e.expert_in(lang)).max(1.0);
        Signals {
            recall: ev.reference_recall.unwrap_or(0.0),
            closer: match (ev.expert, ev.asked_cos) {
                (Some(x), Some(q)) => x - q,
                _ => 0.0,
            },
            parroting,
            length: (super::signals::units(answer) / reference).min(1.0),
        }
    }

    /// The overall on 0-100: the modelled grade (0-5) times 20.
    pub fn overall(&self) -> f64 {
        let grade = BIAS
            + W_RECALL * self.recall
            + W_CLOSER * self.closer
            + W_PARROTING * self.parroting
            + W_LENGTH * self.length;
        (grade.clamp(0.0, 5.0) * 20.0).clamp(0.0, 100.0)
    }
}

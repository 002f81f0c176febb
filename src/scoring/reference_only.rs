//! The overall of an answer to a question of an imported bank (`ivd kb import`), where the entry is
//! a question and a reference answer, perhaps with nothing else: no novice answer to be closer to
//! than, no hand-made keywords, and references as short as a sentence, against which the
//! interview rubric's expectations of depth and practice do not hold.
//!
//! A model of the grade (0-5) on two signals:
//! - `recall`: IDF-weighted share of the reference's terms, the question's own left out, that the
//!   answer uses, taken on a log scale: the first terms of the point count most (on three graded
//!   sets the mean grade climbs from about 1 at no shared term to 3 at a share of 0.1-0.2 and 4.5
//!   at 0.3, then levels off), and restating the question earns nothing;
//! - `closer`: the answer's cosine to the reference minus its cosine to the question: an answer in
//!   other words still sits nearer the reference than the question, one that restates the
//!   question or answers another concept does not.
//!
//! Fitted by least squares on the fitting halves (by a hash of the question id) of three graded
//! sets written for this, none in our field: `data/eval/dev_bank_graded.jsonl` (databases and
//! networking, en+zh), `sag_graded_en.jsonl` (operating systems, quiz-style short answers) and
//! `sag_graded_zh.jsonl` (software testing, in Chinese); 420 answers. The fit is then stretched
//! so that its spread matches the grades' (a least-squares fit pulls every answer toward the mean:
//! a sound answer would read "solid", a blank "weak"). Their test halves are what `ivd eval
//! --graded` reports; fitting on two sets and testing on the third gave Pearson 0.70-0.75.
//! Length earns nothing: a short answer that makes the point is a full answer.

use crate::kb::evidence::Evidence;

const BIAS: f64 = 6.603;
const W_LOG_RECALL: f64 = 2.266;
const W_CLOSER: f64 = 8.319;
/// Added to the recall before the log: at no shared term the log stays finite, and a share of a
/// few percent (one minor term) is not yet a point made. Of 0.01-0.2, 0.05 fitted best.
const RECALL_FLOOR: f64 = 0.05;

/// The two signals, as `ivd eval --graded --format json` reports them for fitting.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Signals {
    pub recall: f64,
    pub closer: f64,
}

impl Signals {
    pub fn read(ev: &Evidence) -> Signals {
        Signals {
            recall: ev.reference_recall.unwrap_or(0.0).max(0.0),
            closer: match (ev.expert, ev.asked_cos) {
                (Some(x), Some(q)) => x - q,
                _ => 0.0,
            },
        }
    }

    /// The overall on 0-100: the modelled grade (0-5) times 20.
    pub fn overall(&self) -> f64 {
        let grade = BIAS + W_LOG_RECALL * (RECALL_FLOOR + self.recall).ln() + W_CLOSER * self.closer;
        grade.clamp(0.0, 5.0) * 20.0
    }
}

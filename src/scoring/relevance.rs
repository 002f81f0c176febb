//! Relevance first: does the answer address the question at all? Decided from where the
//! reference stands among all entries for this answer (words and meaning) and from how well the
//! answer fits the question asked, all relative to the rest of the base (see `kb::evidence`).
//!
//! The constants are a logistic model fitted on the fitting half of `data/eval/` plus swapped
//! answers (another entry's expert answer given to a question); `ivd eval` reports it on the test
//! half and on swaps it never saw.

use crate::kb::evidence::Evidence;

/// Logistic weights, by vectors (with the embedding model) and by words alone (without it),
/// fitted by logistic regression (`ivd eval --dump`) on the fitting half: graded answers (off-topic
/// ones negative, give-ups left out), other-language expert and novice answers (positive), swapped
/// answers (negative). Held-out accuracy on the test half: 0.917 with vectors, 0.911 words only.
/// z-scores are clipped to +-`Z_CLIP` so that one extreme signal cannot outvote the others.
const Z_CLIP: f64 = 6.0;
const W_VECTOR_Z: f64 = 0.61;
const W_VECTOR_TOP3: f64 = 0.335;
const W_LEXICAL_Z: f64 = 1.13;
const W_QUESTION_FIT: f64 = 0.583;
const BIAS_WITH_VECTORS: f64 = -3.543;
const W_LEXICAL_Z_ONLY: f64 = 1.581;
/// Words alone: a reference among the answer's two closest entries gets this much more (not
/// fitted: the z-score alone misses answers to a topic several entries share, e.g. evaluation).
const W_LEXICAL_TOP2_ONLY: f64 = 2.0;
const BIAS_WORDS_ONLY: f64 = -2.083;
/// Without a reference, only the fit to the question is known (not fitted: few such answers).
const W_FIT_NO_REFERENCE: f64 = 1.1;
const BIAS_NO_REFERENCE: f64 = -0.8;
/// Below this probability the answer is judged not to address the question.
pub const RELEVANT_MIN: f64 = 0.5;

/// Probability (0..1) that the answer addresses the question; `None` when there is no evidence at
/// all (no reference and no vectors): then nothing is assumed either way.
pub fn probability(ev: &Evidence, has_reference: bool) -> Option<f64> {
    let clip = |z: f64| z.clamp(-Z_CLIP, Z_CLIP);
    let top3 = |rank: usize| if rank <= 3 { 1.0 } else { 0.0 };
    let logit = match (has_reference, ev.vector, ev.lexical, ev.question_fit) {
        (true, Some(v), lex, fit) => {
            BIAS_WITH_VECTORS
                + W_VECTOR_Z * clip(v.z)
                + W_VECTOR_TOP3 * top3(v.rank)
                + W_LEXICAL_Z * lex.map_or(0.0, |l| clip(l.z))
                + W_QUESTION_FIT * fit.map_or(0.0, clip)
        }
        (true, None, Some(l), _) => {
            let top2 = if l.rank <= 2 { 1.0 } else { 0.0 };
            BIAS_WORDS_ONLY + W_LEXICAL_Z_ONLY * clip(l.z) + W_LEXICAL_TOP2_ONLY * top2
        }
        (false, _, _, Some(fit)) => BIAS_NO_REFERENCE + W_FIT_NO_REFERENCE * clip(fit),
        _ => return None,
    };
    Some(1.0 / (1.0 + (-logit).exp()))
}

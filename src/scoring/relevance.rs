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
/// answers (negative). Held-out accuracy on the test half: 0.921 with vectors, 0.913 words only.
/// z-scores are clipped to +-`Z_CLIP` so that one extreme signal cannot outvote the others.
const Z_CLIP: f64 = 6.0;
const W_VECTOR_Z: f64 = 0.83;
const W_VECTOR_TOP3: f64 = 0.205;
const W_LEXICAL_Z: f64 = 1.16;
const W_QUESTION_FIT: f64 = 0.533;
const BIAS_WITH_VECTORS: f64 = -3.919;
const W_LEXICAL_Z_ONLY: f64 = 1.712;
const BIAS_WORDS_ONLY: f64 = -2.33;
/// Without a reference, only the fit to the question is known (not fitted: few such answers).
const W_FIT_NO_REFERENCE: f64 = 1.1;
const BIAS_NO_REFERENCE: f64 = -0.8;
/// Below this probability the answer is judged not to address the question. Lower than 0.5
/// because the errors cost unequally: a sound answer judged off-topic drops from the 70s to under
/// 25, an off-topic answer judged on-topic rises from under 25 to the 30s. On the fitting half's
/// graded answers 0.25-0.4 all gave 1 miss of 97 on-topic answers and 5 of 14 off-topic let
/// through (0.5: 2 and 4); swapped answers from another dimension stay out (99.4%).
pub const RELEVANT_MIN: f64 = 0.35;

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
        (true, None, Some(l), _) => BIAS_WORDS_ONLY + W_LEXICAL_Z_ONLY * clip(l.z),
        (false, _, _, Some(fit)) => BIAS_NO_REFERENCE + W_FIT_NO_REFERENCE * clip(fit),
        _ => return None,
    };
    Some(1.0 / (1.0 + (-logit).exp()))
}

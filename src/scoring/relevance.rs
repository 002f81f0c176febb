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
/// Without a reference (the base does not hold the question): whether the asked question comes
/// first, or in the first three, among the base's questions for this answer (the question's own
/// neighbours left out), the share of the question's terms the answer uses, and the answer's fit
/// to those neighbours' expert answers (z). Fitted by logistic regression (`ivd eval --dump`,
/// `scripts/fit_relevance.py DUMP 2,3,4,5`) on the fitting half of `data/eval/`: on-topic answers
/// to out-of-base and near-miss questions (good and weak), right answers, and right answers to the
/// base's own held-out wordings of their question positive; off-topic answers and answers moved to
/// another question negative. The last positives are what an interview asks: the question in the
/// interviewer's words, the answer in the candidate's. The model before, fitted without them
/// and also weighing the answer's fit to the wording (z), kept 28 of 74 of them on the fitting
/// half and 26 of 66 on the test half; this one keeps 62 and 52. It lets through 10 of 64 answers
/// moved to another question on the fitting half (7 before) and 9 of 56 on the test half (5),
/// and keeps 44 of 47 good near-miss answers on the test half (46).
const BIAS_NO_REFERENCE: f64 = -2.43;
const W_ASKED_FIRST: f64 = 2.981;
const W_ASKED_TOP3: f64 = 1.493;
const W_QUESTION_TERMS: f64 = 2.649;
const W_NEIGHBOUR_Z: f64 = 0.786;
/// Vectors but no standing (should not happen): the fit alone, as before these were fitted.
const W_FIT_ONLY: f64 = 1.1;
const BIAS_FIT_ONLY: f64 = -0.8;
/// Below this probability the answer is judged not to address the question. Lower than 0.5
/// because the errors cost unequally: a sound answer judged off-topic drops from the 70s to under
/// 25, an off-topic answer judged on-topic rises from under 25 to the 30s. On the fitting half's
/// graded answers 0.25-0.4 all gave 1 miss of 97 on-topic answers and 5 of 14 off-topic let
/// through (0.5: 2 and 4); swapped answers from another dimension stay out (99.4%).
pub const RELEVANT_MIN: f64 = 0.35;
/// The same cut for the no-reference model, chosen on the fitting half with the same asymmetry:
/// at 0.30, 167 of 181 sound answers are kept and 55 of 64 answers moved to another question
/// caught (0.25: 172 and 48; 0.35: 163 and 57).
pub const RELEVANT_MIN_NO_REFERENCE: f64 = 0.30;
/// The cut against an imported bank's entry. The model above was fitted on our base, whose
/// references are paragraphs; a bank's are a sentence or two, and a sound answer in other words
/// stands lower among them. At 0.35, 9 of 202 sound answers (grade >= 3.5) of the graded sets'
/// fitting halves fell under 25; the bank's own model (`reference_only`) already puts answers to
/// another question low, so the cut only has to catch what it misses. 0.12 is the highest cut that
/// squashes at most one sound answer more than no cut at all (6 vs 5 of 202), and it keeps 90% of
/// the answers given to another question under 29 (657 of them, 15.6 at 0.35).
pub const RELEVANT_MIN_IMPORTED: f64 = 0.12;

/// The cut for [`probability`]: with our base's reference, an imported bank's, or none.
pub fn threshold(has_reference: bool, imported: bool) -> f64 {
    match (has_reference, imported) {
        (true, true) => RELEVANT_MIN_IMPORTED,
        (true, false) => RELEVANT_MIN,
        (false, _) => RELEVANT_MIN_NO_REFERENCE,
    }
}

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
        (false, _, _, Some(fit)) => match ev.asked_standing {
            Some(a) => {
                BIAS_NO_REFERENCE
                    + W_ASKED_FIRST * if a.rank == 1 { 1.0 } else { 0.0 }
                    + W_ASKED_TOP3 * top3(a.rank)
                    + W_QUESTION_TERMS * ev.question_terms.unwrap_or(0.0)
                    + W_NEIGHBOUR_Z * ev.neighbour_z.map_or(0.0, clip)
            }
            None => BIAS_FIT_ONLY + W_FIT_ONLY * clip(fit),
        },
        _ => return None,
    };
    Some(1.0 / (1.0 + (-logit).exp()))
}

//! Relevance first: does the answer address the question at all? Decided from where the
//! reference stands among all entries for this answer (words and meaning) and from how well the
//! answer fits the question asked, all relative to the rest of the base (see `kb::evidence`).
//!
//! The constants are a logistic model fitted on the fitting half of `data/eval/` plus swapped
//! answers (another entry's expert answer given to a question); `ivd eval` reports it on the test
//! half and on swaps it never saw.

use crate::kb::evidence::{Evidence, Standing};

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
/// Without a reference (the base does not hold the question): how far the asked question stands
/// ahead of the base's questions for this answer (z, every cosine normalised for its wording, see
/// `kb::evidence`; the question's own neighbours left out), the share of the question's terms the
/// answer uses, and the answer's fit to those neighbours' expert answers (z). Fitted by logistic
/// regression (`ivd eval --dump`, `scripts/fit_relevance.py DUMP 1,4,5`) on the fitting half of
/// `data/eval/`: on-topic answers to out-of-base and near-miss questions (good and weak), right
/// answers, and right answers to the base's own held-out wordings of their question positive;
/// off-topic answers and answers moved to another question negative. The model before ranked raw
/// cosines, and whether the asked question came first or in the first three weighed most; raw
/// cosines favour long wordings, and short questions ("What is the primary job of DNS?") lost to
/// every agent question. At its cut it kept 223 of 251 sound answers and caught 73 of 91 wrong
/// ones on the fitting half (test half: 209 of 239, 62 of 79); this one keeps 234 and catches 72
/// (test: 215, 71).
const BIAS_NO_REFERENCE: f64 = -2.566;
const W_ASKED_Z: f64 = 1.262;
const W_QUESTION_TERMS: f64 = 1.261;
const W_NEIGHBOUR_Z: f64 = 0.39;
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
/// at 0.35, 234 of 251 sound answers are kept and 72 of 91 off-topic or moved answers caught
/// (0.30: 237 and 70; 0.40: 228 and 75).
pub const RELEVANT_MIN_NO_REFERENCE: f64 = 0.35;
/// The same cut for an answer to a question that asks for a story (`asks_story`) with no
/// reference. The model was fitted on technical answers; a story fits every behavioral question of
/// the base about as well, so the asked one stands out less. On the fitting half of
/// `data/eval/behavioral.jsonl`, the lowest relevance of a story told to its question with no
/// reference is 0.27, of a story told to another question 0.18 and of a technical answer 0.14:
/// 0.25 keeps the first and catches the others. Fitting half: stories called off-topic 1 -> 0 of
/// 24, stories above vague, platitude and technical answers 93.1% -> 97.2% of 72; test half 3 -> 2
/// and 86.1% -> 93.1%; stories told to another question and technical answers caught unchanged.
pub const RELEVANT_MIN_STORY: f64 = 0.25;
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
    logistic(ev, has_reference, ev.asked_standing)
}

/// [`probability`] with no reference for a question that asks for a story: the asked question
/// stands among the base's and the wider world's questions (`kb::world`), where a technical answer
/// meets the technical question it does answer. The fit and the cut are the no-reference
/// model's, and the story cut (`RELEVANT_MIN_STORY`) still keeps every story told to its question
/// with no reference (the lowest at 0.28; fitting half). Fitting half of
/// `data/eval/behavioral.jsonl`: technical answers caught as off-topic 10 -> 12 of 24, nothing
/// else `ivd eval` reports moved; test half: 12 -> 15, and stories 25+ above another question's
/// story 9 -> 11 of 24.
pub fn probability_for_story(ev: &Evidence) -> Option<f64> {
    logistic(ev, false, ev.asked_standing_world.or(ev.asked_standing))
}

fn logistic(ev: &Evidence, has_reference: bool, asked: Option<Standing>) -> Option<f64> {
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
        (false, _, _, Some(fit)) => match asked {
            Some(a) => {
                BIAS_NO_REFERENCE
                    + W_ASKED_Z * clip(a.z)
                    + W_QUESTION_TERMS * ev.question_terms.unwrap_or(0.0)
                    + W_NEIGHBOUR_Z * ev.neighbour_z.map_or(0.0, clip)
            }
            None => BIAS_FIT_ONLY + W_FIT_ONLY * clip(fit),
        },
        _ => return None,
    };
    Some(1.0 / (1.0 + (-logit).exp()))
}

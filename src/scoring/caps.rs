//! The caps on an answer's overall, each with the reason the report gives: what the answer is by
//! its form (a give-up, a fragment, a one-liner, a bare list of terms), what it states wrongly (the
//! reference's misconceptions, absolute claims), and why an answer under 25 is there.

use super::content::ContentScore;
use super::scale::Scale;
use super::signals::ONE_LINER_UNITS;
use super::text::{Lowest, Texts};

/// Caps on the overall: a non-answer ("I don't know"); a one-liner; a bare list of terms; one and
/// two or more misconceptions stated. (An answer to another question is capped in `content`, a
/// story question answered with no story in `narrative`.)
const CAP_NON_ANSWER: u32 = 10;
const CAP_ONE_LINER: u32 = 40;
/// Points under the one-liner cap at relevance 0 (none at 1): two one-liners above the cap tied
/// at it whatever they said. Fitting half of `data/eval/`, second quiz set (marked option above
/// the distractor): 25 -> 29 of 47 at 10 (chosen before the sweep), 29 at 5, 28 at 20; nothing
/// else `ivd eval` reports moved, nor the blind interviews.
const ONE_LINER_DOUBT: f64 = 10.0;
/// Below this many units ("It depends.", "就是存起来。") there is nothing to judge: capped like a
/// non-answer (plus 5).
const FRAGMENT_UNITS: f64 = 10.0;
const CAP_KEYWORD_LIST: u32 = 30;
const CAP_ONE_MISTAKE: u32 = 60;
const CAP_MISTAKES: u32 = 45;
/// An answer that says a hard problem is simply gone (`inaccuracy::absolute_claims`) is at most
/// weak: the claim is wrong as stated, and the conditions under which it would hold are missing.
const CAP_ABSOLUTE_CLAIM: u32 = 45;

/// Generic talk (`vague`): an answer with at least `VAGUE_MIN_PHRASES` generic phrases (one of
/// them unambiguous), at `VAGUE_DENSITY` or more per 100 units, and fewer than two figures, is at
/// most weak. Fluent, on-topic and full of the field's words, it otherwise scores like a sound
/// answer (with no reference, 76 on average). Chosen on the fitting half of
/// `data/eval/interview_graded_*.jsonl` (densities 0.6-1.15 caught the same English answers, 0.8
/// three more Chinese ones than 1.0; caps 30, 40, 50: Pearson 0.33, 0.31, 0.28 there). It caps none
/// of the base's 352 expert answers, of the blind interviews' 66 sound answers (read and held
/// parts), of 290 right choice options, of 574 sound quiz answers, nor of 20 sound spoken answers a
/// review wrote to hit the lists; the two figures spare a story of "全链路压测" at "8 万 QPS".
const CAP_VAGUE: u32 = 35;
const VAGUE_DENSITY: f64 = 0.8;
const VAGUE_MIN_PHRASES: usize = 2;
const VAGUE_MAX_NUMBERS: usize = 1;

/// The cap for generic talk, with its note; None for an answer that says something specific
/// (`numbers`: its figures, `signals::count_numbers`). With no reference, completeness is what the
/// answer says beyond the question, which generic talk inflates: its bar is held to the cap too,
/// so that the summary does not praise "substantive answers" the note calls general statements.
pub(super) fn vague_cap(answer: &str, numbers: usize, out: &mut ContentScore, tx: Texts) -> Option<(u32, String)> {
    let generic = numbers <= VAGUE_MAX_NUMBERS
        && super::vague::phrases(answer) >= VAGUE_MIN_PHRASES
        && super::vague::density(answer) >= VAGUE_DENSITY;
    if generic && out.scale == Scale::Said {
        out.completeness.score = out.completeness.score.min(CAP_VAGUE);
    }
    generic.then(|| (CAP_VAGUE, tx.generic()))
}

/// The cap for what the answer states wrongly: the reference's misconceptions, then its absolute
/// claims, which join them in the list.
pub(super) fn inaccuracy_cap(out: &mut ContentScore, answer: &str, story: bool, tx: Texts) -> u32 {
    let mut cap = match out.inaccuracies.len() {
        0 => 100,
        1 => CAP_ONE_MISTAKE,
        _ => CAP_MISTAKES,
    };
    let claims = super::inaccuracy::absolute_claims(answer, story);
    if !claims.is_empty() {
        cap = cap.min(CAP_ABSOLUTE_CLAIM);
        out.inaccuracies.extend(claims.iter().map(|c| tx.absolute_claim(c)));
        // Named, not scored again: the cap is the penalty, and the dimensions stay those the
        // overall was made from (a model's second opinion is blended against them).
        out.accuracy.detail = match out.scale {
            Scale::Reference => format!("{}{}{}", out.accuracy.detail, tx.sep(), tx.absolute_claims(claims.len())),
            _ => tx.unreferenced_claims(claims.len()),
        };
    }
    cap
}

/// Why an answer under 25 is there, when it is said: off-topic, a give-up, or too thin to judge.
pub(super) fn lowest(relevant: bool, non_answer: bool, too_thin: bool) -> Option<Lowest> {
    if !relevant {
        Some(Lowest::OffTopic)
    } else if non_answer {
        Some(Lowest::NoAnswer)
    } else {
        too_thin.then_some(Lowest::TooThin)
    }
}

/// The cap for what the answer is by its form, with the note that says why: a non-answer, a
/// fragment, a one-liner, a bare list of terms. A bank's short reference is answered in a few
/// words ("push and pop"): its own model judges those. A one-liner's cap keeps how surely it
/// addresses the question (`relevance`).
pub(super) fn form_cap(
    non_answer: bool,
    u: f64,
    list_like: bool,
    imported: bool,
    relevance: Option<f64>,
    tx: Texts,
) -> Option<(u32, String)> {
    if non_answer {
        Some((CAP_NON_ANSWER, tx.gives_up()))
    } else if imported {
        None
    } else if u < FRAGMENT_UNITS {
        Some((CAP_NON_ANSWER + 5, tx.one_liner()))
    } else if u < ONE_LINER_UNITS {
        let doubt = relevance.map_or(0.0, |p| ONE_LINER_DOUBT * (1.0 - p));
        Some((CAP_ONE_LINER - doubt.round() as u32, tx.one_liner()))
    } else if list_like {
        Some((CAP_KEYWORD_LIST, tx.keyword_list()))
    } else {
        None
    }
}

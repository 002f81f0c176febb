//! The fixed rule by which a language model's four dimension scores move the rubric's. The model
//! is a second opinion, not the judge: the same input must give nearly the same numbers with any
//! model or none, and an answer that talks the model into 100s ("ignore previous instructions")
//! gains at most a few points.
//!
//! 1. Each dimension moves toward the model's score by [`MODEL_WEIGHT`] of the disagreement, and
//!    by at most [`MAX_DIMENSION_SHIFT`] points.
//! 2. The overall is recomputed from the blended dimensions with the rubric's weights and
//!    calibration, and moves by at most [`MAX_OVERALL_SHIFT`] points.
//! 3. A cap the rubric applied (off-topic, non-answer, one-liner, keyword list, misconceptions)
//!    still holds: the model can lower such an answer, never lift it; the on-topic floor holds too.
//!    Capped or floored is told by the overall against the rubric's own before caps (`uncapped`):
//!    with no reference, or an imported bank's, that is not the calibrated weighted score.

use super::content::{calibrate, ContentScore, WEIGHTS, WEIGHTS_NO_REFERENCE};
use super::text::band;
use crate::lang::Lang;

/// The numbers a model may add: its four scores, in the rubric's order. Defined here, where the
/// rule that uses them lives; the model client fills them in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct ModelScores {
    pub completeness: u32,
    pub depth: u32,
    pub accuracy: u32,
    pub practicality: u32,
}

/// Share of the model's disagreement taken, per dimension.
pub const MODEL_WEIGHT: f64 = 0.3;
pub const MAX_DIMENSION_SHIFT: f64 = 10.0;
pub const MAX_OVERALL_SHIFT: i64 = 8;

/// Blend the model's scores into `c` (the rubric's) in place.
pub fn apply(c: &mut ContentScore, m: &ModelScores, has_reference: bool, lang: Lang) {
    let shift = |rubric: u32, model: u32| -> u32 {
        let d = (MODEL_WEIGHT * (model as f64 - rubric as f64)).clamp(-MAX_DIMENSION_SHIFT, MAX_DIMENSION_SHIFT);
        (rubric as f64 + d).round().clamp(0.0, 100.0) as u32
    };
    c.completeness.score = shift(c.completeness.score, m.completeness);
    c.depth.score = shift(c.depth.score, m.depth);
    c.accuracy.score = shift(c.accuracy.score, m.accuracy);
    c.practicality.score = shift(c.practicality.score, m.practicality);

    let weights = if has_reference { WEIGHTS } else { WEIGHTS_NO_REFERENCE };
    let s = [c.completeness.score, c.accuracy.score, c.depth.score, c.practicality.score];
    let raw: f64 = s.iter().zip(weights).map(|(s, w)| *s as f64 * w).sum();
    let before = c.uncapped.round() as i64;
    let delta =
        (calibrate(raw).round() as i64 - calibrate(c.raw).round() as i64).clamp(-MAX_OVERALL_SHIFT, MAX_OVERALL_SHIFT);
    let rubric = c.overall as i64;
    let mut overall = (rubric + delta).clamp(0, 100);
    if rubric < before {
        overall = overall.min(rubric);
    } else if rubric > before {
        overall = overall.max(rubric);
    }
    c.overall = overall as u32;
    c.raw = raw;
    c.uncapped = (c.uncapped + delta as f64).clamp(0.0, 100.0);
    c.band = band(c.overall, lang).to_string();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::content::Scored;

    fn content(dims: [u32; 4], overall: u32, raw: f64) -> ContentScore {
        let sc = |s| Scored { score: s, detail: String::new() };
        ContentScore {
            overall,
            band: String::new(),
            relevant: true,
            relevance: None,
            completeness: sc(dims[0]),
            depth: sc(dims[1]),
            accuracy: sc(dims[2]),
            practicality: sc(dims[3]),
            key_missing: vec![],
            inaccuracies: vec![],
            strengths: vec![],
            improvement: String::new(),
            star_missing: vec![],
            analyzer: "rubric".into(),
            evidence: vec![],
            feedback: None,
            note: None,
            kind: None,
            raw,
            uncapped: calibrate(raw),
        }
    }

    #[test]
    fn a_model_saying_100_moves_scores_a_bounded_amount() {
        let all = ModelScores { completeness: 100, depth: 100, accuracy: 100, practicality: 100 };
        // An uncapped middling answer: raw 45 calibrates to 62.
        let mut c = content([45, 45, 45, 45], 62, 45.0);
        apply(&mut c, &all, true, Lang::En);
        assert_eq!(c.completeness.score, 55);
        assert!(c.overall > 62 && c.overall <= 62 + MAX_OVERALL_SHIFT as u32, "{}", c.overall);
        // A capped answer (off-topic: 20 where its dimensions alone would give 62) is not lifted.
        let mut c = content([45, 45, 45, 45], 20, 45.0);
        apply(&mut c, &all, true, Lang::En);
        assert_eq!(c.overall, 20);
        // And a model saying 0 lowers a good answer by a bounded amount too.
        let none = ModelScores { completeness: 0, depth: 0, accuracy: 0, practicality: 0 };
        let mut c = content([80, 80, 80, 80], 85, 80.0);
        apply(&mut c, &none, true, Lang::En);
        assert!(c.overall >= 85 - MAX_OVERALL_SHIFT as u32 && c.overall < 85, "{}", c.overall);
    }

    #[test]
    fn an_answer_scored_without_a_reference_moves_both_ways() {
        // Its overall (70) comes from the no-reference model, not from the weighted dimensions
        // (raw 30 calibrates to 37): it is neither capped nor floored.
        let free = |c: &mut ContentScore| c.uncapped = 70.0;
        let all = ModelScores { completeness: 100, depth: 100, accuracy: 100, practicality: 100 };
        let none = ModelScores { completeness: 0, depth: 0, accuracy: 0, practicality: 0 };
        let mut up = content([30, 30, 60, 20], 70, 30.0);
        free(&mut up);
        apply(&mut up, &all, false, Lang::En);
        let mut down = content([30, 30, 60, 20], 70, 30.0);
        free(&mut down);
        apply(&mut down, &none, false, Lang::En);
        assert!(up.overall > 70 && up.overall <= 70 + MAX_OVERALL_SHIFT as u32, "{}", up.overall);
        assert!(down.overall < 70 && down.overall >= 70 - MAX_OVERALL_SHIFT as u32, "{}", down.overall);
    }
}

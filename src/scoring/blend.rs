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
//!    with an imported bank's reference, that is not the weighted score.
//!
//! The weights and mapping are the ones the rubric made the overall with (`scale`).

use super::content::ContentScore;
use super::text::{band, BANDS};
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
pub fn apply(c: &mut ContentScore, m: &ModelScores, lang: Lang) {
    let shift = |rubric: u32, model: u32| -> u32 {
        let d = (MODEL_WEIGHT * (model as f64 - rubric as f64)).clamp(-MAX_DIMENSION_SHIFT, MAX_DIMENSION_SHIFT);
        (rubric as f64 + d).round().clamp(0.0, 100.0) as u32
    };
    c.completeness.score = shift(c.completeness.score, m.completeness);
    c.depth.score = shift(c.depth.score, m.depth);
    c.accuracy.score = shift(c.accuracy.score, m.accuracy);
    c.practicality.score = shift(c.practicality.score, m.practicality);

    let raw = c.scale.raw([c.completeness.score, c.accuracy.score, c.depth.score, c.practicality.score]);
    let before = c.uncapped.round() as i64;
    let delta = (c.scale.overall(raw).round() as i64 - c.scale.overall(c.raw).round() as i64)
        .clamp(-MAX_OVERALL_SHIFT, MAX_OVERALL_SHIFT);
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
    // Under 25 before and after, the rubric's band names why (off-topic, no answer, too thin).
    let lowest = BANDS[BANDS.len() - 2].0;
    if c.overall >= lowest || rubric >= i64::from(lowest) {
        c.band = band(c.overall, lang).to_string();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::content::Scored;
    use crate::scoring::scale::Scale;

    fn content(dims: [u32; 4], overall: u32, raw: f64, scale: Scale) -> ContentScore {
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
            uncapped: scale.overall(raw),
            scale,
        }
    }

    #[test]
    fn a_model_saying_100_moves_scores_a_bounded_amount() {
        let all = ModelScores { completeness: 100, depth: 100, accuracy: 100, practicality: 100 };
        // An uncapped middling answer: raw 45 calibrates to 62.
        let mut c = content([45, 45, 45, 45], 62, 45.0, Scale::Reference);
        apply(&mut c, &all, Lang::En);
        assert_eq!(c.completeness.score, 55);
        assert!(c.overall > 62 && c.overall <= 62 + MAX_OVERALL_SHIFT as u32, "{}", c.overall);
        // A capped answer (off-topic: 20 where its dimensions alone would give 62) is not lifted.
        let mut c = content([45, 45, 45, 45], 20, 45.0, Scale::Reference);
        apply(&mut c, &all, Lang::En);
        assert_eq!(c.overall, 20);
        // And a model saying 0 lowers a good answer by a bounded amount too.
        let none = ModelScores { completeness: 0, depth: 0, accuracy: 0, practicality: 0 };
        let mut c = content([80, 80, 80, 80], 85, 80.0, Scale::Reference);
        apply(&mut c, &none, Lang::En);
        assert!(c.overall >= 85 - MAX_OVERALL_SHIFT as u32 && c.overall < 85, "{}", c.overall);
    }

    #[test]
    fn an_answer_scored_without_a_reference_moves_both_ways() {
        // Its overall is its weighted dimensions themselves (0.6 x 80 + 0.3 x 50 + 0.1 x 30 = 66),
        // not calibrated: it is neither capped nor floored.
        let all = ModelScores { completeness: 100, depth: 100, accuracy: 100, practicality: 100 };
        let none = ModelScores { completeness: 0, depth: 0, accuracy: 0, practicality: 0 };
        let mut up = content([80, 50, 60, 30], 66, 66.0, Scale::Said);
        apply(&mut up, &all, Lang::En);
        let mut down = content([80, 50, 60, 30], 66, 66.0, Scale::Said);
        apply(&mut down, &none, Lang::En);
        assert!(up.overall > 66 && up.overall <= 66 + MAX_OVERALL_SHIFT as u32, "{}", up.overall);
        assert!(down.overall < 66 && down.overall >= 66 - MAX_OVERALL_SHIFT as u32, "{}", down.overall);
        // A capped one (off-topic: 20) is lowered, never lifted.
        let mut capped = content([80, 50, 60, 30], 20, 66.0, Scale::Said);
        apply(&mut capped, &all, Lang::En);
        assert_eq!(capped.overall, 20);
    }
}

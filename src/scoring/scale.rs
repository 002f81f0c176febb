//! How an answer's four dimensions (completeness, accuracy, depth, practicality) make its overall:
//! which weights, and whether the weighted sum is mapped onto the calibrated scale. The report's
//! bars and its overall come from the same numbers, so a reader can follow one from the others.

/// Weights of completeness, accuracy, depth and practicality. Making the points the question asks
/// for matters most; being right next; explanation and concrete practice refine it.
pub(crate) const WEIGHTS: [f64; 4] = [0.40, 0.25, 0.20, 0.15];
/// A behavioral question with no reference: completeness is the story's STAR structure, accuracy
/// cannot be judged; depth and practicality carry more.
pub(crate) const WEIGHTS_STRUCTURE: [f64; 4] = [0.30, 0.10, 0.30, 0.30];
/// A technical question with no reference: completeness is what the answer says beyond the
/// question (the `unreferenced` grade model), accuracy is not assessed and weighs nothing. The sum
/// is the overall itself, not calibrated: the grade model was fitted on grades. Chosen on the
/// fitting halves of five graded sets outside our field (`ivd eval --graded FILE --format json`,
/// 637 answers scored with no reference), against the overall before it (half the grade model,
/// half the calibrated rubric of structure, depth and practicality), whose bars did not add up to
/// it: Pearson 0.449 before, 0.448 at these weights (0.447 with practicality 0.2, 0.446 with none;
/// calibrated sums 0.43-0.44); test halves 0.417 before, 0.422 after.
pub(crate) const WEIGHTS_SAID: [f64; 4] = [0.60, 0.0, 0.30, 0.10];

/// Raw weighted score -> calibrated scale, piecewise linear between these anchors. Chosen on the
/// fitting half of `data/eval/graded_*.jsonl` (raw medians per label there: weak 33, partial 39,
/// good 67, excellent 87) to put each label in its band (excellent 85-100, good 70-84, partial
/// 50-69, weak 25-49); of four candidate curves this one put the most fitting answers in their band.
/// A finer grid later gained 3 points of in-band share on the fitting half only by pushing weak
/// answers to the top of their band, so this one stayed. `ivd eval` reports the test half.
const CALIBRATION: &[(f64, f64)] =
    &[(0.0, 0.0), (20.0, 25.0), (32.0, 40.0), (45.0, 62.0), (66.0, 77.0), (85.0, 92.0), (100.0, 100.0)];

/// Which weights and mapping an answer's overall was made with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scale {
    /// Against a reference of our base ([`WEIGHTS`], calibrated).
    #[default]
    Reference,
    /// A behavioral story with no reference ([`WEIGHTS_STRUCTURE`], calibrated).
    Structure,
    /// A technical answer with no reference ([`WEIGHTS_SAID`], the sum itself).
    Said,
}

impl Scale {
    pub fn weights(self) -> [f64; 4] {
        match self {
            Scale::Reference => WEIGHTS,
            Scale::Structure => WEIGHTS_STRUCTURE,
            Scale::Said => WEIGHTS_SAID,
        }
    }

    /// The weighted sum of the dimensions, in the order completeness, accuracy, depth, practicality.
    pub fn raw(self, dims: [u32; 4]) -> f64 {
        dims.iter().zip(self.weights()).map(|(s, w)| *s as f64 * w).sum()
    }

    /// The overall (before caps) for a weighted sum.
    pub fn overall(self, raw: f64) -> f64 {
        match self {
            Scale::Said => raw.clamp(0.0, 100.0),
            Scale::Reference | Scale::Structure => calibrate(raw),
        }
    }
}

/// Piecewise-linear map of the raw weighted score onto the calibrated scale.
pub fn calibrate(raw: f64) -> f64 {
    let raw = raw.clamp(0.0, 100.0);
    for w in CALIBRATION.windows(2) {
        let ((x0, y0), (x1, y1)) = (w[0], w[1]);
        if raw <= x1 {
            return y0 + (y1 - y0) * (raw - x0) / (x1 - x0).max(1e-9);
        }
    }
    100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scale_weighs_to_one_and_the_unreferenced_one_is_its_own_sum() {
        for s in [Scale::Reference, Scale::Structure, Scale::Said] {
            assert!((s.weights().iter().sum::<f64>() - 1.0).abs() < 1e-9, "{s:?}");
        }
        // What the bars show adds up to the overall: 0.6 x 80 + 0.3 x 50 + 0.1 x 30.
        let raw = Scale::Said.raw([80, 60, 50, 30]);
        assert!((Scale::Said.overall(raw) - 66.0).abs() < 1e-9, "{raw}");
        // The referenced scale maps the same sum onto the calibrated one (45 -> 62).
        assert!((Scale::Reference.overall(45.0) - 62.0).abs() < 1e-9);
    }
}

//! A logistic model on a question's e5 query vector, as the fitting scripts write it
//! (`scripts/e5.py`: the unit vector times `scale`, then weights and bias). Shared by the models
//! that tell what a question is by its meaning (`asks_story`, `field`).

use serde::Deserialize;

#[derive(Deserialize)]
pub struct VectorModel {
    scale: f64,
    bias: f64,
    weights: Vec<f64>,
}

impl VectorModel {
    /// The model in `json` (shipped with the binary); None if it does not parse.
    pub fn parse(json: &str) -> Option<Self> {
        serde_json::from_str(json).ok()
    }

    /// The probability for a question with this vector; None when the vector is not of the
    /// model's size or is zero.
    pub fn probability(&self, vector: &[f32]) -> Option<f64> {
        if self.weights.len() != vector.len() {
            return None;
        }
        let norm = vector.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
        if norm == 0.0 {
            return None;
        }
        let z = self.bias
            + self.weights.iter().zip(vector).map(|(w, x)| w * f64::from(*x) * self.scale / norm).sum::<f64>();
        Some(1.0 / (1.0 + (-z).exp()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vector_is_taken_as_a_unit_vector_and_a_wrong_size_gives_nothing() {
        let m = VectorModel::parse(r#"{"scale": 10.0, "bias": -1.0, "weights": [0.5, 0.0]}"#).unwrap();
        // The length of the vector does not matter, only its direction: z = -1 + 0.5 * 10.
        let p = m.probability(&[3.0, 0.0]).unwrap();
        assert!((p - 1.0 / (1.0 + (-4.0f64).exp())).abs() < 1e-9, "{p}");
        assert_eq!(m.probability(&[0.0, 3.0]), Some(1.0 / (1.0 + 1.0f64.exp())));
        assert!(m.probability(&[1.0, 0.0, 0.0]).is_none());
        assert!(m.probability(&[0.0, 0.0]).is_none());
        assert!(VectorModel::parse("not json").is_none());
    }
}

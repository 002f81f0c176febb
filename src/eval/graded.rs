//! The graded set: answers written for this evaluation without the knowledge base's text, each
//! labelled excellent / good / partial / weak / off-topic (`data/eval/graded_*.jsonl`). Entries are
//! split in two by a hash of their id: the fitting half is where the scoring constants were chosen;
//! the test half is never used for fitting and is what `ivd eval` reports.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// One graded answer as written in the files.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Graded {
    pub entry: String,
    pub lang: crate::lang::Lang,
    pub question: String,
    pub answer: String,
    pub label: String,
    #[serde(default)]
    pub why: String,
}

pub const LABELS: &[&str] = &["off-topic", "weak", "partial", "good", "excellent"];

/// The label's rank, 0 (off-topic) to 4 (excellent).
pub fn ordinal(label: &str) -> Option<usize> {
    LABELS.iter().position(|l| *l == label)
}

/// Whether an entry belongs to the test half (never used to fit constants).
pub fn is_test(entry: &str) -> bool {
    Sha256::digest(entry.as_bytes())[0] % 2 == 1
}

/// Parse JSON lines; a bad line names its number.
pub fn parse(text: &str, name: &str) -> Result<Vec<Graded>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let g: Graded = serde_json::from_str(line).map_err(|e| format!("{name}:{}: {e}", n + 1))?;
        if ordinal(&g.label).is_none() {
            return Err(format!("{name}:{}: unknown label {:?}", n + 1, g.label));
        }
        out.push(g);
    }
    Ok(out)
}

/// Spearman's rank correlation (average ranks for ties).
pub fn spearman(x: &[f64], y: &[f64]) -> f64 {
    let (rx, ry) = (ranks(x), ranks(y));
    let n = rx.len() as f64;
    if n < 2.0 {
        return 0.0;
    }
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let cov: f64 = rx.iter().zip(&ry).map(|(a, b)| (a - mx) * (b - my)).sum();
    let vx: f64 = rx.iter().map(|a| (a - mx).powi(2)).sum();
    let vy: f64 = ry.iter().map(|b| (b - my).powi(2)).sum();
    if vx <= 0.0 || vy <= 0.0 {
        0.0
    } else {
        cov / (vx * vy).sqrt()
    }
}

fn ranks(v: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|a, b| v[*a].total_cmp(&v[*b]));
    let mut r = vec![0.0; v.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && v[idx[j + 1]] == v[idx[i]] {
            j += 1;
        }
        let avg = (i + j) as f64 / 2.0 + 1.0;
        for k in i..=j {
            r[idx[k]] = avg;
        }
        i = j + 1;
    }
    r
}

/// Share of pairs with different labels whose scores are ordered like the labels (ties count half).
pub fn pairwise_accuracy(labels: &[usize], scores: &[f64]) -> f64 {
    let (mut good, mut total) = (0.0, 0.0);
    for i in 0..labels.len() {
        for j in 0..labels.len() {
            if labels[i] > labels[j] {
                total += 1.0;
                if scores[i] > scores[j] {
                    good += 1.0;
                } else if scores[i] == scores[j] {
                    good += 0.5;
                }
            }
        }
    }
    if total > 0.0 {
        good / total
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spearman_and_pairs() {
        assert!((spearman(&[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0]) - 1.0).abs() < 1e-9);
        assert!((spearman(&[1.0, 2.0, 3.0], &[30.0, 20.0, 10.0]) + 1.0).abs() < 1e-9);
        assert!((pairwise_accuracy(&[0, 1, 2], &[1.0, 2.0, 3.0]) - 1.0).abs() < 1e-9);
        assert!((pairwise_accuracy(&[0, 1], &[5.0, 5.0]) - 0.5).abs() < 1e-9);
    }
}

//! The offline rubric for the content of one answer.
//!
//! - completeness: key points covered (keywords of the reference's rubric found in the answer);
//! - accuracy: closeness to the expert rather than the novice answer, minus flagged misconceptions;
//! - depth: length against the expert answer, reasoning markers, expert terms used;
//! - practicality: numbers, first-hand experience, trade-offs, examples.
//!
//! Without a relevant reference, completeness and accuracy fall back to structure and a neutral
//! score, and the details say that no reference was found.

use std::collections::HashSet;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::signals::*;
use crate::kb::terms::term_set;
use crate::kb::vectors::Semantic;
use crate::kb::Entry;
use crate::transcript::lang::{self, Language};

/// A score with the one line that explains it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Scored {
    pub score: u32,
    pub detail: String,
}

/// The `content` object of the report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ContentScore {
    pub overall: u32,
    pub completeness: Scored,
    pub depth: Scored,
    pub accuracy: Scored,
    pub practicality: Scored,
    pub key_missing: Vec<String>,
    pub inaccuracies: Vec<String>,
    pub strengths: Vec<String>,
    pub improvement: String,
    pub analyzer: String,
}

/// Weights of the four dimensions in the overall score, with a reference and without one.
const WEIGHTS: [f64; 4] = [0.35, 0.25, 0.20, 0.20];
const WEIGHTS_NO_REFERENCE: [f64; 4] = [0.30, 0.10, 0.30, 0.30];
/// Caps: an answer that gives up, or a one-liner, is low, never medium.
const CAP_NON_ANSWER: u32 = 15;
const CAP_ONE_LINER: u32 = 20;
/// Each flagged misconception costs this much accuracy.
const MISTAKE_PENALTY: f64 = 30.0;
/// Accuracy with neither expert nor novice closer (0.5): misconceptions aside, an answer starts here.
const ACCURACY_NEUTRAL: f64 = 70.0;
/// Share of the expert answer's length at which an answer is long enough for full depth credit.
const DEPTH_LENGTH_SHARE: f64 = 0.6;
/// Without a reference, this many units count as full length.
const DEPTH_LENGTH_NO_REFERENCE: f64 = 200.0;
/// Expert terms used for full depth credit.
const DEPTH_TERMS: f64 = 25.0;
/// Cosine (e5 passage-passage) between a key point and the closest sentence of an answer at which
/// the point counts as made in other words, and at which it counts half. Measured on the knowledge
/// base (tests/semantic.rs): key points against sentences of their own expert answer p25 0.923,
/// p50 0.934; against another same-dimension entry's expert answer p90 0.917, p99 0.926. The bands
/// overlap, so the thresholds sit just above the negatives: vectors confirm only clear matches
/// and keywords do the rest.
pub const KP_COVERED_SIM: f32 = 0.93;
pub const KP_PARTIAL_SIM: f32 = 0.92;
/// Scale of the expert-minus-novice cosine difference in the accuracy closeness: e5 cosines sit in
/// a narrow band, so a difference of a few hundredths is already telling.
const CLOSENESS_SCALE: f64 = 0.03;

/// Score an answer, without vectors.
pub fn analyze(answer: &str, reference: Option<&Entry>) -> ContentScore {
    analyze_with(answer, reference, None)
}

/// Score an answer; `semantic` (vectors of the answer against the reference) lets key points made
/// in other words count, and adds meaning to the expert-versus-novice closeness.
pub fn analyze_with(answer: &str, reference: Option<&Entry>, semantic: Option<&Semantic>) -> ContentScore {
    let lower = answer.to_lowercase();
    let u = units(answer);
    let zh = lang::detect(std::iter::once(answer)) != Language::En;
    let t = |zh_text: String, en_text: String| if zh { zh_text } else { en_text };
    let a_terms = term_set(answer);

    // Practicality: the same with or without a reference.
    let numbers = count_numbers(answer);
    let experience = count_phrases(&lower, EXPERIENCE);
    let trade_offs = count_phrases(&lower, TRADE_OFFS);
    let examples = count_phrases(&lower, EXAMPLES);
    let practicality = pct(0.35 * ratio(numbers as f64, 3.0)
        + 0.30 * ratio(experience as f64, 2.0)
        + 0.20 * ratio(trade_offs as f64, 2.0)
        + 0.15 * ratio(examples as f64, 1.0));
    let practicality = Scored {
        score: practicality,
        detail: t(
            format!("{numbers} 处数字，{experience} 处亲身经验，{trade_offs} 处取舍，{examples} 处举例"),
            format!("{numbers} numbers, {experience} first-hand experience cues, {trade_offs} trade-offs, {examples} examples"),
        ),
    };
    let reasoning = count_phrases(&lower, REASONING);

    let mut key_missing = Vec::new();
    let mut inaccuracies = Vec::new();
    let mut strengths = Vec::new();
    let (completeness, accuracy, depth, weights, first_missing, first_correction);
    match reference {
        Some(e) => {
            let mut covered = 0.0;
            let mut covered_points = Vec::new();
            for (i, kp) in e.key_points.iter().enumerate() {
                let hits =
                    kp.keywords.iter().filter(|k| !k.trim().is_empty() && lower.contains(&k.to_lowercase())).count();
                let need = kp.keywords.len().clamp(1, 2);
                let sim = semantic.and_then(|s| s.key_points.get(i).copied()).unwrap_or(0.0);
                if hits >= need || sim >= KP_COVERED_SIM {
                    covered += 1.0;
                    covered_points.push(kp.point.clone());
                } else {
                    if hits > 0 || sim >= KP_PARTIAL_SIM {
                        covered += 0.5;
                    }
                    key_missing.push(kp.point.clone());
                }
            }
            let n = e.key_points.len().max(1) as f64;
            completeness = Scored {
                score: pct(covered / n),
                detail: if key_missing.is_empty() {
                    t(
                        format!("覆盖全部 {} 个要点", e.key_points.len()),
                        format!("covers all {} key points", e.key_points.len()),
                    )
                } else {
                    t(
                        format!(
                            "覆盖 {}/{} 个要点；缺少：{}",
                            covered_points.len(),
                            e.key_points.len(),
                            key_missing.join("；")
                        ),
                        format!(
                            "covers {} of {} key points; missing: {}",
                            covered_points.len(),
                            e.key_points.len(),
                            key_missing.join("; ")
                        ),
                    )
                },
            };
            for p in covered_points.iter().take(2) {
                strengths.push(t(format!("讲到了要点：{p}"), format!("makes the key point: {p}")));
            }

            let e_terms = term_set(&e.expert_answer);
            let n_terms = term_set(&e.novice_answer);
            let sim_e = cosine(&a_terms, &e_terms);
            let sim_n = cosine(&a_terms, &n_terms);
            let lexical = if sim_e + sim_n > 0.0 { sim_e / (sim_e + sim_n) } else { 0.5 };
            let close = match semantic {
                // Meaning and wording count equally.
                Some(s) => 0.5 * lexical + 0.5 / (1.0 + (-(s.expert - s.novice) as f64 / CLOSENESS_SCALE).exp()),
                None => lexical,
            };
            for m in &e.common_mistakes {
                if m.signals.iter().any(|s| !s.trim().is_empty() && lower.contains(&s.to_lowercase())) {
                    inaccuracies.push(if m.correction.is_empty() {
                        m.mistake.clone()
                    } else {
                        format!("{} — {}", m.mistake, m.correction)
                    });
                }
            }
            let acc = ACCURACY_NEUTRAL + (100.0 - ACCURACY_NEUTRAL) * (2.0 * close - 1.0)
                - MISTAKE_PENALTY * inaccuracies.len() as f64;
            accuracy = Scored {
                score: pct(acc / 100.0),
                detail: t(
                    format!(
                        "更接近{}答案（专家相似度 {:.2}，新手 {:.2}）；{} 处常见误区",
                        if close >= 0.5 { "专家" } else { "新手" },
                        sim_e,
                        sim_n,
                        inaccuracies.len()
                    ),
                    format!(
                        "closer to the {} answer (similarity {:.2} expert, {:.2} novice); {} known misconception(s)",
                        if close >= 0.5 { "expert" } else { "novice" },
                        sim_e,
                        sim_n,
                        inaccuracies.len()
                    ),
                ),
            };

            let expert_units = units(&e.expert_answer).max(1.0);
            let used = a_terms.intersection(&e_terms).count();
            let d = 0.4 * ratio(u, DEPTH_LENGTH_SHARE * expert_units)
                + 0.3 * ratio(reasoning as f64, 4.0)
                + 0.3 * ratio(used as f64, DEPTH_TERMS);
            depth = Scored {
                score: pct(d),
                detail: t(
                    format!(
                        "长度约为专家答案的 {:.0}%，{} 处推理/机制表述，用到 {} 个专家术语",
                        100.0 * u / expert_units,
                        reasoning,
                        used
                    ),
                    format!(
                        "{:.0}% of the expert answer's length, {} reasoning markers, {} expert terms",
                        100.0 * u / expert_units,
                        reasoning,
                        used
                    ),
                ),
            };
            weights = WEIGHTS;
            first_missing = key_missing.first().cloned();
            first_correction = e
                .common_mistakes
                .iter()
                .find(|m| inaccuracies.iter().any(|i| i.starts_with(&m.mistake)))
                .map(|m| m.correction.clone());
        }
        None => {
            let structure = count_phrases(&lower, STRUCTURE);
            completeness = Scored {
                score: pct(0.5 * ratio(structure as f64, 2.0) + 0.5 * ratio(u, DEPTH_LENGTH_NO_REFERENCE)),
                detail: t(
                    format!("知识库中没有找到相关参考，按结构评估：{structure} 处分点/顺序表述"),
                    format!("no reference found in the knowledge base; judged on structure: {structure} enumeration markers"),
                ),
            };
            accuracy = Scored {
                score: 50,
                detail: t(
                    "没有参考答案可对照，准确性未评估".into(),
                    "no reference to check against; accuracy not assessed".into(),
                ),
            };
            let d = 0.5 * ratio(u, DEPTH_LENGTH_NO_REFERENCE)
                + 0.3 * ratio(reasoning as f64, 4.0)
                + 0.2 * ratio(a_terms.len() as f64, 60.0);
            depth = Scored {
                score: pct(d),
                detail: t(
                    format!("约 {u:.0} 字，{reasoning} 处推理/机制表述（无参考答案）"),
                    format!("about {u:.0} characters' worth, {reasoning} reasoning markers (no reference)"),
                ),
            };
            weights = WEIGHTS_NO_REFERENCE;
            first_missing = None;
            first_correction = None;
        }
    }
    if numbers >= 2 {
        strengths.push(t("用数字支撑论点".into(), "backs claims with numbers".into()));
    }
    if experience >= 2 {
        strengths.push(t("结合了亲身项目经验".into(), "draws on first-hand project experience".into()));
    }
    if trade_offs >= 2 {
        strengths.push(t("讨论了取舍".into(), "weighs trade-offs".into()));
    }

    let scores = [completeness.score, accuracy.score, depth.score, practicality.score];
    let mut overall = (scores.iter().zip(weights).map(|(s, w)| *s as f64 * w).sum::<f64>()).round() as u32;
    let non_answer = is_non_answer(&lower, u);
    let (mut completeness, mut accuracy, mut depth, mut practicality) = (completeness, accuracy, depth, practicality);
    let improvement;
    if non_answer || u < ONE_LINER_UNITS {
        let cap = if non_answer { CAP_NON_ANSWER } else { CAP_ONE_LINER };
        overall = overall.min(cap);
        for s in [&mut completeness, &mut accuracy, &mut depth, &mut practicality] {
            s.score = s.score.min(cap + 5);
        }
        strengths.clear();
        let note = if non_answer {
            t("回答放弃了问题".into(), "the answer gives up on the question".into())
        } else {
            t("回答只有一句话".into(), "the answer is a one-liner".into())
        };
        accuracy.detail = format!("{note}; {}", accuracy.detail);
        improvement = match &first_missing {
            Some(kp) => t(
                format!("即使不确定，也先说出你知道的部分和你会如何排查，例如从「{kp}」讲起。"),
                format!("Even when unsure, say what you do know and how you would find out; start from: {kp}."),
            ),
            None => t(
                "展开回答：讲清机制、给出一个亲身经历的例子和数据。".into(),
                "Expand the answer: explain the mechanism, give one first-hand example and a number.".into(),
            ),
        };
    } else {
        let mut parts = Vec::new();
        if let Some(kp) = &first_missing {
            parts.push(t(format!("补上要点「{kp}」"), format!("add the missing point: {kp}")));
        }
        if let Some(c) = first_correction.filter(|c| !c.is_empty()) {
            parts.push(t(format!("纠正误区：{c}"), format!("correct the misconception: {c}")));
        }
        if numbers < 2 {
            parts.push(t("用一个你项目里的数字支撑".into(), "back it with a number from your own work".into()));
        } else if trade_offs == 0 {
            parts.push(t("说明方案的代价和取舍".into(), "say what the approach costs and what you traded off".into()));
        }
        improvement = if parts.is_empty() {
            t("保持：结构清晰、有数据、有取舍。".into(), "Keep it up: structured, quantified, with trade-offs.".into())
        } else {
            let joined = parts.join(if zh { "；" } else { "; " });
            if zh {
                format!("{joined}。")
            } else {
                let mut c = joined.chars();
                c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str() + ".").unwrap_or_default()
            }
        };
    }
    ContentScore {
        overall,
        completeness,
        depth,
        accuracy,
        practicality,
        key_missing,
        inaccuracies,
        strengths,
        improvement,
        analyzer: "rubric".into(),
    }
}

fn ratio(x: f64, full: f64) -> f64 {
    if full <= 0.0 {
        return 0.0;
    }
    (x / full).clamp(0.0, 1.0)
}

fn pct(x: f64) -> u32 {
    (x.clamp(0.0, 1.0) * 100.0).round() as u32
}

/// Set cosine: shared terms over the geometric mean of the sizes.
fn cosine(a: &HashSet<String>, b: &HashSet<String>) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    a.intersection(b).count() as f64 / ((a.len() * b.len()) as f64).sqrt()
}

//! `ivd eval --graded FILE.jsonl`: agreement with human graders on a graded bank of the user's
//! (rows `{id, question, answer, grade, scale}`, e.g. scale "0-5"), scored as `ivd compare` scores
//! them (the question searched for in the base, the reference chosen the same way). Reports Pearson,
//! Spearman and quadratic weighted kappa between our overall and the grade, overall and per
//! question, and a wrong-question control: every answer given to another question of the file.

use std::collections::BTreeMap;

use serde::Serialize;
use tokio_util::sync::CancellationToken;

use super::graded::spearman;
use crate::kb::search::KbSearch;
use crate::kb::KbError;
use crate::lang::{self, Lang};

/// One graded row.
#[derive(Debug, Clone)]
pub struct Row {
    pub id: String,
    /// The question's identity: `qid` when given, else the question text.
    pub qid: String,
    pub question: String,
    pub answer: String,
    pub grade: f64,
    pub lang: Option<Lang>,
}

/// Which rows to score: all, or one half of the questions (split by a hash of `qid`, as the other
/// evaluation sets are), to keep what constants were fitted on apart from what is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Half {
    All,
    Fit,
    Test,
}

/// Rows and the scale (`lo-hi`) they share; a bad line is an error naming it.
pub fn parse(text: &str) -> Result<(Vec<Row>, (f64, f64)), String> {
    let mut rows = Vec::new();
    let mut scale: Option<(f64, f64)> = None;
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let at = n + 1;
        let v: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("line {at}: not JSON: {e}"))?;
        let s = |k: &str| v.get(k).and_then(|x| x.as_str()).unwrap_or("").trim().to_string();
        let grade = v.get("grade").and_then(|g| g.as_f64()).ok_or(format!("line {at}: no numeric \"grade\""))?;
        let sc = parse_scale(&v).ok_or(format!("line {at}: no \"scale\" like \"0-5\""))?;
        if scale.is_some_and(|x| x != sc) {
            return Err(format!("line {at}: scale {sc:?} differs from the first row's"));
        }
        scale = Some(sc);
        let (question, answer) = (s("question"), s("answer"));
        if question.is_empty() || answer.is_empty() {
            return Err(format!("line {at}: needs \"question\" and \"answer\""));
        }
        let qid = Some(s("qid")).filter(|q| !q.is_empty()).unwrap_or_else(|| question.clone());
        let id = Some(s("id")).filter(|q| !q.is_empty()).unwrap_or_else(|| at.to_string());
        let lang = v.get("lang").and_then(|x| x.as_str()).and_then(|l| l.parse().ok());
        rows.push(Row { id, qid, question, answer, grade, lang });
    }
    let scale = scale.ok_or("the file has no rows")?;
    Ok((rows, scale))
}

fn parse_scale(v: &serde_json::Value) -> Option<(f64, f64)> {
    match v.get("scale")? {
        serde_json::Value::String(s) => {
            let (a, b) = s.split_once(['-', '–'])?;
            Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
        }
        serde_json::Value::Number(n) => Some((0.0, n.as_f64()?)),
        _ => None,
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Agreement {
    pub n: usize,
    pub pearson: f64,
    pub spearman: f64,
    /// Quadratic weighted kappa, our overall mapped linearly onto the scale's whole points.
    pub qwk: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct QuestionRow {
    pub qid: String,
    pub agreement: Agreement,
    pub mean_grade: f64,
    pub mean_overall: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct ScoredRow {
    pub id: String,
    pub qid: String,
    pub grade: f64,
    pub overall: u32,
    pub reference_id: Option<String>,
    /// The dimensions and the evidence the overall came from (for fitting; `--format json`).
    pub features: serde_json::Value,
}

#[derive(Debug, Clone, Serialize)]
pub struct GradedReport {
    pub half: Half,
    pub scale: (f64, f64),
    pub overall: Agreement,
    /// Mean and median of the per-question Pearson (questions with varied grades only).
    pub per_question_pearson_mean: f64,
    pub per_question: Vec<QuestionRow>,
    /// Answers given to another question of the file: their overall, which must be low.
    pub wrong_question_median: f64,
    pub wrong_question_p90: f64,
    pub wrong_question_n: usize,
    /// Share of rows whose question was matched to an entry of the base.
    pub matched_share: f64,
    /// Sound answers (graded [`SOUND_SHARE`] of the scale or more) and how many of them we scored
    /// under [`SQUASHED_UNDER`]: a sound answer told it scored 23 is the verdict a user stops
    /// trusting.
    pub sound_n: usize,
    pub sound_squashed: usize,
    pub rows: Vec<ScoredRow>,
    /// What each control answer's overall came from (for fitting the gate).
    pub control_features: Vec<serde_json::Value>,
}

/// The share of the scale from which a graded answer counts as sound.
pub const SOUND_SHARE: f64 = 0.8;
/// The overall under which a sound answer was squashed (the off-topic and too-thin bands' reach).
pub const SQUASHED_UNDER: u32 = 25;

pub fn in_half(qid: &str, half: Half) -> bool {
    match half {
        Half::All => true,
        Half::Test => super::graded::is_test(qid),
        Half::Fit => !super::graded::is_test(qid),
    }
}

/// Scores every row (and each answer under another question) on two threads.
pub fn run(
    kb: &KbSearch,
    rows: &[Row],
    scale: (f64, f64),
    half: Half,
    cancel: &CancellationToken,
) -> Result<GradedReport, KbError> {
    let rows: Vec<&Row> = rows.iter().filter(|r| in_half(&r.qid, half)).collect();
    let mut questions: Vec<(&str, &str)> = Vec::new();
    for r in &rows {
        if !questions.iter().any(|(q, _)| *q == r.qid) {
            questions.push((&r.qid, &r.question));
        }
    }
    // The control: each answer under the next distinct question of the file.
    let wrong: Vec<(String, String, Option<Lang>)> = rows
        .iter()
        .filter(|_| questions.len() > 1)
        .map(|r| {
            let at = questions.iter().position(|(q, _)| *q == r.qid).unwrap_or(0);
            let other = questions[(at + 1) % questions.len()].1;
            (other.to_string(), r.answer.clone(), r.lang)
        })
        .collect();
    let mut jobs: Vec<(String, String, Option<Lang>)> =
        rows.iter().map(|r| (r.question.clone(), r.answer.clone(), r.lang)).collect();
    jobs.extend(wrong);
    let scored = score_all(kb, &jobs, cancel)?;
    let (own, control) = scored.split_at(rows.len());
    let scored_rows: Vec<ScoredRow> = rows
        .iter()
        .zip(own)
        .map(|(r, (o, reference, features))| ScoredRow {
            id: r.id.clone(),
            qid: r.qid.clone(),
            grade: r.grade,
            overall: *o,
            reference_id: reference.clone(),
            features: features.clone(),
        })
        .collect();
    let control_features: Vec<serde_json::Value> = control.iter().map(|(_, _, f)| f.clone()).collect();
    let mut control: Vec<f64> = control.iter().map(|(o, _, _)| *o as f64).collect();
    control.sort_by(f64::total_cmp);
    let mut r = report(half, scale, scored_rows, &control);
    r.control_features = control_features;
    Ok(r)
}

/// An overall, the entry it was scored against, and what it came from.
type Scored = (u32, Option<String>, serde_json::Value);

fn score_all(
    kb: &KbSearch,
    jobs: &[(String, String, Option<Lang>)],
    cancel: &CancellationToken,
) -> Result<Vec<Scored>, KbError> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 4);
    let chunk = jobs.len().div_ceil(threads).max(1);
    let parts: Vec<Result<Vec<Scored>, KbError>> = std::thread::scope(|s| {
        let handles: Vec<_> = jobs
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|(q, a, l)| {
                            let lang = l.unwrap_or_else(|| lang::of_question(q, a));
                            let (_, chosen, c) = crate::scoring::assess_question(kb, q, a, lang, cancel)?;
                            let ev = kb.evidence(q, a, chosen, cancel)?;
                            let unreferenced = kb.evidence(q, a, None, cancel)?;
                            let signals = chosen
                                .and_then(|i| kb.kb.entries.get(i))
                                .map(|_| crate::scoring::reference_only::Signals::read(&ev));
                            let features = serde_json::json!({
                                "overall": c.overall, "completeness": c.completeness.score, "accuracy": c.accuracy.score,
                                "depth": c.depth.score, "practicality": c.practicality.score,
                                "raw": c.raw, "relevance": c.relevance, "units": crate::scoring::signals::units(a),
                                "term_list": crate::scoring::signals::is_term_list(a),
                                "evidence": super::evidence_json(&ev), "question_terms": ev.question_terms,
                                "signals": signals,
                                "unref": crate::scoring::unreferenced::Signals::read(q, a, &unreferenced),
                                "p_ref": crate::scoring::relevance::probability(&ev, chosen.is_some()),
                                "p_noref": crate::scoring::relevance::probability(&unreferenced, false),
                                "noref_relevance": {
                                    "asked_z": unreferenced.asked_standing.map(|s| s.z),
                                    "question_terms": unreferenced.question_terms,
                                    "neighbour_z": unreferenced.neighbour_z,
                                },
                            });
                            Ok((c.overall, chosen.map(|i| kb.kb.entries[i].id.clone()), features))
                        })
                        .collect()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(Err(KbError::Cancelled))).collect()
    });
    let mut out = Vec::with_capacity(jobs.len());
    for p in parts {
        out.extend(p?);
    }
    Ok(out)
}

fn report(half: Half, scale: (f64, f64), rows: Vec<ScoredRow>, control: &[f64]) -> GradedReport {
    let overall = agreement(&rows, scale);
    let mut by_q: BTreeMap<&str, Vec<&ScoredRow>> = BTreeMap::new();
    for r in &rows {
        by_q.entry(r.qid.as_str()).or_default().push(r);
    }
    let per_question: Vec<QuestionRow> = by_q
        .iter()
        .map(|(q, rs)| {
            let owned: Vec<ScoredRow> = rs.iter().map(|r| (*r).clone()).collect();
            let n = rs.len().max(1) as f64;
            QuestionRow {
                qid: q.to_string(),
                agreement: agreement(&owned, scale),
                mean_grade: rs.iter().map(|r| r.grade).sum::<f64>() / n,
                mean_overall: rs.iter().map(|r| r.overall as f64).sum::<f64>() / n,
            }
        })
        .collect();
    let varied: Vec<f64> = per_question.iter().map(|q| q.agreement.pearson).filter(|p| p.is_finite()).collect();
    let matched = rows.iter().filter(|r| r.reference_id.is_some()).count() as f64 / rows.len().max(1) as f64;
    let (lo, hi) = scale;
    let sound: Vec<&ScoredRow> = rows.iter().filter(|r| r.grade >= lo + SOUND_SHARE * (hi - lo)).collect();
    let sound_squashed = sound.iter().filter(|r| r.overall < SQUASHED_UNDER).count();
    GradedReport {
        half,
        scale,
        overall,
        per_question_pearson_mean: varied.iter().sum::<f64>() / varied.len().max(1) as f64,
        per_question,
        wrong_question_median: quantile(control, 0.5),
        wrong_question_p90: quantile(control, 0.9),
        wrong_question_n: control.len(),
        matched_share: matched,
        sound_n: sound.len(),
        sound_squashed,
        rows,
        control_features: Vec::new(),
    }
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn agreement(rows: &[ScoredRow], (lo, hi): (f64, f64)) -> Agreement {
    let ours: Vec<f64> = rows.iter().map(|r| r.overall as f64).collect();
    let grades: Vec<f64> = rows.iter().map(|r| r.grade).collect();
    // Our 0-100 onto the scale's whole points, linearly: the bands' edges fall on it in order.
    let k = (hi - lo).round().max(1.0) as usize;
    let to_point =
        |x: f64, from: (f64, f64)| ((x - from.0) / (from.1 - from.0) * k as f64).round().clamp(0.0, k as f64) as usize;
    let a: Vec<usize> = ours.iter().map(|&o| to_point(o, (0.0, 100.0))).collect();
    let b: Vec<usize> = grades.iter().map(|&g| to_point(g, (lo, hi))).collect();
    Agreement {
        n: rows.len(),
        pearson: pearson(&ours, &grades),
        spearman: spearman(&ours, &grades),
        qwk: qwk(&a, &b, k + 1),
    }
}

/// Pearson's correlation; NaN when either side is constant.
pub fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    if n < 2.0 {
        return f64::NAN;
    }
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let cov: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let vx: f64 = x.iter().map(|a| (a - mx).powi(2)).sum();
    let vy: f64 = y.iter().map(|b| (b - my).powi(2)).sum();
    if vx <= 0.0 || vy <= 0.0 {
        f64::NAN
    } else {
        cov / (vx * vy).sqrt()
    }
}

/// Quadratic weighted kappa between two ratings on categories `0..k`.
pub fn qwk(a: &[usize], b: &[usize], k: usize) -> f64 {
    let n = a.len() as f64;
    if n == 0.0 || k < 2 {
        return f64::NAN;
    }
    let mut observed = vec![vec![0.0; k]; k];
    let (mut ha, mut hb) = (vec![0.0; k], vec![0.0; k]);
    for (&x, &y) in a.iter().zip(b) {
        observed[x][y] += 1.0;
        ha[x] += 1.0;
        hb[y] += 1.0;
    }
    let (mut num, mut den) = (0.0, 0.0);
    for i in 0..k {
        for j in 0..k {
            let w = ((i as f64 - j as f64) / (k as f64 - 1.0)).powi(2);
            num += w * observed[i][j];
            den += w * ha[i] * hb[j] / n;
        }
    }
    if den <= 0.0 {
        f64::NAN
    } else {
        1.0 - num / den
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agreement_measures() {
        assert!((pearson(&[1.0, 2.0, 3.0], &[2.0, 4.0, 6.0]) - 1.0).abs() < 1e-9);
        assert!(pearson(&[1.0, 1.0], &[1.0, 2.0]).is_nan());
        assert!((qwk(&[0, 1, 2], &[0, 1, 2], 3) - 1.0).abs() < 1e-9);
        assert!(qwk(&[0, 2, 0, 2], &[2, 0, 2, 0], 3) < 0.0);
    }

    #[test]
    fn rows_and_scale() {
        let text = "{\"id\":\"a\",\"question\":\"Q?\",\"answer\":\"A.\",\"grade\":4.5,\"scale\":\"0-5\"}\n";
        let (rows, scale) = parse(text).unwrap();
        assert_eq!(scale, (0.0, 5.0));
        assert_eq!(rows[0].qid, "Q?");
        assert!(parse("{\"question\":\"Q\",\"answer\":\"A\",\"grade\":1}").unwrap_err().contains("scale"));
    }

    #[test]
    fn sound_answers_scored_low_are_counted() {
        let row = |grade: f64, overall: u32| ScoredRow {
            id: format!("{grade}-{overall}"),
            qid: "q".into(),
            grade,
            overall,
            reference_id: None,
            features: serde_json::Value::Null,
        };
        // On 1-5, sound is 4.2 or more; 4.0 is not, however low it scored.
        let rows = vec![row(5.0, 20), row(4.5, 80), row(4.2, 24), row(4.0, 10), row(1.0, 5)];
        let r = report(Half::All, (1.0, 5.0), rows, &[10.0]);
        assert_eq!((r.sound_squashed, r.sound_n), (2, 3));
    }
}

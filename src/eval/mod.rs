//! `ivd eval`: how good the verdicts and the search are, on data that is not an entry's own
//! expert answer scored against itself. Sits above `kb` and `scoring`; only the CLI imports it.

pub mod blind;
pub mod external;
mod follow_ups;
pub mod graded;
mod graded_apart;
pub mod interviews;
mod out_of_field;
pub mod retrieval;
pub mod sets;
mod stories;
mod turns;
pub mod verdicts;

use std::collections::BTreeMap;

use serde::Serialize;

use crate::kb::evidence::Evidence;
use crate::kb::search::KbSearch;
use crate::kb::KbError;
use crate::lang::Lang;
use crate::scoring::{assess_with_evidence, content::ContentScore};

/// The graded answers, compiled in so `ivd eval` works from any folder.
const GRADED: &[(&str, &str)] = &[
    ("graded_en.jsonl", include_str!("../../data/eval/graded_en.jsonl")),
    ("graded_zh.jsonl", include_str!("../../data/eval/graded_zh.jsonl")),
];

#[derive(Debug, Clone, Default)]
pub struct EvalOptions {
    /// Score only every n-th entry's built answers (1 = all); the graded set is always whole.
    pub every: usize,
    /// Skip retrieval (the slowest part without vectors cached).
    pub skip_retrieval: bool,
    /// Scoring stops once this fires (Ctrl-C).
    pub cancel: tokio_util::sync::CancellationToken,
}

/// Scores of one built set.
#[derive(Debug, Clone, Serialize)]
pub struct SetRow {
    pub set: String,
    pub n: usize,
    pub median: f64,
    pub p10: f64,
    pub p90: f64,
    /// Share judged not to address the question.
    pub irrelevant_share: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Comparisons {
    /// Entries (x language) where the other-language expert answer beats the wrong-question answer
    /// from another dimension by 25 points or more.
    pub right_ahead_of_wrong_other_dimension: f64,
    pub right_ahead_of_wrong_same_dimension: f64,
    /// Entries whose partial answers rise with k (never down by more than 3, and the full answer
    /// above the empty one).
    pub partial_rising: f64,
    pub partial_entries: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct GradedRow {
    pub part: String,
    pub n: usize,
    pub spearman: f64,
    pub pairwise_accuracy: f64,
    /// Median overall per label.
    pub medians: BTreeMap<String, f64>,
    /// Share of answers whose overall lands in their label's band.
    pub in_band: f64,
    /// Share whose question found the labelled entry as its reference.
    pub reference_found: f64,
}

/// One scored item, for `--dump`: what constants are fitted on.
#[derive(Debug, Clone, Serialize)]
pub struct Item {
    pub set: String,
    pub entry: String,
    pub lang: Lang,
    pub label: Option<String>,
    pub test: bool,
    pub k: usize,
    pub evidence: serde_json::Value,
    pub raw: f64,
    pub content: ContentScore,
}

#[derive(Debug, Clone, Serialize)]
pub struct EvalReport {
    pub entries: usize,
    pub semantic: bool,
    pub retrieval: Option<retrieval::RetrievalReport>,
    pub sets: Vec<SetRow>,
    pub comparisons: Comparisons,
    pub graded: Vec<GradedRow>,
    /// Whole interviews scored as `ivd diagnose` does, against their answers moved elsewhere.
    pub interviews: Vec<interviews::InterviewRow>,
    /// Whole interviews written outside the project, against their writers' grades.
    pub blind: Vec<blind::BlindRow>,
    /// Questions the base did not phrase, answers it did not write (see [`verdicts`]).
    pub verdicts: Vec<verdicts::VerdictRow>,
    pub degraded: Option<String>,
    #[serde(skip)]
    pub items: Vec<Item>,
    #[serde(skip)]
    pub verdict_items: Vec<verdicts::VerdictItem>,
}

pub fn run(s: &KbSearch, opts: &EvalOptions) -> Result<EvalReport, KbError> {
    let retrieval = if opts.skip_retrieval { None } else { Some(retrieval::run(s, &graded::is_test)?) };
    let every = opts.every.max(1);
    let chosen: Vec<usize> = (0..s.kb.entries.len()).filter(|i| i % every == 0).collect();
    let mut items = Vec::new();
    for c in sets::build(&s.kb, &chosen) {
        let (content, ev) = assess_with_evidence(s, &c.question, &c.answer, Some(c.entry), c.lang, &opts.cancel)?;
        let entry = s.kb.entries[c.entry].id.clone();
        let evidence = evidence_json(&ev);
        items.push(Item {
            set: c.set.into(),
            test: graded::is_test(&entry),
            entry,
            lang: c.lang,
            label: None,
            k: c.k,
            evidence,
            raw: content.raw,
            content,
        });
    }
    let mut found = Vec::new();
    for (name, text) in GRADED {
        for g in graded::parse(text, name)
            .map_err(|m| KbError::Invalid(vec![crate::kb::Problem::new(name.to_string(), None, &m)]))?
        {
            let reference = s.references_for(&g.question)?.first().and_then(|h| s.position(&h.id));
            found.push(reference.is_some_and(|r| s.kb.entries[r].id == g.entry));
            let (content, ev) = assess_with_evidence(s, &g.question, &g.answer, reference, g.lang, &opts.cancel)?;
            items.push(Item {
                set: "graded".into(),
                test: graded::is_test(&g.entry),
                evidence: evidence_json(&ev),
                entry: g.entry,
                lang: g.lang,
                label: Some(g.label),
                k: 0,
                raw: content.raw,
                content,
            });
        }
    }
    let (verdicts, verdict_items) = verdicts::run(s, &opts.cancel)?;
    Ok(EvalReport {
        entries: s.kb.entries.len(),
        semantic: s.vectors.is_some(),
        retrieval,
        sets: set_rows(&items),
        comparisons: comparisons(&items),
        graded: graded_rows(&items, &found),
        interviews: interviews::run(s, &opts.cancel)?,
        blind: blind::run(s, &opts.cancel)?,
        verdicts,
        degraded: s.degraded.clone(),
        items,
        verdict_items,
    })
}

pub(crate) fn evidence_json(ev: &Evidence) -> serde_json::Value {
    serde_json::json!({
        "lexical_rank": ev.lexical.map(|x| x.rank), "lexical_z": ev.lexical.map(|x| x.z),
        "vector_rank": ev.vector.map(|x| x.rank), "vector_z": ev.vector.map(|x| x.z),
        "question_fit": ev.question_fit, "key_points": ev.key_points,
        "expert": ev.expert, "novice": ev.novice,
        "recall": ev.reference_recall, "asked_cos": ev.asked_cos,
    })
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

fn set_rows(items: &[Item]) -> Vec<SetRow> {
    let mut by: BTreeMap<&str, Vec<&Item>> = BTreeMap::new();
    for i in items.iter().filter(|i| i.set != "graded" && i.set != "partial") {
        by.entry(i.set.as_str()).or_default().push(i);
    }
    by.into_iter()
        .map(|(set, v)| {
            let mut s: Vec<f64> = v.iter().map(|i| i.content.overall as f64).collect();
            s.sort_by(f64::total_cmp);
            SetRow {
                set: set.into(),
                n: v.len(),
                median: quantile(&s, 0.5),
                p10: quantile(&s, 0.1),
                p90: quantile(&s, 0.9),
                irrelevant_share: v.iter().filter(|i| !i.content.relevant).count() as f64 / v.len().max(1) as f64,
            }
        })
        .collect()
}

fn comparisons(items: &[Item]) -> Comparisons {
    let score = |set: &str, entry: &str, lang: Lang| {
        items.iter().find(|i| i.set == set && i.entry == entry && i.lang == lang).map(|i| i.content.overall as i64)
    };
    let ahead = |wrong: &str| {
        let (mut ok, mut n) = (0usize, 0usize);
        for i in items.iter().filter(|i| i.set == "other-language") {
            if let Some(w) = score(wrong, &i.entry, i.lang) {
                n += 1;
                ok += usize::from(i.content.overall as i64 - w >= 25);
            }
        }
        ok as f64 / n.max(1) as f64
    };
    let mut partial: BTreeMap<&str, Vec<(usize, i64)>> = BTreeMap::new();
    for i in items.iter().filter(|i| i.set == "partial") {
        partial.entry(&i.entry).or_default().push((i.k, i.content.overall as i64));
    }
    let rising = partial
        .values()
        .filter(|v| {
            let mut v: Vec<(usize, i64)> = v.to_vec();
            v.sort();
            v.windows(2).all(|w| w[1].1 >= w[0].1 - 3) && v.last().map(|x| x.1) > v.first().map(|x| x.1)
        })
        .count();
    Comparisons {
        right_ahead_of_wrong_other_dimension: ahead("wrong-question-other-dimension"),
        right_ahead_of_wrong_same_dimension: ahead("wrong-question-same-dimension"),
        partial_rising: rising as f64 / partial.len().max(1) as f64,
        partial_entries: partial.len(),
    }
}

/// The band each label should land in.
fn band_of(label: &str) -> (u32, u32) {
    match label {
        "excellent" => (85, 100),
        "good" => (70, 84),
        "partial" => (50, 69),
        "weak" => (25, 49),
        _ => (0, 24),
    }
}

fn graded_rows(items: &[Item], found: &[bool]) -> Vec<GradedRow> {
    let graded: Vec<(&Item, bool)> = items.iter().filter(|i| i.set == "graded").zip(found.iter().copied()).collect();
    ["test", "fit"]
        .iter()
        .map(|part| {
            let v: Vec<&(&Item, bool)> = graded.iter().filter(|(i, _)| i.test == (*part == "test")).collect();
            let labels: Vec<usize> =
                v.iter().map(|(i, _)| graded::ordinal(i.label.as_deref().unwrap_or("")).unwrap_or(0)).collect();
            let scores: Vec<f64> = v.iter().map(|(i, _)| i.content.overall as f64).collect();
            let mut medians = BTreeMap::new();
            for l in graded::LABELS {
                let mut s: Vec<f64> = v
                    .iter()
                    .filter(|(i, _)| i.label.as_deref() == Some(*l))
                    .map(|(i, _)| i.content.overall as f64)
                    .collect();
                s.sort_by(f64::total_cmp);
                medians.insert(l.to_string(), quantile(&s, 0.5));
            }
            let in_band = v
                .iter()
                .filter(|(i, _)| {
                    let (lo, hi) = band_of(i.label.as_deref().unwrap_or(""));
                    (lo..=hi).contains(&i.content.overall)
                })
                .count();
            let n = v.len().max(1) as f64;
            GradedRow {
                part: part.to_string(),
                n: v.len(),
                spearman: graded::spearman(&labels.iter().map(|l| *l as f64).collect::<Vec<_>>(), &scores),
                pairwise_accuracy: graded::pairwise_accuracy(&labels, &scores),
                medians,
                in_band: in_band as f64 / n,
                reference_found: v.iter().filter(|(_, f)| *f).count() as f64 / n,
            }
        })
        .collect()
}

//! The offline rubric for the content of one answer, in the order a reader would judge it:
//!
//! 1. relevance: does it address the question at all (`relevance`)? If not, it is capped low;
//! 2. completeness: the reference's key points made, in any wording or language (`coverage`), or,
//!    for a behavioral story, its STAR structure (`star`);
//! 3. accuracy: closer to the expert than the novice answer, minus misconceptions it states (one it
//!    names to refute costs nothing);
//! 4. depth: explanation (causes, mechanisms, trade-offs) and the expert's vocabulary, not length;
//! 5. practicality: numbers, first-hand experience, trade-offs, examples.
//!
//! The overall is a fixed weighted sum of the four (`scale`: mapped onto the calibrated scale, or,
//! with no reference, the sum itself), then capped for non-answers, one-liners, keyword lists and
//! misconceptions. Texts follow `lang`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::caps::{form_cap, inaccuracy_cap, lowest, vague_cap};
use super::coverage::key_point_level;
use super::depth::{depth, Substance};
use super::scale::Scale;
use super::signals::*;
use super::star;
use super::text::{answer_band, Texts};
use crate::kb::evidence::Evidence;
use crate::kb::terms::term_set;
use crate::kb::Entry;
use crate::lang::Lang;

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
    /// The overall's band on the calibrated scale, in the interview's language.
    pub band: String,
    /// Whether the answer addresses the question; when false the overall is capped at 25.
    pub relevant: bool,
    /// Probability (0-100) that the answer addresses the question; null without any evidence.
    pub relevance: Option<u32>,
    pub completeness: Scored,
    pub depth: Scored,
    pub accuracy: Scored,
    pub practicality: Scored,
    pub key_missing: Vec<String>,
    pub inaccuracies: Vec<String>,
    pub strengths: Vec<String>,
    pub improvement: String,
    /// STAR parts a behavioral answer lacks (empty for other questions).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub star_missing: Vec<String>,
    pub analyzer: String,
    /// Quotes from the answer a language model cited, each checked verbatim against the answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<String>,
    /// The model's narrative feedback, in the interview's language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feedback: Option<String>,
    /// Why the model did not contribute (time-out, unusable reply...): the rubric scored alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// A question of a kind the content rubric does not apply to (an introduction, logistics...):
    /// not scored on content, left out of the report's averages and plan.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<super::kind::QuestionKind>,
    /// The weighted score before calibration and caps (for fitting; not in reports).
    #[serde(skip_serializing, default)]
    #[schemars(skip)]
    pub raw: f64,
    /// The overall before caps and floor: what a language model's second opinion moves
    /// (`blend`), and what tells a capped overall from a free one (not in reports).
    #[serde(skip_serializing, default)]
    #[schemars(skip)]
    pub uncapped: f64,
    /// How the four dimensions made the overall (weights and mapping; not in reports).
    #[serde(skip, default)]
    #[schemars(skip)]
    pub scale: Scale,
}

/// What the analyzer is given.
pub struct Inputs<'a> {
    pub question: &'a str,
    pub answer: &'a str,
    pub reference: Option<&'a Entry>,
    pub evidence: &'a Evidence,
    /// Whether the question asks for a story (`asks_story`): with no reference from our base,
    /// the answer is then judged on its structure.
    pub asks_story: bool,
    /// The language the report speaks for this question.
    pub lang: Lang,
    /// The answer makes the points of an entry near the question (`scoring::answered_entry`): it
    /// addresses the question, whatever the relevance model reads.
    pub makes_near_points: bool,
}

/// Coverage is half the key points (by words or meaning) and half the reference's own terms the
/// answer recalls (IDF-weighted, the question's left out), on a log scale from `RECALL_NONE` to
/// `RECALL_FULL`. The key points are a few phrases; the reference's terms are all of what an
/// expert says. On the fitting half of the graded answers (`data/eval/graded_*`, labels by people
/// who did not read the base) the median recall is 0.009 off-topic, 0.014 weak, 0.027 partial,
/// 0.099 good and 0.231 excellent; adding it raised that half's Spearman 0.906 -> 0.937 (share
/// 0.3: 0.926, 0.7: 0.939).
const RECALL_SHARE: f64 = 0.5;
const RECALL_NONE: f64 = 0.01;
const RECALL_FULL: f64 = 0.25;
/// Added before the log, so that the first terms do not weigh without bound.
const RECALL_SOFT: f64 = 0.02;

fn recall_level(r: f64) -> f64 {
    let at = |x: f64| (RECALL_SOFT + x).ln();
    ((at(r) - at(RECALL_NONE)) / (at(RECALL_FULL) - at(RECALL_NONE))).clamp(0.0, 1.0)
}

/// Share of the key points (mean level) at which completeness is full: a strong answer need not
/// make every point of the rubric.
const COVERAGE_FULL: f64 = 0.75;
/// For a behavioral answer, completeness is mostly its STAR structure: the base's key points
/// belong to one example story, the candidate's own story differs.
const STAR_WEIGHT: f64 = 0.65;
/// Scale of the expert-minus-novice cosine difference in the accuracy closeness.
const CLOSENESS_SCALE: f64 = 0.02;
/// Each misconception stated (not refuted) costs this much accuracy.
const MISTAKE_PENALTY: f64 = 25.0;
/// An answer to another question is at most 25, lower the surer (`relevance`).
const CAP_IRRELEVANT: f64 = 25.0;
/// The scale reserves 0-24 for off-topic answers and non-answers: an on-topic attempt, however
/// weak, is at least "weak".
const FLOOR_ON_TOPIC: u32 = 25;
/// ...except an answer with no reference that mostly restates the question (this share of its
/// terms or more are the question's) and, by the no-reference model, says little else ("an index
/// is what the database uses to index the table"): it is not raised to the floor. The graded sets
/// outside our field, fitting halves: such answers averaged grade 0.7 of 5 and were raised from 7
/// to 25; Pearson 0.457 -> 0.494 with no sound answer (3.5+) more under 25 (40 of 331); with no
/// share asked (every thin answer), 0.492 and 4 sound answers more ("The complement of an AND is
/// the OR of the complements", in everyday words, 25 -> 14); at 0.5, 0.493. Test halves: 0.432 ->
/// 0.462, sound answers under 25 30 of 243 before and after.
const RESTATES_MIN: f64 = 0.4;

/// The relevance below which the answer does not address the question: a story question's answer
/// with no reference has a cut of its own (`relevance::RELEVANT_MIN_STORY`).
fn relevance_cut(inp: &Inputs<'_>) -> f64 {
    match inp.reference {
        None if inp.asks_story => super::relevance::RELEVANT_MIN_STORY,
        _ => super::relevance::threshold(inp.reference.is_some(), inp.reference.is_some_and(|e| e.is_imported())),
    }
}

/// The probability that the answer addresses the question; a story question with no reference is
/// judged among the wider world's questions too.
fn relevance_of(inp: &Inputs<'_>) -> Option<f64> {
    match inp.reference {
        None if inp.asks_story => super::relevance::probability_for_story(inp.evidence),
        _ => super::relevance::probability(inp.evidence, inp.reference.is_some()),
    }
}

pub fn analyze(inp: &Inputs<'_>) -> ContentScore {
    let tx = Texts(inp.lang);
    let normalized = normalize_numbers(inp.answer);
    let u = units(inp.answer);
    let signals = Signals::read(inp.answer, &normalized);
    let cut = relevance_cut(inp);
    let relevance = relevance_of(inp).map(|p| if inp.makes_near_points { p.max(cut) } else { p });
    // The entry's dimension decides for our base: "你在 RAG 项目里踩过哪些坑？" matched to a RAG entry
    // asks for pitfalls, not a story. An imported bank's entries carry no such dimension.
    let behavioral = match inp.reference {
        Some(e) if !e.is_imported() => e.dimension == "behavioral",
        _ => inp.asks_story,
    };
    // A story asked for and none told: about no one is off-topic, whatever its meaning fits.
    let story_asked = inp.asks_story && (behavioral || super::narrative::asks_for_one(inp.question));
    let untold = story_asked.then(|| super::narrative::untold(inp.question, inp.answer)).flatten();
    let relevant = relevance.is_none_or(|p| p >= cut) && untold != Some(super::narrative::Untold::NotOwn);
    let list_like = is_term_list(inp.answer) && u >= ONE_LINER_UNITS;
    // What the answer says beyond the question: what an answer with no reference is judged on.
    let said = super::unreferenced::Signals::read(inp.question, inp.answer, inp.evidence);

    let scale = match inp.reference {
        Some(_) => Scale::Reference,
        None if behavioral => Scale::Structure,
        None => Scale::Said,
    };
    let mut out = match inp.reference {
        Some(e) => with_reference(inp, e, &normalized, &signals, behavioral, list_like),
        None => without_reference(inp, &signals, scale, &said),
    };
    out.practicality = practicality(&signals, tx);
    out.scale = scale;
    let raw = scale.raw([out.completeness.score, out.accuracy.score, out.depth.score, out.practicality.score]);
    // An imported bank's entry is a question and a reference: its own model (`reference_only`).
    let imported = inp.reference.filter(|e| e.is_imported());
    let mut overall = match imported {
        Some(_) => super::reference_only::Signals::read(inp.evidence).overall().round() as u32,
        None => scale.overall(raw).round() as u32,
    };
    let uncapped = overall as f64;
    // Caps, each with the reason it says.
    let non_answer = is_non_answer(&inp.answer.to_lowercase(), u);
    let mut notes: Vec<String> = Vec::new();
    if !relevant {
        let p = relevance.unwrap_or(0.0);
        overall = overall.min((CAP_IRRELEVANT * (0.4 + 0.6 * p / cut)).round() as u32);
        notes.push(tx.not_answered());
    }
    let by_form = form_cap(non_answer, u, list_like, imported.is_some(), relevance, tx);
    let vague = vague_cap(inp.answer, signals.numbers, &mut out, tx);
    for (cap, note) in untold.map(|s| (s.cap(), tx.untold(s))).into_iter().chain(by_form).chain(vague.clone()) {
        overall = overall.min(cap);
        notes.push(note);
    }
    // An imported bank's model puts an answer that restates the question below 25 itself; so
    // does the no-reference model, whose grade is what the answer says beyond the question.
    let floored = relevant && !non_answer && u >= ONE_LINER_UNITS && imported.is_none();
    let says_nothing = floored && scale == Scale::Said && overall < FLOOR_ON_TOPIC && said.restate >= RESTATES_MIN;
    if says_nothing {
        notes.push(tx.says_nothing_new());
    } else if floored {
        overall = overall.max(FLOOR_ON_TOPIC);
    }
    overall = overall.min(inaccuracy_cap(&mut out, inp.answer, behavioral, tx));
    if !notes.is_empty() {
        out.strengths.clear();
        out.accuracy.detail = format!("{}{}{}", notes.join(tx.sep()), tx.sep(), out.accuracy.detail);
    }
    let too_short = non_answer || u < ONE_LINER_UNITS || says_nothing;
    out.improvement = improvement(&out, &signals, tx, relevant, (too_short, non_answer, vague.is_some()), inp.question);
    out.overall = overall;
    out.raw = raw;
    out.uncapped = uncapped;
    out.band =
        answer_band(overall, lowest(relevant, non_answer, u < ONE_LINER_UNITS || says_nothing), inp.lang).to_string();
    out.relevant = relevant;
    out.relevance = relevance.map(|p| (p * 100.0).round() as u32);
    out
}

/// Countable signals of an answer.
struct Signals {
    numbers: usize,
    experience: usize,
    trade_offs: usize,
    examples: usize,
    terms: std::collections::HashSet<String>,
}

impl Signals {
    fn read(answer: &str, normalized: &str) -> Signals {
        Signals {
            numbers: count_numbers(normalized),
            experience: count_phrases(normalized, EXPERIENCE),
            trade_offs: count_phrases(normalized, TRADE_OFFS),
            examples: count_phrases(normalized, EXAMPLES),
            terms: term_set(answer),
        }
    }
}

/// Coverage of the reference (0-1): its key points by words or meaning (a list of terms gets half
/// the word credit) and its terms recalled; with the key points made and missed, as shown.
fn coverage(
    inp: &Inputs<'_>,
    e: &Entry,
    normalized: &str,
    sig: &Signals,
    list_like: bool,
) -> (f64, Vec<String>, Vec<String>) {
    let mut covered = Vec::new();
    let mut missing = Vec::new();
    let mut total = 0.0;
    for (i, kp) in e.key_points.iter().enumerate() {
        let mut level = key_point_level(kp, normalized, &sig.terms, inp.evidence.key_points.get(i).copied());
        if list_like {
            level *= 0.5;
        }
        total += level;
        let shown = kp.point_in(inp.lang).to_string();
        if level >= 0.6 {
            covered.push(shown);
        } else {
            missing.push(shown);
        }
    }
    let kp_score = (total / e.key_points.len().max(1) as f64 / COVERAGE_FULL).min(1.0);
    let score = match inp.evidence.reference_recall {
        Some(r) => (1.0 - RECALL_SHARE) * kp_score + RECALL_SHARE * recall_level(r),
        None => kp_score,
    };
    (score, covered, missing)
}

fn with_reference(
    inp: &Inputs<'_>,
    e: &Entry,
    normalized: &str,
    sig: &Signals,
    behavioral: bool,
    list_like: bool,
) -> ContentScore {
    let tx = Texts(inp.lang);
    let (kp_score, covered, missing) = coverage(inp, e, normalized, sig, list_like);
    let star = behavioral.then(|| star::check(inp.answer, inp.lang));
    let completeness_level = match &star {
        Some(s) => STAR_WEIGHT * s.level + (1.0 - STAR_WEIGHT) * kp_score,
        None => kp_score,
    };
    let mut detail = tx.covers(covered.len(), e.key_points.len(), &missing);
    if let Some(r) = inp.evidence.reference_recall {
        detail = format!("{}{}{detail}", tx.recalls(r), tx.sep());
    }
    if let Some(s) = star.as_ref().filter(|s| !s.missing.is_empty()) {
        detail = format!("{detail}{}{}", tx.sep(), tx.star_missing(&s.missing));
    }
    let completeness = Scored { score: pct(completeness_level), detail };

    // Accuracy: closeness to the expert rather than the novice answer, plus points made, minus
    // misconceptions stated. The expert's terms are segmented once, for this and for depth.
    let expert_terms: std::collections::HashSet<String> =
        term_set(&format!("{}\n{}", e.expert_answer, e.expert_answer_en));
    let closeness = match (inp.evidence.expert, inp.evidence.novice) {
        (Some(x), Some(n)) => 1.0 / (1.0 + (-(x - n) / CLOSENESS_SCALE).exp()),
        _ => lexical_closeness(&sig.terms, &expert_terms, e),
    };
    let inaccuracies = super::inaccuracy::misconceptions(inp.answer, e, inp.lang);
    let acc = 45.0 + 30.0 * closeness + 25.0 * kp_score - MISTAKE_PENALTY * inaccuracies.len() as f64;
    let accuracy = Scored { score: pct(acc / 100.0), detail: tx.accuracy(closeness >= 0.5, inaccuracies.len()) };

    let used = sig.terms.iter().filter(|t| t.chars().count() >= 2 && expert_terms.contains(*t)).count();
    let depth = scored_depth(&Substance::read(inp.answer, Some(&expert_terms)), used, sig.trade_offs, tx);
    let strengths = covered.iter().take(2).map(|p| tx.makes_point(p)).collect();
    ContentScore {
        overall: 0,
        band: String::new(),
        relevant: true,
        relevance: None,
        completeness,
        depth,
        accuracy,
        practicality: Scored { score: 0, detail: String::new() },
        key_missing: missing,
        inaccuracies,
        strengths,
        improvement: String::new(),
        star_missing: star.map(|s| s.missing).unwrap_or_default(),
        analyzer: "rubric".into(),
        evidence: Vec::new(),
        feedback: None,
        note: None,
        kind: None,
        raw: 0.0,
        uncapped: 0.0,
        scale: Scale::Reference,
    }
}

fn without_reference(
    inp: &Inputs<'_>,
    sig: &Signals,
    scale: Scale,
    said: &super::unreferenced::Signals,
) -> ContentScore {
    let tx = Texts(inp.lang);
    let structure = count_phrases(&inp.answer.to_lowercase(), STRUCTURE);
    let star = (scale == Scale::Structure).then(|| star::check(inp.answer, inp.lang));
    // A technical answer covers what it says beyond the question (the grade model, 0-100); a
    // story, its STAR parts.
    let (level, mut detail) = match &star {
        Some(s) => (s.level, tx.no_reference(structure, said.new_terms as usize)),
        None => (said.overall() / 100.0, tx.no_reference_said(said.new_terms as usize)),
    };
    if let Some(s) = star.as_ref().filter(|s| !s.missing.is_empty()) {
        detail = format!("{detail}{}{}", tx.sep(), tx.star_missing(&s.missing));
    }
    ContentScore {
        overall: 0,
        band: String::new(),
        relevant: true,
        relevance: None,
        completeness: Scored { score: pct(level), detail },
        depth: scored_depth(&Substance::read(inp.answer, None), sig.terms.len() / 6, sig.trade_offs, tx),
        accuracy: Scored { score: 60, detail: tx.accuracy_unassessed() },
        practicality: Scored { score: 0, detail: String::new() },
        key_missing: Vec::new(),
        inaccuracies: Vec::new(),
        strengths: Vec::new(),
        improvement: String::new(),
        star_missing: star.map(|s| s.missing).unwrap_or_default(),
        analyzer: "rubric".into(),
        evidence: Vec::new(),
        feedback: None,
        note: None,
        kind: None,
        raw: 0.0,
        uncapped: 0.0,
        scale,
    }
}

/// Depth ([`depth`]) as a dimension, with what it counted.
fn scored_depth(sub: &Substance, expert_terms: usize, trade_offs: usize, tx: Texts) -> Scored {
    Scored {
        score: pct(depth(sub, expert_terms, trade_offs)),
        detail: tx.depth(sub.reasoning, expert_terms, trade_offs),
    }
}

fn practicality(sig: &Signals, tx: Texts) -> Scored {
    let p = 0.35 * ratio(sig.numbers as f64, 2.0)
        + 0.30 * ratio(sig.experience as f64, 1.0)
        + 0.20 * ratio(sig.trade_offs as f64, 1.0)
        + 0.15 * ratio(sig.examples as f64, 1.0);
    Scored { score: pct(p), detail: tx.practicality(sig.numbers, sig.experience, sig.trade_offs, sig.examples) }
}

/// Without vectors: shared distinctive terms with the expert answers against the novice answers.
fn lexical_closeness(a: &std::collections::HashSet<String>, ex: &std::collections::HashSet<String>, e: &Entry) -> f64 {
    let nv = term_set(&format!("{}\n{}", e.novice_answer, e.novice_answer_en));
    let only_ex = a.iter().filter(|t| ex.contains(*t) && !nv.contains(*t)).count() as f64;
    let only_nv = a.iter().filter(|t| nv.contains(*t) && !ex.contains(*t)).count() as f64;
    (only_ex + 1.0) / (only_ex + only_nv + 2.0)
}

fn improvement(
    out: &ContentScore,
    sig: &Signals,
    tx: Texts,
    relevant: bool,
    (too_short, gave_up, vague): (bool, bool, bool),
    asked: &str,
) -> String {
    let first_missing = out.key_missing.first().map(String::as_str);
    if !relevant {
        return tx.answer_the_question(asked);
    }
    if too_short {
        return tx.expand(gave_up, first_missing);
    }
    let mut parts = Vec::new();
    if vague {
        parts.push(tx.be_specific());
    }
    if let Some(kp) = first_missing {
        parts.push(tx.add_point(kp));
    }
    if let Some(m) = out.inaccuracies.first() {
        parts.push(tx.correct(m));
    }
    if let Some(s) = out.star_missing.first() {
        parts.push(tx.add_star(s));
    }
    if sig.numbers < 2 {
        parts.push(tx.add_number());
    } else if sig.trade_offs == 0 {
        parts.push(tx.add_trade_off());
    }
    tx.sentence(&parts)
}

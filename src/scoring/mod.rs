//! Scoring: the offline rubric analyzer for content (and, with recordings, delivery).
//! Deterministic: the same input gives the same numbers.

pub mod asked;
pub mod asks_story;
pub mod blend;
mod caps;
pub mod content;
pub mod coverage;
pub mod depth;
pub mod field;
pub mod habits;
pub mod inaccuracy;
pub mod kind;
pub mod matching;
pub mod narrative;
pub mod reference_only;
pub mod relevance;
pub mod scale;
pub mod signals;
pub mod speech;
pub mod star;
pub mod text;
pub mod unreferenced;
pub mod vague;
pub mod vector_model;

use crate::kb::evidence::Evidence;
use crate::kb::search::{KbSearch, SearchHit};
use crate::kb::KbError;
use crate::lang::Lang;
pub use asked::asking_part;
use asked::with_set_up;
use content::{analyze, ContentScore, Inputs};
use tokio_util::sync::CancellationToken;

/// Score `answer` to `question` against the reference entry `reference` (an index into the base's
/// entries), the evidence computed once here for every caller (the tool, the evaluation).
pub fn assess(
    kb: &KbSearch,
    question: &str,
    answer: &str,
    reference: Option<usize>,
    lang: Lang,
    cancel: &CancellationToken,
) -> Result<ContentScore, KbError> {
    assess_with_evidence(kb, question, answer, reference, lang, cancel).map(|(score, _)| score)
}

/// [`assess`], also returning the evidence it was judged on (the evaluation records it).
pub fn assess_with_evidence(
    kb: &KbSearch,
    question: &str,
    answer: &str,
    reference: Option<usize>,
    lang: Lang,
    cancel: &CancellationToken,
) -> Result<(ContentScore, Evidence), KbError> {
    assess_turn(kb, &Turn { question, answer, lang }, reference, false, cancel)
}

/// [`assess_with_evidence`]; `makes_near_points`: the answer makes the points of an entry near the
/// question ([`RESCUE_POINTS_MIN`]), so it addresses the question whatever the relevance model reads.
fn assess_turn(
    kb: &KbSearch,
    &Turn { question, answer, lang }: &Turn<'_>,
    reference: Option<usize>,
    makes_near_points: bool,
    cancel: &CancellationToken,
) -> Result<(ContentScore, Evidence), KbError> {
    let evidence = kb.evidence(question, answer, reference, cancel)?;
    let entry = reference.and_then(|i| kb.kb.entries.get(i));
    let asks_story = asks_story::asks_story(kb, question);
    let inputs =
        Inputs { question, answer, reference: entry, evidence: &evidence, asks_story, lang, makes_near_points };
    Ok((analyze(&inputs), evidence))
}

/// How many same-question candidates the answer may pick from.
pub const ALTERNATIVES: usize = 3;
/// How well (z over every expert answer of the base) an answer must fit the question as asked
/// to be scored with no reference when it misses the entry matched as the same question: the
/// match may be wrong. Chosen on the English long interview (`en_long_90min.vtt`): of 120 of its
/// answers moved to another of its questions, 2 reach 2.0 (the highest 2.04); of its 60 own
/// answers, 48 do. Held out, the Chinese one (`zh_long_70min.txt`): 0 of 90 moved, 21 of 45 own.
pub const OWN_FIT_MIN: f64 = 2.0;
/// The other way the match is doubted: the no-reference model says the answer addresses the
/// question as asked (at least this probability) while the entry, matched with less than
/// [`MATCH_SURE`], says it does not. The two disagree; the sure one wins, and the match is the
/// unsure one. Chosen on the fitting half of `data/eval/` (dump of `ivd eval`): of the answers
/// squashed against their first candidate, 7 sound or on-topic ones are freed (right answers to
/// reworded questions, good near-miss answers, weak answers to questions the base lacks) and 1
/// answer moved to another question or a wrong quiz option (0.3 and 0.8: 10 and 4). Kept when
/// that model was refitted on normalised fits: at 0.6, 3 more of 74 right answers to reworded
/// questions fall under 25 on the fitting half, for 3 more off-topic or moved answers caught.
/// Doubting every unsure match that misses (0.0) scores short quiz options without a reference,
/// where both a right and a wrong one sit at the same cap: fitting half, second quiz set 23 -> 22
/// of 47, margin 87.5% -> 85.9%, the first quiz set unchanged (20 of 25).
pub const DOUBT_ASKED_MIN: f64 = 0.4;
/// The match probability ([`matching::probability`]) from which the match is not doubted so.
pub const MATCH_SURE: f64 = 0.9;
/// Even a sure match is doubted when the answer is as sure to address the question as asked while
/// it reads as off-topic against the entry: an outside question worded like one of ours ("Why do
/// caches work? Name the two types of locality" matched to prompt caching at 0.91, "What is a unit
/// test?" to testing tool calls at 0.91) otherwise has its sound answers capped as off-topic. Not
/// for a behavioral question, which any story addresses. Set at [`MATCH_SURE`], the same bar for
/// both sides. Fitting half of `data/eval/`: one weak out-of-base answer freed from a wrong
/// reference, one off-topic answer let through (an embedding-model answer to "how did you choose
/// your vector database?"), nothing else moved; at 0.75 a distractor of the first quiz set was
/// freed too (20 -> 19 of 25). The graded sets outside our field: fitting halves unchanged
/// (Pearson 0.457), test halves 0.422 -> 0.432.
pub const DOUBT_SURE_ASKED: f64 = 0.9;
/// From this match probability the entry is the question asked, and no answer doubts it: not by
/// fitting the question's words better than the entry's wordings ([`matching::LEAD_MAX`]), nor
/// by fitting the question well ([`OWN_FIT_MIN`]), nor by surely addressing it
/// ([`DOUBT_SURE_ASKED`]). An answer to another question, or a wrong quiz option, otherwise
/// escapes the reference it misses and is scored as if the base lacked the question (92 for
/// another question's answer to "how should an agent replan?"; 58 for "any embedding model works
/// interchangeably"). Chosen on the fitting half of `data/eval/`: right answers 25+ above the
/// same answer given to another question 87.5% -> 89.1% of 64, near misses given their neighbour
/// 4 -> 5 of 43 (their good answers 92 -> 93, the weak 40 -> 12); at 0.98, 6 of 43 (the quiz
/// unchanged); at 0.95, 11 of 43. The matches behind the sound answers of `tests/verdicts.rs` to
/// outside questions worded like ours stand at 0.91.
pub const MATCH_CERTAIN: f64 = 0.99;
/// How close to the question (match probability, [`matching::probability`]) an entry must be for
/// an answer judged off-topic to name it as the one it answers ([`answered_entry`]): below the
/// same-question bar ([`matching::SAME_MIN`]), where a loose rewording of an entry's question
/// stands ("记忆模块上线前你会设计哪些离线指标？" to the entry on memory benchmarks, at 0.33).
/// Fitting half of `data/eval/` (dump of `ivd eval`): right answers to the base's held-out
/// wordings under 25, 4 of 74 -> 3 at 0.2 and at 0.3 (at 0.5 none freed). The fitting half does
/// not tell 0.2 from 0.3; 0.3, the nearer to the same-question bar, is kept.
pub const RESCUE_MATCH_MIN: f64 = 0.3;
/// How surely (the reference relevance model) the answer must address that entry. Fitting half:
/// the freed right answer addresses its entry at 1.000, a sound quiz option at 0.95; an answer
/// given to another question of the long English interview reached 0.82.
///
/// The no-reference model is not asked as well: a guard that it not rule the answer out for the
/// question as asked (0.2) was dropped at stop 52. It was added while closeness was explored at
/// 0.2; at 0.3 it kept out only sound answers: three marked quiz options, judged off-topic against
/// the question alone instead of scored against the entry they answer (fitting half: third set
/// 17 -> 18 of 42 ahead of the distractor, a first-set option 12 -> 25; test half: second set
/// 26 -> 27 of 33). Nothing else `ivd eval` reports moved, nor the blind interviews.
pub const RESCUE_RELEVANCE_MIN: f64 = 0.9;
/// Short of that, an answer that makes this share of a close entry's key points or more
/// ([`points_made`]), and is not ruled out for that entry (`relevance::RELEVANT_MIN`), addresses
/// the question: it is scored as on-topic with no reference, for the match cannot tell which of
/// the close entries is the one asked (naming the entry instead, a sound answer of my own to "给
/// 一个 Agent 从头设计一整套工具，你最看重哪几条？" took the entry on having too many tools, whose
/// points it half makes in passing). The relevance model ranks the answer's likeness to each
/// expert answer, and e5-small ranks a sound answer that makes several points in few words far
/// down: the blind interviews' "工具调用这块，如果让你给 Agent 设计一套工具，你会注意哪些点？"
/// (granularity, descriptions, JSON Schema and enums, lean results) stands 40th of 176 by meaning
/// against the tool-design entry, 0.494 by the model, and was judged off-topic (11) against the
/// DAG entry the match preferred, while it makes 3 of the tool-design entry's 6 points. Chosen on
/// that read answer. Key points are made by loose words and meaning: at a relevance of 0.3 instead
/// of the model's cut, an answer on provider-neutral code given to "What is speculative
/// decoding…?" made 3 of the hallucination entry's 5 points (JSON Schema, tools) at 0.30 and was
/// cleared (fitting half of `data/eval/`, right answers 25+ above it given to another question
/// 89.1% -> 87.5%). Of the sample transcripts, one answer moved: "换个话题，你们怎么评估这个 Agent
/// 的效果？" answered with a labelled test set, completion and tool-call rates, hand-off rate and a
/// weekly review, off-topic (22) against the benchmarks entry before, 76 now.
pub const RESCUE_POINTS_MIN: f64 = 0.5;

/// Score `answer` against the question's references (`hits`, best first, as
/// [`references`] gives them). Only entries that are the same question as the one asked
/// ([`matching::is_same`]) may be the reference; with none, the answer is scored against the
/// question alone. Of several, the answer picks the first it addresses; addressing none, it is
/// judged against the first — unless it fits the question as asked well ([`OWN_FIT_MIN`]), or
/// addresses it by the no-reference model while the match is unsure ([`DOUBT_ASKED_MIN`]) or
/// surely addresses it ([`DOUBT_SURE_ASKED`]), when the match, not the answer, is doubted and no
/// reference is used. An answer still judged off-topic may name, among the question's near
/// entries, the one it answers ([`answered_entry`]).
pub fn assess_among(
    kb: &KbSearch,
    question: &str,
    answer: &str,
    hits: &[SearchHit],
    lang: Lang,
    cancel: &CancellationToken,
) -> Result<(Option<usize>, ContentScore), KbError> {
    let turn = Turn { question, answer, lang };
    let m = assess_by_match(kb, &turn, hits, cancel)?;
    let (chosen, score) = (m.chosen, m.score);
    // A story question is answered by any story; a match certain of its entry is the question.
    let doubtful = !score.relevant && !m.story && !m.certain && !is_non_answer(answer);
    if !doubtful {
        return Ok((chosen, score));
    }
    Ok(answered_entry(kb, &turn, hits, chosen, cancel)?.unwrap_or((chosen, score)))
}

/// The question as asked, its answer and their language.
struct Turn<'a> {
    question: &'a str,
    answer: &'a str,
    lang: Lang,
}

/// A give-up ("不太清楚") names no entry, whatever its words fit.
fn is_non_answer(answer: &str) -> bool {
    signals::is_non_answer(&answer.to_lowercase(), signals::units(answer))
}

/// An answer judged off-topic may still name the entry it answers among the question's near
/// entries: a reworded question matched to its neighbour ("为什么说 LLM 的内在自我纠错不可靠？" to
/// why long-horizon tasks fail, not to Reflexion against self-checking), or to none. The entry is
/// taken when it is close to the question ([`RESCUE_MATCH_MIN`]) and the answer addresses it
/// surely ([`RESCUE_RELEVANCE_MIN`]); an answer that makes the points of one is on-topic with no
/// reference ([`RESCUE_POINTS_MIN`]).
fn answered_entry(
    kb: &KbSearch,
    &Turn { question, answer, lang }: &Turn<'_>,
    hits: &[SearchHit],
    chosen: Option<usize>,
    cancel: &CancellationToken,
) -> Result<Option<(Option<usize>, ContentScore)>, KbError> {
    let mut best: Option<(f64, usize, ContentScore)> = None;
    let mut near_points = false;
    for k in 0..hits.len() {
        let close = matching::probability(hits, k).is_some_and(|p| p >= RESCUE_MATCH_MIN)
            && hits[k].similarity.is_some_and(|s| s >= matching::SIMILARITY_MIN);
        let Some(i) = kb.position(&hits[k].id).filter(|&i| close && Some(i) != chosen) else { continue };
        let (s, e) = assess_with_evidence(kb, question, answer, Some(i), lang, cancel)?;
        let p = relevance::probability(&e, true).unwrap_or(0.0);
        let made = points_made(&kb.kb.entries[i], &s);
        tracing::debug!(
            "entry {} close to the question ({:?}): the answer addresses it at {p:.3}, makes {made:.2} of its points",
            hits[k].id,
            matching::probability(hits, k)
        );
        near_points |= made >= RESCUE_POINTS_MIN && p >= relevance::RELEVANT_MIN;
        if p >= RESCUE_RELEVANCE_MIN && best.as_ref().is_none_or(|(bp, _, _)| p > *bp) {
            best = Some((p, i, s));
        }
    }
    if let Some((_, i, s)) = best {
        return Ok(Some((Some(i), s)));
    }
    // On-topic, scored with no reference: judged on what it says.
    let turn = Turn { question, answer, lang };
    Ok(if near_points { Some((None, assess_turn(kb, &turn, None, true, cancel)?.0)) } else { None })
}

/// The share of `entry`'s key points an answer scored against it makes (0 for a behavioral
/// entry, whose points are one example story's, and for an imported bank's, whose points are
/// derived from a sentence or two).
fn points_made(entry: &crate::kb::Entry, score: &ContentScore) -> f64 {
    let points = entry.key_points.len();
    if points == 0 || entry.dimension == "behavioral" || entry.is_imported() {
        return 0.0;
    }
    points.saturating_sub(score.key_missing.len()) as f64 / points as f64
}

/// What the match decided, with what the answer may still say against it.
struct Matched {
    chosen: Option<usize>,
    score: ContentScore,
    story: bool,
    /// The chosen entry is matched with [`MATCH_CERTAIN`].
    certain: bool,
}

/// [`assess_among`] before the answer may name its entry: the match decides, the answer doubts.
fn assess_by_match(
    kb: &KbSearch,
    &Turn { question, answer, lang }: &Turn<'_>,
    hits: &[SearchHit],
    cancel: &CancellationToken,
) -> Result<Matched, KbError> {
    let (unreferenced, own_ev) = assess_with_evidence(kb, question, answer, None, lang, cancel)?;
    let (story, asked) = addresses_as_asked(kb, question, &own_ev);
    tracing::debug!(
        "no-reference evidence: fit {:?}, asked {:?}, terms {:?} -> {asked:?}",
        own_ev.question_fit,
        own_ev.asked_standing,
        own_ev.question_terms
    );
    // How surely an entry is the question asked.
    let match_p = |i: usize| {
        let id = kb.kb.entries.get(i).map(|e| e.id.as_str());
        hits.iter().position(|h| Some(h.id.as_str()) == id).and_then(|k| matching::probability(hits, k))
    };
    let certain = |i: usize| match_p(i).is_some_and(|p| p >= MATCH_CERTAIN);
    let candidates: Vec<usize> = matching::same_questions(hits)
        .into_iter()
        .filter_map(|h| kb.position(&h.id))
        .filter(|&i| {
            matching::written_as(&kb.kb.entries[i], question)
                || certain(i)
                || matching::answer_agrees(&own_ev, i)
                || !asked.is_some_and(|p| p >= matching::ADDRESSES_ASKED)
        })
        .take(ALTERNATIVES)
        .collect();
    log_candidates(hits);
    let done = |chosen: Option<usize>, score: ContentScore| {
        let certain = chosen.is_some_and(certain);
        Ok(Matched { chosen, score, story, certain })
    };
    let Some(&first) = candidates.first() else {
        return done(None, unreferenced);
    };
    let cut = |i: usize| relevance::threshold(true, kb.kb.entries.get(i).is_some_and(|e| e.is_imported()));
    let fits = |ev: &Evidence| relevance::probability(ev, true).is_none_or(|p| p >= cut(first));
    let (score, ev) = assess_with_evidence(kb, question, answer, Some(first), lang, cancel)?;
    if fits(&ev) {
        return done(Some(first), score);
    }
    // Another candidate only for an answer that addresses the question as asked: an answer to
    // something else would otherwise find, among several, the entry it does answer.
    let addresses_asked = asked.is_none_or(|p| p >= relevance::RELEVANT_MIN_NO_REFERENCE);
    let mut best: Option<(f64, usize, ContentScore)> = None;
    for &c in candidates.iter().skip(1).filter(|_| addresses_asked) {
        let (s, e) = assess_with_evidence(kb, question, answer, Some(c), lang, cancel)?;
        let p = relevance::probability(&e, true).unwrap_or(0.0);
        if p >= cut(c) && best.as_ref().is_none_or(|(bp, _, _)| p > *bp) {
            best = Some((p, c, s));
        }
    }
    if let Some((_, c, s)) = best {
        return done(Some(c), s);
    }
    // A certain match is the question asked: the answer is judged against it, however well it
    // fits the question's words.
    if certain(first) {
        return done(Some(first), score);
    }
    if own_ev.question_fit.is_some_and(|f| f >= OWN_FIT_MIN) {
        return done(None, unreferenced);
    }
    if asked.is_some_and(|p| p >= DOUBT_ASKED_MIN) && match_p(first).is_some_and(|p| p < MATCH_SURE)
        || asked.is_some_and(|p| p >= DOUBT_SURE_ASKED) && !story
    {
        return done(None, unreferenced);
    }
    done(Some(first), score)
}

fn log_candidates(hits: &[SearchHit]) {
    let listed = |same: bool| {
        (0..hits.len())
            .filter(|&k| matching::is_same(hits, k) == same)
            .map(|k| (hits[k].id.as_str(), hits[k].similarity, matching::probability(hits, k)))
            .collect::<Vec<_>>()
    };
    tracing::debug!("same-question candidates: {:?}; other hits: {:?}", listed(true), listed(false));
}

/// Whether the question asks for a story, and how surely the answer addresses it as asked (the
/// no-reference model; a story question's among the wider world's questions too).
fn addresses_as_asked(kb: &KbSearch, question: &str, ev: &Evidence) -> (bool, Option<f64>) {
    let story = asks_story::asks_story(kb, question);
    let p = if story { relevance::probability_for_story(ev) } else { relevance::probability(ev, false) };
    (story, p)
}

/// How surely a question digs into the pair before it, by meaning (`transcript::follow_up_model`),
/// with the base's embedder and its cache; None without vectors.
pub fn follow_up_meaning(kb: Option<&KbSearch>) -> impl Fn(&str, &str, &str) -> Option<f64> + '_ {
    let vectors = kb.and_then(|k| k.vectors.as_ref());
    move |q: &str, prev_q: &str, prev_a: &str| {
        let v = vectors?;
        crate::transcript::follow_up_model::probability_of(q, prev_q, prev_a, &|t| v.query_vector(t).ok(), &|t| {
            v.passage_vector(t).ok()
        })
    }
}

/// The whole verdict on an answer to a question as asked: the base searched for the question, the
/// reference chosen (or none), and the content score. What `analyze_content` and the evaluation
/// both run.
pub fn assess_question(
    kb: &KbSearch,
    question: &str,
    answer: &str,
    lang: Lang,
    cancel: &CancellationToken,
) -> Result<(Vec<SearchHit>, Option<usize>, ContentScore), KbError> {
    let whole = question;
    let question = asking_part(question);
    // An introduction or "when can you start?" is not matched to a technical entry that happens
    // to share its words ("自我介绍" and self-reflection).
    let hits = if kind::of(question).is_some() { Vec::new() } else { references(kb, question, cancel)? };
    let (mut chosen, mut score) = assess_among(kb, question, answer, &hits, lang, cancel)?;
    // A thin asking part is matched alone (with its set-up, "我们有个 Agent，能读用户上传的文档，
    // 也能帮用户发邮件。你怎么防 prompt 注入？" lost the entry on prompt injection), but judged with
    // the set-up it leans on when no entry fits the answer: alone, "How would you architect the
    // pipeline?" matched an entry on support agents, or none.
    if chosen.is_none() || !score.relevant {
        if let Some(set) = with_set_up(whole, question).filter(|s| s.len() > question.len()) {
            let (_, with_it) = assess_among(kb, set, answer, &[], lang, cancel)?;
            if chosen.is_none() || with_it.relevant {
                (chosen, score) = (None, with_it);
            }
        }
    }
    // An introduction or "when can you start?" that the base holds no entry for has no content
    // to miss: it is not scored on content (the report leaves it out of averages and plan).
    if chosen.is_none() {
        if let Some(k) = kind::of(question) {
            score.kind = Some(k);
            score.band = k.not_scored(lang).to_string();
            score.improvement = String::new();
            score.star_missing.clear();
            score.relevant = true;
        }
    }
    Ok((hits, chosen, score))
}

/// The base's candidate references for a question as asked, best first, each with how well its
/// expert answer fits the question (what tells the same question from a neighbour). A question
/// outside the base's field, or doubtfully of it, keeps of the entries inside it only those that
/// are the same question with the probability it needs ([`field::match_needed`]): the rest only
/// share its words or its shape.
pub fn references(kb: &KbSearch, question: &str, cancel: &CancellationToken) -> Result<Vec<SearchHit>, KbError> {
    let mut hits = kb.references_for(question)?;
    kb.answer_fit(question, &mut hits, cancel)?;
    if let Some(needed) = if hits.is_empty() { None } else { field::match_needed(kb, question) } {
        let keep: Vec<bool> = (0..hits.len())
            .map(|k| {
                let inside = kb.position(&hits[k].id).is_some_and(|i| field::entry_inside(kb, i));
                !inside || matching::probability(&hits, k).is_some_and(|p| p >= needed)
            })
            .collect();
        let mut keep = keep.into_iter();
        hits.retain(|_| keep.next().unwrap_or(true));
    }
    Ok(hits)
}

/// The entry asked about when the base holds the question (see [`matching`]).
pub fn same_question(hits: &[SearchHit]) -> Option<&SearchHit> {
    matching::same_question(hits)
}

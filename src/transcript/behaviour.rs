//! Roles from behaviour, for speakers no label or header names.
//!
//! Candidates talk most and in long turns; interviewers ask. Each speaker gets a
//! candidate-likeness from three measures together — share of the words, mean length of their
//! substantive turns relative to the longest, and the share of those turns that ask — so a
//! guest who talks most is the candidate even when the host's prompts carry no question mark.
//! The closing stretch where the candidate asks their own questions ("Do you have any questions
//! for us?" onwards) is left out of the measures, so it cannot flip the roles.

use std::collections::HashMap;

use super::phrases::{is_ack, is_closing_invite, is_question_sentence};
use super::roles::{Basis, Role};
use super::Transcript;
use crate::lang::counts;
use crate::lang::sentences;

/// One labelled speaker's measures.
pub(crate) struct Stats {
    pub name: String,
    pub turns: usize,
    /// Measured turns that are not acknowledgements.
    substantive: usize,
    questions: usize,
    /// Words, with Chinese characters counted at two-thirds of a word.
    units: f64,
    pub talk: Option<f64>,
}

pub(crate) struct Collected {
    pub speakers: Vec<Stats>,
    /// Index into `speakers` of every turn's speaker.
    pub turn_speaker: Vec<Option<usize>>,
}

/// A speaker's decided role.
#[derive(Clone, Copy)]
pub(crate) struct Decided {
    pub role: Role,
    pub confidence: f64,
    pub basis: Basis,
}

/// Weights of candidate-likeness: asking counts against, talking for.
const W_SHARE: f64 = 1.0;
const W_LENGTH: f64 = 0.5;
const W_ASKS: f64 = 0.8;
/// Likeness margin at which a behavioural role is certain.
const FULL_MARGIN: f64 = 0.5;
/// The closing invitation is looked for only after this share of the turns.
const CLOSING_FROM: f64 = 0.4;

/// Index of the turn that opens the candidate's questions at the end, if any.
pub(crate) fn closing_turn(t: &Transcript) -> Option<usize> {
    let from = (t.turns.len() as f64 * CLOSING_FROM) as usize;
    (from..t.turns.len()).find(|&i| is_closing_invite(&t.turns[i].text))
}

pub(crate) fn collect(t: &Transcript) -> Collected {
    let closing = closing_turn(t).unwrap_or(t.turns.len());
    let mut speakers: Vec<Stats> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut turn_speaker = Vec::with_capacity(t.turns.len());
    for (k, turn) in t.turns.iter().enumerate() {
        let Some(name) = turn.speaker.as_deref() else {
            turn_speaker.push(None);
            continue;
        };
        let i = *index.entry(name).or_insert_with(|| {
            speakers.push(Stats {
                name: name.to_string(),
                turns: 0,
                substantive: 0,
                questions: 0,
                units: 0.0,
                talk: None,
            });
            speakers.len() - 1
        });
        turn_speaker.push(Some(i));
        let s = &mut speakers[i];
        s.turns += 1;
        if let (Some(a), Some(b)) = (turn.start_s, turn.end_s) {
            if b >= a {
                *s.talk.get_or_insert(0.0) += b - a;
            }
        }
        if k >= closing {
            continue;
        }
        let sents = sentences(&turn.text);
        if sents.iter().all(|x| is_ack(x)) {
            continue;
        }
        s.substantive += 1;
        s.questions += usize::from(sents.iter().any(|x| is_question_sentence(x)));
        let (cjk, words) = counts(&turn.text);
        s.units += cjk as f64 / 1.5 + words as f64;
    }
    Collected { speakers, turn_speaker }
}

/// Candidate-likeness of every speaker.
fn likeness(c: &Collected) -> Vec<f64> {
    let total: f64 = c.speakers.iter().map(|s| s.units).sum::<f64>().max(1.0);
    let mean = |s: &Stats| s.units / s.substantive.max(1) as f64;
    let longest = c.speakers.iter().map(mean).fold(1.0, f64::max);
    c.speakers
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let asks = s.questions as f64 / s.substantive.max(1) as f64;
            // Whoever speaks first usually opens the interview: a nudge for close calls.
            let first = if i == 0 { 0.05 } else { 0.0 };
            W_SHARE * s.units / total + W_LENGTH * mean(s) / longest - W_ASKS * asks - first
        })
        .collect()
}

fn confidence(margin: f64) -> f64 {
    0.5 + 0.5 * (margin / FULL_MARGIN).clamp(0.0, 1.0)
}

/// Roles for every speaker: the fixed ones as given, then exactly one candidate (the most
/// candidate-like unless one is fixed), the rest interviewers.
pub(crate) fn assign(c: &Collected, fixed: &[Option<(Role, Basis)>]) -> Vec<Decided> {
    let like = likeness(c);
    let n = c.speakers.len();
    let fixed_candidate = fixed.iter().position(|f| matches!(f, Some((Role::Candidate, _))));
    let open: Vec<usize> = (0..n).filter(|&i| fixed[i].is_none()).collect();
    let candidate = fixed_candidate.or_else(|| {
        if n == 1 {
            // A lone speaker who mostly asks is an interviewer whose candidate was not transcribed.
            let s = &c.speakers[0];
            return (s.questions * 2 < s.substantive.max(1)).then_some(0);
        }
        open.iter().copied().max_by(|&a, &b| like[a].total_cmp(&like[b]).then(b.cmp(&a)))
    });
    (0..n)
        .map(|i| {
            if let Some((role, basis)) = fixed[i] {
                return Decided { role, confidence: 1.0, basis };
            }
            let best_other = |skip: usize| (0..n).filter(|&j| j != skip).map(|j| like[j]).fold(f64::MIN, f64::max);
            match candidate {
                Some(cand) if cand == i => {
                    let conf = if n == 1 { 0.5 } else { confidence(like[i] - best_other(i)) };
                    Decided { role: Role::Candidate, confidence: conf, basis: Basis::Behaviour }
                }
                Some(cand) => {
                    let mut conf = confidence(like[cand] - like[i]);
                    if fixed_candidate.is_some() {
                        // Someone else is the candidate for certain, and there is only one.
                        conf = conf.max(0.85);
                    }
                    Decided { role: Role::Interviewer, confidence: conf, basis: Basis::Behaviour }
                }
                None => Decided { role: Role::Interviewer, confidence: 0.5, basis: Basis::Behaviour },
            }
        })
        .collect()
}

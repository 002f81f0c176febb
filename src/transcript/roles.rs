//! Who is the interviewer and who the candidate.
//!
//! Names the user gave win, then a header that names them (`INTERVIEWEE: Margaret Chen`), then
//! role labels (`面试官`, `Interviewer 2`, `Q`, `候选人`, `Guest`). Everyone else is judged by
//! behaviour (see [`behaviour`]): share of the talk, length of turns and how often they ask.
//! Exactly one candidate; the other speakers are interviewers (panels, co-hosts). Text without
//! speakers gets one role per turn, from whether the turn asks.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{behaviour, header, Transcript};

pub use super::phrases::{is_ack, is_question_sentence, is_question_turn};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Interviewer,
    Candidate,
    Unknown,
}

/// One speaker as the report shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Speaker {
    /// Stable id within this transcript: S1, S2, … in order of first appearance.
    pub id: String,
    /// The label the input gave this speaker; null when the input names none.
    pub name: Option<String>,
    pub role: Role,
    /// How sure the role is, 0.5 (a guess) to 1 (given, or named by the transcript).
    pub confidence: f64,
    /// What decided the role.
    pub basis: Basis,
    /// Number of turns (uninterrupted stretches of talk).
    pub turns: usize,
    /// Seconds spoken, where the input has times.
    pub talk_time_s: Option<f64>,
}

/// What decided a speaker's role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Basis {
    /// `--interviewer` / `--candidate`.
    Given,
    /// The transcript's header (`INTERVIEWEE: …`, `面试官：张三`).
    Header,
    /// A role label (`Interviewer`, `候选人`, `Q`).
    Label,
    /// Talk share, turn length and questions asked.
    Behaviour,
    /// No speaker labels: each turn's role comes from whether it asks.
    Questions,
}

/// Speakers with roles, and the role of every turn (same order as the transcript's turns).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SpeakerAnalysis {
    pub speakers: Vec<Speaker>,
    pub turn_roles: Vec<Role>,
}

impl SpeakerAnalysis {
    /// Speakers whose role is a guess.
    pub fn uncertain(&self) -> Vec<&Speaker> {
        self.speakers.iter().filter(|s| s.confidence < CONFIDENT).collect()
    }
}

/// The role a label names outright, if any.
pub fn explicit_role(label: &str) -> Option<Role> {
    let l = label.trim().to_lowercase();
    const INTERVIEWER_ZH: &[&str] = &["面试官", "考官", "招聘官", "招聘方", "提问者", "主面"];
    const CANDIDATE_ZH: &[&str] = &["候选人", "应聘者", "求职者", "面试者", "受访者", "被面试者", "应试者"];
    if CANDIDATE_ZH.iter().any(|w| l.contains(w)) || matches!(l.as_str(), "答" | "回答" | "我") {
        return Some(Role::Candidate);
    }
    if INTERVIEWER_ZH.iter().any(|w| l.contains(w)) || matches!(l.as_str(), "问" | "提问" | "问题") {
        return Some(Role::Interviewer);
    }
    let first = l.split(|c: char| !c.is_alphanumeric()).find(|w| !w.is_empty()).unwrap_or("");
    let first = first.trim_end_matches(|c: char| c.is_ascii_digit());
    let whole = l.trim_end_matches(|c: char| c.is_ascii_digit() || c.is_whitespace()) == first;
    match first {
        "interviewer" | "recruiter" | "question" | "hr" | "host" | "cohost" | "panelist" => Some(Role::Interviewer),
        "co" if l.starts_with("co-host") => Some(Role::Interviewer),
        // `Q`/`A` only alone (`Q:`, `A2`), not the initial of a name (`A. Patel`).
        "q" if whole => Some(Role::Interviewer),
        "a" if whole => Some(Role::Candidate),
        "candidate" | "interviewee" | "applicant" | "answer" | "guest" | "narrator" => Some(Role::Candidate),
        _ if l.starts_with("hiring manager") => Some(Role::Interviewer),
        _ => None,
    }
}

/// Names the user gave on the command line (`--interviewer NAME`, `--candidate NAME`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RoleHints {
    #[serde(default)]
    pub interviewers: Vec<String>,
    #[serde(default)]
    pub candidates: Vec<String>,
}

impl RoleHints {
    pub fn is_empty(&self) -> bool {
        self.interviewers.is_empty() && self.candidates.is_empty()
    }
}

/// A name given with `--interviewer` / `--candidate` that no speaker has.
#[derive(Debug, thiserror::Error)]
pub enum RoleError {
    #[error("no speaker is called \"{name}\"; the speakers are: {known}")]
    UnknownSpeaker { name: String, known: String },
    #[error("this transcript names no speakers, so --interviewer/--candidate cannot apply")]
    NoSpeakers,
}

/// Whether a name the user typed means this label: same text, or one of its words
/// (`--candidate chen` for `Margaret Chen`), without case.
pub fn name_matches(given: &str, label: &str) -> bool {
    let (g, l) = (given.trim().to_lowercase(), label.trim().to_lowercase());
    !g.is_empty() && (g == l || l.split_whitespace().any(|w| w == g) || g.split_whitespace().any(|w| w == l))
}

/// Below this confidence a role is reported as uncertain, and `ivd split` says how to settle it.
pub const CONFIDENT: f64 = 0.75;

/// Analyse speakers and assign a role to every turn.
pub fn detect(t: &Transcript) -> SpeakerAnalysis {
    analyse(t, &RoleHints::default())
}

/// As [`detect`], with roles the user settled by name.
pub fn detect_with(t: &Transcript, hints: &RoleHints) -> Result<SpeakerAnalysis, RoleError> {
    if hints.is_empty() {
        return Ok(detect(t));
    }
    if !t.has_speakers() {
        return Err(RoleError::NoSpeakers);
    }
    let labels: Vec<&str> = t.turns.iter().filter_map(|x| x.speaker.as_deref()).collect();
    for name in hints.interviewers.iter().chain(&hints.candidates) {
        if !labels.iter().any(|l| name_matches(name, l)) {
            let mut known: Vec<&str> = labels.clone();
            known.sort_unstable();
            known.dedup();
            return Err(RoleError::UnknownSpeaker { name: name.clone(), known: known.join(", ") });
        }
    }
    Ok(analyse(t, hints))
}

fn analyse(t: &Transcript, hints: &RoleHints) -> SpeakerAnalysis {
    if !t.has_speakers() {
        return detect_unlabeled(t);
    }
    let stats = behaviour::collect(t);
    let fixed: Vec<Option<(Role, Basis)>> = stats
        .speakers
        .iter()
        .map(|s| {
            if hints.candidates.iter().any(|n| name_matches(n, &s.name)) {
                Some((Role::Candidate, Basis::Given))
            } else if hints.interviewers.iter().any(|n| name_matches(n, &s.name)) {
                Some((Role::Interviewer, Basis::Given))
            } else if let Some(r) = header::role_of(&t.metadata, &s.name) {
                Some((r, Basis::Header))
            } else {
                explicit_role(&s.name).map(|r| (r, Basis::Label))
            }
        })
        .collect();
    let decided = behaviour::assign(&stats, &fixed);
    let speakers: Vec<Speaker> = stats
        .speakers
        .iter()
        .zip(&decided)
        .enumerate()
        .map(|(i, (s, d))| Speaker {
            id: format!("S{}", i + 1),
            name: Some(s.name.clone()),
            role: d.role,
            confidence: d.confidence,
            basis: d.basis,
            turns: s.turns,
            talk_time_s: s.talk.map(super::time::round_ms),
        })
        .collect();
    let turn_roles = stats.turn_speaker.iter().map(|s| s.map(|i| decided[i].role).unwrap_or(Role::Unknown)).collect();
    SpeakerAnalysis { speakers, turn_roles }
}

/// Without labels one voice cannot be told from another: every turn's role is inferred.
const UNLABELED_CONFIDENCE: f64 = 0.6;

/// No labels: a turn that asks is the interviewer's, any later one the candidate's (talk before the
/// first question — greetings — is nobody's we can tell); turns are counted as runs, since
/// consecutive units of one role are one stretch of talk.
fn detect_unlabeled(t: &Transcript) -> SpeakerAnalysis {
    let mut asked = false;
    let turn_roles: Vec<Role> = t
        .turns
        .iter()
        .map(|turn| {
            if is_question_turn(&turn.text) {
                asked = true;
                Role::Interviewer
            } else if asked {
                Role::Candidate
            } else {
                Role::Unknown
            }
        })
        .collect();
    let mut runs = [0usize; 2];
    let mut talk = [None::<f64>; 2];
    let mut prev: Option<Role> = None;
    for (turn, role) in t.turns.iter().zip(&turn_roles) {
        if *role == Role::Unknown {
            continue;
        }
        let k = usize::from(*role == Role::Candidate);
        if prev != Some(*role) {
            runs[k] += 1;
        }
        prev = Some(*role);
        if let (Some(a), Some(b)) = (turn.start_s, turn.end_s) {
            if b >= a {
                *talk[k].get_or_insert(0.0) += b - a;
            }
        }
    }
    let speakers = vec![
        Speaker {
            id: "S1".into(),
            name: None,
            role: Role::Interviewer,
            confidence: UNLABELED_CONFIDENCE,
            basis: Basis::Questions,
            turns: runs[0],
            talk_time_s: talk[0].map(super::time::round_ms),
        },
        Speaker {
            id: "S2".into(),
            name: None,
            role: Role::Candidate,
            confidence: UNLABELED_CONFIDENCE,
            basis: Basis::Questions,
            turns: runs[1],
            talk_time_s: talk[1].map(super::time::round_ms),
        },
    ];
    SpeakerAnalysis { speakers, turn_roles }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_roles() {
        assert_eq!(explicit_role("面试官"), Some(Role::Interviewer));
        assert_eq!(explicit_role("面试官A"), Some(Role::Interviewer));
        assert_eq!(explicit_role("面试者"), Some(Role::Candidate));
        assert_eq!(explicit_role("Interviewer 2"), Some(Role::Interviewer));
        assert_eq!(explicit_role("Q"), Some(Role::Interviewer));
        assert_eq!(explicit_role("A"), Some(Role::Candidate));
        assert_eq!(explicit_role("Priya Raman"), None);
        assert_eq!(explicit_role("Alex"), None);
    }
}

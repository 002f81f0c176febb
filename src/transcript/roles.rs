//! Who is the interviewer and who the candidate.
//!
//! Explicit role labels win (`面试官`, `Interviewer 2`, `Q`, `候选人`, `A`). Everyone else is judged
//! by behaviour: interviewers ask (question marks, interrogatives, prompts such as "tell me about"),
//! candidates talk longer. Panels work: exactly one candidate, the other askers are interviewers.
//! Text without speakers gets one role per turn, from whether the turn asks.

use std::collections::HashMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::lang::counts;
use super::text::{normalize, sentences};
use super::Transcript;

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
    /// Number of turns (uninterrupted stretches of talk).
    pub turns: usize,
    /// Seconds spoken, where the input has times.
    pub talk_time_s: Option<f64>,
}

/// Speakers with roles, and the role of every turn (same order as the transcript's turns).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SpeakerAnalysis {
    pub speakers: Vec<Speaker>,
    pub turn_roles: Vec<Role>,
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
    match first {
        "interviewer" | "recruiter" | "q" | "question" | "hr" | "host" | "panelist" => Some(Role::Interviewer),
        "candidate" | "interviewee" | "applicant" | "a" | "answer" => Some(Role::Candidate),
        _ if l.starts_with("hiring manager") => Some(Role::Interviewer),
        _ => None,
    }
}

/// Openers of prompts that ask without a question mark: "Tell me about…", "请介绍一下…".
const PROMPTS_ZH: &[&str] = &[
    "请你",
    "请介绍",
    "请说",
    "请讲",
    "请谈",
    "请描述",
    "请解释",
    "请问",
    "说说",
    "讲讲",
    "谈谈",
    "聊聊",
    "介绍一下",
    "描述一下",
    "解释一下",
    "能不能",
    "能否",
    "可不可以",
    "那你",
];
const PROMPTS_EN: &[&str] = &[
    "tell me",
    "walk me through",
    "describe",
    "explain",
    "can you",
    "could you",
    "would you",
    "how would you",
    "what would you",
    "why did you",
    "talk me through",
    "give me an example",
    "let's talk about",
];

/// A sentence that asks: ends with a question mark, or opens like a prompt and stays short.
pub fn is_question_sentence(s: &str) -> bool {
    let t = s.trim_end_matches(['"', '\'', '”', '’', ')', '）', '」', ' ']);
    if t.ends_with('?') || t.ends_with('？') {
        return true;
    }
    if t.chars().count() > 80 {
        return false;
    }
    let lower = t.trim_start().to_lowercase();
    PROMPTS_ZH.iter().any(|p| lower.starts_with(p))
        || PROMPTS_EN.iter().any(|p| lower.starts_with(p) && lower[p.len()..].starts_with(' '))
}

/// A turn that asks something in any of its sentences.
pub fn is_question_turn(text: &str) -> bool {
    sentences(text).iter().any(|s| is_question_sentence(s))
}

/// Back-channel and acknowledgement phrases, longest first where one begins another.
const ACKS: &[&str] = &[
    "that makes sense",
    "fair enough",
    "sounds good",
    "makes sense",
    "thank you",
    "all right",
    "got it",
    "i see",
    "mm-hmm",
    "uh-huh",
    "understood",
    "excellent",
    "interesting",
    "alright",
    "perfect",
    "thanks",
    "great",
    "right",
    "sure",
    "okay",
    "cool",
    "nice",
    "good",
    "ok",
    "好的谢谢",
    "没问题",
    "挺好的",
    "有意思",
    "明白了",
    "了解了",
    "嗯嗯",
    "好的",
    "明白",
    "了解",
    "可以",
    "谢谢",
    "不错",
    "很好",
    "收到",
    "是的",
    "嗯",
    "好",
    "行",
    "对",
];

/// Whether a sentence is nothing but acknowledgement ("好的，明白了。", "Okay, great. Thanks.").
pub fn is_ack(sentence: &str) -> bool {
    // Acknowledgements are short; skip the normalising work for real sentences.
    if sentence.len() > 80 {
        return false;
    }
    let norm = normalize(sentence);
    let mut rest = norm.as_str();
    if rest.is_empty() {
        return false;
    }
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return true;
        }
        let hit = ACKS.iter().find(|a| {
            rest.starts_with(**a) && {
                let after = &rest[a.len()..];
                // English phrases must end at a word boundary; Chinese ones need none.
                !a.is_ascii() || after.is_empty() || after.starts_with(' ')
            }
        });
        match hit {
            Some(a) => rest = &rest[a.len()..],
            None => return false,
        }
    }
}

/// Analyse speakers and assign a role to every turn.
pub fn detect(t: &Transcript) -> SpeakerAnalysis {
    if !t.has_speakers() {
        return detect_unlabeled(t);
    }
    struct Stats {
        name: String,
        turns: usize,
        questions: usize,
        acks: usize,
        units: f64,
        talk: Option<f64>,
    }
    let mut order: Vec<Stats> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut turn_speaker: Vec<Option<usize>> = Vec::with_capacity(t.turns.len());
    for turn in &t.turns {
        let Some(name) = turn.speaker.as_deref() else {
            turn_speaker.push(None);
            continue;
        };
        let i = *index.entry(name).or_insert_with(|| {
            order.push(Stats { name: name.to_string(), turns: 0, questions: 0, acks: 0, units: 0.0, talk: None });
            order.len() - 1
        });
        turn_speaker.push(Some(i));
        let s = &mut order[i];
        s.turns += 1;
        let sents = sentences(&turn.text);
        if sents.iter().all(|x| is_ack(x)) {
            s.acks += 1;
        } else if sents.iter().any(|x| is_question_sentence(x)) {
            s.questions += 1;
        }
        let (cjk, words) = counts(&turn.text);
        s.units += cjk as f64 + words as f64 * 1.5;
        if let (Some(a), Some(b)) = (turn.start_s, turn.end_s) {
            if b >= a {
                *s.talk.get_or_insert(0.0) += b - a;
            }
        }
    }
    let total_units: f64 = order.iter().map(|s| s.units).sum::<f64>().max(1.0);
    let mut roles: Vec<Option<Role>> = order.iter().map(|s| explicit_role(&s.name)).collect();
    let q_ratio = |s: &Stats| {
        let substantive = s.turns.saturating_sub(s.acks).max(1);
        s.questions as f64 / substantive as f64
    };
    // Interviewer-likeness: asking dominates; talking less and speaking first tip close calls.
    let score = |i: usize, s: &Stats| q_ratio(s) - 0.5 * s.units / total_units + if i == 0 { 0.05 } else { 0.0 };
    let unresolved: Vec<usize> = (0..order.len()).filter(|&i| roles[i].is_none()).collect();
    let has_candidate = roles.contains(&Some(Role::Candidate));
    if !unresolved.is_empty() {
        if !has_candidate && (order.len() >= 2 || q_ratio(&order[unresolved[0]]) < 0.5) {
            let cand = unresolved
                .iter()
                .copied()
                .min_by(|&a, &b| score(a, &order[a]).total_cmp(&score(b, &order[b])).then(b.cmp(&a)));
            if let Some(c) = cand {
                roles[c] = Some(Role::Candidate);
            }
        }
        let two = order.len() == 2;
        for &i in &unresolved {
            if roles[i].is_none() {
                let s = &order[i];
                roles[i] =
                    Some(if two || s.questions >= 1 || q_ratio(s) >= 0.2 { Role::Interviewer } else { Role::Unknown });
            }
        }
    }
    let roles: Vec<Role> = roles.into_iter().map(|r| r.unwrap_or(Role::Unknown)).collect();
    let speakers = order
        .iter()
        .enumerate()
        .map(|(i, s)| Speaker {
            id: format!("S{}", i + 1),
            name: Some(s.name.clone()),
            role: roles[i],
            turns: s.turns,
            talk_time_s: s.talk.map(super::time::round_ms),
        })
        .collect();
    let turn_roles = turn_speaker.iter().map(|s| s.map(|i| roles[i]).unwrap_or(Role::Unknown)).collect();
    SpeakerAnalysis { speakers, turn_roles }
}

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
            turns: runs[0],
            talk_time_s: talk[0].map(super::time::round_ms),
        },
        Speaker {
            id: "S2".into(),
            name: None,
            role: Role::Candidate,
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

    #[test]
    fn acks() {
        assert!(is_ack("好的，明白了。"));
        assert!(is_ack("Okay, great."));
        assert!(is_ack("That makes sense, thanks."));
        assert!(!is_ack("好的，那我们换个话题？"));
        assert!(!is_ack("Okay, so what is MCP?"));
        assert!(!is_ack("对了，你用过 LangGraph 吗？"));
        assert!(!is_ack("Goodness"));
    }

    #[test]
    fn questions() {
        assert!(is_question_sentence("What is MCP?"));
        assert!(is_question_sentence("请介绍一下你自己。"));
        assert!(is_question_sentence("Tell me about your last project."));
        assert!(!is_question_sentence("I built an agent for customer support."));
    }
}

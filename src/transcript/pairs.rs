//! Question/answer pairs from role-tagged turns.
//!
//! Consecutive interviewer turns merge into one question; candidate turns merge into its answer,
//! also across an interviewer's back-channel ("嗯。", "Mm-hmm."). Acknowledgements never become
//! questions, and a leading acknowledgement sentence is cut from the question it precedes. A
//! question that digs into the previous answer is marked as its follow-up.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::asking::asks;
use super::behaviour::closing_turn;
use super::follow_up::is_follow_up_with;
use super::phrases::{is_ack, is_backchannel, is_closing_invite, is_small_talk};
use super::roles::Role;
use super::text::join_turn;
use super::Transcript;
use crate::lang::sentences;

/// One question and its answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct QaPair {
    /// 1-based position in the interview.
    pub index: usize,
    pub question: String,
    pub answer: String,
    /// Start of the question, in seconds, where the input has times.
    pub start_s: Option<f64>,
    /// End of the answer, in seconds, where the input has times.
    pub end_s: Option<f64>,
    /// Index of the pair this question follows up on, if it digs into that answer.
    pub follow_up_of: Option<usize>,
}

struct Acc {
    text: String,
    start: Option<f64>,
    end: Option<f64>,
}

impl Acc {
    fn new(text: &str, start: Option<f64>, end: Option<f64>) -> Acc {
        Acc { text: text.trim().to_string(), start, end }
    }
    fn add(&mut self, text: &str, end: Option<f64>) {
        join_turn(&mut self.text, text);
        self.end = end;
    }
}

/// Split role-tagged turns (`roles[i]` is the role of `t.turns[i]`) into pairs. Small talk before
/// the first real question, and the candidate's own questions after "Do you have any questions
/// for us?", are not pairs.
pub fn split(t: &Transcript, roles: &[Role]) -> Vec<QaPair> {
    split_with(t, roles, &|_, _, _| None)
}

/// How surely a question digs into the pair before it (question, previous question, previous
/// answer), by meaning; None without vectors.
pub type FollowUpMeaning<'a> = &'a dyn Fn(&str, &str, &str) -> Option<f64>;

/// [`split`], follow-ups told by the rules and by `meaning` (`follow_up_model`).
pub fn split_with(t: &Transcript, roles: &[Role], meaning: FollowUpMeaning<'_>) -> Vec<QaPair> {
    let mut pairs: Vec<QaPair> = Vec::new();
    let mut question: Option<Acc> = None;
    let mut answer: Option<Acc> = None;
    // Only the interviewer's invitation ends the interview proper.
    let closing = closing_turn(t)
        .and_then(|from| {
            (from..t.turns.len())
                .find(|&i| roles.get(i) == Some(&Role::Interviewer) && is_closing_invite(&t.turns[i].text))
        })
        .unwrap_or(t.turns.len());
    let roles = roles.iter().chain(std::iter::repeat(&Role::Unknown));
    for (turn, role) in t.turns[..closing].iter().zip(roles) {
        match role {
            Role::Interviewer => {
                let asked = strip_leading_acks(&turn.text);
                if asked.is_empty() {
                    continue; // an acknowledgement or back-channel
                }
                if answer.is_some() {
                    close(&mut pairs, question.take(), answer.take(), meaning);
                }
                match question.as_mut() {
                    Some(q) => q.add(asked, turn.end_s),
                    None => question = Some(Acc::new(asked, turn.start_s, turn.end_s)),
                }
            }
            Role::Candidate => {
                if question.is_none() || answer.is_none() && is_backchannel(&turn.text) {
                    continue; // talk before the first question, or "Mm-hmm" while it is asked
                }
                match answer.as_mut() {
                    Some(a) => a.add(&turn.text, turn.end_s),
                    None => answer = Some(Acc::new(&turn.text, turn.start_s, turn.end_s)),
                }
            }
            Role::Unknown => {}
        }
    }
    close(&mut pairs, question, answer, meaning);
    drop_opening_small_talk(pairs)
}

fn close(pairs: &mut Vec<QaPair>, question: Option<Acc>, answer: Option<Acc>, meaning: FollowUpMeaning<'_>) {
    let Some(q) = question else { return };
    // A turn that asks nothing is not a question: a closing remark with no answer ("Thanks, we'll
    // be in touch."), thanks the candidate answers in kind, or a remark in the middle of an answer
    // ("That's the code I write.", "It does, it does."), after which the candidate goes on: the
    // rest belongs to the answer it interrupted.
    if !asks(&q.text) {
        if answer.is_none() || is_farewell(&q.text) {
            return;
        }
        // A remark the candidate only reacts to ("Yeah, to be fair our routing is still pretty
        // manual too." / "Yeah, I feel like everyone's is, kind of.") is an exchange of remarks:
        // kept as a question, it was scored 2-5 and put first in the plan.
        if answer.as_ref().is_some_and(|a| is_reaction(&a.text)) {
            return;
        }
        // Only a short remark: a longer turn with no cue may still be a question whose mark the
        // speech-to-text dropped, and is kept as one, as before.
        if is_short_remark(&q.text) {
            if let (Some(a), Some(prev)) = (&answer, pairs.last_mut()) {
                join_turn(&mut prev.answer, &a.text);
                prev.end_s = a.end.or(prev.end_s);
                return;
            }
        }
    }
    let follow_up_of = pairs
        .last()
        .filter(|prev| {
            is_follow_up_with(&q.text, &prev.question, &prev.answer, || meaning(&q.text, &prev.question, &prev.answer))
        })
        .map(|p| p.index);
    let end = match &answer {
        Some(a) => a.end,
        None => q.end,
    };
    pairs.push(QaPair {
        index: pairs.len() + 1,
        question: q.text,
        answer: answer.map(|a| a.text).unwrap_or_default(),
        start_s: q.start,
        end_s: end,
        follow_up_of,
    });
}

/// A remark short enough to be an aside ("That's the code I write.", "好，这个挺有意思。").
fn is_short_remark(text: &str) -> bool {
    word_count(text) <= REMARK_MAX_WORDS
}

/// A reply short enough to be a reaction, not an answer ("Ha, yeah. Everything's a seven.",
/// "Okay, good to know.", "哈哈，是的。").
fn is_reaction(text: &str) -> bool {
    word_count(text) <= REACTION_MAX_WORDS
}

/// Words, or two CJK characters each.
fn word_count(text: &str) -> usize {
    let (cjk, words) = crate::lang::counts(text);
    words + cjk / 2
}

/// Words (or two CJK characters each) of the longest reply that is only a reaction: a sound answer
/// in a sentence ("Server-side, from the authenticated session, never from the model's
/// arguments.", "服务端用登录会话校验，不信任模型传进来的参数。") has more; "哈哈，对，这个确实，
/// 我们后面也在往那个方向走。" has ten.
const REACTION_MAX_WORDS: usize = 10;

/// Words (or two CJK characters each) of the longest aside an interviewer makes mid-answer: short,
/// because a longer turn with no cue is more often a question whose cue we do not know.
const REMARK_MAX_WORDS: usize = 6;

/// Thanks and goodbyes that end an interview or a show: short, and the thanks in the last
/// sentence ("感谢分享。下面聊一下系统设计。" moves on instead).
fn is_farewell(text: &str) -> bool {
    let (cjk, words) = crate::lang::counts(text);
    if words > 30 || cjk > 60 {
        return false;
    }
    let last = sentences(text).last().map(|s| s.to_lowercase()).unwrap_or_default();
    ["thank you", "thanks for", "thanks so much", "goodbye", "bye", "take care", "谢谢", "感谢", "再见", "辛苦了"]
        .iter()
        .any(|p| last.contains(p))
}

/// Remove acknowledgement sentences at the start of an interviewer turn.
pub fn strip_leading_acks(text: &str) -> &str {
    for s in sentences(text) {
        if !is_ack(s) {
            let at = s.as_ptr() as usize - text.as_ptr() as usize;
            return text[at..].trim();
        }
    }
    ""
}

/// Share of the pairs, from the start, that may be small talk.
const OPENING_SHARE: f64 = 0.25;
/// A reply this long is an answer, not small talk.
const REAL_ANSWER_WORDS: usize = 40;
const REAL_ANSWER_CJK: usize = 80;

/// Drop the greetings, line checks and introductions before the interview proper. When an
/// early question opens it ("Let's start with…", "正式开始", "Walk us through…") and every pair
/// before it got only a short reply, those pairs were small talk; otherwise only leading
/// pleasantries ("Can you hear me okay?") with short replies are dropped. A short interview's
/// first answers may be short too, so nothing else is.
fn drop_opening_small_talk(mut pairs: Vec<QaPair>) -> Vec<QaPair> {
    let cap = (pairs.len() as f64 * OPENING_SHARE).floor() as usize;
    let early = pairs.len().min(cap + 1);
    let start = match (0..early).find(|&i| opens_interview(&pairs[i].question)) {
        Some(m) if pairs[..m].iter().all(|p| short_reply(p) && chit_chat(&p.question)) => m,
        // An introduction answered at length before "Let's start with…" stays, but a line check
        // before it is still small talk ("Can you hear me okay?" / "Yes, fine.").
        _ => pairs.iter().take(cap).take_while(|p| is_small_talk(&p.question) && short_reply(p)).count(),
    };
    if start == 0 {
        return pairs;
    }
    pairs.drain(..start);
    for (i, p) in pairs.iter_mut().enumerate() {
        p.index = i + 1;
        p.follow_up_of = p.follow_up_of.and_then(|f| f.checked_sub(start)).filter(|&f| f >= 1);
    }
    pairs
}

/// A remark or a short question: what small talk is made of ("Did the link work okay?").
fn chit_chat(question: &str) -> bool {
    let asks: Vec<&str> = sentences(question).into_iter().filter(|s| super::phrases::is_question_sentence(s)).collect();
    let short = |s: &&str| {
        let (cjk, words) = crate::lang::counts(s);
        words <= 14 && cjk <= 32
    };
    asks.is_empty() || is_small_talk(question) || asks.iter().all(short)
}

fn short_reply(p: &QaPair) -> bool {
    let (cjk, words) = crate::lang::counts(&p.answer);
    words < REAL_ANSWER_WORDS && cjk < REAL_ANSWER_CJK
}

/// "Let's start with…", "first question", "先做个自我介绍", "正式开始", or a topic prompt.
fn opens_interview(question: &str) -> bool {
    const MARKERS: &[&str] = &[
        "let's start",
        "let's begin",
        "let's get started",
        "let's kick off",
        "let's dive in",
        "let's jump in",
        "let's get into",
        "first question",
        "to start with",
        "to begin with",
        "tell me about",
        "tell us about",
        "walk me through",
        "walk us through",
        "talk me through",
        "talk us through",
        "正式开始",
        "我们开始",
        "直接开始",
        "开始吧",
        "第一个问题",
        "先从",
        "自我介绍",
        "请介绍",
        "介绍一下你",
        "说说你",
        "讲讲你",
        "谈谈你",
    ];
    let lower = question.to_lowercase();
    MARKERS.iter().any(|m| lower.contains(m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::{Format, Mix, Turn};

    fn turn(s: &str, text: &str) -> Turn {
        Turn { speaker: Some(s.into()), text: text.into(), start_s: None, end_s: None }
    }

    /// Pairs of a labelled transcript whose speaker "I" interviews and "C" answers.
    fn split_labeled(language: Mix, turns: Vec<Turn>) -> Vec<QaPair> {
        let roles: Vec<Role> = turns
            .iter()
            .map(|x| if x.speaker.as_deref() == Some("I") { Role::Interviewer } else { Role::Candidate })
            .collect();
        let t = Transcript { format: Format::Labeled, language, turns, layout: None, metadata: Default::default() };
        split(&t, &roles)
    }

    #[test]
    fn merges_acks_and_follow_ups() {
        let p = split_labeled(
            Mix::Zh,
            vec![
                turn("I", "先介绍一下你自己。"),
                turn("I", "重点讲讲做过的 Agent 项目？"),
                turn("C", "我做过客服 Agent。"),
                turn("I", "嗯。"),
                turn("C", "用了 RAG。"),
                turn("I", "你刚才提到 RAG，召回率多少？"),
                turn("C", "大概 85%。"),
                turn("I", "好的，明白了。那我们换个话题，你怎么设计记忆？"),
                turn("C", "分层。"),
                turn("I", "好的。"),
                turn("I", "谢谢你的时间，今天就到这里。"),
            ],
        );
        assert_eq!(p.len(), 3);
        assert_eq!(p[0].question, "先介绍一下你自己。\n重点讲讲做过的 Agent 项目？");
        assert_eq!(p[0].answer, "我做过客服 Agent。\n用了 RAG。");
        assert_eq!(p[1].follow_up_of, Some(1));
        assert_eq!(p[2].question, "那我们换个话题，你怎么设计记忆？");
        assert_eq!(p[2].follow_up_of, None);
        assert!(!is_farewell("感谢分享。下面聊一下系统设计。"));
        assert!(is_farewell("Elena, thank you so much for coming on."));
    }

    #[test]
    fn a_line_check_goes_even_when_the_introduction_is_answered_at_length() {
        let long = "I spent four years on backend services in Python and Go at a logistics company and the \
                    last two on its applied AI team, where I built a support assistant over forty thousand \
                    documents and later an agent that looks up shipments and opens tickets through tools.";
        let mut turns = vec![
            turn("I", "Hi, thanks for joining us today. Can you hear me okay?"),
            turn("C", "Yes, I can hear you fine."),
            turn("I", "Great. Could you tell me a little about yourself?"),
            turn("C", long),
            turn("I", "Okay. Let's start with that assistant. How did you chunk the documents?"),
            turn("C", "By headings first, then about 512 tokens with some overlap."),
            turn("I", "How did you evaluate retrieval?"),
            turn("C", "Recall at five on two hundred labelled questions."),
            turn("I", "What did the reranker add?"),
            turn("C", "About ten points of precision for 150 milliseconds."),
            turn("I", "How do you monitor it in production?"),
            turn("C", "Traces per request and a weekly sample of failures."),
            turn("I", "What would you change today?"),
            turn("C", "Evaluate earlier, before tuning chunk sizes."),
        ];
        // Twelve pairs: "Let's start" then comes within the opening quarter.
        for topic in ["memory", "tool calling", "cost", "security", "latency"] {
            turns.push(turn("I", &format!("How do you approach {topic} in an agent?")));
            turns.push(turn("C", "It depends on the task; we measure first and change one thing at a time."));
        }
        let p = split_labeled(Mix::En, turns);
        assert_eq!(p.len(), 11, "{p:?}");
        assert!(p[0].question.contains("about yourself"), "{p:?}");
        assert_eq!(p[0].index, 1);
    }
}

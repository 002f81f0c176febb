//! Phrases that tell what a turn does: asks (question marks, prompts such as "tell me about"),
//! acknowledges ("好的，明白了。", "Mm-hmm."), makes small talk before the interview proper, or
//! opens the candidate's own questions at the end ("Do you have any questions for us?").

use super::text::normalize;
use crate::lang::sentences;

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
    "walk us through",
    "tell us",
    "talk us through",
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
    "absolutely",
    "exactly",
    "gotcha",
    "yeah",
    "yep",
    "wow",
    "mhm",
    "hmm",
    "oh",
    "好的谢谢",
    "没问题",
    "挺好的",
    "有意思",
    "明白了",
    "了解了",
    "嗯嗯",
    "嗯哼",
    "确实",
    "没错",
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
    "哦",
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

/// Sounds a listener makes without taking the floor: a candidate's "Mm-hmm." while the question
/// is still being asked does not start the answer. Narrower than [`is_ack`]: "Yes." answers.
pub fn is_backchannel(text: &str) -> bool {
    let norm = normalize(text);
    // Hesitation sounds (the lexicon's) and the listener's own: mm-hmm, uh-huh, 嗯哼, 哦.
    !norm.is_empty()
        && norm
            .split(' ')
            .all(|w| crate::lang::is_hesitation_sound(w) || matches!(w, "mm-hmm" | "mhm" | "uh-huh" | "嗯哼" | "哦"))
}

/// Pleasantries before the interview proper: the line check, how are you, the commute, the weather.
const SMALL_TALK: &[&str] = &[
    "can you hear me",
    "can you hear us",
    "can you see my screen",
    "can you see me",
    "how are you doing",
    "how are you today",
    "how's it going",
    "how is it going",
    "how's your day",
    "how is your day",
    "how was your day",
    "how was your weekend",
    "how's your week",
    "how is your week",
    "how's everybody",
    "how is everybody",
    "how's everyone",
    "how are things",
    "find the office",
    "find the place",
    "find the link",
    "where are you calling from",
    "calling in from",
    "joining us from",
    "where are you based",
    "where are you joining from",
    "how's the weather",
    "how is the weather",
    "is the audio",
    "is my audio",
    "am i audible",
    "ready to get started",
    "ready to start",
    "shall we get started",
    "shall we start",
    "shall we begin",
    "good to go",
    "do you need a minute",
    "can i get you",
    "coffee or water",
    "能听到吗",
    "能听见吗",
    "听得到吗",
    "听得见吗",
    "声音清楚吗",
    "声音可以吗",
    "网络还好吗",
    "能看到我",
    "最近怎么样",
    "最近忙吗",
    "最近还好吗",
    "今天方便吗",
    "现在方便吗",
    "吃饭了吗",
    "准备好了吗",
    "我们开始吧",
    "可以开始了吗",
    "路上顺利吗",
    "好找吗",
    "你在哪个城市",
];

/// Whether a question is small talk: every asking sentence is a pleasantry, and not much more
/// ("How are you handling retries in the loop?" is not).
pub fn is_small_talk(question: &str) -> bool {
    let asking: Vec<String> = sentences(question)
        .into_iter()
        .filter(|s| is_question_sentence(s))
        .map(|s| normalize(&s.replace('’', "'")))
        .collect();
    let pleasantry = |s: &String| {
        let bare = s.trim_start_matches(|c: char| !c.is_alphanumeric());
        ["how are you", "how are things", "你好吗"].iter().any(|p| bare.ends_with(p) && bare.len() <= p.len() + 12)
            || SMALL_TALK.iter().any(|p| {
                let (cjk, words) = crate::lang::counts(s);
                let (p_cjk, p_words) = crate::lang::counts(p);
                s.contains(p) && words <= p_words + 3 && cjk <= p_cjk + 8
            })
    };
    !asking.is_empty() && asking.iter().all(pleasantry)
}

/// The invitation that ends the interview proper and starts the candidate's questions.
const CLOSING: &[&str] = &[
    "any questions for us",
    "any questions for me",
    "questions for us",
    "questions for me",
    "anything you'd like to ask",
    "anything you would like to ask",
    "anything you want to ask",
    "what questions do you have",
    "what can i answer for you",
    "anything i can answer for you",
    "have any questions about the role",
    "any questions about the role",
    "any questions about the team",
    "你有什么想问我们的",
    "你有什么问题想问",
    "你有什么要问我们的",
    "你有什么想问的",
    "有什么想问我们的",
    "有什么想了解的",
    "你还有什么问题",
    "你有什么问题要问",
    "有没有什么想问的",
    "有什么问题想问",
    "反问环节",
];

/// Whether a turn invites the candidate's own questions: it asks, and one of its asking
/// sentences holds an invitation as whole words ("survey questions for users" does not).
pub fn is_closing_invite(text: &str) -> bool {
    sentences(text).iter().filter(|s| is_question_sentence(s)).any(|s| {
        let lower = s.to_lowercase();
        CLOSING.iter().any(|p| contains_words(&lower, p))
    })
}

/// `hay` contains `needle` not inside a longer word (Chinese needs no boundary).
fn contains_words(hay: &str, needle: &str) -> bool {
    if !needle.is_ascii() {
        return hay.contains(needle);
    }
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric());
    hay.match_indices(needle)
        .any(|(at, m)| !word(hay[..at].chars().next_back()) && !word(hay[at + m.len()..].chars().next()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acks() {
        assert!(is_ack("好的，明白了。"));
        assert!(is_ack("Okay, great."));
        assert!(is_ack("That makes sense, thanks."));
        assert!(is_ack("Yeah, wow."));
        assert!(!is_ack("好的，那我们换个话题？"));
        assert!(!is_ack("Okay, so what is MCP?"));
        assert!(!is_ack("对了，你用过 LangGraph 吗？"));
        assert!(!is_ack("Goodness"));
        assert!(is_backchannel("Mm-hmm."));
        assert!(!is_backchannel("Yes."));
    }

    #[test]
    fn questions_small_talk_and_closing() {
        assert!(is_question_sentence("What is MCP?"));
        assert!(is_question_sentence("请介绍一下你自己。"));
        assert!(is_question_sentence("Tell me about your last project."));
        assert!(!is_question_sentence("I built an agent for customer support."));
        assert!(is_small_talk("Hi Lena! Can you hear me okay?"));
        assert!(is_small_talk("你好，能听到吗？"));
        assert!(!is_small_talk("How are you handling retries in the agent loop?"));
        assert!(!is_small_talk("How are you approaching this design?"));
        assert!(!is_small_talk("Did you find the root cause?"));
        assert!(is_small_talk("Hi Lena, how are you?"));
        assert!(!is_small_talk("Tell me about yourself."));
        assert!(is_closing_invite("We have five minutes left. Do you have any questions for us?"));
        assert!(is_closing_invite("时间差不多了，你有什么想问我们的吗？"));
        assert!(!is_closing_invite("How would you write survey questions for users?"));
        assert!(!is_closing_invite("The hardest questions for me were about memory."));
    }
}

//! Whether an interviewer's turn asks anything. Speech-to-text drops most question marks ("so what
//! happens when the tool times out", "那工具超时的时候你们怎么处理"), and a question mark does not
//! always ask ("Who hasn't been burned by a flaky tool, right?"). Used where a turn either becomes
//! a scored question or stays a remark inside the answer it interrupts; role detection keeps the
//! narrower [`is_question_sentence`], since candidates ask themselves questions too ("为什么呢？").

use super::phrases::is_question_sentence;
use crate::lang::{is_cjk, sentences};

/// Words that open an English sentence without changing what it does.
const LEAD_IN: &[&str] = &["so", "and", "but", "okay", "ok", "well", "now", "alright", "right", "then", "um", "uh"];
/// Question words; they ask when an auxiliary or a subject follows ("what do you", "how many").
const WH: &[&str] = &["what", "how", "why", "when", "where", "which", "who", "whose"];
/// Auxiliaries: opening a sentence, or right after a question word, they ask.
const AUX: &[&str] = &[
    "do", "does", "did", "is", "are", "was", "were", "would", "will", "can", "could", "should", "have", "has", "had",
    "shall", "may", "might", "must",
];
/// After "how": degree words that ask ("how many", "how long").
const HOW_DEGREE: &[&str] = &["many", "much", "long", "often", "big", "fast", "large", "far", "well", "come", "about"];
/// Openers that ask with no question word or mark.
const ASKING_EN: &[&str] = &[
    "talk about",
    "share",
    "name",
    "list",
    "compare",
    "summarize",
    "summarise",
    "let's hear",
    "walk me through",
    "walk us through",
    "talk me through",
    "talk us through",
    "tell me",
    "tell us",
    "describe",
    "explain",
    "can you",
    "could you",
    "would you",
    "i'd like to hear",
    "i would like to hear",
    "i'd love to hear",
    "i would love to hear",
    "i'd like to know",
    "i would like to know",
    "i'd like you to",
    "i'm curious",
    "i am curious",
    "i want to hear",
    "i want to know",
    "i wonder",
    "i'm wondering",
    "suppose",
    "say ",
    "imagine",
    "let's say",
    "what about",
    "how about",
    "show me",
    "go through",
    "run me through",
    "give me",
    "help me understand",
    "take me through",
];
/// Tags that turn a statement into a remark asking for agreement, not an answer.
const TAGS: &[&str] = &[
    "right",
    "isn't it",
    "aren't they",
    "don't you think",
    "no",
    "huh",
    "eh",
    "wouldn't you say",
    "isn't that so",
    "don't they",
    "doesn't it",
    "yeah",
];
/// Chinese words that ask wherever they stand.
const ASKING_ZH: &[&str] = &[
    "怎么",
    "怎样",
    "如何",
    "为什么",
    "为啥",
    "什么",
    "哪些",
    "哪个",
    "哪里",
    "哪儿",
    "哪种",
    "多少",
    "多大",
    "多久",
    "多长",
    "几个",
    "是否",
    "有没有",
    "是不是",
    "能不能",
    "会不会",
    "要不要",
    "对不对",
    "可不可以",
    "行不行",
];
/// Openers that ask in Chinese without a question word.
const PROMPTS_ZH: &[&str] = &[
    "介绍一下",
    "介绍下",
    "说说",
    "谈谈",
    "聊聊",
    "描述一下",
    "解释一下",
    "分享一下",
    "讲一下",
    "说一下",
    "聊一下",
    "谈一下",
    "讲讲",
    "举个",
    "举一个",
    "详细讲",
    "详细说",
    "展开讲",
    "展开说",
    "我想了解",
    "想了解一下",
    "想听听",
    "我想听",
    "你觉得",
    "你认为",
    "你怎么看",
    "假设",
    "假如",
    "如果让你",
    "如果你",
    "那如果",
];
/// What, before a Chinese question word, makes it part of a statement ("我也不知道为什么…").
const NOT_ASKING_ZH: &[&str] =
    &["不知道", "不清楚", "不管", "无论", "不论", "没什么", "不为什么", "说不上", "搞不懂", "不明白", "知道为什么"];
/// Chinese question words that are part of a statement when these follow them.
const STATEMENT_TAILS_ZH: &[&str] = &["什么都", "什么的", "怎么说呢", "怎么都", "哪儿都", "哪里都", "多少都"];

/// Whether the turn asks something in any of its sentences.
pub fn asks(text: &str) -> bool {
    sentences(text).iter().any(|s| sentence_asks(s))
}

/// Whether one sentence asks.
pub fn sentence_asks(s: &str) -> bool {
    let t = s.trim().trim_end_matches(['"', '\'', '”', '’', ')', '）', '」', ' ', '.', '。', '!', '！', '…']);
    if t.is_empty() {
        return false;
    }
    let marked = t.ends_with('?') || t.ends_with('？');
    if t.chars().any(is_cjk) {
        return marked || chinese_asks(t);
    }
    let lower = t.to_lowercase().replace('’', "'");
    let words: Vec<&str> =
        lower.split(|c: char| !(c.is_alphanumeric() || c == '\'')).filter(|w| !w.is_empty()).collect();
    if marked {
        return !is_tag_remark(&lower, &words);
    }
    is_question_sentence(t) || english_asks(&lower, &words)
}

/// "That's the classic trade-off, isn't it?" — a statement with a tag: it asks for a nod.
fn is_tag_remark(lower: &str, words: &[&str]) -> bool {
    let body = lower.trim_end_matches(['?', ' ']);
    let Some((head, tag)) = body.rsplit_once(',') else { return false };
    let tag = tag.trim();
    let mut w = words.iter().skip_while(|w| LEAD_IN.contains(w)).copied();
    let (first, second) = (w.next().unwrap_or(""), w.next().unwrap_or(""));
    // "What did you pick, right?" still asks; "Who hasn't been burned…, right?" does not.
    let asks_itself = AUX.contains(&first) || WH.contains(&first) && AUX.contains(&second);
    TAGS.contains(&tag) && !head.trim().is_empty() && !asks_itself
}

fn english_asks(lower: &str, words: &[&str]) -> bool {
    let skip = words.iter().take_while(|w| LEAD_IN.contains(w)).count();
    let w = &words[skip..];
    let Some(&first) = w.first() else { return false };
    let second = w.get(1).copied().unwrap_or("");
    let rest = w.iter().skip(1).copied().collect::<Vec<_>>().join(" ");
    if ASKING_EN.iter().any(|p| format!("{} ", w.join(" ")).starts_with(p)) || rest.is_empty() && first == "why" {
        return true;
    }
    // "Say the provider goes down for an hour" is a hypothetical; "say" alone is not.
    if lower.trim_start().starts_with("say ") && w.len() >= 4 {
        return true;
    }
    match first {
        "how" => AUX.contains(&second) || HOW_DEGREE.contains(&second) || second == "you" || second == "would",
        "why" => !matches!(second, "we" | "i" | "it's" | "this"),
        f if WH.contains(&f) => AUX.contains(&second) || second == "happens" || second == "happened" || second == "if",
        // "Do you…", "Have you…", "Is there…": inversion asks.
        f if AUX.contains(&f) => matches!(second, "you" | "we" | "they" | "there" | "it" | "that" | "this" | "your"),
        _ => false,
    }
}

fn chinese_asks(t: &str) -> bool {
    let end = t.trim_end_matches(['。', '，', ',', ' ']);
    if ["吗", "呢", "么", "嘛"].iter().any(|p| end.ends_with(p)) && !end.ends_with("怎么说呢") {
        return true;
    }
    // "先简单介绍一下…", "那你再讲讲…": the prompt after a leading adverb or two.
    let bare = t.trim_start_matches(|c: char| "那先再就你请简单来然后好的，, ".contains(c));
    if PROMPTS_ZH.iter().any(|p| t.starts_with(p) || bare.starts_with(p)) {
        return true;
    }
    ASKING_ZH.iter().any(|w| {
        t.match_indices(w).any(|(at, _)| {
            let (before, upto, from) = (&t[..at], &t[..at + w.len()], &t[at..]);
            !NOT_ASKING_ZH.iter().any(|n| upto.ends_with(n) || before.contains(n))
                && !STATEMENT_TAILS_ZH.iter().any(|n| from.starts_with(n))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unmarked_questions_ask() {
        for q in [
            "So what happens when the tool times out",
            "I'm curious how you handled rate limits there.",
            "Say the provider goes down for an hour. What does your system do",
            "how many requests per second did it take",
            "那工具超时的时候你们怎么处理",
            "讲一下你们 RAG 的整体链路",
            "效果怎么样",
            "那后来呢",
            "Talk about the first protein structure you worked on.",
            "先简单介绍一下你最近做的一个Agent项目。",
        ] {
            assert!(asks(q), "{q}");
        }
    }

    #[test]
    fn remarks_do_not_ask() {
        for s in [
            "That's the code I write.",
            "It does, it does.",
            "Who hasn't been burned by a flaky tool, right?",
            "That's the classic trade-off, isn't it?",
            "What we do here is mostly RAG.",
            "我也不知道为什么大家都这么做。",
            "好，这个挺有意思。",
            "这个没什么问题。",
        ] {
            assert!(!asks(s), "{s}");
        }
    }
}

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
/// Subjects after an opening auxiliary: "Did the team keep using it", "Is anyone on call".
const SUBJECTS: &[&str] = &[
    "you", "we", "they", "there", "it", "that", "this", "your", "the", "a", "an", "any", "anyone", "anybody",
    "anything", "someone", "somebody", "he", "she", "i", "those", "these", "their", "our", "his", "her", "its",
    "everyone", "people", "all", "other",
];
/// After "how": degree words that ask ("how many", "how long").
const HOW_DEGREE: &[&str] = &["many", "much", "long", "often", "big", "fast", "large", "far", "well", "come", "about"];
/// Openers that ask with no question word or mark.
const ASKING_EN: &[&str] = &[
    "talk about",
    "share how",
    "share what",
    "share why",
    "share an example",
    "share a time",
    "share your experience",
    "share your thoughts",
    "share more",
    "share some",
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
    // Tasks: "Write a function that…", "Design a rate limiter for…".
    "write a ",
    "write an ",
    "write me",
    "write some",
    "implement a",
    "implement an",
    "implement the",
    "design a ",
    "design an ",
    "design the",
    "sketch",
    "code up",
];
/// First-person requests that ask wherever they stand in the sentence: "We run forty services
/// on Kafka, so I want to understand how you'd design idempotent consumers".
const REQUESTS_EN: &[&str] = &[
    "i want to understand",
    "i'd like to understand",
    "i would like to understand",
    "i want to hear",
    "i want to know",
    "i'd like to know",
    "i'd like to hear",
    "i'd love to hear",
    "i'd love to know",
    "i'd be curious",
    "i'd be interested to hear",
    "i'm curious how",
    "i'm curious what",
    "i'm curious why",
    "i'm wondering",
    "help me understand",
];
/// Rhetorical openers: asked only to be answered by the one asking, or by nobody.
const RHETORICAL_EN: &[&str] = &[
    "who doesn't",
    "who hasn't",
    "who isn't",
    "who wouldn't",
    "who didn't",
    "who knew",
    "who cares",
    "why would anyone",
    "why would anybody",
    "isn't that always",
    "what could go wrong",
    "what could possibly go wrong",
    "guess what",
    "how cool is that",
    "how crazy is that",
];
/// Chinese rhetorical openers ("谁不喜欢…", "哪有…", "难道不是…").
const RHETORICAL_ZH: &[&str] = &["谁不", "谁没", "谁会不", "哪有", "难道不是", "可不是", "那可不", "何必", "何尝"];
/// Openers of the next sentence that show the speaker answered their own question.
const SELF_ANSWERS: &[&str] = &["nobody", "no one", "none", "nothing", "never", "就是", "答案是", "答案就是"];
/// Chinese tags asking for a nod: "这就是经典的 trade-off 嘛，是不是？".
const TAGS_ZH: &[&str] = &["对吧", "是吧", "是不是", "对不对", "不是吗", "没错吧", "你说是吧", "对不"];
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
    // Tasks: "写一下 LRU cache 吧".
    "写一下",
    "写个",
    "实现一下",
    "设计一下",
    "画一下",
    "比较一下",
    "对比一下",
    "分析一下",
    "估算一下",
    "推导一下",
];
/// What, before a Chinese question word, makes it part of a statement ("我也不知道为什么…").
const NOT_ASKING_ZH: &[&str] =
    &["不知道", "不清楚", "不管", "无论", "不论", "没什么", "不为什么", "说不上", "搞不懂", "不明白", "知道为什么"];
/// Quantities that state rather than ask ("好几个候选人", "或多或少").
const QUANTITIES_ZH: &[&str] = &[
    "好几个",
    "这几个",
    "那几个",
    "前几个",
    "后几个",
    "头几个",
    "或多或少",
    "多多少少",
    "没多少",
    "没多久",
    "就是为什么",
    "也是为什么",
];
/// Chinese question words that are part of a statement when these follow them.
const STATEMENT_TAILS_ZH: &[&str] = &["什么都", "什么的", "怎么说呢", "怎么都", "哪儿都", "哪里都", "多少都"];

/// Whether the turn asks something in any of its sentences.
pub fn asks(text: &str) -> bool {
    let all = sentences(text);
    all.iter().enumerate().any(|(i, s)| sentence_asks(s) && !all.get(i + 1).is_some_and(|n| answers_itself(s, n)))
}

/// "Why would anyone write their own tokenizer? Nobody, that's why." / "什么叫生产环境？就是…":
/// the next sentence answers the question, so the turn asks nothing of the candidate.
fn answers_itself(question: &str, next: &str) -> bool {
    // A question put to the candidate is not answered by whatever follows it ("你们的 QPS 大概多少？
    // 就是峰值的时候。" narrows it; "How would you do it? Nothing fancy, walk me through it.").
    let lower_q = question.to_lowercase();
    let to_you = question.contains(['你', '您'])
        || lower_q.split(|c: char| !c.is_alphanumeric() && c != '\'').any(|w| matches!(w, "you" | "your" | "you're"));
    if to_you {
        return false;
    }
    let next = next.trim_start().to_lowercase();
    // An English answer to oneself is short ("Nobody, that's why."); a Chinese one opens with it.
    let short = next.split_whitespace().count() <= 5;
    let opens = |p: &&str| {
        next.starts_with(p) && !next[p.len()..].starts_with(char::is_alphanumeric) && short
            || p.chars().any(is_cjk) && next.starts_with(p)
    };
    // "为什么呢？因为…": a bare "why" answered at once with "because".
    let bare_why = question.chars().count() <= 8 && (question.contains("为什么") || lower_q.starts_with("why"));
    SELF_ANSWERS.iter().any(opens)
        || next.contains("that's why")
        || bare_why && (next.starts_with("因为") || next.starts_with("because"))
}

/// Whether one sentence asks.
pub fn sentence_asks(s: &str) -> bool {
    let t = s.trim().trim_end_matches(['"', '\'', '”', '’', ')', '）', '」', ' ', '.', '。', '!', '！', '…']);
    if t.is_empty() {
        return false;
    }
    let marked = t.ends_with('?') || t.ends_with('？');
    if t.chars().any(is_cjk) {
        let bare = t.trim_start_matches(|c: char| "那就其实说实话，, ".contains(c));
        if RHETORICAL_ZH.iter().any(|p| t.starts_with(p) || bare.starts_with(p)) || rhetorical_which_zh(bare) {
            return false;
        }
        return if marked { !is_tag_remark_zh(t) } else { chinese_asks(t) };
    }
    let lower = t.to_lowercase().replace('’', "'");
    let words: Vec<&str> =
        lower.split(|c: char| !(c.is_alphanumeric() || c == '\'')).filter(|w| !w.is_empty()).collect();
    let opening = words.iter().skip_while(|w| LEAD_IN.contains(w)).copied().collect::<Vec<_>>().join(" ");
    if RHETORICAL_EN.iter().any(|p| opening.starts_with(p)) {
        return false;
    }
    if marked {
        return !is_tag_remark(&lower, &words);
    }
    let padded = format!(" {} ", words.join(" "));
    is_question_sentence(t)
        || english_asks(&lower, &words)
        || REQUESTS_EN.iter().any(|p| padded.contains(&format!(" {p} ")))
}

/// "哪个团队没被 flaky test 折磨过呢？": "which one hasn't" expects the answer "none".
fn rhetorical_which_zh(t: &str) -> bool {
    // "哪个方案不会丢数据？" asks; "哪个…没…过呢" expects "none".
    let end = t.trim_end_matches(['？', '?', '。', ' ']);
    ["哪个", "哪家", "哪一个", "哪位"].iter().any(|p| t.starts_with(p))
        && t.chars().take(12).any(|c| c == '没')
        && (end.ends_with("过呢") || end.ends_with('过'))
}

/// "谁都踩过这个坑，对吧？": a statement with a tag asks for a nod, unless it is about the
/// candidate ("你们用的是 Postgres，对吧？" asks them to confirm) or asks by itself.
fn is_tag_remark_zh(t: &str) -> bool {
    let body = t.trim_end_matches(['?', '？', ' ']);
    let Some((head, tag)) = body.rsplit_once(['，', ',']) else { return false };
    let tag = tag.trim().trim_end_matches(['呢', '啊', '呀']);
    TAGS_ZH.contains(&tag) && !head.trim().is_empty() && !head.contains('你') && !chinese_asks(head)
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
    // "You used Postgres for the checkpoints, right?" asks the candidate to confirm.
    let about_you = head
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .any(|w| matches!(w, "you" | "your" | "you're" | "you've"))
        && !head.contains("you know");
    TAGS.contains(&tag) && !head.trim().is_empty() && !asks_itself && !about_you
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
        // "Have a look at this." is an instruction.
        f if AUX.contains(&f) => SUBJECTS.contains(&second) && !(f == "have" && matches!(second, "a" | "an")),
        _ => false,
    }
}

fn chinese_asks(t: &str) -> bool {
    let end = t.trim_end_matches(['。', '，', ',', ' ']);
    // "吗" asks wherever it stands ("你用过 LangChain 吗还是都是自己写的"); "嘛" at the end
    // mostly states ("这就是经典的 trade-off 嘛").
    if t.contains('吗') || ["呢", "么"].iter().any(|p| end.ends_with(p)) && !end.ends_with("怎么说呢") {
        return true;
    }
    // "先简单介绍一下…", "进程和线程的区别，你简单说一下": a prompt opening a clause, after a
    // leading adverb or two.
    let prompt = |clause: &str| {
        let bare = clause.trim_start_matches(|c: char| "那先再就你请简单稍微可以来然后好的 ".contains(c));
        PROMPTS_ZH.iter().any(|p| clause.starts_with(p) || bare.starts_with(p))
    };
    // A later clause asks only when it turns to the candidate ("…，你简单说一下"); "那我们进入
    // 下一个环节，聊聊系统设计" announces the next part.
    let mut clauses = t.split(['，', ',', '；']).map(str::trim);
    let to_you = |c: &str| c.trim_start_matches(|c: char| "那再就".contains(c)).starts_with(['你', '请']);
    if clauses.next().is_some_and(prompt) || clauses.any(|c| to_you(c) && prompt(c)) {
        return true;
    }
    ASKING_ZH.iter().any(|w| {
        t.match_indices(w).any(|(at, _)| {
            let (before, upto, from) = (&t[..at], &t[..at + w.len()], &t[at..]);
            !NOT_ASKING_ZH.iter().any(|n| upto.ends_with(n) || before.contains(n))
                && !inside_quantity(t, at)
                && !STATEMENT_TAILS_ZH.iter().any(|n| from.starts_with(n))
        })
    })
}

/// Whether the byte `at` of `t` lies inside a quantity that states ("好几个候选人").
fn inside_quantity(t: &str, at: usize) -> bool {
    QUANTITIES_ZH.iter().any(|n| t.match_indices(n).any(|(start, m)| (start..start + m.len()).contains(&at)))
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
            "and did the team keep using it after you left",
            "We run forty services on Kafka, so I want to understand how you'd design idempotent consumers",
            "You used Postgres for the checkpoints, right?",
            "进程和线程的区别，你简单说一下",
            "你用过 LangChain 吗还是都是自己写的",
            "写一下 LRU cache 吧，用你熟悉的语言就行",
            "你们的 QPS 大概多少？就是峰值的时候。",
            "How would you roll it out? Nothing fancy, just walk me through it.",
            "哪个方案不会丢数据？",
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
            "Why would anyone write their own tokenizer? Nobody, that's why.",
            "Isn't that always the way? You fix one flaky test and two more show up.",
            "Share your screen when you're ready.",
            "谁不喜欢写 YAML 呢，对吧？",
            "这就是经典的 trade-off 嘛，是不是？",
            "哪个团队没被 flaky test 折磨过呢？",
            "这个问题我问过好几个候选人，每个人答得都不一样，挺正常的。",
            "什么叫生产环境？就是出了问题半夜会有人给你打电话的地方。",
            "好，那我们进入下一个环节，聊聊系统设计。",
            "Have a look at the diagram first.",
            "那可不吗，大家都踩过这个坑。",
        ] {
            assert!(!asks(s), "{s}");
        }
    }
}

//! Whether an answer to a question that asks for a story tells one. A story is the candidate's
//! own experience, something that happened: "I joined a call with them, reproduced it live…",
//! "去年双十一前一周，那天正好我值班…". An explanation of a technique ("Conflict resolution in
//! distributed databases is usually handled…", "LoRA 的思路是冻结预训练模型的权重…") speaks of no
//! one and of nothing that happened; a platitude, a habit or a hypothetical ("I believe in open
//! communication", "I would first…", "我一般会先多沟通") speaks of the candidate but tells nothing
//! that happened. Relevance by meaning does not see this: a technical answer on the question's
//! topic ("讲一次你做 Agent 项目时工具调用一直失败的经历" answered with how tool failures are
//! handled) stands close to it.
//!
//! Both tests lean toward leaving an answer alone, for a sound story capped is the costlier error:
//! an answer with no first person is taken for an explanation only when it tells no event either
//! (a past form, a time, 了: "Pager went off at 2am…", "双十一前一周，订单服务突然…，加了限流"), and
//! one that speaks of the candidate is taken for a habit only when it says so ("usually", "would",
//! "I think", "一般", "会") and tells no event (a story told in the present, "So I'm on call, I open
//! Grafana…", is left alone).
//!
//! Written on the fitting half of `data/eval/behavioral.jsonl`, the stories of the sample
//! transcripts and of the blind interviews' read part, then reviewed for the stories it would
//! wrongly cap. `data/eval/story_answers_apart.jsonl` was written after, and is reported.

use regex::Regex;
use std::sync::LazyLock;

/// What a story question's answer lacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Untold {
    /// No "I", "we" or "我", and no event told: it is about a technique, not the candidate, so it
    /// does not answer the question.
    NotOwn,
    /// The candidate speaks of habits, beliefs or what they would do: no example happened.
    NoExample,
}

impl Untold {
    /// The cap on the overall: an answer about no one is off-topic (at most 20, with the off-topic
    /// verdict); one with no example is weak at best (`behavioral.jsonl`'s writers put vague
    /// answers at 35-42, platitudes at 15-20).
    pub fn cap(self) -> u32 {
        match self {
            Untold::NotOwn => 20,
            Untold::NoExample => 40,
        }
    }
}

/// Irregular English past forms (and the negated past) a story is told in. Forms that are also
/// the present ("set", "put", "cut", "read") say nothing; "could" and "would" are how a
/// hypothetical is told.
const IRREGULAR_PAST: &[&str] = &[
    "was",
    "were",
    "had",
    "did",
    "got",
    "made",
    "took",
    "went",
    "built",
    "wrote",
    "rewrote",
    "found",
    "saw",
    "told",
    "said",
    "ran",
    "led",
    "spent",
    "left",
    "thought",
    "knew",
    "became",
    "began",
    "brought",
    "bought",
    "chose",
    "came",
    "felt",
    "gave",
    "kept",
    "lost",
    "met",
    "paid",
    "sent",
    "sold",
    "stood",
    "taught",
    "understood",
    "won",
    "broke",
    "caught",
    "drew",
    "drove",
    "fell",
    "fought",
    "flew",
    "forgot",
    "grew",
    "heard",
    "held",
    "hid",
    "hung",
    "hurt",
    "meant",
    "rode",
    "rose",
    "sat",
    "shut",
    "slept",
    "spoke",
    "stuck",
    "threw",
    "woke",
    "wore",
    "dealt",
    "sought",
    "struck",
    "dug",
    "sped",
    "froze",
    "tore",
    "oversaw",
    "overran",
    "undertook",
    "withdrew",
    "couldn't",
    "didn't",
    "wasn't",
    "weren't",
    "hadn't",
];
/// Words in "-ed" that are no past event ("need", "embed"), or say what someone is, not what
/// happened ("interested", "experienced").
const NOT_PAST: &[&str] = &[
    "need",
    "feed",
    "embed",
    "proceed",
    "seed",
    "exceed",
    "succeed",
    "speed",
    "breed",
    "bleed",
    "shed",
    "indeed",
    "interested",
    "concerned",
    "involved",
    "experienced",
    "skilled",
    "qualified",
    "based",
    "biased",
    "detailed",
];

static EN_FIRST_PERSON: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"\b(I|I'm|I've|I'd|I'll)\b|(?i)\b(we|my|our|me|us|we've|we'd|we'll|we're|myself|ourselves)\b").ok()
});
static EN_WORD: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"[A-Za-z']+").ok());
/// Times a story is anchored at.
static EN_ANCHOR: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\b((last|that|this past) (year|month|week|quarter|spring|summer|fall|autumn|winter|day|night|sprint)",
        r"|(years?|months?|weeks?|days?|hours?) (ago|later)|back (then|when)|at the time|the next (day|morning|week)",
        r"|on my first (day|week))\b"
    ))
    .ok()
});
/// What a habit, a belief or a hypothetical says of itself.
static EN_HABIT: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\b(usually|always|generally|normally|typically|often|tend to|would|i'd|we'd",
        r"|i believe|i think|i feel|in general|try to|make sure|whenever)\b"
    ))
    .ok()
});
static ZH_HABIT: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"一般|通常|平时|总是|往往|我们?会|就会|会先|我觉得|我认为|我相信|应该|尽量|如果").ok()
});
/// Chinese: when it happened and how it went.
static ZH_EVENT: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(concat!(
        r"当时|那时|那次|那天|当天|有一次|后来|去年|前年|上周|上个月|前一周|第二天|之前在|上家|上一家|刚入职|那段时间",
        r"|上一个项目|上个项目|之前的项目|一开始|上线后"
    ))
    .ok()
});
/// Chinese: the candidate doing something, or having done it (做过, 遇到过; not 处理过程).
static ZH_DID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(concat!(
        r"我们?(负责|推动|发现|决定|主导|接手|加入|入职)",
        r"|(做|遇到|碰到|踩|处理|负责|带|写|搭|用|试|改|优化|参与|经历|上线|落地)过([^程]|$)"
    ))
    .ok()
});
/// A question about someone else ("Did he ever sign up himself?") asks for no story of the
/// candidate's own.
static THIRD_PERSON: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?i)\b(he|she|him|his|her|hers|they|them|their)\b|他|她").ok());
static SECOND_PERSON: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"(?i)\byou|你|您").ok());

/// Words that ask for one example in so many words, whatever entry the question is matched to:
/// "Tell me about a time your RAG system failed" asks for a story, where "你在 RAG 项目里踩过哪些
/// 坑？", matched to a technical entry, asks for pitfalls, and a list of them answers it.
static ASKS_FOR_ONE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\b(a time (when|you|your|that)|tell me about (a|the|one) (time|situation|project|incident)",
        r"|(give|share) (me )?(an|one) example|walk me through (a|one) (time|situation|incident))\b",
        r"|讲一次|讲一个|说一次|说一个|说说一次|举个例子|举一个例子|的经历"
    ))
    .ok()
});

/// Whether `question` asks for one example in so many words (see [`ASKS_FOR_ONE`]).
pub fn asks_for_one(question: &str) -> bool {
    count(&ASKS_FOR_ONE, question) > 0
}

/// What the answer to `question`, which asks for a story, lacks as one, if anything.
pub fn untold(question: &str, answer: &str) -> Option<Untold> {
    let events = events(answer);
    if events > 0 {
        return None;
    }
    let first_person = count(&EN_FIRST_PERSON, answer) + answer.matches('我').count();
    if first_person > 0 {
        let says_habit = count(&EN_HABIT, answer) + count(&ZH_HABIT, answer) > 0;
        return says_habit.then_some(Untold::NoExample);
    }
    let asked = question.replace("其他", "");
    let about_someone_else = count(&THIRD_PERSON, &asked) > 0 && count(&SECOND_PERSON, &asked) == 0;
    (!about_someone_else).then_some(Untold::NotOwn)
}

/// Cues of something that happened: English sentences with a past form or a time anchor (with
/// the first person, or opening with the past form, its subject dropped: "Traced it to a missing
/// index."; an irregular past form anywhere), and the Chinese ones anywhere.
fn events(answer: &str) -> usize {
    let english = crate::kb::vectors::analysis_sentences(answer)
        .into_iter()
        .filter(|s| {
            let words = past_forms(s);
            count(&EN_ANCHOR, s) > 0
                || words.irregular
                || words.opens_with_past
                || (words.regular && count(&EN_FIRST_PERSON, s) > 0)
        })
        .count();
    english + completed_aspects(answer) + count(&ZH_EVENT, answer) + count(&ZH_DID, answer)
}

/// Which past forms a sentence holds.
struct PastForms {
    irregular: bool,
    regular: bool,
    opens_with_past: bool,
}

fn past_forms(sentence: &str) -> PastForms {
    let words: Vec<String> = EN_WORD
        .as_ref()
        .map(|re| re.find_iter(sentence).map(|m| m.as_str().to_lowercase()).collect())
        .unwrap_or_default();
    let irregular = |w: &str| IRREGULAR_PAST.contains(&w);
    let regular = |w: &str| w.len() > 4 && w.ends_with("ed") && !NOT_PAST.contains(&w);
    // Only an English sentence opens with its word: "Added dropout…", not "我们 added…".
    let opens = sentence.trim_start().starts_with(|c: char| c.is_ascii_alphabetic());
    PastForms {
        irregular: words.iter().any(|w| irregular(w)),
        regular: words.iter().any(|w| regular(w)),
        opens_with_past: opens && words.first().is_some_and(|w| irregular(w) || regular(w)),
    }
}

/// Chinese completed aspect 了, less the purpose 为了 and the 除了 of "besides" that open a
/// clause, and the verb 了解 ("understand") where nothing done comes before it ("做了解耦" keeps
/// its 了).
fn completed_aspects(answer: &str) -> usize {
    let chars: Vec<char> = answer.chars().collect();
    let opens_clause =
        |i: usize| i == 0 || !chars[i - 1].is_alphanumeric() || "我们先多去要会不没更和的能".contains(chars[i - 1]);
    (0..chars.len())
        .filter(|&i| chars[i] == '了')
        .filter(|&i| {
            let purpose = i >= 1 && matches!(chars[i - 1], '为' | '除') && opens_clause(i - 1);
            let understand = chars.get(i + 1) == Some(&'解') && opens_clause(i);
            !purpose && !understand
        })
        .count()
}

fn count(re: &LazyLock<Option<Regex>>, text: &str) -> usize {
    re.as_ref().map_or(0, |re| re.find_iter(text).count())
}

#[cfg(test)]
mod tests {
    use super::*;

    const ASKED: &str = "Tell me about a time you disagreed with your manager.";

    #[test]
    fn a_story_is_told_in_either_language() {
        let en = "Last year our checkout started timing out every Monday. I pulled a week of traces and saw the \
                  retries had no idempotency key, so I fixed the header and added a reconciliation job.";
        assert_eq!(untold(ASKED, en), None);
        let zh = "去年双十一前一周，那天正好我值班，转人工率突然涨到了 45%。我先看了监控，发现是上游接口超时。";
        assert_eq!(untold(ASKED, zh), None);
        let done = "我做过最得意的是把接口 p99 从 800ms 降到 120ms，主要是加缓存和改查询。";
        assert_eq!(untold("你做过最得意的一次性能优化是什么？", done), None);
    }

    #[test]
    fn a_story_told_any_way_is_one() {
        // The subject dropped, in either language.
        let en = "Last spring, on call for checkout. Pager went off at 2am and p99 spiked to 8s. Traced it to a \
                  missing index, added it, and latency recovered.";
        assert_eq!(untold(ASKED, en), None);
        let zh = "双十一大促前一周，订单服务 p99 突然飙到 2 秒。排查发现是连接池被打满，紧急扩容并加了限流，第二天恢复正常。";
        assert_eq!(untold(ASKED, zh), None);
        let lesson = "最大的教训是一开始没有做评测集，改 prompt 全凭感觉。后来补了评测集之后，迭代速度反而快了很多。";
        assert_eq!(untold("你觉得这个项目里最大的教训是什么？", lesson), None);
        // Told in the present, as people tell stories.
        let present = "So it's Black Friday and I'm on call. I open Grafana, I see retries piling up, so I add an \
                       idempotency key and the errors stop.";
        assert_eq!(untold(ASKED, present), None);
        // Regular verbs, and a 了 after a verb that ends like a purpose or an "understand".
        assert_eq!(untold(ASKED, "I fixed the flaky job, managed the rollout and we automated the checks."), None);
        assert_eq!(untold(ASKED, "我们对服务做了解耦，把超时从 30 秒改为了 8 秒。"), None);
        // Asked about someone else, the story is theirs.
        let theirs = "Not for a long time. He was afraid of losing the work. He signed his card in 1966.";
        assert_eq!(untold("Did he ever sign up himself?", theirs), None);
    }

    #[test]
    fn a_story_is_asked_for_in_so_many_words_or_not() {
        assert!(asks_for_one("讲一次你做 Agent 项目时工具调用一直失败的经历，你当时是怎么处理的？"));
        assert!(asks_for_one("Tell me about a time your RAG system gave wrong answers."));
        assert!(!asks_for_one("你在 RAG 项目里踩过哪些坑？"));
        assert!(!asks_for_one("How do you handle tool failures?"));
    }

    #[test]
    fn an_explanation_speaks_of_no_one() {
        let en = "Conflict resolution in distributed databases is usually handled with last-write-wins or with \
                  vector clocks, which detect concurrent updates.";
        assert_eq!(untold(ASKED, en), Some(Untold::NotOwn));
        let zh = "LoRA 的思路是冻结预训练模型的权重，在旁边加一个低秩分解的旁路，训练时只更新这两个小矩阵。";
        assert_eq!(untold(ASKED, zh), Some(Untold::NotOwn));
        // "其他" is nobody in particular.
        assert_eq!(untold("讲一次你推动其他部门配合的经历。", zh), Some(Untold::NotOwn));
    }

    #[test]
    fn habits_and_hypotheticals_tell_no_example() {
        let en = "I believe in open communication. Usually I would sit down with the person and try to understand \
                  their view, and I always try to keep it about the work.";
        assert_eq!(untold(ASKED, en), Some(Untold::NoExample));
        let zh = "我一般会先多沟通，了解对方的想法，为了解决问题大家一起想办法。";
        assert_eq!(untold(ASKED, zh), Some(Untold::NoExample));
    }
}

//! Whether an answer to a question that asks for a story tells one. A story is the candidate's
//! own experience, told in the past: "I joined a call with them, reproduced it live…", "去年双十一
//! 前一周，那天正好我值班…". An explanation of a technique ("Conflict resolution in distributed
//! databases is usually handled…", "LoRA 的思路是冻结预训练模型的权重…") speaks of no one; a
//! platitude or a habit ("I believe in open communication", "我一般会先多沟通") speaks of the
//! candidate but tells nothing that happened. Relevance by meaning does not see this: a technical
//! answer on the question's topic ("做 RAG 的时候，有没有遇到过效果怎么调都上不去的情况？"
//! answered with how RAG works) stands close to it.
//!
//! Written on the fitting half of `data/eval/behavioral.jsonl` and the stories of the sample
//! transcripts and of the blind interviews' read part. Over all of `behavioral.jsonl` (96 stories,
//! 48 told to their question and 48 to another), no story lacks the first person and the fewest
//! past cues any has is 2; of 48 technical answers 47 lack the first person, of 48 platitudes 38
//! and of 48 vague answers 14 have no past cue. The sample transcripts' stories have 5 or more.

use regex::Regex;
use std::sync::LazyLock;

/// What a story question's answer lacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Untold {
    /// No "I", "we" or "我" at all: it is about a technique, not the candidate, so it does not
    /// answer the question.
    NotOwn,
    /// The candidate speaks, but of habits, beliefs or what they would do: no example happened.
    NoExample,
}

impl Untold {
    /// The cap on the overall: an answer about no one is off-topic (under 25, with the off-topic
    /// verdict); one with no example is weak at best (the blind graders put vague answers at 35-42,
    /// platitudes at 15-20).
    pub fn cap(self) -> u32 {
        match self {
            Untold::NotOwn => 20,
            Untold::NoExample => 40,
        }
    }
}

/// Irregular English past forms (and the negated past) a story is told in; "could" and "would"
/// are left out: they are how a hypothetical is told.
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
    "couldn't",
    "didn't",
    "wasn't",
    "weren't",
    "hadn't",
];
/// Words in "-ed" that are no past tense, or are the participles explanations are written in.
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
    "based",
    "used",
    "called",
    "needed",
    "distributed",
    "structured",
    "embedded",
    "required",
    "compared",
    "related",
    "detailed",
    "advanced",
    "limited",
    "expected",
    "supported",
    "allowed",
    "preferred",
    "shared",
    "biased",
    "mixed",
    "fixed",
    "named",
    "labeled",
    "labelled",
    "sized",
    "rated",
    "scaled",
    "managed",
    "hosted",
    "trusted",
    "automated",
    "dedicated",
    "complicated",
    "sophisticated",
    "interested",
    "concerned",
    "involved",
    "experienced",
    "skilled",
    "qualified",
];

static EN_FIRST_PERSON: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?i)\b(i|we|my|our|me|us|i'm|i've|we've|i'd|we'd|i'll|we'll|we're)\b").ok());
static EN_WORD: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"[A-Za-z']+").ok());
/// Times a story is anchored at.
static EN_ANCHOR: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(last (year|month|week|quarter|spring|summer|fall|autumn|winter)|(years?|months?|weeks?|days?) (ago|later)|back (then|when)|at the time|that (day|week|night|quarter|morning|year))\b",
    )
    .ok()
});
/// Chinese: when it happened and how it ended, and the completed aspect (了, not 为了, 除了 or
/// 了解).
static ZH_PAST: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"当时|那时|那次|有一次|后来|去年|前年|之前在|上家|上一家|刚入职|那段时间|最后|结果|[为除]?了解?").ok()
});
/// Chinese: the candidate doing something, or having done it (做过, 遇到过: not 通过 or 超过).
static ZH_DID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(concat!(
        r"我们?(负责|推动|发现|决定|主导|做了|找了|提了|写了|搭了|拉了|花了|用了|改了|接手|加入|入职)",
        r"|(做|遇到|碰到|踩|处理|负责|带|写|搭|用|试|改|优化|参与|经历|上线|落地)过"
    ))
    .ok()
});

/// Chinese markers of an event told, which a story keeps when it drops its subject ("最大的教训是
/// 一开始没有做评测集……后来补了评测集之后，迭代速度反而快了很多"); not 了 or 最后, which explanations
/// use for steps.
static ZH_EVENT: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"当时|那时|那次|有一次|后来|去年|前年|之前在|上家|上一家|刚入职|那段时间").ok());
/// A question about someone else ("Did he ever sign up himself?") asks for no story of the
/// candidate's own.
static THIRD_PERSON: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?i)\b(he|she|him|his|her|hers|they|them|their)\b|他|她").ok());
static SECOND_PERSON: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"(?i)\byou|你|您").ok());

/// What the answer to `question`, which asks for a story, lacks as one, if anything.
pub fn untold(question: &str, answer: &str) -> Option<Untold> {
    let first_person = count(&EN_FIRST_PERSON, answer) + answer.matches('我').count();
    if first_person > 0 {
        return (past_cues(answer) == 0).then_some(Untold::NoExample);
    }
    let about_someone_else = count(&THIRD_PERSON, question) > 0 && count(&SECOND_PERSON, question) == 0;
    (!about_someone_else && count(&ZH_EVENT, answer) == 0).then_some(Untold::NotOwn)
}

/// English sentences that tell something the candidate did (the first person and a past form or a
/// time anchor), plus the Chinese cues of a past event, anywhere.
fn past_cues(answer: &str) -> usize {
    let english = crate::kb::vectors::analysis_sentences(answer)
        .into_iter()
        .filter(|s| count(&EN_FIRST_PERSON, s) > 0 && (count(&EN_ANCHOR, s) > 0 || has_past_form(s)))
        .count();
    // Of the matches with 了, only the bare aspect counts ("为了解决" is a purpose).
    let chinese = ZH_PAST
        .as_ref()
        .map_or(0, |re| re.find_iter(answer).filter(|m| m.as_str() == "了" || !m.as_str().contains('了')).count());
    english + chinese + count(&ZH_DID, answer)
}

fn has_past_form(sentence: &str) -> bool {
    let Some(re) = EN_WORD.as_ref() else { return false };
    re.find_iter(sentence).map(|m| m.as_str().to_lowercase()).any(|w| {
        IRREGULAR_PAST.contains(&w.as_str()) || (w.len() > 4 && w.ends_with("ed") && !NOT_PAST.contains(&w.as_str()))
    })
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
    fn an_explanation_speaks_of_no_one() {
        let en = "Conflict resolution in distributed databases is usually handled with last-write-wins or with \
                  vector clocks, which detect concurrent updates.";
        assert_eq!(untold(ASKED, en), Some(Untold::NotOwn));
        let zh = "LoRA 的思路是冻结预训练模型的权重，在旁边加一个低秩分解的旁路，训练时只更新这两个小矩阵。";
        assert_eq!(untold(ASKED, zh), Some(Untold::NotOwn));
    }

    #[test]
    fn a_story_without_its_subject_or_about_someone_else_is_one() {
        // Chinese drops the subject; the events are still told.
        let zh = "最大的教训是一开始没有做评测集，改 prompt 全凭感觉。后来补了评测集之后，迭代速度反而快了很多。";
        assert_eq!(untold("你觉得这个项目里最大的教训是什么？", zh), None);
        // Asked about someone else, the story is theirs.
        let en = "Not for a long time. He was afraid of losing the work. He signed his card in 1966.";
        assert_eq!(untold("Did he ever sign up himself?", en), None);
    }

    #[test]
    fn habits_and_hypotheticals_tell_no_example() {
        let en = "I believe in open communication. Usually I would sit down with the person and try to understand \
                  their view, and I always try to keep it about the work.";
        assert_eq!(untold(ASKED, en), Some(Untold::NoExample));
        let zh = "我一般会先多沟通，了解对方的想法，为了解决问题大家一起想办法。";
        assert_eq!(untold(ASKED, zh), Some(Untold::NoExample));
        // A participle an explanation is written in is no past event.
        assert_eq!(
            untold(ASKED, "I think a distributed, structured approach is needed here."),
            Some(Untold::NoExample)
        );
    }
}

//! Whether a question asks for a story: the candidate's own experience ("tell me about a time…",
//! "讲一次你…", "what are you most proud of?", "有没有做过…"), which is judged on the story's
//! structure, not on what it explains.
//!
//! By meaning: a logistic model on the question's e5 vector ([`STORY_MIN`]), fitted by
//! `scripts/fit_story_question.py`. Without vectors, by wording: phrases ([`CUES`])
//! gathered on the fitting half of `data/eval/behavioral.jsonl`, and forms ([`FORMS`]), the grammar
//! of asking after one's past in either language ("have you (ever) + past participle", "something
//! you made", "有没有…过", "…过…吗", "你…过的"). Interviewers word these questions without end
//! ("If I called up your last manager, what would they say?", "你压力最大的那段时间是什么情况？").
//! `data/eval/story_questions_heldout.jsonl` was written apart and read by nothing fitted: of its
//! first 30 story questions the phrases knew 10, phrases and forms 16, the model 30, and none of its
//! 30 technical questions was taken for one; of its 20 story questions and 30 that dig into a
//! project ("how did you keep online and offline features consistent?"), the model knew 20 and
//! took 1, the phrases and forms 13 and 1 (the phrases alone 10 and 1).

use std::sync::LazyLock;

use super::vector_model::VectorModel;
use crate::kb::search::KbSearch;
use regex::Regex;

/// From this probability the model says the question asks for a story. Chosen by 5-fold
/// cross-validation on the fitting data (214 story questions, 1417 others, among them 50 questions
/// that dig into the candidate's project: "幻觉这个问题，你们是怎么处理的？"), counting a technical
/// question taken for a story as the costlier error (its sound answer is then judged on a story's
/// structure): at 0.9, 79% of the stories and 4 others (0.3%); 0.7: 89.7% and 12; 0.5: 92.1% and 23.
pub const STORY_MIN: f64 = 0.9;

static MODEL: LazyLock<Option<VectorModel>> =
    LazyLock::new(|| VectorModel::parse(include_str!("../../data/models/story_question.json")));

/// The probability that a question with this e5 query vector asks for a story; None when the
/// vector is not of the model's size.
pub fn probability(vector: &[f32]) -> Option<f64> {
    MODEL.as_ref()?.probability(vector)
}

/// Whether `question` asks for a story: by its meaning where the base has vectors, else by its
/// wording. Not both: the wording's forms take "有没有碰到过重试风暴？", a technical follow-up, for
/// one, and on the held-out sets they find no story the model misses. An introduction or another
/// kind of question not scored on content (`kind`) asks for no story to judge.
pub fn asks_story(kb: &KbSearch, question: &str) -> bool {
    if super::kind::of(question).is_some() {
        return false;
    }
    match kb.vectors.as_ref().and_then(|v| v.query_vector(question).ok()).and_then(|v| probability(&v)) {
        Some(p) => p >= STORY_MIN,
        None => is_behavioral_question(question),
    }
}

/// Whether a question asks for a story by its wording alone ("tell me about a time...", "讲一次
/// 你...", "what's the hardest bug you've fixed?", "你做过最难的…").
pub fn is_behavioral_question(question: &str) -> bool {
    // "Say you've got a 200K window" sets up a hypothetical, not a story.
    let q = question.to_lowercase().replace('\u{2019}', "'").replace("you've got", "");
    CUES.iter().any(|c| q.contains(c)) || asks_after_the_past(&q)
}

/// The grammar of asking after what the candidate did, on the lowercased question. "有没有考虑过
/// 用 BM25？" asks about a design, not a past: a match that only considers is not one.
fn asks_after_the_past(q: &str) -> bool {
    let about_the_past = |m: regex::Match<'_>| !THOUGHT_ONLY.iter().any(|t| m.as_str().contains(t));
    FORMS.iter().any(|re| re.find_iter(q).any(about_the_past)) || done_before(q)
}

/// "做过模型微调吗？", "收到过让你不舒服的反馈吗？": a verb, the aspect particle 过 and, in the
/// same clause, 吗. Not 过 inside a word (通过, 超过, 过滤, 过来) and not "试过 1024 吗", which asks
/// about a setting.
fn done_before(q: &str) -> bool {
    let Some(re) = DONE_BEFORE.as_ref() else { return false };
    re.captures_iter(q).any(|c| {
        let verb = c.get(1).and_then(|m| m.as_str().chars().next());
        let next = c.get(2).and_then(|m| m.as_str().chars().next());
        verb.is_some_and(|v| !NOT_A_VERB_BEFORE.contains(v))
            && next.is_none_or(|n| !NOT_A_PARTICLE_AFTER.contains(n))
            && !THOUGHT_ONLY.iter().any(|t| c[0].contains(t))
    })
}

const THOUGHT_ONLY: &[&str] = &["考虑过", "想过", "想到过", "听说过"];
const NOT_A_VERB_BEFORE: &str = "通经超不难越度路试";
const NOT_A_PARTICLE_AFTER: &str = "去程滤期拟度大长多高低于载时半来";

static DONE_BEFORE: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"(\p{Han})过([^？?，,。]{0,24})吗").ok());

/// English forms, then Chinese ones.
static FORMS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        concat!(
            r"\bhave you (?:ever )?(?:had|been|done|worked|led|built|seen|made|run|dealt|shipped|faced|",
            r"handled|owned|changed|fixed|learned|learnt|received|given|managed|debugged|broken|failed|",
            r"missed|disagreed|mentored|regretted|taken|struggled|lost|won|hired|fired|quit|felt)\b"
        ),
        concat!(
            r"\b(?:something|anything|a thing|one thing) you(?:'ve)? (?:\w+ed|made|did|built|led|shipped|",
            r"took|gave|got|had|saw|learnt|wrote|ran|chose|broke|fought|felt|thought)\b"
        ),
        r"\bmost proud\b|\bproud of\b",
        r"\ba real example\b|\bfrom your (?:own )?experience\b",
        r"\bhas there (?:ever )?been\b|\bwas there (?:ever )?a (?:time|moment|point)\b|\bwere there (?:ever )?times\b",
        r"\bthe (?:first|last) time you\b",
        r"\blooking back\b|\bin hindsight\b|\bdo differently\b|\bdifferently (?:now|today|next time)\b",
        r"\bshare an? (?:experience|example|story)\b|\ban experience where\b|\ban example where you\b",
        r"\bin your (?:previous|former) (?:team|role|job|company|position)\b",
        r"\bleave your (?:current )?(?:job|role|company|team)\b|\blooking to leave\b|\bleaving your\b",
        r"有没有[^？?，,。]{0,24}过",
        r"你[^？?，,。]{0,3}过的",
        r"印象深刻|印象最深|第一次当|后来怎么|当时发生|你当时是?怎么",
        r"那一?次[，,？?]|的那一?次",
        r"为什么[^？?。]{0,12}(?:离职|跳槽|换工作)",
        r"有没有哪一?次|有没有什么时候",
        r"最[^？?，,。]{1,6}的一次(?:[^性]|$)",
        r"一个你[^？?。]{0,40}的例子",
        r"回顾一下你|如果重来|重来一次",
        r"成长最快|成长最多|最大的收获",
    ]
    .into_iter()
    .filter_map(|p| Regex::new(p).ok())
    .collect()
});

const CUES: &[&str] = &[
    "tell me about a time",
    "tell me about something",
    "tell me about a ",
    "tell me about an ",
    "tell me about someone",
    "give me an example of when",
    "give me an example from your",
    "disagreement",
    "what was your role",
    "your current team",
    "when you joined",
    "you were involved",
    "describe a time",
    "give me an example of a time",
    "a time when",
    "a time you",
    "walk me through a project",
    "walk me through a decision",
    "tell me about a project",
    "describe a project",
    "describe a situation",
    "a project that failed",
    "tell me about yourself",
    "introduce yourself",
    "how do you mentor",
    "mentor junior",
    "disagreed with",
    "conflict with",
    "push back on",
    "why do you want this",
    "why are you leaving",
    "what did you learn from",
    "you've",
    "you ever",
    "you personally",
    "you're most proud",
    "you are most proud",
    "proudest",
    "your biggest mistake",
    "your biggest failure",
    "your greatest",
    "your biggest strength",
    "your biggest weakness",
    "in your last role",
    "in your last job",
    "at your last job",
    "at your previous",
    "讲一次",
    "说一个你",
    "的经历",
    "这种经历",
    "经历过",
    "当时怎么处理",
    "当时是什么情况",
    "当时你是怎么",
    "工作以来",
    "自我介绍",
    "带新人",
    "为什么考虑换",
    "为什么想换",
    "为什么离开",
    "讲一个你",
    "讲讲你",
    "说一次",
    "有没有遇到过",
    "举一个你",
    "举个你",
    "你经历过",
    "你遇到过",
    "你做过最",
    "做过的最",
    "碰到过",
    "遇到过",
    "踩过",
    "处理过",
    "解决过",
    "负责过",
    "主导过",
    "参与过",
    "推动过",
    "发现过",
    "犯过",
    "自己最大的",
    "自己的优点",
    "自己的缺点",
    "你踩过",
    "最有成就感",
    "最自豪",
    "最骄傲",
    "你最大的优点",
    "你最大的缺点",
    "你的优缺点",
    "你犯过",
];

#[cfg(test)]
mod tests {
    use super::is_behavioral_question as asks_story;

    #[test]
    fn the_model_reads_only_a_vector_of_its_size() {
        assert!(super::probability(&[0.1; 8]).is_none());
        assert!(super::probability(&[0.0; 384]).is_none());
        let p = super::probability(&[0.05; 384]).unwrap_or(-1.0);
        assert!((0.0..=1.0).contains(&p), "{p}");
    }

    #[test]
    fn questions_that_ask_for_a_story_in_many_wordings() {
        for q in [
            "Tell me about a time you missed a deadline.",
            "What's the hardest outage you've been part of?",
            "Give me an example of when you made a decision with incomplete data.",
            "Tell me about a migration you led.",
            "What was your role in that launch?",
            "说说你处理过的最严重的一次线上事故",
            "有没有推动过跨部门的项目？",
            "你工作以来最难的一个决定是什么？",
            "当时你是怎么说服老板的？",
            // Forms, not phrases: none of these wordings is in a list.
            "Have you ever shipped something that broke production?",
            "What's something you fixed that nobody asked you to?",
            "Which launch are you most proud of?",
            "有没有带过实习生？",
            "你接手过的最乱的代码是什么样的？",
            "写过性能很差的代码吗？后来怎么发现的？",
        ] {
            assert!(asks_story(q), "{q}");
        }
        for q in [
            "Say you've got a 200K window. How do you split it?",
            "What is the difference between BM25 and dense retrieval?",
            "说说你对 RAG 的理解。",
            "What is prompt injection? Can you give me an example?",
            "你们的记忆存在哪？当时为什么这么选？",
            "你简历上写做过知识库问答，检索链路是怎么设计的？",
            "什么是过拟合？怎么缓解？",
            "工具调用失败了怎么处理？",
            "有没有考虑过用 BM25 做召回？",
            "How did you pick the chunk size?",
            "If you had to build a rate limiter, how would you do it?",
            "Have you considered caching the embeddings?",
        ] {
            assert!(!asks_story(q), "{q}");
        }
    }
}

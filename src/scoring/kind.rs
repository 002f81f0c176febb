//! Questions of a kind a technical knowledge base holds no answer to: an introduction, a reading
//! task, logistics (start date, salary, relocation), small talk, the closing "any questions for
//! us?". Such a question is not scored on content: a self-introduction has no expert answer to
//! miss, and "when can you start?" has no wrong one. Recognised from phrasings in both languages.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A kind of question the content rubric does not apply to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum QuestionKind {
    Intro,
    Reading,
    Logistics,
    SmallTalk,
    Closing,
}

impl QuestionKind {
    pub fn as_str(self) -> &'static str {
        match self {
            QuestionKind::Intro => "intro",
            QuestionKind::Reading => "reading",
            QuestionKind::Logistics => "logistics",
            QuestionKind::SmallTalk => "small_talk",
            QuestionKind::Closing => "closing",
        }
    }
}

impl QuestionKind {
    /// What a report says in place of a score.
    pub fn not_scored(self, lang: crate::lang::Lang) -> &'static str {
        use crate::lang::Lang::*;
        match (self, lang) {
            (QuestionKind::Intro, Zh) => "不按内容评分：自我介绍",
            (QuestionKind::Intro, En) => "not scored on content: an introduction",
            (QuestionKind::Reading, Zh) => "不按内容评分：朗读",
            (QuestionKind::Reading, En) => "not scored on content: a reading",
            (QuestionKind::Logistics, Zh) => "不按内容评分：事务性问题",
            (QuestionKind::Logistics, En) => "not scored on content: logistics",
            (QuestionKind::SmallTalk, Zh) => "不按内容评分：寒暄",
            (QuestionKind::SmallTalk, En) => "not scored on content: small talk",
            (QuestionKind::Closing, Zh) => "不按内容评分：反问环节",
            (QuestionKind::Closing, En) => "not scored on content: the candidate's questions",
        }
    }
}

/// Phrasings per kind, matched on the lower-cased question. Written from how interviewers ask,
/// in English and Chinese; `ivd eval` measures them on questions written apart from this list.
const PHRASES: &[(QuestionKind, &[&str])] = &[
    (
        QuestionKind::Intro,
        &[
            "about yourself",
            "introduce yourself",
            "introduction of yourself",
            "walk me through your resume",
            "walk me through your cv",
            "walk us through your resume",
            "your background",
            "who you are",
            "your career so far",
            "自我介绍",
            "介绍一下自己",
            "介绍一下你自己",
            "介绍你自己",
            "介绍下自己",
            "说说你自己",
            "讲讲你自己",
            "你的经历",
            "你的履历",
            "你的背景",
            "捋一下你的经历",
        ],
    ),
    (
        QuestionKind::Reading,
        &[
            "read the passage",
            "read this passage",
            "read the paragraph",
            "read this paragraph",
            "read the text",
            "read this text",
            "read it aloud",
            "read aloud",
            "out loud",
            "read that section",
            "read the first paragraph",
            "read back",
            "朗读",
            "念一下",
            "念一遍",
            "读一遍",
            "读一下这段",
            "读出来",
            "大声读",
        ],
    ),
    (
        QuestionKind::Logistics,
        &[
            "when could you start",
            "when can you start",
            "start date",
            "notice period",
            "salary",
            "compensation expectation",
            "expected compensation",
            "relocat",
            "visa sponsorship",
            "need a visa",
            "sponsorship",
            "work remotely",
            "days a week",
            "other offers",
            "other interviews",
            "到岗",
            "入职时间",
            "什么时候能入职",
            "期望薪资",
            "薪资",
            "薪酬",
            "待遇",
            "异地",
            "搬到",
            "离职流程",
            "还在职",
            "加班",
            "出差",
            "其他 offer",
            "其他offer",
            "签证",
        ],
    ),
    (
        QuestionKind::SmallTalk,
        &[
            "your weekend",
            "find the office",
            "find us okay",
            "get you anything",
            "coffee or water",
            "some water",
            "weather today",
            "crazy weather",
            "nice weather",
            "how was your trip",
            "how was the drive",
            "first time in",
            "how's your day",
            "how is your day",
            "how are you doing",
            "how are you today",
            "can you hear me",
            "can you see my screen",
            "路上堵",
            "喝点水",
            "喝水",
            "喝咖啡",
            "今天天气",
            "最近天气",
            "天气挺",
            "周末",
            "吃饭了吗",
            "过来还方便",
            "听得到吗",
            "能听到吗",
            "看得到屏幕",
        ],
    ),
    (
        QuestionKind::Closing,
        &[
            "questions for us",
            "questions for me",
            "any questions",
            "anything you'd like to ask",
            "anything you want to ask",
            "anything you would like to ask",
            "like to ask me",
            "want to know about the team",
            "want to know about the role",
            "before we wrap up",
            "想问我们",
            "想问我的",
            "什么问题吗",
            "什么问题想问",
            "有问题可以现在问",
            "还有什么想了解",
            "想了解的吗",
            "有什么要问",
            "有没有什么问题",
        ],
    ),
];

/// The kind of `question` when it is one the content rubric does not apply to.
pub fn of(question: &str) -> Option<QuestionKind> {
    let q = question.to_lowercase();
    PHRASES.iter().find(|(_, phrases)| phrases.iter().any(|p| q.contains(p))).map(|(k, _)| *k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_in_both_languages_and_technical_questions_are_none() {
        assert_eq!(of("Could you introduce yourself briefly?"), Some(QuestionKind::Intro));
        assert_eq!(of("你的期望薪资是多少？"), Some(QuestionKind::Logistics));
        assert_eq!(of("Do you have any questions for us?"), Some(QuestionKind::Closing));
        assert_eq!(of("How do you evaluate a RAG pipeline?"), None);
        assert_eq!(of("Agent 的记忆怎么设计？"), None);
    }
}

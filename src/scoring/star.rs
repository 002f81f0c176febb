//! Behavioral answers judged by their structure: situation, task, action, result, the candidate's
//! own part ("I" rather than only "we") and a measurable result, as STAR coaching asks.

use super::signals::count_numbers;
use crate::lang::Lang;

/// One part of a STAR story and the cues that show it, matched on the lowercased answer.
struct Part {
    zh: &'static str,
    en: &'static str,
    cues: &'static [&'static str],
}

const PARTS: &[Part] = &[
    Part {
        zh: "背景（情境）",
        en: "situation",
        cues: &[
            "背景",
            "当时",
            "那时",
            "之前在",
            "上一家",
            "公司",
            "项目里",
            "团队",
            "at my",
            "at the time",
            "when i was",
            "last year",
            "our team",
            "we had",
            "the company",
            "in my previous",
            "in my last",
            "situation",
        ],
    },
    Part {
        zh: "任务（你的目标）",
        en: "task",
        cues: &[
            "任务",
            "目标",
            "负责",
            "需要",
            "要求",
            "my goal",
            "the goal",
            "i was responsible",
            "i was asked",
            "my task",
            "i needed to",
            "i had to",
            "i owned",
            "my job was",
            "target",
        ],
    },
    Part {
        zh: "行动（你具体做了什么）",
        en: "action",
        cues: &[
            "我先",
            "我决定",
            "我做",
            "我推动",
            "我主导",
            "我搭",
            "我写",
            "我找",
            "我提出",
            "我设计",
            "我把",
            "我和",
            "首先",
            "然后我",
            "i decided",
            "i built",
            "i wrote",
            "i set up",
            "i proposed",
            "i designed",
            "i led",
            "i started",
            "i talked",
            "i added",
            "i changed",
            "i ran",
            "first, i",
            "so i",
            "then i",
            "i pushed",
        ],
    },
    Part {
        zh: "结果",
        en: "result",
        cues: &[
            "结果",
            "最后",
            "最终",
            "上线后",
            "降到",
            "降低",
            "提升",
            "提高",
            "减少",
            "节省",
            "as a result",
            "in the end",
            "reduced",
            "increased",
            "improved",
            "cut ",
            "dropped",
            "went from",
            "saved",
            "resulted",
            "outcome",
            "shipped",
        ],
    },
];

/// What the STAR check found.
#[derive(Debug, Clone, PartialEq)]
pub struct Star {
    /// 0..1: the four parts, the candidate's own part and a measured result, equally weighted.
    pub level: f64,
    /// Parts that are missing, in the interview's language.
    pub missing: Vec<String>,
}

pub fn check(answer: &str, lang: Lang) -> Star {
    let lower = answer.to_lowercase();
    let mut missing = Vec::new();
    let mut found = 0usize;
    for p in PARTS {
        if p.cues.iter().any(|c| lower.contains(c)) {
            found += 1;
        } else {
            missing.push(if lang == Lang::Zh { p.zh } else { p.en }.to_string());
        }
    }
    // Own part: first-person singular at least as often as plural.
    let (i_count, we_count) = first_person(&lower);
    let own = i_count > 0 && i_count * 2 >= we_count;
    if own {
        found += 1;
    } else {
        missing.push(
            if lang == Lang::Zh {
                "你本人的角色（多说“我”，少说“我们”）"
            } else {
                "your own part (\"I\", not only \"we\")"
            }
            .into(),
        );
    }
    let measured = count_numbers(&super::signals::normalize_numbers(answer)) > 0;
    if measured {
        found += 1;
    } else {
        missing.push(if lang == Lang::Zh { "可量化的结果（数字）" } else { "a measurable result (a number)" }.into());
    }
    Star { level: found as f64 / 6.0, missing }
}

fn first_person(lower: &str) -> (usize, usize) {
    let we_zh = lower.matches("我们").count();
    let i_zh = lower.matches('我').count().saturating_sub(we_zh);
    let words: Vec<&str> = lower.split(|c: char| !c.is_ascii_alphabetic() && c != '\'').collect();
    let i_en = words.iter().filter(|w| matches!(**w, "i" | "i'm" | "i've" | "my" | "me")).count();
    let we_en = words.iter().filter(|w| matches!(**w, "we" | "we're" | "we've" | "our" | "us")).count();
    (i_zh + i_en, we_zh + we_en)
}

/// Whether a question asks for a story ("tell me about a time...", "讲一次你...", "what's the
/// hardest bug you've fixed?", "你做过最难的…").
pub fn is_behavioral_question(question: &str) -> bool {
    // "Say you've got a 200K window" sets up a hypothetical, not a story.
    let q = question.to_lowercase().replace('\u{2019}', "'").replace("you've got", "");
    CUES.iter().any(|c| q.contains(c))
}

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
        ] {
            assert!(!asks_story(q), "{q}");
        }
    }
}

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

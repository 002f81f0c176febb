//! Countable signals in an answer: length, reasoning markers, numbers, experience, trade-offs,
//! examples, non-answers. Every list is data here so the rubric stays explainable.

use crate::transcript::lang::counts;

/// Length in Chinese-character equivalents (one English word counts 1.5, as in language detection).
pub fn units(text: &str) -> f64 {
    let (cjk, words) = counts(text);
    cjk as f64 + words as f64 * 1.5
}

/// Phrases of an answer that gives up. Matched on the lowercased answer.
pub const NON_ANSWER: &[&str] = &[
    "不知道",
    "不太清楚",
    "不清楚",
    "没了解过",
    "不太了解",
    "不了解",
    "没接触过",
    "没用过",
    "没做过",
    "没有做过",
    "没有用过",
    "记不清",
    "想不起来",
    "i don't know",
    "i do not know",
    "i dont know",
    "not sure",
    "no idea",
    "haven't used",
    "have not used",
    "never used",
    "not familiar",
    "can't remember",
    "don't remember",
    "no experience with",
];
/// An answer that gives up is judged a non-answer only when it is also short: an expert may say
/// "不清楚具体数字" in a long, good answer.
pub const NON_ANSWER_MAX_UNITS: f64 = 80.0;
/// Below this many units an answer is a one-liner.
pub const ONE_LINER_UNITS: f64 = 25.0;

pub const REASONING: &[&str] = &[
    "因为",
    "所以",
    "原理",
    "机制",
    "本质",
    "底层",
    "意味着",
    "导致",
    "从而",
    "取决于",
    "而不是",
    "相比",
    "区别在于",
    "具体",
    "流程",
    "步骤",
    "首先",
    "其次",
    "最后",
    "一方面",
    "另一方面",
    "because",
    "therefore",
    "which means",
    "under the hood",
    "mechanism",
    "instead of",
    "compared",
    "whereas",
    "step",
    "first",
    "then",
    "finally",
    "so that",
    "depends on",
    "the reason",
];
pub const EXPERIENCE: &[&str] = &[
    "我们",
    "我负责",
    "我主导",
    "我做",
    "我当时",
    "项目中",
    "项目里",
    "线上",
    "生产环境",
    "上线",
    "实际",
    "当时",
    "我的团队",
    "we ",
    "our ",
    "i built",
    "i led",
    "i implemented",
    "i designed",
    "in production",
    "we used",
    "we built",
    "my team",
    "at my",
    "last year",
    "we shipped",
];
pub const TRADE_OFFS: &[&str] = &[
    "取舍",
    "权衡",
    "代价",
    "缺点",
    "但是",
    "不过",
    "成本",
    "风险",
    "副作用",
    "局限",
    "trade-off",
    "tradeoff",
    "downside",
    "however",
    "cost",
    "risk",
    "but ",
    "at the expense",
    "limitation",
];
pub const EXAMPLES: &[&str] = &["比如", "例如", "举个例子", "举例", "for example", "e.g", "for instance", "such as"];
pub const STRUCTURE: &[&str] =
    &["第一", "第二", "首先", "其次", "一是", "二是", "1.", "2.", "1、", "2、", "first", "second", "finally", "最后"];

/// How many of the phrases occur (each counted once).
pub fn count_phrases(lower: &str, phrases: &[&str]) -> usize {
    phrases.iter().filter(|p| lower.contains(*p)).count()
}

/// Numbers with their units: "85%", "200 ms", "3 次", "1.5x".
pub fn count_numbers(text: &str) -> usize {
    let mut n = 0;
    let mut in_num = false;
    for c in text.chars() {
        let digit = c.is_ascii_digit();
        if digit && !in_num {
            n += 1;
        }
        in_num = digit || (in_num && (c == '.' || c == ','));
    }
    n
}

/// Whether the answer gives up ("I don't know", "不太清楚") without saying much else.
pub fn is_non_answer(lower: &str, units: f64) -> bool {
    units < NON_ANSWER_MAX_UNITS && NON_ANSWER.iter().any(|p| lower.contains(p))
}

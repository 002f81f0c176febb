//! Countable signals in an answer: length, reasoning markers, numbers, experience, trade-offs,
//! examples, non-answers. Every list is data here so the rubric stays explainable.

use crate::lang::counts;

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
    // Seen in an interview written outside the project: "Um, honestly, no, I haven't. ... how to
    // actually size it, I couldn't tell you without looking into it." (67/100 before).
    "couldn't tell you",
    "can't tell you",
    "could not tell you",
    "no, i haven't",
    "i haven't done",
    "haven't worked with",
    "never worked with",
    "have to look it up",
    "说不上来",
    "没搞过",
    "没碰过",
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
    "so the",
    "if ",
    "unless",
    "led to",
    "brought",
    "如果",
    "一旦",
    "this means",
    "that's why",
    "in order to",
    "which lets",
    "which is why",
    "otherwise",
    "as a result",
    "due to",
    "caused by",
    "works by",
    "for each",
    "为了",
    "否则",
    "因此",
    "通过",
    "这样",
    "避免",
    "由于",
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

/// Words before a give-up phrase that report it or make it a condition rather than say it:
/// "要求模型在依据不足时明确说不知道", "不知道就说不知道", "tell it to say \"I don't know\"", "when not
/// sure" describe what a system should do, and give nothing up.
/// Not "admit" or "answer": "I have to admit I don't know", "我承认不知道" are the speaker's own.
const REPORTED: &[&str] = &[
    "说", "回答", "回复", "表示", "输出", "返回", "\"", "“", "「", "'", "‘", "say", "says", "saying", "respond",
    "reply", "output", "return", "returns", "要求", "让它", "要它", "模型", "如果", "if", "when",
];
/// Words after a give-up phrase that make it a condition ("不知道就…", "不确定的时候…").
const CONDITION_AFTER: &[&str] = &["就", "时", "的时候", "的话"];

/// Whether the answer gives up ("I don't know", "不太清楚") without saying much else.
pub fn is_non_answer(lower: &str, units: f64) -> bool {
    let said = |p: &str, at: usize| {
        let after = lower[at + p.len()..].trim_start();
        !reported(&lower[..at]) && !CONDITION_AFTER.iter().any(|c| after.starts_with(c))
    };
    units < NON_ANSWER_MAX_UNITS && NON_ANSWER.iter().any(|p| lower.match_indices(p).any(|(at, _)| said(p, at)))
}

/// Whether the text just before a phrase reports it (see [`REPORTED`]).
fn reported(before: &str) -> bool {
    let before = before.trim_end_matches([' ', ':', '：', ',', '，']);
    // "老实说、坦白说、只能说、我说" open the speaker's own give-up.
    let own = ["实说", "白说", "能说", "我说", "我回答"].iter().any(|o| before.ends_with(o));
    !own && REPORTED.iter().any(|r| before.ends_with(r))
}

/// English number words and their values; "a hundred" style compounds are rare in answers.
const EN_NUMBERS: &[(&str, &str)] = &[
    ("zero", "0"),
    ("one", "1"),
    ("two", "2"),
    ("three", "3"),
    ("four", "4"),
    ("five", "5"),
    ("six", "6"),
    ("seven", "7"),
    ("eight", "8"),
    ("nine", "9"),
    ("ten", "10"),
    ("eleven", "11"),
    ("twelve", "12"),
    ("fifteen", "15"),
    ("twenty", "20"),
    ("thirty", "30"),
    ("forty", "40"),
    ("fifty", "50"),
    ("sixty", "60"),
    ("seventy", "70"),
    ("eighty", "80"),
    ("ninety", "90"),
    ("hundred", "100"),
    ("thousand", "1000"),
    ("million", "1000000"),
    ("twice", "2x"),
    ("half", "0.5"),
];

/// Measure words after which a Chinese numeral is a quantity, not the article 一 ("a").
const ZH_UNITS: &[char] = &[
    '倍', '秒', '次', '分', '小', '天', '周', '轮', '步', '层', '条', '个', '万', '亿', '成', '毫', '%', '人', '名',
    '月', '年',
];

fn zh_digit(c: char) -> Option<u64> {
    "零一二三四五六七八九".chars().position(|d| d == c).map(|p| p as u64).or(if c == '两' { Some(2) } else { None })
}

/// Value of a run of Chinese numerals ("三", "十五", "二十", "一百二十", "三千").
fn zh_value(run: &str) -> Option<u64> {
    let (mut total, mut section, mut digit) = (0u64, 0u64, None::<u64>);
    for c in run.chars() {
        if let Some(d) = zh_digit(c) {
            digit = Some(d);
            continue;
        }
        let unit = match c {
            '十' => 10,
            '百' => 100,
            '千' => 1000,
            '万' => {
                total = total.saturating_add(section).saturating_add(digit.take().unwrap_or(0)).saturating_mul(10_000);
                section = 0;
                continue;
            }
            _ => return None,
        };
        section = section.saturating_add(digit.take().unwrap_or(1).saturating_mul(unit));
    }
    // Saturating: a run of 万万万… in arbitrary text must not overflow.
    Some(total.saturating_add(section).saturating_add(digit.unwrap_or(0)))
}

/// The text with numbers written as words turned into digits ("five percent" -> "5%",
/// "百分之五" -> "5%", "三次" -> "3次"), so numbers count and keywords with digits match however
/// the candidate said them. Lowercases English.
pub fn normalize_numbers(text: &str) -> String {
    let lower = text.to_lowercase();
    // English: whole words only.
    let mut out = String::with_capacity(lower.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match EN_NUMBERS.iter().find(|(w, _)| *w == word.as_str()) {
            Some((_, d)) => out.push_str(d),
            None if word == "percent" => out.push('%'),
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in lower.chars() {
        if c.is_ascii_alphabetic() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    // "5 %" from "five percent" reads as "5%".
    let out = out.replace(" %", "%");
    zh_numbers(&out)
}

fn zh_numbers(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let numeral = |c: char| zh_digit(c).is_some() || matches!(c, '十' | '百' | '千' | '万');
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        // 百分之N -> N%
        if chars[i..].starts_with(&['百', '分', '之']) {
            let start = i + 3;
            let mut end = start;
            while end < chars.len() && numeral(chars[end]) {
                end += 1;
            }
            if let Some(v) = (end > start).then(|| zh_value(&chars[start..end].iter().collect::<String>())).flatten() {
                out.push_str(&format!("{v}%"));
                i = end;
                continue;
            }
        }
        if numeral(chars[i]) {
            let mut end = i;
            while end < chars.len() && numeral(chars[end]) {
                end += 1;
            }
            let run: String = chars[i..end].iter().collect();
            let next = chars.get(end).copied();
            // A quantity: before a measure word, and not the article 一 alone ("一个" = "a").
            let quantity = next.is_some_and(|n| ZH_UNITS.contains(&n)) && run != "一";
            if let Some(v) = quantity.then(|| zh_value(&run)).flatten() {
                out.push_str(&v.to_string());
                i = end;
                continue;
            }
            out.push_str(&run);
            i = end;
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// Words that negate or refute what follows: a sentence with a misconception's signal and one of
/// these names the misconception to reject it ("RAG does not eliminate hallucination").
pub const REFUTATION: &[&str] = &[
    "not ",
    "n't",
    "never",
    "no longer",
    "myth",
    "misconception",
    "mistake",
    "wrong",
    "false",
    "rather than",
    "instead of",
    "contrary",
    "不是",
    "并不",
    "不能",
    "不会",
    "不等于",
    "并非",
    "没有",
    "误区",
    "错误",
    "误解",
    "而不是",
    "不要",
    "别",
    "不代表",
];

/// Whether a sentence refutes what it says.
pub fn refutes(sentence_lower: &str) -> bool {
    REFUTATION.iter().any(|r| sentence_lower.contains(r))
}

/// Function words: prose has them, a bare list of keywords does not.
const FUNCTION_WORDS_EN: &[&str] = &[
    "the", "a", "an", "is", "are", "was", "to", "of", "and", "in", "it", "that", "for", "on", "with", "we", "i", "you",
    "this", "so", "be", "by", "as", "or", "if", "then", "when", "which", "because", "can", "will", "do", "not", "but",
    "from", "into", "they", "its", "each", "what", "how", "our", "my", "has", "have", "like", "than", "at", "up",
    "out", "no", "only", "just", "still", "also", "there", "their", "them", "gets", "get", "does", "been", "were",
    "should", "must", "would", "could", "between", "without", "after", "before", "while",
];
const FUNCTION_CHARS_ZH: &[char] = &[
    '的', '是', '在', '了', '会', '把', '就', '要', '和', '也', '而', '让', '用', '对', '我', '们', '这', '有', '被',
    '给', '做', '能', '再', '去', '它', '所', '以', '并', '成', '到', '后', '从', '为', '得', '过', '着', '都', '还',
];

/// Share of the answer's words (English) or characters (Chinese) that are function words: about
/// 0.35-0.5 in English prose and 0.15-0.25 in Chinese, near zero in a list of terms.
pub fn prose_share(text: &str) -> f64 {
    let lower = text.to_lowercase();
    let words: Vec<&str> =
        lower.split(|c: char| !c.is_ascii_alphabetic() && c != '\'').filter(|w| !w.is_empty()).collect();
    let en_fn = words.iter().filter(|w| FUNCTION_WORDS_EN.contains(w)).count();
    let cjk: Vec<char> = lower.chars().filter(|c| crate::lang::is_cjk(*c)).collect();
    let zh_fn = cjk.iter().filter(|c| FUNCTION_CHARS_ZH.contains(c)).count();
    // Chinese function characters are rarer per character than English function words per word.
    let zh_scaled = zh_fn as f64 * 2.0;
    let total = words.len() + cjk.len();
    if total == 0 {
        return 0.0;
    }
    ((en_fn as f64 + zh_scaled) / total as f64).min(1.0)
}

/// Whether the text is a list of terms: many short comma-separated pieces (about three words or
/// six characters each), or almost no function words — and no term explained. Terse notes that
/// explain their terms ("原子、一致、隔离、持久：全做或全不做…", "RISC = load/store, …", "(lowest
/// address)") are answers: on the graded sets outside our field, 18 of the 21 answers the list
/// test caught before were graded 4.75-5 of 5, all but three of them for one of these marks, a
/// path's slash ("DELETE /users/5") cut into pieces, or telegraphic English ("w/o", "like").
pub fn is_term_list(text: &str) -> bool {
    if EXPLAINING.iter().any(|m| text.contains(m)) {
        return false;
    }
    let spaced = text.replace(" / ", ",").replace(" | ", ",");
    let pieces: Vec<f64> = spaced.split([',', '、', '，', ';', '；', '\n']).map(units).filter(|u| *u > 0.0).collect();
    let short_pieces = pieces.len() >= 5 && pieces.iter().sum::<f64>() / pieces.len() as f64 <= TERM_PIECE_UNITS;
    short_pieces || (prose_share(text) < LIST_PROSE_SHARE && longest_cjk_run(text) < CJK_PROSE_RUN)
}

/// Chinese technical prose is sparse in function characters ("攻击者在输入或外部内容中夹带指令",
/// one in sixteen); what a list of Chinese terms lacks is a long unbroken run of characters.
const CJK_PROSE_RUN: usize = 12;

fn longest_cjk_run(text: &str) -> usize {
    let (mut best, mut run) = (0, 0);
    for c in text.chars() {
        run = if crate::lang::is_cjk(c) { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// Marks of a term explained in note form: a definition after a colon, an equation, an arrow, a
/// parenthesis or a dash. A keyword list has none ("role=tool" is a term, " = " explains one).
const EXPLAINING: &[&str] = &["：", ": ", " = ", "→", "->", "=>", "(", "（", " - ", " — "];

/// Mean length (units) of the comma-separated pieces of a term list.
const TERM_PIECE_UNITS: f64 = 6.0;
/// Below this share of function words a text reads as terms, not explanation (prose: 0.3-0.5).
const LIST_PROSE_SHARE: f64 = 0.12;

/// `x` as a share of `full`, within 0-1.
pub fn ratio(x: f64, full: f64) -> f64 {
    if full <= 0.0 {
        return 0.0;
    }
    (x / full).clamp(0.0, 1.0)
}

/// A 0-1 share as a 0-100 score.
pub fn pct(x: f64) -> u32 {
    (x.clamp(0.0, 1.0) * 100.0).round() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_words_become_digits() {
        assert_eq!(normalize_numbers("Five percent"), "5%");
        assert!(normalize_numbers("二十三次").contains("23次"));
        assert!(normalize_numbers("一百二十毫秒").contains("120毫"));
        assert!(normalize_numbers("百分之十五").contains("15%"));
        // Long runs of numerals saturate instead of overflowing.
        let _ = normalize_numbers(&"九千九百万".repeat(20));
        assert!(is_term_list("json schema, tool_calls, arguments, tool_call_id, role=tool, parser"));
        assert!(!is_term_list("We validate every call against the JSON schema before executing anything."));
        // Terse notes that explain their terms are not bare lists.
        assert!(!is_term_list("原子、一致、隔离、持久：全做或全不做、不破坏约束、并发像串行、提交后不丢。"));
        assert!(!is_term_list("Reduced vs complex instruction set. RISC = load/store, fixed encoding, many registers"));
        assert!(!is_term_list(
            "If you DELETE /users/5 twice the user is still deleted. GET, PUT, DELETE are, POST isn't"
        ));
        assert!(!is_term_list(
            "Device writes straight into memory w/o CPU involvement; saves CPU cycles like disk reads."
        ));
        assert!(is_term_list("离线、ingestion、解析、切块、chunking、metadata、倒排、分块"));
        assert!(!is_term_list("攻击者在输入或外部内容中夹带指令，诱导模型偏离开发者设定的行为或泄露信息。"));
        assert!(is_term_list("离线 解析 切块 向量化 元数据 倒排索引 重排 混合检索"));
        assert!(is_term_list("chunking / embedding / rerank / BM25 / RRF"));
    }

    #[test]
    fn a_give_up_phrase_that_an_answer_reports_gives_nothing_up() {
        let gives_up = |a: &str| is_non_answer(&a.to_lowercase(), 20.0);
        assert!(gives_up("不知道，没做过。"));
        assert!(gives_up("老实说不知道。"));
        assert!(gives_up("I don't know, never used it."));
        assert!(gives_up("I have to admit I don't know."));
        assert!(gives_up("我承认不知道，这块没接触过。"));
        assert!(gives_up("这些我知道，其它不知道。"));
        assert!(!gives_up("提供可靠的检索上下文，并要求模型在依据不足时明确说不知道。"));
        assert!(!gives_up("在 prompt 里要求它不知道就说不知道。"));
        assert!(!gives_up("Tell the model to refuse when not sure."));
        assert!(!gives_up("Ground it in retrieved context and tell it to say \"I don't know\" when unsure."));
        assert!(!gives_up("The prompt allows the model to reply: not sure."));
    }
}

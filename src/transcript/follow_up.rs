//! Whether an interviewer's question digs into the candidate's previous answer (a follow-up,
//! shown attached to its question) or opens a new one.
//!
//! Measured on `data/eval/followups.jsonl` (160 questions after an answer, half follow-ups, half
//! new questions on the same topic, written by a helper who read nothing of the project; halves by
//! a hash of the id, `ivd eval` reports the test half). Openers and word overlap alone found 11 of
//! 40 follow-ups on the fitting half (8 of 40 on the test half), with one new question taken for
//! one: most follow-ups name a specific of the answer ("Why Celery and Redis and not Kafka?",
//! "为什么选 0.92 这个阈值？"), challenge it ("Isn't 120 milliseconds a lot?", "那延迟不会太高吗？")
//! or are too short to stand alone ("Replaying how?", "比如说？"). A second set
//! (`followups2.jsonl`, written by another such helper after the rules for pointing back — "Does
//! that…", "当时…", "这样…", "如果…呢？", tagged doubts "…不小吧" — were chosen on the first set's
//! fitting half) found 10 of 26 follow-ups on its test half, 7 with the rules before; none of its
//! 60 new questions was taken for one.

use std::collections::HashSet;

use super::follow_up_words::*;
use super::text::normalize;
use crate::lang::{is_cjk, sentences};

/// Whether `question` digs into the answer to `prev_question`, by the rules alone.
pub fn is_follow_up(question: &str, prev_question: &str, prev_answer: &str) -> bool {
    is_follow_up_with(question, prev_question, prev_answer, || None)
}

/// Whether `question` digs into the answer to `prev_question`: a question that opens a new topic
/// or task never does; otherwise the rules, or the model by meaning (`follow_up_model`: its
/// probability from `meaning`, asked only when the rules say no; None without vectors) from
/// `FOLLOW_UP_MIN`.
pub fn is_follow_up_with(
    question: &str,
    prev_question: &str,
    prev_answer: &str,
    meaning: impl FnOnce() -> Option<f64>,
) -> bool {
    let lower = question.trim().to_lowercase();
    let head: String = lower.chars().take(40).collect();
    if NEW_TOPIC.iter().any(|m| head.contains(m)) || NEW_TASK.iter().any(|m| lower.contains(m)) {
        return false;
    }
    let asked = asking_part(question);
    if NEW_TASK_START.iter().any(|m| asked.starts_with(m)) {
        return false;
    }
    if FOLLOW_UP_ZH.iter().any(|m| head.starts_with(m)) || FOLLOW_UP_EN.iter().any(|m| head.starts_with(m)) {
        return true;
    }
    let alone = STANDS_ALONE.iter().any(|m| asked.contains(m));
    (!alone
        && (names_a_specific(question, prev_question, prev_answer) || points_into(&asked, prev_question, prev_answer)))
        || challenges(&asked)
        || digs_in(&asked, question)
        || refers_back(&asked)
        || short_and_leaning(&asked, prev_question, prev_answer)
        || overlaps(question, prev_question, prev_answer)
        || meaning().is_some_and(|p| p >= super::follow_up_model::FOLLOW_UP_MIN)
}

/// Most of the question's content words were in the previous pair.
fn overlaps(question: &str, prev_question: &str, prev_answer: &str) -> bool {
    let q = content_tokens(question);
    if q.len() < OVERLAP_MIN_TOKENS {
        return false;
    }
    let context = context_tokens(prev_question, prev_answer);
    let shared = q.iter().filter(|t| context.contains(*t)).count();
    shared as f64 / q.len() as f64 >= OVERLAP_FOLLOW_UP
}

/// The content words of the previous pair, question and answer.
fn context_tokens(prev_question: &str, prev_answer: &str) -> HashSet<String> {
    let mut context = content_tokens(prev_question);
    context.extend(content_tokens(prev_answer));
    context
}

/// The question names a specific the answer introduced (a number, a product, a term in Latin
/// letters amid Chinese) that the question before did not.
fn names_a_specific(question: &str, prev_question: &str, prev_answer: &str) -> bool {
    let asked = specifics(question);
    let before = specifics(prev_question);
    let answered = specifics(prev_answer);
    asked.iter().any(|s| answered.contains(s) && !before.contains(s))
}

/// The question points with a determiner at a thing the answer named and its question did not
/// ("Where did the labels come from?" after "about 12,000 labeled examples"); an "of" after the
/// thing qualifies it anew ("the cost of an LLM feature" stands alone).
fn points_into(asked: &str, prev_question: &str, prev_answer: &str) -> bool {
    let answered: Vec<String> =
        words(prev_answer).into_iter().filter(|w| w.chars().count() >= ANCHOR_MIN_LEN).collect();
    let before = words(prev_question);
    let w = words(asked);
    (1..w.len()).any(|i| {
        let (det, next, after) = (w[i - 1].as_str(), w[i].as_str(), w.get(i + 1).map_or("", String::as_str));
        DEFINITE_EN.contains(&det)
            && after != "of"
            && next.chars().count() >= ANCHOR_MIN_LEN
            && ![FIELD_TERMS, NOT_ANCHORS, STOP_EN].iter().any(|l| l.contains(&next))
            && answered.iter().any(|a| same_word(next, a))
            && !before.iter().any(|b| same_word(next, b))
    })
}

/// Two words are one ("labels", "labeled") when they share their first letters up to
/// [`ANCHOR_SUFFIX`] short of the shorter, and at least [`ANCHOR_STEM`].
fn same_word(a: &str, b: &str) -> bool {
    let shared = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    let shorter = a.chars().count().min(b.chars().count());
    shared >= ANCHOR_STEM.max(shorter.saturating_sub(ANCHOR_SUFFIX)) || a == b
}

/// A yes/no question that doubts a claim came true ("Has that ever actually caught a
/// regression?", "你们信得过吗？", "上线之后出过问题吗？"), one that asks for the specifics after
/// naming a part ("那切块呢？具体怎么切的？"), or a short turn whose pronoun stands for what the
/// answer told ("Would you do it again?"; after a set-up of its own, "What do you do about it?"
/// points into the set-up).
fn digs_in(asked: &str, question: &str) -> bool {
    let w = words(asked);
    let doubted = w.first().is_some_and(|f| DOUBT_OPENERS_EN.contains(&f.as_str())) && w.iter().any(|x| x == DOUBT_EN);
    let whole = words(question);
    let yes_no = asked.trim_end_matches(|c: char| "？?。 ".contains(c));
    let head: String = asked.chars().take(AFTER_HEAD_ZH).collect();
    doubted
        || yes_no.ends_with('吗') && DOUBT_ZH.iter().any(|d| asked.contains(d))
        || yes_no.ends_with('吗') && yes_no.contains(EVER_ZH) && AFTER_ZH.iter().any(|a| head.contains(a))
        || sentences(asked).iter().skip(1).any(|s| s.trim_start().starts_with(SPECIFICS_ZH))
        || whole.len() <= PRONOUN_SHORT_WORDS && whole.iter().any(|x| PRONOUNS_BACK.contains(&x.as_str()))
}

/// The lowercase Latin-letter words of a text, in order ("re-embedding" one word).
fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '\''))
        .map(|w| w.trim_matches(|c: char| c == '-' || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Numbers, and names: mixed-case or capitalised words inside a sentence ("Celery", "pgBouncer",
/// "HNSW"), or any Latin-letter term in Chinese text. Field words excluded.
fn specifics(text: &str) -> HashSet<String> {
    let chinese = text.chars().any(is_cjk);
    let mut out = HashSet::new();
    for sentence in sentences(text) {
        let words = sentence.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'));
        let words = words.map(|w| w.trim_matches(|c: char| c == '.' || c == '-')).filter(|w| !w.is_empty());
        for (i, w) in words.enumerate() {
            let digit = w.chars().any(|c| c.is_ascii_digit());
            let inner_upper = w.chars().skip(1).any(|c| c.is_ascii_uppercase());
            // "Why Celery?" names Celery; "Celery is…" may only start a sentence.
            let capital = i > 0 && w.starts_with(|c: char| c.is_ascii_uppercase());
            let lower = w.to_lowercase();
            let named = digit || (w.len() >= 2 && (inner_upper || capital || chinese));
            if named && !FIELD_TERMS.contains(&lower.as_str()) {
                out.insert(lower.clone());
            }
            // "bge-large-zh" names bge too ("为什么选 bge？"), where any Latin term is a name.
            if chinese && w.contains('-') {
                let parts = lower.split('-').filter(|p| p.len() >= 2 && !FIELD_TERMS.contains(p));
                out.extend(parts.map(str::to_string));
            }
            // "64-token" names 64 as well: "Why 64 and not more?" asks about it ("OAuth2" names no 2).
            if w.starts_with(|c: char| c.is_ascii_digit()) {
                out.extend(w.split(|c: char| !c.is_ascii_digit()).filter(|n| !n.is_empty()).map(str::to_string));
            }
        }
    }
    out
}

/// The question from its first asking sentence on, without the fillers that open it.
fn asking_part(question: &str) -> String {
    let mut text = super::asking::from_first_asking(question).unwrap_or(question).trim().to_lowercase();
    loop {
        let before = text.len();
        for f in FILLERS {
            if let Some(rest) = text.strip_prefix(f) {
                let next = rest.chars().next();
                // A filler is a whole word: "so" does not open "some".
                if next.is_none_or(|c| !c.is_ascii_alphanumeric()) {
                    text = rest.trim_start_matches(|c: char| c.is_whitespace() || ",，。.、".contains(c)).to_string();
                }
            }
        }
        if text.len() == before {
            return text;
        }
    }
}

/// A negative question that challenges what was just said.
fn challenges(asked: &str) -> bool {
    let head: String = asked.chars().take(8).collect();
    CHALLENGE_EN.iter().any(|c| asked.starts_with(c))
        || CHALLENGE_ZH.iter().any(|c| head.contains(c))
        || STRONG_CHALLENGE_ZH.iter().any(|c| asked.contains(c))
        // A doubt put as a statement with a tag ("这个量不小吧", "也不一定是变好了吧"), at the end or
        // before a question of its own ("这个量不小吧，保留多久？").
        || asked.contains('不') && asked.trim_end_matches(|c: char| "？?。.！! ".contains(c)).ends_with('吧')
        || asked.split(|c: char| "，,。？?！!；;".contains(c)).any(|clause| clause.contains('不') && clause.ends_with('吧'))
}

/// The question points back at the answer, or asks what becomes of the situation it described.
fn refers_back(asked: &str) -> bool {
    // Near the start only: further on, "that" and "当时" point back within the question itself
    // ("…INT8 or INT4, and what does that do to the agent?", "讲一次故障，你当时怎么处理的？").
    let head: String =
        asked.chars().take(if asked.chars().any(is_cjk) { REFERS_BACK_HEAD_ZH } else { REFERS_BACK_HEAD_EN }).collect();
    let padded = format!(" {head} ");
    let conditional = CONDITIONAL_ZH.iter().any(|c| asked.contains(c))
        && asked.trim_end_matches(|c: char| "？?。 ".contains(c)).ends_with('呢');
    REFERS_BACK_EN.iter().any(|m| padded.contains(&format!(" {m} ")) || padded.contains(&format!(" {m}?")))
        || REFERS_BACK_ZH.iter().any(|m| head.contains(m))
        || STARTS_BACK_ZH.iter().any(|m| asked.starts_with(m))
        || asked.contains(CHANGE_ZH)
        || points_at_a_count(asked)
        || crate::lang::counts(asked).0 <= FIGURE_CJK && FIGURE_ZH.iter().any(|m| asked.contains(m))
        || conditional
}

/// "那" before a count ("洗掉的那一万多条"), not before "一般" ("那一般怎么做？" asks in general).
fn points_at_a_count(asked: &str) -> bool {
    asked.match_indices('那').any(|(i, _)| {
        let after = &asked[i + '那'.len_utf8()..];
        after.starts_with(|c: char| COUNT_ZH.contains(c)) && !after.starts_with("一般")
    })
}

/// A question too short to stand alone that leans on the answer: an English one sharing a word
/// with it ("Replaying how?") or naming none ("How so?"); a Chinese one asking for more.
fn short_and_leaning(asked: &str, prev_question: &str, prev_answer: &str) -> bool {
    let (cjk, words) = crate::lang::counts(asked);
    if cjk == 0 && words > 0 && words <= SHORT_WORDS {
        let own = content_tokens(asked);
        let stem = |t: &String| t.chars().take(4).collect::<String>();
        let stems: HashSet<String> = context_tokens(prev_question, prev_answer).iter().map(stem).collect();
        return own.is_empty() || own.iter().any(|t| stems.contains(&stem(t)));
    }
    words == 0 && cjk > 0 && cjk <= SHORT_CJK && SHORT_OPENERS_ZH.iter().any(|o| asked.starts_with(o))
}

const STOP_EN: &[&str] = &[
    "the", "and", "for", "you", "your", "that", "this", "with", "what", "how", "why", "when", "which", "would",
    "could", "can", "about", "have", "are", "was", "were", "does", "did", "from", "into", "they", "them", "their",
    "there", "then", "than", "its", "it's", "tell", "like", "just", "also", "some", "more",
];

/// English words of three letters or more (minus stop words) and Chinese character bigrams.
fn content_tokens(text: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    for w in normalize(text).split(' ') {
        if w.is_ascii() {
            if w.len() >= 3 && !STOP_EN.contains(&w) {
                out.insert(w.to_string());
            }
        } else {
            let chars: Vec<char> = w.chars().filter(|c| is_cjk(*c)).collect();
            for pair in chars.windows(2) {
                out.insert(pair.iter().collect());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::is_follow_up;

    const Q: &str = "How did you chunk the documents?";
    const A: &str = "Structure-aware splitting, about 512 tokens with some overlap, and we stored them in Milvus. \
                     Recall at five went from 0.61 to 0.83.";

    #[test]
    fn a_question_on_the_answer_is_attached_and_a_new_one_is_not() {
        // Names what the answer introduced.
        assert!(is_follow_up("Why 512 and not 1024?", Q, A));
        assert!(is_follow_up("Okay. Why Milvus rather than pgvector?", Q, A));
        assert!(is_follow_up("为什么用 Milvus，不用 pgvector？", "文档怎么切的？", "按标题切，存在 Milvus 里。"));
        // Challenges it, or is too short to stand alone.
        assert!(is_follow_up("Hmm, isn't that a lot of overlap?", Q, A));
        assert!(is_follow_up("那延迟不会太高吗？", "你们加了 reranker 吗？", "加了，多了 150 毫秒。"));
        assert!(is_follow_up("Went from what?", Q, A));
        assert!(is_follow_up("比如说？", "你们怎么做评测？", "主要靠线上反馈和一些离线集。"));
        // Points back at the answer, asks what becomes of it, or doubts it with a tag.
        assert!(is_follow_up("How long did that take?", Q, A));
        assert!(is_follow_up("Why not just use pgvector?", Q, A));
        assert!(is_follow_up("Why 512 and not more?", Q, "We split at 512-token chunks."));
        assert!(is_follow_up("当时为什么不直接换模型？", "你们怎么优化延迟？", "我们加了缓存。"));
        assert!(is_follow_up("如果用户回头问一个被摘要丢掉的细节呢？", "记忆怎么做？", "超过十轮就摘要。"));
        assert!(is_follow_up("这个量不小吧，保留多久？", "日志怎么存？", "全量存在 ClickHouse 里。"));
        assert!(is_follow_up("量化之后效果掉了多少？", "怎么部署的？", "AWQ 4bit，两张 A100。"));
        // "That" and "当时" further on point back within the question; a task set anew is new.
        assert!(!is_follow_up(
            "If you had to run a model locally, INT8 or INT4, and what does that do to agents?",
            Q,
            A
        ));
        assert!(!is_follow_up(
            "讲一次你们 Agent 线上出故障的经历，你当时是怎么处理的？",
            "文档怎么切的？",
            "按标题切。"
        ));
        assert!(!is_follow_up("那如果让你做一个代码库问答助手，检索你会怎么设计？", "文档怎么切的？", "按标题切。"));
        assert!(!is_follow_up("讲一下 OAuth2 的授权码模式。", "你们怎么鉴权？", "用的 OAuth 2 和 JWT。"));
        // Openers and words that point back; the parts of a hyphenated name name it too.
        assert!(is_follow_up("Then what? Does anyone look at the dead-letter queue?", Q, A));
        assert!(is_follow_up("他后来怎么看这件事？", "讲讲你跟同事意见不一致的经历。", "最后团队采纳了我的方案。"));
        assert!(is_follow_up(
            "为什么选 bge，不直接用 OpenAI 的？",
            "介绍一下你的 RAG 项目。",
            "embedding 用的 bge-large-zh。"
        ));
        // Naming what the answer named, but asking how it works, what one does in general, or
        // setting a design task: a new question.
        assert!(!is_follow_up(
            "What's the difference between HNSW and IVF indexes?",
            Q,
            "Milvus with HNSW, 40 ms at p99."
        ));
        assert!(!is_follow_up(
            "HNSW 索引的原理大概是什么？",
            "用过哪些向量数据库？",
            "Milvus 和 pgvector，索引一般用 HNSW。"
        ));
        assert!(!is_follow_up(
            "Design a typeahead service for 50 million daily users.",
            Q,
            "We served 50 million users."
        ));
        // A new question on the same topic, or one that announces a new topic.
        assert!(!is_follow_up("How do you evaluate a RAG system end to end?", Q, A));
        assert!(!is_follow_up("Let's move on to memory. How would you store user preferences?", Q, A));
        assert!(!is_follow_up(
            "RAG 的效果你们怎么评测？",
            "文档怎么切的？",
            "按标题切，存在 Milvus 里，RAG 召回还行。"
        ));
    }

    #[test]
    fn a_determiner_a_doubt_or_a_pronoun_points_into_the_answer() {
        // Points with "the" at what the answer named, doubts it happened, or leans on it with a
        // pronoun; "the cost of…" is qualified anew, and a set-up of its own is what "it" means.
        let tuned = "Yes, a LoRA on 8,000 labelled tickets, with a reranker in front.";
        assert!(is_follow_up("Who wrote the labels, and how?", "Have you fine-tuned a model?", tuned));
        assert!(!is_follow_up(
            "On tool calling, what does your agent do when the model returns bad arguments? Do you retry the call?",
            "How is an agent different from a workflow?",
            "The model picks the next tool call in a loop, with a budget per task.",
        ));
        assert!(!is_follow_up(
            "How would you protect an agent that browses the web against injected pages?",
            Q,
            "We built an agent that browses internal wikis."
        ));
        assert!(is_follow_up("Did it ever actually beat the base model?", "Have you fine-tuned a model?", tuned));
        assert!(is_follow_up("Would you do it again?", "Have you fine-tuned a model?", tuned));
        assert!(!is_follow_up(
            "How do you estimate the cost of a fine-tune before you start?",
            "Have you fine-tuned a model?",
            "Yes, and the cost was about $300."
        ));
        assert!(!is_follow_up(
            "We run five thousand jobs a night and half of them time out. What do you do about it?",
            Q,
            A
        ));
        // The same in Chinese: a count pointed at, a doubt, "since then, ever…?", and specifics
        // asked after naming a part; "那一般…" asks in general.
        let data = "一万条客服对话，清洗完剩八千条，上线后用规则过滤。";
        assert!(is_follow_up("洗掉的那两千条是什么问题？", "数据怎么准备的？", data));
        assert!(is_follow_up("光靠规则过滤，你们信得过吗？", "数据怎么准备的？", data));
        assert!(is_follow_up("上线之后出过事故吗？", "数据怎么准备的？", data));
        assert!(is_follow_up("那索引呢？具体怎么建的？", "数据怎么准备的？", data));
        assert!(!is_follow_up("换个角度，那一般怎么评估召回？", "数据怎么准备的？", data));
    }
}

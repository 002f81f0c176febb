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

use super::text::normalize;
use crate::lang::{is_cjk, sentences};

/// Openers of a question that digs into the previous answer.
const FOLLOW_UP_ZH: &[&str] = &[
    "你刚才提到",
    "你刚才说",
    "刚才你说",
    "刚才你提到",
    "你提到",
    "你说的",
    "你说到",
    "那如果",
    "具体来说",
    "具体讲",
    "具体说",
    "追问一下",
    "追问",
    "展开说说",
    "展开讲讲",
    "详细说说",
    "再深入",
    "那为什么",
    "为什么不",
    "为什么这么",
    "举个例子",
    "那这个",
    "那在这种",
    "那要是",
    "要是",
    "万一",
    "后来",
    "那后来",
    "然后呢",
];
const FOLLOW_UP_EN: &[&str] = &[
    "you mentioned",
    "following up",
    "follow up",
    "follow-up",
    "what if",
    "can you go deeper",
    "go deeper",
    "how exactly",
    "going back to what you said",
    "you said",
    "can you elaborate",
    "could you elaborate",
    "elaborate on",
    "why did you",
    "can you give an example",
    "could you give an example",
    "dig into",
    "and if",
    "what happens if your",
    "why not",
    "how long did",
    "how much did",
    "what happens when your",
    "then what",
    "and then what",
];
/// Openers that announce a new topic and so rule out a follow-up.
const NEW_TOPIC: &[&str] = &[
    "换个话题",
    "接下来",
    "下一个问题",
    "下个问题",
    "另一个问题",
    "另外一个问题",
    "我们聊聊",
    "我们来聊",
    "我们再聊",
    "我们换",
    "let's move on",
    "moving on",
    "move on",
    "next question",
    "switching gears",
    "switch gears",
    "another topic",
    "different topic",
    "let's talk about",
    "let's switch",
    "new topic",
];
/// A hypothetical that sets the candidate a task of their own ("那如果让你做一个代码库问答的助手…")
/// opens a new question, however it starts.
const NEW_TASK: &[&str] = &[
    "让你设计",
    "让你做",
    "让你从零",
    "让你来",
    "if you had to design",
    "if you had to build",
    "if you were to design",
    "if you were to build",
];
/// Openers that set a task of its own ("Design a typeahead service…", "设计一个短链服务"): only at
/// the start, since "Why did you design a custom queue?" digs into the answer.
const NEW_TASK_START: &[&str] = &["design a ", "design an ", "设计一个", "请设计", "请你设计"];
/// A question that asks how a thing works or differs, or what one does in general ("What's the
/// difference between HNSW and IVF?", "HNSW 的原理是什么？", "p99 突然升高你一般怎么排查？"),
/// stands alone even when it names something the answer named.
const STANDS_ALONE: &[&str] = &[
    "difference between",
    "differences between",
    "how does",
    "how do you generally",
    "in general",
    "generally",
    "typically",
    "区别",
    "原理",
    "一般",
    "通常",
];
/// Words that point back at what was just said ("Does that scale?", "这样成本不低吧",
/// "当时为什么不直接换模型？"): a question standing alone has nothing for them to point at.
const REFERS_BACK_EN: &[&str] = &[
    "does that",
    "did that",
    "is that",
    "was that",
    "would that",
    "will that",
    "could that",
    "that approach",
    "that number",
    "that threshold",
    "that choice",
    "that decision",
    "that step",
    "that setup",
    "that change",
    "handle that",
    "about that",
];
const REFERS_BACK_ZH: &[&str] =
    &["这样", "这么做", "这么搞", "这种做法", "这个方案", "这个阈值", "这个数", "这一步", "当时", "这件事", "剩下"];
/// How far into the question (characters) a word pointing back counts.
const REFERS_BACK_HEAD_EN: usize = 30;
const REFERS_BACK_HEAD_ZH: usize = 12;
/// Openers of a Chinese question that point back ("这个对生成速度有影响吗？").
const STARTS_BACK_ZH: &[&str] = &["这个", "这些", "那些"];
/// A short Chinese question asking for a figure ("一条大概多少钱？"), or one asking how much
/// something changed ("量化之后效果掉了多少？"), asks about what was described.
const FIGURE_ZH: &[&str] = &["多少", "多久", "多长时间"];
const FIGURE_CJK: usize = 8;
const CHANGE_ZH: &str = "了多少";
/// Conditionals that ask about the situation just described when they end in "呢"
/// ("如果用户回头问一个被摘要丢掉的细节呢？").
const CONDITIONAL_ZH: &[&str] = &["如果", "要是", "万一", "假如"];
/// Challenges that are one wherever they stand in the question ("现在不都得自己维护了？").
const STRONG_CHALLENGE_ZH: &[&str] = &["不都得", "不都要", "不都是", "难道", "岂不", "不就是", "不就得"];
/// Share of a question's content words found in the previous pair that makes it a follow-up even
/// without an opener: high, because every question of an agent interview shares some vocabulary.
const OVERLAP_FOLLOW_UP: f64 = 0.6;
/// Fewer content words than this are too few to judge overlap.
const OVERLAP_MIN_TOKENS: usize = 4;

/// Words of the field that every question of an interview shares: named in the answer and again
/// in the question, they are its topic, not a specific it digs into.
const FIELD_TERMS: &[&str] = &[
    "ai",
    "api",
    "apis",
    "agent",
    "agents",
    "llm",
    "llms",
    "rag",
    "prompt",
    "prompts",
    "embedding",
    "embeddings",
    "token",
    "tokens",
    "model",
    "models",
    "gpt",
    "json",
    "sql",
    "http",
    "ok",
    "okay",
];
/// A question this short (words, or Chinese characters) leans on the answer before it.
const SHORT_WORDS: usize = 4;
const SHORT_CJK: usize = 6;
/// Short Chinese questions that ask for more of the same ("比如说？", "具体差多少？").
const SHORT_OPENERS_ZH: &[&str] = &["比如", "具体", "然后呢", "为什么", "多少", "怎么说"];
/// Negative questions that challenge what was just said ("Isn't that expensive?").
const CHALLENGE_EN: &[&str] =
    &["isn't", "doesn't", "wouldn't", "won't", "aren't", "didn't", "don't", "couldn't", "shouldn't", "hasn't"];
const CHALLENGE_ZH: &[&str] = &["不会", "会不会", "难道", "不都", "不就", "岂不", "不怕"];
/// Words before the question proper ("Hmm, isn't…", "那…").
const FILLERS: &[&str] = &["hmm", "so", "and", "but", "okay", "ok", "well", "right", "嗯", "那", "可是", "但是"];

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
    (!alone && names_a_specific(question, prev_question, prev_answer))
        || challenges(&asked)
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
        // A doubt put as a statement with a tag ("这个量不小吧", "也不一定是变好了吧").
        || asked.contains('不') && asked.trim_end_matches(|c: char| "？?。.！! ".contains(c)).ends_with('吧')
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
        || crate::lang::counts(asked).0 <= FIGURE_CJK && FIGURE_ZH.iter().any(|m| asked.contains(m))
        || conditional
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
}

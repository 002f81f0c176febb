//! Terms for search and overlap: jieba segmentation for Chinese, words for English, lowercased,
//! without punctuation and stop words. Index and queries use the same function, so a query such as
//! 工具调用失败怎么处理 becomes OR-ed terms rather than tantivy's exact phrase.

use std::collections::HashSet;
use std::sync::LazyLock;

use jieba_rs::Jieba;
use rust_stemmers::{Algorithm, Stemmer};

/// One dictionary per process: loading it takes a noticeable fraction of a second.
static JIEBA: LazyLock<Jieba> = LazyLock::new(Jieba::new);
/// English words are stemmed so "modules" meets "module" and "built" meets "build".
static STEMMER: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));

const STOP: &[&str] = &[
    // Chinese function words and question scaffolding.
    "的",
    "了",
    "是",
    "在",
    "和",
    "与",
    "或",
    "及",
    "吗",
    "呢",
    "吧",
    "啊",
    "么",
    "什么",
    "怎么",
    "怎样",
    "如何",
    "为什么",
    "哪些",
    "哪个",
    "一下",
    "一个",
    "这个",
    "那个",
    "哪里",
    "哪儿",
    "多少",
    "一般",
    "喜欢",
    "平时",
    "这些",
    "那些",
    "你",
    "我",
    "我们",
    "你们",
    "他们",
    "它",
    "会",
    "要",
    "能",
    "可以",
    "有",
    "没有",
    "就",
    "都",
    "也",
    "还",
    "又",
    "被",
    "把",
    "给",
    "对",
    "让",
    "从",
    "到",
    "说",
    "讲",
    "谈",
    "请",
    "里",
    "中",
    "上",
    "下",
    "时",
    "时候",
    "如果",
    "而",
    "但",
    "但是",
    "所以",
    "因为",
    "比如",
    "等",
    "之",
    "其",
    "该",
    "些",
    "个",
    "种",
    "次",
    "做",
    "用",
    "怎么样",
    "是否",
    "是不是",
    "有没有",
    // English.
    "a",
    "an",
    "the",
    "and",
    "or",
    "of",
    "to",
    "in",
    "on",
    "for",
    "with",
    "by",
    "at",
    "from",
    "as",
    "is",
    "are",
    "was",
    "were",
    "be",
    "been",
    "it",
    "its",
    "this",
    "that",
    "these",
    "those",
    "you",
    "your",
    "we",
    "our",
    "i",
    "my",
    "me",
    "they",
    "their",
    "what",
    "how",
    "why",
    "when",
    "which",
    "who",
    "do",
    "does",
    "did",
    "can",
    "could",
    "would",
    "should",
    "will",
    "about",
    "into",
    "if",
    "so",
    "than",
    "then",
    "there",
    "tell",
    "some",
    "any",
    "have",
    "has",
    "had",
    "not",
    "no",
    "yes",
    "one",
    "also",
    "just",
    "like",
    "s",
    // English question scaffolding: verbs and fillers that frame a question without naming a topic.
    "use",
    "using",
    "used",
    "think",
    "explain",
    "describe",
    "walk",
    "through",
    "mean",
    "means",
    "know",
    "way",
    "ways",
    "thing",
    "things",
    "get",
    "make",
    "go",
    "want",
    "need",
    "really",
    "actually",
    "kind",
    "sort",
    "let",
    "let's",
    "talk",
    "say",
];

static STOPSET: LazyLock<HashSet<&'static str>> = LazyLock::new(|| STOP.iter().copied().collect());

/// Search terms of a text, in order, duplicates kept (term frequency matters to BM25).
pub fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for tok in JIEBA.cut_for_search(text, true) {
        let w = tok.word.trim();
        if w.is_empty() || !w.chars().any(char::is_alphanumeric) {
            continue;
        }
        let lower = w.to_lowercase();
        if STOPSET.contains(lower.as_str()) {
            continue;
        }
        if lower.is_ascii() && lower.chars().all(|c| c.is_ascii_alphabetic()) {
            out.push(STEMMER.stem(&lower).into_owned());
        } else {
            out.push(lower);
        }
    }
    out
}

/// Each term with the word it came from (lowercased, unstemmed), in order: keywords a reader can
/// read, matched by their stems.
pub fn surface_terms(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for tok in JIEBA.cut(text, true) {
        let lower = tok.word.trim().to_lowercase();
        if lower.is_empty() || !lower.chars().any(char::is_alphanumeric) || STOPSET.contains(lower.as_str()) {
            continue;
        }
        let term = if lower.is_ascii() && lower.chars().all(|c| c.is_ascii_alphabetic()) {
            STEMMER.stem(&lower).into_owned()
        } else {
            lower.clone()
        };
        out.push((lower, term));
    }
    out
}

/// Distinct terms.
pub fn term_set(text: &str) -> HashSet<String> {
    terms(text).into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_chinese_and_english() {
        let t = terms("工具调用失败怎么处理？How do you handle Tool-calling failures?");
        assert!(t.contains(&"工具".to_string()), "{t:?}");
        assert!(t.contains(&"失败".to_string()), "{t:?}");
        assert!(t.contains(&"handl".to_string()), "stemmed: {t:?}");
        assert_eq!(terms("modules"), terms("module"));
        assert!(!t.contains(&"怎么".to_string()));
        assert!(!t.iter().any(|w| w == "?" || w == "？" || w == " "));
    }
}

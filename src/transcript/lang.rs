//! Language of a text: Chinese, English, or both.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    Zh,
    En,
    Mixed,
}

impl Language {
    pub fn as_str(self) -> &'static str {
        match self {
            Language::Zh => "zh",
            Language::En => "en",
            Language::Mixed => "mixed",
        }
    }
}

/// One English word carries about as much as 1.5 Chinese characters; weighting words this way keeps
/// Chinese talk sprinkled with English terms (RAG, MCP, Agent) classified as Chinese.
const WORD_WEIGHT: f64 = 1.5;
/// Share of Chinese above which a text is Chinese, and below `1 - ZH_SHARE` English.
const ZH_SHARE: f64 = 0.75;

/// Count CJK ideographs and Latin words.
pub fn counts(text: &str) -> (usize, usize) {
    let mut cjk = 0;
    let mut words = 0;
    let mut in_word = false;
    for c in text.chars() {
        if is_cjk(c) {
            cjk += 1;
            in_word = false;
        } else if c.is_ascii_alphabetic() {
            if !in_word {
                words += 1;
                in_word = true;
            }
        } else if !(in_word && (c == '\'' || c == '-')) {
            in_word = false;
        }
    }
    (cjk, words)
}

/// Detect the language over several texts. Empty input counts as English.
pub fn detect<'a>(texts: impl Iterator<Item = &'a str>) -> Language {
    let (mut cjk, mut words) = (0usize, 0usize);
    for t in texts {
        let (c, w) = counts(t);
        cjk += c;
        words += w;
    }
    let zh = cjk as f64;
    let en = words as f64 * WORD_WEIGHT;
    if zh + en == 0.0 {
        return Language::En;
    }
    let share = zh / (zh + en);
    if share >= ZH_SHARE {
        Language::Zh
    } else if share <= 1.0 - ZH_SHARE {
        Language::En
    } else {
        Language::Mixed
    }
}

/// CJK unified ideographs (the basic block and extension A) and compatibility ideographs.
pub fn is_cjk(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}' | '\u{F900}'..='\u{FAFF}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages() {
        assert_eq!(detect(["我在项目里用 RAG 和 MCP 做了一个 Agent，效果不错。"].into_iter()), Language::Zh);
        assert_eq!(detect(["How would you design the memory of an agent?"].into_iter()), Language::En);
        assert_eq!(
            detect(["How would you design the memory of an agent?", "我会分成短期记忆和长期记忆两层。"].into_iter()),
            Language::Mixed
        );
    }
}

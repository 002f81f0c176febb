//! Languages: the one [`Lang`] type, detection, the CJK test, sentence splitting, and the lexicon
//! of filler and hesitation words per language. A leaf: it imports no other module of the crate,
//! so every module may use it.

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A language ivd speaks: of a question, an answer, a report, a knowledge-base text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// Chinese (Mandarin, simplified characters).
    Zh,
    /// English.
    En,
}

impl Lang {
    pub fn as_str(self) -> &'static str {
        match self {
            Lang::Zh => "zh",
            Lang::En => "en",
        }
    }

    pub fn is_zh(self) -> bool {
        self == Lang::Zh
    }

    /// The other of the two.
    pub fn other(self) -> Lang {
        match self {
            Lang::Zh => Lang::En,
            Lang::En => Lang::Zh,
        }
    }

    /// Pick the text for this language from a Chinese and an English one.
    pub fn pick<T>(self, zh: T, en: T) -> T {
        match self {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An unknown language code: always an input error, with the codes that are known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown language {0:?}: use \"zh\" or \"en\"")]
pub struct UnknownLang(pub String);

impl FromStr for Lang {
    type Err = UnknownLang;
    fn from_str(s: &str) -> Result<Lang, UnknownLang> {
        match s.trim().to_ascii_lowercase().as_str() {
            "zh" | "zh-cn" | "zh-hans" | "cmn" | "chinese" => Ok(Lang::Zh),
            "en" | "en-us" | "en-gb" | "english" => Ok(Lang::En),
            _ => Err(UnknownLang(s.to_string())),
        }
    }
}

/// What a text is written in: one language, or a real share of both. Only detection and the
/// source's label say "mixed"; everything that speaks uses [`Mix::main`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Mix {
    Zh,
    En,
    Mixed,
}

impl Mix {
    pub fn as_str(self) -> &'static str {
        match self {
            Mix::Zh => "zh",
            Mix::En => "en",
            Mix::Mixed => "mixed",
        }
    }

    /// The language to speak for it: Chinese for a mixed text (its talk carries English terms).
    pub fn main(self) -> Lang {
        match self {
            Mix::En => Lang::En,
            Mix::Zh | Mix::Mixed => Lang::Zh,
        }
    }
}

impl From<Lang> for Mix {
    fn from(l: Lang) -> Mix {
        match l {
            Lang::Zh => Mix::Zh,
            Lang::En => Mix::En,
        }
    }
}

/// One English word carries about as much as 1.5 Chinese characters; weighting words this way keeps
/// Chinese talk sprinkled with English terms (RAG, MCP, Agent) classified as Chinese.
pub const WORD_WEIGHT: f64 = 1.5;
/// Share of Chinese above which a text is Chinese, and below `1 - ZH_SHARE` English.
const ZH_SHARE: f64 = 0.75;

/// CJK unified ideographs (the basic block and extension A) and compatibility ideographs.
pub fn is_cjk(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}' | '\u{F900}'..='\u{FAFF}')
}

/// An ideograph or CJK / full-width punctuation: no space is written next to it.
pub fn is_cjk_or_punct(c: char) -> bool {
    is_cjk(c) || matches!(c, '\u{3000}'..='\u{303F}' | '\u{FF00}'..='\u{FFEF}')
}

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
pub fn detect<'a>(texts: impl Iterator<Item = &'a str>) -> Mix {
    let (mut cjk, mut words) = (0usize, 0usize);
    for t in texts {
        let (c, w) = counts(t);
        cjk += c;
        words += w;
    }
    let zh = cjk as f64;
    let en = words as f64 * WORD_WEIGHT;
    if zh + en == 0.0 {
        return Mix::En;
    }
    let share = zh / (zh + en);
    if share >= ZH_SHARE {
        Mix::Zh
    } else if share <= 1.0 - ZH_SHARE {
        Mix::En
    } else {
        Mix::Mixed
    }
}

/// The language of one text: Chinese characters against English words (weighted as in
/// [`detect`]); None for a text with neither.
pub fn majority(text: &str) -> Option<Lang> {
    let (cjk, words) = counts(text);
    (cjk + words > 0).then_some(if cjk as f64 >= words as f64 * WORD_WEIGHT { Lang::Zh } else { Lang::En })
}

/// The language a question's feedback speaks: the question's, or for a mixed question the
/// answer's (Chinese unless the answer is English).
pub fn of_question(question: &str, answer: &str) -> Lang {
    match detect(std::iter::once(question)) {
        Mix::En => Lang::En,
        Mix::Zh => Lang::Zh,
        Mix::Mixed => match detect(std::iter::once(answer)) {
            Mix::En => Lang::En,
            _ => Lang::Zh,
        },
    }
}

/// Split into sentences after 。！？!? and after '.' followed by whitespace; the terminator stays
/// with its sentence, and closing quotes or brackets follow it.
pub fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut iter = text.char_indices().peekable();
    while let Some((i, c)) = iter.next() {
        let terminal = match c {
            '。' | '！' | '？' | '!' | '?' | '…' => true,
            '.' | ';' | '；' => iter.peek().is_none_or(|&(_, n)| n.is_whitespace()),
            '\n' => true,
            _ => false,
        };
        if terminal {
            let mut end = i + c.len_utf8();
            while let Some(&(j, n)) = iter.peek() {
                if matches!(n, '"' | '\'' | '”' | '’' | '）' | ')' | '」' | '』' | '!' | '?' | '！' | '？' | '。')
                {
                    end = j + n.len_utf8();
                    iter.next();
                } else {
                    break;
                }
            }
            push_trimmed(&mut out, &text[start..end]);
            start = end;
        }
    }
    push_trimmed(&mut out, &text[start..]);
    out
}

fn push_trimmed<'a>(out: &mut Vec<&'a str>, s: &'a str) {
    let s = s.trim();
    if !s.is_empty() {
        out.push(s);
    }
}

/// The filler and hesitation words of one language.
#[derive(Debug)]
pub struct Lexicon {
    /// Sounds that are only hesitation (normalised forms): they always count as fillers.
    pub hesitations: &'static [&'static str],
    /// Discourse markers that are fillers only where they act as one (set off by a pause,
    /// doubled, next to a hesitation): "like", "you know"; 那个 这个 就是 然后.
    pub markers: &'static [&'static str],
    /// Hedges: "I think", "maybe"; 我觉得 可能.
    pub hedges: &'static [&'static str],
    /// Sounds that hesitate only where they stand alone: a turn of their own ("Hmm."), or for 啊
    /// after a pause (elsewhere it is a sentence particle: 是啊).
    pub interjections: &'static [&'static str],
}

// Sources: Shriberg 1994 and Clark & Fox Tree 2002 for English filled pauses; for Mandarin
// (Zhao & Jurafsky 2005) 嗯 呃 额 are filled pauses and 那个 这个 就是 然后 the commonest markers.
const EN: Lexicon = Lexicon {
    hesitations: &["um", "uh", "er"],
    markers: &["like", "you know"],
    hedges: &[
        "i think",
        "i guess",
        "i believe",
        "maybe",
        "kind of",
        "sort of",
        "probably",
        "perhaps",
        "i'm not sure",
        "not sure",
    ],
    interjections: &["hmm", "mm"],
};
const ZH: Lexicon = Lexicon {
    hesitations: &["嗯", "呃", "额"],
    markers: &["那个", "这个", "就是", "然后"],
    hedges: &["我觉得", "我感觉", "可能", "应该吧", "好像", "大概", "也许", "或许", "不太确定"],
    interjections: &["啊"],
};

pub fn lexicon(lang: Lang) -> &'static Lexicon {
    match lang {
        Lang::Zh => &ZH,
        Lang::En => &EN,
    }
}

/// Normalise an English hesitation: umm/uhm -> um, uhh -> uh, erm -> er.
pub fn hesitation_en(word: &str) -> Option<&'static str> {
    let w = word.as_bytes();
    let all = |set: &[u8]| !w.is_empty() && w.iter().all(|c| set.contains(c));
    if all(b"uhm") && w.contains(&b'm') && w[0] == b'u' {
        Some("um")
    } else if all(b"uh") && w[0] == b'u' {
        Some("uh")
    } else if all(b"erm") && w[0] == b'e' && w.len() >= 2 {
        Some("er")
    } else {
        None
    }
}

/// The normalised hesitation a written word is, in `lang` ("um" for "Umm,", 嗯 for 嗯嗯).
pub fn hesitation(word: &str, lang: Lang) -> Option<&'static str> {
    match lang {
        Lang::En => {
            let w: String = word.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect();
            hesitation_en(&w)
        }
        Lang::Zh => {
            let han: Vec<char> = word.chars().filter(|c| c.is_alphanumeric()).collect();
            let first = *han.first()?;
            ZH.hesitations.iter().find(|h| h.starts_with(first) && han.iter().all(|c| *c == first)).copied()
        }
    }
}

/// Whether a written word is only a hesitation sound or an interjection, in either language.
pub fn is_hesitation_sound(word: &str) -> bool {
    let w: String = word.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect();
    let interjection = |lang: Lang| {
        lexicon(lang).interjections.iter().any(|i| {
            let first = i.chars().next().unwrap_or(' ');
            w.starts_with(*i) && w.chars().all(|c| c == first || i.contains(c))
        })
    };
    hesitation(word, Lang::En).is_some()
        || hesitation(word, Lang::Zh).is_some()
        || interjection(Lang::En)
        || interjection(Lang::Zh)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages() {
        assert_eq!(detect(["我在项目里用 RAG 和 MCP 做了一个 Agent，效果不错。"].into_iter()), Mix::Zh);
        assert_eq!(detect(["How would you design the memory of an agent?"].into_iter()), Mix::En);
        assert_eq!(
            detect(["How would you design the memory of an agent?", "我会分成短期记忆和长期记忆两层。"].into_iter()),
            Mix::Mixed
        );
        assert_eq!(of_question("What is RAG?", "检索增强生成"), Lang::En);
        assert_eq!(majority(""), None);
    }

    #[test]
    fn codes_parse_and_unknown_ones_say_what_is_known() {
        assert_eq!("ZH".parse::<Lang>(), Ok(Lang::Zh));
        assert_eq!("en-US".parse::<Lang>(), Ok(Lang::En));
        let e = "fr".parse::<Lang>().unwrap_err();
        assert!(e.to_string().contains("\"zh\" or \"en\""), "{e}");
        assert_eq!(serde_json::to_string(&Lang::Zh).unwrap(), "\"zh\"");
        assert!(serde_json::from_str::<Lang>("\"fr\"").is_err());
    }

    #[test]
    fn hesitations_in_both_languages() {
        assert_eq!(hesitation("Umm,", Lang::En), Some("um"));
        assert_eq!(hesitation("uhh", Lang::En), Some("uh"));
        assert_eq!(hesitation("under", Lang::En), None);
        assert_eq!(hesitation("嗯嗯", Lang::Zh), Some("嗯"));
        assert_eq!(hesitation("呃，", Lang::Zh), Some("呃"));
        assert_eq!(hesitation("嗯呃", Lang::Zh), None);
        assert!(is_hesitation_sound("额"));
        assert!(is_hesitation_sound("Hmm."));
        assert!(is_hesitation_sound("啊"));
        assert!(!is_hesitation_sound("ham"));
        assert!(!is_hesitation_sound("好"));
    }

    #[test]
    fn splits_sentences() {
        assert_eq!(sentences("好的。那我们聊聊记忆？你怎么设计"), vec!["好的。", "那我们聊聊记忆？", "你怎么设计"]);
        assert_eq!(
            sentences("Okay, great. What is MCP? It is v1.2 now."),
            vec!["Okay, great.", "What is MCP?", "It is v1.2 now."]
        );
        assert_eq!(sentences("“真的吗？”他问。"), vec!["“真的吗？”", "他问。"]);
    }
}

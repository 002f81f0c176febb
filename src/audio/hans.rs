//! Chinese as readers expect it: whisper base writes traditional characters for some Mandarin
//! (廣州 for 广州) and ASCII punctuation between characters ("体验,打"). Transcripts of Chinese
//! speech are turned into simplified characters (OpenCC's t2s tables) with full-width
//! punctuation, words and segments alike, so that what is scored and shown reads right.

use std::sync::OnceLock;

use ferrous_opencc::config::BuiltinConfig;
use ferrous_opencc::OpenCC;

use super::whisper::Transcription;
use crate::lang::{is_cjk, Lang};

/// Built once: loading the tables takes milliseconds, converting a segment microseconds.
fn converter() -> Option<&'static OpenCC> {
    static T2S: OnceLock<Option<OpenCC>> = OnceLock::new();
    T2S.get_or_init(|| match OpenCC::from_config(BuiltinConfig::T2s) {
        Ok(c) => Some(c),
        Err(e) => {
            tracing::warn!("traditional-to-simplified tables unavailable, Chinese left as heard: {e}");
            None
        }
    })
    .as_ref()
}

/// `text` in simplified characters with full-width punctuation next to Chinese characters.
pub fn simplified(text: &str) -> String {
    let converted = converter().map_or_else(|| text.to_string(), |c| c.convert(text));
    full_width_punctuation(&converted)
}

/// ASCII `, . ? ! : ;` touching a Chinese character become `， 。 ？ ！ ： ；` (a decimal point or
/// an English clause keeps its own), and a space after them goes.
fn full_width_punctuation(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut skip_space = false;
    for (i, &c) in chars.iter().enumerate() {
        if skip_space && c == ' ' {
            continue;
        }
        skip_space = false;
        let before = i.checked_sub(1).and_then(|j| chars.get(j)).copied();
        let after = chars[i + 1..].iter().find(|c| **c != ' ').copied();
        let near_cjk = before.is_some_and(is_cjk)
            || (after.is_some_and(is_cjk) && !before.is_some_and(|b| b.is_ascii_alphanumeric()));
        let wide = match c {
            ',' => Some('，'),
            '.' if !(before.is_some_and(|b| b.is_ascii_digit()) && after.is_some_and(|a| a.is_ascii_digit())) => {
                Some('。')
            }
            '?' => Some('？'),
            '!' => Some('！'),
            ':' => Some('：'),
            ';' => Some('；'),
            _ => None,
        };
        match wide.filter(|_| near_cjk) {
            Some(w) => {
                out.push(w);
                skip_space = true;
            }
            None => out.push(c),
        }
    }
    out
}

/// A transcription of Chinese speech in simplified characters; others unchanged.
pub fn simplify(mut tr: Transcription) -> Transcription {
    if tr.language != Lang::Zh {
        return tr;
    }
    for seg in &mut tr.segments {
        seg.text = simplified(&seg.text);
        for w in &mut seg.words {
            w.text = simplified(&w.text);
        }
    }
    tr
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traditional_becomes_simplified_with_chinese_punctuation() {
        assert_eq!(simplified("我住在廣州,那裡的天氣很熱."), "我住在广州，那里的天气很热。");
        assert_eq!(simplified("欢迎大家来体验, 打模院"), "欢迎大家来体验，打模院");
        // English and numbers keep their own punctuation.
        assert_eq!(simplified("It costs 3.5 dollars, right?"), "It costs 3.5 dollars, right?");
        assert_eq!(simplified("延迟是 3.5 秒"), "延迟是 3.5 秒");
        assert_eq!(simplified("用 RAG, 效果更好"), "用 RAG, 效果更好");
    }
}

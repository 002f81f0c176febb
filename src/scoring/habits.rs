//! Verbal habits from the words alone, for recordings and transcripts alike: filler words,
//! hedging and repeated phrases, each occurrence with its time where the words have times.
//!
//! Hesitations (um, uh, er; 嗯 呃 额) always count. Discourse markers (like, you know; 那个 这个
//! 就是 然后) count only where they act as fillers: set off by a comma or a pause, doubled, or next to
//! a hesitation — "I'd like to" and "然后我们上线了" are not fillers.

use serde::{Deserialize, Serialize};

use crate::lang::{hesitation_en, Lang};

/// A word as spoken: its text and, from a recording, its start and end.
#[derive(Debug, Clone, PartialEq)]
pub struct Spoken {
    pub text: String,
    pub start_s: Option<f64>,
    pub end_s: Option<f64>,
}

/// A silence after a word at least this long makes a discourse marker before it a filler.
const FILLER_PAUSE_S: f64 = 0.3;
/// A phrase used this often in one answer is flagged as repetitive (Speaker Coach and Yoodli
/// report "repetitive language" from the third use).
const REPEAT_MIN: usize = 3;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Occurrence {
    /// The normalised form: "um" for umm/uhm, "you know", "那个".
    pub word: String,
    pub t_s: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Count {
    pub word: String,
    pub count: usize,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Habits {
    pub fillers: Vec<Occurrence>,
    pub hedges: Vec<Occurrence>,
    /// Phrases used [`REPEAT_MIN`] times or more, and words said twice in a row ("the the").
    pub repeats: Vec<Occurrence>,
    /// Words (English) or characters (Chinese) spoken, fillers included.
    pub units: usize,
}

impl Habits {
    pub fn counts(list: &[Occurrence]) -> Vec<Count> {
        let mut out: Vec<Count> = Vec::new();
        for o in list {
            match out.iter_mut().find(|c| c.word == o.word) {
                Some(c) => c.count += 1,
                None => out.push(Count { word: o.word.clone(), count: 1 }),
            }
        }
        out.sort_by(|a, b| b.count.cmp(&a.count).then(a.word.cmp(&b.word)));
        out
    }
}

/// The lexicon's lists this module reads (see [`crate::lang::lexicon`]).
fn lex(lang: Lang) -> &'static crate::lang::Lexicon {
    crate::lang::lexicon(lang)
}
/// Chinese hesitations as characters: each one is a filler wherever it stands.
fn is_hesitation_zh(c: char) -> bool {
    lex(Lang::Zh).hesitations.iter().any(|h| h.starts_with(c))
}
const STOP_EN: &[&str] = &[
    "the", "a", "an", "and", "or", "to", "of", "in", "on", "for", "is", "are", "was", "it", "that", "this", "we", "i",
    "you", "with", "as", "be", "so", "but", "at", "by", "if", "then", "have", "has", "our", "my",
];

/// Whether a written word is itself a hesitation ("um", "uhh", 嗯, 呃).
pub fn is_filler_word(text: &str, lang: Lang) -> bool {
    crate::lang::hesitation(text, lang).is_some()
}

fn clean(w: &str) -> String {
    w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'').to_lowercase()
}

fn pause_after(words: &[Spoken], i: usize) -> bool {
    let end = words[i].text.trim_end();
    if end.ends_with(',') || end.ends_with('…') || end.ends_with("...") || end.ends_with('—') {
        return true;
    }
    match (words[i].end_s, words.get(i + 1).and_then(|w| w.start_s)) {
        (Some(e), Some(s)) => s - e >= FILLER_PAUSE_S,
        _ => false,
    }
}

/// English habits over words.
fn english(words: &[Spoken]) -> Habits {
    let w: Vec<String> = words.iter().map(|x| clean(&x.text)).collect();
    let mut h = Habits { units: w.iter().filter(|x| !x.is_empty()).count(), ..Habits::default() };
    let is_hes = |i: usize| w.get(i).map(|x| hesitation_en(x).is_some()).unwrap_or(false);
    for i in 0..w.len() {
        let t = words[i].start_s;
        if let Some(norm) = hesitation_en(&w[i]) {
            h.fillers.push(Occurrence { word: norm.into(), t_s: t });
        } else if w[i] == "like" {
            // Set off by commas or pauses on both sides, or next to a hesitation.
            let set_off = pause_after(words, i) && (i == 0 || pause_after(words, i - 1));
            if set_off || is_hes(i + 1) || (i > 0 && is_hes(i - 1)) {
                h.fillers.push(Occurrence { word: "like".into(), t_s: t });
            }
        } else if w[i] == "you" && w.get(i + 1).map(|x| x == "know").unwrap_or(false) {
            // "you know, ..." as a filler, not "do you know", "you know that/how/what ...".
            let before_ok = i == 0 || !matches!(w[i - 1].as_str(), "do" | "did" | "don't" | "if" | "as" | "would");
            let after_filler = pause_after(words, i + 1) || w.get(i + 2).is_none();
            if before_ok && after_filler {
                h.fillers.push(Occurrence { word: "you know".into(), t_s: t });
            }
        }
        for hedge in lex(Lang::En).hedges {
            let parts: Vec<&str> = hedge.split(' ').collect();
            if w.len() >= i + parts.len() && parts.iter().enumerate().all(|(k, p)| w[i + k] == *p) {
                // "not sure" inside "I'm not sure" counts once.
                if *hedge == "not sure" && i > 0 && w[i - 1] == "i'm" {
                    continue;
                }
                h.hedges.push(Occurrence { word: hedge.to_string(), t_s: t });
            }
        }
        if i > 0 && !w[i].is_empty() && w[i] == w[i - 1] && hesitation_en(&w[i]).is_none() {
            h.repeats.push(Occurrence { word: format!("{} {}", w[i], w[i]), t_s: t });
        }
    }
    h.repeats.extend(overused(&w, words, 2, |g| g.iter().any(|x| !STOP_EN.contains(&x.as_str()))));
    h
}

/// Phrases of `n` units used [`REPEAT_MIN`]+ times; each reported once, at its first use.
fn overused(units: &[String], words: &[Spoken], n: usize, content: impl Fn(&[String]) -> bool) -> Vec<Occurrence> {
    let mut seen: Vec<(String, usize, Option<f64>)> = Vec::new();
    for i in 0..units.len().saturating_sub(n - 1) {
        let g = &units[i..i + n];
        if g.iter().any(|x| x.is_empty() || hesitation_en(x).is_some()) || !content(g) {
            continue;
        }
        let key = g.join(if units.iter().any(|u| u.chars().count() > 1) { " " } else { "" });
        match seen.iter_mut().find(|s| s.0 == key) {
            Some(s) => s.1 += 1,
            None => seen.push((key, 1, words.get(i).and_then(|w| w.start_s))),
        }
    }
    seen.into_iter().filter(|s| s.1 >= REPEAT_MIN).map(|(word, _, t)| Occurrence { word, t_s: t }).collect()
}

/// Chinese habits: the words are joined into one string; every character keeps its word's time.
fn chinese(words: &[Spoken]) -> Habits {
    let mut chars: Vec<char> = Vec::new();
    let mut times: Vec<Option<f64>> = Vec::new();
    let mut word_of: Vec<usize> = Vec::new();
    for (i, w) in words.iter().enumerate() {
        for c in w.text.chars().filter(|c| !c.is_whitespace()) {
            chars.push(c);
            times.push(w.start_s);
            word_of.push(i);
        }
    }
    let is_han = crate::lang::is_cjk;
    let mut h = Habits { units: chars.iter().filter(|c| is_han(**c)).count(), ..Habits::default() };
    let punct = |c: Option<&char>| c.map(|c| "，,、…。.？?！! ".contains(*c)).unwrap_or(true);
    let after_pause = |end: usize| -> bool {
        punct(chars.get(end))
            || match (word_of.get(end.saturating_sub(1)), word_of.get(end)) {
                (Some(&a), Some(&b)) if a != b => match (words[a].end_s, words[b].start_s) {
                    (Some(e), Some(s)) => s - e >= FILLER_PAUSE_S,
                    _ => false,
                },
                _ => false,
            }
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if is_hesitation_zh(c) {
            h.fillers.push(Occurrence { word: c.to_string(), t_s: times[i] });
            i += 1;
            continue;
        }
        // 啊 as a filler stands alone; as a sentence-final particle ("是啊") it is not one.
        if lex(Lang::Zh).interjections.iter().any(|w| w.starts_with(c))
            && punct(i.checked_sub(1).and_then(|k| chars.get(k)))
        {
            h.fillers.push(Occurrence { word: c.to_string(), t_s: times[i] });
            i += 1;
            continue;
        }
        let mut matched = false;
        for m in lex(Lang::Zh).markers {
            let mc: Vec<char> = m.chars().collect();
            if chars[i..].starts_with(&mc) {
                let end = i + mc.len();
                let doubled = chars[end..].starts_with(&mc);
                let next_hes = chars.get(end).is_some_and(|c| is_hesitation_zh(*c));
                // 就是说 / 这个问题: a marker followed by more words with no pause is grammar.
                if after_pause(end) || doubled || next_hes {
                    h.fillers.push(Occurrence { word: m.to_string(), t_s: times[i] });
                }
                i = end;
                matched = true;
                break;
            }
        }
        if matched {
            continue;
        }
        for hedge in lex(Lang::Zh).hedges {
            let hc: Vec<char> = hedge.chars().collect();
            if chars[i..].starts_with(&hc) {
                h.hedges.push(Occurrence { word: hedge.to_string(), t_s: times[i] });
            }
        }
        i += 1;
    }
    h.repeats = chinese_repeats(&chars, &times);
    h
}

/// Repeats in Chinese: a 2-4 character run said twice in a row ("我们我们"), and 4-grams used 3+
/// times; each with the time of its first character.
fn chinese_repeats(chars: &[char], times: &[Option<f64>]) -> Vec<Occurrence> {
    let is_han = crate::lang::is_cjk;
    let mut repeats = Vec::new();
    for n in 2..=4 {
        let mut k = 0;
        while k + 2 * n <= chars.len() {
            if chars[k..k + n] == chars[k + n..k + 2 * n] && chars[k..k + n].iter().all(|c| is_han(*c)) {
                let s: String = chars[k..k + n].iter().collect();
                if !lex(Lang::Zh).markers.contains(&s.as_str()) {
                    repeats.push(Occurrence { word: format!("{s}{s}"), t_s: times[k] });
                }
                k += 2 * n;
            } else {
                k += 1;
            }
        }
    }
    let grams: Vec<String> = chars.iter().map(|c| if is_han(*c) { c.to_string() } else { String::new() }).collect();
    let spoken: Vec<Spoken> = times.iter().map(|t| Spoken { text: String::new(), start_s: *t, end_s: None }).collect();
    repeats.extend(overused(&grams, &spoken, 4, |_| true));
    repeats
}

/// Habits of an answer given as words (with times from a recording, without from a transcript).
pub fn analyze(words: &[Spoken], lang: Lang) -> Habits {
    match lang {
        Lang::Zh => chinese(words),
        Lang::En => english(words),
    }
}

/// Words of a transcript's answer, without times.
pub fn words_of(text: &str, lang: Lang) -> Vec<Spoken> {
    if lang == Lang::Zh {
        vec![Spoken { text: text.to_string(), start_s: None, end_s: None }]
    } else {
        text.split_whitespace().map(|w| Spoken { text: w.to_string(), start_s: None, end_s: None }).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn en(s: &str) -> Habits {
        analyze(&words_of(s, Lang::En), Lang::En)
    }

    #[test]
    fn english_fillers_only_where_they_fill() {
        let h = en(
            "Um, so I, like, built it. Uhm, I'd like to add that you know, the cache, erm, helped. Do you know Redis?",
        );
        let f: Vec<&str> = h.fillers.iter().map(|o| o.word.as_str()).collect();
        assert_eq!(f, ["um", "like", "um", "you know", "er"]);
        let h = en("I think it is maybe kind of slow, I'm not sure. The the cache cache warms.");
        let hedges: Vec<&str> = h.hedges.iter().map(|o| o.word.as_str()).collect();
        assert_eq!(hedges, ["i think", "maybe", "kind of", "i'm not sure"]);
        assert_eq!(h.repeats.len(), 2);
    }

    #[test]
    fn chinese_markers_count_only_as_fillers() {
        let h = analyze(
            &words_of("嗯，那个，我们就是，然后然后上线了。这个问题我觉得可能是缓存。然后我们修好了", Lang::Zh),
            Lang::Zh,
        );
        let f: Vec<&str> = h.fillers.iter().map(|o| o.word.as_str()).collect();
        assert_eq!(f, ["嗯", "那个", "就是", "然后"], "{f:?}");
        let hedges: Vec<&str> = h.hedges.iter().map(|o| o.word.as_str()).collect();
        assert_eq!(hedges, ["我觉得", "可能"]);
    }

    #[test]
    fn overused_phrases_are_reported_once() {
        let h = en("The retry budget matters. A retry budget caps cost. Without a retry budget it loops.");
        assert_eq!(h.repeats, vec![Occurrence { word: "retry budget".into(), t_s: None }]);
    }
}

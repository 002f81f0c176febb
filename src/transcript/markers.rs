//! What transcribers write that nobody said: non-speech (`[laughter]`, `(inaudible)`, `[笑]`),
//! tape and session markers (`[END OF TAPE 1, SIDE A]`, `SESSION 2`), ad breaks
//! (`**Break**: \[27:50\]`) and stray time stamps inside the text. Removed before anything else
//! reads the talk, so they neither become speakers nor count as words of an answer.

/// Bracketed non-speech that may be followed by more (`[inaudible 00:12:03]`, `[END OF TAPE 1,
/// SIDE A]`, `(laughs softly)`): matched as whole words at the start.
const NON_SPEECH: &[&str] = &[
    "laughter",
    "laughs",
    "laughing",
    "laugh",
    "chuckles",
    "chuckling",
    "giggles",
    "crosstalk",
    "cross talk",
    "cross-talk",
    "overlapping speech",
    "overlapping",
    "inaudible",
    "unintelligible",
    "indiscernible",
    "coughs",
    "coughing",
    "sighs",
    "phone rings",
    "phone ringing",
    "long pause",
    "end of tape",
    "end tape",
    "begin tape",
    "beginning of tape",
    "start of tape",
    "tape",
    "side a",
    "side b",
    "end of session",
    "end of interview",
    "end of recording",
    "recording starts",
    "recording started",
    "recording ends",
    "recording stopped",
    "technical difficulties",
    "off the record",
    "background noise",
];

/// Bracketed non-speech that must stand alone (`[Music]`, `(pause)`, `[笑]`): these words also
/// start real asides ("(intro call)", "(audio pipeline)").
const NON_SPEECH_ALONE: &[&str] = &[
    "pause",
    "silence",
    "music",
    "applause",
    "noise",
    "unclear",
    "break",
    "ad break",
    "sponsor",
    "intro",
    "outro",
    "interruption",
    "笑",
    "大笑",
    "笑声",
    "听不清",
    "听不到",
    "无法辨认",
    "音乐",
    "掌声",
    "沉默",
    "停顿",
    "咳嗽",
    "杂音",
    "插话",
    "广告",
    "休息",
];

/// Longest bracketed stretch taken for a marker.
const MAX_MARKER_BYTES: usize = 64;

/// Labels that introduce a break in the show, not a speaker (`**Break**: \[27:50\]`).
const MARKER_LABELS: &[&str] = &[
    "break",
    "ad break",
    "ad",
    "ads",
    "sponsor",
    "sponsor break",
    "intro",
    "outro",
    "music",
    "广告",
    "中场休息",
    "休息",
];

/// Session and tape lines written without brackets.
const SESSION_WORDS: &[&str] = &["session", "tape", "side", "part", "day", "interview session", "第"];

/// Whether a bracketed stretch (without its brackets) is non-speech or a time stamp.
fn non_speech(inner: &str) -> bool {
    let t = inner.trim().trim_end_matches(['.', ':']).to_lowercase();
    if t.is_empty() || t.split_whitespace().count() > 6 {
        return false;
    }
    if is_stamp(&t) {
        return true;
    }
    let whole_words =
        |p: &&str| t.strip_prefix(*p).is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '-'));
    // Alone: nothing after the word but a time or a number (`[pause 3s]`, `[听不清 00:12]`).
    let alone = |p: &&str| {
        t.strip_prefix(*p).is_some_and(|rest| {
            rest.chars().all(|c| c.is_ascii_digit() || c.is_whitespace() || matches!(c, ':' | '.' | ',' | 's'))
                && !rest.trim().starts_with('s')
        })
    };
    NON_SPEECH.iter().any(whole_words) || NON_SPEECH_ALONE.iter().any(alone)
}

/// `12:34` or `1:02:03` (two-digit minutes and seconds after the first field).
fn is_stamp(t: &str) -> bool {
    let parts: Vec<&str> = t.split(':').collect();
    (2..=3).contains(&parts.len()) && parts[1..].iter().all(|p| p.len() == 2) && super::time::parse_clock(t).is_some()
}

/// Remove bracketed non-speech and time stamps inside a line: `So [laughter] we moved` -> `So we moved`.
pub(crate) fn strip_inline(line: &str) -> String {
    if !line.contains(['[', '(', '（', '【']) {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open_at) = rest.find(['[', '(', '（', '【']) {
        let open = rest[open_at..].chars().next().unwrap_or('[');
        let close = match open {
            '[' => ']',
            '(' => ')',
            '（' => '）',
            _ => '】',
        };
        let after_open = &rest[open_at + open.len_utf8()..];
        // Only a short stretch can be a marker: searching further would make a line full of
        // unmatched brackets quadratic.
        let mut window = after_open.len().min(MAX_MARKER_BYTES);
        while !after_open.is_char_boundary(window) {
            window -= 1;
        }
        match after_open[..window].find(close) {
            Some(len) if non_speech(&after_open[..len]) => {
                out.push_str(&rest[..open_at]);
                rest = &after_open[len + close.len_utf8()..];
                // Keep one space where the marker sat between two words.
                if out.ends_with(' ') && rest.starts_with(' ') {
                    rest = &rest[1..];
                }
            }
            _ => {
                out.push_str(&rest[..open_at + open.len_utf8()]);
                rest = after_open;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A line that holds nothing but markers: `[END OF TAPE 1, SIDE A]`, `(laughs)`, `SESSION 2`,
/// `**Break**: \[27:50\]`, `[Music]`.
pub(crate) fn is_marker_line(line: &str) -> bool {
    let t = line.trim().trim_matches(|c| c == '*' || c == '_' || c == '#').trim();
    if t.is_empty() {
        return false;
    }
    if (t.starts_with(['[', '(', '（', '【'])) && strip_inline(t).trim().is_empty() {
        return true;
    }
    session_line(t) || break_line(t)
}

/// `SESSION 2`, `TAPE 3, SIDE B`, `Part 1`, `第二次访谈`: short, no sentence, a session word first.
fn session_line(t: &str) -> bool {
    let lower = t.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    if words.is_empty() || words.len() > 6 || t.ends_with(['.', '?', '。', '？']) {
        return false;
    }
    let upper_or_short = t == t.to_uppercase() || words.len() <= 2;
    let first_is_session = SESSION_WORDS.iter().any(|w| *w != "第" && words[0] == *w);
    let numbered = words.iter().any(|w| w.chars().any(|c| c.is_ascii_digit()))
        || words.iter().any(|w| matches!(*w, "one" | "two" | "three" | "four" | "a" | "b" | "i" | "ii" | "iii"));
    let zh = t.starts_with('第') && (t.ends_with("次访谈") || t.ends_with("次面谈") || t.ends_with("场"));
    (first_is_session && numbered && upper_or_short) || zh
}

/// `Break: [27:50]`, `Ad break`, `广告：` — a break label with nothing but a time after it.
fn break_line(t: &str) -> bool {
    let (label, rest) = match t.split_once([':', '：']) {
        Some((l, r)) => (l, r),
        None => (t, ""),
    };
    let label = label.trim().trim_matches(|c| c == '*' || c == '_').trim().to_lowercase();
    let rest = strip_inline(rest.trim().trim_matches(|c| c == '*' || c == '_'));
    MARKER_LABELS.contains(&label.as_str()) && rest.trim().is_empty()
}

/// Markdown escapes transcripts use: `\[12:34\]` -> `[12:34]`.
pub(crate) fn unescape_markdown(line: &str) -> String {
    line.replace("\\[", "[").replace("\\]", "]").replace("\\(", "(").replace("\\)", ")").replace("\\*", "*")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_and_whole_line_markers() {
        assert_eq!(strip_inline("So [laughter] we moved (inaudible) north."), "So we moved north.");
        assert_eq!(strip_inline("我们（笑）当时[听不清]就走了"), "我们当时就走了");
        assert_eq!(strip_inline("Text [12:34] more"), "Text more");
        assert_eq!(strip_inline("an array [1, 2] (see above)"), "an array [1, 2] (see above)");
        assert_eq!(
            strip_inline("first round (phone screen) and (intro call)"),
            "first round (phone screen) and (intro call)"
        );
        assert_eq!(strip_inline("a ratio (3:1) or (1:1)"), "a ratio (3:1) or (1:1)");
        assert_eq!(strip_inline("we [inaudible 00:12:03] moved"), "we moved");
        assert_eq!(strip_inline(&"(:".repeat(20000)).len(), 40000);
        assert!(is_marker_line("[END OF TAPE 1, SIDE A]"));
        assert!(is_marker_line("  (laughs)  "));
        assert!(is_marker_line("SESSION 2"));
        assert!(is_marker_line("**Break**: [27:50]"));
        assert!(is_marker_line("[Music]"));
        assert!(!is_marker_line("Session two went badly, so we stopped."));
        assert!(!is_marker_line("[00:01:02] Priya: hello"));
        assert!(!is_marker_line("Break: we took a break and then came back with a plan."));
    }
}

//! Labeled text: `面试官：…`, `Interviewer: …`, `Q: …`, `Priya Raman: …`, optionally with a leading
//! `[00:01:02]` or a `Name (00:01):` time, or a label alone on its line with the text below.
//!
//! A line such as `There are three parts: …` inside an answer must not become a speaker, so a label
//! is accepted only when it names a role, or looks like a name and recurs (see [`accept_labels`]).

use super::roles::explicit_role;
use super::text::join_turn;
use super::time::parse_clock;
use super::Segment;
use std::collections::{HashMap, HashSet};

/// A line that starts with something label-shaped.
pub(crate) struct LabelLine<'a> {
    pub label: String,
    pub text: &'a str,
    pub start_s: Option<f64>,
}

/// Longest stretch before the colon that can hold a label (with a time and markup around it).
const MAX_LABEL_BYTES: usize = 96;

/// Split `Label: text` off a line when the label is shaped like a speaker label. Accepts a leading
/// `[00:01:02]` / `00:01:02`, a trailing `(00:01)` before the colon, and `**bold**` markup.
/// Hand-written rather than a regex: it runs on every line of 50 MB files.
pub(crate) fn split_label(line: &str) -> Option<LabelLine<'_>> {
    let mut rest = line.trim_start();
    let mut start_s = None;
    if let Some((t, after)) = leading_time(rest) {
        start_s = Some(t);
        rest = after;
    }
    let rest = strip_markup(rest);
    // The first colon outside brackets: `Name (01:02): text` has one inside its time.
    let mut depth = 0i32;
    let colon = rest
        .char_indices()
        .take_while(|(i, _)| *i <= MAX_LABEL_BYTES)
        .find(|&(_, c)| {
            match c {
                '(' | '[' | '（' => depth += 1,
                ')' | ']' | '）' => depth -= 1,
                _ => {}
            }
            depth <= 0 && (c == ':' || c == '：')
        })?
        .0;
    let colon_len = rest[colon..].chars().next().map_or(1, char::len_utf8);
    let mut label = strip_markup_end(rest[..colon].trim_end());
    if let Some((before, t)) = trailing_time(label) {
        start_s = start_s.or(Some(t));
        label = strip_markup_end(before.trim_end());
    }
    let label = label.trim_matches(|c| c == '*' || c == '_').trim();
    if label.contains(['[', ']', '(', ')', '（', '）']) || !label_like(label) {
        return None;
    }
    let mut text = strip_markup(rest[colon + colon_len..].trim_start()).trim_start();
    // `http://…` and `12:30` are not labels.
    if text.starts_with("//")
        || label.ends_with(|c: char| c.is_ascii_digit()) && text.starts_with(|c: char| c.is_ascii_digit())
    {
        return None;
    }
    // `**Name:** [12:34] text`: a bracketed stamp after the label is the turn's start ("10:30
    // works for me" is talk).
    if text.starts_with(['[', '(']) {
        if let Some((t, after)) = leading_time(text) {
            start_s = start_s.or(Some(t));
            text = after;
        }
    }
    Some(LabelLine { label: label.to_string(), text, start_s })
}

fn strip_markup(s: &str) -> &str {
    s.strip_prefix("**").or_else(|| s.strip_prefix("__")).unwrap_or(s)
}

fn strip_markup_end(s: &str) -> &str {
    s.strip_suffix("**").or_else(|| s.strip_suffix("__")).unwrap_or(s)
}

/// `[00:01:02] rest`, `(0:02) rest` or `00:01:02 rest`.
fn leading_time(s: &str) -> Option<(f64, &str)> {
    let (open, body) = match s.chars().next()? {
        '[' => (Some(']'), &s[1..]),
        '(' => (Some(')'), &s[1..]),
        c if c.is_ascii_digit() => (None, s),
        _ => return None,
    };
    let len = body.bytes().take_while(|b| b.is_ascii_digit() || matches!(b, b':' | b'.' | b',')).count();
    let t = parse_clock(&body[..len])?;
    let mut after = &body[len..];
    if let Some(close) = open {
        after = after.strip_prefix(close)?;
    }
    // A time must be followed by space before the label.
    after.starts_with(char::is_whitespace).then(|| (t, after.trim_start()))
}

/// `Name (00:01)` -> (`Name `, 1.0).
fn trailing_time(s: &str) -> Option<(&str, f64)> {
    let close = s.chars().last()?;
    let open = match close {
        ')' => '(',
        '）' => '（',
        ']' => '[',
        _ => return None,
    };
    let at = s.rfind(open)?;
    let t = parse_clock(&s[at + open.len_utf8()..s.len() - close.len_utf8()])?;
    Some((&s[..at], t))
}

/// Words that introduce content, not speakers, when followed by a colon.
const NOT_LABELS: &[&str] = &[
    "note", "notes", "example", "e.g", "i.e", "step", "tip", "summary", "update", "warning", "error", "result",
    "results", "reason", "problem", "solution", "pros", "cons", "first", "second", "third", "finally", "option", "key",
    "todo", "http", "https", "ps", "p.s", "re", "subject", "date", "time", "location", "duration", "title", "topic",
    "position", "role", "company",
];

/// Shape of a speaker label: short, has a letter, no sentence punctuation.
pub(crate) fn label_like(label: &str) -> bool {
    if label.is_empty() || label.len() > 60 || !label.chars().any(|c| c.is_alphabetic()) {
        return false;
    }
    if label.chars().any(|c| {
        matches!(
            c,
            '。' | '，'
                | ','
                | '?'
                | '？'
                | '!'
                | '！'
                | ';'
                | '；'
                | '"'
                | '“'
                | '”'
                | '/'
                | '\\'
                | '='
                | '<'
                | '>'
                | '{'
                | '}'
                | '、'
                | '|'
        )
    }) {
        return false;
    }
    let cjk = label.chars().filter(|&c| crate::lang::is_cjk(c)).count();
    let words = label.split_whitespace().count();
    if cjk > 10 || words > 4 {
        return false;
    }
    if label.ends_with('.') && words == 1 && label.len() <= 3 {
        return false;
    }
    let lower = label.to_lowercase();
    !NOT_LABELS.contains(&lower.as_str())
}

/// A label seen once is trusted only when it names a role or is written like a name
/// (`Priya Raman`, `Speaker 3`); other labels must recur before they count as speakers.
pub(crate) fn accept_labels(counts: &HashMap<String, usize>) -> HashSet<String> {
    counts
        .iter()
        .filter(|(label, &n)| explicit_role(label).is_some() || (n >= 2) || (n == 1 && name_written(label)))
        .map(|(l, _)| l.clone())
        .collect()
}

fn name_written(label: &str) -> bool {
    let has_cjk = label.chars().any(crate::lang::is_cjk);
    if has_cjk {
        return false;
    }
    let words: Vec<&str> = label.split_whitespace().collect();
    words.len() <= 3 && words.iter().all(|w| w.chars().next().is_some_and(|c| c.is_uppercase() || c.is_ascii_digit()))
}

/// Count label-shaped line starts and keep the accepted labels, in one pass.
pub(crate) fn scan(text: &str) -> (HashSet<String>, usize) {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for line in text.lines() {
        if let Some(l) = split_label(line) {
            *counts.entry(l.label).or_insert(0) += 1;
        }
    }
    let accepted = accept_labels(&counts);
    let lines = counts.iter().filter(|(l, _)| accepted.contains(*l)).map(|(_, n)| n).sum();
    (accepted, lines)
}

/// Whether the text reads as labeled talk: at least two accepted labels used on two or more lines.
pub(crate) fn looks_labeled(text: &str) -> bool {
    let (accepted, lines) = scan(text);
    accepted.len() >= 2 && lines >= 2
}

pub(crate) fn parse(text: &str) -> Vec<Segment> {
    let (accepted, _) = scan(text);
    let mut out: Vec<Segment> = Vec::new();
    let mut current: Option<Segment> = None;
    for line in text.lines() {
        if let Some(l) = split_label(line).filter(|l| accepted.contains(&l.label)) {
            if let Some(seg) = current.take() {
                out.push(seg);
            }
            current = Some(Segment {
                speaker: Some(l.label),
                text: l.text.trim().to_string(),
                start_s: l.start_s,
                end_s: None,
            });
        } else if let Some(seg) = current.as_mut() {
            // Lines before the first label are a title or header, not talk. A label alone on its
            // line may have its time stamp opening the text below.
            let mut line = line.trim_start();
            if seg.text.is_empty() && seg.start_s.is_none() && line.starts_with(['[', '(']) {
                if let Some((t, after)) = leading_time(line) {
                    seg.start_s = Some(t);
                    line = after;
                }
            }
            join_turn(&mut seg.text, line);
        }
    }
    if let Some(seg) = current {
        out.push(seg);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        let l = split_label("面试官：请介绍一下你自己。").unwrap();
        assert_eq!((l.label.as_str(), l.text), ("面试官", "请介绍一下你自己。"));
        let l = split_label("[00:01:02] Priya Raman: Hi there").unwrap();
        assert_eq!((l.label.as_str(), l.text, l.start_s), ("Priya Raman", "Hi there", Some(62.0)));
        let l = split_label("**Interviewer:** Hello").unwrap();
        assert_eq!(l.label, "Interviewer");
        assert!(split_label("00:01:02").is_none());
        assert!(split_label("See https://example.com").is_none());
        assert!(split_label("There are three parts, really: a and b").is_none());
        let l = split_label("Tom Becker (01:02): Next one.").unwrap();
        assert_eq!((l.label.as_str(), l.text, l.start_s), ("Tom Becker", "Next one.", Some(62.0)));
        assert!(split_label("Meeting at 12:30 today").is_none());
    }

    #[test]
    fn colon_inside_an_answer_is_not_a_speaker() {
        let text = "Interviewer: What matters?\nCandidate: Two things: latency and cost.\nInterviewer: Why?\nCandidate: Because.";
        let segs = parse(text);
        assert_eq!(segs.len(), 4);
        assert_eq!(segs[1].text, "Two things: latency and cost.");
    }
}

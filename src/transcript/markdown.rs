//! Markdown transcripts, as podcast sites and note apps publish them: `**Full Name:** text`,
//! `**Full Name**: text`, or a `### Full Name` heading with the talk below, and time stamps
//! escaped as `\[12:34\]`. They are rewritten as labeled text and parsed as such.

use std::collections::HashMap;

use super::labeled::{label_like, split_label};

/// A heading line's text: `### Priya Raman` -> `Priya Raman`.
fn heading(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let hashes = t.bytes().take_while(|&b| b == b'#').count();
    if hashes == 0 || hashes > 6 {
        return None;
    }
    let rest = t[hashes..].strip_prefix(' ')?.trim().trim_end_matches(['#', ':', '：']).trim();
    let rest = rest.trim_matches(|c| c == '*' || c == '_').trim();
    label_like(rest).then_some(rest)
}

/// Headings that recur are speakers; one-off headings are titles and sections.
fn speaker_headings(text: &str) -> HashMap<String, usize> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for line in text.lines() {
        if let Some(h) = heading(line) {
            *counts.entry(h.to_string()).or_insert(0) += 1;
        }
    }
    counts.retain(|_, n| *n >= 2);
    counts
}

/// Markdown signals: bold labels, recurring speaker headings, escaped brackets.
pub(crate) fn looks_markdown(text: &str) -> bool {
    let mut bold = 0usize;
    let mut escaped = 0usize;
    for line in text.lines().take(2000) {
        let t = line.trim_start();
        if (t.starts_with("**") || t.starts_with("__")) && split_label(t).is_some() {
            bold += 1;
        }
        if t.contains("\\[") {
            escaped += 1;
        }
    }
    bold >= 2 || speaker_headings(text).len() >= 2 || (escaped >= 2 && super::labeled::looks_labeled(text))
}

/// Rewrite as labeled text: speaker headings become `Name:` lines, escapes are undone, emphasis
/// markers around whole lines are dropped.
pub(crate) fn to_labeled(text: &str) -> String {
    let speakers = speaker_headings(text);
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        match heading(line) {
            Some(h) if speakers.contains_key(h) => {
                out.push_str(h);
                out.push(':');
            }
            // A one-off heading (`# Episode 12`) is a title line.
            Some(h) => out.push_str(h),
            None => out.push_str(&super::markers::unescape_markdown(line)),
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_and_bold_labels() {
        let md = "# Episode 12\n\n### Ann Lee\n\\[00:05\\] Welcome.\n\n### Bo Chen\nThanks.\n\n### Ann Lee\nSo tell us.\n\n### Bo Chen\nSure.\n";
        assert!(looks_markdown(md));
        let l = to_labeled(md);
        assert!(l.contains("Ann Lee:\n[00:05] Welcome."));
        assert!(l.starts_with("Episode 12\n"));
        assert!(looks_markdown("**Ann Lee:** Hi.\n**Bo Chen:** Hello.\n"));
        assert!(!looks_markdown("Ann: Hi.\nBo: Hello.\n"));
    }
}

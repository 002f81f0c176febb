//! WebVTT and SRT: blocks of an optional id, a `start --> end` line, and cue text.
//!
//! Zoom writes `Name: text` in the cue, Teams writes `<v Name>text</v>`; NOTE, STYLE and REGION
//! blocks carry no talk. Cue lines are display wraps of one utterance, so they are joined as such.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use super::labeled::{accept_labels, split_label};
use super::text::join_into;
use super::time::parse_clock;
use super::Segment;

static VOICE: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"<v(?:\.[^\s>]*)?(?:\s+([^>]*))?>").ok());
static TAG: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"</?[a-zA-Z][^>]*>|<\d[\d:.]*>|\{\\[^}]*\}").ok());

/// The (speaker, text) parts of one cue.
type Voices = Vec<(Option<String>, String)>;

struct Cue {
    start: Option<f64>,
    end: Option<f64>,
    lines: Vec<String>,
}

/// Parse a WebVTT file.
pub(crate) fn parse_vtt(text: &str) -> Vec<Segment> {
    to_segments(blocks(text))
}

/// Parse an SRT file (same block shape, comma decimals, numeric ids).
pub(crate) fn parse_srt(text: &str) -> Vec<Segment> {
    to_segments(blocks(text))
}

/// Split into cues: a block is the lines between blank lines; its timing line holds `-->`. Cues
/// copied into a document lose their blank lines, so a second timing line also starts a cue (with
/// the id line before it).
fn blocks(text: &str) -> Vec<Cue> {
    let mut cues = Vec::new();
    let mut block: Vec<&str> = Vec::new();
    for line in text.lines().chain(std::iter::once("")) {
        if is_timing(line) && block.iter().any(|l| is_timing(l)) {
            // The line before the new timing line is its id only when the previous cue still has
            // text after its own timing line without it.
            let timing_at = block.iter().position(|l| is_timing(l)).unwrap_or(0);
            let id = block.last().filter(|l| is_cue_id(l) && block.len() >= timing_at + 3).copied();
            if id.is_some() {
                block.pop();
            }
            if let Some(c) = cue(&block) {
                cues.push(c);
            }
            block.clear();
            block.extend(id);
        }
        if line.trim().is_empty() {
            if !block.is_empty() {
                if let Some(c) = cue(&block) {
                    cues.push(c);
                }
                block.clear();
            }
        } else {
            block.push(line);
        }
    }
    cues
}

/// `00:00:01.000 --> 00:00:02.500` (settings may follow), not talk that mentions an arrow.
fn is_timing(line: &str) -> bool {
    line.split_once("-->").is_some_and(|(l, r)| {
        parse_clock(l.trim()).is_some() && r.split_whitespace().next().and_then(parse_clock).is_some()
    })
}

/// A cue id: a number (SRT, Zoom) or a Teams-style `guid/n-k`.
fn is_cue_id(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty()
        && !t.contains(' ')
        && (t.chars().all(|c| c.is_ascii_digit()) || t.contains('/') && t.chars().any(|c| c.is_ascii_digit()))
}

fn cue(block: &[&str]) -> Option<Cue> {
    let first = block.first()?.trim_start();
    if first.starts_with("NOTE")
        || first.starts_with("STYLE")
        || first.starts_with("REGION")
        || first.starts_with("WEBVTT")
    {
        return None;
    }
    let timing = block.iter().position(|l| l.contains("-->"))?;
    let (l, r) = block[timing].split_once("-->")?;
    let start = parse_clock(l.trim());
    let end = r.split_whitespace().next().and_then(parse_clock);
    let lines = block[timing + 1..].iter().map(|s| s.to_string()).collect();
    Some(Cue { start, end, lines })
}

fn to_segments(cues: Vec<Cue>) -> Vec<Segment> {
    // First pass: voices and label candidates, so the label rules can look at the whole file.
    let mut parsed: Vec<(Option<f64>, Option<f64>, Voices)> = Vec::with_capacity(cues.len());
    let mut counts: HashMap<String, usize> = HashMap::new();
    for c in cues {
        let parts = voices(&c.lines.join("\n"));
        for (speaker, text) in &parts {
            if speaker.is_none() {
                if let Some(l) = split_label(first_line(text)) {
                    *counts.entry(l.label).or_insert(0) += 1;
                }
            }
        }
        parsed.push((c.start, c.end, parts));
    }
    let accepted = accept_labels(&counts);
    let mut out = Vec::with_capacity(parsed.len());
    for (start, end, parts) in parsed {
        for (speaker, text) in parts {
            let (speaker, text) = match speaker {
                Some(s) => (Some(s), text),
                None => {
                    let (first, rest) = text.split_once('\n').unwrap_or((text.as_str(), ""));
                    match split_label(first).filter(|l| accepted.contains(&l.label)) {
                        Some(l) => (Some(l.label), format!("{}\n{rest}", l.text)),
                        None => (None, text),
                    }
                }
            };
            let mut joined = String::new();
            for line in text.lines() {
                join_into(&mut joined, line.trim().trim_start_matches("- ").trim());
            }
            out.push(Segment { speaker, text: joined, start_s: start, end_s: end });
        }
    }
    out
}

fn first_line(text: &str) -> &str {
    text.split('\n').next().unwrap_or(text)
}

/// Split cue text at `<v Name>` voice tags and strip the remaining markup.
fn voices(raw: &str) -> Voices {
    let Some(voice) = VOICE.as_ref() else {
        return vec![(None, strip(raw))];
    };
    let mut out = Vec::new();
    let mut last_end = 0;
    let mut speaker: Option<String> = None;
    for caps in voice.captures_iter(raw) {
        let Some(m) = caps.get(0) else { continue };
        let before = strip(&raw[last_end..m.start()]);
        if !before.trim().is_empty() {
            out.push((speaker.clone(), before));
        }
        speaker = caps.get(1).map(|n| n.as_str().trim().to_string()).filter(|s| !s.is_empty());
        last_end = m.end();
    }
    let rest = strip(&raw[last_end..]);
    if !rest.trim().is_empty() {
        out.push((speaker, rest));
    }
    out
}

fn strip(s: &str) -> String {
    let no_tags = match TAG.as_ref() {
        Some(re) => re.replace_all(s, "").into_owned(),
        None => s.to_string(),
    };
    no_tags
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", " ")
        .replace("&lrm;", "")
        .replace("&rlm;", "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cues_without_blank_lines() {
        let text = "1\n00:00:01,000 --> 00:00:02,000\nAnn: Hi?\n2\n00:00:03,000 --> 00:00:04,000\nBo: Hello.\n";
        let segs = parse_srt(text);
        assert_eq!(segs.len(), 2);
        assert_eq!((segs[1].speaker.as_deref(), segs[1].text.as_str()), (Some("Bo"), "Hello."));
    }

    #[test]
    fn teams_and_zoom() {
        let vtt = "WEBVTT\n\nNOTE a note\n\nSTYLE\n::cue { color: red }\n\nab12/3-0\n00:00:01.000 --> 00:00:02.500\n<v Priya Raman>Hello there.</v>\n\n2\n00:00:03.000 --> 00:00:05.000\nDaniel Kim: Hi,\nthanks for having me.\n\n3\n00:00:05.000 --> 00:00:06.000\nDaniel Kim: Sure.\n";
        let segs = parse_vtt(vtt);
        assert_eq!(segs.len(), 3);
        assert_eq!(segs[0].speaker.as_deref(), Some("Priya Raman"));
        assert_eq!(segs[0].text, "Hello there.");
        assert_eq!(segs[1].speaker.as_deref(), Some("Daniel Kim"));
        assert_eq!(segs[1].text, "Hi, thanks for having me.");
        assert_eq!((segs[1].start_s, segs[1].end_s), (Some(3.0), Some(5.0)));
    }
}

//! Otter-style exports: a header line `Speaker 1  0:02` (a name, spaces, a time), then the text;
//! Teams and Feishu/Lark documents use the same shape. Zoom's saved transcript writes the name in
//! brackets and the wall-clock time (`[Priya Raman] 11:02:09`). Only start times are given: a turn
//! ends where the next one starts.

use std::sync::LazyLock;

use regex::Regex;

use super::labeled::label_like;
use super::text::join_turn;
use super::time::parse_clock;
use super::Segment;

static HEADER: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"^\s*(?P<name>\S.{0,60}?)\s+(?P<t>\d{1,2}:\d{2}(?::\d{2})?)\s*$").ok());

pub(crate) fn header(line: &str) -> Option<(String, f64)> {
    if line.len() > 90 {
        return None;
    }
    let caps = HEADER.as_ref()?.captures(line)?;
    let name = caps.name("name")?.as_str().trim();
    let name = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')).unwrap_or(name).trim();
    let t = parse_clock(caps.name("t")?.as_str())?;
    label_like(name).then(|| (name.to_string(), t))
}

/// Zoom's saved transcript: the Otter shape with `[Name]` headers.
pub(crate) fn looks_zoom(text: &str) -> bool {
    let (mut bracketed, mut headers) = (0usize, 0usize);
    for line in text.lines() {
        if header(line).is_some() {
            headers += 1;
            bracketed += usize::from(line.trim_start().starts_with('['));
        }
    }
    headers >= 2 && bracketed * 2 > headers
}

/// Wall-clock stamps become seconds from the first one (across midnight too).
pub(crate) fn relative_times(segments: &mut [Segment]) {
    let Some(first) = segments.iter().find_map(|s| s.start_s) else { return };
    let rel = |t: f64| if t >= first { t - first } else { t + 86_400.0 - first };
    for s in segments {
        s.start_s = s.start_s.map(rel);
        s.end_s = s.end_s.map(rel);
    }
}

/// Otter when at least two header lines exist and most text blocks start with one; documents
/// (Teams, Feishu) have no blank lines, so there a header must come every few lines instead.
pub(crate) fn looks_otter(text: &str) -> bool {
    let (mut all_headers, mut lines) = (0usize, 0usize);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        lines += 1;
        all_headers += usize::from(header(line).is_some());
    }
    if all_headers >= 2 && all_headers * 4 >= lines {
        return true;
    }
    let mut headers = 0usize;
    let mut blocks = 0usize;
    let mut prev_blank = true;
    for line in text.lines() {
        let blank = line.trim().is_empty();
        if !blank && prev_blank {
            blocks += 1;
            if header(line).is_some() {
                headers += 1;
            }
        }
        prev_blank = blank;
    }
    headers >= 2 && headers * 2 >= blocks
}

pub(crate) fn parse(text: &str) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    for line in text.lines() {
        if let Some((name, t)) = header(line) {
            if let Some(prev) = out.last_mut() {
                prev.end_s = Some(t);
            }
            out.push(Segment { speaker: Some(name), text: String::new(), start_s: Some(t), end_s: None });
        } else if let Some(seg) = out.last_mut() {
            join_turn(&mut seg.text, line);
        }
    }
    out
}

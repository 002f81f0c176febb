//! The header block real transcripts open with: a title, `INTERVIEWEE: Margaret Chen`,
//! `INTERVIEWERS: John Doe, Jane Roe`, `DATE:`, `LOCATION:`, `面试官：张三`, `岗位：…`.
//!
//! These lines are metadata, never turns, and a header that names the interviewer or the
//! interviewee decides the roles of the speakers whose labels are those names. Metadata lines
//! written in capitals (`DATE: …` at the start of a second session) are dropped wherever they
//! stand.

use std::collections::HashSet;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::labeled::split_label;
use super::markers;

/// What the header says about the interview.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Metadata {
    /// The first line of the file when it reads as a title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Names the header gives as interviewers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub interviewers: Vec<String>,
    /// Names the header gives as interviewees or candidates.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub interviewees: Vec<String>,
    /// Every other `key: value` line of the header, in order (date, location, position, ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<(String, String)>,
}

impl Metadata {
    pub fn is_empty(&self) -> bool {
        self.title.is_none() && self.interviewers.is_empty() && self.interviewees.is_empty() && self.fields.is_empty()
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Key {
    Interviewer,
    Interviewee,
    Other,
}

/// Title lines (a title, a project name, a subtitle) a header may open with.
const MAX_TITLE_LINES: usize = 3;

/// Header keys, lowercased.
fn key_kind(key: &str) -> Option<Key> {
    let k = key.trim().trim_matches(|c| c == '*' || c == '_').trim().to_lowercase();
    let k = k.trim_end_matches("(s)");
    Some(match k {
        "interviewer" | "interviewers" | "interviewed by" | "interviewer(s)" | "host" | "hosts" | "hosted by"
        | "panel" | "panelists" | "面试官" | "考官" | "主面" | "面试官们" | "采访人" | "采访者" | "主持人" => {
            Key::Interviewer
        }
        "interviewee" | "interviewees" | "narrator" | "candidate" | "guest" | "guests" | "subject" | "候选人"
        | "应聘者" | "面试者" | "求职者" | "受访者" | "受访人" | "嘉宾" => Key::Interviewee,
        "date" | "dates" | "date of interview" | "interview date" | "time" | "location" | "place" | "transcriber"
        | "transcribed by" | "editor" | "edited by" | "length" | "duration" | "session" | "project" | "collection"
        | "title" | "topic" | "subject matter" | "position" | "role" | "company" | "round" | "recorded"
        | "recording" | "audio file" | "keywords" | "language" | "日期" | "时间" | "地点" | "岗位" | "职位"
        | "轮次" | "面试轮次" | "记录人" | "整理" | "整理人" | "时长" | "公司" | "部门" | "主题" | "关键词"
        | "会议主题" | "会议时间" | "参会人" | "参会人员" => Key::Other,
        _ => return None,
    })
}

/// `Margaret Chen`, `John Doe, Jane Roe`, `张三`, `张三、李四`: short, no sentence punctuation.
fn names(value: &str) -> Option<Vec<String>> {
    let v = value.trim();
    if v.is_empty() || v.chars().count() > 80 || v.ends_with(['.', '?', '!', '。', '？', '！']) {
        return None;
    }
    let parts: Vec<String> = v
        .split([',', '，', '、', ';', '；', '/', '&'])
        .flat_map(|p| p.split(" and "))
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect();
    let ok = parts.iter().all(|p| {
        let words = p.split_whitespace().count();
        let cjk = p.chars().filter(|&c| crate::lang::is_cjk(c)).count();
        (cjk == 0 && words <= 4) || (cjk > 0 && cjk <= 6 && words <= 2)
    });
    (ok && !parts.is_empty()).then_some(parts)
}

/// A `key: value` line whose key is a header key.
fn key_value(line: &str) -> Option<(Key, String, String)> {
    let (key, value) = line.trim().split_once([':', '：'])?;
    let kind = key_kind(key)?;
    let value = value.trim().trim_matches(|c| c == '*' || c == '_').trim().to_string();
    Some((kind, key.trim().trim_matches(|c| c == '*' || c == '_').trim().to_string(), value))
}

/// Labels that carry talk (not just a name) somewhere in the file, lowercased.
fn talking_labels(lines: &[&str]) -> HashSet<String> {
    lines
        .iter()
        .filter_map(|l| split_label(l))
        .filter(|l| names(l.text).is_none())
        .map(|l| l.label.to_lowercase())
        .collect()
}

/// Split the header off the text: returns the metadata and the text with header, metadata and
/// marker lines removed (blank lines keep their place so paragraph structure survives).
pub(crate) fn extract(text: &str) -> (Metadata, String) {
    let lines: Vec<&str> = text.lines().collect();
    let mut meta = Metadata::default();
    let mut keep = vec![true; lines.len()];
    // The header: a title, metadata lines and blanks before the first turn.
    let mut titles: Vec<usize> = Vec::new();
    let mut candidates: Vec<(usize, Key, String, String)> = Vec::new();
    for (i, line) in lines.iter().enumerate().take(60) {
        let t = line.trim();
        if t.is_empty() || markers::is_marker_line(t) {
            continue;
        }
        if let Some((kind, key, value)) = key_value(t) {
            // `面试官：你好，请先介绍一下` is talk: the header has ended.
            if kind != Key::Other && names(&value).is_none() {
                break;
            }
            candidates.push((i, kind, key, value));
            continue;
        }
        let title_like = split_label(t).is_none() && !t.ends_with(['?', '？']) && t.chars().count() <= 120;
        if titles.len() < MAX_TITLE_LINES && candidates.is_empty() && title_like {
            titles.push(i);
            continue;
        }
        break;
    }
    let later = talking_labels(&lines);
    for (i, kind, key, value) in candidates {
        // `面试官：你好，请先介绍一下` is a turn; `面试官：张三` is a header only when that key is not
        // also used as a speaker label further down.
        match kind {
            Key::Interviewer | Key::Interviewee if later.contains(&key.to_lowercase()) => continue,
            Key::Interviewer | Key::Interviewee => match names(&value) {
                Some(n) if kind == Key::Interviewer => meta.interviewers.extend(n),
                Some(n) => meta.interviewees.extend(n),
                None => continue,
            },
            Key::Other => meta.fields.push((key, value)),
        }
        keep[i] = false;
    }
    // First lines followed by header lines are the title; alone, they may be talk.
    if !meta.is_empty() && !titles.is_empty() {
        let parts: Vec<&str> = titles.iter().map(|&i| lines[i].trim().trim_start_matches('#').trim()).collect();
        meta.title = Some(parts.join(" — "));
        for i in titles {
            keep[i] = false;
        }
    }
    let mut out = String::with_capacity(text.len());
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        if !keep[i] || markers::is_marker_line(t) || is_caps_metadata(t, &later) {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    (meta, out)
}

/// `DATE: March 4, 2019` anywhere (the header of a second session): a capitalised header key that
/// is not also a speaker label.
fn is_caps_metadata(line: &str, labels: &HashSet<String>) -> bool {
    let Some((key, value)) = line.split_once(':') else { return false };
    let key = key.trim();
    key.len() >= 4
        && key.chars().all(|c| c.is_ascii_uppercase() || c == ' ')
        && key_kind(key).is_some()
        && !labels.contains(&key.to_lowercase())
        && value.trim().chars().count() <= 80
}

/// Which header role, if any, a speaker label belongs to: the whole name, or one of its words
/// (`CHEN` for `Margaret Chen`), compared without case.
pub(crate) fn role_of(meta: &Metadata, label: &str) -> Option<super::roles::Role> {
    use super::roles::Role;
    let l = label.trim().to_lowercase();
    let matches = |name: &String| {
        let n = name.to_lowercase();
        n == l
            || n.split_whitespace().any(|w| w == l)
            || l.split_whitespace().count() > 1 && l.split_whitespace().all(|w| n.split_whitespace().any(|x| x == w))
    };
    let interviewer = meta.interviewers.iter().any(matches);
    let interviewee = meta.interviewees.iter().any(matches);
    match (interviewer, interviewee) {
        (true, false) => Some(Role::Interviewer),
        (false, true) => Some(Role::Candidate),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::roles::Role;

    #[test]
    fn oral_history_header() {
        let text = "Oral History of Margaret Chen\nINTERVIEWEE: Margaret Chen\nINTERVIEWERS: John Doe, Jane Roe\nDATE: March 3, 2019\nLOCATION: Pasadena, California\n\nDOE: Tell me about your parents.\nCHEN: They ran a laundry.\n[END OF TAPE 1, SIDE A]\nDATE: March 4, 2019\nROE: And then?\nCHEN: Then school.\n";
        let (meta, body) = extract(text);
        assert_eq!(meta.title.as_deref(), Some("Oral History of Margaret Chen"));
        assert_eq!(meta.interviewees, vec!["Margaret Chen"]);
        assert_eq!(meta.interviewers, vec!["John Doe", "Jane Roe"]);
        assert_eq!(meta.fields.len(), 2);
        assert!(!body.contains("INTERVIEWEE") && !body.contains("END OF TAPE") && !body.contains("March 4"));
        assert!(body.contains("DOE: Tell me about your parents."));
        assert_eq!(role_of(&meta, "CHEN"), Some(Role::Candidate));
        assert_eq!(role_of(&meta, "Doe"), Some(Role::Interviewer));
        assert_eq!(role_of(&meta, "Smith"), None);
    }

    #[test]
    fn role_key_as_header_or_as_turn() {
        let (meta, body) =
            extract("面试官：张三\n候选人：李四\n日期：2026-10-12\n\n张三：你好，请先介绍一下自己。\n李四：好的。\n");
        assert_eq!((meta.interviewers.len(), meta.interviewees.len()), (1, 1));
        assert!(!body.contains("面试官"));
        let (meta, body) = extract("面试官：张三\n候选人：你好。\n面试官：讲讲项目？\n");
        assert!(meta.interviewers.is_empty());
        assert!(body.contains("面试官：张三"));
    }
}

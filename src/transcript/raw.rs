//! Text with no speaker labels: find the questions heuristically.
//!
//! Paragraphs (or lines, when the text has no blank lines) are cut into question and answer units.
//! Within a paragraph, leading remarks before a question belong to it ("Let's move on. What is
//! MCP?"), and the sentences after a question are its answer.

use super::roles::is_question_sentence;
use super::text::join_into;
use super::time::round_ms;
use super::{Segment, Turn};
use crate::lang::sentences;

pub(crate) fn parse(text: &str) -> Vec<Turn> {
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            if !current.is_empty() {
                paragraphs.push(std::mem::take(&mut current));
            }
        } else {
            join_into(&mut current, line);
        }
    }
    if !current.is_empty() {
        paragraphs.push(current);
    }
    // A single block of many lines is one utterance per line, not one paragraph.
    if paragraphs.len() == 1 && text.lines().filter(|l| !l.trim().is_empty()).count() >= 3 {
        paragraphs = text.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_string).collect();
    }
    let mut out = Vec::new();
    for p in paragraphs {
        for unit in units(&p) {
            out.push(Turn { speaker: None, text: unit.to_string(), start_s: None, end_s: None });
        }
    }
    out
}

/// Timed segments without speakers (plain SRT, whisper JSON): the same cut, times shared out by
/// each unit's share of the segment's characters.
pub(crate) fn units_from_segments(segments: Vec<Segment>) -> Vec<Turn> {
    let mut out = Vec::new();
    for seg in segments {
        let text = seg.text.trim();
        if text.is_empty() {
            continue;
        }
        let parts = units(text);
        let total: usize = parts.iter().map(|p| p.chars().count()).sum::<usize>().max(1);
        let mut done = 0usize;
        for p in parts {
            let n = p.chars().count();
            let at = |k: usize| match (seg.start_s, seg.end_s) {
                (Some(s), Some(e)) if e >= s => Some(round_ms(s + (e - s) * k as f64 / total as f64)),
                (s, _) if k == 0 => s,
                (_, e) if k == total => e,
                _ => None,
            };
            out.push(Turn { speaker: None, text: p.to_string(), start_s: at(done), end_s: at(done + n) });
            done += n;
        }
    }
    out
}

/// Cut one paragraph into units that are wholly question or wholly answer.
pub(crate) fn units(paragraph: &str) -> Vec<&str> {
    #[derive(PartialEq)]
    enum State {
        Start,
        Question,
        Answer,
    }
    let sents = sentences(paragraph);
    let mut out = Vec::new();
    let mut state = State::Start;
    let mut unit_start: Option<usize> = None;
    let offset = |s: &str| s.as_ptr() as usize - paragraph.as_ptr() as usize;
    for s in sents {
        let q = is_question_sentence(s);
        let at = offset(s);
        match state {
            State::Start => {
                unit_start.get_or_insert(at);
                if q {
                    state = State::Question;
                }
            }
            State::Question if !q => {
                if let Some(b) = unit_start.replace(at) {
                    out.push(paragraph[b..at].trim());
                }
                state = State::Answer;
            }
            State::Answer if q => {
                if let Some(b) = unit_start.replace(at) {
                    out.push(paragraph[b..at].trim());
                }
                state = State::Question;
            }
            _ => {}
        }
    }
    if let Some(b) = unit_start {
        let rest = paragraph[b..].trim();
        if !rest.is_empty() {
            out.push(rest);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_units() {
        assert_eq!(units("What is X? X is Y. And Z."), vec!["What is X?", "X is Y. And Z."]);
        assert_eq!(units("Let's move on. What is MCP?"), vec!["Let's move on. What is MCP?"]);
        assert_eq!(units("What is Q1? A1. What is Q2? A2."), vec!["What is Q1?", "A1.", "What is Q2?", "A2."]);
        // Remarks before the first question of a paragraph lead into it.
        assert_eq!(units("A1. What is Q2? A2."), vec!["A1. What is Q2?", "A2."]);
        assert_eq!(
            units("什么是 Agent？Agent 是能自主决策的系统。"),
            vec!["什么是 Agent？", "Agent 是能自主决策的系统。"]
        );
    }
}

//! Which format a text is in, from its shape.

use super::{labeled, markdown, otter, Format};

/// Decide the format: JSON, WebVTT, SRT (timing lines with `-->`), Otter headers, labels, else raw.
pub fn detect_format(text: &str) -> Format {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    let json_array = trimmed.strip_prefix('[').is_some_and(|r| r.trim_start().starts_with(['{', ']']));
    if trimmed.starts_with('{') || json_array {
        // Podcasting 2.0 names its fields `startTime` and `body`; whisper writes `start`, `text`.
        let cut = trimmed.char_indices().nth(4096).map_or(trimmed.len(), |(i, _)| i);
        let head = &trimmed[..cut];
        return if head.contains("\"startTime\"") || head.contains("\"body\"") {
            Format::PodcastJson
        } else {
            Format::WhisperJson
        };
    }
    if trimmed.starts_with("WEBVTT") {
        return Format::Webvtt;
    }
    if let Some(timing) = trimmed.lines().take(64).find(|l| l.contains("-->")) {
        let left = timing.split("-->").next().unwrap_or("");
        return if left.contains(',') { Format::Srt } else { Format::Webvtt };
    }
    if otter::looks_otter(trimmed) {
        return if otter::looks_zoom(trimmed) { Format::Zoom } else { Format::Otter };
    }
    if markdown::looks_markdown(trimmed) {
        return Format::Markdown;
    }
    if labeled::looks_labeled(trimmed) {
        return Format::Labeled;
    }
    Format::Raw
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(detect_format("{\"segments\": []}"), Format::WhisperJson);
        assert_eq!(detect_format("WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\nhi"), Format::Webvtt);
        assert_eq!(detect_format("1\n00:00:01,000 --> 00:00:02,000\nhi\n"), Format::Srt);
        assert_eq!(detect_format("Speaker 1  0:02\nHello?\n\nSpeaker 2  0:05\nHi.\n"), Format::Otter);
        assert_eq!(detect_format("面试官：你好？\n候选人：你好。\n"), Format::Labeled);
        assert_eq!(detect_format("[00:00:01] Q: hi?\n[00:00:03] A: hello"), Format::Labeled);
        assert_eq!(detect_format("Just some text.\n\nAnother paragraph."), Format::Raw);
    }
}

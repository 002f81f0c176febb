//! Input formats -> one [`Transcript`] model: turns with an optional speaker label, text and times.
//!
//! Parsing is pure and linear in the input size: a 50 MB transcript must split in seconds. Every
//! parser takes already-decoded text (see [`decode`]) and never panics on arbitrary input.

pub mod decode;
pub mod detect;
pub mod lang;
pub mod pairs;
pub mod roles;
pub mod text;
pub mod time;

mod cues;
mod labeled;
mod otter;
mod raw;
mod whisper;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use lang::Language;

/// Detected input format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// `Name: text` / `面试官：text`, or a label alone on its line with the text below.
    Labeled,
    /// Paragraphs with no speaker labels.
    Raw,
    /// WebVTT, as Zoom (`Name: text`) or Teams (`<v Name>text</v>`) write it.
    Webvtt,
    /// SubRip subtitles.
    Srt,
    /// Otter-style export: `Speaker 1  0:02` then the text.
    Otter,
    /// Whisper's (or whisperX's, or whisper.cpp's) JSON output.
    WhisperJson,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Labeled => "labeled",
            Format::Raw => "raw",
            Format::Webvtt => "webvtt",
            Format::Srt => "srt",
            Format::Otter => "otter",
            Format::WhisperJson => "whisper-json",
        }
    }
}

/// One uninterrupted stretch of talk by one speaker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Turn {
    /// The speaker's label as the input wrote it; null when the input names no speaker.
    pub speaker: Option<String>,
    /// What was said.
    pub text: String,
    /// Start in seconds from the beginning, when the input has times.
    #[serde(default)]
    pub start_s: Option<f64>,
    /// End in seconds from the beginning, when the input has times.
    #[serde(default)]
    pub end_s: Option<f64>,
}

/// A parsed transcript: the format it came in, its language and its turns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Transcript {
    /// Detected input format.
    pub format: Format,
    /// Dominant language of the talk.
    pub language: Language,
    /// The turns in order. Consecutive segments by the same named speaker are merged into one turn.
    pub turns: Vec<Turn>,
}

impl Transcript {
    /// Whether any turn carries a speaker label.
    pub fn has_speakers(&self) -> bool {
        self.turns.iter().any(|t| t.speaker.is_some())
    }
}

/// Why a transcript could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TranscriptError {
    #[error("the file is empty: there is nothing to diagnose; export the transcript again or pick another file")]
    Empty,
    #[error("this is not a text transcript: it looks like {0}; give a transcript (.txt, .vtt, .srt, .json) or, for a recording, use `ivd diagnose` on the audio file")]
    Binary(&'static str),
    #[error("the text could not be decoded as UTF-8, UTF-16 or GB18030 (byte {offset}); re-save the file as UTF-8")]
    Undecodable { offset: usize },
    #[error("no spoken text found: the file holds only {0}; export the transcript with its text")]
    NoText(&'static str),
    #[error("malformed JSON at line {line}, column {column}: {message}; {hint}")]
    Json { line: usize, column: usize, message: String, hint: &'static str },
    #[error("JSON input is not a transcript: {0}; expected whisper's output with a \"segments\" array")]
    NotTranscriptJson(String),
}

/// Parse decoded text, detecting its format unless `hint` names one.
pub fn parse(text: &str, hint: Option<Format>) -> Result<Transcript, TranscriptError> {
    if text.trim().is_empty() {
        return Err(TranscriptError::Empty);
    }
    let format = match hint {
        Some(f) => f,
        None => detect::detect_format(text),
    };
    let segments = match format {
        Format::WhisperJson => whisper::parse(text)?,
        Format::Webvtt => cues::parse_vtt(text),
        Format::Srt => cues::parse_srt(text),
        Format::Otter => otter::parse(text),
        Format::Labeled => labeled::parse(text),
        Format::Raw => Vec::new(),
    };
    let turns = if format == Format::Raw {
        raw::parse(text)
    } else if segments.iter().all(|s| s.speaker.is_none()) {
        // Timed formats without speaker names (plain SRT, whisper JSON) get the raw splitter over
        // their segments, so questions and answers are still found.
        raw::units_from_segments(segments)
    } else {
        merge_segments(segments)
    };
    if !turns.iter().any(|t| text::has_words(&t.text)) {
        return Err(TranscriptError::NoText(match format {
            Format::Srt | Format::Webvtt => "cue numbers and timestamps",
            Format::Otter => "speaker headers and timestamps",
            _ => "timestamps, numbers or punctuation",
        }));
    }
    let language = lang::detect(turns.iter().map(|t| t.text.as_str()));
    Ok(Transcript { format, language, turns })
}

/// Decode raw bytes and parse them.
pub fn parse_bytes(bytes: &[u8], hint: Option<Format>) -> Result<Transcript, TranscriptError> {
    let decoded = decode::decode(bytes)?;
    parse(&decoded.text, hint)
}

/// A piece of talk before merging: a cue, a labeled line block, a whisper segment.
#[derive(Debug, Clone)]
pub(crate) struct Segment {
    pub speaker: Option<String>,
    pub text: String,
    pub start_s: Option<f64>,
    pub end_s: Option<f64>,
}

/// Merge consecutive segments by the same speaker into turns; segments without a speaker continue
/// the previous speaker's turn (a wrapped cue).
fn merge_segments(segments: Vec<Segment>) -> Vec<Turn> {
    let mut turns: Vec<Turn> = Vec::new();
    for seg in segments {
        let text = seg.text.trim();
        if text.is_empty() {
            continue;
        }
        match turns.last_mut() {
            Some(last) if seg.speaker.is_none() || seg.speaker == last.speaker => {
                text::join_into(&mut last.text, text);
                // The turn ends where its last segment ends, unknown if that is unknown.
                last.end_s = seg.end_s;
                if last.start_s.is_none() {
                    last.start_s = seg.start_s;
                }
            }
            _ => turns.push(Turn {
                speaker: seg.speaker,
                text: text.to_string(),
                start_s: seg.start_s,
                end_s: seg.end_s,
            }),
        }
    }
    turns
}

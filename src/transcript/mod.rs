//! Input formats -> one [`Transcript`] model: turns with an optional speaker label, text and times.
//!
//! Parsing is pure and linear in the input size: a 50 MB transcript must split in seconds. Every
//! parser takes already-decoded text (see [`decode`]) and never panics on arbitrary input.

pub mod asking;
mod asking_words;
pub mod decode;
pub mod detect;
pub mod header;
pub mod pairs;
pub mod phrases;
pub mod roles;
pub mod text;
pub mod time;

mod behaviour;
mod cues;
mod docx;
pub mod follow_up;
pub mod follow_up_model;
mod follow_up_words;
mod labeled;
mod markdown;
mod markers;
mod otter;
mod pdf;
mod raw;
mod whisper;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use crate::lang::Mix;

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
    /// Zoom's saved meeting transcript: `[Name] 11:02:09` then the text.
    Zoom,
    /// Markdown: `**Name:** text` or a `### Name` heading with the text below.
    Markdown,
    /// Podcasting 2.0 JSON transcript: `segments` with `speaker`, `startTime`, `body`.
    PodcastJson,
    /// A Word document; its text is read as any other transcript (see `Transcript::layout`).
    Docx,
    /// A PDF with a text layer; its text is read as any other transcript.
    Pdf,
    /// Transcribed from a recording by `transcribe_audio`.
    Audio,
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
            Format::Zoom => "zoom",
            Format::Markdown => "markdown",
            Format::PodcastJson => "podcast-json",
            Format::Docx => "docx",
            Format::Pdf => "pdf",
            Format::Audio => "audio",
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
    pub language: Mix,
    /// The turns in order. Consecutive segments by the same named speaker are merged into one turn.
    pub turns: Vec<Turn>,
    /// For a document (docx, pdf): the layout of the text inside it (labeled, otter, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<Format>,
    /// The header block: title, who interviewed whom, date, place.
    #[serde(default)]
    pub metadata: header::Metadata,
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
    #[error("JSON input is not a transcript: {0}; expected whisper's output or a Podcasting 2.0 transcript with a \"segments\" array")]
    NotTranscriptJson(String),
    #[error(
        "this {kind} file is damaged or incomplete: {why}; download or export it again, or save the transcript as .txt"
    )]
    CorruptDocument { kind: &'static str, why: String },
    #[error("this {0} file is password-protected; remove the password (Word: File > Info > Protect Document) and save it again, or export the transcript as .txt")]
    Encrypted(&'static str),
    #[error("this PDF has no text layer (it is a scanned image); run OCR on it first (e.g. `ocrmypdf in.pdf out.pdf`) or export the transcript as text")]
    NoTextLayer,
}

/// Parse decoded text, detecting its format unless `hint` names one.
pub fn parse(text: &str, hint: Option<Format>) -> Result<Transcript, TranscriptError> {
    // Byte-order marks turn up anywhere: after leading spaces, where sessions were concatenated.
    let unmarked;
    let text = if text.contains('\u{feff}') {
        unmarked = text.replace('\u{feff}', "");
        unmarked.as_str()
    } else {
        text
    };
    if text.trim().is_empty() {
        return Err(TranscriptError::Empty);
    }
    let format = match hint {
        Some(f) => f,
        None => detect::detect_format(text),
    };
    let (metadata, body) = match format {
        Format::WhisperJson | Format::PodcastJson | Format::Webvtt | Format::Srt => {
            (header::Metadata::default(), text.to_string())
        }
        Format::Markdown => header::extract(&markdown::to_labeled(text)),
        _ => header::extract(text),
    };
    let mut segments = match format {
        Format::WhisperJson | Format::PodcastJson => whisper::parse(&body)?,
        Format::Webvtt => cues::parse_vtt(&body),
        Format::Srt => cues::parse_srt(&body),
        Format::Otter | Format::Zoom => otter::parse(&body),
        Format::Labeled | Format::Markdown | Format::Docx | Format::Pdf => labeled::parse(&body),
        Format::Raw | Format::Audio => Vec::new(),
    };
    for s in &mut segments {
        s.text = markers::strip_inline(&s.text);
    }
    if format == Format::Zoom {
        otter::relative_times(&mut segments);
    }
    let mut turns = if format == Format::Raw {
        let lines: Vec<String> = body.lines().map(markers::strip_inline).collect();
        raw::parse(&lines.join("\n"))
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
            Format::Otter | Format::Zoom => "speaker headers and timestamps",
            _ => "timestamps, numbers or punctuation",
        }));
    }
    end_at_next_start(&mut turns);
    let language = crate::lang::detect(turns.iter().map(|t| t.text.as_str()));
    Ok(Transcript { format, language, turns, layout: None, metadata })
}

/// Decode raw bytes (text, or a .docx/.pdf document) and parse them.
pub fn parse_bytes(bytes: &[u8], hint: Option<Format>) -> Result<Transcript, TranscriptError> {
    let decoded = decode::decode(bytes)?;
    let inner_hint = hint.filter(|h| !matches!(h, Format::Docx | Format::Pdf));
    let mut t = parse(&decoded.text, inner_hint)?;
    if let Some(container) = decoded.container {
        t.layout = Some(t.format);
        t.format = container;
    }
    Ok(t)
}

/// Formats that stamp only where a turn starts (`[00:01:02] Name:`, `**Name:** \[12:34\]`): a
/// turn ends where the next one starts; the last one's end stays unknown.
fn end_at_next_start(turns: &mut [Turn]) {
    if turns.iter().any(|t| t.end_s.is_some()) || turns.iter().all(|t| t.start_s.is_none()) {
        return;
    }
    for i in 1..turns.len() {
        let next = turns[i].start_s;
        turns[i - 1].end_s = next;
    }
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

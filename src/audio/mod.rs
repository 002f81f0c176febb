//! Recordings: decoding to 16 kHz mono, voice activity, whisper transcription and acoustic speaker
//! detection. Everything here works on `f32` samples in [-1, 1] at [`SAMPLE_RATE`].

pub mod campplus;
pub mod decode;
pub mod features;
pub mod hans;
pub mod hesitation;
pub mod pipeline;
pub mod resample;
pub mod silero;
pub mod speakers;
pub mod transcript_cache;
pub mod turns;
pub mod vad;
pub mod voices;
pub mod whisper;

use std::path::PathBuf;

/// Whisper, the VAD models and the speaker features all want 16 kHz.
pub const SAMPLE_RATE: u32 = 16_000;

/// File extensions taken as recordings (everything else is read as a transcript or document).
pub const AUDIO_EXTENSIONS: &[&str] =
    &["wav", "wave", "mp3", "m4a", "mp4", "aac", "flac", "ogg", "oga", "opus", "webm", "mka", "mkv"];

/// Whether `path` names a recording, by its extension.
pub fn is_audio_path(path: &std::path::Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .map(|e| AUDIO_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
        .unwrap_or(false)
}

#[derive(Debug, thiserror::Error)]
pub enum AudioError {
    #[error("cannot read {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path} is empty (0 bytes); give the recording itself, e.g. the .wav/.mp3/.m4a your recorder saved")]
    Empty { path: PathBuf },
    #[error("{path} is not audio that ivd can decode ({detail}); supported: WAV, MP3, M4A/AAC, FLAC, OGG (Vorbis, Opus), WebM; convert other files with `ffmpeg -i IN -ar 16000 -ac 1 OUT.wav`")]
    Unsupported { path: PathBuf, detail: String },
    #[error("{path} is damaged: {detail}; re-export the recording, or convert it with `ffmpeg -i IN OUT.wav` to see what survives")]
    Corrupt { path: PathBuf, detail: String },
    #[error("{path} holds no audio samples; check that the recording is not empty")]
    NoSamples { path: PathBuf },
    #[error("resampling failed: {0}")]
    Resample(String),
    #[error("{what} needs a model: {message}")]
    Model { what: &'static str, message: String },
    #[error("transcription failed: {0}")]
    Transcribe(String),
    #[error("cancelled")]
    Cancelled,
}

/// Decoded audio at [`SAMPLE_RATE`]: a mono mix and, when asked for, the first two channels apart.
#[derive(Debug, Clone, Default)]
pub struct Audio {
    pub mono: Vec<f32>,
    /// Left and right at 16 kHz, for the channel mode of stereo interviews; empty otherwise.
    pub channels: Vec<Vec<f32>>,
    pub source: SourceFormat,
    /// Things worth telling the user that did not stop decoding (a truncated file, skipped packets).
    pub warnings: Vec<String>,
}

impl Audio {
    pub fn duration_s(&self) -> f64 {
        self.mono.len() as f64 / SAMPLE_RATE as f64
    }
}

/// What the file was before decoding.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct SourceFormat {
    /// Container/codec, e.g. "wav pcm16", "mp3", "flac", "aac", "opus".
    pub codec: String,
    pub sample_rate: u32,
    pub channels: u16,
}

/// Seconds to a sample index at [`SAMPLE_RATE`], clamped to `len`.
pub fn sample_at(t: f64, len: usize) -> usize {
    ((t.max(0.0) * SAMPLE_RATE as f64).round() as usize).min(len)
}

//! `transcribe_audio`: a recording -> who spoke when, and what they said, with word times.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Tool, ToolContext, ToolError};
use crate::audio::pipeline::{self, Options, Timings};
pub use crate::audio::speakers::ChannelMode;
use crate::audio::turns::AudioTurn;
use crate::audio::vad::Span;
pub use crate::audio::vad::VadKind;
use crate::audio::SourceFormat;
use crate::lang::{Lang, Mix};
use crate::models::Models;
use crate::transcript::{Format, Transcript, Turn};

pub struct TranscribeAudio;

/// Whether the tool takes this file (by its extension): a recording, not a transcript.
pub fn accepts(path: &std::path::Path) -> bool {
    crate::audio::is_audio_path(path)
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TranscribeAudioArgs {
    /// Path of the recording, relative to the data root (WAV, MP3, M4A/AAC, FLAC, OGG, WebM).
    pub path: String,
    /// Language of the talk; detected when absent.
    #[serde(default)]
    pub lang: Option<Lang>,
    /// For stereo files with each side on its own channel: which side is the interviewer's.
    #[serde(default)]
    pub channels: Option<ChannelMode>,
    /// Voice-activity detector: earshot (default) or silero.
    #[serde(default)]
    pub vad: Option<VadKind>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct TranscribeAudioOutput {
    pub language: Lang,
    pub duration_s: f64,
    pub source: SourceFormat,
    pub warnings: Vec<String>,
    /// Speakers told apart ("acoustic" clustering or stereo "channels").
    pub speakers_found: usize,
    pub speaker_basis: String,
    pub turns: Vec<AudioTurn>,
    /// Speech regions from voice activity; pauses are the gaps between them.
    pub speech: Vec<Span>,
    /// Held sounds heard as filled pauses ("uh", "um", 嗯, 呃), whether or not whisper wrote them.
    #[serde(default)]
    pub filled_pauses: Vec<Span>,
    pub timings: Timings,
    /// Pitch (Hz, 0 unvoiced) and level (dB) every 10 ms: for delivery analysis in-process; too
    /// large to send to a language model, so not serialised.
    #[serde(skip)]
    #[schemars(skip)]
    pub f0: Vec<f32>,
    #[serde(skip)]
    #[schemars(skip)]
    pub db: Vec<f32>,
}

/// A stretch of the pitch and level tracks, and the time of its first frame.
#[derive(Debug, Clone, Default)]
pub struct Frames {
    pub f0: Vec<f32>,
    pub db: Vec<f32>,
    pub from_s: f64,
}

impl TranscribeAudioOutput {
    /// The pitch and level frames between two times (clamped to the recording).
    pub fn frames_between(&self, from_s: f64, to_s: f64) -> Frames {
        use crate::audio::features::{frame_at, HOP};
        use crate::audio::SAMPLE_RATE;
        let from = frame_at(from_s.max(0.0));
        let to = frame_at(to_s.max(0.0)).max(from);
        let part = |v: &[f32]| v[from.min(v.len())..to.min(v.len())].to_vec();
        Frames { f0: part(&self.f0), db: part(&self.db), from_s: from as f64 * HOP as f64 / SAMPLE_RATE as f64 }
    }

    /// The turns as a transcript ("Speaker 1", ...; "Interviewer"/"Candidate" in channel mode).
    pub fn transcript(&self, channel_mode: bool) -> Transcript {
        let name = |s: usize| {
            if channel_mode {
                if s == 0 { "Interviewer" } else { "Candidate" }.to_string()
            } else {
                format!("Speaker {}", s + 1)
            }
        };
        let turns: Vec<Turn> = self
            .turns
            .iter()
            .map(|t| Turn {
                speaker: Some(name(t.speaker)),
                text: t.text.clone(),
                start_s: Some(t.start_s),
                end_s: Some(t.end_s),
            })
            .collect();
        let language = match self.language {
            Lang::Zh => Mix::Zh,
            Lang::En => crate::lang::detect(turns.iter().map(|t| t.text.as_str())),
        };
        Transcript { format: Format::Audio, language, turns, layout: None, metadata: Default::default() }
    }
}

impl Tool for TranscribeAudio {
    const NAME: &'static str = "transcribe_audio";
    const DESCRIPTION: &'static str = "Transcribe an interview recording with Whisper (offline): decodes any common format, finds speech with voice-activity detection, tells the speakers apart from their voices (or from stereo channels), and returns turns with speaker, times, text and word times.";
    type Args = TranscribeAudioArgs;
    type Output = TranscribeAudioOutput;

    async fn execute(&self, args: TranscribeAudioArgs, ctx: &ToolContext) -> Result<TranscribeAudioOutput, ToolError> {
        let path = ctx.resolve(&args.path)?;
        let opts = Options {
            language: args.lang,
            channels: args.channels,
            vad: args.vad.unwrap_or_default(),
            cache_dir: Some(ctx.config.home.join("cache").join("transcripts")),
            ..Options::default()
        };
        let models = Models::new(&ctx.config);
        let cancel = ctx.cancel.clone();
        let progress = ctx.progress.clone();
        // Whisper is CPU-bound for minutes: off the async workers.
        let rec = tokio::task::spawn_blocking(move || {
            let mut report = |step: &'static str, f: f64| {
                if let Some(p) = &progress {
                    (p.0)(step, f)
                }
            };
            pipeline::process(&path, &models, &opts, &mut report, &cancel)
        })
        .await
        .map_err(|e| ToolError::service(format!("transcription stopped: {e}"), "run it again"))??;
        Ok(TranscribeAudioOutput {
            language: rec.transcription.language,
            duration_s: rec.duration_s,
            source: rec.source,
            warnings: rec.warnings,
            speakers_found: rec.diarization.speakers,
            speaker_basis: rec.diarization.basis,
            turns: rec.turns,
            speech: rec.activity.regions,
            filled_pauses: rec.filled_pauses,
            timings: rec.timings,
            f0: rec.frames.f0,
            db: rec.frames.db,
        })
    }
}

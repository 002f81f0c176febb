//! A recording, start to finish: decode, voice activity, acoustic features, who spoke when,
//! transcription, and turns. Timed step by step for `ivd bench`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use super::campplus::CamPlus;
use super::features::{self, Frames};
use super::hesitation;
use super::speakers::{self, ChannelMode, Diarization};
use super::transcript_cache;
use super::turns::{self, AudioTurn};
use super::vad::{self, Activity, Span, VadKind};
use super::whisper::{self, Transcriber, Transcription};
use super::{decode, AudioError, SourceFormat};
use crate::lang::Lang;
use crate::models::Models;

pub struct Options {
    /// The language of the talk, or None to detect.
    pub language: Option<Lang>,
    pub channels: Option<ChannelMode>,
    pub vad: VadKind,
    pub threads: usize,
    /// Where transcriptions are kept (transcript_cache); None transcribes every time.
    pub cache_dir: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            language: None,
            channels: None,
            vad: VadKind::default(),
            threads: whisper::default_threads(),
            cache_dir: None,
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Timings {
    pub decode_ms: u64,
    pub vad_ms: u64,
    pub speakers_ms: u64,
    pub load_ms: u64,
    pub transcribe_ms: u64,
    /// The transcription came from the cache (no whisper pass).
    #[serde(default)]
    pub cached: bool,
}

/// Everything learnt from a recording; the samples themselves are not kept.
#[derive(Debug, Clone)]
pub struct Recording {
    pub source: SourceFormat,
    pub duration_s: f64,
    pub warnings: Vec<String>,
    pub activity: Activity,
    pub diarization: Diarization,
    pub transcription: Transcription,
    pub turns: Vec<AudioTurn>,
    /// Pitch and level every 10 ms (MFCCs dropped).
    pub frames: Frames,
    pub filled_pauses: Vec<Span>,
    pub timings: Timings,
}

fn ms(t: Instant) -> u64 {
    t.elapsed().as_millis() as u64
}

/// What the voices alone tell: the decoded audio, its speech regions, pitch and level, and who
/// spoke when. Seconds of work per audio minute; no transcription.
pub struct Heard {
    pub audio: super::Audio,
    pub activity: Activity,
    pub frames: Frames,
    /// Held vowels and nasals heard as filled pauses (hesitation.rs), whatever whisper writes.
    pub filled_pauses: Vec<Span>,
    pub diarization: Diarization,
    pub timings: Timings,
}

/// The CAM++ speaker encoder, when provisioned; without it voices are told apart by pitch and
/// cepstral means (a home provisioned before the encoder existed: `ivd models fetch` adds it).
pub fn speaker_model(models: &Models) -> Option<CamPlus> {
    match CamPlus::load(models) {
        Ok(m) => Some(m),
        Err(e) => {
            tracing::warn!("speaker encoder unavailable, telling voices apart by pitch and cepstra: {e}");
            None
        }
    }
}

/// What `progress` is told: the stage under way ("decoding", "voices", "transcribing") and the
/// fraction of it done.
pub type StageProgress<'a> = &'a mut dyn FnMut(&'static str, f64);

/// Decode `path`, find its speech and tell its speakers apart (by voice, or by stereo side).
pub fn listen(path: &Path, models: &Models, opts: &Options, progress: StageProgress<'_>) -> Result<Heard, AudioError> {
    let mut timings = Timings::default();
    progress("decoding", 0.0);
    let t = Instant::now();
    let audio = decode::decode(path, opts.channels.is_some())?;
    timings.decode_ms = ms(t);
    if opts.channels.is_some() && audio.channels.len() < 2 {
        return Err(AudioError::Unsupported {
            path: path.to_path_buf(),
            detail: format!(
                "--channels needs a stereo recording and this one has {} channel(s); drop --channels to tell the voices apart acoustically",
                audio.source.channels
            ),
        });
    }
    progress("voices", 0.0);
    let t = Instant::now();
    let activity = vad::detect(&audio.mono, opts.vad, models)?;
    timings.vad_ms = ms(t);
    let t = Instant::now();
    let mut frames = features::frames(&audio.mono);
    tracing::debug!(ms = ms(t), "pitch, level and cepstra");
    let diarization = match opts.channels {
        Some(mode) => speakers::by_channels(&audio, &activity, mode),
        None => match speaker_model(models) {
            Some(model) => {
                super::voices::diarize(&frames, &speakers::split_at_dips(&frames, &activity), &audio.mono, &model)?
            }
            None => speakers::diarize(&frames, &activity),
        },
    };
    let filled_pauses = hesitation::filled_pauses(&frames);
    frames.mfcc = Vec::new();
    frames.bands = Vec::new();
    timings.speakers_ms = ms(t);
    Ok(Heard { audio, activity, frames, filled_pauses, diarization, timings })
}

/// Decode, detect and transcribe `path`, telling `progress` each stage and how far transcription is.
pub fn process(
    path: &Path,
    models: &Models,
    opts: &Options,
    progress: StageProgress<'_>,
    cancel: &CancellationToken,
) -> Result<Recording, AudioError> {
    let Heard { audio, activity, frames, filled_pauses, diarization, mut timings } =
        listen(path, models, opts, &mut *progress)?;
    let mut transcribing = |f: f64| progress("transcribing", f);
    let progress = &mut transcribing;
    let transcription = if activity.regions.is_empty() {
        Transcription { language: opts.language.unwrap_or(Lang::En), segments: Vec::new() }
    } else {
        let model = models.whisper().map_err(|e| AudioError::Model { what: "Whisper", message: e.to_string() })?;
        let cache = opts
            .cache_dir
            .as_deref()
            .map(|dir| (dir, transcript_cache::key(&audio.mono, &activity, opts.language, &model)));
        match cache.as_ref().and_then(|(dir, key)| transcript_cache::load(dir, key)) {
            Some(tr) => {
                tracing::info!("transcription of {} from the cache", path.display());
                timings.cached = true;
                progress(1.0);
                tr
            }
            None => {
                let t = Instant::now();
                let transcriber = Transcriber::load(&model)?;
                timings.load_ms = ms(t);
                let t = Instant::now();
                let wopts = whisper::Options { language: opts.language, threads: opts.threads };
                let tr = transcriber.transcribe(&audio.mono, &activity, &wopts, progress, cancel)?;
                timings.transcribe_ms = ms(t);
                if let Some((dir, key)) = &cache {
                    transcript_cache::store(dir, key, &tr);
                }
                tr
            }
        }
    };
    // Simplified characters whether the text came from whisper or from a cache written before.
    let transcription = super::hans::simplify(transcription);
    let turns = turns::build(&transcription, &diarization, transcription.language);
    Ok(Recording {
        source: audio.source.clone(),
        duration_s: audio.duration_s(),
        warnings: audio.warnings.clone(),
        activity,
        diarization,
        transcription,
        turns,
        frames,
        filled_pauses,
        timings,
    })
}

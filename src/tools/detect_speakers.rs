//! `detect_speakers`: who spoke when (from a recording's voices) and who is the interviewer and
//! who the candidate (from names given, the transcript's header, labels or behaviour).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Tool, ToolContext, ToolError};
use crate::audio::pipeline::{self, Options};
use crate::audio::speakers::ChannelMode;
use crate::audio::vad::VadKind;
use crate::models::Models;
use crate::transcript::roles::{self, RoleError, RoleHints, SpeakerAnalysis};
use crate::transcript::{Format, Mix, Transcript, Turn};

pub struct DetectSpeakers;

#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DetectSpeakersArgs {
    /// A transcript as `parse_transcript` or `transcribe_audio` returns it.
    #[serde(default)]
    pub transcript: Option<Transcript>,
    /// A recording (path relative to the data root): speakers are told apart by their voices.
    /// With a timed transcript too, its unnamed turns take the voice heard during them.
    #[serde(default)]
    pub audio: Option<String>,
    /// With `audio`: a stereo file with each side on its own channel, and which is the interviewer's.
    #[serde(default)]
    pub channels: Option<ChannelMode>,
    /// Speakers known to be interviewers (labels, or one word of a label).
    #[serde(default)]
    pub interviewers: Vec<String>,
    /// The speaker known to be the candidate.
    #[serde(default)]
    pub candidates: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DetectSpeakersOutput {
    #[serde(flatten)]
    pub analysis: SpeakerAnalysis,
    /// With `audio`: who spoke when, from the voices.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub voices: Option<Voices>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Voices {
    /// Voices told apart (1 to 4).
    pub speakers: usize,
    /// "acoustic" (clustered voice prints) or "channels" (stereo sides).
    pub basis: String,
    /// How well the voices separate (mean silhouette), when there are two or more.
    pub silhouette: Option<f64>,
    pub duration_s: f64,
    /// Stretches of one voice, in order.
    pub segments: Vec<VoiceSegment>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct VoiceSegment {
    /// "Speaker 1", "Speaker 2", … in order of first appearance.
    pub speaker: String,
    pub start_s: f64,
    pub end_s: f64,
}

/// Gaps up to this long inside one voice's talk do not end its segment (a breath, a short pause).
const SEGMENT_GAP_S: f64 = 1.0;

impl Tool for DetectSpeakers {
    const NAME: &'static str = "detect_speakers";
    const DESCRIPTION: &'static str = "Who spoke when and in which role. Give `audio` (a recording) to tell the speakers apart by their voices (or stereo channels) without transcribing, and/or a `transcript` to decide each speaker's role (interviewer, candidate, unknown) from names given, the header, role labels or behaviour (talk share, turn length, questions asked); returns speakers with role, confidence, turns and talk time, the role of every turn, and with audio the voice segments.";
    type Args = DetectSpeakersArgs;
    type Output = DetectSpeakersOutput;

    async fn execute(&self, args: DetectSpeakersArgs, ctx: &ToolContext) -> Result<DetectSpeakersOutput, ToolError> {
        let audio = match &args.audio {
            Some(p) => Some(ctx.resolve(p)?),
            None => None,
        };
        // Blocking work off the async workers, so the call's time limit can fire.
        let c = ctx.clone();
        ctx.blocking(move || run(&c, args, audio)).await
    }
}

fn run(
    ctx: &ToolContext,
    args: DetectSpeakersArgs,
    audio: Option<std::path::PathBuf>,
) -> Result<DetectSpeakersOutput, ToolError> {
    let voices = match &audio {
        Some(path) => Some(listen(ctx, path, args.channels)?),
        None => None,
    };
    let transcript = match (args.transcript, &voices) {
        (Some(t), Some(v)) => relabel(t, v),
        (Some(t), None) => t,
        (None, Some(v)) => voice_transcript(v),
        (None, None) => {
            return Err(ToolError::input(
                "nothing to look at: neither a transcript nor a recording was given",
                "pass `transcript` (from parse_transcript) or `audio` (a recording's path)",
            ))
        }
    };
    let mut hints = RoleHints { interviewers: args.interviewers, candidates: args.candidates };
    if args.channels.is_some() && voices.is_some() && hints.is_empty() {
        hints = RoleHints { interviewers: vec!["Interviewer".into()], candidates: vec!["Candidate".into()] };
    }
    let analysis = roles::detect_with(&transcript, &hints).map_err(|e| {
        let hint = match e {
            RoleError::UnknownSpeaker { .. } => "give a name as the transcript writes it (`ivd split FILE` lists them)",
            RoleError::NoSpeakers => "drop --interviewer/--candidate, or give a transcript with speaker labels",
        };
        ToolError::input(e.to_string(), hint)
    })?;
    Ok(DetectSpeakersOutput { analysis, voices })
}

fn listen(ctx: &ToolContext, path: &std::path::Path, channels: Option<ChannelMode>) -> Result<Voices, ToolError> {
    let models = Models::new(&ctx.config);
    let opts = Options { channels, vad: VadKind::default(), ..Options::default() };
    let heard = pipeline::listen(path, &models, &opts, &mut |_, _| {})?;
    let d = &heard.diarization;
    let name = |s: usize| match (channels.is_some(), s) {
        (true, 0) => "Interviewer".to_string(),
        (true, _) => "Candidate".to_string(),
        (false, s) => format!("Speaker {}", s + 1),
    };
    let segments = d
        .runs(SEGMENT_GAP_S)
        .into_iter()
        .map(|(span, s)| VoiceSegment { speaker: name(s), start_s: round2(span.start_s), end_s: round2(span.end_s) })
        .collect();
    Ok(Voices {
        speakers: d.speakers,
        basis: d.basis.clone(),
        silhouette: d.silhouette.map(round2),
        duration_s: round2(heard.audio.duration_s()),
        segments,
    })
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Turns with times but no speaker take the voice heard longest during them.
fn relabel(mut t: Transcript, v: &Voices) -> Transcript {
    for turn in t.turns.iter_mut().filter(|x| x.speaker.is_none()) {
        let (Some(a), Some(b)) = (turn.start_s, turn.end_s) else { continue };
        let mut best: Option<(&str, f64)> = None;
        for s in &v.segments {
            let overlap = (b.min(s.end_s) - a.max(s.start_s)).max(0.0);
            if overlap > best.map(|x| x.1).unwrap_or(0.0) {
                best = Some((&s.speaker, overlap));
            }
        }
        turn.speaker = best.map(|x| x.0.to_string());
    }
    t
}

/// The voice segments as a transcript without words: roles then come from talk share and turns.
fn voice_transcript(v: &Voices) -> Transcript {
    let turns = v
        .segments
        .iter()
        .map(|s| Turn {
            speaker: Some(s.speaker.clone()),
            text: String::new(),
            start_s: Some(s.start_s),
            end_s: Some(s.end_s),
        })
        .collect();
    Transcript { format: Format::Audio, language: Mix::En, turns, layout: None, metadata: Default::default() }
}

//! `diagnose-audio`: transcribe (who spoke when) -> the transcript skill's split (roles, with the
//! model's help where unsure) -> content per question -> delivery per answer -> report with a
//! timeline.

use std::time::{Duration, Instant};

use crate::lang::{Lang, Mix};
use crate::report::model::{QuestionReport, Report, SourceInfo, Timeline, TimelineTurn};
use crate::report::ReportFormat;
use crate::scoring::speech::{Pause, LONG_PAUSE_S};
use crate::tools::analyze_speech::{AnalyzeSpeech, AnalyzeSpeechArgs, TimedWord};
use crate::tools::generate_report::{GenerateReport, GenerateReportArgs};
use crate::tools::transcribe_audio::{
    ChannelMode, TranscribeAudio, TranscribeAudioArgs, TranscribeAudioOutput, VadKind,
};
use crate::tools::{call, ToolContext, ToolError};
use crate::transcript::pairs::QaPair;
use crate::transcript::roles::{Role, RoleHints};
use crate::transcript::Turn;

use super::diagnose_transcript::{diagnosis_history, question_reports};
use super::split_transcript::{split, SplitResult};

pub const NAME: &str = "diagnose-audio";

/// The skill, as the agent runs it from a request that names a recording.
pub struct DiagnoseAudio;

impl super::builtin::BuiltinSkill for DiagnoseAudio {
    const NAME: &'static str = NAME;
    const MANIFEST: &'static str = include_str!("../../skills/diagnose-audio/SKILL.md");
    async fn run(
        &self,
        ctx: &ToolContext,
        req: &super::builtin::SkillRequest<'_>,
    ) -> Result<super::builtin::SkillOutput, super::builtin::SkillError> {
        super::builtin::diagnose_file(ctx, NAME, req).await
    }
}

/// Pitch and level frames kept either side of an answer's words: a speech region can start or end
/// a little beyond them.
const FRAMES_MARGIN_S: f64 = 5.0;
/// Transcription runs for minutes on long recordings: it gets this long whatever the tool limit.
const TRANSCRIBE_LIMIT: Duration = Duration::from_secs(4 * 3600);

#[derive(Debug, Clone, Default)]
pub struct AudioOptions {
    /// Language of the talk for whisper; detected when None.
    pub speech_lang: Option<Lang>,
    pub channels: Option<ChannelMode>,
    pub vad: VadKind,
}

/// Diagnose the recording at `path`; the report, its rendering and the decoder's warnings.
pub async fn run(
    ctx: &ToolContext,
    path: &str,
    shown_path: &str,
    format: ReportFormat,
    lang: Option<Lang>,
    hints: &RoleHints,
    audio: &AudioOptions,
) -> Result<(Report, String, Vec<String>), ToolError> {
    let started = Instant::now();
    let result = steps(ctx, path, shown_path, format, lang, hints, audio, started).await;
    super::audit(ctx, NAME, started, path, &result);
    result
}

/// Transcribe with the long limit.
pub async fn transcribe(
    ctx: &ToolContext,
    path: &str,
    audio: &AudioOptions,
) -> Result<TranscribeAudioOutput, ToolError> {
    let mut long = ctx.clone();
    long.timeout = long.timeout.max(TRANSCRIBE_LIMIT);
    let args = TranscribeAudioArgs {
        path: path.to_string(),
        lang: audio.speech_lang,
        channels: audio.channels,
        vad: Some(audio.vad),
    };
    call(&TranscribeAudio, args, &long).await
}

/// The recording's speakers, roles and pairs: stereo channel modes name the sides.
pub async fn split_recording(
    ctx: &ToolContext,
    rec: &TranscribeAudioOutput,
    hints: &RoleHints,
    channels: bool,
) -> Result<(SplitResult, Vec<Turn>), ToolError> {
    let transcript = rec.transcript(channels);
    let mut hints = hints.clone();
    if channels {
        hints.interviewers.push("Interviewer".into());
        hints.candidates.push("Candidate".into());
    }
    let split = split(ctx, &transcript, &hints).await?;
    Ok((split, transcript.turns))
}

#[allow(clippy::too_many_arguments)]
async fn steps(
    ctx: &ToolContext,
    path: &str,
    shown_path: &str,
    format: ReportFormat,
    lang: Option<Lang>,
    hints: &RoleHints,
    audio: &AudioOptions,
    started: Instant,
) -> Result<(Report, String, Vec<String>), ToolError> {
    // The recording first: a file that does not decode should fail before the index loads.
    let rec = transcribe(ctx, path, audio).await?;
    if let Some(p) = &ctx.progress {
        (p.0)("scoring", 0.0);
    }
    let (split, turns) = split_recording(ctx, &rec, hints, audio.channels.is_some()).await?;
    let mut questions = question_reports(ctx, &split.pairs, lang).await?;
    for (pair, q) in split.pairs.iter().zip(questions.iter_mut()) {
        delivery(ctx, &rec, &split.turn_roles, pair, lang.unwrap_or(rec.language), q).await?;
    }
    let timeline = timeline(&rec, &turns, &split.turn_roles);
    let source = SourceInfo {
        path: shown_path.to_string(),
        kind: "audio".into(),
        format: rec.source.codec.clone(),
        // Whisper's language holds for Chinese talk with English terms, which detection calls mixed.
        language: if rec.language == Lang::Zh { Mix::Zh } else { split.language },
        duration_s: Some((rec.duration_s * 100.0).round() / 100.0),
    };
    let args = GenerateReportArgs {
        source,
        speakers: split.speakers,
        questions,
        format: Some(format),
        elapsed_ms: Some(started.elapsed().as_millis() as u64),
        lang,
        timeline: Some(timeline),
        history: Some(diagnosis_history(path)),
    };
    let out = call(&GenerateReport, args, ctx).await?;
    Ok((out.report, out.rendered, rec.warnings))
}

/// The delivery of one answer, from its words, the speech regions and the pitch and level frames
/// around it (only that stretch, not the whole recording's per question).
async fn delivery(
    ctx: &ToolContext,
    rec: &TranscribeAudioOutput,
    roles: &[Role],
    pair: &QaPair,
    lang: Lang,
    q: &mut QuestionReport,
) -> Result<(), ToolError> {
    let words = answer_words(rec, roles, pair);
    let (Some(first), Some(last)) = (words.first(), words.last()) else { return Ok(()) };
    let frames = rec.frames_between(first.start_s - FRAMES_MARGIN_S, last.end_s + FRAMES_MARGIN_S);
    let args = AnalyzeSpeechArgs {
        text: None,
        words,
        speech: rec.speech.clone(),
        filled_pauses: rec.filled_pauses.clone(),
        lang: Some(lang),
        f0_hz: frames.f0,
        level_db: frames.db,
        frames_from_s: frames.from_s,
    };
    let speech = call(&AnalyzeSpeech, args, ctx).await?;
    q.speech = speech.speech.and_then(|s| serde_json::to_value(s).ok());
    Ok(())
}

/// The candidate's words between the question's start and the answer's end.
fn answer_words(rec: &TranscribeAudioOutput, roles: &[Role], pair: &QaPair) -> Vec<TimedWord> {
    let (Some(a), Some(b)) = (pair.start_s, pair.end_s) else { return Vec::new() };
    rec.turns
        .iter()
        .zip(roles)
        .filter(|(t, r)| **r == Role::Candidate && t.start_s >= a - 0.01 && t.end_s <= b + 0.01)
        .flat_map(|(t, _)| t.words.iter())
        .map(|w| TimedWord { text: w.text.clone(), start_s: w.start_s, end_s: w.end_s })
        .collect()
}

fn timeline(rec: &TranscribeAudioOutput, turns: &[Turn], roles: &[Role]) -> Timeline {
    let role_name = |r: &Role| match r {
        Role::Interviewer => "interviewer",
        Role::Candidate => "candidate",
        _ => "unknown",
    };
    let turns = turns
        .iter()
        .zip(roles)
        .map(|(t, r)| TimelineTurn {
            speaker: t.speaker.clone().unwrap_or_default(),
            role: role_name(r).into(),
            start_s: t.start_s.unwrap_or(0.0),
            end_s: t.end_s.unwrap_or(0.0),
        })
        .collect();
    let pauses = rec
        .speech
        .windows(2)
        .filter(|w| w[1].start_s - w[0].end_s >= LONG_PAUSE_S)
        .map(|w| Pause { start_s: w[0].end_s, duration_s: w[1].start_s - w[0].end_s })
        .collect();
    Timeline { duration_s: rec.duration_s, turns, pauses }
}

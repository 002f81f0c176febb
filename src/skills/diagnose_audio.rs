//! `diagnose-audio`: transcribe (who spoke when) -> roles -> split -> content per question ->
//! delivery per answer -> report with a timeline.

use std::time::{Duration, Instant};

use crate::audio::features::{frame_at, HOP};
use crate::audio::speakers::ChannelMode;
use crate::audio::vad::VadKind;
use crate::audio::SAMPLE_RATE;
use crate::kb::Lang;
use crate::report::model::{Report, SourceInfo, Timeline, TimelineTurn};
use crate::scoring::speech::{Pause, LONG_PAUSE_S};
use crate::tools::analyze_speech::{AnalyzeSpeech, AnalyzeSpeechArgs, TimedWord};
use crate::tools::detect_speakers::{DetectSpeakers, DetectSpeakersArgs};
use crate::tools::generate_report::{GenerateReport, GenerateReportArgs, ReportFormat};
use crate::tools::split_qa_pairs::{SplitQaPairs, SplitQaPairsArgs};
use crate::tools::transcribe_audio::{TranscribeAudio, TranscribeAudioArgs, TranscribeAudioOutput};
use crate::tools::{call, ToolContext, ToolError};
use crate::transcript::pairs::QaPair;
use crate::transcript::roles::{Role, RoleHints};

use super::diagnose_transcript::{lang_code, question_reports};

pub const NAME: &str = "diagnose-audio";

/// Pitch and level frames kept either side of an answer's words: a speech region can start or end
/// a little beyond them.
const FRAMES_MARGIN_S: f64 = 5.0;
/// Transcription runs for minutes on long recordings: it gets this long whatever the tool limit.
const TRANSCRIBE_LIMIT: Duration = Duration::from_secs(4 * 3600);

#[derive(Debug, Clone, Default)]
pub struct AudioOptions {
    /// Language of the talk for whisper ("en"/"zh"); detected when None.
    pub speech_lang: Option<String>,
    pub channels: Option<ChannelMode>,
    pub vad: VadKind,
}

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
        lang: audio.speech_lang.clone(),
        channels: audio.channels,
        vad: Some(audio.vad),
    };
    call(&TranscribeAudio, args, &long).await
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
    let kb = ctx.kb()?;
    let transcript = rec.transcript(audio.channels.is_some());
    let mut hints = hints.clone();
    if audio.channels.is_some() {
        hints.interviewers.push("Interviewer".into());
        hints.candidates.push("Candidate".into());
    }
    let analysis = call(
        &DetectSpeakers,
        DetectSpeakersArgs {
            transcript: Some(transcript.clone()),
            interviewers: hints.interviewers.clone(),
            candidates: hints.candidates.clone(),
            ..Default::default()
        },
        ctx,
    )
    .await?
    .analysis;
    let turn_roles = analysis.turn_roles.clone();
    let split = call(
        &SplitQaPairs,
        SplitQaPairsArgs { transcript: transcript.clone(), turn_roles: Some(turn_roles.clone()) },
        ctx,
    )
    .await?;
    let zh_talk = rec.language == "zh";
    let reports = question_reports(ctx, &kb, &split.pairs, lang).await?;
    let mut questions = Vec::with_capacity(split.pairs.len());
    for (pair, mut q) in split.pairs.iter().zip(reports) {
        let words = answer_words(&rec, &turn_roles, pair);
        if !words.is_empty() {
            let q_lang = lang.map(lang_code).unwrap_or(if zh_talk { "zh" } else { "en" });
            // Only the answer's stretch of the pitch and level tracks (with a margin for the
            // speech regions around its words), not the whole recording's per question.
            let from_s = (words[0].start_s - FRAMES_MARGIN_S).max(0.0);
            let to_s = words[words.len() - 1].end_s + FRAMES_MARGIN_S;
            let part = |v: &[f32]| v[frame_at(from_s).min(v.len())..frame_at(to_s).min(v.len())].to_vec();
            let speech = call(
                &AnalyzeSpeech,
                AnalyzeSpeechArgs {
                    text: None,
                    words,
                    speech: rec.speech.clone(),
                    filled_pauses: rec.filled_pauses.clone(),
                    lang: Some(q_lang.into()),
                    f0_hz: part(&rec.f0),
                    level_db: part(&rec.db),
                    frames_from_s: frame_at(from_s) as f64 * HOP as f64 / SAMPLE_RATE as f64,
                },
                ctx,
            )
            .await?;
            q.speech = speech.speech.and_then(|s| serde_json::to_value(s).ok());
        }
        questions.push(q);
    }
    let timeline = timeline(&rec, &transcript.turns, &analysis.speakers, &turn_roles);
    let source = SourceInfo {
        path: shown_path.to_string(),
        kind: "audio".into(),
        format: rec.source.codec.clone(),
        language: if zh_talk { "zh".into() } else { transcript.language.as_str().into() },
        duration_s: Some((rec.duration_s * 100.0).round() / 100.0),
    };
    let out = call(
        &GenerateReport,
        GenerateReportArgs {
            source,
            speakers: analysis.speakers,
            questions,
            format: Some(format),
            elapsed_ms: Some(started.elapsed().as_millis() as u64),
            lang: lang.map(|l| lang_code(l).to_string()),
            timeline: Some(timeline),
        },
        ctx,
    )
    .await?;
    let mut report = out.report;
    let digest = if ctx.config.history { super::history::digest_file(&ctx.resolve(path)?)? } else { String::new() };
    let rendered = super::history::remember(ctx, &mut report, "diagnosis", &digest, format)?.unwrap_or(out.rendered);
    Ok((report, rendered, rec.warnings))
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

fn timeline(
    rec: &TranscribeAudioOutput,
    turns: &[crate::transcript::Turn],
    speakers: &[crate::transcript::roles::Speaker],
    roles: &[Role],
) -> Timeline {
    let role_name = |r: &Role| match r {
        Role::Interviewer => "interviewer",
        Role::Candidate => "candidate",
        _ => "unknown",
    };
    let turns = turns
        .iter()
        .zip(roles)
        .map(|(t, r)| {
            let label = t.speaker.clone().unwrap_or_default();
            let name = speakers.iter().find(|s| s.id == label).map(|s| s.id.clone()).unwrap_or(label);
            TimelineTurn {
                speaker: name,
                role: role_name(r).into(),
                start_s: t.start_s.unwrap_or(0.0),
                end_s: t.end_s.unwrap_or(0.0),
            }
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

//! The commands that take a recording: `transcribe`, and `diagnose` when the file is audio. The
//! progress bar and Ctrl-C live here, at the edge.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{anyhow, Context};
use clap::{Args, ValueEnum};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use super::{context_for_file, write_stdout, CliError, RoleArgs};
use crate::audio::speakers::ChannelMode;
use crate::audio::vad::VadKind;
use crate::config::Config;
use crate::report::ReportFormat;
use crate::skills::diagnose_audio::{self, AudioOptions};
use crate::tools::detect_speakers::{DetectSpeakers, DetectSpeakersArgs};
use crate::tools::{call, Progress, ToolContext};
use crate::transcript::roles::Role;

/// Options of every command that takes a recording.
#[derive(Debug, Clone, Default, Args)]
pub struct AudioArgs {
    /// Stereo recordings with each side on its own channel: which side is the interviewer's.
    #[arg(long, value_enum, value_name = "SIDE")]
    pub channels: Option<ChannelsArg>,
    /// Voice-activity detector.
    #[arg(long, value_enum, default_value = "earshot")]
    pub vad: VadArg,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ChannelsArg {
    InterviewerLeft,
    InterviewerRight,
}

#[derive(Debug, Clone, Copy, Default, ValueEnum)]
pub enum VadArg {
    #[default]
    Earshot,
    Silero,
}

impl AudioArgs {
    pub(super) fn options(&self, speech_lang: Option<crate::lang::Lang>) -> AudioOptions {
        AudioOptions {
            speech_lang,
            channels: self.channels.map(|c| match c {
                ChannelsArg::InterviewerLeft => ChannelMode::InterviewerLeft,
                ChannelsArg::InterviewerRight => ChannelMode::InterviewerRight,
            }),
            vad: match self.vad {
                VadArg::Earshot => VadKind::Earshot,
                VadArg::Silero => VadKind::Silero,
            },
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum TranscriptFormat {
    Txt,
    Srt,
    Vtt,
    Json,
}

/// One progress bar per stage of a recording (decoding, voices, transcribing, scoring) on stderr
/// when it is a terminal: a finished stage stays as a line with its time, the current one moves.
#[derive(Clone)]
struct StageBars {
    bars: MultiProgress,
    current: Arc<Mutex<Option<(String, ProgressBar)>>>,
}

impl StageBars {
    fn new() -> StageBars {
        let bars = MultiProgress::new();
        if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            bars.set_draw_target(ProgressDrawTarget::hidden());
        }
        StageBars { bars, current: Arc::new(Mutex::new(None)) }
    }

    fn update(&self, step: &str, f: f64) {
        let mut current = self.current.lock().unwrap_or_else(|p| p.into_inner());
        if current.as_ref().is_none_or(|(name, _)| name != step) {
            if let Some((_, done)) = current.take() {
                done.set_position(1000);
                done.finish();
            }
            let b = self.bars.add(ProgressBar::new(1000));
            b.set_style(
                ProgressStyle::with_template("{msg:>12} [{bar:40}] {percent:>3}% ({elapsed}, about {eta} left)")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
            );
            b.set_message(step.to_string());
            b.enable_steady_tick(Duration::from_millis(200));
            *current = Some((step.to_string(), b));
        }
        if let Some((_, b)) = current.as_ref() {
            b.set_position((f.clamp(0.0, 1.0) * 1000.0) as u64);
        }
    }

    /// The stage under way is done too; finished stages stay on screen.
    fn finish(&self) {
        if let Some((_, b)) = self.current.lock().unwrap_or_else(|p| p.into_inner()).take() {
            b.set_position(1000);
            b.finish();
        }
    }
}

/// A context whose long steps draw progress bars per stage and stop on Ctrl-C.
fn interactive(ctx: ToolContext) -> (ToolContext, StageBars) {
    let bars = StageBars::new();
    let mut ctx = ctx;
    let b = bars.clone();
    ctx.progress = Some(Progress(Arc::new(move |step: &str, f: f64| b.update(step, f))));
    let cancel = ctx.cancel.clone();
    // A second handler cannot be installed (tests run commands in-process): then Ctrl-C simply kills.
    let _ = ctrlc::set_handler(move || {
        eprintln!("\ncancelling (Ctrl-C again to kill)…");
        if cancel.is_cancelled() {
            std::process::exit(130);
        }
        cancel.cancel();
    });
    (ctx, bars)
}

pub(super) async fn diagnose(
    config: Arc<Config>,
    file: &Path,
    format: ReportFormat,
    lang: Option<crate::lang::Lang>,
    roles: &RoleArgs,
    audio: &AudioArgs,
    cancel: &tokio_util::sync::CancellationToken,
) -> Result<(crate::report::model::Report, String), CliError> {
    let (mut ctx, name) = context_for_file(config, file)?;
    ctx.cancel = cancel.clone();
    let (ctx, bar) = interactive(ctx);
    let result = diagnose_audio::run(
        &ctx,
        &name,
        &file.display().to_string(),
        format,
        lang,
        &roles.hints(),
        &audio.options(lang),
    )
    .await;
    bar.finish();
    let (report, rendered, warnings) = result.map_err(|e| {
        let mut err = CliError::from(e);
        err.error = err.error.context(format!("cannot diagnose {}", file.display()));
        err
    })?;
    for w in warnings {
        eprintln!("warning: {w}");
    }
    Ok((report, rendered))
}

/// `ivd transcribe`'s JSON.
#[derive(Serialize)]
struct TranscriptOut {
    language: crate::lang::Lang,
    duration_s: f64,
    speakers: Vec<SpeakerOut>,
    segments: Vec<SegmentOut>,
}

#[derive(Serialize)]
struct SpeakerOut {
    id: String,
    role: Role,
}

#[derive(Serialize)]
struct SegmentOut {
    start_s: f64,
    end_s: f64,
    speaker: String,
    text: String,
}

pub(super) async fn transcribe(
    config: Arc<Config>,
    file: &Path,
    format: TranscriptFormat,
    lang: Option<crate::lang::Lang>,
    roles: &RoleArgs,
    audio: &AudioArgs,
) -> Result<(), CliError> {
    let (mut ctx, name) = context_for_file(config, file)?;
    ctx.cancel = super::interrupt::token();
    let (ctx, bar) = interactive(ctx);
    let opts = audio.options(lang);
    let rec = diagnose_audio::transcribe(&ctx, &name, &opts).await;
    bar.finish();
    let rec = rec.map_err(|e| {
        let mut err = CliError::from(e);
        err.error = err.error.context(format!("cannot transcribe {}", file.display()));
        err
    })?;
    for w in &rec.warnings {
        eprintln!("warning: {w}");
    }
    let transcript = rec.transcript(opts.channels.is_some());
    let mut hints = roles.hints();
    if opts.channels.is_some() {
        hints.interviewers.push("Interviewer".into());
        hints.candidates.push("Candidate".into());
    }
    let analysis = if transcript.turns.is_empty() {
        None
    } else {
        let args = DetectSpeakersArgs {
            transcript: Some(transcript.clone()),
            interviewers: hints.interviewers,
            candidates: hints.candidates,
            ..Default::default()
        };
        Some(call(&DetectSpeakers, args, &ctx).await?.analysis)
    };
    let out = TranscriptOut {
        language: rec.language,
        duration_s: round2(rec.duration_s),
        speakers: analysis
            .as_ref()
            .map(|a| {
                a.speakers
                    .iter()
                    .map(|s| SpeakerOut { id: s.name.clone().unwrap_or_else(|| s.id.clone()), role: s.role })
                    .collect()
            })
            .unwrap_or_default(),
        segments: transcript
            .turns
            .iter()
            .map(|t| SegmentOut {
                start_s: round2(t.start_s.unwrap_or(0.0)),
                end_s: round2(t.end_s.unwrap_or(0.0)),
                speaker: t.speaker.clone().unwrap_or_default(),
                text: t.text.clone(),
            })
            .collect(),
    };
    if out.segments.is_empty() {
        eprintln!("note: no speech found in {} ({:.1} s of audio)", file.display(), rec.duration_s);
    }
    let text = match format {
        TranscriptFormat::Json => serde_json::to_string_pretty(&out).context("cannot encode the transcript")? + "\n",
        TranscriptFormat::Txt => out.segments.iter().map(|s| format!("{}: {}\n", s.speaker, s.text)).collect(),
        TranscriptFormat::Srt => srt(&out.segments),
        TranscriptFormat::Vtt => vtt(&out.segments),
    };
    write_stdout(text.as_bytes()).map_err(|e| CliError::from(anyhow!("{}", e.error)))
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn stamp(t: f64, sep: char) -> String {
    let ms = (t.max(0.0) * 1000.0).round() as u64;
    format!("{:02}:{:02}:{:02}{sep}{:03}", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
}

fn srt(segs: &[SegmentOut]) -> String {
    segs.iter()
        .enumerate()
        .map(|(i, s)| {
            format!("{}\n{} --> {}\n{}: {}\n\n", i + 1, stamp(s.start_s, ','), stamp(s.end_s, ','), s.speaker, s.text)
        })
        .collect()
}

fn vtt(segs: &[SegmentOut]) -> String {
    let mut out = String::from("WEBVTT\n\n");
    for s in segs {
        out.push_str(&format!(
            "{} --> {}\n<v {}>{}\n\n",
            stamp(s.start_s, '.'),
            stamp(s.end_s, '.'),
            s.speaker,
            s.text
        ));
    }
    out
}

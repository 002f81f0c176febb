//! `ivd bench --audio FILE`: the recording pipeline measured step by step. Decoding, voice
//! activity (earshot against Silero: time and agreement), speaker detection, and transcription's
//! real-time factor and peak memory beside whisper.cpp's own `whisper-cli` built from the same
//! sources (scripts/build_whisper_cli.sh), same model, same threads.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use tokio_util::sync::CancellationToken;

use super::{fail, BenchError};
use crate::audio::pipeline::{self, Options};
use crate::audio::vad::{self, Activity, VadKind};
use crate::audio::{decode, features, speakers, voices, whisper};
use crate::config::Config;
use crate::models::Models;

fn secs(t: Instant) -> f64 {
    t.elapsed().as_secs_f64()
}

/// Share of time the two detectors agree on speech vs silence (10 ms grid).
fn agreement(a: &Activity, b: &Activity) -> f64 {
    let n = (a.duration_s * 100.0) as usize;
    let inside = |act: &Activity, t: f64| act.regions.iter().any(|r| r.start_s <= t && t < r.end_s);
    let same = (0..n).filter(|&i| inside(a, i as f64 / 100.0) == inside(b, i as f64 / 100.0)).count();
    same as f64 / n.max(1) as f64
}

fn long_pauses(a: &Activity) -> Vec<String> {
    a.pauses().iter().filter(|p| p.len() >= 2.0).map(|p| format!("{:.2}-{:.2}", p.start_s, p.end_s)).collect()
}

pub fn run(config: &Config, file: &Path, whisper_cli: Option<&Path>) -> Result<(), BenchError> {
    let models = Models::new(config);
    let t = Instant::now();
    let audio = decode::decode(file, false)?;
    let decode_s = secs(t);
    let minutes = audio.duration_s() / 60.0;
    println!(
        "recording {}: {:.1} s, {} {} Hz {} ch",
        file.display(),
        audio.duration_s(),
        audio.source.codec,
        audio.source.sample_rate,
        audio.source.channels
    );
    println!("decode + resample: {:.3} s ({:.3} s per audio minute)", decode_s, decode_s / minutes);
    let ear = vad_figures(&audio.mono, &models, minutes)?;
    speaker_figures(file, &audio.mono, &ear, &models, minutes);
    transcription_figures(config, file, &audio, &models, whisper_cli)
}

/// Earshot against Silero: time per audio minute, regions, long pauses, agreement.
fn vad_figures(mono: &[f32], models: &Models, minutes: f64) -> Result<Activity, BenchError> {
    let t = Instant::now();
    let ear = vad::detect(mono, VadKind::Earshot, models)?;
    let ear_s = secs(t);
    println!(
        "vad earshot: {:.3} s per audio minute, {} speech regions, pauses >= 2 s: {:?}",
        ear_s / minutes,
        ear.regions.len(),
        long_pauses(&ear)
    );
    let t = Instant::now();
    match vad::detect(mono, VadKind::Silero, models) {
        Ok(sil) => println!(
            "vad silero:  {:.3} s per audio minute, {} speech regions, pauses >= 2 s: {:?}; agreement with earshot {:.1}% of 10 ms frames",
            secs(t) / minutes,
            sil.regions.len(),
            long_pauses(&sil),
            100.0 * agreement(&ear, &sil)
        ),
        Err(e) => println!("vad silero: skipped ({e})"),
    }
    Ok(ear)
}

/// Who spoke when: time per audio minute, and against an RTTM file beside the recording.
fn speaker_figures(file: &Path, mono: &[f32], ear: &Activity, models: &Models, minutes: f64) {
    let t = Instant::now();
    let frames = features::frames(mono);
    let d = match pipeline::speaker_model(models) {
        Some(model) => match voices::diarize(&frames, &speakers::split_at_dips(&frames, ear), mono, &model) {
            Ok(d) => d,
            Err(e) => {
                println!("speakers: {e}");
                return;
            }
        },
        None => speakers::diarize(&frames, ear),
    };
    println!("speakers: {:.3} s per audio minute (features + clustering), {} found", secs(t) / minutes, d.speakers);
    let truth = file.with_extension("rttm");
    if let Some(turns) = super::speakers::read_rttm(&truth) {
        let a = super::speakers::agreement(&turns, &d);
        println!(
            "speakers vs {}: frame error {:.1}% (best naming), {:.1}% of one-speaker time heard as speech",
            truth.display(),
            100.0 * a.frame_error(),
            100.0 * a.heard_s / a.single_s.max(1e-9)
        );
    }
}

/// Whisper through the pipeline (detected language, then given), against whisper.cpp's CLI.
fn transcription_figures(
    config: &Config,
    file: &Path,
    audio: &crate::audio::Audio,
    models: &Models,
    whisper_cli: Option<&Path>,
) -> Result<(), BenchError> {
    let threads = whisper::default_threads();
    let opts = Options { threads, ..Options::default() };
    let t = Instant::now();
    let rec = pipeline::process(file, models, &opts, &mut |_, _| {}, &CancellationToken::new())?;
    let total_s = secs(t);
    let ours = rec.timings.transcribe_ms as f64 / 1000.0;
    println!(
        "ivd transcription ({} threads, base, {}): {:.2} s, real-time factor {:.3}; whole pipeline {:.2} s (model load {:.2} s)",
        threads,
        rec.transcription.language,
        ours,
        ours / audio.duration_s(),
        total_s,
        rec.timings.load_ms as f64 / 1000.0
    );
    println!("peak memory of ivd (decode + vad + speakers + whisper): {}", peak_rss_self());
    // whisper-cli is told the language; so is ivd for the comparison (detection costs one more
    // encoder pass, which matters on short clips).
    let lang = rec.transcription.language;
    let fixed = Options { threads, language: Some(lang), ..Options::default() };
    let rec2 = pipeline::process(file, models, &fixed, &mut |_, _| {}, &CancellationToken::new())?;
    let ours = rec2.timings.transcribe_ms as f64 / 1000.0;
    println!("ivd transcription with --lang {lang}: {:.2} s, real-time factor {:.3}", ours, ours / audio.duration_s());
    match whisper_cli {
        Some(cli) => {
            reference(config, models, cli, &audio.mono, threads, rec.transcription.language, ours, audio.duration_s())?
        }
        None => println!(
            "whisper-cli: not measured (build it with scripts/build_whisper_cli.sh and pass --whisper-cli PATH)"
        ),
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn reference(
    config: &Config,
    models: &Models,
    cli: &Path,
    mono: &[f32],
    threads: usize,
    lang: crate::lang::Lang,
    ours: f64,
    duration: f64,
) -> Result<(), BenchError> {
    let model = models.whisper()?;
    let wav = config.home.join("bench-whisper-cli.wav");
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: 16_000,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::create(&wav, spec).map_err(|e| fail!("cannot write the bench WAV: {e}"))?;
    for v in mono {
        w.write_sample((v * 32767.0).round() as i16).map_err(|e| fail!("cannot write the bench WAV: {e}"))?;
    }
    w.finalize().map_err(|e| fail!("cannot write the bench WAV: {e}"))?;
    // Same work as ivd asks of whisper.cpp: greedy, language fixed, DTW token times.
    // Through GNU time: a child forked from this process starts with this process's memory counted
    // in its peak, so getrusage cannot tell whisper-cli's own.
    let t = Instant::now();
    let out = Command::new("/usr/bin/time")
        .args(["-f", "IVD_PEAK_KB=%M"])
        .arg(cli)
        .args([
            "-m",
            &model.to_string_lossy(),
            "-f",
            &wav.to_string_lossy(),
            "-t",
            &threads.to_string(),
            "-l",
            lang.as_str(),
        ])
        .args(["-bo", "1", "-bs", "1", "-dtw", "base", "-np"])
        .output()
        .map_err(|e| fail!("cannot run {} through /usr/bin/time (apt-get install time): {e}", cli.display()))?;
    let theirs = secs(t);
    let _ = std::fs::remove_file(&wav);
    if !out.status.success() {
        return Err(fail!("whisper-cli failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    println!(
        "whisper-cli (same sources, model, {} threads): {:.2} s, real-time factor {:.3}, peak memory {}",
        threads,
        theirs,
        theirs / duration,
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .rev()
            .find_map(|l| l.strip_prefix("IVD_PEAK_KB=").map(|k| format!("{k} kB")))
            .unwrap_or_else(|| "unknown (needs /usr/bin/time)".into())
    );
    println!(
        "ivd's transcription takes {:.2}x whisper-cli's time ({:+.1}%)",
        ours / theirs,
        100.0 * (ours / theirs - 1.0)
    );
    Ok(())
}

fn peak_rss_self() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).map(|l| l.trim_start_matches("VmHWM:").trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

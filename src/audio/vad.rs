//! Voice activity on the samples themselves: speech regions and the pauses between them, to about
//! 0.1 s. The default detector is earshot (pure Rust, 16 ms frames, no model file); Silero VAD v6
//! (ONNX, 32 ms frames) is the one it is measured against (`ivd bench`) and `--vad silero` picks it.

use serde::{Deserialize, Serialize};

use super::{silero, AudioError, SAMPLE_RATE};
use crate::models::Models;

/// Frame probability at or above which a frame is speech. Both earshot's README and Silero's
/// `get_speech_timestamps` use 0.5 as the default.
pub const THRESHOLD: f32 = 0.5;
/// Gaps shorter than this are not pauses: fluency research puts pause cut-offs between 0.1 and 1 s
/// (MODELS.md), so 0.1 s is the finest pause we report; shorter gaps are stops inside a word.
pub const MIN_GAP_S: f64 = 0.1;
/// Speech blips shorter than this are clicks or breaths, not speech (Silero's own minimum speech
/// duration is 250 ms; we keep shorter ones since "uh" can last 100 ms).
pub const MIN_SPEECH_S: f64 = 0.06;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum VadKind {
    #[default]
    Earshot,
    Silero,
}

impl VadKind {
    pub fn as_str(self) -> &'static str {
        match self {
            VadKind::Earshot => "earshot",
            VadKind::Silero => "silero",
        }
    }
}

/// A stretch of time, in seconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Span {
    pub start_s: f64,
    pub end_s: f64,
}

impl Span {
    pub fn len(&self) -> f64 {
        self.end_s - self.start_s
    }
    pub fn is_empty(&self) -> bool {
        self.len() <= 0.0
    }
    pub fn overlap(&self, other: &Span) -> f64 {
        (self.end_s.min(other.end_s) - self.start_s.max(other.start_s)).max(0.0)
    }
}

/// Speech regions of a recording, in order, with at least [`MIN_GAP_S`] between them.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Activity {
    pub regions: Vec<Span>,
    pub duration_s: f64,
}

impl Activity {
    /// Silences between speech regions (not before the first or after the last).
    pub fn pauses(&self) -> Vec<Span> {
        self.regions.windows(2).map(|w| Span { start_s: w[0].end_s, end_s: w[1].start_s }).collect()
    }

    /// Seconds of speech inside `within`.
    pub fn speech_in(&self, within: &Span) -> f64 {
        self.regions.iter().map(|r| r.overlap(within)).sum()
    }

    /// Pauses of at least `min_s` that lie inside `within` (both ends inside it).
    pub fn pauses_in(&self, within: &Span, min_s: f64) -> Vec<Span> {
        self.pauses()
            .into_iter()
            .filter(|p| p.len() >= min_s && p.start_s >= within.start_s - 1e-6 && p.end_s <= within.end_s + 1e-6)
            .collect()
    }
}

/// Detect speech in 16 kHz mono samples.
pub fn detect(samples: &[f32], kind: VadKind, models: &Models) -> Result<Activity, AudioError> {
    let (probs, frame) = match kind {
        VadKind::Earshot => (earshot_probs(samples), EARSHOT_FRAME),
        VadKind::Silero => (silero::probabilities(samples, models)?, silero::FRAME),
    };
    Ok(regions_from(&probs, frame, samples.len()))
}

/// earshot's frame: 16 ms at 16 kHz.
const EARSHOT_FRAME: usize = 256;

/// earshot's per-frame probabilities (16 ms frames; the tail shorter than a frame is padded).
pub fn earshot_probs(samples: &[f32]) -> Vec<f32> {
    let mut det = earshot::Detector::default();
    let frame = EARSHOT_FRAME;
    let mut out = Vec::with_capacity(samples.len() / frame + 1);
    let mut buf = vec![0.0f32; frame];
    for chunk in samples.chunks(frame) {
        buf[..chunk.len()].copy_from_slice(chunk);
        buf[chunk.len()..].fill(0.0);
        out.push(det.predict_f32(&buf));
    }
    out
}

/// Frame probabilities to regions: threshold, close gaps under [`MIN_GAP_S`], drop blips.
pub fn regions_from(probs: &[f32], frame: usize, len: usize) -> Activity {
    let fs = frame as f64 / SAMPLE_RATE as f64;
    let duration_s = len as f64 / SAMPLE_RATE as f64;
    let mut raw: Vec<Span> = Vec::new();
    let mut start: Option<usize> = None;
    for (i, &p) in probs.iter().chain(std::iter::once(&0.0)).enumerate() {
        match (p >= THRESHOLD, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                raw.push(Span { start_s: s as f64 * fs, end_s: (i as f64 * fs).min(duration_s) });
                start = None;
            }
            _ => {}
        }
    }
    let mut merged: Vec<Span> = Vec::new();
    for r in raw {
        match merged.last_mut() {
            Some(last) if r.start_s - last.end_s < MIN_GAP_S => last.end_s = r.end_s,
            _ => merged.push(r),
        }
    }
    merged.retain(|r| r.len() >= MIN_SPEECH_S);
    Activity { regions: merged, duration_s }
}

/// Root-mean-square level of `samples` (0 for none).
pub fn rms(samples: &[f32]) -> f32 {
    (samples.iter().map(|v| v * v).sum::<f32>() / samples.len().max(1) as f32).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_under_the_minimum_are_closed_and_blips_dropped() {
        // 16 ms frames: speech 0-0.32 s, a 48 ms gap (closed), speech to 0.8 s, 1 s pause, a 32 ms blip.
        let mut p = vec![0.9f32; 20];
        p.extend([0.1; 3]);
        p.extend([0.9; 27]);
        p.extend([0.1; 62]);
        p.extend([0.9; 2]);
        p.extend([0.1; 30]);
        let a = regions_from(&p, 256, p.len() * 256);
        assert_eq!(a.regions.len(), 1, "{:?}", a.regions);
        assert!((a.regions[0].end_s - 0.8).abs() < 0.02);
        assert!(a.pauses().is_empty());
    }
}

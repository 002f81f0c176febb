//! Speaker embeddings: the GE2E encoder (Wan et al., "Generalized End-to-End Loss for Speaker
//! Verification", 2018) with the weights Resemblyzer 0.1.4 ships, provisioned by `ivd models fetch`
//! as `speakers/ge2e.bin`. A 3-layer LSTM (256 units) reads 40-band mel power frames (25 ms window,
//! 10 ms hop, not logarithmic: Resemblyzer's own front end) and its last state, through a linear
//! layer and a ReLU, is L2-normalised into a 256-value voice print. Two stretches of one voice lie
//! close; pitch and cepstral means alone could not tell two women apart on a real phone call.

use std::path::Path;
use std::sync::Arc;

use realfft::{RealFftPlanner, RealToComplex};

use super::{AudioError, SAMPLE_RATE};

pub const N_MELS: usize = 40;
const HIDDEN: usize = 256;
const GATES: usize = 4 * HIDDEN;
const N_FFT: usize = 400;
const HOP: usize = 160;
/// Resemblyzer raises quiet audio to this level (dBFS) before the mel front end; the encoder was
/// trained on levels like it, and its inputs are not logarithmic, so level matters.
const TARGET_DBFS: f32 = -30.0;
/// Frames per pass: Resemblyzer's partial utterances are 160 frames (1.6 s); longer stretches are
/// read in passes of this many, half overlapping, and their prints averaged.
const PARTIAL_FRAMES: usize = 160;

struct Lstm {
    inputs: usize,
    w_ih: Vec<f32>,
    w_hh: Vec<f32>,
    /// b_ih + b_hh: PyTorch adds both.
    bias: Vec<f32>,
}

pub struct Encoder {
    layers: Vec<Lstm>,
    linear_w: Vec<f32>,
    linear_b: Vec<f32>,
    /// Mel filters as (first FFT bin, weights): librosa's Slaney scale and normalisation.
    filters: Vec<(usize, Vec<f32>)>,
    window: Vec<f32>,
    fft: Arc<dyn RealToComplex<f32>>,
}

fn bad(path: &Path, what: &str) -> AudioError {
    AudioError::Model {
        what: "the speaker encoder",
        message: format!("{} is not a GE2E weight file ({what}); run `ivd models fetch` to repair it", path.display()),
    }
}

/// ge2e.bin: magic "GE2E", u32 version 1, u32 count, then per tensor u16 name length, the name, u8
/// rank, rank x u32 dims, f32 values (scripts/provision_models.py writes it).
fn read_tensors(path: &Path) -> Result<Vec<(String, Vec<f32>)>, AudioError> {
    let data = std::fs::read(path).map_err(|e| bad(path, &e.to_string()))?;
    let mut at = 0usize;
    let mut take = |n: usize| -> Result<&[u8], AudioError> {
        let s = data.get(at..at + n).ok_or_else(|| bad(path, "cut short"))?;
        at += n;
        Ok(s)
    };
    let u32_of = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    if take(4)? != b"GE2E" || u32_of(take(4)?) != 1 {
        return Err(bad(path, "wrong magic or version"));
    }
    let count = u32_of(take(4)?) as usize;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let len = take(2)?;
        let len = u16::from_le_bytes([len[0], len[1]]) as usize;
        let name = String::from_utf8_lossy(take(len)?).into_owned();
        let rank = take(1)?[0] as usize;
        let mut n = 1usize;
        for _ in 0..rank {
            n *= u32_of(take(4)?) as usize;
        }
        let values = take(n * 4)?.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        out.push((name, values));
    }
    Ok(out)
}

impl Encoder {
    pub fn load(path: &Path) -> Result<Encoder, AudioError> {
        let mut tensors = read_tensors(path)?;
        let mut get = |name: &str, len: usize| -> Result<Vec<f32>, AudioError> {
            let i = tensors.iter().position(|t| t.0 == name).ok_or_else(|| bad(path, &format!("no {name}")))?;
            let v = tensors.swap_remove(i).1;
            if v.len() != len {
                return Err(bad(path, &format!("{name} has {} values, not {len}", v.len())));
            }
            Ok(v)
        };
        let mut layers = Vec::new();
        for l in 0..3 {
            let inputs = if l == 0 { N_MELS } else { HIDDEN };
            let w_ih = get(&format!("lstm.weight_ih_l{l}"), GATES * inputs)?;
            let w_hh = get(&format!("lstm.weight_hh_l{l}"), GATES * HIDDEN)?;
            let b_ih = get(&format!("lstm.bias_ih_l{l}"), GATES)?;
            let b_hh = get(&format!("lstm.bias_hh_l{l}"), GATES)?;
            let bias = b_ih.iter().zip(&b_hh).map(|(a, b)| a + b).collect();
            layers.push(Lstm { inputs, w_ih, w_hh, bias });
        }
        let linear_w = get("linear.weight", HIDDEN * HIDDEN)?;
        let linear_b = get("linear.bias", HIDDEN)?;
        let window = (0..N_FFT).map(|i| 0.5 - 0.5 * (std::f32::consts::TAU * i as f32 / N_FFT as f32).cos()).collect();
        let fft = RealFftPlanner::<f32>::new().plan_fft_forward(N_FFT);
        Ok(Encoder { layers, linear_w, linear_b, filters: slaney_filters(), window, fft })
    }

    /// The voice print of a stretch of speech (16 kHz), or None when it is too short to say.
    pub fn embed(&self, samples: &[f32]) -> Option<Vec<f32>> {
        let mels = self.mels(&louder(samples));
        if mels.len() < 20 {
            return None;
        }
        // Passes of PARTIAL_FRAMES, half overlapping, the last one flush with the end.
        let mut starts: Vec<usize> =
            (0..mels.len().saturating_sub(PARTIAL_FRAMES) + 1).step_by(PARTIAL_FRAMES / 2).collect();
        if let Some(&last) = starts.last() {
            if last + PARTIAL_FRAMES < mels.len() {
                starts.push(mels.len() - PARTIAL_FRAMES);
            }
        }
        let mut sum = vec![0.0f32; HIDDEN];
        for s in starts {
            let e = self.embed_frames(&mels[s..(s + PARTIAL_FRAMES).min(mels.len())]);
            sum.iter_mut().zip(&e).for_each(|(a, b)| *a += b);
        }
        Some(normalised(sum))
    }

    /// Mel power frames, librosa's `melspectrogram` defaults: centred frames (reflect padding),
    /// periodic Hann window, |STFT|^2.
    fn mels(&self, x: &[f32]) -> Vec<[f32; N_MELS]> {
        let pad = N_FFT / 2;
        if x.len() <= pad {
            return Vec::new();
        }
        let at = |i: isize| -> f32 {
            let n = x.len() as isize;
            let j = if i < 0 {
                -i
            } else if i >= n {
                2 * (n - 1) - i
            } else {
                i
            };
            x[j.clamp(0, n - 1) as usize]
        };
        let frames = 1 + x.len() / HOP;
        let mut input = self.fft.make_input_vec();
        let mut spec = self.fft.make_output_vec();
        let mut out = Vec::with_capacity(frames);
        for f in 0..frames {
            let start = (f * HOP) as isize - pad as isize;
            for (k, v) in input.iter_mut().enumerate() {
                *v = at(start + k as isize) * self.window[k];
            }
            if self.fft.process(&mut input, &mut spec).is_err() {
                break;
            }
            let power: Vec<f32> = spec.iter().map(|c| c.norm_sqr()).collect();
            let mut m = [0.0f32; N_MELS];
            for (b, (first, w)) in self.filters.iter().enumerate() {
                m[b] = w.iter().zip(&power[*first..]).map(|(a, p)| a * p).sum();
            }
            out.push(m);
        }
        out
    }

    fn embed_frames(&self, mels: &[[f32; N_MELS]]) -> Vec<f32> {
        let mut seq: Vec<Vec<f32>> = mels.iter().map(|m| m.to_vec()).collect();
        for layer in &self.layers {
            seq = layer.run(&seq);
        }
        let h = seq.last().cloned().unwrap_or_else(|| vec![0.0; HIDDEN]);
        let raw: Vec<f32> = (0..HIDDEN)
            .map(|r| (dot(&self.linear_w[r * HIDDEN..(r + 1) * HIDDEN], &h) + self.linear_b[r]).max(0.0))
            .collect();
        normalised(raw)
    }
}

impl Lstm {
    /// Every step's hidden state (PyTorch's gate order: input, forget, cell, output).
    fn run(&self, xs: &[Vec<f32>]) -> Vec<Vec<f32>> {
        let mut h = vec![0.0f32; HIDDEN];
        let mut c = vec![0.0f32; HIDDEN];
        let mut g = vec![0.0f32; GATES];
        let mut out = Vec::with_capacity(xs.len());
        for x in xs {
            for (r, gr) in g.iter_mut().enumerate() {
                *gr = self.bias[r]
                    + dot(&self.w_ih[r * self.inputs..(r + 1) * self.inputs], x)
                    + dot(&self.w_hh[r * HIDDEN..(r + 1) * HIDDEN], &h);
            }
            for k in 0..HIDDEN {
                let i = sigmoid(g[k]);
                let f = sigmoid(g[HIDDEN + k]);
                let cell = g[2 * HIDDEN + k].tanh();
                let o = sigmoid(g[3 * HIDDEN + k]);
                c[k] = f * c[k] + i * cell;
                h[k] = o * c[k].tanh();
            }
            out.push(h.clone());
        }
        out
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// A dot product in eight lanes, which the compiler turns into vector instructions.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca.remainder().iter().zip(cb.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    acc.iter().sum::<f32>() + tail
}

fn normalised(mut v: Vec<f32>) -> Vec<f32> {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if n > 0.0 {
        v.iter_mut().for_each(|x| *x /= n);
    }
    v
}

/// Quiet audio raised to [`TARGET_DBFS`] (never lowered), as Resemblyzer's `normalize_volume`.
fn louder(x: &[f32]) -> Vec<f32> {
    let rms = (x.iter().map(|v| v * v).sum::<f32>() / x.len().max(1) as f32).sqrt();
    let db = 20.0 * rms.max(1e-9).log10();
    let gain = if db < TARGET_DBFS { 10f32.powf((TARGET_DBFS - db) / 20.0) } else { 1.0 };
    x.iter().map(|v| v * gain).collect()
}

/// librosa's `filters.mel(sr=16000, n_fft=400, n_mels=40)`: Slaney's mel scale (linear below 1 kHz,
/// logarithmic above), triangles between adjacent points, each scaled to unit area (norm="slaney").
fn slaney_filters() -> Vec<(usize, Vec<f32>)> {
    let to_mel = |f: f64| if f < 1000.0 { f / (200.0 / 3.0) } else { 15.0 + (f / 1000.0).ln() / (6.4f64.ln() / 27.0) };
    let to_hz = |m: f64| if m < 15.0 { m * 200.0 / 3.0 } else { 1000.0 * ((m - 15.0) * 6.4f64.ln() / 27.0).exp() };
    let top = to_mel(SAMPLE_RATE as f64 / 2.0);
    let pts: Vec<f64> = (0..N_MELS + 2).map(|i| to_hz(top * i as f64 / (N_MELS + 1) as f64)).collect();
    let bins = N_FFT / 2 + 1;
    let freq = |k: usize| k as f64 * SAMPLE_RATE as f64 / N_FFT as f64;
    (0..N_MELS)
        .map(|m| {
            let (lo, mid, hi) = (pts[m], pts[m + 1], pts[m + 2]);
            let norm = 2.0 / (hi - lo);
            let w: Vec<f32> = (0..bins)
                .map(|k| {
                    let f = freq(k);
                    ((f - lo) / (mid - lo)).min((hi - f) / (hi - mid)).max(0.0) * norm
                })
                .map(|v| v as f32)
                .collect();
            let first = w.iter().position(|&v| v > 0.0).unwrap_or(0);
            let last = w.iter().rposition(|&v| v > 0.0).unwrap_or(first);
            (first, w[first..=last].to_vec())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mel_filters_match_librosa() {
        // librosa 0.11 `filters.mel(sr=16000, n_fft=400, n_mels=40)`: filter, first non-zero bin,
        // non-zero bins, first three weights.
        let want: [(usize, usize, usize, [f32; 3]); 4] = [
            (0, 1, 3, [0.00739, 0.012405, 0.005014]),
            (10, 19, 4, [0.004489, 0.011879, 0.007915]),
            (25, 60, 10, [0.000653, 0.00175, 0.002847]),
            (39, 172, 28, [2.1e-05, 0.000152, 0.000283]),
        ];
        let f = slaney_filters();
        assert_eq!(f.len(), N_MELS);
        for (i, first, len, w) in want {
            let (ours_first, ours) = &f[i];
            assert_eq!((*ours_first, ours.len()), (first, len), "filter {i}");
            for k in 0..3 {
                assert!((ours[k] - w[k]).abs() < 2e-6, "filter {i} weight {k}: {} vs {}", ours[k], w[k]);
            }
        }
    }
}

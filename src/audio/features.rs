//! Acoustic features at 10 ms steps: MFCCs (who is speaking), fundamental frequency (pitch
//! variation) and loudness (volume variation). Plain DSP, no model; the MFCC voice prints are the
//! fallback when the CAM++ speaker encoder is not provisioned.

use std::sync::Arc;

use realfft::{RealFftPlanner, RealToComplex};

use super::SAMPLE_RATE;

/// 10 ms hop and 25 ms window: the standard MFCC framing (HTK, Kaldi).
pub const HOP: usize = 160;
const WIN: usize = 400;
const NFFT: usize = 512;
const MELS: usize = 26;
pub const CEPS: usize = 13;
/// Pitch search range: 60-400 Hz covers adult male and female voices.
const F0_MIN: f32 = 60.0;
const F0_MAX: f32 = 400.0;
/// Normalised autocorrelation peak above which a frame counts as voiced (Boersma's Praat uses
/// 0.45 as its voicing threshold).
const VOICING: f32 = 0.45;

/// Edges (Hz) of the broad bands whose balance tells a held vowel from changing speech: each
/// holds several harmonics even of a high voice, so the balance does not flicker with F0 as the
/// narrow low mel bands do.
const BAND_EDGES_HZ: [f32; BANDS + 1] = [300.0, 800.0, 1500.0, 2500.0, 4000.0, 7000.0];
pub const BANDS: usize = 5;
/// Band levels are floored here: a nearly empty band's level swings by many dB on noise alone.
const BAND_FLOOR_DB: f32 = -20.0;

/// Per-frame features of a stretch of audio; frame `i` covers `i * HOP` onwards.
#[derive(Debug, Clone, Default)]
pub struct Frames {
    pub mfcc: Vec<[f32; CEPS]>,
    /// Level of each broad band relative to the frame's whole level, dB, floored at -20.
    pub bands: Vec<[f32; BANDS]>,
    /// F0 in Hz, 0 where unvoiced.
    pub f0: Vec<f32>,
    /// Loudness in dB full scale.
    pub db: Vec<f32>,
}

pub fn frame_time(i: usize) -> f64 {
    (i * HOP) as f64 / SAMPLE_RATE as f64
}

pub fn frame_at(t: f64) -> usize {
    (t.max(0.0) * SAMPLE_RATE as f64 / HOP as f64) as usize
}

struct Mfcc {
    fft: Arc<dyn RealToComplex<f32>>,
    window: Vec<f32>,
    filters: Vec<(usize, Vec<f32>)>,
    dct: Vec<[f32; MELS]>,
}

fn mel(hz: f32) -> f32 {
    2595.0 * (1.0 + hz / 700.0).log10()
}

fn hz(mel: f32) -> f32 {
    700.0 * (10f32.powf(mel / 2595.0) - 1.0)
}

impl Mfcc {
    fn new() -> Mfcc {
        let fft = RealFftPlanner::<f32>::new().plan_fft_forward(NFFT);
        let window =
            (0..WIN).map(|i| 0.5 - 0.5 * (std::f32::consts::TAU * i as f32 / (WIN - 1) as f32).cos()).collect();
        // Triangular filters evenly spaced on the mel scale between 20 Hz and 7.6 kHz.
        let (lo, hi) = (mel(20.0), mel(7600.0));
        let edges: Vec<f32> = (0..MELS + 2).map(|i| hz(lo + (hi - lo) * i as f32 / (MELS + 1) as f32)).collect();
        let bin = |f: f32| f * NFFT as f32 / SAMPLE_RATE as f32;
        let filters = (0..MELS)
            .map(|m| {
                let (a, b, c) = (bin(edges[m]), bin(edges[m + 1]), bin(edges[m + 2]));
                let first = a.ceil() as usize;
                let w = (first..=c.floor() as usize)
                    .map(|k| {
                        let k = k as f32;
                        if k <= b {
                            (k - a) / (b - a).max(1e-6)
                        } else {
                            (c - k) / (c - b).max(1e-6)
                        }
                    })
                    .collect();
                (first, w)
            })
            .collect();
        let dct = (0..CEPS)
            .map(|k| {
                let mut row = [0.0f32; MELS];
                for (n, v) in row.iter_mut().enumerate() {
                    *v = (std::f32::consts::PI * k as f32 * (n as f32 + 0.5) / MELS as f32).cos();
                }
                row
            })
            .collect();
        Mfcc { fft, window, filters, dct }
    }
}

/// Features of every 10 ms frame of `samples`, the frames shared out over the cores (an hour
/// is a minute and a half of work on one).
pub fn frames(samples: &[f32]) -> Frames {
    let m = Mfcc::new();
    let n = samples.len() / HOP;
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get()).min(8);
    let chunk = n.div_ceil(cores).max(1);
    let parts: Vec<Frames> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..n)
            .step_by(chunk)
            .map(|a| {
                let m = &m;
                scope.spawn(move || frames_in(samples, m, a..(a + chunk).min(n)))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    });
    let mut out = Frames {
        mfcc: Vec::with_capacity(n),
        bands: Vec::with_capacity(n),
        f0: Vec::with_capacity(n),
        db: Vec::with_capacity(n),
    };
    for p in parts {
        out.mfcc.extend(p.mfcc);
        out.bands.extend(p.bands);
        out.f0.extend(p.f0);
        out.db.extend(p.db);
    }
    out
}

/// Features of frames `range` of `samples`.
fn frames_in(samples: &[f32], m: &Mfcc, range: std::ops::Range<usize>) -> Frames {
    let n = range.len();
    let mut out = Frames {
        mfcc: Vec::with_capacity(n),
        bands: Vec::with_capacity(n),
        f0: Vec::with_capacity(n),
        db: Vec::with_capacity(n),
    };
    let bin = |hz: f32| (hz * NFFT as f32 / SAMPLE_RATE as f32).round() as usize;
    let mut input = m.fft.make_input_vec();
    let mut spectrum = m.fft.make_output_vec();
    for i in range {
        let start = i * HOP;
        let end = (start + WIN).min(samples.len());
        let x = &samples[start..end];
        let energy = x.iter().map(|v| v * v).sum::<f32>() / x.len().max(1) as f32;
        out.db.push(10.0 * (energy + 1e-10).log10());
        input.fill(0.0);
        for (j, v) in x.iter().enumerate() {
            input[j] = v * m.window[j];
        }
        let mut c = [0.0f32; CEPS];
        let mut bands = [0.0f32; BANDS];
        if m.fft.process(&mut input, &mut spectrum).is_ok() {
            let power: Vec<f32> = spectrum.iter().map(|z| z.norm_sqr()).collect();
            let total: f32 = power.iter().sum::<f32>() + 1e-10;
            for (b, v) in bands.iter_mut().enumerate() {
                let e: f32 = power[bin(BAND_EDGES_HZ[b])..bin(BAND_EDGES_HZ[b + 1])].iter().sum();
                *v = (10.0 * ((e + 1e-10) / total).log10()).max(BAND_FLOOR_DB);
            }
            let mut logmel = [0.0f32; MELS];
            for (b, (first, w)) in m.filters.iter().enumerate() {
                let e: f32 =
                    w.iter().enumerate().map(|(j, wt)| wt * power.get(first + j).copied().unwrap_or(0.0)).sum();
                logmel[b] = (e + 1e-8).ln();
            }
            for (k, row) in m.dct.iter().enumerate() {
                c[k] = row.iter().zip(&logmel).map(|(a, b)| a * b).sum();
            }
        }
        out.mfcc.push(c);
        out.bands.push(bands);
        out.f0.push(pitch(samples, start));
    }
    out
}

/// F0 of the 40 ms from `start` by normalised autocorrelation; 0 when unvoiced or silent.
fn pitch(samples: &[f32], start: usize) -> f32 {
    let len = 640;
    let Some(x) = samples.get(start..start + len) else { return 0.0 };
    let e0: f32 = x.iter().map(|v| v * v).sum();
    if e0 < 1e-4 {
        return 0.0;
    }
    let (lag_min, lag_max) = ((SAMPLE_RATE as f32 / F0_MAX) as usize, (SAMPLE_RATE as f32 / F0_MIN) as usize);
    // Energies of every prefix, so that each lag costs one dot product rather than three.
    let mut prefix = vec![0.0f64; len + 1];
    for (i, v) in x.iter().enumerate() {
        prefix[i + 1] = prefix[i] + (v * v) as f64;
    }
    let r: Vec<f32> = (lag_min..=lag_max.min(len - 1))
        .map(|lag| {
            let (a, b) = (&x[..len - lag], &x[lag..]);
            let num: f32 = a.iter().zip(b).map(|(p, q)| p * q).sum();
            let den = (prefix[len - lag] * (prefix[len] - prefix[lag])).sqrt() as f32;
            if den > 0.0 {
                num / den
            } else {
                0.0
            }
        })
        .collect();
    let top = r.iter().copied().fold(0.0f32, f32::max);
    // The first peak near the top, not the top itself: a periodic signal correlates as well at
    // twice its period, and picking that halves the pitch (an octave error).
    let pick = (1..r.len().saturating_sub(1)).find(|&i| r[i] >= 0.9 * top && r[i] >= r[i - 1] && r[i] >= r[i + 1]);
    let best = pick.map(|i| (i + lag_min, r[i])).unwrap_or((0, 0.0));
    if best.1 >= VOICING && best.0 > 0 {
        SAMPLE_RATE as f32 / best.0 as f32
    } else {
        0.0
    }
}

/// A voice print of frames `a..b`: mean MFCCs 1-12 (c0 is loudness, which says nothing about who
/// speaks) and the median log F0 (last).
pub fn voice_print(f: &Frames, a: usize, b: usize) -> Option<Vec<f32>> {
    let b = b.min(f.mfcc.len());
    // Only frames loud enough to be speech: silence inside a stretch would pull every print alike.
    let loud: Vec<usize> = (a..b).filter(|&i| f.db[i] > -50.0).collect();
    if loud.len() < 10 {
        return None;
    }
    let n = loud.len() as f32;
    let mut v = Vec::with_capacity(CEPS);
    for k in 1..CEPS {
        let mean = loud.iter().map(|&i| f.mfcc[i][k]).sum::<f32>() / n;
        v.push(mean);
    }
    let mut f0: Vec<f32> = loud.iter().map(|&i| f.f0[i]).filter(|&p| p > 0.0).collect();
    f0.sort_by(f32::total_cmp);
    // Semitones re 100 Hz, scaled so that an octave weighs like a few cepstral units.
    let pitch = f0.get(f0.len() / 2).map(|p| 12.0 * (p / 100.0).log2() / 3.0).unwrap_or(0.0);
    v.push(pitch);
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pitch_of_a_pulse_train_is_found() {
        for f in [110.0f32, 220.0] {
            let x: Vec<f32> = (0..16000)
                .map(|i| {
                    let t = i as f32 / 16000.0;
                    (std::f32::consts::TAU * f * t).sin() * 0.3 + (std::f32::consts::TAU * 2.0 * f * t).sin() * 0.1
                })
                .collect();
            let fr = frames(&x);
            let voiced: Vec<f32> = fr.f0.iter().copied().filter(|&p| p > 0.0).collect();
            assert!(voiced.len() > fr.f0.len() / 2);
            let med = voiced[voiced.len() / 2];
            assert!((med - f).abs() / f < 0.03, "{f} Hz read as {med}");
        }
    }
}

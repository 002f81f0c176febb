//! The CAM++ speaker encoder (src/audio/campplus.rs) with the model `ivd models fetch` provisions:
//! its Kaldi front end against torchaudio's on a real recording, and voice prints that put one
//! speaker's stretches closer together than two speakers'. Cosines differ in their last decimals
//! between CPUs, so the checks compare orders and medians with margins.

use std::sync::OnceLock;

use interview_doctor::audio::campplus::{CamPlus, Fbank, N_MELS};
use interview_doctor::audio::decode::decode;
use interview_doctor::audio::sample_at;
use serde_json::Value;

use crate::common::root;

fn encoder() -> &'static CamPlus {
    static E: OnceLock<CamPlus> = OnceLock::new();
    E.get_or_init(|| CamPlus::load(&crate::semantic::models()).expect("CAM++ provisioned: run `ivd models fetch`"))
}

fn mono(rel: &str) -> Vec<f32> {
    decode(&root().join(rel), false).unwrap().mono
}

fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

fn floats(v: &Value) -> Vec<f32> {
    v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect()
}

#[test]
fn the_fbank_front_end_matches_torchaudio_kaldi_on_jfk() {
    // tests/fixtures/jfk_campplus_fbank.json: scripts/campplus_fbank_ref.py's log-mel of jfk.wav
    // before mean normalisation (its per-bin mean and a few frames, one of them digital silence).
    let fixture: Value = serde_json::from_str(include_str!("fixtures/jfk_campplus_fbank.json")).unwrap();
    let samples = mono("data/recordings/human/jfk.wav");
    let fbank = Fbank::new();
    let raw = fbank.log_mel(&samples);
    let frames = fixture["frames"].as_u64().unwrap() as usize;
    assert_eq!(raw.len(), frames * N_MELS, "frame count");
    assert_eq!(Fbank::frames(samples.len()), frames);

    let want_mean = floats(&fixture["mean"]);
    let mut mean = vec![0.0f32; N_MELS];
    for row in raw.chunks_exact(N_MELS) {
        mean.iter_mut().zip(row).for_each(|(m, v)| *m += v / frames as f32);
    }
    let d = max_abs_diff(&mean, &want_mean);
    assert!(d < 1e-2, "per-bin mean differs by {d}");

    let feats = fbank.features(&samples);
    let mut worst = d;
    for (frame, want) in fixture["rows"].as_object().unwrap() {
        let f: usize = frame.parse().unwrap();
        let want = floats(want);
        let d = max_abs_diff(&raw[f * N_MELS..(f + 1) * N_MELS], &want);
        assert!(d < 1e-2, "log-mel frame {f} differs by {d}");
        // The model's input is the same frame minus the mean over the whole stretch.
        let want_cmn: Vec<f32> = want.iter().zip(&want_mean).map(|(w, m)| w - m).collect();
        let d2 = max_abs_diff(&feats[f * N_MELS..(f + 1) * N_MELS], &want_cmn);
        assert!(d2 < 1e-2, "normalised frame {f} differs by {d2}");
        worst = worst.max(d).max(d2);
    }
    eprintln!("jfk fbank: largest difference from torchaudio's {worst:.1e}");
    // Digital silence sits exactly on the log floor, ln(f32::EPSILON).
    assert!(raw[..N_MELS].iter().all(|&v| (v - f32::EPSILON.ln()).abs() < 1e-4), "{:?}", &raw[..4]);
}

#[test]
fn short_stretches_have_no_voice_print_and_prints_are_unit_length() {
    let samples = mono("data/recordings/human/jfk.wav");
    assert_eq!(encoder().embed(&samples[..399]).unwrap(), None);
    assert_eq!(encoder().embed(&samples[16_000..16_000 + 1600]).unwrap(), None, "0.1 s");
    let e = encoder().embed(&samples).unwrap().unwrap();
    assert_eq!(e.len(), 192);
    let norm = e.iter().map(|x| x * x).sum::<f32>().sqrt();
    assert!((norm - 1.0).abs() < 1e-4, "norm {norm}");
    // The same audio gives the same print: the session is reused, not re-initialised per call.
    let again = encoder().embed(&samples).unwrap().unwrap();
    assert!(cos(&e, &again) > 0.9999);
}

fn cos(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn median(v: &mut [f32]) -> f32 {
    v.sort_by(f32::total_cmp);
    v[v.len() / 2]
}

/// Cosines of every pair of prints, split into same-speaker and different-speaker pairs.
fn pair_cosines(prints: &[(String, Vec<f32>)]) -> (Vec<f32>, Vec<f32>) {
    let (mut same, mut diff) = (Vec::new(), Vec::new());
    for (i, (a, ea)) in prints.iter().enumerate() {
        for (b, eb) in &prints[i + 1..] {
            if a == b { &mut same } else { &mut diff }.push(cos(ea, eb));
        }
    }
    assert!(!same.is_empty() && !diff.is_empty(), "{} prints", prints.len());
    (same, diff)
}

/// Share of (same, different) pairs of pairs in the right order: 1.0 when every same-speaker
/// cosine is above every different-speaker one, 0.5 at chance.
fn ordered_share(same: &[f32], diff: &[f32]) -> f64 {
    let right = same.iter().flat_map(|s| diff.iter().map(move |d| (s > d) as u32)).sum::<u32>();
    right as f64 / (same.len() * diff.len()) as f64
}

#[test]
fn utterances_of_one_synthetic_voice_are_closer_than_utterances_of_two() {
    let truth: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("data/recordings/interview_en.truth.json")).unwrap())
            .unwrap();
    let samples = mono("data/recordings/interview_en.flac");
    let mut prints = Vec::new();
    for turn in truth["turns"].as_array().unwrap() {
        for u in turn["utterances"].as_array().unwrap() {
            let (a, b) = (u["speech_onset_s"].as_f64().unwrap(), u["speech_offset_s"].as_f64().unwrap());
            if b - a < 1.0 {
                continue;
            }
            let stretch = &samples[sample_at(a, samples.len())..sample_at(b, samples.len())];
            let e = encoder().embed(stretch).unwrap().unwrap();
            prints.push((turn["speaker"].as_str().unwrap().to_string(), e));
        }
    }
    assert!(prints.len() >= 8, "{} utterances", prints.len());
    let (mut same, mut diff) = pair_cosines(&prints);
    let (lowest_same, highest_diff) =
        (same.iter().copied().fold(1.0, f32::min), diff.iter().copied().fold(-1.0, f32::max));
    let (ms, md) = (median(&mut same), median(&mut diff));
    eprintln!("interview_en: same min {lowest_same:.3} median {ms:.3}; different max {highest_diff:.3} median {md:.3}");
    // Whole utterances separate cleanly: every same-voice pair above every two-voice pair.
    assert!(lowest_same > highest_diff + 0.05, "same min {lowest_same}, different max {highest_diff}");
    assert!(ms > md + 0.2, "medians: same {ms}, different {md}");
}

/// pyannote_sample.rttm's turns with the time where someone else also speaks cut out: the
/// stretches of one voice alone, at least `min_s` long.
pub fn single_speaker_stretches(rttm: &str, min_s: f64) -> Vec<(String, f64, f64)> {
    let turns: Vec<(String, f64, f64)> = rttm
        .lines()
        .filter(|l| l.starts_with("SPEAKER"))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let (a, d): (f64, f64) = (f[3].parse().unwrap(), f[4].parse().unwrap());
            (f[7].to_string(), a, a + d)
        })
        .collect();
    let mut out = Vec::new();
    for (who, a, b) in &turns {
        let mut pieces = vec![(*a, *b)];
        for (other, oa, ob) in &turns {
            if other == who {
                continue;
            }
            pieces = pieces
                .into_iter()
                .flat_map(|(s, e)| [(s, e.min(*oa)), (s.max(*ob), e)])
                .filter(|(s, e)| e > s)
                .collect();
        }
        out.extend(pieces.into_iter().filter(|(s, e)| e - s >= min_s).map(|(s, e)| (who.clone(), s, e)));
    }
    out
}

#[test]
fn two_women_on_a_real_phone_line_are_told_apart() {
    let rttm = std::fs::read_to_string(root().join("data/recordings/human/pyannote_sample.rttm")).unwrap();
    let samples = mono("data/recordings/human/pyannote_sample.wav");
    let stretches = single_speaker_stretches(&rttm, 1.0);
    let prints: Vec<(String, Vec<f32>)> = stretches
        .iter()
        .map(|(who, a, b)| {
            let s = &samples[sample_at(*a, samples.len())..sample_at(*b, samples.len())];
            (who.clone(), encoder().embed(s).unwrap().unwrap())
        })
        .collect();
    assert!(prints.len() >= 6, "{stretches:?}");
    let (mut same, mut diff) = pair_cosines(&prints);
    let order = ordered_share(&same, &diff);
    let (ms, md) = (median(&mut same), median(&mut diff));
    eprintln!(
        "pyannote_sample: {} stretches; same median {ms:.3}, different median {md:.3}; ordered {order:.2}",
        prints.len()
    );
    assert!(ms > md + 0.2, "medians: same {ms}, different {md}");
    assert!(order >= 0.9, "only {order:.2} of same/different pairs in order");
}

//! Filled pauses ("uh", "um", 嗯, 呃) heard in the sound itself. Whisper was trained on cleaned
//! transcripts and often drops them, or writes a Chinese one as a homophone; the sound keeps them.
//! A filled pause is a held vowel or nasal: voiced, with small F0 movement and a spectral envelope
//! that barely changes for longer than a syllable (Goto, Itou & Hayamizu 1999, "A real-time filled
//! pause detection system for spontaneous speech recognition").

use super::features::{frame_time, Frames, BANDS};
use super::vad::Span;

/// Shortest held stretch taken as a filled pause. Filled pauses run about 0.2-0.6 s (English "uh"
/// and "um": Shriberg 1994; Mandarin 呃/嗯 are lengthened the same way: Zhao & Jurafsky 2005),
/// while a syllable of fluent speech lasts about 0.2 s and rarely holds its vowel steady that long.
pub const MIN_FILLED_PAUSE_S: f64 = 0.28;
/// Largest F0 step between neighbouring 10 ms frames inside a held stretch, in semitones: a held
/// vowel glides; a jump means a new syllable or a tracking error.
const MAX_F0_STEP_ST: f32 = 1.0;
/// Largest F0 range over the whole stretch, in semitones. Filled pauses are level or slowly
/// falling (Shriberg 1994; Goto 1999); a word's pitch accent or a Mandarin contour tone moves more.
const MAX_F0_RANGE_ST: f32 = 4.0;
/// Largest distance (dB) of a frame's broad-band balance (features::BANDS) from the stretch's
/// mean: the vowel stays the same. Broad bands, not cepstra: a high voice's harmonics make its
/// low mel bands, hence its cepstra, flicker from frame to frame inside one held vowel.
/// Set on the two synthetic interviews: 6 dB finds all eight held fillers (4 dB misses the
/// Chinese 嗯). On real speech: jfk.wav (11 s) none; the pyannote call (30 s) four held stretches,
/// three inside words whisper wrote (not counted: see analyze_speech), one a "Hello?" whisper
/// left out.
const MAX_BALANCE_DIST_DB: f32 = 6.0;
/// Largest level difference of a frame from the stretch's mean, in dB: a filled pause is held at
/// an even loudness; a consonant dips.
const MAX_LEVEL_DEV_DB: f32 = 8.0;

fn semitones(a: f32, b: f32) -> f32 {
    12.0 * (a / b).log2().abs()
}

/// A stretch of frames held steady so far.
struct Held {
    start: usize,
    sum: [f32; BANDS],
    db_sum: f32,
    lo: f32,
    hi: f32,
}

impl Held {
    fn new(f: &Frames, i: usize) -> Held {
        let mut h = Held { start: i, sum: [0.0; BANDS], db_sum: 0.0, lo: f.f0[i], hi: f.f0[i] };
        h.add(f, i);
        h
    }

    fn add(&mut self, f: &Frames, i: usize) {
        for (s, c) in self.sum.iter_mut().zip(&f.bands[i]) {
            *s += c;
        }
        self.db_sum += f.db[i];
        self.lo = self.lo.min(f.f0[i]);
        self.hi = self.hi.max(f.f0[i]);
    }

    /// Whether frame `i` continues the stretch that ends at `i - 1`.
    fn holds(&self, f: &Frames, i: usize) -> bool {
        let (f0, prev) = (f.f0[i], f.f0[i - 1]);
        if f0 <= 0.0 || prev <= 0.0 || semitones(f0, prev) > MAX_F0_STEP_ST {
            return false;
        }
        if semitones(self.hi.max(f0), self.lo.min(f0)) > MAX_F0_RANGE_ST {
            return false;
        }
        let n = (i - self.start) as f32;
        if (f.db[i] - self.db_sum / n).abs() > MAX_LEVEL_DEV_DB {
            return false;
        }
        let dist: f32 = (0..BANDS).map(|k| (f.bands[i][k] - self.sum[k] / n).powi(2)).sum::<f32>().sqrt();
        dist <= MAX_BALANCE_DIST_DB
    }
}

/// Held stretches of at least [`MIN_FILLED_PAUSE_S`] in `f` (which needs its bands), in order.
pub fn filled_pauses(f: &Frames) -> Vec<Span> {
    let n = f.f0.len().min(f.bands.len()).min(f.db.len());
    let min_frames = (MIN_FILLED_PAUSE_S / frame_time(1)).ceil() as usize;
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        if f.f0[i] <= 0.0 {
            i += 1;
            continue;
        }
        let mut held = Held::new(f, i);
        let mut j = i + 1;
        while j < n && held.holds(f, j) {
            held.add(f, j);
            j += 1;
        }
        if j - i >= min_frames {
            out.push(Span { start_s: frame_time(i), end_s: frame_time(j) });
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audio::features::frames;
    use crate::audio::SAMPLE_RATE;

    fn tone(hz: impl Fn(f32) -> f32, secs: f32) -> Vec<f32> {
        let sr = SAMPLE_RATE as f32;
        let mut phase = 0.0f32;
        (0..(secs * sr) as usize)
            .map(|i| {
                phase += 2.0 * std::f32::consts::PI * hz(i as f32 / sr) / sr;
                // A vowel-like buzz: the fundamental and two harmonics.
                0.3 * (phase.sin() + 0.5 * (2.0 * phase).sin() + 0.25 * (3.0 * phase).sin())
            })
            .collect()
    }

    #[test]
    fn a_held_vowel_is_found_and_a_gliding_one_is_not() {
        let mut s = vec![0.0; 4000];
        s.extend(tone(|_| 140.0, 0.5));
        s.extend(vec![0.0; 4000]);
        // An octave glide in 0.5 s: a contour, not a held sound.
        s.extend(tone(|t| 120.0 * 2f32.powf(t / 0.5), 0.5));
        s.extend(vec![0.0; 4000]);
        let found = filled_pauses(&frames(&s));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!((found[0].start_s - 0.25).abs() < 0.06 && found[0].len() >= 0.3, "{found:?}");
    }
}

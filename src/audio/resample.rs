//! Streaming resampling to 16 kHz with rubato's FFT resampler (band-limited: no naive decimation,
//! which would fold everything above 8 kHz back into the speech band). Input arrives in whatever
//! packet sizes the decoder gives; output is appended to per-channel vectors, with the resampler's
//! delay trimmed so that time 0 stays time 0.

use rubato::{FftFixedIn, Resampler};

use super::{AudioError, SAMPLE_RATE};

/// Input frames per resampler call: about 21 ms at 48 kHz, small enough to keep memory flat.
const CHUNK: usize = 1024;

pub struct Stream {
    inner: Option<FftFixedIn<f32>>,
    pending: Vec<Vec<f32>>,
    /// Output frames still to drop from the front (the resampler's delay).
    skip: usize,
    in_frames: u64,
    in_rate: u32,
    pub out: Vec<Vec<f32>>,
}

impl Stream {
    pub fn new(in_rate: u32, channels: usize) -> Result<Stream, AudioError> {
        let inner = if in_rate == SAMPLE_RATE {
            None
        } else {
            let r = FftFixedIn::<f32>::new(in_rate as usize, SAMPLE_RATE as usize, CHUNK, 2, channels)
                .map_err(|e| AudioError::Resample(e.to_string()))?;
            Some(r)
        };
        let skip = inner.as_ref().map(|r| r.output_delay()).unwrap_or(0);
        Ok(Stream {
            inner,
            pending: vec![Vec::new(); channels],
            skip,
            in_frames: 0,
            in_rate,
            out: vec![Vec::new(); channels],
        })
    }

    /// Feed planar samples (one slice per channel, equal lengths).
    pub fn push(&mut self, planar: &[Vec<f32>]) -> Result<(), AudioError> {
        let n = planar.first().map(|c| c.len()).unwrap_or(0);
        self.in_frames += n as u64;
        if self.inner.is_none() {
            for (o, c) in self.out.iter_mut().zip(planar) {
                o.extend_from_slice(c);
            }
            return Ok(());
        }
        for (p, c) in self.pending.iter_mut().zip(planar) {
            p.extend_from_slice(c);
        }
        self.drain(false)
    }

    fn drain(&mut self, last: bool) -> Result<(), AudioError> {
        let Some(r) = self.inner.as_mut() else { return Ok(()) };
        loop {
            let need = r.input_frames_next();
            let have = self.pending.first().map(|p| p.len()).unwrap_or(0);
            let chunk = if have >= need {
                let chunk: Vec<Vec<f32>> = self.pending.iter_mut().map(|p| p.drain(..need).collect()).collect();
                r.process(&chunk, None)
            } else if last && have > 0 {
                let chunk: Vec<Vec<f32>> = self.pending.iter_mut().map(std::mem::take).collect();
                r.process_partial(Some(&chunk), None)
            } else {
                return Ok(());
            }
            .map_err(|e| AudioError::Resample(e.to_string()))?;
            append(&mut self.out, chunk, &mut self.skip);
        }
    }

    /// Flush what is buffered and return the channels, trimmed to the exact resampled length.
    pub fn finish(mut self) -> Result<Vec<Vec<f32>>, AudioError> {
        self.drain(true)?;
        let want = (self.in_frames as f64 * SAMPLE_RATE as f64 / self.in_rate as f64).round() as usize;
        if let Some(r) = self.inner.as_mut() {
            // The delay holds the last output frames back: push silence until they are out.
            let mut guard = 0;
            while self.out.first().map(|o| o.len()).unwrap_or(want) < want && guard < 64 {
                let chunk =
                    r.process_partial::<Vec<f32>>(None, None).map_err(|e| AudioError::Resample(e.to_string()))?;
                append(&mut self.out, chunk, &mut self.skip);
                guard += 1;
            }
        }
        for o in self.out.iter_mut() {
            o.truncate(want);
        }
        Ok(self.out)
    }
}

fn append(out: &mut [Vec<f32>], chunk: Vec<Vec<f32>>, skip: &mut usize) {
    let n = chunk.first().map(|c| c.len()).unwrap_or(0);
    let drop = (*skip).min(n);
    for (o, c) in out.iter_mut().zip(chunk) {
        o.extend_from_slice(&c[drop..]);
    }
    *skip -= drop;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(rate: u32, hz: f32, secs: f32) -> Vec<f32> {
        (0..(rate as f32 * secs) as usize)
            .map(|i| (i as f32 * hz * std::f32::consts::TAU / rate as f32).sin() * 0.5)
            .collect()
    }

    #[test]
    fn keeps_length_and_timing_across_rates() {
        for rate in [8_000u32, 22_050, 44_100, 48_000, 96_000] {
            // A click at 1.0 s must land at 1.0 s (the delay is trimmed).
            let mut x = vec![0.0f32; (rate as f32 * 2.0) as usize];
            x[rate as usize] = 1.0;
            let mut s = Stream::new(rate, 1).unwrap();
            for c in x.chunks(777) {
                s.push(&[c.to_vec()]).unwrap();
            }
            let out = s.finish().unwrap().remove(0);
            assert_eq!(out.len(), 32_000, "rate {rate}");
            let peak = out.iter().enumerate().max_by(|a, b| a.1.abs().total_cmp(&b.1.abs())).unwrap().0;
            assert!((peak as i64 - 16_000).abs() <= 3, "rate {rate}: click at {peak}");
        }
    }

    #[test]
    fn removes_what_16k_cannot_hold() {
        // A 12 kHz tone at 48 kHz is above the new Nyquist: a real resampler removes it, naive
        // decimation would fold it to 4 kHz at full strength.
        let mut s = Stream::new(48_000, 1).unwrap();
        s.push(&[tone(48_000, 12_000.0, 1.0)]).unwrap();
        let out = s.finish().unwrap().remove(0);
        let rms = (out[2000..14000].iter().map(|v| v * v).sum::<f32>() / 12000.0).sqrt();
        assert!(rms < 0.01, "aliased energy {rms}");
        let mut s = Stream::new(48_000, 1).unwrap();
        s.push(&[tone(48_000, 440.0, 1.0)]).unwrap();
        let out = s.finish().unwrap().remove(0);
        let rms = (out[2000..14000].iter().map(|v| v * v).sum::<f32>() / 12000.0).sqrt();
        assert!((rms - 0.354).abs() < 0.02, "440 Hz kept: {rms}");
    }
}

//! Decoding any supported recording to 16 kHz, streamed: packets are mixed (or split into left and
//! right) and resampled as they come, so an hour of 48 kHz stereo never sits in memory undecoded.
//! WAV goes through hound (8/16/24/32-bit integer, 32-bit float); everything else, and WAV codecs
//! hound does not read, through symphonia, with libopus for Opus (symphonia has no Opus decoder).

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use symphonia::core::audio::SampleBuffer;
use symphonia::core::codecs::{CodecRegistry, DecoderOptions, CODEC_TYPE_NULL};
use symphonia::core::errors::Error as SymError;
use symphonia::core::formats::FormatOptions;
use symphonia::core::io::MediaSourceStream;
use symphonia::core::meta::MetadataOptions;
use symphonia::core::probe::Hint;

use super::resample::Stream;
use super::{Audio, AudioError, SourceFormat};

/// Interleaved frames handed to the mixer at a time.
const FRAMES: usize = 4096;

/// Decode `path` to 16 kHz mono; with `keep_channels`, also left and right apart (stereo files).
pub fn decode(path: &Path, keep_channels: bool) -> Result<Audio, AudioError> {
    let io = |source| AudioError::Io { path: path.to_path_buf(), source };
    let mut head = [0u8; 12];
    let mut f = File::open(path).map_err(io)?;
    let n = read_up_to(&mut f, &mut head).map_err(io)?;
    if n == 0 {
        return Err(AudioError::Empty { path: path.to_path_buf() });
    }
    let is_wav = n >= 12 && &head[..4] == b"RIFF" && &head[8..12] == b"WAVE";
    let audio = if is_wav {
        match decode_wav(path, keep_channels) {
            Err(WavFallback::Symphonia) => decode_other(path, keep_channels),
            Err(WavFallback::Error(e)) => Err(e),
            Ok(a) => Ok(a),
        }
    } else if looks_like_text(&head[..n]) {
        Err(AudioError::Unsupported {
            path: path.to_path_buf(),
            detail: "it is text, not audio; a transcript is diagnosed under its own name, e.g. interview.txt".into(),
        })
    } else {
        decode_other(path, keep_channels)
    }?;
    if audio.mono.is_empty() {
        return Err(AudioError::NoSamples { path: path.to_path_buf() });
    }
    Ok(clamped(audio))
}

/// Lossy decoders (Opus from a browser's recorder) and the resampler's ringing can overshoot full
/// scale a little; everything downstream (the VAD first) takes [-1, 1].
fn clamped(mut audio: Audio) -> Audio {
    for x in audio.mono.iter_mut().chain(audio.channels.iter_mut().flatten()) {
        *x = x.clamp(-1.0, 1.0);
    }
    audio
}

fn read_up_to(f: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

fn looks_like_text(head: &[u8]) -> bool {
    std::str::from_utf8(head).map(|s| s.chars().all(|c| !c.is_control() || c.is_whitespace())).unwrap_or(false)
}

/// Mixes interleaved frames down (or splits them) and feeds the resampler.
struct Mixer {
    channels: usize,
    keep: bool,
    stream: Stream,
}

impl Mixer {
    fn new(rate: u32, channels: usize, keep_channels: bool) -> Result<Mixer, AudioError> {
        let keep = keep_channels && channels >= 2;
        Ok(Mixer { channels, keep, stream: Stream::new(rate, if keep { 2 } else { 1 })? })
    }

    fn push_interleaved(&mut self, x: &[f32]) -> Result<(), AudioError> {
        let c = self.channels.max(1);
        let frames = x.len() / c;
        let planar = if self.keep {
            let mut l = Vec::with_capacity(frames);
            let mut r = Vec::with_capacity(frames);
            for fr in x.chunks_exact(c) {
                l.push(fr[0]);
                r.push(fr[1]);
            }
            vec![l, r]
        } else {
            vec![x.chunks_exact(c).map(|fr| fr.iter().sum::<f32>() / c as f32).collect()]
        };
        self.stream.push(&planar)
    }

    fn finish(self, source: SourceFormat, warnings: Vec<String>) -> Result<Audio, AudioError> {
        let keep = self.keep;
        let mut out = self.stream.finish()?;
        let (mono, channels) = if keep {
            let mono = out[0].iter().zip(&out[1]).map(|(l, r)| (l + r) * 0.5).collect();
            (mono, out)
        } else {
            (out.pop().unwrap_or_default(), Vec::new())
        };
        Ok(Audio { mono, channels, source, warnings })
    }
}

enum WavFallback {
    Symphonia,
    Error(AudioError),
}

fn decode_wav(path: &Path, keep_channels: bool) -> Result<Audio, WavFallback> {
    let corrupt = |detail: String| WavFallback::Error(AudioError::Corrupt { path: path.to_path_buf(), detail });
    let file =
        File::open(path).map_err(|source| WavFallback::Error(AudioError::Io { path: path.to_path_buf(), source }))?;
    let mut reader = match hound::WavReader::new(BufReader::new(file)) {
        Ok(r) => r,
        // Codecs hound does not read (ADPCM, A-law, ...): symphonia may.
        Err(hound::Error::Unsupported) => return Err(WavFallback::Symphonia),
        Err(hound::Error::IoError(e)) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            return Err(corrupt("the WAV header is cut short".into()))
        }
        Err(e) => return Err(corrupt(format!("bad WAV header: {e}"))),
    };
    let spec = reader.spec();
    if spec.channels == 0 || spec.sample_rate == 0 {
        return Err(corrupt(format!("the header says {} channels at {} Hz", spec.channels, spec.sample_rate)));
    }
    let claimed = reader.duration() as f64 / spec.sample_rate as f64;
    let channels = spec.channels as usize;
    let mut mixer = Mixer::new(spec.sample_rate, channels, keep_channels).map_err(WavFallback::Error)?;
    let mut buf = Vec::with_capacity(FRAMES * channels);
    let mut warnings = Vec::new();
    let mut frames_read = 0u64;
    // Samples arrive one at a time from hound; they are handed on a few thousand frames at once.
    let mut feed_all = |samples: &mut dyn Iterator<Item = Result<f32, hound::Error>>| -> Result<bool, WavFallback> {
        let mut cut_short = false;
        loop {
            let next = samples.next();
            match next {
                Some(Ok(v)) => buf.push(v),
                Some(Err(_)) => cut_short = true,
                None => {}
            }
            let done = cut_short || next.is_none();
            if buf.len() >= FRAMES * channels || done {
                let whole = buf.len() / channels * channels;
                frames_read += (whole / channels) as u64;
                mixer.push_interleaved(&buf[..whole]).map_err(WavFallback::Error)?;
                buf.clear();
            }
            if done {
                return Ok(cut_short);
            }
        }
    };
    let cut_short = match spec.sample_format {
        hound::SampleFormat::Float => feed_all(
            &mut reader.samples::<f32>().map(|s| s.map(|v| if v.is_finite() { v.clamp(-1.0, 1.0) } else { 0.0 })),
        )?,
        hound::SampleFormat::Int => {
            let scale = 1.0 / (1u64 << (spec.bits_per_sample.clamp(8, 32) - 1)) as f32;
            feed_all(&mut reader.samples::<i32>().map(|s| s.map(|v| v as f32 * scale)))?
        }
    };
    if cut_short {
        let got = frames_read as f64 / spec.sample_rate as f64;
        warnings.push(format!(
            "the WAV header promises {claimed:.1} s but the file holds {got:.1} s (cut short, e.g. a recording that was not stopped cleanly); the rest is analysed"
        ));
    }
    let source = SourceFormat {
        codec: format!(
            "wav {}{}",
            if spec.sample_format == hound::SampleFormat::Float { "f" } else { "pcm" },
            spec.bits_per_sample
        ),
        sample_rate: spec.sample_rate,
        channels: spec.channels,
    };
    mixer.finish(source, warnings).map_err(WavFallback::Error)
}

fn codecs() -> CodecRegistry {
    let mut reg = CodecRegistry::new();
    symphonia::default::register_enabled_codecs(&mut reg);
    reg.register_all::<symphonia_adapter_libopus::OpusDecoder>();
    reg
}

/// The container's first audio track with its decoder, and the codec's name.
type Opened = (Box<dyn symphonia::core::formats::FormatReader>, Box<dyn symphonia::core::codecs::Decoder>, u32, String);

fn open_track(path: &Path) -> Result<Opened, AudioError> {
    let unsupported = |detail: String| AudioError::Unsupported { path: path.to_path_buf(), detail };
    let file = File::open(path).map_err(|source| AudioError::Io { path: path.to_path_buf(), source })?;
    let mss = MediaSourceStream::new(Box::new(file), Default::default());
    let mut hint = Hint::new();
    if let Some(ext) = path.extension().and_then(|e| e.to_str()) {
        hint.with_extension(ext);
    }
    let probed = symphonia::default::get_probe()
        // Gapless: drop the encoder's priming samples (1105 for LAME MP3, 1024-2112 for AAC) as
        // ffmpeg does, so that time 0 is time 0 in every format.
        .format(&hint, mss, &FormatOptions { enable_gapless: true, ..Default::default() }, &MetadataOptions::default())
        .map_err(|e| unsupported(format!("no known audio container: {e}")))?;
    let format = probed.format;
    let track = format
        .tracks()
        .iter()
        .find(|t| t.codec_params.codec != CODEC_TYPE_NULL && t.codec_params.sample_rate.is_some())
        .ok_or_else(|| unsupported("the file has no audio track".into()))?;
    let track_id = track.id;
    let registry = codecs();
    let codec_name = registry.get_codec(track.codec_params.codec).map(|d| d.short_name.to_string()).unwrap_or_default();
    let decoder = registry
        .make(&track.codec_params, &DecoderOptions::default())
        .map_err(|e| unsupported(format!("no decoder for its codec: {e}")))?;
    Ok((format, decoder, track_id, codec_name))
}

/// Containers whose header says how long the audio is: a file holding much less was cut short.
/// (Ogg and WebM, a browser's recorder among them, do not say it up front.)
const LENGTH_IN_HEADER: &[&str] = &["flac", "m4a", "mp4", "aac", "mp3"];

/// Whether a compressed recording holds the audio its header promises, read packet by packet
/// without decoding (cheap): an interrupted copy or upload is refused with what it holds, rather
/// than diagnosed as half an interview. Files that do not say their length pass.
pub fn check_complete(path: &Path) -> Result<(), AudioError> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    if !LENGTH_IN_HEADER.contains(&ext.as_str()) {
        return Ok(());
    }
    let (mut format, _, track_id, _) = open_track(path)?;
    let Some(track) = format.tracks().iter().find(|t| t.id == track_id) else { return Ok(()) };
    let (Some(promised), Some(rate)) = (track.codec_params.n_frames, track.codec_params.sample_rate) else {
        return Ok(());
    };
    let mut held: u64 = 0;
    let mut cut = false;
    loop {
        match format.next_packet() {
            Ok(p) if p.track_id() == track_id => held += p.dur,
            Ok(_) => {}
            Err(SymError::IoError(e)) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
            Err(_) => {
                cut = true;
                break;
            }
        }
    }
    // A few frames' slack for encoder padding; a cut copy misses far more.
    if cut || (held as f64) < promised as f64 * 0.98 - f64::from(rate) * 0.5 {
        let secs = |n: u64| n as f64 / f64::from(rate.max(1));
        return Err(AudioError::Corrupt {
            path: path.to_path_buf(),
            detail: format!(
                "it is truncated: its header promises {:.1} s of audio but the file holds about {:.1} s; use the complete recording",
                secs(promised),
                secs(held)
            ),
        });
    }
    Ok(())
}

fn decode_other(path: &Path, keep_channels: bool) -> Result<Audio, AudioError> {
    let (mut format, mut decoder, track_id, codec_name) = open_track(path)?;
    let mut mixer: Option<Mixer> = None;
    let mut source = SourceFormat { codec: codec_name, ..Default::default() };
    let mut sample_buf: Option<SampleBuffer<f32>> = None;
    let (mut bad_packets, mut good_packets) = (0usize, 0usize);
    let mut warnings = Vec::new();
    loop {
        let packet = match format.next_packet() {
            Ok(p) => p,
            Err(SymError::IoError(e)) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
            Err(SymError::ResetRequired) => break,
            Err(e) => {
                warnings.push(format!("reading stopped early: {e}"));
                break;
            }
        };
        if packet.track_id() != track_id {
            continue;
        }
        let decoded = match decoder.decode(&packet) {
            Ok(d) => d,
            Err(SymError::DecodeError(_)) | Err(SymError::IoError(_)) => {
                bad_packets += 1;
                continue;
            }
            Err(e) => return Err(AudioError::Corrupt { path: path.to_path_buf(), detail: e.to_string() }),
        };
        good_packets += 1;
        let spec = *decoded.spec();
        let m = match mixer.as_mut() {
            Some(m) => m,
            None => {
                source.sample_rate = spec.rate;
                source.channels = spec.channels.count() as u16;
                mixer.insert(Mixer::new(spec.rate, spec.channels.count(), keep_channels)?)
            }
        };
        let sb = match sample_buf.as_mut() {
            Some(sb) if sb.capacity() >= decoded.capacity() * spec.channels.count() => sb,
            _ => sample_buf.insert(SampleBuffer::<f32>::new(decoded.capacity() as u64, spec)),
        };
        sb.copy_interleaved_ref(decoded);
        m.push_interleaved(sb.samples())?;
    }
    if bad_packets > 0 {
        if good_packets == 0 {
            return Err(AudioError::Corrupt {
                path: path.to_path_buf(),
                detail: format!("none of its {bad_packets} audio packets decode"),
            });
        }
        warnings.push(format!("{bad_packets} damaged audio packets were skipped"));
    }
    match mixer {
        Some(m) => m.finish(source, warnings),
        None => Err(AudioError::NoSamples { path: path.to_path_buf() }),
    }
}

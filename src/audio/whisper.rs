//! Transcription with whisper.cpp (through whisper-rs) and the provisioned base model: windows of
//! at most [`WINDOW_S`] cut at voice-activity pauses, the language detected once and then held,
//! word times from DTW token alignment, whisper.cpp's log routed into `tracing`, progress and
//! cancellation between and inside windows.

use std::path::Path;
use std::sync::Once;

use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;
use whisper_rs::{
    DtwMode, DtwModelPreset, DtwParameters, FullParams, SamplingStrategy, WhisperContext, WhisperContextParameters,
    WhisperState,
};

use super::vad::{Activity, Span};
use super::{sample_at, AudioError, SAMPLE_RATE};
use crate::lang::Lang;

/// Whisper's encoder sees 30 s at a time; windows stay under it with room for padding, so no
/// window is ever cut inside speech by whisper.cpp's own seek.
pub const WINDOW_S: f64 = 28.0;
/// Speech left untranscribed at a window's end that is worth another pass, and how many passes.
const RECOVERY_MIN_SPEECH_S: f64 = 1.0;
const RECOVERY_TRIES: usize = 3;
/// Audio kept around a window's speech so that the first and last words are not clipped.
const PAD_S: f64 = 0.2;
/// Keeps whisper on simplified characters. Short and free of fillers: a prompt full of fillers
/// doubled the error rate (MODELS.md).
pub const ZH_PROMPT: &str = "以下是普通话的句子。";

/// A plain sentence with two hesitations, so that whisper writes the ones it hears instead of
/// smoothing them away (OpenAI's prompting guide). Measured on the espeak-ng interview: word error
/// rate unchanged at 8.9%, hesitations kept 5 -> 6 of 7. Never a prompt full of fillers (MODELS.md).
pub const EN_PROMPT: &str = "So, um, I think, uh, we did it.";

static LOG_HOOKS: Once = Once::new();

/// whisper.cpp reads a window in passes, each starting where the last one's text ended. A pass
/// over the last 110-150 ms that yields any text trips an assertion in its DTW alignment (a
/// median filter 7 audio tokens wide over fewer) and aborts the whole process; it happened on
/// the M4A copy of the test interview. A later pass needs at least this much audio left (10 ms
/// frames); speech left at a window's end is read again by the recovery passes.
const MIN_PASS_FRAMES: i32 = 50;

/// whisper.cpp's log into `tracing` (target `whisper`), as whisper-rs's hook does, except that
/// [`before_pass`] stopping a window is routine, not the error whisper.cpp logs it as.
unsafe extern "C" fn whisper_log(
    level: whisper_rs::whisper_rs_sys::ggml_log_level,
    text: *const std::ffi::c_char,
    _user: *mut std::ffi::c_void,
) {
    use whisper_rs::whisper_rs_sys as sys;
    if text.is_null() {
        return;
    }
    // SAFETY: whisper.cpp passes a NUL-terminated message.
    let msg = unsafe { std::ffi::CStr::from_ptr(text) }.to_string_lossy();
    let msg = msg.trim();
    match level {
        _ if msg.contains("encoder_begin_callback returned false") => tracing::debug!(target: "whisper", "{msg}"),
        sys::ggml_log_level_GGML_LOG_LEVEL_ERROR => tracing::error!(target: "whisper", "{msg}"),
        sys::ggml_log_level_GGML_LOG_LEVEL_WARN => tracing::warn!(target: "whisper", "{msg}"),
        sys::ggml_log_level_GGML_LOG_LEVEL_INFO => tracing::info!(target: "whisper", "{msg}"),
        _ => tracing::debug!(target: "whisper", "{msg}"),
    }
}

/// The window's length, for [`before_pass`].
struct PassGuard {
    frames: i32,
}

/// whisper.cpp's encoder-begin callback: false stops the window's passes (gracefully: the text
/// so far is kept).
unsafe extern "C" fn before_pass(
    _ctx: *mut whisper_rs::whisper_rs_sys::whisper_context,
    state: *mut whisper_rs::whisper_rs_sys::whisper_state,
    user: *mut std::ffi::c_void,
) -> bool {
    use whisper_rs::whisper_rs_sys::{whisper_full_get_segment_t1_from_state, whisper_full_n_segments_from_state};
    // SAFETY: `user` is the `PassGuard` that `window` keeps alive across `full`; the state is the
    // one being decoded, and its segment count and times are plain reads.
    let (guard, n) = unsafe { (&*(user as *const PassGuard), whisper_full_n_segments_from_state(state)) };
    if n == 0 {
        return true;
    }
    let read_to = unsafe { whisper_full_get_segment_t1_from_state(state, n - 1) };
    guard.frames - read_to as i32 >= MIN_PASS_FRAMES
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Word {
    pub start_s: f64,
    pub end_s: f64,
    pub text: String,
    /// Whisper's probability for the word's tokens (the lowest).
    pub p: f32,
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Segment {
    pub start_s: f64,
    pub end_s: f64,
    pub text: String,
    pub words: Vec<Word>,
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Transcription {
    /// The language whisper transcribed in (given, or the likelier of the two detected).
    pub language: Lang,
    pub segments: Vec<Segment>,
}

pub struct Options {
    /// None: detect.
    pub language: Option<Lang>,
    pub threads: usize,
}

pub struct Transcriber {
    ctx: WhisperContext,
}

/// Threads for whisper: every core (whisper.cpp scales to about 8).
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2).min(8)
}

impl Transcriber {
    pub fn load(model: &Path) -> Result<Transcriber, AudioError> {
        LOG_HOOKS.call_once(|| {
            whisper_rs::install_logging_hooks();
            // SAFETY: replaces whisper's log callback (ggml's stays whisper-rs's) with a function
            // that only reads the message; done once, before any context exists.
            unsafe { whisper_rs::whisper_rs_sys::whisper_log_set(Some(whisper_log), std::ptr::null_mut()) };
        });
        let params = WhisperContextParameters {
            dtw_parameters: DtwParameters {
                mode: DtwMode::ModelPreset { model_preset: DtwModelPreset::Base },
                ..DtwParameters::default()
            },
            ..WhisperContextParameters::default()
        };
        let path = model.to_str().ok_or_else(|| AudioError::Model {
            what: "Whisper",
            message: format!("{} is not a UTF-8 path", model.display()),
        })?;
        let ctx = WhisperContext::new_with_params(path, params).map_err(|e| AudioError::Model {
            what: "Whisper",
            message: format!("{e} loading {path}; run `ivd models fetch` to repair it"),
        })?;
        Ok(Transcriber { ctx })
    }

    /// Transcribe 16 kHz mono `samples` whose speech is `activity`. `progress` gets the fraction
    /// done after each window.
    pub fn transcribe(
        &self,
        samples: &[f32],
        activity: &Activity,
        opts: &Options,
        progress: &mut dyn FnMut(f64),
        cancel: &CancellationToken,
    ) -> Result<Transcription, AudioError> {
        let windows = windows(activity);
        let total: f64 = windows.iter().map(Span::len).sum::<f64>().max(1e-9);
        // One state for the language and every window: its buffers (a quarter of a gigabyte) are
        // allocated once.
        let mut state = self.ctx.create_state().map_err(|e| AudioError::Transcribe(e.to_string()))?;
        let language = match opts.language {
            Some(l) => l,
            None => Self::detect(&mut state, samples, activity, &windows, opts.threads)?,
        };
        let mut segments = Vec::new();
        let mut done = 0.0;
        for w in &windows {
            if cancel.is_cancelled() {
                return Err(AudioError::Cancelled);
            }
            let run = Run { state: &mut state, language, threads: opts.threads, cancel };
            segments.extend(self.window_with_recovery(samples, activity, w, run)?);
            done += w.len();
            progress(done / total);
        }
        Ok(Transcription { language, segments })
    }

    /// The language of the window with the most speech, from whisper's encoder alone (one pass, no
    /// decoding). ivd speaks Chinese and English: the likelier of the two wins, so that poor audio
    /// detected as a third language is still transcribed in one ivd can score.
    fn detect(
        state: &mut WhisperState,
        samples: &[f32],
        activity: &Activity,
        windows: &[Span],
        threads: usize,
    ) -> Result<Lang, AudioError> {
        let fail = |e: whisper_rs::WhisperError| AudioError::Transcribe(e.to_string());
        let Some(w) = windows.iter().max_by(|a, b| activity.speech_in(a).total_cmp(&activity.speech_in(b))) else {
            return Ok(Lang::En);
        };
        let mut slice = samples[sample_at(w.start_s, samples.len())..sample_at(w.end_s, samples.len())].to_vec();
        slice.resize(slice.len().max(SAMPLE_RATE as usize * 2), 0.0);
        state.pcm_to_mel(&slice, threads).map_err(fail)?;
        let (_, probs) = state.lang_detect(0, threads).map_err(fail)?;
        let p = |code: &str| whisper_rs::get_lang_id(code).and_then(|i| probs.get(i as usize).copied()).unwrap_or(0.0);
        Ok(if p("zh") > p("en") { Lang::Zh } else { Lang::En })
    }

    /// Transcribe window `w`; where whisper stops early (after a long silence greedy decoding
    /// can end the window with seconds of speech left), the rest is transcribed again from the
    /// next speech region on.
    fn window_with_recovery(
        &self,
        samples: &[f32],
        activity: &Activity,
        w: &Span,
        run: Run<'_>,
    ) -> Result<Vec<Segment>, AudioError> {
        let Run { state, language, threads, cancel } = run;
        let mut out: Vec<Segment> = Vec::new();
        let mut from = w.start_s;
        for _ in 0..RECOVERY_TRIES {
            let part = Span { start_s: from, end_s: w.end_s };
            let slice = &samples[sample_at(part.start_s, samples.len())..sample_at(part.end_s, samples.len())];
            tracing::debug!(start = part.start_s, end = part.end_s, "whisper window");
            let mut segs = self.window(state, slice, Some(language), threads, cancel)?;
            for s in segs.iter_mut() {
                s.start_s += part.start_s;
                s.end_s += part.start_s;
                for word in s.words.iter_mut() {
                    word.start_s += part.start_s;
                    word.end_s += part.start_s;
                }
            }
            // Onsets only: DTW places a window's last word late and stretches its end, which
            // hid a question that followed an answer in one window (the M4A interview).
            let heard = segs.iter().flat_map(|s| s.words.iter().map(|x| x.start_s)).fold(part.start_s, f64::max);
            out.extend(segs);
            // Speech regions that start after the last word heard, and how much speech they hold.
            let rest: Vec<&Span> =
                activity.regions.iter().filter(|r| r.start_s > heard + 0.2 && r.start_s < w.end_s).collect();
            let left: f64 = rest.iter().map(|r| r.end_s.min(w.end_s) - r.start_s).sum();
            match rest.first() {
                Some(r) if left >= RECOVERY_MIN_SPEECH_S => from = (r.start_s - PAD_S).max(part.start_s),
                _ => break,
            }
        }
        Ok(out)
    }

    /// One whisper pass over `slice` in `lang`; times are relative to the slice.
    fn window(
        &self,
        state: &mut WhisperState,
        slice: &[f32],
        lang: Option<Lang>,
        threads: usize,
        cancel: &CancellationToken,
    ) -> Result<Vec<Segment>, AudioError> {
        let fail = |e: whisper_rs::WhisperError| AudioError::Transcribe(e.to_string());
        // Whisper needs at least a second of input; shorter windows are padded with silence.
        let mut padded;
        let input = if slice.len() < SAMPLE_RATE as usize + 1 {
            padded = slice.to_vec();
            padded.resize(SAMPLE_RATE as usize + SAMPLE_RATE as usize / 10, 0.0);
            &padded[..]
        } else {
            slice
        };
        let guard = PassGuard { frames: (input.len() / (SAMPLE_RATE as usize / 100)) as i32 };
        let mut params = params(lang, threads, cancel);
        // SAFETY: `before_pass` only reads the state's segments, and `guard` outlives `full`,
        // which runs to completion before this function returns.
        unsafe {
            params.set_start_encoder_callback(Some(before_pass));
            params.set_start_encoder_callback_user_data(&guard as *const PassGuard as *mut std::ffi::c_void);
        }
        let result = state.full(params, input);
        if cancel.is_cancelled() {
            return Err(AudioError::Cancelled);
        }
        result.map_err(fail)?;
        let eot = self.ctx.token_eot();
        let window_s = slice.len() as f64 / SAMPLE_RATE as f64;
        let mut segments = Vec::new();
        for seg in state.as_iter() {
            let (t0, t1) = (seg.start_timestamp() as f64 / 100.0, seg.end_timestamp() as f64 / 100.0);
            let tokens =
                (0..seg.n_tokens()).filter_map(|k| seg.get_token(k)).filter(|t| t.token_id() < eot).map(|tok| {
                    let data = tok.token_data();
                    let t = if data.t_dtw >= 0 { data.t_dtw } else { data.t0 } as f64 / 100.0;
                    Token { bytes: tok.to_bytes().unwrap_or_default().to_vec(), t_s: t, p: tok.token_probability() }
                });
            let words = assemble_words(tokens, window_s, t1);
            let text = seg.to_str_lossy().map(|s| s.trim().to_string()).unwrap_or_default();
            tracing::debug!(t0, t1, words = words.len(), text = %text, "whisper segment");
            if text.is_empty() || is_hallucination(&text) {
                continue;
            }
            segments.push(Segment { start_s: t0, end_s: t1, text, words });
        }
        Ok(segments)
    }
}

/// What every window of one transcription shares: whisper's state, the language, the threads
/// and the cancellation token.
struct Run<'a> {
    state: &'a mut WhisperState,
    language: Lang,
    threads: usize,
    cancel: &'a CancellationToken,
}

/// The decoding settings of one pass: greedy, word times by DTW, a prompt in the language, and
/// the cancellation token as whisper.cpp's abort callback.
fn params(lang: Option<Lang>, threads: usize, cancel: &CancellationToken) -> FullParams<'static, 'static> {
    let mut params = FullParams::new(SamplingStrategy::Greedy { best_of: 1 });
    params.set_n_threads(threads as i32);
    params.set_language(Some(lang.map_or("auto", Lang::as_str)));
    match lang {
        Some(Lang::Zh) => params.set_initial_prompt(ZH_PROMPT),
        Some(Lang::En) => params.set_initial_prompt(EN_PROMPT),
        None => {}
    }
    // Windows are independent: text carried over from one window misleads the next.
    params.set_no_context(true);
    params.set_token_timestamps(true);
    params.set_print_progress(false);
    params.set_print_realtime(false);
    params.set_print_special(false);
    params.set_print_timestamps(false);
    let c = cancel.clone();
    // whisper-rs 0.16 boxes the closure twice but casts it back as the bare closure type; with
    // the closure already a `Box<dyn FnMut>` the two agree (a bare closure reads garbage).
    let abort: Box<dyn FnMut() -> bool> = Box::new(move || c.is_cancelled());
    params.set_abort_callback_safe::<_, Box<dyn FnMut() -> bool>>(abort);
    params
}

/// A text token of a segment: its bytes, its time (DTW where known) and its probability.
struct Token {
    bytes: Vec<u8>,
    t_s: f64,
    p: f32,
}

/// A segment's tokens as words: a token starting with a space (or a Chinese character) starts a
/// word, the others continue it. `window_s` bounds the times, `segment_end_s` the last word.
fn assemble_words(tokens: impl Iterator<Item = Token>, window_s: f64, segment_end_s: f64) -> Vec<Word> {
    let mut words: Vec<Word> = Vec::new();
    // A Chinese character often spans two byte-level tokens: bytes wait here until they form
    // whole characters, timed by the first of them.
    let mut pending: Vec<u8> = Vec::new();
    let mut pending_t = 0.0;
    for tok in tokens {
        // DTW times stand on their own: whisper's segment times can be seconds off (a question
        // placed after the answer that follows it), so only the window bounds them.
        let t = tok.t_s.clamp(0.0, window_s);
        if pending.is_empty() {
            pending_t = t;
        }
        pending.extend_from_slice(&tok.bytes);
        let Some(text) = whole_characters(&mut pending) else { continue };
        let t = pending_t;
        let starts_word = text.starts_with(' ') || words.is_empty() || is_cjk_token(&text);
        if starts_word {
            words.push(Word { start_s: t, end_s: t, text: text.trim_start().to_string(), p: tok.p });
        } else if let Some(w) = words.last_mut() {
            w.text.push_str(&text);
            w.end_s = t;
            w.p = w.p.min(tok.p);
        }
    }
    // A word lasts until the next one starts (or the segment ends), at most 1.5 s.
    for i in 0..words.len() {
        let next = words.get(i + 1).map(|w| w.start_s).unwrap_or(segment_end_s);
        words[i].end_s = words[i].end_s.max(next.min(words[i].start_s + 1.5));
    }
    words.retain(|w| !w.text.trim().is_empty());
    words
}

/// The text of `pending` once its bytes end on a character boundary (then `pending` is emptied);
/// None while a character is still incomplete. Bytes that can never be UTF-8 are replaced.
fn whole_characters(pending: &mut Vec<u8>) -> Option<String> {
    let text = match std::str::from_utf8(pending) {
        Ok(s) => s.to_string(),
        // A UTF-8 character has at most 4 bytes: an incomplete tail waits for the next token.
        Err(e) if e.error_len().is_none() && pending.len() - e.valid_up_to() < 4 => return None,
        Err(_) => String::from_utf8_lossy(pending).into_owned(),
    };
    pending.clear();
    Some(text)
}

fn is_cjk_token(t: &str) -> bool {
    t.chars().next().is_some_and(crate::lang::is_cjk_or_punct)
}

/// Whisper's known inventions on silence or music: bracketed sound notes and subtitle credits.
fn is_hallucination(text: &str) -> bool {
    let t = text.trim();
    (t.starts_with('[') && t.ends_with(']'))
        || (t.starts_with('(') && t.ends_with(')'))
        || t.contains("字幕")
        || t == "..."
}

/// Windows of at most [`WINDOW_S`], each a run of speech regions cut at the pauses between them; a
/// region longer than a window is cut into equal parts.
pub fn windows(activity: &Activity) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::new();
    let mut cur: Option<Span> = None;
    let pieces = activity.regions.iter().flat_map(|r| {
        let n = (r.len() / WINDOW_S).ceil().max(1.0) as usize;
        let step = r.len() / n as f64;
        (0..n).map(move |i| Span { start_s: r.start_s + step * i as f64, end_s: r.start_s + step * (i + 1) as f64 })
    });
    for p in pieces {
        cur = match cur {
            Some(c) if p.end_s - c.start_s <= WINDOW_S - 2.0 * PAD_S => {
                Some(Span { start_s: c.start_s, end_s: p.end_s })
            }
            Some(c) => {
                out.push(c);
                Some(p)
            }
            None => Some(p),
        };
    }
    out.extend(cur);
    out.iter()
        .map(|w| Span { start_s: (w.start_s - PAD_S).max(0.0), end_s: (w.end_s + PAD_S).min(activity.duration_s) })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_split_over_tokens_are_joined() {
        // 缓 is E7 BC 93: whisper's byte-level tokens can carry it as E7 | BC 93.
        let mut p = vec![0xE7];
        assert_eq!(whole_characters(&mut p), None);
        p.extend_from_slice(&[0xBC, 0x93]);
        assert_eq!(whole_characters(&mut p).as_deref(), Some("缓"));
        assert!(p.is_empty());
        let mut p = b" cache".to_vec();
        assert_eq!(whole_characters(&mut p).as_deref(), Some(" cache"));
        // Bytes that can never be UTF-8 are replaced, not held forever.
        let mut p = vec![0xFF, b'a'];
        assert_eq!(whole_characters(&mut p).as_deref(), Some("\u{FFFD}a"));
    }

    #[test]
    fn windows_cut_at_pauses_and_stay_short() {
        let regions: Vec<Span> = (0..20)
            .map(|i| Span { start_s: i as f64 * 5.0, end_s: i as f64 * 5.0 + 4.0 })
            .chain([Span { start_s: 100.0, end_s: 170.0 }])
            .collect();
        let a = Activity { regions, duration_s: 180.0 };
        let w = windows(&a);
        assert!(w.iter().all(|w| w.len() <= WINDOW_S + 1e-9), "{w:?}");
        // Every cut between the short regions falls in a pause.
        for x in &w {
            for r in a.regions.iter().take(20) {
                assert!(!(r.start_s < x.end_s - PAD_S - 1e-9 && r.end_s > x.end_s - PAD_S + 1e-9) || x.end_s > 99.0);
            }
        }
        let covered: f64 = w.iter().map(Span::len).sum();
        assert!(covered >= 150.0);
    }
}

//! `analyze_speech`: delivery of one answer (rate, fillers, pauses, pitch, volume) from a
//! recording's words and voice activity; from text alone, the verbal habits (fillers, hedging,
//! repeated phrases).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Tool, ToolContext, ToolError};
use crate::audio::features::frame_at;
use crate::audio::vad::Span;
use crate::lang::Lang;
use crate::scoring::habits::{self, Count, Habits, Occurrence, Spoken};
use crate::scoring::speech::{self, Delivery, SpeechScore};

pub struct AnalyzeSpeech;

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct TimedWord {
    pub text: String,
    pub start_s: f64,
    pub end_s: f64,
}

#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeSpeechArgs {
    /// The answer as text (a transcript's answer). Give this or `words`.
    #[serde(default)]
    pub text: Option<String>,
    /// The answer's words with times (from `transcribe_audio`).
    #[serde(default)]
    pub words: Vec<TimedWord>,
    /// Speech regions of the recording (from `transcribe_audio`); pauses are the gaps between them.
    #[serde(default)]
    pub speech: Vec<Span>,
    /// Held sounds heard as filled pauses (from `transcribe_audio`): each one that no written
    /// word accounts for counts as a filler.
    #[serde(default)]
    pub filled_pauses: Vec<Span>,
    /// Language of the answer; from the text when absent.
    #[serde(default)]
    pub lang: Option<Lang>,
    /// Pitch in Hz every 10 ms from the recording's start (0 = unvoiced); optional.
    #[serde(default)]
    pub f0_hz: Vec<f32>,
    /// Level in dB every 10 ms from the recording's start; optional.
    #[serde(default)]
    pub level_db: Vec<f32>,
    /// Time of the first `f0_hz` / `level_db` frame, when they cover only part of the recording.
    #[serde(default)]
    pub frames_from_s: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct AnalyzeSpeechOutput {
    pub fillers: Vec<Count>,
    pub hedges: Vec<Count>,
    pub repeats: Vec<Count>,
    /// Delivery scores; present when the words have times.
    pub speech: Option<SpeechScore>,
}

impl Tool for AnalyzeSpeech {
    const NAME: &'static str = "analyze_speech";
    const DESCRIPTION: &'static str = "Score the delivery of one answer: speaking rate excluding long pauses (wpm or Chinese characters per minute), filler words, long pauses, pitch and volume variation, each 0-100 with its time-stamped flags; from text alone, filler words, hedging and repeated phrases.";
    type Args = AnalyzeSpeechArgs;
    type Output = AnalyzeSpeechOutput;

    async fn execute(&self, args: AnalyzeSpeechArgs, ctx: &ToolContext) -> Result<AnalyzeSpeechOutput, ToolError> {
        // Blocking work off the async workers, so the call's time limit can fire.
        ctx.blocking(move || run(args)).await
    }
}

fn run(args: AnalyzeSpeechArgs) -> Result<AnalyzeSpeechOutput, ToolError> {
    let text = match (&args.text, args.words.is_empty()) {
        (Some(t), true) => t.clone(),
        (None, false) => args.words.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" "),
        _ => {
            return Err(ToolError::input(
                "give exactly one of `text` or `words`",
                "pass the answer's text, or its timed words",
            ))
        }
    };
    let lang = args.lang.unwrap_or_else(|| crate::lang::of_question(&text, &text));
    let spoken: Vec<Spoken> = if args.words.is_empty() {
        habits::words_of(&text, lang)
    } else {
        args.words
            .iter()
            .map(|w| Spoken { text: w.text.clone(), start_s: Some(w.start_s), end_s: Some(w.end_s) })
            .collect()
    };
    let mut h = habits::analyze(&spoken, lang);
    h.fillers.extend(unwritten_fillers(&args, &h, lang));
    h.fillers.sort_by(|a, b| a.t_s.partial_cmp(&b.t_s).unwrap_or(std::cmp::Ordering::Equal));
    let speech = (!args.words.is_empty()).then(|| delivery(&args, &h, lang));
    Ok(AnalyzeSpeechOutput {
        fillers: Habits::counts(&h.fillers),
        hedges: Habits::counts(&h.hedges),
        repeats: Habits::counts(&h.repeats),
        speech,
    })
}

/// A written filler within this distance of a held sound is the same filler.
const SAME_FILLER_S: f64 = 0.4;
/// A held sound this long before the answer's first word still opens the answer ("嗯…… 模型");
/// the question before it ends a second or more earlier (a turn gap).
const OPENING_FILLER_S: f64 = 1.0;

/// Filled pauses heard inside the answer that the words do not account for: no written filler
/// near it and no other word starting in it (a word held long is that word, not a filler).
/// A word's onset may come a little before the held sound; the word after a dropped filler
/// starts at its end.
fn unwritten_fillers(args: &AnalyzeSpeechArgs, h: &Habits, lang: Lang) -> Vec<Occurrence> {
    let (Some(first), Some(last)) = (args.words.first(), args.words.last()) else { return Vec::new() };
    let (from, to) = (first.start_s - OPENING_FILLER_S, last.end_s);
    let written: Vec<f64> = h.fillers.iter().filter_map(|o| o.t_s).collect();
    args.filled_pauses
        .iter()
        .filter(|p| p.start_s >= from && p.end_s <= to + SAME_FILLER_S)
        .filter(|p| !written.iter().any(|t| *t >= p.start_s - SAME_FILLER_S && *t <= p.end_s + SAME_FILLER_S))
        .filter(|p| {
            !args.words.iter().any(|w| {
                let spoken = w.text.chars().any(char::is_alphanumeric); // not a lone quote mark
                spoken
                    && w.start_s > p.start_s - 0.15
                    && w.start_s < p.end_s - 0.1
                    && !habits::is_filler_word(&w.text, lang)
            })
        })
        .map(|p| Occurrence {
            word: lang.pick("有声停顿（未转写）", "filled pause (not transcribed)").into(),
            t_s: Some(p.start_s),
        })
        .collect()
}

fn delivery(args: &AnalyzeSpeechArgs, h: &Habits, lang: Lang) -> SpeechScore {
    // Onsets only: a word's end runs on to the next word, which after the answer is the next
    // speaker's. The answer spans the speech regions from its first onset to its last.
    let start = args.words.first().map(|w| w.start_s).unwrap_or(0.0);
    let last = args.words.last().map(|w| w.start_s).unwrap_or(start);
    let inside: Vec<&Span> = args.speech.iter().filter(|r| r.end_s > start && r.start_s <= last).collect();
    let span = match (inside.first(), inside.last()) {
        (Some(a), Some(b)) => (a.start_s.min(start), b.end_s.max(last)),
        _ => (start, args.words.last().map(|w| w.end_s).unwrap_or(last)),
    };
    let pauses: Vec<(f64, f64)> = inside.windows(2).map(|w| (w[0].end_s, w[1].start_s)).collect();
    let frames = |v: &[f32]| -> Vec<f32> {
        let at = |t: f64| frame_at(t - args.frames_from_s).min(v.len());
        let (a, b) = (at(span.0), at(span.1));
        v[a..b].to_vec()
    };
    let (f0, db) = (frames(&args.f0_hz), frames(&args.level_db));
    speech::score(&Delivery { lang, span_s: span, pauses: &pauses, habits: h, f0: &f0, db: &db })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(text: &str, start_s: f64) -> TimedWord {
        TimedWord { text: text.into(), start_s, end_s: start_s + 0.3 }
    }

    fn held(start_s: f64, end_s: f64) -> Span {
        Span { start_s, end_s }
    }

    #[test]
    fn held_sounds_count_only_where_no_word_accounts_for_them() {
        let words = vec![
            word("So", 0.0),
            word("um,", 0.5),
            word("the", 1.0),
            word("cache", 1.3),
            word("is", 2.6),
            word("warm.", 2.9),
        ];
        let args = AnalyzeSpeechArgs {
            text: None,
            words,
            speech: Vec::new(),
            // The written "um" (not counted twice), an unwritten one between "cache" and "is",
            // and "cache" itself held long (a word, not a filler).
            filled_pauses: vec![held(0.45, 0.85), held(1.8, 2.3), held(1.25, 1.7)],
            lang: Some(Lang::En),
            f0_hz: Vec::new(),
            level_db: Vec::new(),
            frames_from_s: 0.0,
        };
        let out = run(args).unwrap();
        let speech = out.speech.unwrap();
        assert_eq!(speech.filler_count, 2, "{:?}", speech.fillers);
        let times: Vec<f64> = speech.flags.iter().filter(|f| f.kind == "filler").filter_map(|f| f.t_s).collect();
        assert_eq!(times.len(), 2);
        assert!((times[1] - 1.8).abs() < 0.01, "{times:?}");
    }
}

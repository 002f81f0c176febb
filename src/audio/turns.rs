//! Turns from a recording: every transcribed word takes the speaker heard at its time, and runs of
//! one speaker's words become turns. Segment boundaries are not trusted for turn changes: whisper
//! starts segments up to a second early at speaker changes and merges short turns (MODELS.md).

use serde::{Deserialize, Serialize};

use super::speakers::Diarization;
use super::whisper::{Transcription, Word};
use crate::lang::Lang;

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct AudioTurn {
    /// 0-based speaker number from the diarization.
    pub speaker: usize,
    pub start_s: f64,
    pub end_s: f64,
    pub text: String,
    pub words: Vec<Word>,
}

/// A turn needs this many words to stand alone; shorter runs between two turns of one speaker
/// (a misheard word at a boundary) join their neighbours.
const MIN_TURN_WORDS: usize = 2;

pub fn build(t: &Transcription, d: &Diarization, lang: Lang) -> Vec<AudioTurn> {
    let mut turns: Vec<AudioTurn> = Vec::new();
    for seg in &t.segments {
        if seg.words.is_empty() {
            let mid = (seg.start_s + seg.end_s) / 2.0;
            push(
                &mut turns,
                d.speaker_at(mid),
                Word { start_s: seg.start_s, end_s: seg.end_s, text: seg.text.clone(), p: 1.0 },
            );
            continue;
        }
        let mut prev: Option<usize> = None;
        for w in &seg.words {
            // The word's onset: DTW times mark where a token starts, and a word's end runs on to
            // the next word, which after a turn change is the other speaker's. An onset in a
            // silence (DTW places a turn's last word late) keeps the speaker of the word before
            // it in the same segment.
            let who = match (d.speaker_in(w.start_s), prev) {
                (Some(s), _) => s,
                (None, Some(p)) => p,
                (None, None) => d.speaker_at(w.start_s),
            };
            prev = Some(who);
            push(&mut turns, who, w.clone());
        }
    }
    // Absorb stray one-word turns, and lone hesitations, sandwiched in another speaker's talk: a
    // held "uh" or 呃 sounds unlike its speaker's words and can cluster with the other voice.
    let mut i = 1;
    while i + 1 < turns.len() {
        let stray = turns[i].words.len() < MIN_TURN_WORDS || turns[i].words.iter().all(|w| hesitation(&w.text));
        if stray && turns[i - 1].speaker == turns[i + 1].speaker {
            let mid = turns.remove(i);
            let next = turns.remove(i);
            let prev = &mut turns[i - 1];
            prev.words.extend(mid.words);
            prev.words.extend(next.words);
            prev.end_s = next.end_s;
        } else {
            i += 1;
        }
    }
    for t in turns.iter_mut() {
        t.text = join(&t.words, lang);
    }
    turns.retain(|t| !t.text.trim().is_empty());
    turns
}

/// A word that is only a hesitation sound (or only punctuation).
fn hesitation(text: &str) -> bool {
    !text.chars().any(char::is_alphanumeric) || crate::lang::is_hesitation_sound(text)
}

fn push(turns: &mut Vec<AudioTurn>, speaker: usize, w: Word) {
    match turns.last_mut() {
        Some(t) if t.speaker == speaker => {
            t.end_s = t.end_s.max(w.end_s);
            t.words.push(w);
        }
        _ => turns.push(AudioTurn { speaker, start_s: w.start_s, end_s: w.end_s, text: String::new(), words: vec![w] }),
    }
}

/// Words back to text: English with spaces, Chinese without (whisper's tokens carry their own).
pub fn join(words: &[Word], lang: Lang) -> String {
    let sep = lang.pick("", " ");
    words.iter().map(|w| w.text.trim()).filter(|w| !w.is_empty()).collect::<Vec<_>>().join(sep)
}

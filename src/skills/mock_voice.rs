//! Spoken answers in a mock interview: the recording is transcribed first ([`hear`]), so that a
//! page can show the transcript for correction before it is scored; the answer is then scored on
//! its (possibly corrected) text and its delivery on what was heard ([`MockState::answer_heard`]).

use super::mock_session::{MockState, Verdict};
use crate::lang::Lang;
use crate::tools::analyze_speech::{AnalyzeSpeech, AnalyzeSpeechArgs, TimedWord};
use crate::tools::transcribe_audio::{TranscribeAudio, TranscribeAudioArgs, TranscribeAudioOutput};
use crate::tools::{call, ToolContext, ToolError};

/// Transcribe a spoken answer (`path` inside the context's data root).
pub async fn hear(ctx: &ToolContext, path: &str, lang: Lang) -> Result<TranscribeAudioOutput, ToolError> {
    call(
        &TranscribeAudio,
        TranscribeAudioArgs { path: path.to_string(), lang: Some(lang), channels: None, vad: None },
        ctx,
    )
    .await
}

/// What was heard, as one text: the whole recording is the candidate's answer, whoever the
/// clustering thought spoke.
pub fn heard_text(rec: &TranscribeAudioOutput) -> String {
    rec.turns.iter().map(|t| t.text.trim()).filter(|t| !t.is_empty()).collect::<Vec<_>>().join(" ")
}

impl MockState {
    /// An answer given as a recording: transcribed, scored like a written one, and its delivery
    /// (pace, pauses, fillers, pitch and volume) analysed.
    pub async fn answer_recording(
        &mut self,
        ctx: &ToolContext,
        path: &str,
        elapsed_s: f64,
    ) -> Result<Verdict, ToolError> {
        let rec = hear(ctx, path, self.lang).await?;
        let text = heard_text(&rec);
        self.answer_heard(ctx, &text, &rec, path, elapsed_s).await
    }

    /// Score `text` (what was heard, or the candidate's correction of it) and the delivery of
    /// the recording `rec` of it, named `name`.
    pub async fn answer_heard(
        &mut self,
        ctx: &ToolContext,
        text: &str,
        rec: &TranscribeAudioOutput,
        name: &str,
        elapsed_s: f64,
    ) -> Result<Verdict, ToolError> {
        let words: Vec<TimedWord> = rec
            .turns
            .iter()
            .flat_map(|t| t.words.iter())
            .map(|w| TimedWord { text: w.text.clone(), start_s: w.start_s, end_s: w.end_s })
            .collect();
        let answered_before = self.answered.len();
        let verdict = self.answer(ctx, text, elapsed_s).await?;
        if self.answered.len() == answered_before {
            return Ok(verdict);
        }
        if let Some(last) = self.answered.last_mut() {
            last.recording = Some(name.to_string());
        }
        if !words.is_empty() {
            let speech = call(
                &AnalyzeSpeech,
                AnalyzeSpeechArgs {
                    text: None,
                    words,
                    speech: rec.speech.clone(),
                    filled_pauses: rec.filled_pauses.clone(),
                    lang: Some(self.lang),
                    f0_hz: rec.f0.clone(),
                    level_db: rec.db.clone(),
                    frames_from_s: 0.0,
                },
                ctx,
            )
            .await?;
            if let Some(last) = self.answered.last_mut() {
                last.speech = speech.speech.and_then(|s| serde_json::to_value(s).ok());
            }
        }
        Ok(verdict)
    }
}

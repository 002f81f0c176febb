//! `detect_speakers`: who is the interviewer and who the candidate.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Tool, ToolContext, ToolError};
use crate::transcript::roles::{self, RoleError, RoleHints, SpeakerAnalysis};
use crate::transcript::Transcript;

pub struct DetectSpeakers;

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DetectSpeakersArgs {
    /// A transcript as `parse_transcript` returns it.
    pub transcript: Transcript,
    /// Speakers known to be interviewers (labels, or one word of a label).
    #[serde(default)]
    pub interviewers: Vec<String>,
    /// The speaker known to be the candidate.
    #[serde(default)]
    pub candidates: Vec<String>,
}

impl Tool for DetectSpeakers {
    const NAME: &'static str = "detect_speakers";
    const DESCRIPTION: &'static str = "Decide each speaker's role (interviewer, candidate, unknown) from names given, the transcript's header, role labels or behaviour (talk share, turn length, questions asked); returns speakers with role, confidence, turns and talk time, and the role of every turn.";
    type Args = DetectSpeakersArgs;
    type Output = SpeakerAnalysis;

    async fn execute(&self, args: DetectSpeakersArgs, ctx: &ToolContext) -> Result<SpeakerAnalysis, ToolError> {
        // Blocking work off the async workers, so the call's time limit can fire.
        let c = ctx.clone();
        ctx.blocking(move || run(&c, args)).await
    }
}

fn run(_ctx: &ToolContext, args: DetectSpeakersArgs) -> Result<SpeakerAnalysis, ToolError> {
    let hints = RoleHints { interviewers: args.interviewers, candidates: args.candidates };
    roles::detect_with(&args.transcript, &hints).map_err(|e| {
        let hint = match e {
            RoleError::UnknownSpeaker { .. } => "give a name as the transcript writes it (`ivd split FILE` lists them)",
            RoleError::NoSpeakers => "drop --interviewer/--candidate, or give a transcript with speaker labels",
        };
        ToolError::input(e.to_string(), hint)
    })
}

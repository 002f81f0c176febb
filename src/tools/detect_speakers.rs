//! `detect_speakers`: who is the interviewer and who the candidate.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Tool, ToolContext, ToolError};
use crate::transcript::roles::{self, SpeakerAnalysis};
use crate::transcript::Transcript;

pub struct DetectSpeakers;

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DetectSpeakersArgs {
    /// A transcript as `parse_transcript` returns it.
    pub transcript: Transcript,
}

impl Tool for DetectSpeakers {
    const NAME: &'static str = "detect_speakers";
    const DESCRIPTION: &'static str = "Decide each speaker's role (interviewer, candidate, unknown) from role labels or behaviour; returns speakers with turns and talk time, and the role of every turn.";
    type Args = DetectSpeakersArgs;
    type Output = SpeakerAnalysis;

    async fn execute(&self, args: DetectSpeakersArgs, _ctx: &ToolContext) -> Result<SpeakerAnalysis, ToolError> {
        Ok(roles::detect(&args.transcript))
    }
}

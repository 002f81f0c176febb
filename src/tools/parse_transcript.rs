//! `parse_transcript`: a transcript file (or text) in any supported format -> turns.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{read_confined, Tool, ToolContext, ToolError};
use crate::transcript::{self, Format, Transcript};

pub struct ParseTranscript;

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ParseTranscriptArgs {
    /// Path of the transcript, relative to the data root. Give this or `text`.
    #[serde(default)]
    pub path: Option<String>,
    /// The transcript itself, when it is not in a file.
    #[serde(default)]
    pub text: Option<String>,
    /// Force a format instead of detecting it.
    #[serde(default)]
    pub format: Option<Format>,
}

impl Tool for ParseTranscript {
    const NAME: &'static str = "parse_transcript";
    const DESCRIPTION: &'static str = "Parse an interview transcript (labeled text, raw text, WebVTT, SRT, Otter export, whisper JSON; UTF-8/UTF-16/GB18030) into turns with speaker, text and times.";
    type Args = ParseTranscriptArgs;
    type Output = Transcript;

    async fn execute(&self, args: ParseTranscriptArgs, ctx: &ToolContext) -> Result<Transcript, ToolError> {
        // Blocking work off the async workers, so the call's time limit can fire.
        let c = ctx.clone();
        ctx.blocking(move || run(&c, args)).await
    }
}

fn run(ctx: &ToolContext, args: ParseTranscriptArgs) -> Result<Transcript, ToolError> {
    match (&args.path, &args.text) {
        (Some(path), None) => {
            let (_, bytes) = read_confined(ctx, path)?;
            Ok(transcript::parse_bytes(&bytes, args.format)?)
        }
        (None, Some(text)) => Ok(transcript::parse(text, args.format)?),
        _ => Err(ToolError::input("give exactly one of `path` or `text`", "pass the transcript's path, or its text")),
    }
}

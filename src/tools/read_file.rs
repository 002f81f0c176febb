//! `read_file`: read a text file inside the data root, decoded to UTF-8.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{read_confined, Tool, ToolContext, ToolError};
use crate::transcript::decode;

pub struct ReadFile;

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadFileArgs {
    /// Path of the file, relative to the data root.
    pub path: String,
    /// Return at most this many characters (default 200000).
    #[serde(default)]
    pub max_chars: Option<usize>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ReadFileOutput {
    pub path: String,
    pub bytes: u64,
    /// The encoding the file was decoded from (utf-8, utf-8-bom, utf-16le, gb18030, ...).
    pub encoding: String,
    pub text: String,
    /// Whether `text` was cut at `max_chars`.
    pub truncated: bool,
}

const DEFAULT_MAX_CHARS: usize = 200_000;

impl Tool for ReadFile {
    const NAME: &'static str = "read_file";
    const DESCRIPTION: &'static str =
        "Read a text file inside the data root (UTF-8, UTF-16 or GB18030), returning its decoded text.";
    type Args = ReadFileArgs;
    type Output = ReadFileOutput;

    async fn execute(&self, args: ReadFileArgs, ctx: &ToolContext) -> Result<ReadFileOutput, ToolError> {
        // Blocking work off the async workers, so the call's time limit can fire.
        let c = ctx.clone();
        ctx.blocking(move || run(&c, args)).await
    }
}

fn run(ctx: &ToolContext, args: ReadFileArgs) -> Result<ReadFileOutput, ToolError> {
    let (_, bytes) = read_confined(ctx, &args.path)?;
    let decoded = decode::decode(&bytes)?;
    let max = args.max_chars.unwrap_or(DEFAULT_MAX_CHARS);
    let (text, truncated) = match decoded.text.char_indices().nth(max) {
        Some((cut, _)) => (decoded.text[..cut].to_string(), true),
        None => (decoded.text, false),
    };
    Ok(ReadFileOutput {
        path: args.path,
        bytes: bytes.len() as u64,
        encoding: decoded.encoding.to_string(),
        text,
        truncated,
    })
}

//! `split_qa_pairs`: question/answer pairs from a transcript and its turn roles.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Tool, ToolContext, ToolError};
use crate::models::Models;
use crate::transcript::pairs::{self, QaPair};
use crate::transcript::roles::{self, Role};
use crate::transcript::Transcript;

pub struct SplitQaPairs;

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SplitQaPairsArgs {
    /// A transcript as `parse_transcript` returns it.
    pub transcript: Transcript,
    /// The role of every turn, as `detect_speakers` returns it; detected when omitted.
    #[serde(default)]
    pub turn_roles: Option<Vec<Role>>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct SplitQaPairsOutput {
    pub pairs: Vec<QaPair>,
}

impl Tool for SplitQaPairs {
    const NAME: &'static str = "split_qa_pairs";
    const DESCRIPTION: &'static str = "Split a role-tagged transcript into question/answer pairs: merged interviewer turns, back-channels ignored, follow-ups marked with follow_up_of.";
    type Args = SplitQaPairsArgs;
    type Output = SplitQaPairsOutput;

    async fn execute(&self, args: SplitQaPairsArgs, ctx: &ToolContext) -> Result<SplitQaPairsOutput, ToolError> {
        // Blocking work off the async workers, so the call's time limit can fire.
        let c = ctx.clone();
        ctx.blocking(move || run(&c, args)).await
    }
}

fn run(ctx: &ToolContext, args: SplitQaPairsArgs) -> Result<SplitQaPairsOutput, ToolError> {
    let turn_roles = match args.turn_roles {
        Some(r) if r.len() == args.transcript.turns.len() => r,
        Some(r) => {
            return Err(ToolError::input(
                format!(
                    "turn_roles has {} entries but the transcript has {} turns",
                    r.len(),
                    args.transcript.turns.len()
                ),
                "pass the turn_roles that detect_speakers returned for this transcript, or omit them",
            ))
        }
        None => roles::detect(&args.transcript).turn_roles,
    };
    // Follow-ups are told by meaning too where the models are provisioned (the base's embedder and
    // its cache); by the rules alone otherwise, or where the base cannot be loaded: splitting
    // needs no base.
    let kb = Models::new(&ctx.config).is_provisioned().then(|| ctx.kb().ok()).flatten();
    let meaning = crate::scoring::follow_up_meaning(kb.as_deref());
    Ok(SplitQaPairsOutput { pairs: pairs::split_with(&args.transcript, &turn_roles, &meaning) })
}

//! `split_qa_pairs`: question/answer pairs from a transcript and its turn roles.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Tool, ToolContext, ToolError};
use crate::transcript::follow_up_model;
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
    // Follow-ups are told by meaning too where the knowledge base has vectors; by the rules alone
    // where it cannot be loaded (splitting needs no base).
    let kb = ctx.kb().ok();
    let vectors = kb.as_ref().and_then(|k| k.vectors.as_ref());
    let meaning = |q: &str, prev_q: &str, prev_a: &str| {
        let v = vectors?;
        follow_up_model::probability_of(q, prev_q, prev_a, &|t| v.query_vector(t).ok(), &|t| v.passage_vector(t).ok())
    };
    Ok(SplitQaPairsOutput { pairs: pairs::split_with(&args.transcript, &turn_roles, &meaning) })
}

//! `suggest_roles`: the language model's reading of who interviews, where the role heuristics are
//! unsure: for named speakers, which one is the interviewer; for turns without names, which turns
//! the interviewer said. Needs a configured model; its answer is checked against the turns.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{ErrorCode, Tool, ToolContext, ToolError};
use crate::llm::LlmError;

pub struct SuggestRoles;

/// A turn as the model sees it.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct RoleTurn {
    /// The speaker's label, when the transcript has one.
    #[serde(default)]
    pub speaker: Option<String>,
    pub text: String,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SuggestRolesArgs {
    /// The transcript's turns in order (the first ones settle who asks).
    pub turns: Vec<RoleTurn>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SuggestRolesOutput {
    /// With two or more named speakers: the one who interviews.
    pub interviewer: Option<String>,
    /// Without names: for every turn, whether the interviewer said it.
    pub interviewer_turns: Option<Vec<bool>>,
}

impl Tool for SuggestRoles {
    const NAME: &'static str = "suggest_roles";
    const DESCRIPTION: &'static str = "Ask the configured language model who interviews: the interviewer among named speakers, or for unnamed turns which ones the interviewer said. Only with a model configured.";
    type Args = SuggestRolesArgs;
    type Output = SuggestRolesOutput;

    async fn execute(&self, args: SuggestRolesArgs, ctx: &ToolContext) -> Result<SuggestRolesOutput, ToolError> {
        let Some(llm) = &ctx.llm else {
            return Err(ToolError::input(
                "no language model is configured",
                "set OPENAI_BASE_URL (or --llm-base-url) and IVD_LLM_MODEL, or settle roles with --interviewer",
            ));
        };
        let home = &ctx.config.home;
        let mut names: Vec<String> = Vec::new();
        for t in &args.turns {
            if let Some(s) = &t.speaker {
                if !names.contains(s) {
                    names.push(s.clone());
                }
            }
        }
        if names.len() >= 2 {
            let turns: Vec<(String, String)> =
                args.turns.iter().filter_map(|t| Some((t.speaker.clone()?, t.text.clone()))).collect();
            let name = crate::llm::roles::interviewer_of(llm, home, &turns, &names).await.map_err(model_error)?;
            Ok(SuggestRolesOutput { interviewer: Some(name), interviewer_turns: None })
        } else if names.is_empty() {
            let texts: Vec<String> = args.turns.iter().map(|t| t.text.clone()).collect();
            let marks = crate::llm::roles::interviewer_turns(llm, home, &texts).await.map_err(model_error)?;
            Ok(SuggestRolesOutput { interviewer: None, interviewer_turns: Some(marks) })
        } else {
            Err(ToolError::input(
                "only one speaker is named: nothing to choose",
                "give the other speaker's turns a name",
            ))
        }
    }
}

fn model_error(e: LlmError) -> ToolError {
    match e {
        LlmError::Cancelled => ToolError::new(ErrorCode::Timeout, "the call was cancelled", "run it again"),
        LlmError::Timeout(s) => {
            ToolError::new(ErrorCode::Timeout, format!("the model did not answer in {s} s"), "raise IVD_LLM_TIMEOUT_S")
        }
        other => ToolError::service(
            format!("the model could not settle the roles: {other}"),
            "settle them with --interviewer NAME",
        ),
    }
}

//! `analyze_content`: score one answer against its reference with the offline rubric.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{ErrorCode, Tool, ToolContext, ToolError};
use crate::kb::search::SearchHit;
use crate::scoring::content::ContentScore;

pub struct AnalyzeContent;

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeContentArgs {
    /// The question that was asked.
    pub question: String,
    /// The candidate's answer.
    pub answer: String,
    /// Knowledge-base entry to score against; searched for from the question when omitted.
    #[serde(default)]
    pub reference_id: Option<String>,
    /// Language of the feedback: "zh" or "en"; from the question when omitted.
    #[serde(default)]
    pub lang: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct AnalyzeContentOutput {
    pub content: ContentScore,
    /// The entry the answer was scored against, if any was relevant.
    pub reference_id: Option<String>,
    /// Relevant entries found for the question (empty when `reference_id` was given).
    pub references: Vec<SearchHit>,
}

impl Tool for AnalyzeContent {
    const NAME: &'static str = "analyze_content";
    const DESCRIPTION: &'static str = "Score an interview answer (relevance first, then completeness, depth, accuracy, practicality, 0-100 each, with details, missing key points, misconceptions and an improvement) against the best reference answer in the knowledge base. Deterministic.";
    type Args = AnalyzeContentArgs;
    type Output = AnalyzeContentOutput;

    async fn execute(&self, args: AnalyzeContentArgs, ctx: &ToolContext) -> Result<AnalyzeContentOutput, ToolError> {
        let kb = ctx.kb()?;
        let (reference_id, references) = match args.reference_id {
            Some(id) => {
                if kb.kb.get(&id).is_none() {
                    return Err(ToolError::new(
                        ErrorCode::NotFound,
                        format!("no knowledge-base entry {id:?}"),
                        "use an id returned by query_knowledge_base, or omit reference_id",
                    ));
                }
                (Some(id), Vec::new())
            }
            None => {
                let relevant = kb.references_for(&args.question)?;
                (relevant.first().map(|h| h.id.clone()), relevant)
            }
        };
        let lang = match args.lang.as_deref() {
            Some("zh") => crate::kb::Lang::Zh,
            Some("en") => crate::kb::Lang::En,
            Some(other) => {
                return Err(ToolError::new(
                    ErrorCode::InputError,
                    format!("unknown language {other:?}"),
                    "give \"zh\" or \"en\", or omit lang",
                ))
            }
            None => crate::scoring::lang_of(&args.question, &args.answer),
        };
        let position = reference_id.as_deref().and_then(|id| kb.position(id));
        let content = crate::scoring::assess(&kb, &args.question, &args.answer, position, lang)?;
        Ok(AnalyzeContentOutput { content, reference_id, references })
    }
}

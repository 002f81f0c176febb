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
    /// The entry the answer was scored against: the given one, or of the found ones the first the
    /// answer addresses; none when the answer fits the question but none of the entries found.
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
        let given = match args.reference_id.as_deref() {
            Some(id) => Some(kb.position(id).ok_or_else(|| {
                ToolError::new(
                    ErrorCode::NotFound,
                    format!("no knowledge-base entry {id:?}"),
                    "use an id returned by query_knowledge_base, or omit reference_id",
                )
            })?),
            None => None,
        };
        let references = if given.is_some() { Vec::new() } else { kb.references_for(&args.question)? };
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
        // A reference the caller chose is used as given; found ones let the answer pick.
        let (chosen, content) = match given {
            Some(i) => (Some(i), crate::scoring::assess(&kb, &args.question, &args.answer, Some(i), lang)?),
            None => crate::scoring::assess_among(&kb, &args.question, &args.answer, &references, lang)?,
        };
        let reference_id = chosen.and_then(|i| kb.kb.entries.get(i)).map(|e| e.id.clone());
        Ok(AnalyzeContentOutput { content, reference_id, references })
    }
}

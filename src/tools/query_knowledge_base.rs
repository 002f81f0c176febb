//! `query_knowledge_base`: search the reference questions.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Tool, ToolContext, ToolError};
use crate::kb::search::{SearchHit, SearchMode, SearchOptions, RELEVANCE_MIN};

pub struct QueryKnowledgeBase;

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QueryKnowledgeBaseArgs {
    /// The interview question (or any text) to find reference entries for.
    pub query: String,
    /// Only entries of this dimension (e.g. "memory", "tool-calling").
    #[serde(default)]
    pub dimension: Option<String>,
    /// How many hits to return (1-50, default 5).
    #[serde(default)]
    pub top_k: Option<usize>,
    /// bm25, vector or hybrid (default): hybrid fuses keyword and embedding rankings.
    #[serde(default)]
    pub mode: Option<SearchMode>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct QueryKnowledgeBaseOutput {
    pub hits: Vec<SearchHit>,
    /// Hits with relevance below this are not treated as references for the query.
    pub relevance_min: f64,
    /// The mode that ran: hybrid and vector fall back to bm25 when no embedding model is provisioned.
    pub mode: SearchMode,
    /// Why the search ran degraded, and how to fix it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub degraded: Option<String>,
}

impl Tool for QueryKnowledgeBase {
    const NAME: &'static str = "query_knowledge_base";
    const SETUP: super::Setup = super::Setup::Search;
    const DESCRIPTION: &'static str = "Search the knowledge base of reference interview questions (Chinese and English) and return the best entries with scores and relevance.";
    type Args = QueryKnowledgeBaseArgs;
    type Output = QueryKnowledgeBaseOutput;

    async fn execute(
        &self,
        args: QueryKnowledgeBaseArgs,
        ctx: &ToolContext,
    ) -> Result<QueryKnowledgeBaseOutput, ToolError> {
        // Blocking work off the async workers, so the call's time limit can fire.
        let c = ctx.clone();
        ctx.blocking(move || run(&c, args)).await
    }
}

fn run(ctx: &ToolContext, args: QueryKnowledgeBaseArgs) -> Result<QueryKnowledgeBaseOutput, ToolError> {
    if args.query.trim().is_empty() {
        return Err(ToolError::input("the query is empty", "give the question to look up"));
    }
    let top_k = args.top_k.unwrap_or(5);
    if !(1..=50).contains(&top_k) {
        return Err(ToolError::input(format!("top_k {top_k} is out of range"), "use a top_k between 1 and 50"));
    }
    let kb = ctx.kb()?;
    if let Some(d) = &args.dimension {
        if kb.kb.dimension(d).is_none() {
            let known: Vec<&str> = kb.kb.manifest.dimensions.iter().map(|d| d.id.as_str()).collect();
            return Err(ToolError::new(
                super::ErrorCode::NotFound,
                format!("no dimension {d:?}"),
                format!("use one of: {}", known.join(", ")),
            ));
        }
    }
    let requested = args.mode.unwrap_or_default();
    let mode = if kb.vectors.is_some() { requested } else { SearchMode::Bm25 };
    let hits = kb.search(&args.query, &SearchOptions { top_k, dimension: args.dimension, mode })?;
    let degraded = if requested != SearchMode::Bm25 { kb.degraded.clone() } else { None };
    Ok(QueryKnowledgeBaseOutput { hits, relevance_min: RELEVANCE_MIN, mode, degraded })
}

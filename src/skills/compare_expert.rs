//! `compare-expert`: one answer against the knowledge base's references.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::kb::search::SearchHit;
use crate::scoring::content::ContentScore;
use crate::tools::analyze_content::{AnalyzeContent, AnalyzeContentArgs};
use crate::tools::{call, ToolContext, ToolError};

pub const NAME: &str = "compare-expert";

/// What `ivd compare` prints: the report's `content` object plus the references used.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Comparison {
    pub content: ContentScore,
    pub reference_id: Option<String>,
    pub references: Vec<SearchHit>,
}

pub async fn run(
    ctx: &ToolContext,
    question: &str,
    answer: &str,
    lang: Option<crate::kb::Lang>,
) -> Result<Comparison, ToolError> {
    let started = Instant::now();
    let result = call(
        &AnalyzeContent,
        AnalyzeContentArgs {
            question: question.into(),
            answer: answer.into(),
            reference_id: None,
            lang: lang.map(|l| super::diagnose_transcript::lang_code(l).to_string()),
        },
        ctx,
    )
    .await
    .map(|a| Comparison { content: a.content, reference_id: a.reference_id, references: a.references });
    ctx.audit_call(
        "skill",
        NAME,
        result.as_ref().map(|_| "ok").unwrap_or_else(|e| e.code.as_str()),
        started,
        question.as_bytes(),
    );
    result
}

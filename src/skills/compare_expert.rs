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

impl Comparison {
    /// The plain-text form `ivd compare` and `ivd ask` print.
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        let r = &self.content;
        let _ = writeln!(s, "overall {}/100 ({})", r.overall, self.reference_id.as_deref().unwrap_or("no reference"));
        for (name, x) in [
            ("completeness", &r.completeness),
            ("depth", &r.depth),
            ("accuracy", &r.accuracy),
            ("practicality", &r.practicality),
        ] {
            let _ = writeln!(s, "  {name:<13} {:>3}  {}", x.score, x.detail);
        }
        for m in &r.inaccuracies {
            let _ = writeln!(s, "  misconception: {m}");
        }
        let _ = writeln!(s, "  improve: {}", r.improvement);
        if let Some(f) = &r.feedback {
            let _ = writeln!(s, "  feedback ({}): {f}", r.analyzer);
        }
        for q in &r.evidence {
            let _ = writeln!(s, "  evidence: \"{q}\"");
        }
        if let Some(n) = &r.note {
            let _ = writeln!(s, "  note: {n}");
        }
        s
    }
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

//! `compare-expert`: one answer against the knowledge base's references.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::kb::search::SearchHit;
use crate::scoring::content::ContentScore;
use crate::tools::analyze_content::{AnalyzeContent, AnalyzeContentArgs};
use crate::tools::{call, ToolContext, ToolError};

pub const NAME: &str = "compare-expert";

/// The skill, as the agent runs it from a request holding a question and an answer.
pub struct CompareExpert;

impl super::builtin::BuiltinSkill for CompareExpert {
    const NAME: &'static str = NAME;
    const MANIFEST: &'static str = include_str!("../../skills/compare-expert/SKILL.md");
    async fn run(
        &self,
        ctx: &ToolContext,
        req: &super::builtin::SkillRequest<'_>,
    ) -> Result<super::builtin::SkillOutput, super::builtin::SkillError> {
        let (q, a) = question_and_answer(req.text).ok_or_else(|| {
            super::builtin::SkillError::Input(
                "give the question and the answer as `Q: ...` and `A: ...` (or 问题：… 回答：…)".into(),
            )
        })?;
        let text = run(ctx, &q, &a, None).await?.to_text();
        Ok(super::builtin::SkillOutput { text, notes: Vec::new() })
    }
}

/// `Q: ... A: ...`, `Question: ... Answer: ...`, `问题：... 回答：...` (any case, either colon).
pub fn question_and_answer(request: &str) -> Option<(String, String)> {
    let lower = request.to_lowercase();
    let find = |labels: &[&str]| -> Option<(usize, usize)> {
        labels.iter().find_map(|l| {
            [":", "："].iter().find_map(|c| {
                let pat = format!("{l}{c}");
                lower.find(&pat).map(|at| (at, at + pat.len()))
            })
        })
    };
    let (_, q_start) = find(&["question", "问题", "q"])?;
    let (a_at, a_start) = find(&["answer", "回答", "答", "a"]).filter(|(at, _)| *at > q_start)?;
    let q = request.get(q_start..a_at)?.trim().trim_end_matches([',', ';', '，', '；']).trim().to_string();
    let a = request.get(a_start..)?.trim().to_string();
    (!q.is_empty() && !a.is_empty()).then_some((q, a))
}

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
    lang: Option<crate::lang::Lang>,
) -> Result<Comparison, ToolError> {
    let started = Instant::now();
    let result = call(
        &AnalyzeContent,
        AnalyzeContentArgs { question: question.into(), answer: answer.into(), reference_id: None, lang },
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn question_and_answer_forms() {
        let (q, a) = question_and_answer("compare my answer. Q: What is RAG? A: Retrieval then generation.").unwrap();
        assert_eq!((q.as_str(), a.as_str()), ("What is RAG?", "Retrieval then generation."));
        let (q, a) = question_and_answer("问题：什么是RAG？回答：先检索再生成。").unwrap();
        assert_eq!((q.as_str(), a.as_str()), ("什么是RAG？", "先检索再生成。"));
        assert_eq!(question_and_answer("compare my answer about RAG"), None);
    }
}

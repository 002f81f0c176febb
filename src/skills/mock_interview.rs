//! `mock-interview`: the entry point of practice. From a request ("quiz me on RAG", "模拟面试
//! 记忆"), a practice set drawn from the knowledge base: the dimension the request names (all when
//! it names none), easy to hard. The interactive session builds on this.

use serde::Serialize;

use crate::kb::entry::Difficulty;
use crate::lang::Lang;
use crate::tools::{ToolContext, ToolError};

pub const NAME: &str = "mock-interview";

/// The skill, as the agent runs it from a request ("quiz me on RAG"): a practice set, and how to
/// go on to the interactive interview.
pub struct MockInterview;

impl super::builtin::BuiltinSkill for MockInterview {
    const NAME: &'static str = NAME;
    const MANIFEST: &'static str = include_str!("../../skills/mock-interview/SKILL.md");
    async fn run(
        &self,
        ctx: &ToolContext,
        req: &super::builtin::SkillRequest<'_>,
    ) -> Result<super::builtin::SkillOutput, super::builtin::SkillError> {
        let set = run(ctx, req.text, req.lang, req.seed).await?;
        Ok(super::builtin::SkillOutput { text: practice_text(&set, req.lang), notes: Vec::new() })
    }
}

fn practice_text(set: &PracticeSet, lang: Lang) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let zh = lang == Lang::Zh;
    let _ = writeln!(s, "{}", if zh { "# 模拟面试题" } else { "# Practice questions" });
    for (i, q) in set.questions.iter().enumerate() {
        let _ = writeln!(s, "\n{}. [{} · {}] {}", i + 1, q.dimension, q.difficulty, q.question);
    }
    let _ = writeln!(
        s,
        "\n{}",
        if zh {
            "交互式模拟面试（逐题评分、追问、最终报告）：`ivd mock`；单题也可用 `ivd compare --question \"…\" --answer \"…\"` 对比专家答案。"
        } else {
            "For the interactive interview (a verdict after each answer, follow-ups, a final report): `ivd mock`; or score one answer against the expert with `ivd compare --question \"...\" --answer \"...\"`."
        }
    );
    s
}
/// Questions in a set unless the request asks for another number.
pub const DEFAULT_COUNT: usize = 5;

#[derive(Debug, Clone, Serialize)]
pub struct PracticeQuestion {
    pub id: String,
    pub dimension: String,
    pub difficulty: String,
    pub question: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct PracticeSet {
    pub dimension: Option<String>,
    pub questions: Vec<PracticeQuestion>,
}

/// Draw a practice set for `request`. `seed` varies the draw between sessions.
pub async fn run(ctx: &ToolContext, request: &str, lang: Lang, seed: u64) -> Result<PracticeSet, ToolError> {
    let started = std::time::Instant::now();
    let c = ctx.clone();
    let request_owned = request.to_string();
    let result = ctx.blocking(move || draw(&c, &request_owned, lang, seed)).await;
    super::audit(ctx, NAME, started, request, &result);
    result
}

fn draw(ctx: &ToolContext, request: &str, lang: Lang, seed: u64) -> Result<PracticeSet, ToolError> {
    let kb = ctx.kb()?;
    let dimension = dimension_in(request, &kb.kb.manifest.dimensions);
    let count = requested_count(request).unwrap_or(DEFAULT_COUNT).clamp(1, 20);
    let mut pool: Vec<&crate::kb::Entry> =
        kb.kb.entries.iter().filter(|e| dimension.is_none_or(|d| e.dimension == d.id)).collect();
    if pool.is_empty() {
        return Err(ToolError::input("the knowledge base has no questions to practise", "run `ivd kb stats`"));
    }
    let mut rng = fastrand::Rng::with_seed(seed);
    rng.shuffle(&mut pool);
    pool.truncate(count);
    let rank = |d: &Difficulty| match d {
        Difficulty::Easy => 0,
        Difficulty::Medium => 1,
        Difficulty::Hard => 2,
    };
    pool.sort_by_key(|e| rank(&e.difficulty));
    Ok(PracticeSet {
        dimension: dimension.map(|d| d.id.clone()),
        questions: pool
            .into_iter()
            .map(|e| PracticeQuestion {
                id: e.id.clone(),
                dimension: e.dimension.clone(),
                difficulty: format!("{:?}", e.difficulty).to_lowercase(),
                question: e.question_in(lang).to_string(),
            })
            .collect(),
    })
}

/// The dimension a request names: by id ("rag", "multi agent"), English name or its first word
/// ("memory", "planning"), or a part of the Chinese name ("记忆" of 记忆与状态). The longest match
/// wins, so "tool calling" is not taken for another dimension's shorter word.
fn dimension_in<'a>(request: &str, dims: &'a [crate::kb::Dimension]) -> Option<&'a crate::kb::Dimension> {
    let lower = request.to_lowercase();
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric() && c != '-').filter(|w| !w.is_empty()).collect();
    let mut best: Option<(usize, &crate::kb::Dimension)> = None;
    for d in dims {
        let en = d.name_en.to_lowercase();
        let mut names: Vec<String> = vec![d.id.clone(), d.id.replace('-', " "), en.clone()];
        names.extend(en.split_whitespace().next().filter(|w| w.len() >= 4).map(str::to_string));
        names.extend(
            d.name_zh
                .split(['与', '和', '（', '）', '(', ')', '/', ' '])
                .filter(|p| p.chars().count() >= 2)
                .map(str::to_lowercase),
        );
        for n in names {
            let hit = if n.is_ascii() && !n.contains(' ') { words.contains(&n.as_str()) } else { lower.contains(&n) };
            if hit && best.is_none_or(|(len, _)| n.chars().count() > len) {
                best = Some((n.chars().count(), d));
            }
        }
    }
    best.map(|(_, d)| d)
}

/// "give me 3 questions", "出 3 道题".
fn requested_count(request: &str) -> Option<usize> {
    request.split(|c: char| !c.is_ascii_digit()).find(|s| !s.is_empty()).and_then(|s| s.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimensions_named_in_requests() {
        let kb = crate::kb::KnowledgeBase::load(None).unwrap();
        let dims = &kb.manifest.dimensions;
        let of = |r: &str| dimension_in(r, dims).map(|d| d.id.as_str());
        assert_eq!(of("模拟面试 记忆 2 道题"), Some("memory"));
        assert_eq!(of("quiz me on tool calling"), Some("tool-calling"));
        assert_eq!(of("mock interview on RAG"), Some("rag"));
        assert_eq!(of("考考我多智能体"), Some("multi-agent"));
        assert_eq!(of("practice MCP questions"), Some("protocols"));
        assert_eq!(of("练习一下规划"), Some("planning"));
        assert_eq!(of("mock interview please"), None);
        assert_eq!(requested_count("出 3 道题"), Some(3));
    }
}

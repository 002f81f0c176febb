//! Running a built-in skill from a request in words: find what it needs (a file, a question and
//! an answer) in the request, run it, and say what came out.

use super::{Agent, AgentError, Answer};
use crate::kb::Lang;
use crate::skills::{compare_expert, diagnose_audio, diagnose_transcript, mock_interview};
use crate::tools::generate_report::ReportFormat;
use crate::tools::ToolContext;
use crate::transcript::roles::RoleHints;

pub(super) async fn run(
    agent: &Agent,
    name: &str,
    request: &str,
    file: Option<&str>,
    lang: Lang,
) -> Result<Answer, AgentError> {
    let ctx = &agent.ctx;
    let text = match name {
        diagnose_transcript::NAME | diagnose_audio::NAME => {
            let file = file.ok_or_else(|| {
                AgentError::Input(format!("{name} needs a file: name it in the request or give --file PATH"))
            })?;
            let hints = RoleHints::default();
            let (report, rendered) = if crate::audio::is_audio_path(std::path::Path::new(file)) {
                let opts = diagnose_audio::AudioOptions::default();
                let (r, text, _) = diagnose_audio::run(ctx, file, file, ReportFormat::Md, None, &hints, &opts).await?;
                (r, text)
            } else {
                diagnose_transcript::run(ctx, file, file, ReportFormat::Md, None, &hints).await?
            };
            if report.questions.is_empty() {
                agent.step(super::Step::Note(format!("no question/answer pairs found in {file}")));
            }
            rendered
        }
        compare_expert::NAME => {
            let (q, a) = question_and_answer(request).ok_or_else(|| {
                AgentError::Input(
                    "give the question and the answer as `Q: ...` and `A: ...` (or 问题：… 回答：…)".into(),
                )
            })?;
            compare_expert::run(ctx, &q, &a, None).await?.to_text()
        }
        mock_interview::NAME => {
            let seed = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(7);
            let set = mock_interview::run(ctx, request, lang, seed).await?;
            practice_text(&set, lang)
        }
        other => return Err(AgentError::Input(format!("the built-in skill {other} cannot be run from a request"))),
    };
    Ok(Answer { text, skill: Some(name.to_string()) })
}

fn practice_text(set: &mock_interview::PracticeSet, lang: Lang) -> String {
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

/// `Q: ... A: ...`, `Question: ... Answer: ...`, `问题：... 回答：...` (any case, either colon).
pub(super) fn question_and_answer(request: &str) -> Option<(String, String)> {
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

/// A word of the request that names a file inside the data root ("diagnose notes/interview.txt").
pub(super) fn file_in_request(ctx: &ToolContext, request: &str) -> Option<String> {
    request
        .split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '“' | '”' | '「' | '」' | '，' | '。'))
        .map(|w| w.trim_end_matches(['.', ',', ';', ':', '?', '!', ')']))
        .filter(|w| w.contains('.') && !w.starts_with('/') && !w.contains(".."))
        .find(|w| ctx.resolve(w).is_ok_and(|p| p.is_file()))
        .map(str::to_string)
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

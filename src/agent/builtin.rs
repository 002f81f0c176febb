//! Running a built-in skill from a request in words: the skill (looked up in the one list of
//! built-ins) finds what it needs in the request, runs, and says what came out.

use super::{Agent, AgentError, Answer};
use crate::lang::Lang;
use crate::skills::builtin::{SkillError, SkillRequest};
use crate::tools::ToolContext;

pub(super) async fn run(
    agent: &Agent,
    name: &str,
    request: &str,
    file: Option<&str>,
    lang: Lang,
) -> Result<Answer, AgentError> {
    let skill = crate::skills::builtin::get(name)
        .ok_or_else(|| AgentError::Input(format!("{name} is not a built-in skill")))?;
    let seed =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(7);
    let req = SkillRequest { text: request, file, lang, seed };
    let out = skill.run(&agent.ctx, &req).await.map_err(|e| match e {
        SkillError::Input(why) => AgentError::Input(why),
        SkillError::Tool(t) => AgentError::from(t),
    })?;
    for n in out.notes {
        agent.step(super::Step::Note(n));
    }
    Ok(Answer { text: out.text, skill: Some(name.to_string()) })
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

//! The agent: a request goes to a skill when one fits (built-in skills run deterministically in
//! Rust; prompt-only skills run in the model loop with only the tools they allow), and otherwise to
//! the free loop, where the model picks tools itself. Without a model, a request no skill fits gets
//! a helpful answer listing what can be done.

mod builtin;
mod free_loop;
mod help;
mod route;

use std::sync::Arc;

use crate::lang::Lang;
use crate::llm::{LlmClient, LlmError};
use crate::skills::discovery::{Layer, Route};
use crate::skills::registry::{SkillSet, Source};
use crate::tools::{ToolContext, ToolError, ToolRegistry};

pub use free_loop::{Message, RESULT_BUDGET};

/// What the agent is doing, for the person watching (stderr).
#[derive(Debug, Clone)]
pub enum Step {
    Routed { skill: Option<String>, via: String },
    ToolCall { name: String, arguments: String },
    ToolResult { name: String, ok: bool, latency_ms: u64, summary: String },
    Note(String),
}

pub type StepSink = Arc<dyn Fn(&Step) + Send + Sync>;

/// The agent's answer.
#[derive(Debug, Clone)]
pub struct Answer {
    pub text: String,
    /// The skill that answered, if one did.
    pub skill: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    #[error("{0}")]
    Tool(#[from] ToolError),
    #[error("the language model failed: {0}")]
    Llm(LlmError),
    #[error("stopped after {0} model turns without a final answer; ask something narrower, or raise IVD_MAX_TURNS")]
    TurnLimit(u32),
    #[error("stopped: the model repeated the same tool call {0} times")]
    Repetition(usize),
    #[error("{0}")]
    Input(String),
    #[error("cancelled")]
    Cancelled,
}

pub struct Agent {
    pub ctx: ToolContext,
    pub tools: ToolRegistry,
    pub skills: SkillSet,
    pub llm: Option<Arc<LlmClient>>,
    pub max_turns: u32,
    steps: StepSink,
}

impl Agent {
    pub fn new(ctx: ToolContext, skills: SkillSet, steps: StepSink) -> Agent {
        let llm = ctx.llm.clone();
        let max_turns = ctx.config.max_turns;
        Agent { ctx, tools: ToolRegistry::builtin(), skills, llm, max_turns, steps }
    }

    /// Which skill a request goes to (all four layers), without running it.
    pub async fn route(&self, request: &str, file: Option<&str>) -> Route {
        route::route(self, request, file).await
    }

    pub(crate) fn step(&self, s: Step) {
        (self.steps)(&s)
    }

    /// Answer one request. `file` is a path inside the context's data root (from `--file`);
    /// `history` is the conversation so far (the chat keeps it between requests).
    pub async fn ask(
        &self,
        request: &str,
        file: Option<&str>,
        history: &mut Vec<Message>,
    ) -> Result<Answer, AgentError> {
        let request = request.trim();
        if request.is_empty() {
            return Err(AgentError::Input(
                "the request is empty: say what you want, e.g. \"diagnose interview.txt\"".into(),
            ));
        }
        let lang = crate::lang::of_question(request, request);
        let file = file.map(str::to_string).or_else(|| builtin::file_in_request(&self.ctx, request));
        let route = route::route(self, request, file.as_deref()).await;
        let (skill, via) = match &route {
            Route::Skill { name, via } => (Some(name.clone()), layer_name(*via)),
            Route::Candidates(c) => (c.first().cloned(), "best of several"),
            Route::Free => (None, if self.llm.is_some() { "free tool selection" } else { "no skill fits" }),
        };
        self.step(Step::Routed { skill: skill.clone(), via: via.to_string() });
        let Some(name) = skill else {
            return match &self.llm {
                Some(llm) => free_loop::run(self, llm, request, None, lang, history).await,
                None => Ok(Answer { text: help::text(&self.skills, lang), skill: None }),
            };
        };
        let Some(found) = self.skills.get(&name) else {
            return Ok(Answer { text: help::text(&self.skills, lang), skill: None });
        };
        match &found.source {
            Source::Builtin => {
                let answer = builtin::run(self, &name, request, file.as_deref(), lang).await;
                match (answer, &self.llm) {
                    // A built-in skill that cannot act on the request as written (no file, no Q/A)
                    // is handed to the model with the skill's instructions, when there is one.
                    (Err(AgentError::Input(why)), Some(llm)) => {
                        self.step(Step::Note(format!("{name}: {why}; asking the model")));
                        free_loop::run(self, llm, request, Some(found.clone()), lang, history).await
                    }
                    (other, _) => other,
                }
            }
            Source::Prompt(_) => match &self.llm {
                Some(llm) => free_loop::run(self, llm, request, Some(found.clone()), lang, history).await,
                None => Err(AgentError::Input(format!(
                    "the skill {name} is instructions for a language model, and none is configured: set OPENAI_BASE_URL (and IVD_LLM_MODEL), or see `ivd doctor`"
                ))),
            },
        }
    }
}

// Not `#[from]`: that would make the model's error the source too, and say it twice.
impl From<LlmError> for AgentError {
    fn from(e: LlmError) -> AgentError {
        AgentError::Llm(e)
    }
}

fn layer_name(l: Layer) -> &'static str {
    match l {
        Layer::Explicit => "named in the request",
        Layer::Trigger => "trigger match",
        Layer::Embedding => "similar meaning",
        Layer::Model => "chosen by the model",
    }
}

/// The language a reply speaks.
pub(crate) fn language_name(lang: Lang) -> &'static str {
    match lang {
        Lang::Zh => "Simplified Chinese",
        Lang::En => "English",
    }
}

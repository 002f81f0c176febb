//! The free loop: the model sees the tool schemas (and `read_skill`) and picks tools itself. Its
//! guard rails: a turn limit; a repeated identical call is answered with an error instead of being
//! run again, and three of them end the loop; unknown tools, invalid JSON and arguments that fail
//! the schema go back to the model as errors it can repair; results are cut to a budget; Ctrl-C
//! cancels between and during calls.

use std::collections::HashMap;

use async_openai::types::chat::{
    ChatCompletionMessageToolCall, ChatCompletionMessageToolCalls, ChatCompletionRequestAssistantMessage,
    ChatCompletionRequestMessage, ChatCompletionRequestSystemMessage, ChatCompletionRequestToolMessage,
    ChatCompletionRequestUserMessage, ChatCompletionTool, ChatCompletionTools, CreateChatCompletionRequest,
    FunctionCall, FunctionObject,
};
use serde_json::{json, Value};

use super::{language_name, Agent, AgentError, Answer, Step};
use crate::lang::Lang;
use crate::llm::LlmClient;
use crate::skills::registry::{Skill, READ_SKILL};
use crate::tools::{Envelope, ErrorCode, ToolError};

pub type Message = ChatCompletionRequestMessage;

/// A tool result longer than this many characters is cut (the model's context is finite).
pub const RESULT_BUDGET: usize = 6000;
/// A turn is a tool call or a short answer; a model writing on past this is looping.
const MAX_TURN_TOKENS: u32 = 800;
/// The same call (name and arguments) answered with an error this many times ends the loop.
const MAX_REPEATS: usize = 3;

pub(super) async fn run(
    agent: &Agent,
    llm: &LlmClient,
    request: &str,
    skill: Option<Skill>,
    lang: Lang,
    history: &mut Vec<Message>,
) -> Result<Answer, AgentError> {
    let system = system_prompt(agent, skill.as_ref(), lang)?;
    // The system message leads; a chat replaces it each time (the skill may differ).
    history.retain(|m| !matches!(m, ChatCompletionRequestMessage::System(_)));
    history.insert(0, ChatCompletionRequestSystemMessage::from(system).into());
    history.push(ChatCompletionRequestUserMessage::from(request).into());
    let tools = tool_schemas(agent, skill.as_ref());
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut repeats = 0usize;
    for _turn in 0..agent.max_turns {
        let req = CreateChatCompletionRequest {
            messages: history.clone(),
            tools: Some(tools.clone()),
            temperature: Some(0.0),
            max_completion_tokens: Some(MAX_TURN_TOKENS),
            ..Default::default()
        };
        let reply = tokio::select! {
            r = llm.chat(req) => r?,
            _ = agent.ctx.cancel.cancelled() => return Err(AgentError::Cancelled),
        };
        if reply.tool_calls.is_empty() {
            let text = reply.content.or(reply.refusal).unwrap_or_default();
            history.push(ChatCompletionRequestAssistantMessage::from(text.as_str()).into());
            return Ok(Answer { text, skill: skill.map(|s| s.name().to_string()) });
        }
        history.push(assistant_with_calls(&reply.content, &reply.tool_calls));
        for call in &reply.tool_calls {
            if agent.ctx.cancel.is_cancelled() {
                return Err(AgentError::Cancelled);
            }
            agent.step(Step::ToolCall { name: call.name.clone(), arguments: preview(&call.arguments, 160) });
            let key = format!("{}\u{0}{}", call.name, canonical(&call.arguments));
            let count = seen.entry(key).or_insert(0);
            *count += 1;
            let envelope = if *count > 1 {
                repeats += 1;
                if repeats >= MAX_REPEATS {
                    return Err(AgentError::Repetition(repeats));
                }
                failed(ToolError::input(
                    format!("this exact call to {} was already made", call.name),
                    "use the earlier result, or change the arguments",
                ))
            } else {
                execute(agent, skill.as_ref(), &call.name, &call.arguments).await
            };
            agent.step(Step::ToolResult {
                name: call.name.clone(),
                ok: envelope.ok,
                latency_ms: envelope.latency_ms,
                summary: envelope.error.as_ref().map(|e| e.message.clone()).unwrap_or_else(|| "ok".into()),
            });
            let text = truncate(&serde_json::to_string(&envelope).unwrap_or_default(), RESULT_BUDGET);
            history
                .push(ChatCompletionRequestToolMessage { content: text.into(), tool_call_id: call.id.clone() }.into());
        }
    }
    Err(AgentError::TurnLimit(agent.max_turns))
}

fn system_prompt(agent: &Agent, skill: Option<&Skill>, lang: Lang) -> Result<String, AgentError> {
    let skills: Vec<Value> =
        agent.skills.skills.iter().map(|s| json!({"name": s.name(), "description": s.manifest.description})).collect();
    let ctx = json!({
        "language_name": language_name(lang),
        "skills": skills,
        "skill": skill.map(|s| json!({"name": s.name(), "body": s.manifest.body})),
    });
    crate::llm::prompts::render(&agent.ctx.config.home, "agent.system.j2", ctx)
        .map_err(|e| AgentError::Input(format!("{e}; fix or remove the override in $IVD_HOME/templates")))
}

/// The tools the model may call: all of them (and `read_skill`), or those the skill allows.
fn tool_schemas(agent: &Agent, skill: Option<&Skill>) -> Vec<ChatCompletionTools> {
    let allowed = |name: &str| skill.is_none_or(|s| s.manifest.allowed_tools.iter().any(|t| t == name));
    let mut out: Vec<ChatCompletionTools> = agent
        .tools
        .specs()
        .into_iter()
        .filter(|s| allowed(s.name))
        .map(|s| function(s.name, s.description, compact(s.parameters, 0)))
        .collect();
    if skill.is_none() || allowed(READ_SKILL) {
        out.push(function(
            READ_SKILL,
            "Load the full instructions of a skill by name (the system prompt lists the skills).",
            json!({"type": "object", "properties": {"name": {"type": "string", "description": "the skill's name"}}, "required": ["name"], "additionalProperties": false}),
        ));
    }
    out
}

/// The schema without what only a person reads below the arguments' own level (descriptions,
/// titles, defaults and bounds of nested fields): the structure-taking tools' schemas shrink from
/// 19,000 characters to 7,500, so all of them fit the context of a small local model.
fn compact(v: Value, depth: usize) -> Value {
    const NESTED_ONLY: &[&str] = &["description", "title", "default", "examples", "format", "minimum", "maximum"];
    match v {
        Value::Object(o) => Value::Object(
            o.into_iter()
                .filter(|(k, _)| depth <= 2 || !NESTED_ONLY.contains(&k.as_str()))
                .map(|(k, x)| (k, compact(x, depth + 1)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.into_iter().map(|x| compact(x, depth + 1)).collect()),
        other => other,
    }
}

fn function(name: &str, description: &str, parameters: Value) -> ChatCompletionTools {
    ChatCompletionTools::Function(ChatCompletionTool {
        function: FunctionObject {
            name: name.to_string(),
            description: Some(description.to_string()),
            parameters: Some(parameters),
            strict: None,
        },
    })
}

async fn execute(agent: &Agent, skill: Option<&Skill>, name: &str, arguments: &str) -> Envelope {
    let args: Value = match serde_json::from_str(if arguments.trim().is_empty() { "{}" } else { arguments }) {
        Ok(v) => v,
        Err(e) => {
            return failed(ToolError::input(
                format!("the arguments are not valid JSON: {e}"),
                "send the arguments as one JSON object matching the tool's schema",
            ))
        }
    };
    if let Some(s) = skill {
        if !s.manifest.allowed_tools.iter().any(|t| t == name) {
            return failed(ToolError::new(
                ErrorCode::PermissionDenied,
                format!("the skill {} does not allow the tool {name:?}", s.name()),
                format!("use one of: {}", s.manifest.allowed_tools.join(", ")),
            ));
        }
    }
    if name == READ_SKILL {
        let wanted = args.get("name").and_then(Value::as_str).unwrap_or_default();
        return match agent.skills.get(wanted) {
            Some(s) => Envelope {
                ok: true,
                data: Some(
                    json!({"name": s.name(), "instructions": s.manifest.body, "allowed_tools": s.manifest.allowed_tools}),
                ),
                error: None,
                latency_ms: 0,
            },
            None => failed(ToolError::new(
                ErrorCode::NotFound,
                format!("no skill named {wanted:?}"),
                format!("use one of: {}", agent.skills.skills.iter().map(|s| s.name()).collect::<Vec<_>>().join(", ")),
            )),
        };
    }
    agent.tools.execute(name, args, &agent.ctx).await
}

fn failed(e: ToolError) -> Envelope {
    Envelope { ok: false, data: None, error: Some(e), latency_ms: 0 }
}

fn assistant_with_calls(content: &Option<String>, calls: &[crate::llm::ToolCall]) -> Message {
    let tool_calls = calls
        .iter()
        .map(|c| {
            ChatCompletionMessageToolCalls::Function(ChatCompletionMessageToolCall {
                id: c.id.clone(),
                function: FunctionCall { name: c.name.clone(), arguments: c.arguments.clone() },
            })
        })
        .collect();
    ChatCompletionRequestAssistantMessage {
        content: content.as_deref().map(Into::into),
        tool_calls: Some(tool_calls),
        ..Default::default()
    }
    .into()
}

/// Arguments compared as JSON values, so key order and spacing do not hide a repeat.
fn canonical(arguments: &str) -> String {
    serde_json::from_str::<Value>(arguments).map(|v| v.to_string()).unwrap_or_else(|_| arguments.trim().to_string())
}

pub(crate) fn truncate(s: &str, budget: usize) -> String {
    match s.char_indices().nth(budget) {
        None => s.to_string(),
        Some((cut, _)) => format!("{}… [cut: {} more characters]", &s[..cut], s[cut..].chars().count()),
    }
}

fn preview(s: &str, n: usize) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(n) {
        None => flat,
        Some((cut, _)) => format!("{}…", &flat[..cut]),
    }
}

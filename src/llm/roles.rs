//! The model's help where the role heuristics are unsure: which named speaker is the interviewer,
//! or, for a transcript without names, which turns are the interviewer's. Answers that do not fit
//! the transcript (an unknown name, indices out of range, everyone on one side) are errors.

use std::path::Path;

use async_openai::types::chat::{ChatCompletionRequestUserMessage, CreateChatCompletionRequest};
use serde_json::{json, Value};

use super::{json::extract_object, prompts, LlmClient, LlmError};

/// At most this many turns are shown: the opening of an interview settles who asks.
const MAX_TURNS: usize = 40;
const MAX_TURN_CHARS: usize = 300;

/// Which of `speakers` is the interviewer, from the first turns `(speaker, text)`.
pub async fn interviewer_of(
    client: &LlmClient,
    home: &Path,
    turns: &[(String, String)],
    speakers: &[String],
) -> Result<String, LlmError> {
    let shown: Vec<Value> = turns.iter().take(MAX_TURNS).map(|(s, t)| json!({"speaker": s, "text": clip(t)})).collect();
    let prompt = prompts::render(home, "roles.user.j2", json!({"turns": shown, "speakers": speakers}))
        .map_err(|e| LlmError::Settings(e.to_string()))?;
    let v = ask(client, prompt).await?;
    let name = v.get("interviewer").and_then(Value::as_str).map(str::trim).unwrap_or_default();
    speakers
        .iter()
        .find(|s| s.as_str() == name)
        .cloned()
        .ok_or_else(|| LlmError::Malformed(format!("{name:?} is none of the speakers")))
}

/// For each of `turns` (at most [`MAX_TURNS`] are asked about; later ones alternate from there),
/// whether the interviewer said it.
pub async fn interviewer_turns(client: &LlmClient, home: &Path, turns: &[String]) -> Result<Vec<bool>, LlmError> {
    let shown: Vec<String> = turns.iter().take(MAX_TURNS).map(|t| clip(t)).collect();
    let prompt = prompts::render(home, "roles_raw.user.j2", json!({"turns": shown}))
        .map_err(|e| LlmError::Settings(e.to_string()))?;
    let v = ask(client, prompt).await?;
    let picked: Vec<usize> = v
        .get("interviewer")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_u64).map(|i| i as usize).collect())
        .unwrap_or_default();
    if picked.is_empty() || picked.len() >= shown.len() || picked.iter().any(|&i| i == 0 || i > shown.len()) {
        return Err(LlmError::Malformed("the turn numbers do not split the transcript".into()));
    }
    let mut out: Vec<bool> = (1..=shown.len()).map(|i| picked.contains(&i)).collect();
    // Beyond what was shown, turns keep alternating from the last one shown.
    while out.len() < turns.len() {
        let last = out[out.len() - 1];
        out.push(!last);
    }
    Ok(out)
}

async fn ask(client: &LlmClient, prompt: String) -> Result<Value, LlmError> {
    let req = CreateChatCompletionRequest {
        messages: vec![ChatCompletionRequestUserMessage::from(prompt).into()],
        temperature: Some(0.0),
        max_completion_tokens: Some(200),
        ..Default::default()
    };
    let reply = client.chat(req).await?;
    let text = reply.content.ok_or_else(|| LlmError::Malformed("the reply is empty".into()))?;
    extract_object(&text).ok_or_else(|| LlmError::Malformed("no JSON object in the reply".into()))
}

fn clip(t: &str) -> String {
    t.chars().take(MAX_TURN_CHARS).collect()
}

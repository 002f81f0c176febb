//! The client: async-openai's `Client` over our [`Transport`], plus lenient reading of replies
//! (small local servers leave out fields the typed response requires).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use async_openai::config::OpenAIConfig;
use async_openai::error::OpenAIError;
use async_openai::types::chat::CreateChatCompletionRequest;
use serde_json::Value;

use super::transport::Transport;
use super::LlmError;
use crate::config::LlmSettings;

/// The OpenAI default, used when only a model name is configured.
const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";

/// One call the model asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    /// Raw JSON text, as the model wrote it (it may not parse).
    pub arguments: String,
}

/// What the model answered.
#[derive(Debug, Clone, Default)]
pub struct ChatReply {
    pub content: Option<String>,
    pub tool_calls: Vec<ToolCall>,
    pub refusal: Option<String>,
    pub finish_reason: Option<String>,
}

#[derive(Clone)]
pub struct LlmClient {
    inner: async_openai::Client<OpenAIConfig>,
    transport: Transport,
    model: String,
    base_url: String,
    timeout_s: u64,
    /// Cleared the first time the server refuses `response_format: json_schema`, so later
    /// requests go straight to plain JSON mode.
    schema_ok: Arc<AtomicBool>,
}

impl std::fmt::Debug for LlmClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmClient").field("base_url", &self.base_url).field("model", &self.model).finish()
    }
}

impl LlmClient {
    /// The client for these settings, or None when no model is configured (or `--no-llm`).
    pub fn from_settings(s: &LlmSettings) -> Result<Option<LlmClient>, LlmError> {
        if !s.configured() {
            return Ok(None);
        }
        let base_url = s.base_url.clone().unwrap_or_else(|| DEFAULT_BASE_URL.to_string());
        if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
            return Err(LlmError::Settings(format!(
                "the base URL {base_url:?} must start with http:// or https:// (for example http://127.0.0.1:8080/v1)"
            )));
        }
        let transport =
            Transport::new(Duration::from_secs(s.timeout_s), s.retries, s.concurrency).map_err(LlmError::Settings)?;
        // async-openai reads OPENAI_API_KEY itself when none is given; local servers need none,
        // and an empty key sends no credential of someone else's by accident.
        let key = s.api_key.as_ref().map(|k| k.expose().to_string()).unwrap_or_default();
        let config = OpenAIConfig::new().with_api_base(base_url.trim_end_matches('/')).with_api_key(key);
        let t = transport.clone();
        let service = tower::service_fn(move |f| {
            let t = t.clone();
            async move { t.send(f).await }
        });
        let inner = async_openai::Client::with_config(config).with_http_service(service);
        Ok(Some(LlmClient {
            inner,
            transport,
            model: s.model_name(),
            base_url,
            timeout_s: s.timeout_s,
            schema_ok: Arc::new(AtomicBool::new(true)),
        }))
    }

    pub fn model(&self) -> &str {
        &self.model
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// HTTP attempts so far, retries included.
    pub fn attempts(&self) -> u64 {
        self.transport.attempts.load(Ordering::Relaxed)
    }

    pub(crate) fn schema_supported(&self) -> bool {
        self.schema_ok.load(Ordering::Relaxed)
    }

    pub(crate) fn schema_unsupported(&self) {
        self.schema_ok.store(false, Ordering::Relaxed);
    }

    /// Ask for one completion. `model` in the request is replaced by the configured one.
    pub async fn chat(&self, mut request: CreateChatCompletionRequest) -> Result<ChatReply, LlmError> {
        request.model = self.model.clone();
        let raw: Value = self.inner.chat().create_byot(request).await.map_err(|e| self.error(e))?;
        parse_reply(&raw)
    }

    /// The models the server lists (`GET /models`).
    pub async fn models(&self) -> Result<Vec<String>, LlmError> {
        let raw: Value = self.inner.models().list_byot().await.map_err(|e| self.error(e))?;
        let ids = raw
            .get("data")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(|m| m.get("id").and_then(Value::as_str).map(str::to_string)).collect())
            .unwrap_or_default();
        Ok(ids)
    }

    /// Whether the endpoint answers (`ivd doctor`, the console's status): the models it lists, or
    /// (a server without `GET /models`) a one-token completion.
    pub async fn probe(&self) -> Result<Vec<String>, String> {
        match self.models().await {
            Ok(list) => Ok(list),
            Err(LlmError::Http { status: 404 | 405, .. }) => {
                use async_openai::types::chat::{ChatCompletionRequestUserMessage, CreateChatCompletionRequest};
                let req = CreateChatCompletionRequest {
                    messages: vec![ChatCompletionRequestUserMessage::from("ping").into()],
                    max_completion_tokens: Some(1),
                    ..Default::default()
                };
                self.chat(req).await.map(|_| Vec::new()).map_err(|e| e.to_string())
            }
            Err(e) => Err(e.to_string()),
        }
    }

    fn error(&self, e: OpenAIError) -> LlmError {
        match e {
            OpenAIError::ApiError(r) => {
                LlmError::Http { status: r.status_code.as_u16(), message: clip(&r.api_error.message, 300) }
            }
            OpenAIError::Reqwest(e) if e.is_timeout() => LlmError::Timeout(self.timeout_s),
            OpenAIError::Reqwest(e) if e.is_connect() => {
                LlmError::Unreachable(format!("{} ({})", self.base_url, root_cause(&e)))
            }
            OpenAIError::Reqwest(e) => LlmError::Unreachable(root_cause(&e)),
            // An error body async-openai could not read (llama.cpp's has a numeric `code`).
            OpenAIError::JSONDeserialize(e, body) => match serde_json::from_str::<Value>(&body) {
                Ok(v) if v.get("error").is_some() => LlmError::Http {
                    status: v["error"]["code"].as_u64().map_or(400, |c| c as u16),
                    message: clip(v["error"]["message"].as_str().unwrap_or(&body), 300),
                },
                _ => LlmError::Malformed(format!("the reply is not what an OpenAI-compatible server sends: {e}")),
            },
            other => LlmError::Malformed(clip(&other.to_string(), 300)),
        }
    }
}

fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cur = e;
    while let Some(next) = cur.source() {
        cur = next;
    }
    cur.to_string()
}

fn clip(s: &str, n: usize) -> String {
    let mut out: String = s.chars().take(n).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

/// Read `choices[0].message` without insisting on the fields small servers omit.
fn parse_reply(raw: &Value) -> Result<ChatReply, LlmError> {
    let choice = raw
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|c| c.first())
        .ok_or_else(|| LlmError::Malformed("the reply has no choices".into()))?;
    let msg = choice.get("message").ok_or_else(|| LlmError::Malformed("the reply has no message".into()))?;
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string).filter(|s| !s.trim().is_empty());
    let tool_calls = msg
        .get("tool_calls")
        .and_then(Value::as_array)
        .map(|calls| {
            calls
                .iter()
                .enumerate()
                .filter_map(|(i, c)| {
                    let f = c.get("function")?;
                    let arguments = match f.get("arguments") {
                        Some(Value::String(s)) => s.clone(),
                        Some(v) => v.to_string(),
                        None => "{}".into(),
                    };
                    Some(ToolCall {
                        id: text(c.get("id")).unwrap_or_else(|| format!("call_{i}")),
                        name: text(f.get("name"))?,
                        arguments,
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(ChatReply {
        content: text(msg.get("content")),
        tool_calls,
        refusal: text(msg.get("refusal")),
        finish_reason: text(choice.get("finish_reason")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenient_reply() {
        let raw = serde_json::json!({"choices": [{"message": {"content": "hi", "tool_calls": [
            {"function": {"name": "read_file", "arguments": {"path": "a.txt"}}}
        ]}}]});
        let r = parse_reply(&raw).unwrap();
        assert_eq!(r.content.as_deref(), Some("hi"));
        assert_eq!(r.tool_calls[0].name, "read_file");
        assert_eq!(r.tool_calls[0].id, "call_0");
        assert!(r.tool_calls[0].arguments.contains("a.txt"));
        assert!(parse_reply(&serde_json::json!({"error": "x"})).is_err());
    }
}

//! The language model: any OpenAI-compatible endpoint (OpenAI, DeepSeek, Qwen, Ollama, vLLM,
//! llama.cpp's server) through async-openai, with our own transport underneath (per-attempt time
//! limit, retries with jitter that honour `Retry-After`, a concurrency limit), robust JSON
//! extraction, prompts as minijinja files, and the per-question assessment a diagnosis asks for.
//!
//! Nothing here decides a score: [`assess`] returns what the model said, already checked (quotes
//! verbatim in the answer, scores in range); the scoring module bounds how far it may move a score.
//! The API key never leaves [`crate::config::Secret`] except into the Authorization header.

pub mod assess;
pub mod client;
pub mod json;
pub mod prompts;
pub mod roles;
mod transport;

pub use client::{ChatReply, LlmClient, ToolCall};

/// What can go wrong talking to the model. Messages never hold the key.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LlmError {
    #[error("no language model is configured")]
    NotConfigured,
    #[error("invalid model settings: {0}")]
    Settings(String),
    #[error("the model endpoint answered HTTP {status}: {message}")]
    Http { status: u16, message: String },
    #[error("the model endpoint did not answer in time ({0} s per attempt)")]
    Timeout(u64),
    #[error("cannot reach the model endpoint: {0}")]
    Unreachable(String),
    #[error("the model's answer is not usable: {0}")]
    Malformed(String),
    #[error("the model declined: {0}")]
    Refused(String),
    #[error("cancelled")]
    Cancelled,
}

impl LlmError {
    /// A short reason for a report's note.
    pub fn short(&self) -> String {
        let s = self.to_string();
        let mut cut: String = s.chars().take(160).collect();
        if cut.len() < s.len() {
            cut.push('…');
        }
        cut
    }
}

//! The model's view of one answer: evidence quotes, narrative feedback in the interview's
//! language, and its own four dimension scores. Everything it says is checked before use: quotes
//! must appear verbatim (modulo whitespace) in the answer, scores must be numbers in 0..=100, the
//! feedback must be in the asked language. Blending with the rubric is `scoring::blend`'s job.

use std::path::Path;

use async_openai::types::chat::{
    ChatCompletionRequestMessage, ChatCompletionRequestSystemMessage, ChatCompletionRequestUserMessage,
    CreateChatCompletionRequest, ResponseFormat, ResponseFormatJsonSchema,
};
use serde::Serialize;
use serde_json::{json, Value};

use super::{json::extract_object, prompts, LlmClient, LlmError};
use crate::kb::Entry;
use crate::lang::Lang;

/// At most this many quotes are kept; a model that quotes the whole answer proves nothing.
const MAX_QUOTES: usize = 5;
/// Shorter quotes ("yes", "RAG") are not evidence of anything.
const MIN_QUOTE_CHARS: usize = 6;
/// Evidence, feedback and four scores fit in about 300 tokens; a model that writes on past this
/// is looping, and its reply is cut (then unusable) rather than waited for.
const MAX_TOKENS: u32 = 500;
/// Feedback with fewer letters (or Chinese characters) than this says nothing ("{", "Good.").
const MIN_FEEDBACK_EN: usize = 20;
const MIN_FEEDBACK_ZH: usize = 8;
/// The expert answer is abridged to this many characters in the prompt (small context windows).
const EXPERT_CHARS: usize = 1200;

use crate::scoring::blend::ModelScores;

/// What survived checking.
#[derive(Debug, Clone, PartialEq)]
pub struct Assessment {
    pub evidence: Vec<String>,
    /// Quotes the model gave that are not in the answer.
    pub dropped_quotes: usize,
    pub feedback: Option<String>,
    pub scores: Option<ModelScores>,
}

#[derive(Serialize)]
struct RefView {
    id: String,
    key_points: Vec<String>,
    mistakes: Vec<String>,
    expert: String,
}

/// Ask the model about one answer. Any failure is an error the caller falls back from.
pub async fn assess(
    client: &LlmClient,
    home: &Path,
    question: &str,
    answer: &str,
    reference: Option<&Entry>,
    lang: Lang,
) -> Result<Assessment, LlmError> {
    let (system, user) = render(home, question, answer, reference, lang)?;
    let messages: Vec<ChatCompletionRequestMessage> = vec![
        ChatCompletionRequestSystemMessage::from(system).into(),
        ChatCompletionRequestUserMessage::from(user).into(),
    ];
    let mut request = CreateChatCompletionRequest {
        messages,
        temperature: Some(0.0),
        max_completion_tokens: Some(MAX_TOKENS),
        ..Default::default()
    };
    let reply = if client.schema_supported() {
        request.response_format = Some(ResponseFormat::JsonSchema { json_schema: schema() });
        match client.chat(request.clone()).await {
            // Servers without structured output refuse the field with a 400 (or 422): once is
            // enough to know, the rest go without it and rely on extraction.
            Err(LlmError::Http { status: 400 | 422, .. }) => {
                client.schema_unsupported();
                request.response_format = None;
                client.chat(request).await?
            }
            other => other?,
        }
    } else {
        client.chat(request).await?
    };
    if let Some(r) = reply.refusal {
        return Err(LlmError::Refused(r));
    }
    let text = reply.content.ok_or_else(|| LlmError::Malformed("the reply is empty".into()))?;
    let v = extract_object(&text).ok_or_else(|| LlmError::Malformed("no JSON object in the reply".into()))?;
    read(&v, answer, lang)
}

fn render(
    home: &Path,
    question: &str,
    answer: &str,
    reference: Option<&Entry>,
    lang: Lang,
) -> Result<(String, String), LlmError> {
    let language_name = match lang {
        Lang::Zh => "Simplified Chinese (简体中文)",
        Lang::En => "English",
    };
    let reference = reference.map(|e| RefView {
        id: e.id.clone(),
        key_points: e.key_points.iter().map(|k| k.point_in(lang).to_string()).collect(),
        mistakes: e.common_mistakes.iter().map(|m| m.mistake_in(lang).to_string()).collect(),
        expert: e.expert_in(lang).chars().take(EXPERT_CHARS).collect(),
    });
    let system = prompts::render(home, "assess.system.j2", json!({ "language_name": language_name }))
        .map_err(|e| LlmError::Settings(e.to_string()))?;
    let user = prompts::render(
        home,
        "assess.user.j2",
        json!({ "question": question, "answer": answer, "reference": reference }),
    )
    .map_err(|e| LlmError::Settings(e.to_string()))?;
    Ok((system, user))
}

fn schema() -> ResponseFormatJsonSchema {
    let score = json!({"type": "integer", "minimum": 0, "maximum": 100});
    ResponseFormatJsonSchema {
        description: Some("evidence, feedback and four scores for one interview answer".into()),
        name: "answer_assessment".into(),
        schema: json!({
            "type": "object",
            "properties": {
                "evidence": {"type": "array", "items": {"type": "string"}},
                "feedback": {"type": "string"},
                "scores": {
                    "type": "object",
                    "properties": {"completeness": score, "depth": score, "accuracy": score, "practicality": score},
                    "required": ["completeness", "depth", "accuracy", "practicality"],
                    "additionalProperties": false
                }
            },
            "required": ["evidence", "feedback", "scores"],
            "additionalProperties": false
        }),
        strict: Some(true),
    }
}

/// Check and keep what the model said.
pub fn read(v: &Value, answer: &str, lang: Lang) -> Result<Assessment, LlmError> {
    let quotes: Vec<String> = match v.get("evidence") {
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|q| match q {
                Value::String(s) => Some(s.clone()),
                // {"quote": "..."} is a common variation.
                Value::Object(o) => o.get("quote").and_then(Value::as_str).map(str::to_string),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    let (evidence, dropped_quotes) = verify_quotes(&quotes, answer);
    let feedback = v.get("feedback").and_then(Value::as_str).map(|s| s.trim().to_string()).filter(|s| {
        let least = if lang == Lang::Zh { MIN_FEEDBACK_ZH } else { MIN_FEEDBACK_EN };
        s.chars().filter(|c| c.is_alphanumeric()).count() >= least && speaks(s, lang)
    });
    let scores = v.get("scores").and_then(|s| {
        Some(ModelScores {
            completeness: score(s.get("completeness")?)?,
            depth: score(s.get("depth")?)?,
            accuracy: score(s.get("accuracy")?)?,
            practicality: score(s.get("practicality")?)?,
        })
    });
    if scores.is_none() && feedback.is_none() && evidence.is_empty() {
        return Err(LlmError::Malformed("the JSON has none of evidence, feedback or scores".into()));
    }
    Ok(Assessment { evidence, dropped_quotes, feedback, scores })
}

/// A score as the model may write it (80, 80.0, "80"); outside 0..=100 it is not a score.
fn score(v: &Value) -> Option<u32> {
    let x = match v {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => s.trim().parse().ok()?,
        _ => return None,
    };
    (0.0..=100.0).contains(&x).then(|| x.round() as u32)
}

/// Keep the quotes found verbatim in the answer, whitespace aside; count the others.
pub fn verify_quotes(quotes: &[String], answer: &str) -> (Vec<String>, usize) {
    let hay = squeeze(answer);
    let mut kept: Vec<String> = Vec::new();
    let mut dropped = 0;
    for q in quotes {
        let q = q.trim().trim_matches(|c| matches!(c, '"' | '“' | '”' | '「' | '」')).trim();
        let needle = squeeze(q);
        if needle.chars().count() >= MIN_QUOTE_CHARS && hay.contains(&needle) {
            if kept.len() < MAX_QUOTES && !kept.iter().any(|k| squeeze(k) == needle) {
                kept.push(q.split_whitespace().collect::<Vec<_>>().join(" "));
            }
        } else {
            dropped += 1;
        }
    }
    (kept, dropped)
}

fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Feedback in the wrong language is not shown: the report speaks the interview's language.
fn speaks(s: &str, lang: Lang) -> bool {
    let letters = s.chars().filter(|c| c.is_alphabetic()).count().max(1);
    let cjk = s.chars().filter(|c| crate::lang::is_cjk(*c)).count();
    match lang {
        Lang::Zh => cjk * 3 >= letters,
        Lang::En => cjk * 10 < letters,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_checked_modulo_whitespace() {
        let answer = "We cached embeddings in Redis,\n  keyed by content hash. 我们用了 混合检索。";
        let quotes = vec![
            "cached embeddings in Redis, keyed by content hash".to_string(),
            "我们用了混合检索".to_string(),
            "we used a vector database with 99.9% recall".to_string(),
            "Redis".to_string(),
        ];
        let (kept, dropped) = verify_quotes(&quotes, answer);
        assert_eq!(kept, vec!["cached embeddings in Redis, keyed by content hash", "我们用了混合检索"]);
        assert_eq!(dropped, 2);
    }

    #[test]
    fn read_checks_scores_and_language() {
        let v = json!({"evidence": [{"quote": "keyed by content hash"}], "feedback": "Good answer; add numbers.",
                       "scores": {"completeness": "80", "depth": 70.4, "accuracy": 90, "practicality": 150}});
        let a = read(&v, "keyed by content hash", Lang::En).unwrap();
        assert_eq!(a.evidence.len(), 1);
        assert_eq!(a.scores, None, "150 is not a score");
        assert!(a.feedback.is_some());
        let a = read(&v, "keyed by content hash", Lang::Zh).unwrap();
        assert_eq!(a.feedback, None, "English feedback for a Chinese interview is not shown");
        assert!(read(&json!({"verdict": "good"}), "x", Lang::En).is_err());
    }
}

//! All four routing layers: name and triggers (`skills::discovery`), meaning (the knowledge base's
//! embedder on the skills' descriptions), and the model choosing among several candidates.

use async_openai::types::chat::{ChatCompletionRequestUserMessage, CreateChatCompletionRequest};
use serde_json::json;

use super::Agent;
use crate::skills::discovery::{self, Layer, Route};

pub(super) async fn route(agent: &Agent, request: &str, file: Option<&str>) -> Route {
    let set = &agent.skills;
    let route = match discovery::by_name_or_trigger(set, request, file) {
        Some(r) => r,
        None => match similarities(agent, request).await {
            Some(sims) => discovery::by_meaning(set, &sims),
            None => Route::Free,
        },
    };
    match (route, &agent.llm) {
        (Route::Candidates(c), Some(_)) => match model_choice(agent, request, &c).await {
            Some(name) => Route::Skill { name, via: Layer::Model },
            None => Route::Candidates(c),
        },
        (r, _) => r,
    }
}

/// Cosine similarity of the request to each skill's description, or None without the embedder.
async fn similarities(agent: &Agent, request: &str) -> Option<Vec<f32>> {
    let ctx = agent.ctx.clone();
    let request = request.to_string();
    let descriptions: Vec<String> = agent.skills.skills.iter().map(|s| s.manifest.description.clone()).collect();
    ctx.clone()
        .blocking(move || {
            let kb = ctx.kb()?;
            let Some(v) = &kb.vectors else { return Ok(None) };
            let q = v.query_vector(&request).map_err(crate::kb::KbError::from)?;
            let texts: Vec<&str> = descriptions.iter().map(String::as_str).collect();
            let d = v.passages(&texts, &ctx.cancel).map_err(crate::kb::KbError::from)?;
            Ok(Some(d.iter().map(|p| crate::kb::embed::dot(&q, p)).collect()))
        })
        .await
        .ok()
        .flatten()
}

/// Ask the model to pick one of `candidates`; None when it cannot or names none of them.
async fn model_choice(agent: &Agent, request: &str, candidates: &[String]) -> Option<String> {
    let llm = agent.llm.as_ref()?;
    let listed: Vec<_> = candidates
        .iter()
        .filter_map(|n| agent.skills.get(n))
        .map(|s| json!({"name": s.name(), "description": s.manifest.description}))
        .collect();
    let prompt = crate::llm::prompts::render(
        &agent.ctx.config.home,
        "route.user.j2",
        json!({"request": request, "candidates": listed}),
    )
    .ok()?;
    let req = CreateChatCompletionRequest {
        messages: vec![ChatCompletionRequestUserMessage::from(prompt).into()],
        temperature: Some(0.0),
        max_completion_tokens: Some(50),
        ..Default::default()
    };
    let reply = llm.chat(req).await.ok()?;
    let v = crate::llm::json::extract_object(reply.content.as_deref()?)?;
    let name = v.get("skill")?.as_str()?.trim().to_string();
    candidates.contains(&name).then_some(name)
}

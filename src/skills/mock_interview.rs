//! `mock-interview`: the entry point of practice. From a request ("quiz me on RAG", "模拟面试
//! 记忆"), a practice set drawn from the knowledge base: the dimension the request names (all when
//! it names none), easy to hard. The interactive session builds on this.

use serde::Serialize;

use crate::kb::entry::Difficulty;
use crate::kb::Lang;
use crate::tools::{ToolContext, ToolError};

pub const NAME: &str = "mock-interview";
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
    let lower = request.to_lowercase();
    // The dimension the request names, by id ("rag", "multi-agent") or by either language's name.
    let dimension = kb.kb.manifest.dimensions.iter().find(|d| {
        let id_words = d.id.replace('-', " ");
        lower.contains(&d.id) && d.id.len() > 2
            || lower.contains(&id_words) && id_words.len() > 3
            || lower.contains(&d.name_en.to_lowercase())
            || request.contains(&d.name_zh)
    });
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

/// "give me 3 questions", "出 3 道题".
fn requested_count(request: &str) -> Option<usize> {
    request.split(|c: char| !c.is_ascii_digit()).find(|s| !s.is_empty()).and_then(|s| s.parse().ok())
}

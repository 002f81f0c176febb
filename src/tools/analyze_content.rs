//! `analyze_content`: score one answer against its reference with the offline rubric; with a
//! language model configured, the model adds checked evidence quotes, feedback and a second opinion
//! on the four dimensions, blended by `scoring::blend`'s bounded rule. A model that fails leaves
//! the rubric's scores and a note.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{ErrorCode, Tool, ToolContext, ToolError};
use crate::kb::search::{KbSearch, SearchHit};
use crate::kb::Entry;
use crate::lang::Lang;
use crate::report::model::Reference;
use crate::scoring::content::ContentScore;

pub struct AnalyzeContent;

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeContentArgs {
    /// The question that was asked.
    pub question: String,
    /// The candidate's answer.
    pub answer: String,
    /// Knowledge-base entry to score against; searched for from the question when omitted.
    #[serde(default)]
    pub reference_id: Option<String>,
    /// Language of the feedback; from the question when omitted.
    #[serde(default)]
    pub lang: Option<Lang>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct AnalyzeContentOutput {
    pub content: ContentScore,
    /// The entry the answer was scored against: the given one, or of the found ones the first the
    /// answer addresses; none when the answer fits the question but none of the entries found.
    pub reference_id: Option<String>,
    /// Relevant entries found for the question (empty when `reference_id` was given).
    pub references: Vec<SearchHit>,
    /// What a report cites: the entry scored against first, then the other relevant ones found,
    /// each question in the feedback's language; empty when the answer was scored without one.
    pub cited: Vec<Reference>,
    /// The question's dimension: the reference's, or "behavioral" for a behavioral question the
    /// base has no entry for.
    pub dimension: Option<String>,
}

impl Tool for AnalyzeContent {
    const NAME: &'static str = "analyze_content";
    const SETUP: super::Setup = super::Setup::Scoring;
    const DESCRIPTION: &'static str = "Score an interview answer (relevance first, then completeness, depth, accuracy, practicality, 0-100 each, with details, missing key points, misconceptions and an improvement) against the best reference answer in the knowledge base. Deterministic.";
    type Args = AnalyzeContentArgs;
    type Output = AnalyzeContentOutput;

    async fn execute(&self, args: AnalyzeContentArgs, ctx: &ToolContext) -> Result<AnalyzeContentOutput, ToolError> {
        let lang = args.lang;
        let started = std::time::Instant::now();
        let (question, answer) = (args.question.clone(), args.answer.clone());
        let c = ctx.clone();
        let (mut out, entry, lang) = ctx.blocking(move || rubric(&c, args, lang)).await?;
        if let Some(llm) = &ctx.llm {
            // The model's share of the call's time limit: what is left of it, less a margin for
            // the report, so a slow model ends in a fallback, never in a failed diagnosis.
            let budget = ctx.timeout.saturating_sub(started.elapsed()).mul_f64(0.8);
            let home = ctx.config.home.clone();
            let asked = crate::llm::assess::assess(llm, &home, &question, &answer, entry.as_ref(), lang);
            let result = tokio::select! {
                r = tokio::time::timeout(budget, asked) => r.unwrap_or(Err(crate::llm::LlmError::Timeout(budget.as_secs()))),
                _ = ctx.cancel.cancelled() => Err(crate::llm::LlmError::Cancelled),
            };
            match result {
                Ok(a) => {
                    if let Some(s) = &a.scores {
                        crate::scoring::blend::apply(&mut out.content, s, lang);
                    }
                    if a.dropped_quotes > 0 {
                        tracing::info!("{} quote(s) the model gave are not in the answer: dropped", a.dropped_quotes);
                    }
                    out.content.evidence = a.evidence;
                    out.content.feedback = a.feedback;
                    out.content.analyzer = format!("llm:{}", llm.model());
                }
                Err(e) => {
                    tracing::warn!("model-assisted analysis fell back to the rubric: {e}");
                    out.content.note = Some(crate::scoring::text::Texts(lang).model_fallback(&e.short()));
                }
            }
        }
        Ok(out)
    }
}

/// The deterministic part: search, choose the reference, score with the rubric.
fn rubric(
    ctx: &ToolContext,
    args: AnalyzeContentArgs,
    lang: Option<crate::lang::Lang>,
) -> Result<(AnalyzeContentOutput, Option<crate::kb::Entry>, crate::lang::Lang), ToolError> {
    let kb = ctx.kb()?;
    let given = match args.reference_id.as_deref() {
        Some(id) => Some(kb.position(id).ok_or_else(|| {
            ToolError::new(
                ErrorCode::NotFound,
                format!("no knowledge-base entry {id:?}"),
                "use an id returned by query_knowledge_base, or omit reference_id",
            )
        })?),
        None => None,
    };
    let lang = lang.unwrap_or_else(|| crate::lang::of_question(&args.question, &args.answer));
    // A reference the caller chose is used as given; found ones let the answer pick.
    let (references, chosen, content) = match given {
        Some(i) => (
            Vec::new(),
            Some(i),
            crate::scoring::assess(&kb, &args.question, &args.answer, Some(i), lang, &ctx.cancel)?,
        ),
        None => crate::scoring::assess_question(&kb, &args.question, &args.answer, lang, &ctx.cancel)?,
    };
    let entry = chosen.and_then(|i| kb.kb.entries.get(i)).cloned();
    let reference_id = entry.as_ref().map(|e| e.id.clone());
    let cited = cited(&kb, &references, given.map(|i| &kb.kb.entries[i]).or(entry.as_ref()), lang);
    // A question not scored on content belongs to no dimension's average.
    let dimension = cited.first().filter(|_| content.kind.is_none()).map(|r| r.dimension.clone()).or_else(|| {
        (content.kind.is_none() && crate::scoring::asks_story::asks_story(&kb, &args.question))
            .then(|| "behavioral".to_string())
    });
    Ok((AnalyzeContentOutput { content, reference_id, references, cited, dimension }, entry, lang))
}

/// The references a report shows: the chosen entry first, then the others found; none when the
/// answer was scored without a reference (nothing found fits it).
fn cited(kb: &KbSearch, found: &[SearchHit], chosen: Option<&Entry>, lang: Lang) -> Vec<Reference> {
    let Some(chosen) = chosen else { return Vec::new() };
    let mut hits: Vec<Reference> = found.iter().map(Reference::from).collect();
    match hits.iter().position(|h| h.id == chosen.id) {
        Some(at) => {
            let first = hits.remove(at);
            hits.insert(0, first);
        }
        None => hits.insert(
            0,
            Reference {
                id: chosen.id.clone(),
                question: String::new(),
                dimension: chosen.dimension.clone(),
                score: 0.0,
            },
        ),
    }
    for r in hits.iter_mut() {
        if let Some(e) = kb.kb.get(&r.id) {
            r.question = e.question_in(lang).to_string();
        }
    }
    hits
}

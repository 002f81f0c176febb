//! `diagnose-transcript`: parse -> speakers -> split -> search -> analyze -> report.

use std::time::Instant;

use crate::kb::search::KbSearch;
use crate::kb::Lang;
use crate::report::model::{Habits, QuestionReport, Reference, Report, SourceInfo};
use crate::tools::analyze_content::{AnalyzeContent, AnalyzeContentArgs};
use crate::tools::analyze_speech::{AnalyzeSpeech, AnalyzeSpeechArgs};
use crate::tools::generate_report::{GenerateReport, GenerateReportArgs, ReportFormat};
use crate::tools::{call, ToolContext, ToolError};
use crate::transcript::pairs::QaPair;
use crate::transcript::roles::RoleHints;

pub const NAME: &str = "diagnose-transcript";

/// Diagnose the transcript at `path` (inside the context's data root). `shown_path` is what the
/// report names as its source.
pub async fn run(
    ctx: &ToolContext,
    path: &str,
    shown_path: &str,
    format: ReportFormat,
    lang: Option<Lang>,
    hints: &RoleHints,
) -> Result<(Report, String), ToolError> {
    let started = Instant::now();
    let result = steps(ctx, path, shown_path, format, lang, hints, started).await;
    super::audit(ctx, NAME, started, path, &result);
    result
}

async fn steps(
    ctx: &ToolContext,
    path: &str,
    shown_path: &str,
    format: ReportFormat,
    lang: Option<Lang>,
    hints: &RoleHints,
    started: Instant,
) -> Result<(Report, String), ToolError> {
    let kb = ctx.kb()?;
    let (split, transcript) = super::split_transcript::run(ctx, path, hints).await?;
    let questions = question_reports(ctx, &kb, &split.pairs, lang).await?;
    let duration_s = transcript
        .turns
        .iter()
        .filter_map(|t| t.end_s.or(t.start_s))
        .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))));
    let source = SourceInfo {
        path: shown_path.to_string(),
        kind: "transcript".into(),
        format: split.format.as_str().into(),
        language: split.language.as_str().into(),
        duration_s,
    };
    let out = call(
        &GenerateReport,
        GenerateReportArgs {
            source,
            speakers: split.speakers,
            questions,
            format: Some(format),
            elapsed_ms: Some(started.elapsed().as_millis() as u64),
            lang: lang.map(|l| lang_code(l).to_string()),
            timeline: None,
        },
        ctx,
    )
    .await?;
    let mut report = out.report;
    let digest = if ctx.config.history { super::history::digest_file(&ctx.resolve(path)?)? } else { String::new() };
    let rendered = super::history::remember(ctx, &mut report, "diagnosis", &digest, format)?.unwrap_or(out.rendered);
    Ok((report, rendered))
}

/// Every pair's report, in order. With a model, up to its concurrency limit of questions are in
/// flight at once (each waits on the model far longer than it computes); without one, one at a
/// time, as the rubric alone keeps the cores busy.
pub async fn question_reports(
    ctx: &ToolContext,
    kb: &KbSearch,
    pairs: &[QaPair],
    lang: Option<Lang>,
) -> Result<Vec<QuestionReport>, ToolError> {
    use futures::{StreamExt, TryStreamExt};
    let width = ctx.llm.as_ref().map_or(1, |_| ctx.config.llm.concurrency.max(1));
    futures::stream::iter(pairs.iter().map(|p| question_report(ctx, kb, p, lang))).buffered(width).try_collect().await
}

/// Score one pair's content: search the base once, analyse, and keep the references the answer
/// was scored against first. Shared with `diagnose-audio`.
pub async fn question_report(
    ctx: &ToolContext,
    kb: &KbSearch,
    pair: &QaPair,
    lang: Option<Lang>,
) -> Result<QuestionReport, ToolError> {
    // Each question's feedback speaks that question's language (a mixed interview switches).
    let q_lang = lang.unwrap_or_else(|| crate::scoring::lang_of(&pair.question, &pair.answer));
    let analysis = call(
        &AnalyzeContent,
        AnalyzeContentArgs {
            question: pair.question.clone(),
            answer: pair.answer.clone(),
            reference_id: None,
            lang: Some(lang_code(q_lang).into()),
        },
        ctx,
    )
    .await?;
    // The entries found for the question (searched once, by the analysis); the one the
    // answer was scored against leads; with none, nothing found fits.
    let mut relevant = analysis.references.clone();
    match &analysis.reference_id {
        Some(id) => {
            if let Some(at) = relevant.iter().position(|h| &h.id == id) {
                let chosen = relevant.remove(at);
                relevant.insert(0, chosen);
            }
        }
        None => relevant.clear(),
    }
    let references = relevant
        .iter()
        .map(|h| {
            let mut r = Reference::from(h);
            if let Some(e) = kb.kb.get(&h.id) {
                r.question = e.question_in(q_lang).to_string();
            }
            r
        })
        .collect();
    let habits = call(
        &AnalyzeSpeech,
        AnalyzeSpeechArgs {
            text: Some(pair.answer.clone()),
            words: Vec::new(),
            speech: Vec::new(),
            filled_pauses: Vec::new(),
            lang: Some(lang_code(q_lang).into()),
            f0_hz: Vec::new(),
            level_db: Vec::new(),
            frames_from_s: 0.0,
        },
        ctx,
    )
    .await?;
    Ok(QuestionReport {
        pair: pair.clone(),
        // A behavioral question the base has no entry for is still a behavioral question.
        dimension: relevant
            .first()
            .map(|h| h.dimension.clone())
            .or_else(|| crate::scoring::star::is_behavioral_question(&pair.question).then(|| "behavioral".to_string())),
        references,
        content: analysis.content,
        speech: None,
        habits: Some(Habits { fillers: habits.fillers, hedges: habits.hedges, repeats: habits.repeats }),
    })
}

pub fn lang_code(l: Lang) -> &'static str {
    match l {
        Lang::Zh => "zh",
        Lang::En => "en",
    }
}

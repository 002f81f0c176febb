//! `diagnose-transcript`: parse -> speakers -> split -> search -> analyze -> report.

use std::time::Instant;

use crate::lang::Lang;
use crate::report::model::{Habits, QuestionReport, Report, SourceInfo};
use crate::report::ReportFormat;
use crate::tools::analyze_content::{AnalyzeContent, AnalyzeContentArgs};
use crate::tools::analyze_speech::{AnalyzeSpeech, AnalyzeSpeechArgs};
use crate::tools::generate_report::{GenerateReport, GenerateReportArgs, HistoryArgs, SessionKind};
use crate::tools::{call, ToolContext, ToolError};
use crate::transcript::pairs::QaPair;
use crate::transcript::roles::RoleHints;

pub const NAME: &str = "diagnose-transcript";

/// The skill, as the agent runs it from a request that names a file.
pub struct DiagnoseTranscript;

impl super::builtin::BuiltinSkill for DiagnoseTranscript {
    const NAME: &'static str = NAME;
    const MANIFEST: &'static str = include_str!("../../skills/diagnose-transcript/SKILL.md");
    async fn run(
        &self,
        ctx: &ToolContext,
        req: &super::builtin::SkillRequest<'_>,
    ) -> Result<super::builtin::SkillOutput, super::builtin::SkillError> {
        super::builtin::diagnose_file(ctx, NAME, req).await
    }
}

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
    let (split, transcript) = super::split_transcript::run(ctx, path, hints).await?;
    let questions = question_reports(ctx, &split.pairs, lang).await?;
    let duration_s = transcript
        .turns
        .iter()
        .filter_map(|t| t.end_s.or(t.start_s))
        .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))));
    let source = SourceInfo {
        path: shown_path.to_string(),
        kind: "transcript".into(),
        format: split.format.as_str().into(),
        language: split.language,
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
            lang,
            timeline: None,
            history: Some(diagnosis_history(path)),
        },
        ctx,
    )
    .await?;
    Ok((out.report, out.rendered))
}

/// A diagnosis of the file at `path` goes into the history, keyed by the file's sha256.
pub fn diagnosis_history(path: &str) -> HistoryArgs {
    HistoryArgs { kind: SessionKind::Diagnosis, digest: None, input_path: Some(path.to_string()) }
}

/// Every pair's report, in order. With a model, up to its concurrency limit of questions are in
/// flight at once (each waits on the model far longer than it computes); without one, one at a
/// time, as the rubric alone keeps the cores busy.
pub async fn question_reports(
    ctx: &ToolContext,
    pairs: &[QaPair],
    lang: Option<Lang>,
) -> Result<Vec<QuestionReport>, ToolError> {
    use futures::stream::{FuturesOrdered, StreamExt};
    let width = ctx.llm.as_ref().map_or(1, |_| ctx.config.llm.concurrency.max(1));
    // A queue filled in a loop rather than a stream over a closure: the closure's lifetimes make
    // the future too general for the compiler to prove it `Send` (rust-lang/rust#102211).
    let mut out = Vec::with_capacity(pairs.len());
    let mut running = FuturesOrdered::new();
    for p in pairs {
        if running.len() >= width {
            if let Some(r) = running.next().await {
                out.push(r?);
            }
        }
        running.push_back(question_report(ctx, p, lang));
    }
    while let Some(r) = running.next().await {
        out.push(r?);
    }
    Ok(out)
}

/// Score one pair's content (the analysis searches the base once and cites what it scored
/// against) and its verbal habits. Shared with `diagnose-audio`.
pub async fn question_report(
    ctx: &ToolContext,
    pair: &QaPair,
    lang: Option<Lang>,
) -> Result<QuestionReport, ToolError> {
    // Each question's feedback speaks that question's language (a mixed interview switches).
    let q_lang = lang.unwrap_or_else(|| crate::lang::of_question(&pair.question, &pair.answer));
    let args = AnalyzeContentArgs {
        question: pair.question.clone(),
        answer: pair.answer.clone(),
        reference_id: None,
        lang: Some(q_lang),
    };
    let analysis = call(&AnalyzeContent, args, ctx).await?;
    let habits = call(
        &AnalyzeSpeech,
        AnalyzeSpeechArgs { text: Some(pair.answer.clone()), lang: Some(q_lang), ..Default::default() },
        ctx,
    )
    .await?;
    Ok(QuestionReport {
        pair: pair.clone(),
        dimension: analysis.dimension,
        references: analysis.cited,
        content: analysis.content,
        speech: None,
        habits: Some(Habits { fillers: habits.fillers, hedges: habits.hedges, repeats: habits.repeats }),
    })
}

//! `generate_report`: aggregate per-question results into the report and render it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Tool, ToolContext, ToolError};
use crate::report::model::{Meta, QuestionReport, Report, SourceInfo, Timeline, SCHEMA_VERSION};
use crate::report::{build, render, OutputFormat};
use crate::transcript::roles::Speaker;

pub struct GenerateReport;

#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReportFormat {
    Md,
    Html,
    Json,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GenerateReportArgs {
    pub source: SourceInfo,
    pub speakers: Vec<Speaker>,
    /// Per-question results: question, answer, references and the content score.
    pub questions: Vec<QuestionReport>,
    /// Output format (default md).
    #[serde(default)]
    pub format: Option<ReportFormat>,
    /// Milliseconds spent so far, recorded in the report's meta.
    #[serde(default)]
    pub elapsed_ms: Option<u64>,
    /// Language of the headings and summary, "zh" or "en"; the candidate's majority language when
    /// omitted.
    #[serde(default)]
    pub lang: Option<String>,
    /// Recordings: who spoke when, for the HTML timeline.
    #[serde(default)]
    pub timeline: Option<Timeline>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct GenerateReportOutput {
    pub report: Report,
    pub rendered: String,
}

impl Tool for GenerateReport {
    const NAME: &'static str = "generate_report";
    const SETUP: super::Setup = super::Setup::Search;
    const DESCRIPTION: &'static str = "Build the diagnosis report (summary, strengths, weaknesses, three-horizon improvement plan, computed deterministically from per-question scores) and render it as Markdown, self-contained HTML or JSON.";
    type Args = GenerateReportArgs;
    type Output = GenerateReportOutput;

    async fn execute(&self, args: GenerateReportArgs, ctx: &ToolContext) -> Result<GenerateReportOutput, ToolError> {
        // Blocking work off the async workers, so the call's time limit can fire.
        let c = ctx.clone();
        ctx.blocking(move || run(&c, args)).await
    }
}

fn run(ctx: &ToolContext, args: GenerateReportArgs) -> Result<GenerateReportOutput, ToolError> {
    let kb = ctx.kb()?;
    let zh = match args.lang.as_deref() {
        Some(l) => l == "zh",
        None => majority_is_chinese(&args.questions).unwrap_or(args.source.language == "zh"),
    };
    let summary = build::summary(&args.questions, &kb.kb, zh, build::speech_avg(&args.questions));
    let improvement_plan = build::plan(&args.questions, &kb.kb, zh);
    // `llm:MODEL` where the model contributed to any question.
    let analyzer = args
        .questions
        .iter()
        .map(|q| q.content.analyzer.clone())
        .find(|a| a.starts_with("llm:"))
        .unwrap_or_else(|| "rubric".to_string());
    let report = Report {
        schema_version: SCHEMA_VERSION,
        source: args.source,
        speakers: args.speakers,
        summary,
        questions: args.questions,
        improvement_plan,
        compared_to_last: None,
        trend: Vec::new(),
        timeline: args.timeline,
        meta: Meta {
            generated_at: crate::audit::now_rfc3339(),
            lang: if zh { "zh" } else { "en" }.into(),
            analyzer,
            kb_entries: kb.kb.entries.len(),
            elapsed_ms: args.elapsed_ms.unwrap_or(0),
        },
    };
    let rendered = render_report(ctx, &report, args.format.unwrap_or(ReportFormat::Md))?;
    Ok(GenerateReportOutput { report, rendered })
}

/// Whether the candidate spoke mostly Chinese: Chinese characters against English words (one word
/// weighing 1.5 characters, as in language detection) over every answer.
fn majority_is_chinese(questions: &[QuestionReport]) -> Option<bool> {
    let (cjk, words) = questions
        .iter()
        .map(|q| crate::transcript::lang::counts(&q.pair.answer))
        .fold((0usize, 0usize), |(c, w), (c2, w2)| (c + c2, w + w2));
    (cjk + words > 0).then_some(cjk as f64 >= words as f64 * 1.5)
}

/// `report` rendered in `format` with the dimension names in its language: for this tool, and for
/// skills that change a report after it was built (history) or render it in several formats (batch).
pub fn render_report(ctx: &ToolContext, report: &Report, format: ReportFormat) -> Result<String, ToolError> {
    let kb = ctx.kb()?;
    let zh = report.meta.lang == "zh";
    let dims = kb
        .kb
        .manifest
        .dimensions
        .iter()
        .map(|d| (d.id.clone(), if zh { d.name_zh.clone() } else { d.name_en.clone() }))
        .collect();
    let format = match format {
        ReportFormat::Md => OutputFormat::Md,
        ReportFormat::Html => OutputFormat::Html,
        ReportFormat::Json => OutputFormat::Json,
    };
    render(report, format, &ctx.config.home.join("templates"), &dims)
        .map_err(|e| ToolError::input(e.to_string(), "fix or remove the template override in $IVD_HOME/templates"))
}

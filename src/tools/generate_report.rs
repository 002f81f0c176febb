//! `generate_report`: aggregate per-question results into the report, keep it in the profile's
//! history when asked, and render it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Tool, ToolContext, ToolError};
use crate::lang::Lang;
use crate::report::model::{Meta, QuestionReport, Report, SourceInfo, Timeline, SCHEMA_VERSION};
use crate::report::{build, ReportFormat};
use crate::transcript::roles::Speaker;

pub struct GenerateReport;

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
    /// Language of the headings and summary; the candidate's majority language when omitted.
    #[serde(default)]
    pub lang: Option<Lang>,
    /// Recordings: who spoke when, for the HTML timeline.
    #[serde(default)]
    pub timeline: Option<Timeline>,
    /// Keep the report in the profile's history (compared with the last session, given the
    /// trend); nothing is stored when omitted or when history is turned off.
    #[serde(default)]
    pub history: Option<HistoryArgs>,
}

/// How a report enters the history.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HistoryArgs {
    /// "diagnosis" or "mock".
    pub kind: SessionKind,
    /// The input's sha256, when the caller has it.
    #[serde(default)]
    pub digest: Option<String>,
    /// Or the input file (inside the data root), hashed here.
    #[serde(default)]
    pub input_path: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SessionKind {
    Diagnosis,
    Mock,
}

impl SessionKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SessionKind::Diagnosis => "diagnosis",
            SessionKind::Mock => "mock",
        }
    }
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct GenerateReportOutput {
    pub report: Report,
    pub rendered: String,
}

impl Tool for GenerateReport {
    const NAME: &'static str = "generate_report";
    const SETUP: super::Setup = super::Setup::Search;
    const DESCRIPTION: &'static str = "Build the diagnosis report (summary, strengths, weaknesses, three-horizon improvement plan, computed deterministically from per-question scores), optionally keep it in the profile's history, and render it as Markdown, self-contained HTML or JSON.";
    type Args = GenerateReportArgs;
    type Output = GenerateReportOutput;

    async fn execute(&self, args: GenerateReportArgs, ctx: &ToolContext) -> Result<GenerateReportOutput, ToolError> {
        // Blocking work (aggregation, SQLite, hashing, templates) off the async workers, so the
        // call's time limit can fire.
        let c = ctx.clone();
        ctx.blocking(move || run(&c, args)).await
    }
}

fn run(ctx: &ToolContext, args: GenerateReportArgs) -> Result<GenerateReportOutput, ToolError> {
    let kb = ctx.kb()?;
    let lang = args.lang.unwrap_or_else(|| majority(&args.questions).unwrap_or(args.source.language.main()));
    let zh = lang.is_zh();
    let summary = build::summary(&args.questions, &kb.kb, zh, build::speech_avg(&args.questions));
    let improvement_plan = build::plan(&args.questions, &kb.kb, zh);
    // `llm:MODEL` where the model contributed to any question.
    let analyzer = args
        .questions
        .iter()
        .map(|q| q.content.analyzer.clone())
        .find(|a| a.starts_with("llm:"))
        .unwrap_or_else(|| "rubric".to_string());
    let mut report = Report {
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
            lang,
            analyzer,
            kb_entries: kb.kb.entries.len(),
            elapsed_ms: args.elapsed_ms.unwrap_or(0),
        },
    };
    if let Some(h) = &args.history {
        remember(ctx, &mut report, h)?;
    }
    let rendered = super::render_report::render(ctx, &report, args.format.unwrap_or(ReportFormat::Md))?;
    Ok(GenerateReportOutput { report, rendered })
}

/// Keep the report in the history. A history that cannot be written is said on stderr, never a
/// reason to lose the diagnosis; an input that cannot be read is.
fn remember(ctx: &ToolContext, report: &mut Report, h: &HistoryArgs) -> Result<(), ToolError> {
    if !ctx.config.history {
        return Ok(());
    }
    let digest = match (&h.digest, &h.input_path) {
        (Some(d), _) => d.clone(),
        (None, Some(path)) => {
            let real = ctx.resolve(path)?;
            crate::digest::file(&real)
                .map_err(|e| ToolError::service(format!("cannot read {path}: {e}"), "check the file's permissions"))?
        }
        (None, None) => String::new(),
    };
    let stored = crate::store::Store::open(&ctx.config.home).and_then(|mut store| {
        crate::report::history::remember(&mut store, report, h.kind.as_str(), &ctx.config.profile, &digest)
    });
    if let Err(e) = stored {
        eprintln!("warning: the history was not updated: {e}");
    }
    Ok(())
}

/// The language the candidate spoke most, over every answer (see [`crate::lang::majority`]).
fn majority(questions: &[QuestionReport]) -> Option<Lang> {
    let all: Vec<&str> = questions.iter().map(|q| q.pair.answer.as_str()).collect();
    crate::lang::majority(&all.join("\n"))
}

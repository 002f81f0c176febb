//! `render_report`: a report (from `generate_report`) rendered again in another format, with the
//! dimension names in its language.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Tool, ToolContext, ToolError};
use crate::report::{render as render_with, Report, ReportFormat};

pub struct RenderReport;

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenderReportArgs {
    /// The report, as `generate_report` returned it.
    pub report: Report,
    pub format: ReportFormat,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct RenderReportOutput {
    pub rendered: String,
}

impl Tool for RenderReport {
    const NAME: &'static str = "render_report";
    const SETUP: super::Setup = super::Setup::Search;
    const DESCRIPTION: &'static str =
        "Render a report that generate_report built as Markdown, self-contained HTML or JSON, in the report's language.";
    type Args = RenderReportArgs;
    type Output = RenderReportOutput;

    async fn execute(&self, args: RenderReportArgs, ctx: &ToolContext) -> Result<RenderReportOutput, ToolError> {
        let c = ctx.clone();
        ctx.blocking(move || Ok(RenderReportOutput { rendered: render(&c, &args.report, args.format)? })).await
    }
}

/// `report` rendered in `format` with the dimension names in its language; shared with
/// `generate_report`.
pub fn render(ctx: &ToolContext, report: &Report, format: ReportFormat) -> Result<String, ToolError> {
    let kb = ctx.kb()?;
    let zh = report.meta.lang.is_zh();
    let dims = kb
        .kb
        .manifest
        .dimensions
        .iter()
        .map(|d| (d.id.clone(), if zh { d.name_zh.clone() } else { d.name_en.clone() }))
        .collect();
    render_with(report, format, &ctx.config.home.join("templates"), &dims)
        .map_err(|e| ToolError::input(e.to_string(), "fix or remove the template override in $IVD_HOME/templates"))
}

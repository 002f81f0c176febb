//! Rendering through minijinja templates kept as files in `prompts/` (compiled in), which a user
//! overrides by putting a file of the same name in `$IVD_HOME/templates/`.

use std::path::Path;

use minijinja::{context, AutoEscape, Environment};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::build::mean;
use super::charts;
use super::model::Report;

/// The built-in templates, by file name.
pub const TEMPLATES: &[(&str, &str)] = &[
    ("report.md.j2", include_str!("../../prompts/report.md.j2")),
    ("report.html.j2", include_str!("../../prompts/report.html.j2")),
];

/// The formats a report is written in: the one type from the command line (`--format`) through
/// the tools' arguments to the renderer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum ReportFormat {
    Md,
    Html,
    Json,
}

impl ReportFormat {
    /// The file extension, also the name `--format` takes.
    pub fn extension(self) -> &'static str {
        match self {
            ReportFormat::Md => "md",
            ReportFormat::Html => "html",
            ReportFormat::Json => "json",
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("template {name} failed: {message}; fix it or remove the override from {dir}")]
    Template { name: String, dir: String, message: String },
    #[error("cannot encode the report as JSON: {0}")]
    Json(String),
}

#[derive(Serialize)]
struct Labels {
    title: &'static str,
    overall: &'static str,
    content: &'static str,
    speech: &'static str,
    questions: &'static str,
    strengths: &'static str,
    weaknesses: &'static str,
    plan: &'static str,
    immediate: &'static str,
    short_term: &'static str,
    long_term: &'static str,
    question: &'static str,
    answer: &'static str,
    no_answer: &'static str,
    follow_up_of: &'static str,
    completeness: &'static str,
    depth: &'static str,
    accuracy: &'static str,
    practicality: &'static str,
    missing: &'static str,
    misconceptions: &'static str,
    improve: &'static str,
    progress: &'static str,
    since_last: &'static str,
    improved: &'static str,
    declined: &'static str,
    feedback: &'static str,
    evidence: &'static str,
    references: &'static str,
    no_reference: &'static str,
    speakers: &'static str,
    generated: &'static str,
    turns: &'static str,
    uncertain: &'static str,
    kb_entries: &'static str,
    band: &'static str,
    relevance: &'static str,
    star_missing: &'static str,
    interviewer: &'static str,
    candidate: &'static str,
    unknown: &'static str,
    scale: &'static str,
    timeline: &'static str,
    pace: &'static str,
    fillers: &'static str,
    pauses: &'static str,
    pitch: &'static str,
    volume: &'static str,
    hedges: &'static str,
    repeats: &'static str,
    long_pause: &'static str,
}

const EN: Labels = Labels {
    title: "Interview diagnosis",
    overall: "Overall",
    content: "Content",
    speech: "Delivery",
    questions: "Questions",
    strengths: "Strengths",
    weaknesses: "Weaknesses",
    plan: "Improvement plan",
    immediate: "Now",
    short_term: "This week",
    long_term: "Longer term",
    question: "Question",
    answer: "Answer",
    no_answer: "(no answer)",
    follow_up_of: "follow-up of",
    completeness: "Completeness",
    depth: "Depth",
    accuracy: "Accuracy",
    practicality: "Practicality",
    missing: "Missing key points",
    misconceptions: "Misconceptions",
    improve: "To improve",
    progress: "Progress over sessions",
    since_last: "Since the last session",
    improved: "improved",
    declined: "declined",
    feedback: "Feedback",
    evidence: "Evidence from the answer",
    references: "References",
    no_reference: "no relevant reference in the knowledge base",
    speakers: "Speakers",
    generated: "Generated",
    turns: "turns",
    uncertain: "role inferred, uncertain",
    kb_entries: "knowledge-base entries",
    band: "Band",
    relevance: "Relevance",
    star_missing: "STAR parts missing",
    interviewer: "interviewer",
    candidate: "candidate",
    unknown: "unknown",
    scale: "Scale: 85-100 expert level, 70-84 solid, 50-69 partial, 25-49 weak, 0-24 off-topic, no answer or too thin.",
    timeline: "Timeline",
    pace: "Pace",
    fillers: "Fillers",
    pauses: "Pauses",
    pitch: "Pitch",
    volume: "Volume",
    hedges: "Hedging",
    repeats: "Repeated",
    long_pause: "pause of 1 s or more",
};

const ZH: Labels = Labels {
    title: "面试诊断报告",
    overall: "总分",
    content: "内容",
    speech: "表达",
    questions: "问题",
    strengths: "优势",
    weaknesses: "不足",
    plan: "提升计划",
    immediate: "立即",
    short_term: "本周",
    long_term: "长期",
    question: "问题",
    answer: "回答",
    no_answer: "（未作答）",
    follow_up_of: "追问自",
    completeness: "完整性",
    depth: "深度",
    accuracy: "准确性",
    practicality: "实践性",
    missing: "缺失要点",
    misconceptions: "误区",
    improve: "改进建议",
    progress: "历次表现",
    since_last: "与上次相比",
    improved: "进步",
    declined: "退步",
    feedback: "点评",
    evidence: "回答中的依据",
    references: "参考条目",
    no_reference: "知识库中没有相关参考",
    speakers: "说话人",
    generated: "生成于",
    turns: "轮发言",
    uncertain: "角色为推断，把握不大",
    kb_entries: "条知识库条目",
    band: "档位",
    relevance: "切题度",
    star_missing: "STAR 缺失部分",
    interviewer: "面试官",
    candidate: "候选人",
    unknown: "未知",
    scale: "分档：85-100 专家水平，70-84 扎实，50-69 部分达标，25-49 薄弱，0-24 离题、未作答或过于单薄。",
    timeline: "时间线",
    pace: "语速",
    fillers: "填充词",
    pauses: "停顿",
    pitch: "音调",
    volume: "音量",
    hedges: "含糊用语",
    repeats: "重复",
    long_pause: "1 秒以上的停顿",
};

/// Render the report. `templates_dir` is where user overrides may live.
/// `dimension_names` maps a dimension id to its name in the report's language.
pub fn render(
    report: &Report,
    format: ReportFormat,
    templates_dir: &Path,
    dimension_names: &std::collections::BTreeMap<String, String>,
) -> Result<String, RenderError> {
    let name = match format {
        ReportFormat::Json => {
            return serde_json::to_string_pretty(report).map(|s| s + "\n").map_err(|e| RenderError::Json(e.to_string()))
        }
        ReportFormat::Md => "report.md.j2",
        ReportFormat::Html => "report.html.j2",
    };
    let mut env = Environment::new();
    env.set_auto_escape_callback(|n| if n.contains(".html") { AutoEscape::Html } else { AutoEscape::None });
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    let fail = |message: String| RenderError::Template {
        name: name.to_string(),
        dir: templates_dir.display().to_string(),
        message,
    };
    let source = match std::fs::read_to_string(templates_dir.join(name)) {
        Ok(user) => user,
        Err(_) => TEMPLATES.iter().find(|(n, _)| *n == name).map(|(_, s)| s.to_string()).unwrap_or_default(),
    };
    env.add_template_owned(name, source).map_err(|e| fail(format!("{e:#}")))?;
    let tmpl = env.get_template(name).map_err(|e| fail(format!("{e:#}")))?;
    let zh = report.meta.lang.is_zh();
    let labels = if zh { &ZH } else { &EN };
    let roles: std::collections::BTreeMap<&str, &str> =
        [("interviewer", labels.interviewer), ("candidate", labels.candidate), ("unknown", labels.unknown)]
            .into_iter()
            .collect();
    // Questions not scored on content (an introduction...) are in neither chart.
    let scored: Vec<&super::model::QuestionReport> =
        report.questions.iter().filter(|q| q.content.kind.is_none()).collect();
    let bars: Vec<(String, u32)> = scored.iter().map(|q| (format!("Q{}", q.pair.index), q.content.overall)).collect();
    let facet = |f: fn(&super::model::QuestionReport) -> u32| mean(scored.iter().map(|q| f(q)));
    let radar = vec![
        (labels.completeness.to_string(), facet(|q| q.content.completeness.score)),
        (labels.depth.to_string(), facet(|q| q.content.depth.score)),
        (labels.accuracy.to_string(), facet(|q| q.content.accuracy.score)),
        (labels.practicality.to_string(), facet(|q| q.content.practicality.score)),
    ];
    tmpl.render(context! {
        report => report,
        l => labels,
        roles => roles,
        dims => dimension_names,
        bars_svg => charts::bars(&bars),
        radar_svg => charts::radar(&radar),
        facets => radar,
        band => charts::band(report.summary.overall_score),
        trend_svg => (report.trend.len() >= 2).then(|| charts::trend(&report.trend, [labels.overall, labels.completeness, labels.depth, labels.accuracy, labels.practicality])),
        timeline_svg => report.timeline.as_ref().map(|t| charts::timeline(t, labels.interviewer, labels.candidate, labels.long_pause)),
    })
    .map_err(|e| fail(format!("{e:#}")))
}

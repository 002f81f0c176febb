//! The report, as `../shared/contracts/report.schema.json` defines it (version 1).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::kb::search::SearchHit;
use crate::scoring::content::ContentScore;
use crate::scoring::habits::Count;
use crate::scoring::speech::Pause;
use crate::transcript::pairs::QaPair;
use crate::transcript::roles::Speaker;

pub const SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Report {
    pub schema_version: u32,
    pub source: SourceInfo,
    pub speakers: Vec<Speaker>,
    pub summary: Summary,
    pub questions: Vec<QuestionReport>,
    pub improvement_plan: ImprovementPlan,
    pub compared_to_last: Option<Comparison>,
    pub meta: Meta,
    /// The profile's sessions so far, this one last (HTML draws them); absent without history.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trend: Vec<TrendPoint>,
    /// Recordings only: who spoke when and the long pauses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeline: Option<Timeline>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SourceInfo {
    pub path: String,
    /// "transcript" or "audio".
    pub kind: String,
    pub format: String,
    pub language: crate::lang::Mix,
    pub duration_s: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Summary {
    pub total_questions: usize,
    pub overall_score: u32,
    pub content_avg: u32,
    pub speech_avg: Option<u32>,
    pub top_strengths: Vec<String>,
    pub top_weaknesses: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Reference {
    pub id: String,
    pub question: String,
    pub dimension: String,
    pub score: f64,
}

impl From<&SearchHit> for Reference {
    fn from(h: &SearchHit) -> Reference {
        Reference { id: h.id.clone(), question: h.question.clone(), dimension: h.dimension.clone(), score: h.score }
    }
}

/// One question of the report: the pair as split from the transcript (its fields appear inline in
/// the JSON), the references found for it and its scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct QuestionReport {
    #[serde(flatten)]
    pub pair: QaPair,
    /// Dimension of the best reference; null when nothing relevant was found.
    pub dimension: Option<String>,
    pub references: Vec<Reference>,
    pub content: ContentScore,
    /// Delivery, from a recording (`scoring::speech::SpeechScore`); null for transcripts.
    pub speech: Option<serde_json::Value>,
    /// Verbal habits from the words alone (fillers, hedging, repeated phrases), for transcripts too.
    #[serde(default)]
    pub habits: Option<Habits>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Habits {
    pub fillers: Vec<Count>,
    pub hedges: Vec<Count>,
    pub repeats: Vec<Count>,
}

/// Who spoke when, for the HTML timeline of a recording.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Timeline {
    pub duration_s: f64,
    pub turns: Vec<TimelineTurn>,
    /// Silences of [`crate::scoring::speech::LONG_PAUSE_S`] or more.
    pub pauses: Vec<Pause>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TimelineTurn {
    pub speaker: String,
    pub role: String,
    pub start_s: f64,
    pub end_s: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
pub struct ImprovementPlan {
    pub immediate: Vec<String>,
    pub short_term: Vec<String>,
    pub long_term: Vec<String>,
}

pub use crate::store::history::TrendPoint;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Comparison {
    pub score_change: i64,
    /// Dimensions that rose by [`super::build::CHANGE_MIN`] or more, e.g. "completeness +12 (45 → 57)".
    pub improved: Vec<String>,
    pub declined: Vec<String>,
    /// The session compared with: its history id, time and overall.
    #[serde(default)]
    pub previous_id: i64,
    #[serde(default)]
    pub previous_at: String,
    #[serde(default)]
    pub previous_overall: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Meta {
    pub generated_at: String,
    /// The language the report's headings and summary speak: the candidate's majority language,
    /// or `--lang`. Each question's feedback follows that question's language.
    #[serde(default = "default_lang")]
    pub lang: crate::lang::Lang,
    pub analyzer: String,
    pub kb_entries: usize,
    pub elapsed_ms: u64,
}

/// Reports stored before `meta.lang` existed were English.
fn default_lang() -> crate::lang::Lang {
    crate::lang::Lang::En
}

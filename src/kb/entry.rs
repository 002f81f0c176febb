//! One knowledge-base entry, as written in `knowledge_base/<dimension>/<id>.toml`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
}

/// One rubric item: a point a complete answer makes, and the terms that show it was made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KeyPoint {
    pub point: String,
    pub keywords: Vec<String>,
}

/// A misconception interviewers hear, the phrases that betray it, and the correction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Mistake {
    pub mistake: String,
    pub signals: Vec<String>,
    #[serde(default)]
    pub correction: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub id: String,
    pub dimension: String,
    pub difficulty: Difficulty,
    #[serde(default)]
    pub tags: Vec<String>,
    pub question: String,
    pub question_en: String,
    #[serde(default)]
    pub paraphrases: Vec<String>,
    /// Held out of the search index: the queries of the self-evaluation.
    #[serde(default)]
    pub eval_paraphrases: Vec<String>,
    pub novice_answer: String,
    pub expert_answer: String,
    pub gap_analysis: String,
    #[serde(default)]
    pub follow_ups: Vec<String>,
    pub key_points: Vec<KeyPoint>,
    #[serde(default)]
    pub common_mistakes: Vec<Mistake>,
}

/// A dimension as the manifest lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Dimension {
    pub id: String,
    pub name_zh: String,
    pub name_en: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub version: u32,
    pub dimensions: Vec<Dimension>,
}

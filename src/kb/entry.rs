//! One knowledge-base entry, as written in `knowledge_base/<dimension>/<id>.toml`.

use crate::lang::Lang;
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
    /// The point in English; empty in a single-language (Chinese) base.
    #[serde(default)]
    pub point_en: String,
    /// English keywords (matched like `keywords`); the rubric uses both lists.
    #[serde(default)]
    pub keywords_en: Vec<String>,
}

/// A misconception interviewers hear, the phrases that betray it, and the correction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Mistake {
    pub mistake: String,
    pub signals: Vec<String>,
    #[serde(default)]
    pub correction: String,
    #[serde(default)]
    pub mistake_en: String,
    #[serde(default)]
    pub signals_en: Vec<String>,
    #[serde(default)]
    pub correction_en: String,
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
    /// The English side of the entry (see knowledge_base/README.md); empty in a Chinese-only base.
    #[serde(default)]
    pub expert_answer_en: String,
    #[serde(default)]
    pub novice_answer_en: String,
    #[serde(default)]
    pub gap_analysis_en: String,
    #[serde(default)]
    pub follow_ups_en: Vec<String>,
    /// Where an imported entry came from (`bank.csv:12`); empty for a hand-written entry. An
    /// imported entry may lack the novice answer, gap analysis and paraphrases.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
    /// The fields `ivd kb import` derived rather than read (e.g. `key_points` from the reference).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub derived: Vec<String>,
}

impl Entry {
    /// Whether the entry carries its English side.
    pub fn is_imported(&self) -> bool {
        !self.source.is_empty()
    }

    pub fn has_english(&self) -> bool {
        !self.expert_answer_en.trim().is_empty()
    }

    /// The question in a language.
    pub fn question_in(&self, lang: Lang) -> &str {
        match lang {
            Lang::En if !self.question_en.trim().is_empty() => &self.question_en,
            _ => &self.question,
        }
    }

    /// The expert answer in a language, falling back to the other one.
    pub fn expert_in(&self, lang: Lang) -> &str {
        pick(lang, &self.expert_answer, &self.expert_answer_en)
    }

    pub fn novice_in(&self, lang: Lang) -> &str {
        pick(lang, &self.novice_answer, &self.novice_answer_en)
    }

    pub fn gap_in(&self, lang: Lang) -> &str {
        pick(lang, &self.gap_analysis, &self.gap_analysis_en)
    }

    pub fn follow_ups_in(&self, lang: Lang) -> &[String] {
        match lang {
            Lang::En if !self.follow_ups_en.is_empty() => &self.follow_ups_en,
            _ => &self.follow_ups,
        }
    }
}

impl KeyPoint {
    pub fn point_in(&self, lang: Lang) -> &str {
        pick(lang, &self.point, &self.point_en)
    }

    /// Every keyword, both languages.
    pub fn all_keywords(&self) -> impl Iterator<Item = &String> {
        self.keywords.iter().chain(self.keywords_en.iter())
    }
}

impl Mistake {
    pub fn mistake_in(&self, lang: Lang) -> &str {
        pick(lang, &self.mistake, &self.mistake_en)
    }

    pub fn correction_in(&self, lang: Lang) -> &str {
        pick(lang, &self.correction, &self.correction_en)
    }

    pub fn all_signals(&self) -> impl Iterator<Item = &String> {
        self.signals.iter().chain(self.signals_en.iter())
    }
}

/// The English text when asked for and present, else the Chinese.
fn pick<'a>(lang: Lang, zh: &'a str, en: &'a str) -> &'a str {
    match lang {
        Lang::En if !en.trim().is_empty() => en,
        _ => zh,
    }
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

//! A mock interview as a state machine the command line drives: questions picked from the
//! knowledge base (dimensions, a difficulty mix, never what the profile saw in its last sessions,
//! weak dimensions favoured), each answer scored at once with a short verdict, follow-ups when an
//! answer is middling (at most two per question), and a final report like `diagnose`'s. The state
//! is plain data (serde), saved by the caller after every answer.

use serde::{Deserialize, Serialize};

use crate::kb::entry::Difficulty;
use crate::kb::KnowledgeBase;
use crate::lang::Lang;
use crate::report::model::{QuestionReport, Reference, Report, SourceInfo};
use crate::report::ReportFormat;
use crate::scoring::content::ContentScore;
use crate::tools::analyze_content::{AnalyzeContent, AnalyzeContentArgs};
use crate::tools::generate_report::{GenerateReport, GenerateReportArgs, HistoryArgs, SessionKind};
use crate::tools::{call, ToolContext, ToolError};
use crate::transcript::pairs::QaPair;

/// Easy/medium/hard shares per level (percent).
pub const LEVELS: &[(&str, [u32; 3])] = &[("junior", [60, 30, 10]), ("mid", [30, 50, 20]), ("senior", [10, 40, 50])];
/// A profile is not asked again what it was asked in this many of its latest sessions.
pub const NO_REPEAT_SESSIONS: usize = 5;
/// Answers scoring in [MIDDLING_LOW, MIDDLING_HIGH) get a follow-up: partial, worth digging into.
pub const MIDDLING_LOW: u32 = 35;
pub const MIDDLING_HIGH: u32 = 70;
pub const MAX_FOLLOW_UPS: usize = 2;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Planned {
    pub id: String,
    pub dimension: String,
    pub difficulty: String,
    pub question: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answered {
    pub question: String,
    pub answer: String,
    /// The planned question this belongs to (index into `questions`).
    pub of: usize,
    pub follow_up: bool,
    pub skipped: bool,
    pub elapsed_s: f64,
    pub content: Option<ContentScore>,
    /// Delivery, when the answer was a recording (`scoring::speech::SpeechScore`).
    #[serde(default)]
    pub speech: Option<serde_json::Value>,
    /// Taken again ([`MockState::retake`]): kept, but the later attempt is the one reported.
    #[serde(default)]
    pub retaken: bool,
    /// How many follow-ups had been asked for this question before this answer (a retake puts
    /// the count back).
    #[serde(default)]
    pub follow_ups_before: usize,
    /// The recording's file name, when the answer was spoken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recording: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MockState {
    pub lang: Lang,
    pub level: String,
    pub calm: bool,
    pub started_at: String,
    pub questions: Vec<Planned>,
    /// The planned question being asked.
    pub current: usize,
    /// The follow-up being asked for it, if any, and how many were asked.
    pub follow_up: Option<String>,
    pub follow_ups_asked: usize,
    pub answered: Vec<Answered>,
}

/// What is said after an answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    pub band: String,
    /// Hidden with `--calm`.
    pub score: Option<u32>,
    pub missing: Option<String>,
}

impl MockState {
    /// A session about to ask its first question.
    pub fn new(questions: Vec<Planned>, lang: Lang, level: &str, calm: bool) -> MockState {
        MockState {
            lang,
            level: level.to_string(),
            calm,
            started_at: crate::audit::now_rfc3339(),
            questions,
            current: 0,
            follow_up: None,
            follow_ups_asked: 0,
            answered: Vec::new(),
        }
    }

    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// The question (or follow-up) awaiting an answer; None when the interview is over.
    pub fn prompt(&self) -> Option<String> {
        let q = self.questions.get(self.current)?;
        Some(self.follow_up.clone().unwrap_or_else(|| q.question.clone()))
    }

    pub fn done(&self) -> bool {
        self.current >= self.questions.len()
    }

    fn advance(&mut self) {
        self.current += 1;
        self.follow_up = None;
        self.follow_ups_asked = 0;
    }

    /// Skip what is being asked.
    pub fn skip(&mut self, elapsed_s: f64) {
        if let Some(question) = self.prompt() {
            self.answered.push(Answered {
                question,
                answer: String::new(),
                of: self.current,
                follow_up: self.follow_up.is_some(),
                skipped: true,
                elapsed_s,
                content: None,
                speech: None,
                retaken: false,
                follow_ups_before: self.follow_ups_asked,
                recording: None,
            });
            self.advance();
        }
    }

    /// A nudge: the terms of the first key point of the current question, not the point itself.
    pub fn hint(&self, kb: &KnowledgeBase) -> Option<String> {
        let e = kb.get(&self.questions.get(self.current)?.id)?;
        let kp = e.key_points.first()?;
        let words: Vec<&str> = match self.lang() {
            Lang::Zh => kp.keywords.iter().take(4).map(String::as_str).collect(),
            Lang::En => kp.keywords_en.iter().chain(&kp.keywords).take(4).map(String::as_str).collect(),
        };
        (!words.is_empty()).then(|| words.join(", "))
    }

    /// The expert answer to the last planned question that was answered.
    pub fn expert(&self, kb: &KnowledgeBase) -> Option<String> {
        let last = self.answered.last()?;
        let e = kb.get(&self.questions.get(last.of)?.id)?;
        Some(e.expert_in(self.lang()).to_string())
    }

    /// Ask the last answered (or skipped) prompt again. The earlier attempt stays in the session,
    /// marked retaken; what it decided (a follow-up, the next question) is undone. False when
    /// there is nothing to retake.
    pub fn retake(&mut self) -> bool {
        let Some(last) = self.answered.iter_mut().rev().find(|a| !a.retaken) else { return false };
        last.retaken = true;
        self.current = last.of;
        self.follow_up = last.follow_up.then(|| last.question.clone());
        self.follow_ups_asked = last.follow_ups_before;
        true
    }

    /// The latest attempt at each prompt (retaken ones left out).
    pub fn kept(&self) -> impl Iterator<Item = &Answered> {
        self.answered.iter().filter(|a| !a.retaken)
    }

    /// Score an answer, say the verdict, and decide what comes next (a follow-up or the next question).
    pub async fn answer(&mut self, ctx: &ToolContext, text: &str, elapsed_s: f64) -> Result<Verdict, ToolError> {
        let Some(question) = self.prompt() else {
            return Err(ToolError::input("the interview is over", "start a new one with `ivd mock`"));
        };
        if text.trim().is_empty() {
            self.skip(elapsed_s);
            return Ok(Verdict {
                band: crate::scoring::text::band(0, self.lang()).to_string(),
                score: None,
                missing: None,
            });
        }
        let planned = self.questions[self.current].clone();
        let is_follow_up = self.follow_up.is_some();
        let analysis = call(
            &AnalyzeContent,
            AnalyzeContentArgs {
                question: question.clone(),
                answer: text.to_string(),
                // A follow-up digs elsewhere than the entry's key points: it finds its own reference.
                reference_id: (!is_follow_up).then(|| planned.id.clone()),
                lang: Some(self.lang),
            },
            ctx,
        )
        .await?;
        let c = analysis.content;
        let verdict = Verdict {
            band: c.band.clone(),
            score: (!self.calm).then_some(c.overall),
            missing: c.key_missing.first().cloned(),
        };
        let overall = c.overall;
        self.answered.push(Answered {
            question,
            answer: text.to_string(),
            of: self.current,
            follow_up: is_follow_up,
            skipped: false,
            elapsed_s,
            content: Some(c),
            speech: None,
            retaken: false,
            follow_ups_before: self.follow_ups_asked,
            recording: None,
        });
        let follow_ups: Vec<String> =
            ctx.load_kb().await?.kb.get(&planned.id).map(|e| e.follow_ups_in(self.lang()).to_vec()).unwrap_or_default();
        if (MIDDLING_LOW..MIDDLING_HIGH).contains(&overall)
            && self.follow_ups_asked < MAX_FOLLOW_UPS.min(follow_ups.len())
        {
            self.follow_up = Some(follow_ups[self.follow_ups_asked].clone());
            self.follow_ups_asked += 1;
        } else {
            self.advance();
        }
        Ok(verdict)
    }

    /// The final report, in the same formats as a diagnosis, kept in the history as a mock
    /// session (keyed by the digest of its answers).
    pub async fn report(&self, ctx: &ToolContext, format: ReportFormat) -> Result<(Report, String), ToolError> {
        let kb = ctx.load_kb().await?;
        let mut questions = Vec::new();
        let mut first_of: Vec<Option<usize>> = vec![None; self.questions.len()];
        for a in self.kept().filter(|a| !a.skipped) {
            let Some(content) = a.content.clone() else { continue };
            let index = questions.len() + 1;
            let planned = &self.questions[a.of];
            let follow_up_of = if a.follow_up { first_of[a.of] } else { None };
            first_of[a.of].get_or_insert(index);
            let reference = kb.kb.get(&planned.id).map(|e| Reference {
                id: e.id.clone(),
                question: e.question_in(self.lang()).to_string(),
                dimension: e.dimension.clone(),
                score: 1.0,
            });
            questions.push(QuestionReport {
                pair: QaPair {
                    index,
                    question: a.question.clone(),
                    answer: a.answer.clone(),
                    start_s: None,
                    end_s: None,
                    follow_up_of,
                },
                dimension: Some(planned.dimension.clone()),
                references: reference.into_iter().collect(),
                content,
                speech: a.speech.clone(),
                habits: None,
            });
        }
        let out = call(
            &GenerateReport,
            GenerateReportArgs {
                source: SourceInfo {
                    path: format!("mock interview ({}, {} questions)", self.level, self.questions.len()),
                    kind: "transcript".into(),
                    format: "mock".into(),
                    language: self.lang.into(),
                    duration_s: Some(self.answered.iter().map(|a| a.elapsed_s).sum()),
                },
                speakers: Vec::new(),
                questions,
                format: Some(format),
                elapsed_ms: None,
                lang: Some(self.lang),
                timeline: None,
                history: Some(HistoryArgs {
                    kind: SessionKind::Mock,
                    digest: Some(crate::digest::bytes(&serde_json::to_vec(&self.answered).unwrap_or_default())),
                    input_path: None,
                }),
            },
            ctx,
        )
        .await?;
        Ok((out.report, out.rendered))
    }
}

/// How many of `count` questions each difficulty gets: largest-remainder rounding of the shares.
fn per_difficulty(shares: &[u32; 3], count: usize) -> Vec<usize> {
    let exact: Vec<f64> = shares.iter().map(|s| count as f64 * *s as f64 / 100.0).collect();
    let mut want: Vec<usize> = exact.iter().map(|x| x.floor() as usize).collect();
    let mut order: Vec<usize> = (0..3).collect();
    order.sort_by(|&a, &b| (exact[b] - exact[b].floor()).total_cmp(&(exact[a] - exact[a].floor())));
    for &i in order.iter().take(count - want.iter().sum::<usize>()) {
        want[i] += 1;
    }
    want
}

/// What to draw: `count` questions from `dimensions` (all when empty, then weighted toward the
/// profile's `weak` ones: mean overall per dimension), in `level`'s difficulty mix, none of `recent`.
pub struct Draw<'a> {
    pub dimensions: &'a [String],
    pub level: &'a str,
    pub count: usize,
    pub recent: &'a [String],
    pub weak: &'a [(String, f64)],
    /// Varies the draw.
    pub seed: u64,
    pub lang: Lang,
}

pub fn pick(kb: &KnowledgeBase, d: &Draw<'_>) -> Result<Vec<Planned>, ToolError> {
    let Draw { dimensions, level, count, recent, weak, seed, lang } = *d;
    let shares = LEVELS
        .iter()
        .find(|(n, _)| *n == level)
        .map(|(_, s)| *s)
        .ok_or_else(|| ToolError::input(format!("unknown difficulty {level:?}"), "use junior, mid or senior"))?;
    for d in dimensions {
        if kb.dimension(d).is_none() {
            let known: Vec<&str> = kb.manifest.dimensions.iter().map(|d| d.id.as_str()).collect();
            return Err(ToolError::input(format!("no dimension {d:?}"), format!("use one of: {}", known.join(", "))));
        }
    }
    let mut rng = fastrand::Rng::with_seed(seed);
    let rank = |d: &Difficulty| match d {
        Difficulty::Easy => 0usize,
        Difficulty::Medium => 1,
        Difficulty::Hard => 2,
    };
    let pool: Vec<&crate::kb::Entry> = kb
        .entries
        .iter()
        .filter(|e| dimensions.is_empty() || dimensions.contains(&e.dimension))
        .filter(|e| !recent.contains(&e.id))
        .collect();
    if pool.is_empty() {
        return Err(ToolError::input(
            "no question is left that this profile has not seen recently",
            "pick other dimensions, or practise under another --profile",
        ));
    }
    let want = per_difficulty(&shares, count);
    // Weak dimensions weigh more: a mean of 40 weighs 2.2, of 90 1.2, unseen 1.5.
    let weight = |dim: &str| weak.iter().find(|(d, _)| d == dim).map_or(1.5, |(_, m)| 1.0 + (100.0 - m) / 50.0);
    let mut chosen: Vec<&crate::kb::Entry> = Vec::new();
    for (level_i, n) in want.iter().enumerate() {
        for _ in 0..*n {
            let candidates: Vec<&&crate::kb::Entry> = pool
                .iter()
                .filter(|e| rank(&e.difficulty) == level_i && !chosen.iter().any(|c| c.id == e.id))
                .collect();
            // Short of that difficulty: the nearest other one.
            let candidates = if candidates.is_empty() {
                pool.iter().filter(|e| !chosen.iter().any(|c| c.id == e.id)).collect()
            } else {
                candidates
            };
            let total: f64 = candidates.iter().map(|e| weight(&e.dimension)).sum();
            let mut at = rng.f64() * total;
            let mut pick = None;
            for e in &candidates {
                at -= weight(&e.dimension);
                if at <= 0.0 {
                    pick = Some(**e);
                    break;
                }
            }
            match pick.or_else(|| candidates.last().map(|e| **e)) {
                Some(e) => chosen.push(e),
                None => break,
            }
        }
    }
    chosen.sort_by_key(|e| rank(&e.difficulty));
    Ok(chosen
        .into_iter()
        .map(|e| Planned {
            id: e.id.clone(),
            dimension: e.dimension.clone(),
            difficulty: format!("{:?}", e.difficulty).to_lowercase(),
            question: e.question_in(lang).to_string(),
        })
        .collect())
}

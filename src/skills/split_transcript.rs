//! `split-transcript`: parse -> detect speakers -> split into question/answer pairs.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::tools::detect_speakers::{DetectSpeakers, DetectSpeakersArgs};
use crate::tools::parse_transcript::{ParseTranscript, ParseTranscriptArgs};
use crate::tools::split_qa_pairs::{SplitQaPairs, SplitQaPairsArgs};
use crate::tools::{call, ToolContext, ToolError};
use crate::transcript::header::Metadata;
use crate::transcript::pairs::QaPair;
use crate::transcript::roles::{Role, RoleHints, Speaker, SpeakerAnalysis};
use crate::transcript::{Format, Language, Transcript};

pub const NAME: &str = "split-transcript";

/// What `ivd split` prints.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SplitResult {
    pub format: Format,
    /// For a document (docx, pdf): the layout of the text inside it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<Format>,
    pub language: Language,
    /// The transcript's header: title, names of interviewers and interviewee, date, place.
    #[serde(default, skip_serializing_if = "Metadata::is_empty")]
    pub metadata: Metadata,
    pub speakers: Vec<Speaker>,
    pub pairs: Vec<QaPair>,
}

/// Run the pipeline on a file inside the context's data root.
pub async fn run(ctx: &ToolContext, path: &str, hints: &RoleHints) -> Result<(SplitResult, Transcript), ToolError> {
    let started = Instant::now();
    let result = run_steps(ctx, path, hints).await;
    let status = match &result {
        Ok(_) => "ok",
        Err(e) => e.code.as_str(),
    };
    ctx.audit_call("skill", NAME, status, started, path.as_bytes());
    result
}

async fn run_steps(ctx: &ToolContext, path: &str, hints: &RoleHints) -> Result<(SplitResult, Transcript), ToolError> {
    let transcript =
        call(&ParseTranscript, ParseTranscriptArgs { path: Some(path.to_string()), text: None, format: None }, ctx)
            .await?;
    // Typed tools own their arguments; a clone is far cheaper than parsing again.
    let args = DetectSpeakersArgs {
        transcript: Some(transcript.clone()),
        interviewers: hints.interviewers.clone(),
        candidates: hints.candidates.clone(),
        ..Default::default()
    };
    let mut analysis = call(&DetectSpeakers, args, ctx).await?.analysis;
    if hints.is_empty() && !analysis.uncertain().is_empty() {
        model_roles(ctx, &transcript, &mut analysis).await;
    }
    let split = call(
        &SplitQaPairs,
        SplitQaPairsArgs { transcript: transcript.clone(), turn_roles: Some(analysis.turn_roles) },
        ctx,
    )
    .await?;
    let result = SplitResult {
        format: transcript.format,
        layout: transcript.layout,
        language: transcript.language,
        metadata: transcript.metadata.clone(),
        speakers: analysis.speakers,
        pairs: split.pairs,
    };
    Ok((result, transcript))
}

/// Where the heuristics are unsure and a model is configured, let it settle the roles: for named
/// speakers, which one interviews (then the roles follow as if the user had said so); for a
/// transcript without names, which turns the interviewer said. Any failure keeps the heuristics'.
async fn model_roles(ctx: &ToolContext, transcript: &Transcript, analysis: &mut SpeakerAnalysis) {
    let Some(llm) = &ctx.llm else { return };
    let home = &ctx.config.home;
    let names: Vec<String> = analysis.speakers.iter().filter_map(|s| s.name.clone()).collect();
    if names.len() >= 2 {
        let turns: Vec<(String, String)> =
            transcript.turns.iter().filter_map(|t| Some((t.speaker.clone()?, t.text.clone()))).collect();
        match crate::llm::roles::interviewer_of(llm, home, &turns, &names).await {
            Ok(name) => {
                let args = DetectSpeakersArgs {
                    transcript: Some(transcript.clone()),
                    interviewers: vec![name.clone()],
                    candidates: Vec::new(),
                    ..Default::default()
                };
                if let Ok(a) = call(&DetectSpeakers, args, ctx).await {
                    tracing::info!("the model named {name} the interviewer");
                    *analysis = a.analysis;
                }
            }
            Err(e) => tracing::warn!("the model could not settle the roles: {e}"),
        }
    } else if names.is_empty() {
        let texts: Vec<String> = transcript.turns.iter().map(|t| t.text.clone()).collect();
        match crate::llm::roles::interviewer_turns(llm, home, &texts).await {
            Ok(marks) => {
                analysis.turn_roles =
                    marks.iter().map(|&i| if i { Role::Interviewer } else { Role::Candidate }).collect();
                tracing::info!("the model marked the interviewer's turns");
            }
            Err(e) => tracing::warn!("the model could not mark the turns: {e}"),
        }
    }
}

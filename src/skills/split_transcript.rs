//! `split-transcript`: parse -> detect speakers -> split into question/answer pairs.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::tools::detect_speakers::{DetectSpeakers, DetectSpeakersArgs};
use crate::tools::parse_transcript::{ParseTranscript, ParseTranscriptArgs};
use crate::tools::split_qa_pairs::{SplitQaPairs, SplitQaPairsArgs};
use crate::tools::suggest_roles::{RoleTurn, SuggestRoles, SuggestRolesArgs};
use crate::tools::{call, ToolContext, ToolError};
use crate::transcript::header::Metadata;
use crate::transcript::pairs::QaPair;
use crate::transcript::roles::{Role, RoleHints, Speaker, SpeakerAnalysis};
use crate::transcript::{Format, Mix, Transcript};

pub const NAME: &str = "split-transcript";

/// What `ivd split` prints.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SplitResult {
    pub format: Format,
    /// For a document (docx, pdf): the layout of the text inside it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<Format>,
    pub language: Mix,
    /// The transcript's header: title, names of interviewers and interviewee, date, place.
    #[serde(default, skip_serializing_if = "Metadata::is_empty")]
    pub metadata: Metadata,
    pub speakers: Vec<Speaker>,
    /// Each turn's role, in the transcript's order.
    #[serde(skip)]
    pub turn_roles: Vec<Role>,
    pub pairs: Vec<QaPair>,
}

/// Run the pipeline on a file inside the context's data root.
pub async fn run(ctx: &ToolContext, path: &str, hints: &RoleHints) -> Result<(SplitResult, Transcript), ToolError> {
    let started = Instant::now();
    let result = parse_and_split(ctx, path, hints).await;
    super::audit(ctx, NAME, started, path, &result);
    result
}

async fn parse_and_split(
    ctx: &ToolContext,
    path: &str,
    hints: &RoleHints,
) -> Result<(SplitResult, Transcript), ToolError> {
    let transcript =
        call(&ParseTranscript, ParseTranscriptArgs { path: Some(path.to_string()), text: None, format: None }, ctx)
            .await?;
    let result = split(ctx, &transcript, hints).await?;
    Ok((result, transcript))
}

/// Speakers, roles and pairs of a transcript, parsed or transcribed: shared by `diagnose-audio`,
/// so a recording gets the same role help as a transcript.
pub async fn split(ctx: &ToolContext, transcript: &Transcript, hints: &RoleHints) -> Result<SplitResult, ToolError> {
    // Typed tools own their arguments; a clone is far cheaper than parsing again.
    let args = DetectSpeakersArgs {
        transcript: Some(transcript.clone()),
        interviewers: hints.interviewers.clone(),
        candidates: hints.candidates.clone(),
        ..Default::default()
    };
    let mut analysis = call(&DetectSpeakers, args, ctx).await?.analysis;
    if hints.is_empty() && !analysis.uncertain().is_empty() && ctx.llm.is_some() {
        model_roles(ctx, transcript, &mut analysis).await;
    }
    let split = call(
        &SplitQaPairs,
        SplitQaPairsArgs { transcript: transcript.clone(), turn_roles: Some(analysis.turn_roles.clone()) },
        ctx,
    )
    .await?;
    Ok(SplitResult {
        format: transcript.format,
        layout: transcript.layout,
        language: transcript.language,
        metadata: transcript.metadata.clone(),
        speakers: analysis.speakers,
        turn_roles: analysis.turn_roles,
        pairs: split.pairs,
    })
}

/// Where the heuristics are unsure and a model is configured, let it settle the roles (the
/// `suggest_roles` tool): a named interviewer re-runs speaker detection as if the user had named
/// them; marked turns take their roles directly. Any failure keeps the heuristics'.
async fn model_roles(ctx: &ToolContext, transcript: &Transcript, analysis: &mut SpeakerAnalysis) {
    let turns =
        transcript.turns.iter().map(|t| RoleTurn { speaker: t.speaker.clone(), text: t.text.clone() }).collect();
    let suggested = match call(&SuggestRoles, SuggestRolesArgs { turns }, ctx).await {
        Ok(s) => s,
        Err(e) => {
            tracing::warn!("{}", e.message);
            return;
        }
    };
    if let Some(name) = suggested.interviewer {
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
    } else if let Some(marks) = suggested.interviewer_turns {
        analysis.turn_roles = marks.iter().map(|&i| if i { Role::Interviewer } else { Role::Candidate }).collect();
        tracing::info!("the model marked the interviewer's turns");
    }
}

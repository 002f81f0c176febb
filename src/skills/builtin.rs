//! The built-in skills, registered once by type: each is a type with its name, its SKILL.md and
//! how it runs from a request in words; [`ALL`] lists them, and the skill set, discovery and the
//! agent all read that one list.

use std::future::Future;
use std::pin::Pin;

use super::{compare_expert, diagnose_audio, diagnose_transcript, mock_interview};
use crate::lang::Lang;
use crate::report::ReportFormat;
use crate::tools::{ToolContext, ToolError};
use crate::transcript::roles::RoleHints;

/// A request in words, with what the agent found in it.
#[derive(Debug, Clone)]
pub struct SkillRequest<'a> {
    pub text: &'a str,
    /// A file named in the request (inside the data root) or given with `--file`.
    pub file: Option<&'a str>,
    pub lang: Lang,
    /// Varies draws (practice sets) between runs.
    pub seed: u64,
}

/// What a skill said, and notes for the agent's step log.
#[derive(Debug, Clone, Default)]
pub struct SkillOutput {
    pub text: String,
    pub notes: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum SkillError {
    /// The request lacks what the skill needs (a file, a question and an answer).
    #[error("{0}")]
    Input(String),
    #[error(transparent)]
    Tool(#[from] ToolError),
}

/// A built-in skill: Rust code, run deterministically.
pub trait BuiltinSkill: Send + Sync + 'static {
    /// Equal to its folder under `skills/` and its SKILL.md's `name`.
    const NAME: &'static str;
    const MANIFEST: &'static str;
    fn run(
        &self,
        ctx: &ToolContext,
        req: &SkillRequest<'_>,
    ) -> impl Future<Output = Result<SkillOutput, SkillError>> + Send;
}

type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A built-in skill with its type erased.
pub trait Registered: Sync {
    fn name(&self) -> &'static str;
    fn manifest(&self) -> &'static str;
    fn run<'a>(
        &'a self,
        ctx: &'a ToolContext,
        req: &'a SkillRequest<'a>,
    ) -> BoxFuture<'a, Result<SkillOutput, SkillError>>;
}

impl<T: BuiltinSkill> Registered for T {
    fn name(&self) -> &'static str {
        T::NAME
    }
    fn manifest(&self) -> &'static str {
        T::MANIFEST
    }
    fn run<'a>(
        &'a self,
        ctx: &'a ToolContext,
        req: &'a SkillRequest<'a>,
    ) -> BoxFuture<'a, Result<SkillOutput, SkillError>> {
        Box::pin(BuiltinSkill::run(self, ctx, req))
    }
}

/// Every built-in skill, in the order they are listed.
pub static ALL: [&dyn Registered; 4] = [
    &diagnose_transcript::DiagnoseTranscript,
    &diagnose_audio::DiagnoseAudio,
    &mock_interview::MockInterview,
    &compare_expert::CompareExpert,
];

/// The built-in skill of this name.
pub fn get(name: &str) -> Option<&'static dyn Registered> {
    ALL.iter().copied().find(|s| s.name() == name)
}

/// Diagnose the file a request names: a recording through `diagnose-audio`, anything else
/// through `diagnose-transcript`, whichever of the two was routed to.
pub(super) async fn diagnose_file(
    ctx: &ToolContext,
    skill: &str,
    req: &SkillRequest<'_>,
) -> Result<SkillOutput, SkillError> {
    let file = req.file.ok_or_else(|| {
        SkillError::Input(format!("{skill} needs a file: name it in the request or give --file PATH"))
    })?;
    let hints = RoleHints::default();
    let (report, rendered) = if crate::tools::transcribe_audio::accepts(std::path::Path::new(file)) {
        let opts = diagnose_audio::AudioOptions::default();
        let (r, text, _) = diagnose_audio::run(ctx, file, file, ReportFormat::Md, None, &hints, &opts).await?;
        (r, text)
    } else {
        diagnose_transcript::run(ctx, file, file, ReportFormat::Md, None, &hints).await?
    };
    let mut notes = Vec::new();
    if report.questions.is_empty() {
        notes.push(format!("no question/answer pairs found in {file}"));
    }
    Ok(SkillOutput { text: rendered, notes })
}

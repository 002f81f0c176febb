//! `ivd chat`: the agent interactively. The conversation is kept between requests; Ctrl-C cancels
//! the request in flight, and at the prompt quits.

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

use anyhow::anyhow;
use tokio_util::sync::CancellationToken;

use super::ask::agent;
use super::{write_stdout, CliError};
use crate::agent::{AgentError, Message};
use crate::config::Config;
use crate::tools::ToolContext;

pub(super) async fn chat(config: Arc<Config>) -> Result<(), CliError> {
    let base = ToolContext::new(config);
    let mut agent = agent(base.clone());
    // At the prompt the token in `current` is already cancelled, so Ctrl-C there quits.
    let idle = || {
        let t = CancellationToken::new();
        t.cancel();
        t
    };
    let current = Arc::new(Mutex::new(idle()));
    super::interrupt::install(current.clone());
    let mut history: Vec<Message> = Vec::new();
    let model = agent.llm.as_ref().map(|l| l.model().to_string()).unwrap_or_else(|| "none".into());
    eprintln!(
        "ivd chat: skills {}; model {model}. /help, /skills, /quit (Ctrl-D). Paths are relative to {}.",
        agent.skills.skills.len(),
        base.data_root.display()
    );
    loop {
        eprint!("> ");
        let _ = std::io::stderr().flush();
        let line = tokio::task::spawn_blocking(|| {
            let mut s = String::new();
            std::io::stdin().lock().read_line(&mut s).map(|n| (n, s))
        })
        .await
        .map_err(|e| anyhow!("cannot read the terminal: {e}"))?
        .map_err(|e| anyhow!("cannot read the terminal: {e}"))?;
        let (n, line) = line;
        let line = line.trim();
        match line {
            _ if n == 0 => return Ok(()),
            "" => continue,
            "/quit" | "/exit" | "/q" => return Ok(()),
            "/help" => {
                eprintln!("Ask anything: \"diagnose interview.txt\", \"Q: What is RAG? A: ...\", \"mock interview on memory\". $skill-name forces a skill. /skills lists them, /quit leaves.");
                continue;
            }
            "/skills" => {
                for s in &agent.skills.skills {
                    eprintln!("  {:<22} {}", s.name(), s.manifest.description.chars().take(90).collect::<String>());
                }
                continue;
            }
            _ => {}
        }
        // Each request gets its own cancellation: Ctrl-C stops it, not the chat.
        let token = CancellationToken::new();
        if let Ok(mut c) = current.lock() {
            *c = token.clone();
        }
        agent.ctx.cancel = token;
        let result = agent.ask(line, None, &mut history).await;
        if let Ok(mut c) = current.lock() {
            *c = idle();
        }
        match result {
            Ok(answer) => write_stdout(format!("{}\n", answer.text.trim_end()).as_bytes())?,
            Err(AgentError::Cancelled) => eprintln!("(cancelled)"),
            Err(e) => eprintln!("error: {e}"),
        }
    }
}

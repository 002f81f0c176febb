//! `ivd ask "REQUEST"`: the agent, with each step on stderr and Ctrl-C cancelling the request in
//! flight (a second Ctrl-C quits).

use std::path::Path;
use std::sync::{Arc, Mutex};

use anyhow::anyhow;

use super::{write_stdout, CliError};
use crate::agent::{Agent, AgentError, Message, Step, StepSink};
use crate::config::Config;
use crate::skills::registry::SkillSet;
use crate::tools::ToolContext;

pub(super) async fn ask(config: Arc<Config>, request: &str, file: Option<&Path>) -> Result<(), CliError> {
    let (ctx, name) = match file {
        Some(f) => {
            let (ctx, name) = super::context_for_file(config, f)?;
            (ctx, Some(name))
        }
        None => (ToolContext::new(config), None),
    };
    let agent = agent(ctx);
    let cancel = agent.ctx.cancel.clone();
    super::interrupt::install(Arc::new(Mutex::new(cancel)));
    let mut history: Vec<Message> = Vec::new();
    match agent.ask(request, name.as_deref(), &mut history).await {
        Ok(answer) => write_stdout(format!("{}\n", answer.text.trim_end()).as_bytes()),
        Err(e) => Err(agent_error(e)),
    }
}

pub(super) fn agent(ctx: ToolContext) -> Agent {
    let cwd = std::env::current_dir().unwrap_or_else(|_| ".".into());
    let skills = SkillSet::load(&SkillSet::user_dirs(&ctx.config.home, &cwd), &ctx.config.skills_disabled);
    for p in &skills.problems {
        eprintln!("note: skill {} skipped: {}", p.path.display(), p.message);
    }
    let sink: StepSink = Arc::new(print_step);
    Agent::new(ctx, skills, sink)
}

fn print_step(s: &Step) {
    match s {
        Step::Routed { skill: Some(n), via } => eprintln!("· skill {n} ({via})"),
        Step::Routed { skill: None, via } => eprintln!("· no skill ({via})"),
        Step::ToolCall { name, arguments } => eprintln!("· call {name} {arguments}"),
        Step::ToolResult { name, ok, latency_ms, summary } => {
            eprintln!(
                "  {} {name} {latency_ms} ms{}",
                if *ok { "ok" } else { "error" },
                if *ok { String::new() } else { format!(": {summary}") }
            )
        }
        Step::Note(n) => eprintln!("· {n}"),
    }
}

fn agent_error(e: AgentError) -> CliError {
    match e {
        AgentError::Tool(t) => CliError::from(t),
        AgentError::Input(m) => CliError::input(anyhow!(m)),
        AgentError::Cancelled => CliError { code: 130, error: anyhow!("cancelled") },
        other => CliError::from(anyhow!(other)),
    }
}

//! `ivd tools list|run NAME --input FILE|-`.

use std::io::Read;
use std::sync::Arc;

use anyhow::{anyhow, Context};

use super::{write_stdout, CliError, ListFormat};
use crate::config::Config;
use crate::tools::{ToolContext, ToolRegistry};

pub(super) fn list(format: ListFormat) -> Result<(), CliError> {
    let registry = ToolRegistry::builtin();
    let out = match format {
        ListFormat::Json => {
            serde_json::to_string_pretty(&registry.specs()).context("cannot encode the tool list")? + "\n"
        }
        ListFormat::Text => registry.specs().iter().map(|s| format!("{:<20} {}\n", s.name, s.description)).collect(),
    };
    write_stdout(out.as_bytes())
}

pub(super) async fn run(config: Arc<Config>, name: &str, input: &str) -> Result<(), CliError> {
    let raw = if input == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| CliError::input(anyhow!("cannot read arguments from standard input: {e}")))?;
        s
    } else {
        std::fs::read_to_string(input)
            .map_err(|e| CliError::input(anyhow!("cannot read the arguments file {input}: {e}")))?
    };
    let args: serde_json::Value = serde_json::from_str(&raw).map_err(|e| {
        CliError::input(anyhow!("the arguments are not valid JSON (line {}, column {}): {e}; give a JSON object such as {{\"path\": \"notes.txt\"}}", e.line(), e.column()))
    })?;
    let registry = ToolRegistry::builtin();
    let ctx = ToolContext::new(config);
    let envelope = registry.execute(name, args, &ctx).await;
    let out = serde_json::to_string_pretty(&envelope).context("cannot encode the result")? + "\n";
    write_stdout(out.as_bytes())?;
    match &envelope.error {
        None => Ok(()),
        Some(e) => Err(CliError {
            code: if e.code.is_caller_error() { 2 } else { 1 },
            error: anyhow!("{} failed: {}", name, e.message),
        }),
    }
}

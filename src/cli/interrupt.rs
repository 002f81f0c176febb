//! Ctrl-C: the first press cancels the running command's token (its tool calls stop after the
//! current step, whisper and embedding included, and nothing half-written is left); a second
//! press while that one is still stopping quits at once.

use std::sync::{Arc, Mutex};

use anyhow::anyhow;
use tokio_util::sync::CancellationToken;

use super::CliError;

/// The exit code of a command stopped by Ctrl-C (128 + SIGINT).
pub const EXIT: i32 = 130;

/// Ctrl-C cancels the token in `current`; a second one while it is still cancelled quits.
pub fn install(current: Arc<Mutex<CancellationToken>>) {
    // A handler may already be installed (tests run commands in-process): then Ctrl-C kills.
    let _ = ctrlc::set_handler(move || {
        let token = current.lock().map(|t| t.clone()).ok();
        match token {
            Some(t) if !t.is_cancelled() => {
                eprintln!("\nstopping after the current step (Ctrl-C again to quit now)…");
                t.cancel();
            }
            _ => std::process::exit(EXIT),
        }
    });
}

/// A token that Ctrl-C cancels, for a command that runs one job.
pub fn token() -> CancellationToken {
    let t = CancellationToken::new();
    install(Arc::new(Mutex::new(t.clone())));
    t
}

/// The error of a command stopped by Ctrl-C, with what survives.
pub fn stopped(what_is_kept: &str) -> CliError {
    CliError { code: EXIT, error: anyhow!("stopped by Ctrl-C; {what_is_kept}") }
}

/// `e` as the command's error, or the Ctrl-C error when `cancel` fired (the tool then reports a
/// cancelled call, which says less).
pub fn or_stopped(e: impl Into<CliError>, cancel: &CancellationToken, what_is_kept: &str) -> CliError {
    if cancel.is_cancelled() {
        stopped(what_is_kept)
    } else {
        e.into()
    }
}

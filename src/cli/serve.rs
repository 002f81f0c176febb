//! `ivd serve`: the local web console (`src/web`), bound to loopback unless `--host` says otherwise.

use std::io::Write as _;
use std::net::IpAddr;
use std::sync::Arc;

use anyhow::anyhow;
use clap::Args;

use super::CliError;
use crate::config::Config;
use crate::web::{ServeOptions, DEFAULT_MAX_RECORDING, DEFAULT_MAX_TEXT};

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Port to listen on (0: any free one; the URL printed says which).
    #[arg(long, default_value_t = 8787)]
    pub port: u16,
    /// Address to bind. Anything but loopback lets other machines reach your history: a warning
    /// is printed, and the launch token still guards every page.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// Open the console in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Largest recording an upload may carry, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_MAX_RECORDING >> 20)]
    pub max_recording_mib: u64,
    /// Largest transcript or document, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_MAX_TEXT >> 20)]
    pub max_text_mib: u64,
}

pub(super) async fn run(config: Arc<Config>, a: ServeArgs) -> Result<(), CliError> {
    if !a.host.is_loopback() {
        eprintln!(
            "warning: listening on {} — other machines on the network can reach this console; anyone with the printed URL can read your history",
            a.host
        );
    }
    let opts = ServeOptions {
        host: a.host,
        port: a.port,
        max_recording: a.max_recording_mib.saturating_mul(1 << 20),
        max_text: a.max_text_mib.saturating_mul(1 << 20),
    };
    let bound = crate::web::bind(config, opts).await.map_err(|e| CliError::from(anyhow!(e)))?;
    // The URL is the one line on stdout, so scripts (and the tests) can read it.
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{}", bound.url);
    let _ = out.flush();
    drop(out);
    eprintln!("ivd serve: open the URL above (Ctrl-C stops the server)");
    if a.open {
        // A missing opener is no failure: the URL is printed.
        let _ = std::process::Command::new("xdg-open").arg(&bound.url).spawn();
    }
    bound.run().await.map_err(|e| CliError::from(anyhow!(e)))
}

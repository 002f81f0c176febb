//! `ivd history [--trend] [--all] [--format json]` and `ivd history delete ID`.

use std::fmt::Write as _;

use anyhow::anyhow;
use clap::Subcommand;

use super::{write_stdout, CliError, ListFormat};
use crate::config::Config;
use crate::store::Store;

#[derive(Debug, Subcommand)]
pub enum HistoryAction {
    /// Delete one session (its report and scores) for good.
    Delete { id: i64 },
}

pub(super) fn run(
    config: &Config,
    action: Option<HistoryAction>,
    format: ListFormat,
    trend: bool,
    all: bool,
) -> Result<(), CliError> {
    let mut store = Store::open(&config.home).map_err(|e| anyhow!(e))?;
    if let Some(HistoryAction::Delete { id }) = action {
        return match store.delete_session(id).map_err(|e| anyhow!(e))? {
            true => write_stdout(format!("deleted session {id}\n").as_bytes()),
            false => Err(CliError::input(anyhow!("no session {id}; `ivd history --all` lists them"))),
        };
    }
    let profile = config.profile.as_str();
    let out = if trend {
        let points = store.trend(profile).map_err(|e| anyhow!(e))?;
        match format {
            ListFormat::Json => serde_json::to_string_pretty(&points).map_err(|e| anyhow!(e))? + "\n",
            ListFormat::Text => trend_table(profile, &points),
        }
    } else {
        let rows = store.sessions((!all).then_some(profile)).map_err(|e| anyhow!(e))?;
        match format {
            ListFormat::Json => serde_json::to_string_pretty(&rows).map_err(|e| anyhow!(e))? + "\n",
            ListFormat::Text => {
                let mut s = String::new();
                if rows.is_empty() {
                    let _ = writeln!(
                        s,
                        "no sessions yet{}",
                        if all { String::new() } else { format!(" for profile {profile}") }
                    );
                }
                for r in &rows {
                    let _ = writeln!(
                        s,
                        "{:>5}  {}  {:<9} {:<10} {:>3}/100  {} question(s)  {}",
                        r.id,
                        r.created_at.get(..16).unwrap_or(&r.created_at),
                        r.kind,
                        r.profile,
                        r.overall,
                        r.questions,
                        r.source
                    );
                }
                s
            }
        }
    };
    write_stdout(out.as_bytes())
}

/// The profile's sessions as a table of dimensions, oldest first, and the overall's change.
fn trend_table(profile: &str, points: &[crate::store::history::TrendPoint]) -> String {
    let mut s = format!("profile {profile}: {} session(s)\n", points.len());
    let _ = writeln!(
        s,
        "{:>5}  {:<10} {:>7} {:>6} {:>6} {:>6} {:>6} {:>6}",
        "id", "date", "overall", "compl", "depth", "acc", "pract", "speech"
    );
    let cell = |v: Option<u32>| v.map(|v| v.to_string()).unwrap_or_else(|| "-".into());
    for p in points {
        let _ = writeln!(
            s,
            "{:>5}  {:<10} {:>7} {:>6} {:>6} {:>6} {:>6} {:>6}",
            p.id,
            p.at.get(..10).unwrap_or(&p.at),
            p.overall,
            cell(p.completeness),
            cell(p.depth),
            cell(p.accuracy),
            cell(p.practicality),
            cell(p.speech)
        );
    }
    if let (Some(first), Some(last)) = (points.first(), points.last()) {
        if points.len() >= 2 {
            let _ = writeln!(s, "overall {:+} since #{}", last.overall as i64 - first.overall as i64, first.id);
        }
    }
    s
}

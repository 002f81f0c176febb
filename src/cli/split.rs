//! The commands that take a transcript or an answer: `split`, `diagnose`, `compare`.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use clap::Args;

use super::{context_for_file, write_stdout, CliError, SplitFormat};
use crate::config::Config;
use crate::skills::split_transcript::{self, SplitResult};
use crate::transcript::roles::RoleHints;

/// Settle speakers' roles by name, for every command that takes a transcript.
#[derive(Debug, Clone, Default, Args)]
pub struct RoleArgs {
    /// This speaker is an interviewer (a label as the transcript writes it, or one word of it);
    /// repeat for a panel.
    #[arg(long = "interviewer", value_name = "NAME")]
    pub interviewers: Vec<String>,
    /// This speaker is the candidate.
    #[arg(long = "candidate", value_name = "NAME")]
    pub candidates: Vec<String>,
}

impl RoleArgs {
    pub(super) fn hints(&self) -> RoleHints {
        RoleHints { interviewers: self.interviewers.clone(), candidates: self.candidates.clone() }
    }
}

pub(super) async fn split(
    config: Arc<Config>,
    file: &Path,
    format: SplitFormat,
    roles: &RoleArgs,
) -> Result<(), CliError> {
    let (ctx, name) = context_for_file(config, file)?;
    let (result, _) = split_transcript::run(&ctx, &name, &roles.hints()).await.map_err(|e| {
        let mut err = CliError::from(e);
        err.error = err.error.context(format!("cannot split {}", file.display()));
        err
    })?;
    let out = match format {
        SplitFormat::Json => serde_json::to_string_pretty(&result).context("cannot encode the result")? + "\n",
        SplitFormat::Md => split_markdown(&result),
    };
    write_stdout(out.as_bytes())
}

fn split_markdown(r: &SplitResult) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Question/answer pairs\n\n- format: {}\n- language: {}\n- pairs: {}",
        r.format.as_str(),
        r.language.as_str(),
        r.pairs.len()
    );
    if let Some(layout) = r.layout {
        let _ = writeln!(s, "- text layout inside the document: {}", layout.as_str());
    }
    let m = &r.metadata;
    if let Some(t) = &m.title {
        let _ = writeln!(s, "- title: {t}");
    }
    for (k, v) in [("interviewers", &m.interviewers), ("interviewees", &m.interviewees)] {
        if !v.is_empty() {
            let _ = writeln!(s, "- {k} (header): {}", v.join(", "));
        }
    }
    for (k, v) in &m.fields {
        let _ = writeln!(s, "- {k}: {v}");
    }
    let _ = writeln!(
        s,
        "\n| id | name | role | confidence | decided by | turns | talk time (s) |\n|---|---|---|---|---|---|---|"
    );
    let word = |v: serde_json::Result<serde_json::Value>| {
        v.ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
    };
    for sp in &r.speakers {
        let talk = sp.talk_time_s.map(|t| format!("{t:.1}")).unwrap_or_else(|| "-".into());
        let _ = writeln!(
            s,
            "| {} | {} | {} | {:.2} | {} | {} | {} |",
            sp.id,
            sp.name.as_deref().unwrap_or("-"),
            word(serde_json::to_value(sp.role)),
            sp.confidence,
            word(serde_json::to_value(sp.basis)),
            sp.turns,
            talk
        );
    }
    let unsure: Vec<String> = r
        .speakers
        .iter()
        .filter(|sp| sp.confidence < crate::transcript::roles::CONFIDENT)
        .map(|sp| format!("{} ({})", sp.name.as_deref().unwrap_or(&sp.id), word(serde_json::to_value(sp.role))))
        .collect();
    if !unsure.is_empty() {
        let how = if r.speakers.iter().any(|sp| sp.name.is_some()) {
            "settle them with `--interviewer NAME` / `--candidate NAME`"
        } else {
            "the transcript names no speakers, so each turn's role comes from whether it asks; a transcript with speaker labels settles it"
        };
        let _ = writeln!(s, "\n> **Roles uncertain:** {}; {how}.", unsure.join(", "));
    }
    for p in &r.pairs {
        let times = match (p.start_s, p.end_s) {
            (Some(a), Some(b)) => format!(" ({a:.1}s–{b:.1}s)"),
            (Some(a), None) => format!(" ({a:.1}s–)"),
            _ => String::new(),
        };
        let follow = p.follow_up_of.map(|i| format!(" — follow-up of {i}")).unwrap_or_default();
        let _ = writeln!(
            s,
            "\n## {}. Question{times}{follow}\n\n{}\n\n**Answer**\n\n{}",
            p.index,
            p.question,
            if p.answer.is_empty() { "_(no answer)_" } else { &p.answer }
        );
    }
    s
}

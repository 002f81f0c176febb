//! `ivd skills list|show NAME|validate DIR`.

use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;

use anyhow::anyhow;
use clap::Subcommand;
use serde_json::json;

use super::{write_stdout, CliError, ListFormat};
use crate::config::Config;
use crate::skills::registry::{self, SkillSet, Source};

#[derive(Debug, Subcommand)]
pub enum SkillsAction {
    /// Every skill: built-in and user (from $IVD_HOME/skills and ./.agents/skills), and those skipped.
    List {
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
    },
    /// One skill's SKILL.md fields and instructions.
    Show { name: String },
    /// Check every SKILL.md in a folder of skills (one sub-folder per skill); exit 2 if any is invalid.
    Validate { dir: std::path::PathBuf },
}

pub(super) fn run(config: Arc<Config>, action: SkillsAction) -> Result<(), CliError> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| ".".into());
    let set = SkillSet::load(&SkillSet::user_dirs(&config.home, &cwd), &config.skills_disabled);
    match action {
        SkillsAction::List { format } => list(&set, format),
        SkillsAction::Show { name } => show(&set, &name),
        SkillsAction::Validate { dir } => validate(&dir),
    }
}

fn source(s: &Source) -> String {
    match s {
        Source::Builtin => "built-in".into(),
        Source::Prompt(p) => p.display().to_string(),
    }
}

fn list(set: &SkillSet, format: ListFormat) -> Result<(), CliError> {
    let out = match format {
        ListFormat::Json => {
            let v = json!({
                "skills": set.skills.iter().map(|s| json!({
                    "name": s.name(), "description": s.manifest.description, "source": source(&s.source),
                    "allowed_tools": s.manifest.allowed_tools, "triggers": s.manifest.triggers(),
                })).collect::<Vec<_>>(),
                "disabled": set.disabled,
                "problems": set.problems.iter().map(|p| json!({"path": p.path, "message": p.message})).collect::<Vec<_>>(),
            });
            serde_json::to_string_pretty(&v).map_err(|e| anyhow!(e))? + "\n"
        }
        ListFormat::Text => {
            let mut s = String::new();
            for sk in &set.skills {
                let d: String = sk.manifest.description.chars().take(100).collect();
                let _ = writeln!(
                    s,
                    "{:<22} {:<9} {d}…",
                    sk.name(),
                    if sk.source == Source::Builtin { "built-in" } else { "user" }
                );
            }
            for n in &set.disabled {
                let _ = writeln!(s, "{n:<22} disabled by configuration");
            }
            for p in &set.problems {
                let _ = writeln!(s, "skipped {}: {}", p.path.display(), p.message);
            }
            s
        }
    };
    write_stdout(out.as_bytes())
}

fn show(set: &SkillSet, name: &str) -> Result<(), CliError> {
    let sk = set.get(name).ok_or_else(|| {
        let names: Vec<&str> = set.skills.iter().map(|s| s.name()).collect();
        CliError::input(anyhow!("no skill named {name:?}; the skills are: {}", names.join(", ")))
    })?;
    let m = &sk.manifest;
    let mut s = format!(
        "name: {}\nsource: {}\ndescription: {}\nallowed-tools: {}\n",
        m.name,
        source(&sk.source),
        m.description,
        m.allowed_tools.join(" ")
    );
    for (k, v) in &m.metadata {
        let _ = writeln!(s, "metadata.{k}: {v}");
    }
    let _ = write!(s, "\n{}\n", m.body);
    write_stdout(s.as_bytes())
}

fn validate(dir: &Path) -> Result<(), CliError> {
    if !dir.is_dir() {
        return Err(CliError::input(anyhow!(
            "{} is not a folder; give a folder holding one sub-folder per skill",
            dir.display()
        )));
    }
    let results = registry::read_dir(dir, &registry::tool_names());
    if results.is_empty() {
        return Err(CliError::input(anyhow!("no skill folders in {}", dir.display())));
    }
    let mut s = String::new();
    let mut bad = 0;
    for (path, r) in &results {
        match r {
            Ok(m) => {
                let _ = writeln!(s, "ok       {} ({})", m.name, path.display());
            }
            Err(e) => {
                bad += 1;
                let _ = writeln!(s, "INVALID  {}: {e}", path.display());
            }
        }
    }
    write_stdout(s.as_bytes())?;
    if bad > 0 {
        Err(CliError::input(anyhow!("{bad} of {} skills are invalid", results.len())))
    } else {
        Ok(())
    }
}

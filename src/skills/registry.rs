//! Every skill this run can use: the built-in ones (Rust, with their SKILL.md compiled in) and the
//! prompt-only ones users put in `$IVD_HOME/skills/` and `./.agents/skills/`. A malformed user skill
//! is reported and skipped, never fatal; skills named in the configuration's `skills.disabled`
//! are left out.

use std::path::{Path, PathBuf};

use super::manifest::{self, Manifest};

/// The tool the model loads a skill's instructions with (level 2).
pub const READ_SKILL: &str = "read_skill";

#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// Rust, runs deterministically.
    Builtin,
    /// Instructions only, run in the free loop with the tools they allow; the folder it came from.
    Prompt(PathBuf),
}

#[derive(Debug, Clone)]
pub struct Skill {
    pub manifest: Manifest,
    pub source: Source,
}

impl Skill {
    pub fn name(&self) -> &str {
        &self.manifest.name
    }
}

/// A skill that could not be loaded, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub path: PathBuf,
    pub message: String,
}

#[derive(Debug, Clone, Default)]
pub struct SkillSet {
    pub skills: Vec<Skill>,
    pub problems: Vec<Problem>,
    /// Names left out by configuration.
    pub disabled: Vec<String>,
}

impl SkillSet {
    /// Built-in skills, then user skills from `dirs` (earlier folders win a name), minus `disabled`.
    pub fn load(dirs: &[PathBuf], disabled: &[String]) -> SkillSet {
        let tools = tool_names();
        let mut set = SkillSet::default();
        for b in super::builtin::ALL {
            match manifest::parse(b.manifest(), b.name(), &tools) {
                Ok(m) => set.skills.push(Skill { manifest: m, source: Source::Builtin }),
                // A broken built-in is a bug caught by the tests; it is still not fatal.
                Err(message) => set.problems.push(Problem { path: PathBuf::from(b.name()), message }),
            }
        }
        for dir in dirs {
            for (path, result) in read_dir(dir, &tools) {
                match result {
                    Ok(m) if set.get(&m.name).is_some() => set.problems.push(Problem {
                        path,
                        message: format!("a skill named {:?} is already loaded; this one is skipped", m.name),
                    }),
                    Ok(m) => set.skills.push(Skill { manifest: m, source: Source::Prompt(path) }),
                    Err(message) => set.problems.push(Problem { path, message }),
                }
            }
        }
        set.skills.retain(|s| {
            let off = disabled.iter().any(|d| d == s.name());
            if off {
                set.disabled.push(s.name().to_string());
            }
            !off
        });
        set
    }

    /// The folders user skills are read from: `$IVD_HOME/skills`, then `./.agents/skills`.
    pub fn user_dirs(home: &Path, cwd: &Path) -> Vec<PathBuf> {
        vec![home.join("skills"), cwd.join(".agents").join("skills")]
    }

    pub fn get(&self, name: &str) -> Option<&Skill> {
        self.skills.iter().find(|s| s.name() == name)
    }
}

/// Every tool a skill may allow: the registry's and `read_skill`.
pub fn tool_names() -> Vec<&'static str> {
    let mut names = crate::tools::ToolRegistry::builtin().names();
    names.push(READ_SKILL);
    names
}

/// Parse every `*/SKILL.md` under `dir` (a missing folder has none). Sorted by folder name.
pub fn read_dir(dir: &Path, tools: &[&str]) -> Vec<(PathBuf, Result<Manifest, String>)> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut folders: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.is_dir()).collect();
    folders.sort();
    folders
        .into_iter()
        .map(|folder| {
            let file = folder.join("SKILL.md");
            let name = folder.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let result = match std::fs::read(&file) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err("no SKILL.md in this folder".to_string()),
                Err(e) => Err(format!("cannot read SKILL.md: {e}")),
                Ok(bytes) => match String::from_utf8(bytes) {
                    Ok(text) => manifest::parse(&text, &name, tools),
                    Err(_) => Err("SKILL.md is not UTF-8 text".to_string()),
                },
            };
            (folder, result)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_are_valid_and_can_be_disabled() {
        let set = SkillSet::load(&[], &["mock-interview".to_string()]);
        assert!(set.problems.is_empty(), "{:?}", set.problems);
        let names: Vec<&str> = set.skills.iter().map(Skill::name).collect();
        assert_eq!(names, ["diagnose-transcript", "diagnose-audio", "compare-expert"]);
        assert_eq!(set.disabled, ["mock-interview"]);
    }
}

//! Layered settings, resolved once at start-up.
//!
//! Precedence, highest first:
//! 1. command-line flags (`--home`, `--config`, `--data-root`, `--kb`, `--no-audit`);
//! 2. `IVD_*` environment variables (`IVD_HOME`, `IVD_CONFIG`, `IVD_DATA_ROOT`, `IVD_KB`, `IVD_MODELS`, `IVD_AUDIT`,
//!    `IVD_TOOL_TIMEOUT_S`, `IVD_LLM_BASE_URL`, `IVD_LLM_MODEL`, `IVD_LLM_API_KEY`);
//! 3. `ivd.toml`: the file named by `--config` / `IVD_CONFIG`, else `$IVD_HOME/ivd.toml` if present;
//! 4. built-in defaults.
//!
//! `IVD_HOME` itself comes from the flag, the environment or the platform data directory: the
//! configuration file lives inside it, so it cannot move it.

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// Resolved settings.
#[derive(Debug, Clone)]
pub struct Config {
    /// All state: indexes, caches, history, the audit log, user templates.
    pub home: PathBuf,
    /// Tools may read files only below this folder.
    pub data_root: PathBuf,
    /// A knowledge base other than the shipped one.
    pub kb_dir: Option<PathBuf>,
    /// Model files and their manifest (`IVD_MODELS`, else `$IVD_HOME/models`).
    pub models_dir: PathBuf,
    /// Append every tool and skill call to `$IVD_HOME/audit.jsonl`.
    pub audit: bool,
    /// Longest a single tool call may take.
    pub tool_timeout_s: u64,
    /// OpenAI-compatible endpoint, when configured.
    pub llm: LlmSettings,
}

#[derive(Debug, Clone, Default)]
pub struct LlmSettings {
    pub base_url: Option<String>,
    pub model: Option<String>,
    /// Never written to logs or the audit trail.
    pub api_key: Option<String>,
}

/// Values given on the command line.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    pub home: Option<PathBuf>,
    pub config_file: Option<PathBuf>,
    pub data_root: Option<PathBuf>,
    pub kb_dir: Option<PathBuf>,
    pub audit: Option<bool>,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read the configuration file {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("invalid configuration file {path}: {message}; fix it or remove it")]
    Parse { path: PathBuf, message: String },
    #[error("invalid value {value:?} for {name}: {expected}")]
    Value { name: &'static str, value: String, expected: &'static str },
    #[error("no home folder could be determined; set IVD_HOME")]
    NoHome,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    data_root: Option<PathBuf>,
    kb_dir: Option<PathBuf>,
    models_dir: Option<PathBuf>,
    audit: Option<bool>,
    tool_timeout_s: Option<u64>,
    llm: Option<FileLlm>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileLlm {
    base_url: Option<String>,
    model: Option<String>,
    /// Name of the environment variable that holds the key; keys are not stored in files.
    api_key_env: Option<String>,
}

const DEFAULT_TOOL_TIMEOUT_S: u64 = 120;

impl Config {
    /// Resolve from flags, the process environment, the file and defaults.
    pub fn load(o: &Overrides) -> Result<Config, ConfigError> {
        Self::load_with(o, &|k| std::env::var(k).ok().filter(|v| !v.is_empty()))
    }

    /// Resolve with an explicit environment lookup (tests pass a map).
    pub fn load_with(o: &Overrides, env: &dyn Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        let home = match o.home.clone().or_else(|| env("IVD_HOME").map(PathBuf::from)) {
            Some(h) => h,
            None => directories::ProjectDirs::from("", "", "interview-doctor")
                .map(|d| d.data_dir().to_path_buf())
                .ok_or(ConfigError::NoHome)?,
        };
        let explicit = o.config_file.clone().or_else(|| env("IVD_CONFIG").map(PathBuf::from));
        let file = match &explicit {
            Some(p) => read_file(p)?,
            None => {
                let p = home.join("ivd.toml");
                if p.is_file() {
                    read_file(&p)?
                } else {
                    FileConfig::default()
                }
            }
        };
        let file_llm = file.llm.unwrap_or_default();
        let data_root = o
            .data_root
            .clone()
            .or_else(|| env("IVD_DATA_ROOT").map(PathBuf::from))
            .or(file.data_root)
            .unwrap_or_else(|| PathBuf::from("."));
        let kb_dir = o.kb_dir.clone().or_else(|| env("IVD_KB").map(PathBuf::from)).or(file.kb_dir);
        let models_dir =
            env("IVD_MODELS").map(PathBuf::from).or(file.models_dir).unwrap_or_else(|| home.join("models"));
        let audit = match o.audit {
            Some(a) => a,
            None => match env("IVD_AUDIT") {
                Some(v) => parse_bool("IVD_AUDIT", &v)?,
                None => file.audit.unwrap_or(true),
            },
        };
        let tool_timeout_s = match env("IVD_TOOL_TIMEOUT_S") {
            Some(v) => v.parse().map_err(|_| ConfigError::Value {
                name: "IVD_TOOL_TIMEOUT_S",
                value: v,
                expected: "a whole number of seconds",
            })?,
            None => file.tool_timeout_s.unwrap_or(DEFAULT_TOOL_TIMEOUT_S),
        };
        let api_key = env("IVD_LLM_API_KEY").or_else(|| file_llm.api_key_env.as_deref().and_then(env));
        Ok(Config {
            home,
            data_root,
            kb_dir,
            models_dir,
            audit,
            tool_timeout_s,
            llm: LlmSettings {
                base_url: env("IVD_LLM_BASE_URL").or(file_llm.base_url),
                model: env("IVD_LLM_MODEL").or(file_llm.model),
                api_key,
            },
        })
    }

    /// Defaults rooted at `home`, for tests and embedding.
    pub fn with_home(home: &Path) -> Config {
        Config {
            home: home.to_path_buf(),
            data_root: PathBuf::from("."),
            kb_dir: None,
            models_dir: home.join("models"),
            audit: true,
            tool_timeout_s: DEFAULT_TOOL_TIMEOUT_S,
            llm: LlmSettings::default(),
        }
    }
}

fn read_file(path: &Path) -> Result<FileConfig, ConfigError> {
    let text =
        std::fs::read_to_string(path).map_err(|source| ConfigError::Read { path: path.to_path_buf(), source })?;
    toml::from_str(&text).map_err(|e| ConfigError::Parse { path: path.to_path_buf(), message: e.to_string() })
}

fn parse_bool(name: &'static str, v: &str) -> Result<bool, ConfigError> {
    match v.to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        _ => Err(ConfigError::Value { name, value: v.to_string(), expected: "1/0, true/false, yes/no or on/off" }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn precedence() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("ivd.toml"), "data_root = \"/from/file\"\naudit = false\ntool_timeout_s = 7\n")
            .unwrap();
        let env: HashMap<&str, &str> =
            [("IVD_HOME", dir.path().to_str().unwrap()), ("IVD_DATA_ROOT", "/from/env")].into();
        let lookup = |k: &str| env.get(k).map(|v| v.to_string());
        let c = Config::load_with(&Overrides::default(), &lookup).unwrap();
        assert_eq!(c.data_root, PathBuf::from("/from/env"));
        assert!(!c.audit);
        assert_eq!(c.tool_timeout_s, 7);
        let o = Overrides { data_root: Some("/from/flag".into()), audit: Some(true), ..Default::default() };
        let c = Config::load_with(&o, &lookup).unwrap();
        assert_eq!(c.data_root, PathBuf::from("/from/flag"));
        assert!(c.audit);
    }

    #[test]
    fn bad_file_is_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("ivd.toml"), "nonsense_key = 1\n").unwrap();
        let o = Overrides { home: Some(dir.path().into()), ..Default::default() };
        let err = Config::load_with(&o, &|_| None).unwrap_err().to_string();
        assert!(err.contains("ivd.toml"), "{err}");
    }
}

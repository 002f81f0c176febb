//! Layered settings, resolved once at start-up.
//!
//! Precedence, highest first:
//! 1. command-line flags (`--home`, `--config`, `--data-root`, `--kb`, `--no-audit`);
//! 2. environment variables: `IVD_HOME`, `IVD_CONFIG`, `IVD_DATA_ROOT`, `IVD_KB`, `IVD_MODELS`, `IVD_AUDIT`,
//!    `IVD_TOOL_TIMEOUT_S`, `IVD_SKILLS_DISABLED` (comma-separated); for the language model the OpenAI
//!    names every client knows, `OPENAI_BASE_URL`, `OPENAI_API_KEY`, plus `IVD_LLM_MODEL`,
//!    `IVD_LLM_TIMEOUT_S`, `IVD_LLM_CONCURRENCY`, `IVD_LLM_RETRIES`, `IVD_MAX_TURNS` (`IVD_LLM_BASE_URL`
//!    and `IVD_LLM_API_KEY` win over the OpenAI names when both are set), `IVD_PROFILE`, `IVD_HISTORY`;
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
    /// Skill names turned off, and at most how many model turns the agent loop takes.
    pub skills_disabled: Vec<String>,
    pub max_turns: u32,
    /// The candidate profile sessions are stored under, and whether they are stored at all.
    pub profile: String,
    pub history: bool,
}

/// The language model's settings. A model is used when a base URL or a model name is set and
/// `enabled` (`--no-llm` clears it).
#[derive(Debug, Clone)]
pub struct LlmSettings {
    pub base_url: Option<String>,
    pub model: Option<String>,
    pub api_key: Option<Secret>,
    pub enabled: bool,
    /// Per attempt, in seconds.
    pub timeout_s: u64,
    /// Retries after the first attempt, on 429, 5xx, timeouts and refused connections.
    pub retries: u32,
    /// Requests in flight at once.
    pub concurrency: usize,
}

impl Default for LlmSettings {
    fn default() -> LlmSettings {
        LlmSettings {
            base_url: None,
            model: None,
            api_key: None,
            enabled: true,
            timeout_s: DEFAULT_LLM_TIMEOUT_S,
            retries: DEFAULT_LLM_RETRIES,
            concurrency: DEFAULT_LLM_CONCURRENCY,
        }
    }
}

impl LlmSettings {
    /// Whether a model should be asked at all.
    pub fn configured(&self) -> bool {
        self.enabled && (self.base_url.is_some() || self.model.is_some())
    }

    /// The model name asked for (servers with one model, such as llama.cpp's, ignore it).
    pub fn model_name(&self) -> String {
        self.model.clone().unwrap_or_else(|| DEFAULT_LLM_MODEL.to_string())
    }
}

/// A secret that prints as `***` however it is formatted, so no `{:?}` of the settings can leak it.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(s: String) -> Secret {
        Secret(s)
    }
    /// The value itself, for the one place that sends it (the Authorization header).
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("***")
    }
}

impl std::fmt::Display for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("***")
    }
}

/// Values given on the command line.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    pub home: Option<PathBuf>,
    pub config_file: Option<PathBuf>,
    pub data_root: Option<PathBuf>,
    pub kb_dir: Option<PathBuf>,
    pub audit: Option<bool>,
    pub llm_base_url: Option<String>,
    pub llm_model: Option<String>,
    /// Name of the environment variable holding the key (a key on the command line would show in `ps`).
    pub llm_api_key_env: Option<String>,
    /// `--no-llm`.
    pub no_llm: bool,
    pub profile: Option<String>,
    /// `--no-history`.
    pub no_history: bool,
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
    max_turns: Option<u32>,
    profile: Option<String>,
    history: Option<bool>,
    llm: Option<FileLlm>,
    skills: Option<FileSkills>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSkills {
    #[serde(default)]
    disabled: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileLlm {
    base_url: Option<String>,
    model: Option<String>,
    /// Name of the environment variable that holds the key; keys are not stored in files.
    api_key_env: Option<String>,
    enabled: Option<bool>,
    timeout_s: Option<u64>,
    retries: Option<u32>,
    concurrency: Option<usize>,
}

const DEFAULT_TOOL_TIMEOUT_S: u64 = 120;
/// A diagnosis asks one question per request with a short answer; a minute covers a slow local model.
const DEFAULT_LLM_TIMEOUT_S: u64 = 60;
const DEFAULT_LLM_RETRIES: u32 = 3;
/// Hosted endpoints allow far more; a local server on a laptop gains little past a few.
const DEFAULT_LLM_CONCURRENCY: usize = 8;
const DEFAULT_LLM_MODEL: &str = "gpt-4o-mini";
const DEFAULT_MAX_TURNS: u32 = 8;
pub const DEFAULT_PROFILE: &str = "default";

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
        let mut file = config_file(o, env, &home)?;
        let llm = llm_settings(o, env, file.llm.take().unwrap_or_default())?;
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
            None => flag(env, "IVD_AUDIT")?.or(file.audit).unwrap_or(true),
        };
        let tool_timeout_s = number(env, "IVD_TOOL_TIMEOUT_S", "a whole number of seconds")?.or(file.tool_timeout_s);
        let mut skills_disabled = file.skills.map(|s| s.disabled).unwrap_or_default();
        if let Some(v) = env("IVD_SKILLS_DISABLED") {
            skills_disabled = v.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
        }
        let profile = o
            .profile
            .clone()
            .or_else(|| env("IVD_PROFILE"))
            .or(file.profile)
            .unwrap_or_else(|| DEFAULT_PROFILE.to_string());
        if profile.trim().is_empty() || profile.len() > 64 || profile.chars().any(|c| c.is_control()) {
            return Err(ConfigError::Value {
                name: "profile",
                value: profile,
                expected: "a name of 1-64 printable characters",
            });
        }
        let history = !o.no_history && flag(env, "IVD_HISTORY")?.or(file.history).unwrap_or(true);
        Ok(Config {
            profile,
            history,
            home,
            data_root,
            kb_dir,
            models_dir,
            audit,
            tool_timeout_s: tool_timeout_s.unwrap_or(DEFAULT_TOOL_TIMEOUT_S),
            llm,
            skills_disabled,
            max_turns: number(env, "IVD_MAX_TURNS", "a whole number")?
                .or(file.max_turns)
                .unwrap_or(DEFAULT_MAX_TURNS)
                .max(1),
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
            skills_disabled: Vec::new(),
            max_turns: DEFAULT_MAX_TURNS,
            profile: DEFAULT_PROFILE.to_string(),
            history: true,
        }
    }
}

fn number<T: std::str::FromStr>(
    env: &dyn Fn(&str) -> Option<String>,
    name: &'static str,
    expected: &'static str,
) -> Result<Option<T>, ConfigError> {
    match env(name) {
        Some(v) => v.trim().parse().map(Some).map_err(|_| ConfigError::Value { name, value: v, expected }),
        None => Ok(None),
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

/// The file named by `--config` or IVD_CONFIG, else `$IVD_HOME/ivd.toml` when there is one.
fn config_file(o: &Overrides, env: &dyn Fn(&str) -> Option<String>, home: &Path) -> Result<FileConfig, ConfigError> {
    match o.config_file.clone().or_else(|| env("IVD_CONFIG").map(PathBuf::from)) {
        Some(p) => read_file(&p),
        None => {
            let p = home.join("ivd.toml");
            if p.is_file() {
                read_file(&p)
            } else {
                Ok(FileConfig::default())
            }
        }
    }
}

/// A yes/no setting from the environment, if set.
fn flag(env: &dyn Fn(&str) -> Option<String>, name: &'static str) -> Result<Option<bool>, ConfigError> {
    env(name).map(|v| parse_bool(name, &v)).transpose()
}

/// The model's settings: flags, then IVD_LLM_* (then OpenAI's own names), then the file's `[llm]`.
fn llm_settings(
    o: &Overrides,
    env: &dyn Fn(&str) -> Option<String>,
    file: FileLlm,
) -> Result<LlmSettings, ConfigError> {
    let key_env = o.llm_api_key_env.clone().or(file.api_key_env);
    let api_key = match &key_env {
        Some(name) => env(name),
        None => env("IVD_LLM_API_KEY").or_else(|| env("OPENAI_API_KEY")),
    };
    Ok(LlmSettings {
        base_url: o
            .llm_base_url
            .clone()
            .or_else(|| env("IVD_LLM_BASE_URL"))
            .or_else(|| env("OPENAI_BASE_URL"))
            .or(file.base_url),
        model: o.llm_model.clone().or_else(|| env("IVD_LLM_MODEL")).or(file.model),
        api_key: api_key.map(Secret::new),
        enabled: !o.no_llm && file.enabled.unwrap_or(true),
        timeout_s: number(env, "IVD_LLM_TIMEOUT_S", "a whole number of seconds")?
            .or(file.timeout_s)
            .unwrap_or(DEFAULT_LLM_TIMEOUT_S)
            .max(1),
        retries: number(env, "IVD_LLM_RETRIES", "a whole number")?.or(file.retries).unwrap_or(DEFAULT_LLM_RETRIES),
        concurrency: number(env, "IVD_LLM_CONCURRENCY", "a whole number")?
            .or(file.concurrency)
            .unwrap_or(DEFAULT_LLM_CONCURRENCY)
            .max(1),
    })
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
    fn llm_settings_layer_and_hide_the_key() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("ivd.toml"),
            "[llm]\nbase_url = \"http://file\"\nmodel = \"m-file\"\napi_key_env = \"MY_KEY\"\nconcurrency = 3\n",
        )
        .unwrap();
        let env: HashMap<&str, &str> = [
            ("IVD_HOME", dir.path().to_str().unwrap()),
            ("OPENAI_BASE_URL", "http://env"),
            ("MY_KEY", "sk-sentinel"),
            ("OPENAI_API_KEY", "other"),
        ]
        .into();
        let lookup = |k: &str| env.get(k).map(|v| v.to_string());
        let c = Config::load_with(&Overrides::default(), &lookup).unwrap();
        assert_eq!(c.llm.base_url.as_deref(), Some("http://env"));
        assert_eq!(c.llm.model.as_deref(), Some("m-file"));
        assert_eq!(c.llm.api_key.as_ref().map(Secret::expose), Some("sk-sentinel"));
        assert_eq!(c.llm.concurrency, 3);
        assert!(c.llm.configured());
        assert!(!format!("{c:?}").contains("sk-sentinel"));
        let o = Overrides { llm_model: Some("m-flag".into()), no_llm: true, ..Default::default() };
        let c = Config::load_with(&o, &lookup).unwrap();
        assert_eq!(c.llm.model.as_deref(), Some("m-flag"));
        assert!(!c.llm.configured());
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

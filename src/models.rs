//! Model files: where they live, what the manifest promises, and provisioning.
//!
//! Everything lands in one folder (`Config::models_dir`: `IVD_MODELS`, else `$IVD_HOME/models`) with a `manifest.json` of
//! names, sizes, sha256 and sources, written by `scripts/provision_models.py` (compiled in and run
//! by `ivd models fetch`). Python is used only there, never at run time.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::config::Config;

/// The provisioning script, written to a temporary file and run by `ivd models fetch`.
const PROVISION_SCRIPT: &str = include_str!("../scripts/provision_models.py");
/// Its CAM++ converter (numpy + onnx, no torch), written beside it and named on its command line.
const CAMPPLUS_CONVERTER: &str = include_str!("../scripts/campplus_onnx.py");
/// Records which files were hashed and found intact, by size and modification time, so a load does
/// not re-hash 120 MB each time; any change to a file makes it be hashed again.
const VERIFIED_STAMP: &str = ".verified.json";

pub const ONNXRUNTIME: &str = "onnxruntime";
pub const E5_INT8: &str = "e5-int8";
pub const E5_FP32: &str = "e5-fp32";
pub const E5_TOKENIZER: &str = "e5-tokenizer";
pub const E5_CONFIG: &str = "e5-config";
pub const E5_SPECIAL_TOKENS: &str = "e5-special-tokens";
pub const E5_TOKENIZER_CONFIG: &str = "e5-tokenizer-config";
pub const WHISPER_BASE: &str = "whisper-base";
/// Whisper base with its weight matrices in q8_0, made from the f16 file at provisioning: the
/// encoder a quarter faster on two cores, the same words on the recordings measured.
pub const WHISPER_BASE_Q8: &str = "whisper-base-q8";
pub const SILERO_VAD: &str = "silero-vad";
pub const SPEAKER_CAMPPLUS: &str = "speaker-campplus";

#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("no models in {0}: run `ivd models fetch` to provision them")]
    NotProvisioned(PathBuf),
    #[error("the model manifest {path} is unreadable: {message}; run `ivd models fetch` to repair it")]
    BadManifest { path: PathBuf, message: String },
    #[error("{name} is not in the manifest {manifest}; run `ivd models fetch` to provision it")]
    NotInManifest { name: String, manifest: PathBuf },
    #[error("model file {path} is missing; run `ivd models fetch` to repair it")]
    Missing { path: PathBuf },
    #[error("model file {path} is {actual} bytes, the manifest says {expected} (truncated or replaced); run `ivd models fetch` to repair it")]
    WrongSize { path: PathBuf, expected: u64, actual: u64 },
    #[error("model file {path} does not match its checksum in the manifest (corrupt or replaced); run `ivd models fetch` to repair it")]
    Checksum { path: PathBuf },
    #[error("cannot read {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("provisioning failed: {0}")]
    Fetch(String),
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ManifestFile {
    pub name: String,
    pub path: String,
    pub size: u64,
    pub sha256: String,
    #[serde(default)]
    pub source: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    pub version: u32,
    pub files: Vec<ManifestFile>,
}

/// A manifest entry and whether its file is intact.
pub type FileCheck = (ManifestFile, Result<(), ModelError>);

/// The models folder of this configuration.
#[derive(Debug, Clone)]
pub struct Models {
    pub dir: PathBuf,
}

impl Models {
    pub fn new(config: &Config) -> Models {
        Models { dir: config.models_dir.clone() }
    }

    pub fn manifest_path(&self) -> PathBuf {
        self.dir.join("manifest.json")
    }

    pub fn is_provisioned(&self) -> bool {
        self.manifest_path().is_file()
    }

    pub fn manifest(&self) -> Result<Manifest, ModelError> {
        let path = self.manifest_path();
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(ModelError::NotProvisioned(self.dir.clone()))
            }
            Err(source) => return Err(ModelError::Io { path, source }),
        };
        serde_json::from_str(&text).map_err(|e| ModelError::BadManifest { path, message: e.to_string() })
    }

    /// The path of a named file, checked against the manifest: size always, sha256 when the file
    /// changed since it was last found intact.
    pub fn file(&self, name: &str) -> Result<PathBuf, ModelError> {
        let manifest = self.manifest()?;
        let entry = manifest
            .files
            .iter()
            .find(|f| f.name == name)
            .ok_or_else(|| ModelError::NotInManifest { name: name.to_string(), manifest: self.manifest_path() })?;
        self.check(entry)?;
        Ok(self.dir.join(&entry.path))
    }

    /// The Whisper model to transcribe with: the q8_0 file, or the f16 one in a folder provisioned
    /// before the q8_0 file existed (`ivd models fetch` adds it).
    pub fn whisper(&self) -> Result<PathBuf, ModelError> {
        match self.file(WHISPER_BASE_Q8) {
            Err(ModelError::NotInManifest { .. }) => {
                tracing::warn!("transcribing with the f16 Whisper model; `ivd models fetch` adds the faster q8_0 one");
                self.file(WHISPER_BASE)
            }
            other => other,
        }
    }

    fn check(&self, f: &ManifestFile) -> Result<(), ModelError> {
        let path = self.dir.join(&f.path);
        let meta = match std::fs::metadata(&path) {
            Ok(m) => m,
            Err(_) => return Err(ModelError::Missing { path }),
        };
        if meta.len() != f.size {
            return Err(ModelError::WrongSize { path, expected: f.size, actual: meta.len() });
        }
        let mtime = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let stamp_key = format!("{}:{}:{}:{}", f.path, f.size, mtime, f.sha256);
        let stamp_path = self.dir.join(VERIFIED_STAMP);
        let mut stamps: BTreeMap<String, String> =
            std::fs::read_to_string(&stamp_path).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default();
        if stamps.get(&f.name) == Some(&stamp_key) {
            return Ok(());
        }
        if sha256_file(&path)? != f.sha256 {
            return Err(ModelError::Checksum { path });
        }
        stamps.insert(f.name.clone(), stamp_key);
        if let Ok(text) = serde_json::to_string_pretty(&stamps) {
            // Only a cache: failing to write it costs a re-hash next time, nothing more.
            let _ = std::fs::write(&stamp_path, text);
        }
        Ok(())
    }

    /// Check every file of the manifest; the problems found, one per bad file.
    pub fn verify_all(&self) -> Result<Vec<FileCheck>, ModelError> {
        let m = self.manifest()?;
        Ok(m.files
            .into_iter()
            .map(|f| {
                let r = self.check(&f);
                (f, r)
            })
            .collect())
    }

    /// Run the provisioning script. It is idempotent: with everything in place it only verifies.
    pub fn fetch(&self, source: &str, skip_whisper: bool) -> Result<(), ModelError> {
        std::fs::create_dir_all(&self.dir).map_err(|source| ModelError::Io { path: self.dir.clone(), source })?;
        let script = self.dir.join(".provision_models.py");
        std::fs::write(&script, PROVISION_SCRIPT).map_err(|source| ModelError::Io { path: script.clone(), source })?;
        let converter = self.dir.join(".campplus_onnx.py");
        std::fs::write(&converter, CAMPPLUS_CONVERTER)
            .map_err(|source| ModelError::Io { path: converter.clone(), source })?;
        let python = std::env::var("IVD_PYTHON").unwrap_or_else(|_| "python3".into());
        let mut cmd = Command::new(&python);
        cmd.arg(&script).arg("--dest").arg(&self.dir).arg("--source").arg(source);
        cmd.arg("--campplus-converter").arg(&converter);
        if skip_whisper {
            cmd.arg("--skip-whisper");
        }
        let status = cmd.status().map_err(|e| {
            ModelError::Fetch(format!(
                "cannot run {python}: {e}; provisioning needs Python 3 (set IVD_PYTHON to another interpreter)"
            ))
        })?;
        if status.success() {
            Ok(())
        } else {
            Err(ModelError::Fetch(format!("the provisioning script exited with {status}; see its messages above")))
        }
    }
}

/// ONNX Runtime allows one environment per process; it is made once, from the provisioned
/// library, and shared by the embedder and the Silero voice-activity detector.
static ORT: std::sync::OnceLock<Result<ort::environment::Environment, String>> = std::sync::OnceLock::new();

/// The process's ONNX Runtime environment, loading the library at `lib` on first use.
pub fn onnx_environment(lib: &Path) -> Result<ort::environment::Environment, String> {
    ORT.get_or_init(|| {
        let builder = ort::init_from(lib).map_err(|e| e.to_string())?;
        builder.with_name("ivd").build().map_err(|e| e.to_string())
    })
    .clone()
}

pub fn sha256_file(path: &Path) -> Result<String, ModelError> {
    let mut f = std::fs::File::open(path).map_err(|source| ModelError::Io { path: path.to_path_buf(), source })?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf).map_err(|source| ModelError::Io { path: path.to_path_buf(), source })?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

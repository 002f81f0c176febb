//! Helpers shared by the integration tests: the built binary, temp homes, sample paths.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn samples() -> PathBuf {
    root().join("data/transcripts")
}

/// Every rendered sample transcript (each has a `.expected.json` beside it).
pub fn sample_files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(samples())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            !name.contains(".expected.")
                && name != "README.md"
                && matches!(
                    p.extension().and_then(|e| e.to_str()),
                    Some("txt" | "vtt" | "srt" | "json" | "md" | "docx" | "pdf")
                )
        })
        .collect();
    v.sort();
    v
}

pub fn expected_for(p: &Path) -> PathBuf {
    p.with_extension("expected.json")
}

/// A home whose embedding cache holds the whole knowledge base: made once per test process by
/// `ivd models fetch`, which warms a home as it does a user's. Without it every test home spends
/// minutes of both cores embedding the same base again.
fn warm_home() -> &'static Path {
    // scripts/test.sh provisions into such a home already: no need to embed the base once more.
    static GIVEN: OnceLock<Option<PathBuf>> = OnceLock::new();
    let given = GIVEN.get_or_init(|| {
        std::env::var_os("IVD_TEST_WARM_HOME").map(PathBuf::from).filter(|h| h.join("ivd.sqlite").is_file())
    });
    if let Some(h) = given {
        return h;
    }
    static HOME: OnceLock<tempfile::TempDir> = OnceLock::new();
    HOME.get_or_init(|| {
        let home = tempfile::tempdir().unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_ivd"))
            .env("IVD_HOME", home.path())
            .env("IVD_MODELS", crate::semantic::models().dir)
            .env_remove("IVD_CONFIG")
            .env_remove("IVD_KB")
            .args(["models", "fetch"])
            .output()
            .unwrap();
        assert!(o.status.success(), "warming a home: {}", String::from_utf8_lossy(&o.stderr));
        home
    })
    .path()
}

/// Give `home` a copy of the warmed embedding cache (vectors only: no history, no sessions).
pub fn seed_embeddings(home: &Path) {
    std::fs::copy(warm_home().join("ivd.sqlite"), home.join("ivd.sqlite")).unwrap();
}

/// `ivd` with a private IVD_HOME, run to completion.
pub struct Ivd {
    pub home: tempfile::TempDir,
    pub models: Option<PathBuf>,
}

impl Ivd {
    /// Without models: BM25 only. Most tests are about other things and need not load the model
    /// in every process they start.
    pub fn new() -> Ivd {
        Ivd { home: tempfile::tempdir().unwrap(), models: None }
    }

    /// With the provisioned models of IVD_MODELS, and the knowledge base already embedded.
    pub fn with_models() -> Ivd {
        let home = tempfile::tempdir().unwrap();
        seed_embeddings(home.path());
        Ivd { home, models: Some(crate::semantic::models().dir) }
    }

    pub fn cmd(&self) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_ivd"));
        c.env("IVD_HOME", self.home.path()).env_remove("IVD_CONFIG").env_remove("IVD_DATA_ROOT").env_remove("IVD_KB");
        // No test reaches a model it did not start itself.
        for k in ["OPENAI_BASE_URL", "OPENAI_API_KEY", "IVD_LLM_BASE_URL", "IVD_LLM_API_KEY", "IVD_LLM_MODEL"] {
            c.env_remove(k);
        }
        match &self.models {
            Some(m) => c.env("IVD_MODELS", m),
            None => c.env("IVD_MODELS", self.home.path().join("no-models")),
        };
        c
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.cmd().args(args).output().unwrap()
    }

    pub fn run_in(&self, dir: &Path, args: &[&str], stdin: Option<&str>) -> Output {
        let mut c = self.cmd();
        c.current_dir(dir).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = c.spawn().unwrap();
        if let Some(input) = stdin {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        } else {
            drop(child.stdin.take());
        }
        child.wait_with_output().unwrap()
    }
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Whitespace-insensitive form: runs of whitespace are one space, and none next to Chinese.
pub fn norm(s: &str) -> String {
    let collapsed: Vec<char> = s.split_whitespace().collect::<Vec<_>>().join(" ").chars().collect();
    let wide = |c: char| matches!(c, '\u{3000}'..='\u{303F}' | '\u{4E00}'..='\u{9FFF}' | '\u{FF00}'..='\u{FFEF}');
    let mut out = String::new();
    for (i, &c) in collapsed.iter().enumerate() {
        if c == ' ' {
            let prev = i.checked_sub(1).map(|j| collapsed[j]);
            let next = collapsed.get(i + 1).copied();
            if prev.is_some_and(wide) || next.is_some_and(wide) {
                continue;
            }
        }
        out.push(c);
    }
    out
}

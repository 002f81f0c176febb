//! `ivd bench --batch`: batch throughput (transcripts per second) with 1 and 2 jobs, peak memory
//! (through GNU time), and how many times the embedding model is loaded per batch (once per
//! process, not once per file: the log's load lines are counted).

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use anyhow::anyhow;

use super::CliError;
use crate::config::Config;

const FILES: usize = 60;

pub(super) fn run(config: &Config) -> Result<(), CliError> {
    let work = config.home.join(format!("bench-batch-{}", std::process::id()));
    let input = work.join("in");
    corpus(&input)?;
    let exe = std::env::current_exe().map_err(|e| anyhow!("cannot find ivd itself: {e}"))?;
    println!("batch of {FILES} transcripts (5 formats), reports as JSON, history off");
    println!("{:>5} {:>9} {:>12} {:>14} {:>12}", "jobs", "seconds", "files/s", "peak memory", "model loads");
    // A first pass fills the embedding cache of this home (what `ivd models fetch` does once).
    for (jobs, measured) in [(2, false), (1, true), (2, true)] {
        let out = work.join(format!("out-{jobs}-{measured}"));
        let started = Instant::now();
        let o = Command::new("/usr/bin/time")
            .args(["-f", "IVD_PEAK_KB=%M"])
            .arg(&exe)
            .args(["-v", "--no-history", "--no-audit", "batch"])
            .arg(&input)
            .arg("--out")
            .arg(&out)
            .args(["--jobs", &jobs.to_string(), "--format", "json"])
            .env("IVD_HOME", &config.home)
            .env("IVD_MODELS", &config.models_dir)
            .output()
            .map_err(|e| anyhow!("cannot run the batch through /usr/bin/time (apt-get install time): {e}"))?;
        let secs = started.elapsed().as_secs_f64();
        let err = String::from_utf8_lossy(&o.stderr);
        if !o.status.success() {
            return Err(anyhow!("the batch failed: {err}").into());
        }
        let peak = err.lines().rev().find_map(|l| l.strip_prefix("IVD_PEAK_KB=")).unwrap_or("?");
        let loads = err.lines().filter(|l| l.contains("embedding model") && l.contains("loaded in")).count();
        if !measured {
            continue;
        }
        println!("{jobs:>5} {secs:>9.2} {:>12.1} {:>11} kB {loads:>12}", FILES as f64 / secs, peak);
    }
    let _ = std::fs::remove_dir_all(&work);
    Ok(())
}

/// The test corpus's recipe: samples with one more exchange each, so every file differs.
fn corpus(dir: &Path) -> Result<(), CliError> {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/transcripts");
    let bases = [
        ("en_agent_labeled.txt", "txt"),
        ("en_agent_qa.txt", "txt"),
        ("en_podcast.md", "md"),
        ("en_agent.srt", "srt"),
        ("en_agent_zoom.vtt", "vtt"),
    ];
    std::fs::create_dir_all(dir).map_err(|e| anyhow!("cannot create {}: {e}", dir.display()))?;
    for i in 0..FILES {
        let (base, ext) = bases[i % bases.len()];
        let mut text =
            std::fs::read_to_string(samples.join(base)).map_err(|e| anyhow!("cannot read the sample {base}: {e}"))?;
        let extra = format!("One last thing, number {i}: how do you keep costs down?");
        match ext {
            "srt" => text.push_str(&format!("\n\n999\n01:59:00,000 --> 01:59:05,000\n{extra}\n")),
            "vtt" => text.push_str(&format!("\n\n01:59:00.000 --> 01:59:05.000\n{extra}\n")),
            _ => text.push_str(&format!("\n\nInterviewer: {extra}\n")),
        }
        std::fs::write(dir.join(format!("t{i:03}.{ext}")), text)
            .map_err(|e| anyhow!("cannot write the corpus: {e}"))?;
    }
    Ok(())
}

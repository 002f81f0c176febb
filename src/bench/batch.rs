//! `ivd bench --batch`: batch throughput (transcripts per second) with 1 and 2 jobs, peak memory
//! (through GNU time), and how many times the embedding model is loaded per batch (once per
//! process, not once per file: the log's load lines are counted).

use std::process::Command;
use std::time::Instant;

use super::{fail, BenchError};
use crate::config::Config;

const FILES: usize = 60;

pub fn run(config: &Config) -> Result<(), BenchError> {
    let work = config.home.join(format!("bench-batch-{}", std::process::id()));
    let input = work.join("in");
    super::samples::corpus(&input, FILES, 1)?;
    let exe = std::env::current_exe().map_err(|e| fail!("cannot find ivd itself: {e}"))?;
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
            .map_err(|e| fail!("cannot run the batch through /usr/bin/time (apt-get install time): {e}"))?;
        let secs = started.elapsed().as_secs_f64();
        let err = String::from_utf8_lossy(&o.stderr);
        if !o.status.success() {
            return Err(fail!("the batch failed: {err}"));
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

//! `ivd bench --compare`: many answers scored in one process (`compare --input`) against the naive
//! way, one `ivd compare` process per answer, on the development bank imported as a user would.
//! Every answer is new to the embedding cache (a run tag is appended), so the figure includes
//! embedding each answer with the model; the base's own vectors are embedded by the first pass.

use std::process::Command;
use std::time::Instant;

use super::{fail, BenchError};
use crate::config::Config;

const BANK: &str = include_str!("../../data/eval/dev_bank.jsonl");
const GRADED: &str = include_str!("../../data/eval/dev_bank_graded.jsonl");
/// Answers scored one process each: enough for a per-answer time, not the whole set.
const NAIVE: usize = 8;

pub fn run(config: &Config) -> Result<(), BenchError> {
    let work = config.home.join(format!("bench-compare-{}", std::process::id()));
    std::fs::create_dir_all(&work)?;
    let bank = work.join("dev_bank.jsonl");
    std::fs::write(&bank, BANK)?;
    let kb = work.join("kb");
    crate::kb::bank::import(&bank, &kb, None, true).map_err(|e| fail!("importing the bank: {e}"))?;
    let exe = std::env::current_exe().map_err(|e| fail!("cannot find ivd itself: {e}"))?;
    let ivd = |args: &[&str]| -> Result<std::process::Output, BenchError> {
        let o = Command::new(&exe)
            .args(["--no-history", "--no-audit", "--kb"])
            .arg(&kb)
            .args(args)
            .env("IVD_HOME", &config.home)
            .env("IVD_MODELS", &config.models_dir)
            .output()?;
        if o.status.success() {
            Ok(o)
        } else {
            Err(fail!("ivd {} failed: {}", args.join(" "), String::from_utf8_lossy(&o.stderr)))
        }
    };
    let rows = |tag: &str| -> Result<(std::path::PathBuf, Vec<serde_json::Value>), BenchError> {
        let mut rows = Vec::new();
        let mut text = String::new();
        for line in GRADED.lines().filter(|l| !l.trim().is_empty()) {
            let mut v: serde_json::Value = serde_json::from_str(line)?;
            let answer = format!("{} ({tag})", v["answer"].as_str().unwrap_or(""));
            v["answer"] = serde_json::Value::from(answer);
            text.push_str(&serde_json::to_string(&v)?);
            text.push('\n');
            rows.push(v);
        }
        let path = work.join(format!("{tag}.jsonl"));
        std::fs::write(&path, text)?;
        Ok((path, rows))
    };
    // Warm-up: the base's vectors into this home's cache, as `ivd models fetch` does for ours.
    let (warm, _) = rows("warm-up")?;
    ivd(&["compare", "--input", &warm.to_string_lossy(), "--format", "jsonl"])?;
    let tag = format!("run {}", std::process::id());
    let (input, all) = rows(&tag)?;
    let started = Instant::now();
    let o = ivd(&["compare", "--input", &input.to_string_lossy(), "--format", "jsonl"])?;
    let batch = started.elapsed().as_secs_f64();
    let lines = String::from_utf8_lossy(&o.stdout).lines().count();
    let started = Instant::now();
    for v in all.iter().take(NAIVE) {
        let (q, a) = (v["question"].as_str().unwrap_or(""), format!("{} (naive)", v["answer"].as_str().unwrap_or("")));
        ivd(&["compare", "--question", q, "--answer", &a, "--format", "json"])?;
    }
    let naive = started.elapsed().as_secs_f64() / NAIVE as f64;
    let _ = std::fs::remove_dir_all(&work);
    println!("compare --input: {lines} new answers against an imported 20-question bank, models loaded once");
    println!("  one process      {batch:>7.2} s  {:>6.1} answers/s", lines as f64 / batch);
    println!("  one per answer   {:>7.2} s  {:>6.1} answers/s  (mean of {NAIVE} processes)", naive, 1.0 / naive);
    println!("  ratio            {:>7.1}x", naive * lines as f64 / batch);
    Ok(())
}

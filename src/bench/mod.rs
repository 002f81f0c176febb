//! `ivd bench`: figures for the README and notes, measured in-process on this machine, kept out
//! of the product's paths (only the CLI calls it). [`samples`] builds the inputs, shared with the
//! tests.
//!
//! - [`search`]: knowledge-base load, index build and open; BM25 against a naive scan; embedding
//!   throughput; search latency per mode, on the shipped base and a synthetic 10,000-entry one;
//! - [`diagnosis`]: diagnosis of every sample transcript, cold and warm, and synthetic interviews;
//! - [`audio`]: the recording pipeline stage by stage, against whisper.cpp's own CLI;
//! - [`compare`]: many answers in one process against one process per answer;
//! - [`batch`]: batch throughput with 1 and 2 jobs; [`llm`]: model-assisted diagnosis against a
//!   slow fake endpoint;
//! - [`serve`]: the web console on loopback (page loads, diagnosis through the page against the
//!   CLI, a 10-minute recording, memory, concurrent loads during a diagnosis).

pub mod audio;
pub mod batch;
pub mod compare;
pub mod diagnosis;
pub mod llm;
pub mod samples;
pub mod search;
pub mod serve;
pub mod speakers;

use std::fmt;

/// A benchmark that could not run, and why. Any error converts into it, so bench code uses `?`
/// throughout; it is deliberately not a `std::error::Error` itself (that is what allows the
/// blanket conversion).
#[derive(Debug)]
pub struct BenchError(pub String);

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<E: std::error::Error> From<E> for BenchError {
    fn from(e: E) -> BenchError {
        BenchError(e.to_string())
    }
}

/// `BenchError` from a format string.
macro_rules! fail {
    ($($t:tt)*) => { $crate::bench::BenchError(format!($($t)*)) };
}
pub(crate) use fail;

pub fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The `p` quantile of sorted figures (nearest rank).
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Peak resident set size of this process, from /proc (Linux); "unknown" elsewhere.
pub fn peak_rss() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).map(|l| l.trim_start_matches("VmHWM:").trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

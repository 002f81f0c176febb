//! `ivd bench --serve`: the web console as a user meets it, against a real `ivd serve` process on
//! loopback: a page with its stylesheet and script (no browser: the bytes a browser waits for
//! before the page is interactive), a transcript diagnosed through the upload form against the
//! same through the CLI, a 10-minute recording uploaded and diagnosed, the server's memory idle
//! and during that diagnosis, and 20 page loads at once while it runs.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::{fail, ms, percentile, BenchError};
use crate::config::Config;

/// Length of the long recording (seconds): the sample interview repeated.
const LONG_S: f64 = 600.0;
const PAGE_RUNS: usize = 30;
const CONCURRENT: usize = 20;

struct Served {
    child: Child,
    base: String,
    token: String,
    http: reqwest::Client,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    fn start(exe: &Path, config: &Config, home: &Path) -> Result<Served, BenchError> {
        let mut child = Command::new(exe)
            .args(["--no-audit", "serve", "--port", "0"])
            .env("IVD_HOME", home)
            .env("IVD_MODELS", &config.models_dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let out = child.stdout.take().ok_or_else(|| fail!("no output from ivd serve"))?;
        let mut line = String::new();
        std::io::BufReader::new(out).read_line(&mut line)?;
        let (base, token) = line.trim().split_once("/?token=").ok_or_else(|| fail!("ivd serve printed {line:?}"))?;
        let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build()?;
        Ok(Served { child, base: base.to_string(), token: token.to_string(), http })
    }

    async fn get(&self, path: &str) -> Result<Vec<u8>, BenchError> {
        let r = self.http.get(format!("{}{path}", self.base)).header("x-ivd-token", &self.token).send().await?;
        if !r.status().is_success() {
            return Err(fail!("GET {path}: {}", r.status()));
        }
        Ok(r.bytes().await?.to_vec())
    }

    /// Upload and wait for the report; seconds from the first byte sent to the report ready.
    async fn diagnose(&self, file: &Path) -> Result<f64, BenchError> {
        let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let bytes = tokio::fs::read(file).await?;
        let started = Instant::now();
        let form = reqwest::multipart::Form::new().part("file", reqwest::multipart::Part::bytes(bytes).file_name(name));
        let r = self.http.post(format!("{}/diagnose?token={}", self.base, self.token)).multipart(form).send().await?;
        let job = r.headers().get("location").and_then(|l| l.to_str().ok()).map(str::to_string);
        let job = job.ok_or_else(|| fail!("the upload of {} was refused: {}", file.display(), r.status()))?;
        loop {
            let events = String::from_utf8_lossy(&self.get(&format!("{job}/events")).await?).into_owned();
            let last = events.lines().filter_map(|l| l.strip_prefix("data: ")).next_back().unwrap_or("{}");
            let state: serde_json::Value = serde_json::from_str(last)?;
            match state["status"].as_str() {
                Some("done") => return Ok(started.elapsed().as_secs_f64()),
                Some("running") | None => tokio::time::sleep(Duration::from_millis(50)).await,
                Some(other) => {
                    return Err(fail!("the diagnosis of {} ended {other}: {}", file.display(), state["message"]))
                }
            }
        }
    }

    fn rss(&self, field: &str) -> String {
        std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .ok()
            .and_then(|s| s.lines().find(|l| l.starts_with(field)).map(|l| l[field.len()..].trim().to_string()))
            .unwrap_or_else(|| "unknown".into())
    }
}

pub async fn run(config: &Config) -> Result<(), BenchError> {
    let work = config.home.join(format!("bench-serve-{}", std::process::id()));
    std::fs::create_dir_all(&work)?;
    let result = bench(config, &work).await;
    let _ = std::fs::remove_dir_all(&work);
    result
}

async fn bench(config: &Config, work: &Path) -> Result<(), BenchError> {
    let exe = std::env::current_exe().map_err(|e| fail!("cannot find ivd itself: {e}"))?;
    // The embedding cache of the user's home, copied: the server starts as it would for them.
    let home = work.join("home");
    std::fs::create_dir_all(&home)?;
    let db = config.home.join("ivd.sqlite");
    if db.exists() {
        std::fs::copy(&db, home.join("ivd.sqlite"))?;
    }
    let s = Served::start(&exe, config, &home)?;
    println!("ivd serve on {} (a child process; figures on loopback)", s.base);
    pages(&s).await?;
    let transcript = super::samples::transcripts_dir().join("en_agent_labeled.txt");
    s.diagnose(&transcript).await?; // warm-up: the knowledge base and the model load once
    let mut page = Vec::new();
    for _ in 0..3 {
        page.push(s.diagnose(&transcript).await?);
    }
    let cli = cli_diagnosis(&exe, config, &home, &transcript)?;
    let warm = in_process(config, &home, &transcript).await?;
    page.sort_by(f64::total_cmp);
    let p = page[1];
    println!("\ntranscript en_agent_labeled.txt, median of 3                  ms");
    println!("  through the page (upload, progress, 3 reports)      {:>9.0}", p * 1000.0);
    println!("  the same skill in-process, warm (what the page runs) {:>8.0}", warm * 1000.0);
    println!("  ivd diagnose, a new process (models loaded)         {:>9.0}", cli * 1000.0);
    println!("  page / in-process {:.2}x; page / CLI {:.2}x", p / warm, p / cli);
    let idle = s.rss("VmRSS:");
    let long = long_recording(work)?;
    let (secs, loads) = tokio::join!(s.diagnose(&long), concurrent_pages(&s));
    let secs = secs?;
    let loads = loads?;
    println!(
        "\n{:.0}-minute recording (WAV, {:.1} MiB): upload + diagnosis {secs:.1} s ({:.1}x real time)",
        LONG_S / 60.0,
        std::fs::metadata(&long)?.len() as f64 / 1048576.0,
        LONG_S / secs
    );
    println!("memory of the server: idle {idle}, peak during the diagnosis {}", s.rss("VmHWM:"));
    println!("{CONCURRENT} page loads at once during it: {loads}");
    Ok(())
}

/// A page and its assets, as a browser fetches them before the page is interactive.
async fn pages(s: &Served) -> Result<(), BenchError> {
    println!("\npage + app.css + app.js over one connection, {PAGE_RUNS} runs   p50 ms   p95 ms");
    for path in ["/", "/mock", "/history", "/kb?q=function%20calling", "/status"] {
        let mut times = Vec::new();
        for _ in 0..PAGE_RUNS {
            let t = Instant::now();
            s.get(path).await?;
            s.get("/assets/app.css").await?;
            s.get("/assets/app.js").await?;
            times.push(ms(t.elapsed()));
        }
        times.sort_by(f64::total_cmp);
        println!("  {path:<28} {:>27.1} {:>8.1}", percentile(&times, 0.5), percentile(&times, 0.95));
    }
    Ok(())
}

/// `ivd diagnose` of the same file, a new process each time (median of 3, seconds).
fn cli_diagnosis(exe: &Path, config: &Config, home: &Path, file: &Path) -> Result<f64, BenchError> {
    let mut times = Vec::new();
    for _ in 0..3 {
        let t = Instant::now();
        let o = Command::new(exe)
            .args(["--no-audit", "--no-history", "diagnose"])
            .arg(file)
            .args(["--format", "html"])
            .env("IVD_HOME", home)
            .env("IVD_MODELS", &config.models_dir)
            .output()?;
        if !o.status.success() {
            return Err(fail!("ivd diagnose failed: {}", String::from_utf8_lossy(&o.stderr)));
        }
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    Ok(times[1])
}

/// The diagnosis the page runs, in this process with a warm context (median of 3, seconds).
async fn in_process(config: &Config, home: &Path, file: &Path) -> Result<f64, BenchError> {
    let mut cfg = config.clone();
    cfg.home = home.to_path_buf();
    cfg.audit = false;
    let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let ctx = crate::tools::ToolContext::new(std::sync::Arc::new(cfg)).with_data_root(dir);
    let hints = crate::transcript::roles::RoleHints::default();
    let html = crate::report::ReportFormat::Html;
    let mut times = Vec::new();
    for i in 0..4 {
        let t = Instant::now();
        crate::skills::diagnose_transcript::run(&ctx, &name, &name, html, None, &hints).await?;
        if i > 0 {
            times.push(t.elapsed().as_secs_f64());
        }
    }
    times.sort_by(f64::total_cmp);
    Ok(times[1])
}

/// The sample interview repeated to [`LONG_S`] seconds, as a 16 kHz WAV.
fn long_recording(work: &Path) -> Result<PathBuf, BenchError> {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/recordings/interview_en.flac");
    let audio = crate::audio::decode::decode(&sample, false)?;
    let want = (LONG_S * f64::from(crate::audio::SAMPLE_RATE)) as usize;
    let path = work.join("interview_10min.wav");
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: crate::audio::SAMPLE_RATE,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::create(&path, spec)?;
    for x in audio.mono.iter().cycle().take(want) {
        w.write_sample((x * 32767.0) as i16)?;
    }
    w.finalize()?;
    Ok(path)
}

/// Page loads at once (each its own connection): how many were answered, and their latency.
async fn concurrent_pages(s: &Served) -> Result<String, BenchError> {
    tokio::time::sleep(Duration::from_secs(2)).await; // the diagnosis is under way
    let mut tasks = Vec::new();
    for i in 0..CONCURRENT {
        let (base, token) = (s.base.clone(), s.token.clone());
        tasks.push(tokio::spawn(async move {
            let http = reqwest::Client::new();
            let path = ["/", "/history", "/kb?q=memory", "/mock", "/status"][i % 5];
            let t = Instant::now();
            let r = http.get(format!("{base}{path}")).header("x-ivd-token", token).send().await;
            let ok = matches!(&r, Ok(r) if r.status().is_success());
            (ok, ms(t.elapsed()))
        }));
    }
    let mut answered = 0;
    let mut times = Vec::new();
    for t in tasks {
        let (ok, t) = t.await.map_err(|e| fail!("{e}"))?;
        answered += usize::from(ok);
        times.push(t);
    }
    times.sort_by(f64::total_cmp);
    Ok(format!(
        "{answered} of {CONCURRENT} answered, p50 {:.0} ms, max {:.0} ms",
        percentile(&times, 0.5),
        times.last().copied().unwrap_or(0.0)
    ))
}

//! Work that can be stopped and that never holds the async threads: blocking work on the blocking
//! pool (a timer keeps its pace beside two diagnoses), time limits that stop the work they cut
//! short, a failed knowledge-base load tried again, and Ctrl-C stopping commands promptly with
//! nothing half-written.

use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use interview_doctor::config::Config;
use interview_doctor::report::ReportFormat;
use interview_doctor::skills::diagnose_transcript;
use interview_doctor::tools::{ErrorCode, ToolContext, ToolRegistry};
use serde_json::json;

use crate::common::{samples, seed_embeddings, stderr, Ivd};

/// A context with the real models and a warmed cache, reading the sample transcripts.
fn context_with_models(home: &Path) -> ToolContext {
    seed_embeddings(home);
    let mut config = Config::with_home(home);
    config.models_dir = crate::semantic::models().dir;
    config.history = false;
    let mut ctx = ToolContext::new(Arc::new(config)).with_data_root(samples());
    ctx.audit = None;
    ctx
}

/// CPU time this process has used (user + system), from /proc.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f[11].parse::<f64>().unwrap() + f[12].parse::<f64>().unwrap();
    ticks / 100.0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_diagnoses_and_a_timer_share_one_runtime_and_the_timer_keeps_its_pace() {
    let home = tempfile::tempdir().unwrap();
    let ctx = context_with_models(home.path());
    ctx.load_kb().await.unwrap();
    // A timer ticking every 20 ms on the same two async threads: its worst lateness shows whether
    // any blocking work (SQLite, scoring, inference) ran on them.
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = stop.clone();
    let timer = tokio::spawn(async move {
        let mut worst = Duration::ZERO;
        let mut ticks = 0u32;
        while !flag.load(std::sync::atomic::Ordering::Relaxed) {
            let t = Instant::now();
            tokio::time::sleep(Duration::from_millis(20)).await;
            worst = worst.max(t.elapsed().saturating_sub(Duration::from_millis(20)));
            ticks += 1;
        }
        (worst, ticks)
    });
    // The first third of each long interview: both cores busy for tens of seconds is plenty to
    // see a held-up timer, and the whole files cost CI two minutes.
    let data = tempfile::tempdir().unwrap();
    let vtt = std::fs::read_to_string(samples().join("en_long_90min.vtt")).unwrap();
    let cues: Vec<&str> = vtt.split("\n\n").collect();
    std::fs::write(data.path().join("en.vtt"), cues[..cues.len() / 3].join("\n\n")).unwrap();
    let zh = std::fs::read_to_string(samples().join("zh_long_70min.txt")).unwrap();
    let lines: Vec<&str> = zh.lines().collect();
    std::fs::write(data.path().join("zh.txt"), lines[..lines.len() / 3].join("\n")).unwrap();
    let ctx = ctx.with_data_root(data.path().to_path_buf());
    let started = Instant::now();
    let hints = Default::default();
    let one = diagnose_transcript::run(&ctx, "en.vtt", "a", ReportFormat::Json, None, &hints);
    let two = diagnose_transcript::run(&ctx, "zh.txt", "b", ReportFormat::Html, None, &hints);
    let (a, b) = tokio::join!(one, two);
    let busy = started.elapsed();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let (worst, ticks) = timer.await.unwrap();
    let (a, b) = (a.unwrap().0.questions.len(), b.unwrap().0.questions.len());
    assert!(a >= 15 && b >= 12, "{a} and {b} questions");
    // The diagnoses kept both cores busy for seconds; the timer still ran on time.
    assert!(busy > Duration::from_secs(2), "too short to tell: {busy:?}");
    assert!(ticks as f64 >= busy.as_secs_f64() * 20.0, "{ticks} ticks in {busy:?}");
    assert!(worst < Duration::from_millis(250), "the timer was held up {worst:?} while two diagnoses ran for {busy:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_out_call_stops_its_work_on_the_blocking_pool() {
    let home = tempfile::tempdir().unwrap();
    let mut ctx = context_with_models(home.path());
    ctx.load_kb().await.unwrap();
    // An answer of 3,000 distinct sentences: embedding it takes many seconds of both cores.
    let answer: String = (0..3000)
        .map(|i| format!("In service {i} we cached tool results for {} minutes to cut latency. ", i % 97 + 3))
        .collect();
    ctx.timeout = Duration::from_millis(300);
    let registry = ToolRegistry::builtin();
    let started = Instant::now();
    let env = registry
        .execute("analyze_content", json!({"question": "How do you reduce agent latency?", "answer": answer}), &ctx)
        .await;
    assert_eq!(env.error.as_ref().map(|e| e.code), Some(ErrorCode::Timeout), "{:?}", env.error);
    assert!(started.elapsed() < Duration::from_secs(2), "the limit fired late: {:?}", started.elapsed());
    // The call's token was cancelled with the limit: the embedding stops at its next batch
    // (about a second of work at most), so the process goes quiet instead of embedding on.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let before = cpu_seconds();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let used = cpu_seconds() - before;
    assert!(used < 0.5, "{used:.2} s of CPU in 2 s after the time limit: the work went on");
}

#[tokio::test]
async fn a_failed_knowledge_base_load_is_tried_again() {
    let home = tempfile::tempdir().unwrap();
    let kb_dir = home.path().join("kb");
    let mut config = Config::with_home(home.path());
    config.kb_dir = Some(kb_dir.clone());
    config.models_dir = home.path().join("no-models");
    let ctx = ToolContext::new(Arc::new(config));
    let first = ctx.load_kb().await.unwrap_err();
    assert_eq!(first.code, ErrorCode::InputError, "{first:?}");
    // The user fixes it (here: the folder appears) and the same process tries again.
    copy_dir(&crate::common::root().join("knowledge_base"), &kb_dir);
    let kb = ctx.load_kb().await.unwrap();
    assert!(kb.kb.entries.len() > 100);
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let dest = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_dir(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).unwrap();
        }
    }
}

/// Send SIGINT to a running `ivd` once `ready` says it is at work, and how long it took to exit.
fn interrupt(mut child: Child, after: Duration) -> (std::process::Output, Duration) {
    std::thread::sleep(after);
    assert!(child.try_wait().unwrap().is_none(), "it finished before it could be interrupted");
    let sent = Instant::now();
    let ok = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(ok.success());
    loop {
        if child.try_wait().unwrap().is_some() || sent.elapsed() > Duration::from_secs(30) {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let waited = sent.elapsed();
    (child.wait_with_output().unwrap(), waited)
}

fn spawn(ivd: &Ivd, args: &[&str]) -> Child {
    ivd.cmd().args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()
}

#[test]
fn ctrl_c_stops_a_diagnosis_promptly_and_writes_nothing() {
    let ivd = Ivd::with_models();
    let dir = tempfile::tempdir().unwrap();
    // 600 exchanges whose answers nobody has embedded yet: a diagnosis of many seconds.
    let big: String = (0..600)
        .map(|i| {
            format!(
                "Interviewer: Question {i}: how would you keep agent number {i} within its budget?\n\nCandidate: For agent {i} I set a budget of {} tokens per task. When step {} fails we retry twice with backoff. We log every call of service {i} and review the {} slowest each week.\n\n",
                1000 + i * 7,
                i % 13,
                i % 29 + 3
            )
        })
        .collect();
    std::fs::write(dir.path().join("long.txt"), big).unwrap();
    let out = dir.path().join("report.html");
    let child = spawn(
        &ivd,
        &[
            "diagnose",
            dir.path().join("long.txt").to_str().unwrap(),
            "--format",
            "html",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    // Past the model load (seconds, and not interruptible), into the scoring.
    let (o, waited) = interrupt(child, Duration::from_secs(8));
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(stderr(&o).contains("stopped by Ctrl-C"), "{}", stderr(&o));
    assert!(waited < Duration::from_secs(2), "took {waited:?} to stop");
    assert!(!out.exists(), "a report was written");
    assert!(std::fs::read_dir(dir.path()).unwrap().count() == 1, "something else was written");
}

#[test]
fn ctrl_c_stops_a_knowledge_base_build_and_keeps_the_old_index() {
    // A home with no cached vectors: `kb build` embeds the whole base (a minute of both cores).
    let mut ivd = Ivd::new();
    ivd.models = Some(crate::semantic::models().dir);
    let index = ivd.home.path().join("index");
    let before = ivd.run(&["kb", "search", "RAG", "--mode", "bm25"]);
    assert!(before.status.success(), "{}", stderr(&before));
    let listing = |p: &Path| -> Vec<String> {
        let mut v: Vec<String> = walk(p);
        v.sort();
        v
    };
    assert!(!listing(&index).is_empty());
    // The BM25 index is rebuilt in a second; the answers are embedded for a minute after it.
    let (o, waited) = interrupt(spawn(&ivd, &["kb", "build"]), Duration::from_secs(8));
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(waited < Duration::from_secs(3), "took {waited:?} to stop");
    // A whole index is in place, no build folder is left over, and search answers as before.
    assert!(!listing(&index).iter().any(|p| p.contains("building")), "{:?}", listing(&index));
    let after = ivd.run(&["kb", "search", "RAG", "--mode", "bm25"]);
    assert!(after.status.success(), "{}", stderr(&after));
    assert_eq!(after.stdout, before.stdout);
}

fn walk(p: &Path) -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(p) {
        for e in rd.flatten() {
            let path = e.path();
            if path.is_dir() {
                out.extend(walk(&path));
            } else {
                out.push(path.display().to_string());
            }
        }
    }
    out
}

#[test]
fn ctrl_c_stops_eval_and_a_batch_which_resumes_later() {
    let ivd = Ivd::with_models();
    let (o, waited) = interrupt(spawn(&ivd, &["eval", "--no-retrieval"]), Duration::from_secs(8));
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(waited < Duration::from_secs(2), "eval took {waited:?} to stop");
    assert!(o.stdout.is_empty(), "eval printed a partial table");

    let input = tempfile::tempdir().unwrap();
    interview_doctor::bench::samples::corpus(input.path(), 100, 1).unwrap();
    let out = tempfile::tempdir().unwrap();
    let args = ["batch", input.path().to_str().unwrap(), "--out", out.path().to_str().unwrap(), "--jobs", "2"];
    let (o, waited) = interrupt(spawn(&ivd, &args), Duration::from_secs(6));
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(waited < Duration::from_secs(2), "batch took {waited:?} to stop");
    let done = std::fs::read_dir(out.path().join(".state")).map(|d| d.count()).unwrap_or(0);
    assert!(done < 100, "all {done} were done before the interrupt");
    // Every recorded state is whole JSON, and the next run does the rest.
    for e in std::fs::read_dir(out.path().join(".state")).into_iter().flatten().flatten() {
        let text = std::fs::read_to_string(e.path()).unwrap();
        serde_json::from_str::<serde_json::Value>(&text).unwrap();
    }
    let o = ivd.run(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains(&format!("{done} already done")), "{}", stderr(&o));
}

#[test]
fn ctrl_c_at_a_mock_question_saves_the_session_for_resume() {
    let ivd = Ivd::new();
    let mut child = ivd
        .cmd()
        .args(["mock", "--count", "2", "--seed", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take();
    let (o, waited) = interrupt(child, Duration::from_secs(3));
    drop(stdin);
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(waited < Duration::from_secs(2), "took {waited:?} to stop");
    assert!(stderr(&o).contains("--resume"), "{}", stderr(&o));
    let resumed = ivd.run_in(ivd.home.path(), &["mock", "--resume"], Some("/quit\n"));
    assert!(resumed.status.success(), "{}", stderr(&resumed));
}

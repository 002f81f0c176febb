//! Batch: 100 transcripts of mixed formats, a run killed with SIGKILL and resumed, three shards at
//! once then merged, and bad input listed with its reason.

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{samples, stderr, stdout, Ivd};

/// 100 distinct transcripts in five formats, in four sub-folders (the bench's corpus).
fn corpus(dir: &Path) {
    interview_doctor::bench::samples::corpus(dir, 100, 4).unwrap();
}

fn spawn(ivd: &Ivd, args: &[&str]) -> Child {
    ivd.cmd().args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()
}

fn states(out: &Path) -> usize {
    std::fs::read_dir(out.join(".state"))
        .map(|d| d.flatten().filter(|e| e.path().extension().is_some_and(|x| x == "json")).count())
        .unwrap_or(0)
}

fn summary(out: &Path) -> Vec<Value> {
    serde_json::from_slice::<Value>(&std::fs::read(out.join("summary.json")).unwrap())
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn a_killed_batch_resumes_without_redoing_or_corrupting() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    let out = dir.path().join("out");
    corpus(&input);
    let ivd = Ivd::new();
    let args = ["batch", input.to_str().unwrap(), "--out", out.to_str().unwrap(), "--jobs", "2"];
    let mut child = spawn(&ivd, &args);
    let started = Instant::now();
    while states(&out) < 10 {
        assert!(started.elapsed() < Duration::from_secs(300), "no progress");
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let done_before = states(&out);
    assert!(done_before < 100, "killed partway");

    let out2 = ivd.cmd().args(args).output().unwrap();
    assert!(out2.status.success(), "{}", stderr(&out2));
    let text = stdout(&out2);
    assert!(
        text.contains(&format!("100 of 100 file(s) diagnosed ({} this run, {done_before} skipped", 100 - done_before)),
        "{text}"
    );
    let rows = summary(&out);
    assert_eq!(rows.len(), 100);
    for r in &rows {
        assert_eq!(r["ok"], true, "{r}");
        for rep in r["reports"].as_array().unwrap() {
            let p = out.join(rep.as_str().unwrap());
            let bytes = std::fs::read(&p).unwrap();
            if p.extension().is_some_and(|x| x == "json") {
                let v: Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                assert!(v["questions"].as_array().unwrap().len() >= 4);
            } else {
                assert!(String::from_utf8(bytes).unwrap().trim_end().ends_with("</html>"));
            }
        }
    }
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert_eq!(index.matches("<tr class=\"ok\">").count(), 100);
    // A third run finds nothing to do.
    let out3 = ivd.cmd().args(args).output().unwrap();
    assert!(stdout(&out3).contains("(0 this run, 100 skipped"), "{}", stdout(&out3));
    let store = interview_doctor::store::Store::open(ivd.home.path()).unwrap();
    assert_eq!(store.integrity_check().unwrap(), "ok");
    assert!(store.sessions(None).unwrap().len() >= 100);
}

fn reports_by_file(out: &Path) -> Vec<(String, Value)> {
    summary(out)
        .iter()
        .map(|r| {
            let json =
                r["reports"].as_array().unwrap().iter().find(|p| p.as_str().unwrap().ends_with(".json")).unwrap();
            let mut v: Value =
                serde_json::from_slice(&std::fs::read(out.join(json.as_str().unwrap())).unwrap()).unwrap();
            v["meta"]["generated_at"] = Value::Null;
            v["meta"]["elapsed_ms"] = Value::Null;
            (r["file"].as_str().unwrap().to_string(), v)
        })
        .collect()
}

#[test]
fn three_shards_at_once_then_merge_equal_a_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    corpus(&input);
    let ivd = Ivd::new();
    let (single, sharded) = (dir.path().join("single"), dir.path().join("sharded"));
    let i = input.to_str().unwrap();
    let o = ivd
        .cmd()
        .args(["--no-history", "batch", i, "--out", single.to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let children: Vec<Child> = (0..3)
        .map(|k| {
            let shard = format!("{k}/3");
            spawn(
                &ivd,
                &[
                    "--no-history",
                    "batch",
                    i,
                    "--out",
                    sharded.to_str().unwrap(),
                    "--format",
                    "json",
                    "--shard",
                    &shard,
                ],
            )
        })
        .collect();
    let mut counts = Vec::new();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        let n: usize = err.split("batch: ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        counts.push(n);
    }
    assert_eq!(counts.iter().sum::<usize>(), 100, "every file in exactly one shard: {counts:?}");
    assert!(counts.iter().all(|&n| n > 15), "the shards share the work: {counts:?}");
    let m = ivd.run(&["batch", "merge", sharded.to_str().unwrap()]);
    assert!(m.status.success(), "{}", stderr(&m));
    assert!(stdout(&m).contains("100 of 100 file(s) diagnosed"));
    assert_eq!(reports_by_file(&single), reports_by_file(&sharded), "the same reports as one run");
    // The scheduler's index: JOB_COMPLETION_INDEX with --shard N.
    let o = ivd
        .cmd()
        .env("JOB_COMPLETION_INDEX", "1")
        .args(["--no-history", "batch", i, "--out", sharded.to_str().unwrap(), "--shard", "3"])
        .output()
        .unwrap();
    assert!(
        stderr(&o).contains(&format!("batch: {} file(s) in shard 1/3; {} already done", counts[1], counts[1])),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bad_input_is_listed_with_its_reason_and_fails_the_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let input: PathBuf = dir.path().join("in");
    corpus(&input);
    std::fs::write(input.join("empty.txt"), "").unwrap();
    std::fs::write(input.join("photo.png"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10").unwrap();
    std::fs::write(input.join("broken.wav"), b"RIFF\x24\0\0\0WAVEfmt ").unwrap();
    std::fs::write(
        input.join("zzz_vanishes.txt"),
        "Interviewer: What is RAG?\n\nCandidate: Retrieval, then generation.\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let ivd = Ivd::new();
    let child =
        spawn(&ivd, &["--no-history", "batch", input.to_str().unwrap(), "--out", out.to_str().unwrap(), "--jobs", "1"]);
    let started = Instant::now();
    while states(&out) < 1 {
        assert!(started.elapsed() < Duration::from_secs(300));
        std::thread::sleep(Duration::from_millis(20));
    }
    // Planned (hashed) at the start, gone by the time its turn comes: it sorts last.
    std::fs::remove_file(input.join("zzz_vanishes.txt")).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1), "failures show in the exit code");
    let text = String::from_utf8_lossy(&o.stdout);
    let line = |name: &str| {
        text.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{name} not listed:\n{text}")).to_string()
    };
    assert!(line("empty.txt").contains("empty"));
    assert!(line("photo.png").contains("PNG image"));
    assert!(line("broken.wav").contains("damaged"));
    assert!(
        line("zzz_vanishes.txt").contains("no such file") || line("zzz_vanishes.txt").contains("vanished"),
        "{}",
        line("zzz_vanishes.txt")
    );
    assert!(text.contains("100 of 104 file(s) diagnosed"), "{text}");
}

#[test]
fn an_output_folder_inside_the_input_is_not_diagnosed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(samples().join("en_agent_labeled.txt"), dir.path().join("a.txt")).unwrap();
    let ivd = Ivd::new();
    let d = dir.path().to_str().unwrap();
    let out = dir.path().join("reports");
    for _ in 0..2 {
        let o = ivd.cmd().args(["--no-history", "batch", d, "--out", out.to_str().unwrap()]).output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).contains("1 of 1 file(s) diagnosed"), "{}", stdout(&o));
    }
}

//! Mock interviews: scripted end to end, killed mid-session and resumed, the difficulty mix and
//! no-repeat rules over several sessions, follow-ups on a middling answer.

use std::io::Write;
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use interview_doctor::config::Config;
use interview_doctor::kb::KnowledgeBase;
use interview_doctor::lang::Lang;
use interview_doctor::skills::mock_session::{self, MockState, Planned};
use interview_doctor::store::Store;
use interview_doctor::tools::ToolContext;
use serde_json::Value;

use crate::common::{stderr, stdout, Ivd};

const GENERIC: &str = "I would start from the requirements, measure a baseline on a small eval set of about 200 cases, then change one thing at a time; in my last project this took the success rate from 60% to 85%, with the trade-off of higher latency.";

fn script(dir: &std::path::Path, blocks: &[&str]) -> std::path::PathBuf {
    let p = dir.join(format!("answers-{}.txt", fastrand_name()));
    std::fs::write(&p, blocks.join("\n---\n")).unwrap();
    p
}

fn fastrand_name() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
}

#[test]
fn a_scripted_session_ends_in_a_report_and_history() {
    let ivd = Ivd::new();
    let dir = tempfile::tempdir().unwrap();
    let answers =
        script(dir.path(), &[GENERIC, "/hint", GENERIC, "/expert", "/skip", GENERIC, GENERIC, GENERIC, GENERIC]);
    let out = ivd.run(&[
        "mock",
        "--count",
        "3",
        "--difficulty",
        "junior",
        "--answers",
        answers.to_str().unwrap(),
        "--seed",
        "3",
        "--format",
        "json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("hint: ") && err.contains("→ "), "{err}");
    let r: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(r["source"]["format"], "mock");
    assert!(!r["questions"].as_array().unwrap().is_empty());
    for q in r["questions"].as_array().unwrap() {
        assert_eq!(q["answer"], GENERIC);
    }
    let h = ivd.run(&["history", "--format", "json"]);
    let rows: Value = serde_json::from_str(&stdout(&h)).unwrap();
    assert_eq!(rows[0]["kind"], "mock");
    // --calm: bands, no numbers.
    let answers = script(dir.path(), &[GENERIC, GENERIC, GENERIC, GENERIC, GENERIC, GENERIC]);
    let out = ivd.run(&["mock", "--count", "2", "--calm", "--answers", answers.to_str().unwrap()]);
    assert!(out.status.success());
    assert!(!stderr(&out).contains("/100 ·"), "{}", stderr(&out));
}

/// `/retake` asks the last prompt again: the report holds the later attempt, the session both.
#[test]
fn a_retaken_answer_is_reported_by_its_later_attempt() {
    let ivd = Ivd::new();
    let dir = tempfile::tempdir().unwrap();
    let answers = script(dir.path(), &["I am not sure.", "/retake", GENERIC, "/skip", "/skip", "/skip", "/skip"]);
    let out =
        ivd.run(&["mock", "--count", "2", "--answers", answers.to_str().unwrap(), "--seed", "5", "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let r: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let qs = r["questions"].as_array().unwrap();
    assert_eq!(qs.len(), 1, "{qs:#?}");
    assert_eq!(qs[0]["answer"], GENERIC);
    let db = rusqlite::Connection::open(ivd.home.path().join("ivd.sqlite")).unwrap();
    let state: String = db.query_row("SELECT state FROM mock_sessions", [], |r| r.get(0)).unwrap();
    let state: Value = serde_json::from_str(&state).unwrap();
    let first = &state["answered"][0];
    assert_eq!((first["answer"].as_str(), first["retaken"].as_bool()), (Some("I am not sure."), Some(true)));
}

#[test]
fn a_killed_session_resumes_where_it_stopped() {
    let ivd = Ivd::new();
    let dir = tempfile::tempdir().unwrap();
    let mut child = ivd
        .cmd()
        .args(["mock", "--count", "3", "--seed", "11", "--format", "json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "The first answer, kept across a kill: {GENERIC}\n").unwrap();
    stdin.flush().unwrap();
    // Saved after the answer: wait until the database holds it, then kill.
    let started = Instant::now();
    loop {
        let store = Store::open(ivd.home.path()).unwrap();
        if let Some((_, json)) = store.mock_unfinished("default").unwrap() {
            let s: MockState = serde_json::from_str(&json).unwrap();
            if !s.answered.is_empty() {
                break;
            }
        }
        assert!(started.elapsed() < Duration::from_secs(300), "the answer was never saved");
        std::thread::sleep(Duration::from_millis(100));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    drop(stdin);
    let answers = script(dir.path(), &[GENERIC; 12]);
    let out = ivd.run(&["mock", "--resume", "--answers", answers.to_str().unwrap(), "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let r: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let qs = r["questions"].as_array().unwrap();
    assert!(qs[0]["answer"].as_str().unwrap().starts_with("The first answer, kept across a kill"));
    let planned: std::collections::BTreeSet<usize> =
        qs.iter().filter(|q| q["follow_up_of"].is_null()).map(|q| q["index"].as_u64().unwrap() as usize).collect();
    assert_eq!(planned.len(), 3, "all three planned questions answered: {qs:?}");
    let again = ivd.run(&["mock", "--resume"]);
    assert_eq!(again.status.code(), Some(2), "nothing left to resume");
}

#[test]
fn sessions_follow_the_difficulty_mix_and_never_repeat() {
    let ivd = Ivd::new();
    let dir = tempfile::tempdir().unwrap();
    let skips = script(dir.path(), &["/skip"; 10]);
    let mut seen = std::collections::BTreeSet::new();
    for (i, level) in ["junior", "junior", "senior"].iter().enumerate() {
        let out = ivd.run(&[
            "mock",
            "--count",
            "10",
            "--difficulty",
            level,
            "--answers",
            skips.to_str().unwrap(),
            "--seed",
            &i.to_string(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let store = Store::open(ivd.home.path()).unwrap();
        let recent = store.recent_entries("default", mock_session::NO_REPEAT_SESSIONS).unwrap();
        assert_eq!(recent.len(), 10 * (i + 1), "each session's ten questions are new");
        for id in &recent {
            seen.insert(id.clone());
        }
    }
    assert_eq!(seen.len(), 30);
    // The mix, from the picker itself (as the sessions above used it).
    let kb = KnowledgeBase::load(None).unwrap();
    for (level, want) in [("junior", [6, 3, 1]), ("mid", [3, 5, 2]), ("senior", [1, 4, 5])] {
        let p = mock_session::pick(
            &kb,
            &mock_session::Draw { dimensions: &[], level, count: 10, recent: &[], weak: &[], seed: 5, lang: Lang::En },
        )
        .unwrap();
        let count = |d: &str| p.iter().filter(|q: &&Planned| q.difficulty == d).count();
        assert_eq!([count("easy"), count("medium"), count("hard")], want, "{level}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_middling_answer_gets_a_follow_up_and_weak_dimensions_come_first() {
    let home = tempfile::tempdir().unwrap();
    let mut c = Config::with_home(home.path());
    c.audit = false;
    let ctx = ToolContext::new(Arc::new(c));
    let kb = KnowledgeBase::load(None).unwrap();
    let mut followed = false;
    for e in kb.entries.iter().filter(|e| e.has_english() && !e.follow_ups_en.is_empty()).take(20) {
        let mut s = MockState {
            lang: interview_doctor::lang::Lang::En,
            level: "mid".into(),
            calm: false,
            started_at: String::new(),
            questions: vec![Planned {
                id: e.id.clone(),
                dimension: e.dimension.clone(),
                difficulty: "medium".into(),
                question: e.question_en.clone(),
            }],
            current: 0,
            follow_up: None,
            follow_ups_asked: 0,
            answered: Vec::new(),
        };
        let v = s.answer(&ctx, &e.novice_answer_en, 30.0).await.unwrap();
        let score = v.score.unwrap();
        if (mock_session::MIDDLING_LOW..mock_session::MIDDLING_HIGH).contains(&score) {
            assert_eq!(s.follow_up.as_deref(), Some(e.follow_ups_en[0].as_str()), "a follow-up from the entry's own");
            assert_eq!(s.prompt().as_deref(), Some(e.follow_ups_en[0].as_str()));
            s.answer(&ctx, "", 1.0).await.unwrap();
            assert!(s.done(), "an empty answer moves on");
            followed = true;
            break;
        } else {
            assert!(s.done(), "a strong or empty answer moves on ({score})");
        }
    }
    assert!(followed, "no novice answer scored middling among 20 entries");
    // Weak dimensions are drawn more often.
    let weak = vec![("memory".to_string(), 20.0)];
    let strong: Vec<(String, f64)> =
        kb.manifest.dimensions.iter().filter(|d| d.id != "memory").map(|d| (d.id.clone(), 95.0)).collect();
    let history: Vec<(String, f64)> = weak.into_iter().chain(strong).collect();
    let (mut with, mut without) = (0, 0);
    for seed in 0..40 {
        with += mock_session::pick(
            &kb,
            &mock_session::Draw {
                dimensions: &[],
                level: "mid",
                count: 5,
                recent: &[],
                weak: &history,
                seed,
                lang: Lang::En,
            },
        )
        .unwrap()
        .iter()
        .filter(|q| q.dimension == "memory")
        .count();
        without += mock_session::pick(
            &kb,
            &mock_session::Draw {
                dimensions: &[],
                level: "mid",
                count: 5,
                recent: &[],
                weak: &[],
                seed,
                lang: Lang::En,
            },
        )
        .unwrap()
        .iter()
        .filter(|q| q.dimension == "memory")
        .count();
    }
    assert!(with > without * 3 / 2, "memory drawn {with} times with a weak history, {without} without");
}

#[test]
fn an_answer_can_be_a_recording_with_its_delivery() {
    let _g = crate::audio::WHISPER.lock().unwrap_or_else(|e| e.into_inner());
    let ivd = Ivd::with_models();
    let dir = tempfile::tempdir().unwrap();
    let jfk = crate::common::root().join("data/recordings/human/jfk.wav");
    let answers = script(dir.path(), &[jfk.to_str().unwrap(), "/skip", "/skip", "/skip"]);
    let out = ivd.run(&[
        "--no-history",
        "mock",
        "--count",
        "1",
        "--answers",
        answers.to_str().unwrap(),
        "--format",
        "json",
        "--lang",
        "en",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let r: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let q = &r["questions"][0];
    assert!(q["answer"].as_str().unwrap().contains("ask not what your country can do for you"), "{}", q["answer"]);
    assert_eq!(q["speech"]["rate_unit"], "wpm");
    assert!(r["summary"]["speech_avg"].is_number());
}

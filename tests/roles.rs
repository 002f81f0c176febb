//! Roles in real interviews: settled by name on the command line, said to be uncertain when the
//! evidence is weak, and not flipped by the candidate's own questions at the end.

use crate::common::*;

/// Two people who talk alike: neither asks much more or talks much longer.
const EVEN: &str = "Alex: So I looked at the retry policy for the tools last week and it seems fine to me overall.\n\
Sam: I looked at it too and I think we need to cap the retries at two before we hand off.\n\
Alex: Capping at two sounds right, though the search tool is flaky enough that three might be kinder.\n\
Sam: Three would hide real outages from us, so I would rather alert and keep it at two attempts.\n\
Alex: Fair point, alerts on the flaky tool would also tell us when the vendor is having trouble.\n\
Sam: Right, and the dashboard already has the error rate, so the alert is only a threshold away.\n";

fn split(ivd: &Ivd, path: &std::path::Path, extra: &[&str]) -> (Option<i32>, serde_json::Value, String) {
    let mut args = vec!["split", path.to_str().unwrap(), "--format", "json"];
    args.extend_from_slice(extra);
    let out = ivd.run(&args);
    let v = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    (out.status.code(), v, stderr(&out))
}

fn role_of(v: &serde_json::Value, name: &str) -> (String, f64) {
    let s = v["speakers"].as_array().unwrap().iter().find(|s| s["name"] == name).unwrap();
    (s["role"].as_str().unwrap().to_string(), s["confidence"].as_f64().unwrap())
}

#[test]
fn weak_evidence_is_said_and_names_settle_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("even.txt");
    std::fs::write(&path, EVEN).unwrap();
    let ivd = Ivd::new();
    let (code, v, _) = split(&ivd, &path, &[]);
    assert_eq!(code, Some(0));
    let weakest =
        v["speakers"].as_array().unwrap().iter().map(|s| s["confidence"].as_f64().unwrap()).fold(1.0, f64::min);
    assert!(weakest < 0.75, "evenly matched speakers should be uncertain: {v}");
    let md = ivd.run(&["split", path.to_str().unwrap()]);
    assert!(stdout(&md).contains("Roles uncertain"), "{}", stdout(&md));
    assert!(stdout(&md).contains("--candidate"), "the note says how to settle it");

    let (code, v, _) = split(&ivd, &path, &["--candidate", "alex"]);
    assert_eq!(code, Some(0));
    assert_eq!(role_of(&v, "Alex"), ("candidate".to_string(), 1.0));
    assert_eq!(role_of(&v, "Sam").0, "interviewer");
    let (_, v, _) = split(&ivd, &path, &["--interviewer", "Alex"]);
    assert_eq!(role_of(&v, "Alex").0, "interviewer");
    assert_eq!(role_of(&v, "Sam").0, "candidate");

    let (code, _, err) = split(&ivd, &path, &["--candidate", "Jordan"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("Jordan") && err.contains("Alex") && err.contains("hint:"), "{err}");
    // diagnose takes the same flags.
    let out = ivd.run(&["diagnose", path.to_str().unwrap(), "--format", "json", "--candidate", "Sam"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(role_of(&r, "Sam"), ("candidate".to_string(), 1.0));
}

#[test]
fn the_guest_who_talks_most_is_the_candidate_and_closing_questions_do_not_flip_it() {
    let ivd = Ivd::new();
    for (file, candidate) in [
        ("en_podcast.md", "Elena Sokolova"),
        ("en_panel_end_questions.txt", ""),
        ("en_long_90min.vtt", "Lena Fischer"),
        ("zh_long_70min.txt", "周敏"),
    ] {
        let (code, v, err) = split(&ivd, &samples().join(file), &[]);
        assert_eq!(code, Some(0), "{file}: {err}");
        let speakers = v["speakers"].as_array().unwrap();
        let cands: Vec<&serde_json::Value> = speakers.iter().filter(|s| s["role"] == "candidate").collect();
        assert_eq!(cands.len(), 1, "{file}: exactly one candidate");
        if !candidate.is_empty() {
            assert_eq!(cands[0]["name"], candidate, "{file}");
        }
        for s in speakers {
            assert!(s["confidence"].as_f64().unwrap() >= 0.75, "{file}: {s}");
        }
    }
}

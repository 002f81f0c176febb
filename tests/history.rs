//! History: every diagnosis stored per profile in SQLite (WAL, versioned schema), compared with the
//! profile's previous one, listed, trended, deleted, or not stored at all.

use interview_doctor::store::Store;
use serde_json::Value;

use crate::common::{samples, stderr, stdout, Ivd};

fn diagnose(ivd: &Ivd, extra: &[&str], file: &str) -> Value {
    let path = samples().join(file);
    let mut args: Vec<&str> = extra.to_vec();
    let p = path.to_str().unwrap();
    args.extend(["diagnose", p, "--format", "json"]);
    let out = ivd.run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap()
}

fn json(ivd: &Ivd, args: &[&str]) -> Value {
    let out = ivd.run(args);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap()
}

#[test]
fn diagnoses_are_stored_compared_trended_and_deleted() {
    let ivd = Ivd::new();
    let first = diagnose(&ivd, &[], "en_agent_labeled.txt");
    assert!(first["compared_to_last"].is_null(), "nothing to compare the first with");
    let second = diagnose(&ivd, &[], "mixed_labeled.txt");
    let c = &second["compared_to_last"];
    assert_eq!(c["previous_id"], 1);
    assert_eq!(
        c["score_change"].as_i64().unwrap(),
        second["summary"]["overall_score"].as_i64().unwrap() - first["summary"]["overall_score"].as_i64().unwrap()
    );
    let moved: Vec<&str> = c["improved"]
        .as_array()
        .unwrap()
        .iter()
        .chain(c["declined"].as_array().unwrap())
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(!moved.is_empty() && moved.iter().all(|m| m.contains('→')), "{moved:?}");
    assert_eq!(second["trend"].as_array().unwrap().len(), 2);

    // Another profile starts its own history; --no-history stores nothing.
    let other = diagnose(&ivd, &["--profile", "alice"], "en_agent_qa.txt");
    assert!(other["compared_to_last"].is_null());
    let unstored = diagnose(&ivd, &["--no-history"], "en_agent_qa.txt");
    assert!(unstored["compared_to_last"].is_null());

    let rows = json(&ivd, &["history", "--format", "json"]);
    let ids: Vec<i64> = rows.as_array().unwrap().iter().map(|r| r["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, [2, 1], "the default profile's sessions, newest first");
    assert_eq!(rows[0]["digest"].as_str().unwrap().len(), 64);
    assert_eq!(json(&ivd, &["history", "--all", "--format", "json"]).as_array().unwrap().len(), 3);
    let trend = json(&ivd, &["history", "--trend", "--format", "json"]);
    assert_eq!(trend.as_array().unwrap().len(), 2);
    assert_eq!(trend[1]["overall"], second["summary"]["overall_score"]);
    let text = stdout(&ivd.run(&["history", "--trend"]));
    assert!(text.contains("compl") && text.contains("since #1"), "{text}");

    let out = ivd.run(&["history", "delete", "1"]);
    assert!(out.status.success());
    assert_eq!(json(&ivd, &["history", "--format", "json"]).as_array().unwrap().len(), 1);
    let out = ivd.run(&["history", "delete", "1"]);
    assert_eq!(out.status.code(), Some(2));
    let next = diagnose(&ivd, &[], "en_agent_labeled.txt");
    assert_eq!(next["compared_to_last"]["previous_id"], 2, "compared with the newest left");

    let store = Store::open(ivd.home.path()).unwrap();
    assert_eq!(store.integrity_check().unwrap(), "ok");
    assert_eq!(store.schema_version().unwrap() as usize, interview_doctor::store::MIGRATIONS.len());
}

#[test]
fn the_html_report_draws_the_trend() {
    let ivd = Ivd::new();
    let path = samples().join("en_agent_labeled.txt");
    for _ in 0..2 {
        assert!(ivd.run(&["diagnose", path.to_str().unwrap(), "--format", "json"]).status.success());
    }
    let out = ivd.run(&["diagnose", path.to_str().unwrap(), "--format", "html"]);
    let html = stdout(&out);
    assert!(html.contains("Progress over sessions") && html.contains("<polyline"), "the trend chart");
    assert!(html.contains("Since the last session"));
}

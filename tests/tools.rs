//! The tool framework through the CLI: listing with schemas, running with JSON in, the envelope,
//! schema validation, data-root confinement and the audit log.

use serde_json::Value;

use crate::common::*;

#[test]
fn list_exports_function_schemas() {
    let ivd = Ivd::new();
    let out = ivd.run(&["tools", "list", "--format", "json"]);
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = v.as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    for n in ["read_file", "parse_transcript", "detect_speakers", "split_qa_pairs"] {
        assert!(names.contains(&n), "{names:?}");
    }
    let read = v.as_array().unwrap().iter().find(|t| t["name"] == "read_file").unwrap();
    assert_eq!(read["parameters"]["type"], "object");
    assert_eq!(read["parameters"]["required"], serde_json::json!(["path"]));
    assert!(read["parameters"]["properties"]["path"]["description"].as_str().unwrap().contains("data root"));
    // Inline schemas: function calling does not resolve $ref.
    assert!(!serde_json::to_string(&v).unwrap().contains("$ref"));
    let text = stdout(&ivd.run(&["tools", "list"]));
    assert!(text.contains("split_qa_pairs"));
}

fn run_tool(ivd: &Ivd, dir: &std::path::Path, name: &str, args: &str) -> (i32, Value) {
    let out = ivd.run_in(dir, &["tools", "run", name, "--input", "-"], Some(args));
    let code = out.status.code().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (code, v)
}

#[test]
fn pipeline_through_tools_run() {
    let ivd = Ivd::new();
    let dir = samples();
    let (code, env) = run_tool(&ivd, &dir, "parse_transcript", r#"{"path": "en_agent_zoom.vtt"}"#);
    assert_eq!(code, 0, "{env}");
    assert_eq!(env["ok"], true);
    assert!(env["latency_ms"].is_u64());
    assert_eq!(env["data"]["format"], "webvtt");
    let transcript = env["data"].clone();
    let (code, env) =
        run_tool(&ivd, &dir, "detect_speakers", &serde_json::json!({ "transcript": transcript }).to_string());
    assert_eq!(code, 0, "{env}");
    let roles = env["data"]["turn_roles"].clone();
    assert_eq!(env["data"]["speakers"][0]["role"], "interviewer");
    let (code, env) = run_tool(
        &ivd,
        &dir,
        "split_qa_pairs",
        &serde_json::json!({ "transcript": transcript, "turn_roles": roles }).to_string(),
    );
    assert_eq!(code, 0, "{env}");
    assert_eq!(env["data"]["pairs"].as_array().unwrap().len(), 7);
    let (code, env) = run_tool(&ivd, &dir, "read_file", r#"{"path": "zh_agent_gbk.txt"}"#);
    assert_eq!(code, 0, "{env}");
    assert_eq!(env["data"]["encoding"], "gb18030");
    assert!(env["data"]["text"].as_str().unwrap().contains("面试官"));
}

#[test]
fn schema_violations_come_back_as_input_errors() {
    let ivd = Ivd::new();
    let dir = samples();
    let (code, env) = run_tool(&ivd, &dir, "read_file", r#"{"path": 42}"#);
    assert_eq!(code, 2);
    assert_eq!(env["ok"], false);
    assert_eq!(env["error"]["code"], "input_error");
    assert!(env["error"]["message"].as_str().unwrap().contains("/path"), "{env}");
    assert!(!env["error"]["suggestion"].as_str().unwrap().is_empty());
    let (code, env) = run_tool(&ivd, &dir, "read_file", r#"{"path": "a.txt", "bogus": 1}"#);
    assert_eq!((code, env["error"]["code"].as_str()), (2, Some("input_error")), "{env}");
    let (code, env) = run_tool(
        &ivd,
        &dir,
        "split_qa_pairs",
        r#"{"transcript": {"format": "raw", "language": "en", "turns": []}, "turn_roles": ["candidate"]}"#,
    );
    assert_eq!((code, env["error"]["code"].as_str()), (2, Some("input_error")), "{env}");
    let (code, env) = run_tool(&ivd, &dir, "no_such_tool", "{}");
    assert_eq!((code, env["error"]["code"].as_str()), (2, Some("not_found")), "{env}");
    let out = ivd.run_in(&dir, &["tools", "run", "read_file", "--input", "-"], Some("{not json"));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not valid JSON"), "{}", stderr(&out));
}

#[test]
fn reads_are_confined_to_the_data_root() {
    let ivd = Ivd::new();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.txt"), "Interviewer: secret?").unwrap();
    let root = tempfile::tempdir().unwrap();
    std::fs::write(root.path().join("ok.txt"), "Interviewer: fine?\nCandidate: yes.").unwrap();
    std::fs::create_dir(root.path().join("sub")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(outside.path().join("secret.txt"), root.path().join("sub/link.txt")).unwrap();
    let abs = outside.path().join("secret.txt");
    let cases = [
        serde_json::json!({"path": "../secret.txt"}),
        serde_json::json!({"path": "sub/../../secret.txt"}),
        serde_json::json!({"path": abs.to_str().unwrap()}),
        serde_json::json!({"path": "sub/link.txt"}),
    ];
    for args in cases {
        for tool in ["read_file", "parse_transcript"] {
            let (code, env) = run_tool(&ivd, root.path(), tool, &args.to_string());
            assert_eq!(code, 2, "{tool} {args}: {env}");
            assert_eq!(env["error"]["code"], "permission_denied", "{tool} {args}: {env}");
        }
    }
    let (code, env) = run_tool(&ivd, root.path(), "read_file", r#"{"path": "ok.txt"}"#);
    assert_eq!(code, 0, "{env}");
    let (code, env) = run_tool(&ivd, root.path(), "read_file", r#"{"path": "missing.txt"}"#);
    assert_eq!((code, env["error"]["code"].as_str()), (2, Some("not_found")));
    // --data-root moves the root.
    let out = ivd.run_in(
        root.path(),
        &["--data-root", outside.path().to_str().unwrap(), "tools", "run", "read_file", "--input", "-"],
        Some(r#"{"path": "secret.txt"}"#),
    );
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn every_call_is_audited_without_its_arguments() {
    let ivd = Ivd::new();
    ivd.run(&["split", samples().join("en_agent_labeled.txt").to_str().unwrap(), "--format", "json"]);
    let (code, _) = run_tool(&ivd, &samples(), "read_file", r#"{"path": "../../etc/passwd-secret-marker"}"#);
    assert_eq!(code, 2);
    let log = std::fs::read_to_string(ivd.home.path().join("audit.jsonl")).unwrap();
    let lines: Vec<Value> = log.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let names: Vec<&str> = lines.iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["parse_transcript", "detect_speakers", "split_qa_pairs", "split-transcript", "read_file"]);
    let sessions: std::collections::HashSet<&str> = lines.iter().map(|l| l["session"].as_str().unwrap()).collect();
    assert_eq!(sessions.len(), 2, "one session per process");
    for l in &lines {
        assert!(l["time"].as_str().unwrap().starts_with("20"));
        assert!(l["latency_ms"].is_u64());
        assert_eq!(l["args_sha256"].as_str().unwrap().len(), 64);
    }
    assert_eq!(lines[4]["status"], "permission_denied");
    assert_eq!(lines[3]["kind"], "skill");
    assert!(!log.contains("passwd-secret-marker"), "arguments must not be logged");
    // --no-audit writes nothing more.
    ivd.run(&["--no-audit", "split", samples().join("en_agent_labeled.txt").to_str().unwrap()]);
    assert_eq!(std::fs::read_to_string(ivd.home.path().join("audit.jsonl")).unwrap().lines().count(), 5);
}

#[test]
fn config_file_and_environment_layer() {
    let ivd = Ivd::new();
    std::fs::write(ivd.home.path().join("ivd.toml"), "audit = false\n").unwrap();
    ivd.run(&["split", samples().join("en_agent_labeled.txt").to_str().unwrap()]);
    assert!(!ivd.home.path().join("audit.jsonl").exists(), "ivd.toml turned auditing off");
    let out = ivd
        .cmd()
        .env("IVD_AUDIT", "1")
        .args(["split", samples().join("en_agent_labeled.txt").to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(ivd.home.path().join("audit.jsonl").exists(), "the environment beats the file");
    std::fs::write(ivd.home.path().join("ivd.toml"), "audit = maybe\n").unwrap();
    let out = ivd.run(&["tools", "list"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("ivd.toml"), "{}", stderr(&out));
}

//! Every sample transcript, every format: format, language, speakers with roles and turns, and the
//! exact pairs (text compared modulo whitespace) with follow-ups and times.

use serde_json::Value;

use crate::common::*;

fn check_sample(ivd: &Ivd, path: &std::path::Path) -> Vec<String> {
    let out = ivd.run(&["split", path.to_str().unwrap(), "--format", "json"]);
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    if !out.status.success() {
        return vec![format!("{name}: exit {:?}: {}", out.status.code(), stderr(&out))];
    }
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    let want: Value = serde_json::from_str(&std::fs::read_to_string(expected_for(path)).unwrap()).unwrap();
    let mut errs = Vec::new();
    for k in ["format", "language"] {
        if got[k] != want[k] {
            errs.push(format!("{name}: {k} {} != {}", got[k], want[k]));
        }
    }
    let speakers = |v: &Value| -> Vec<(Value, Value, Value)> {
        v["speakers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| (s["name"].clone(), s["role"].clone(), s["turns"].clone()))
            .collect()
    };
    if speakers(&got) != speakers(&want) {
        errs.push(format!("{name}: speakers {:?} != {:?}", speakers(&got), speakers(&want)));
    }
    let (gp, wp) = (got["pairs"].as_array().unwrap(), want["pairs"].as_array().unwrap());
    if gp.len() != wp.len() {
        errs.push(format!("{name}: {} pairs, expected {}", gp.len(), wp.len()));
    }
    for (i, (g, w)) in gp.iter().zip(wp).enumerate() {
        assert_eq!(g["index"], i + 1);
        for k in ["question", "answer"] {
            let (a, b) = (norm(g[k].as_str().unwrap()), norm(w[k].as_str().unwrap()));
            if a != b {
                errs.push(format!("{name}: pair {} {k}:\n   got  {a}\n   want {b}", i + 1));
            }
        }
        if g["follow_up_of"] != w["follow_up_of"] {
            errs.push(format!("{name}: pair {} follow_up_of {} != {}", i + 1, g["follow_up_of"], w["follow_up_of"]));
        }
        for k in ["start_s", "end_s"] {
            let ok = match (g[k].as_f64(), w[k].as_f64()) {
                (Some(a), Some(b)) => (a - b).abs() < 0.01,
                (None, None) => true,
                _ => false,
            };
            if !ok {
                errs.push(format!("{name}: pair {} {k} {} != {}", i + 1, g[k], w[k]));
            }
        }
    }
    errs
}

#[test]
fn every_sample_splits_exactly_as_expected() {
    let ivd = Ivd::new();
    let files = sample_files();
    assert!(files.len() >= 20, "samples missing: {files:?}");
    let mut formats = std::collections::BTreeSet::new();
    let mut errs = Vec::new();
    for f in &files {
        let want: Value = serde_json::from_str(&std::fs::read_to_string(expected_for(f)).unwrap()).unwrap();
        formats.insert(want["format"].as_str().unwrap().to_string());
        errs.extend(check_sample(&ivd, f));
    }
    assert!(errs.is_empty(), "{} problems:\n{}", errs.len(), errs.join("\n"));
    for f in
        ["labeled", "raw", "webvtt", "srt", "otter", "whisper-json", "markdown", "zoom", "podcast-json", "docx", "pdf"]
    {
        assert!(formats.contains(f), "no sample in format {f}");
    }
    println!("{} samples split exactly as expected", files.len());
}

#[test]
fn panel_has_two_interviewers_and_one_candidate() {
    let ivd = Ivd::new();
    for f in ["en_panel_labeled.txt", "en_panel_teams.vtt", "en_panel_otter.txt", "en_panel_whisperx.json"] {
        let out = ivd.run(&["split", samples().join(f).to_str().unwrap(), "--format", "json"]);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let roles: Vec<&str> = v["speakers"].as_array().unwrap().iter().map(|s| s["role"].as_str().unwrap()).collect();
        assert_eq!(roles.iter().filter(|r| **r == "interviewer").count(), 2, "{f}: {roles:?}");
        assert_eq!(roles.iter().filter(|r| **r == "candidate").count(), 1, "{f}: {roles:?}");
    }
}

#[test]
fn talk_time_comes_from_cue_times() {
    let ivd = Ivd::new();
    let out = ivd.run(&["split", samples().join("en_agent_zoom.vtt").to_str().unwrap(), "--format", "json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    for s in v["speakers"].as_array().unwrap() {
        let t = s["talk_time_s"].as_f64().expect("timed format has talk time");
        assert!(t > 5.0, "{s}");
    }
    let out = ivd.run(&["split", samples().join("en_agent_labeled.txt").to_str().unwrap(), "--format", "json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["speakers"][0]["talk_time_s"].is_null());
}

#[test]
fn markdown_output_lists_speakers_and_pairs() {
    let ivd = Ivd::new();
    let out = ivd.run(&["split", samples().join("zh_agent_labeled.txt").to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let md = stdout(&out);
    assert!(md.contains("- format: labeled") && md.contains("- language: zh"), "{md}");
    assert!(md.contains("| S1 | 面试官 | interviewer |"), "{md}");
    assert!(md.contains("## 7. Question"), "{md}");
}

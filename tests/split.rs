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

/// Implicit follow-ups ("Did the numbers hold up in production?", "三百条够吗？") name nothing of
/// the answer and point back with no word the rules know: told by meaning (`transcript::follow_up_model`) where
/// the models are provisioned, they stay attached to the question they dig into; a new question
/// after them is not attached. Without models the rules alone leave them as questions of their own.
#[test]
fn implicit_follow_ups_are_attached_by_meaning() {
    let dir = tempfile::tempdir().unwrap();
    let en = dir.path().join("en.txt");
    std::fs::write(
        &en,
        "Interviewer: How did you evaluate the retriever?\n\
         Candidate: We built a set of about 300 real user queries, labeled the relevant chunks for each, and tracked \
         recall at 10 and MRR on every index change. Recall at 10 went from 0.71 to 0.86 after we added BM25.\n\
         Interviewer: Did the numbers hold up in production?\n\
         Candidate: Yes. Every index change since has been checked against it in minutes.\n\
         Interviewer: How do you handle prompt injection in a RAG system?\n\
         Candidate: I treat retrieved text as data, never as instructions, and tools with side effects need a \
         confirmation.\n",
    )
    .unwrap();
    let zh = dir.path().join("zh.txt");
    std::fs::write(
        &zh,
        "面试官：你们的检索效果怎么评估的？\n\
         候选人：我们从线上日志里抽了三百条真实问题，人工标了相关的文档片段，每次改索引都看 recall@10 和 MRR。加了 BM25 以后 \
         recall@10 从 0.71 到了 0.86。\n\
         面试官：三百条够吗？\n\
         候选人：覆盖主要意图够了，长尾不够，所以我们每周再从失败的对话里补五十条。\n\
         面试官：说说 Agent 的记忆怎么设计？\n\
         候选人：短期记忆放在对话上下文里，超过窗口就做摘要；长期记忆存向量库，写入前先判断值不值得记。\n",
    )
    .unwrap();
    let follow_ups = |ivd: &Ivd, f: &std::path::Path| -> Vec<Value> {
        let out = ivd.run(&["split", f.to_str().unwrap(), "--format", "json"]);
        assert!(out.status.success(), "{}", stderr(&out));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v["pairs"].as_array().unwrap().iter().map(|p| p["follow_up_of"].clone()).collect()
    };
    let (with, without) = (Ivd::with_models(), Ivd::new());
    for f in [&en, &zh] {
        assert_eq!(follow_ups(&with, f), vec![Value::Null, Value::from(1), Value::Null], "{}", f.display());
        assert_eq!(follow_ups(&without, f), vec![Value::Null; 3], "{}", f.display());
    }
}

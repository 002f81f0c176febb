//! Tests with the real embedding model (multilingual-e5-small through ONNX Runtime), provisioned by
//! `ivd models fetch` into IVD_MODELS. `.ci/run` provisions it; without it these tests fail with
//! the message that says how to provision, rather than passing vacuously.

use interview_doctor::kb::eval;
use interview_doctor::kb::search::{KbSearch, SearchMode, SearchOptions, VECTOR_RELEVANCE_MIN};
use interview_doctor::kb::KnowledgeBase;
use interview_doctor::models::Models;

use crate::common::*;

pub fn models() -> Models {
    let dir = std::env::var("IVD_MODELS")
        .expect("IVD_MODELS must name a provisioned models folder: run `ivd models fetch` (scripts/test.sh does)");
    let m = Models { dir: dir.into() };
    assert!(m.is_provisioned(), "no models in {}: run `ivd models fetch`", m.dir.display());
    m
}

/// One search engine per test binary: loading the model and embedding the knowledge base is the
/// expensive part, the searches are cheap.
fn engine() -> &'static KbSearch {
    use std::sync::OnceLock;
    static S: OnceLock<(tempfile::TempDir, KbSearch)> = OnceLock::new();
    &S.get_or_init(|| {
        let home = tempfile::tempdir().unwrap();
        let s = KbSearch::open_with_models(KnowledgeBase::shipped().unwrap(), home.path(), &models()).unwrap();
        assert!(s.vectors.is_some() && s.degraded.is_none());
        (home, s)
    })
    .1
}

#[test]
fn hybrid_recall_is_at_least_that_of_each_list_alone() {
    let s = engine();
    let r = eval::run(s).unwrap();
    let at3 = |m: SearchMode| r.retrieval.iter().find(|row| row.mode == m && row.queries == "all").unwrap().recall_at_3;
    let (b, v, h) = (at3(SearchMode::Bm25), at3(SearchMode::Vector), at3(SearchMode::Hybrid));
    println!(
        "recall@3 bm25 {b:.3} vector {v:.3} hybrid {h:.3}; expert > novice {}/{} (mean margin {:.1})",
        r.scoring.expert_above_novice, r.scoring.entries, r.scoring.mean_margin
    );
    assert!(h >= b && h >= v, "hybrid {h} must not be below bm25 {b} or vector {v}");
    assert_eq!(r.scoring.expert_above_novice, r.scoring.entries, "{:?}", r.scoring.failures);
}

#[test]
fn diagnose_with_models_scores_and_is_deterministic() {
    let ivd = Ivd::with_models();
    let f = samples().join("zh_agent_labeled.txt");
    let a = ivd.run(&["diagnose", f.to_str().unwrap(), "--format", "json"]);
    assert!(a.status.success(), "{}", stderr(&a));
    assert!(!stderr(&a).contains("BM25 only"), "{}", stderr(&a));
    let b = ivd.run(&["diagnose", f.to_str().unwrap(), "--format", "json"]);
    let strip = |o: &std::process::Output| {
        let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["meta"]["generated_at"] = serde_json::Value::Null;
        v["meta"]["elapsed_ms"] = serde_json::Value::Null;
        v.to_string()
    };
    assert_eq!(strip(&a), strip(&b), "vectors from the cache must give the same numbers as fresh ones");
    let v: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
    let with_refs =
        v["questions"].as_array().unwrap().iter().filter(|q| !q["references"].as_array().unwrap().is_empty()).count();
    assert!(with_refs >= 6, "{with_refs} of 7 questions found a reference");
    // Non-answers stay low with vectors too.
    assert!(v["questions"][6]["content"]["overall"].as_u64().unwrap() <= 20, "{}", v["questions"][6]["content"]);
}

fn pct(v: &mut [f32], p: f64) -> f32 {
    v.sort_by(f32::total_cmp);
    v[((v.len() - 1) as f64 * p).round() as usize]
}

/// The calibration behind KP_COVERED_SIM, KP_PARTIAL_SIM and VECTOR_RELEVANCE_MIN, recomputed on
/// every run: key points against sentences of their own expert answer (made) versus sentences of
/// another entry's expert answer in the same dimension (not made); held-out paraphrases against
/// their own entry versus unrelated questions.
#[test]
fn thresholds_separate_the_measured_distributions() {
    use interview_doctor::scoring::content::{KP_COVERED_SIM, KP_PARTIAL_SIM};
    let s = engine();
    let v = s.vectors.as_ref().unwrap();
    let (mut own, mut other) = (Vec::new(), Vec::new());
    let n = s.kb.entries.len();
    for i in (0..n).step_by(4) {
        let e = &s.kb.entries[i];
        let j = (i + 1..n).chain(0..i).find(|&j| s.kb.entries[j].dimension == e.dimension).unwrap();
        let mine = v.semantic(&s.kb, i, &e.expert_answer).unwrap();
        let theirs = v.semantic(&s.kb, i, &s.kb.entries[j].expert_answer).unwrap();
        own.extend(mine.key_points);
        other.extend(theirs.key_points);
    }
    let (own_p25, own_p50) = (pct(&mut own, 0.25), pct(&mut own, 0.5));
    let (other_p90, other_p99) = (pct(&mut other, 0.9), pct(&mut other, 0.99));
    println!("key point vs best answer sentence: own expert p25 {own_p25:.3} p50 {own_p50:.3}; other entry's expert p90 {other_p90:.3} p99 {other_p99:.3}");
    let mut true_sim = Vec::new();
    for e in s.kb.entries.iter().step_by(4) {
        for q in &e.eval_paraphrases {
            let hits = s.search(q, &SearchOptions { top_k: 10, dimension: None, mode: SearchMode::Hybrid }).unwrap();
            if let Some(h) = hits.iter().find(|h| h.id == e.id) {
                true_sim.push(h.similarity.unwrap() as f32);
            }
        }
    }
    let unrelated = [
        "你的期望薪资是多少？",
        "你周末一般做什么？",
        "你老家是哪里的？",
        "What is your favourite football team?",
        "你喜欢吃什么菜？",
        "How was your commute today?",
        "你有没有养宠物？",
        "Do you prefer coffee or tea?",
        "今天天气怎么样？",
        "你周末喜欢去哪里爬山？",
    ];
    let mut unrelated_sim: Vec<f32> = unrelated
        .iter()
        .map(|q| {
            s.search(q, &SearchOptions { top_k: 1, dimension: None, mode: SearchMode::Vector }).unwrap()[0]
                .similarity
                .unwrap() as f32
        })
        .collect();
    let unrelated_max = pct(&mut unrelated_sim, 1.0);
    println!(
        "question similarity: own entry p25 {:.3} p50 {:.3}; unrelated questions max {unrelated_max:.3}",
        pct(&mut true_sim, 0.25),
        pct(&mut true_sim, 0.5)
    );
    assert!(KP_COVERED_SIM > other_p99, "a key point must not count as made by another entry's answer");
    assert!(KP_PARTIAL_SIM > other_p90);
    assert!(
        (VECTOR_RELEVANCE_MIN as f32) > unrelated_max,
        "unrelated questions must stay below the vector relevance gate"
    );
}

/// A models folder of hard links (or copies) to the provisioned files, to break one at a time.
fn models_copy() -> tempfile::TempDir {
    let src = models().dir;
    let dst = tempfile::tempdir().unwrap();
    for sub in ["onnxruntime", "multilingual-e5-small", "whisper"] {
        std::fs::create_dir_all(dst.path().join(sub)).unwrap();
    }
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(src.join("manifest.json")).unwrap()).unwrap();
    for f in manifest["files"].as_array().unwrap() {
        let rel = f["path"].as_str().unwrap();
        if std::fs::hard_link(src.join(rel), dst.path().join(rel)).is_err() {
            std::fs::copy(src.join(rel), dst.path().join(rel)).unwrap();
        }
    }
    std::fs::copy(src.join("manifest.json"), dst.path().join("manifest.json")).unwrap();
    dst
}

fn search_with(models: &std::path::Path) -> std::process::Output {
    let home = tempfile::tempdir().unwrap();
    std::process::Command::new(env!("CARGO_BIN_EXE_ivd"))
        .env("IVD_HOME", home.path())
        .env("IVD_MODELS", models)
        .args(["kb", "search", "长期记忆", "--mode", "vector"])
        .output()
        .unwrap()
}

#[test]
fn broken_models_are_named_with_the_repair_command() {
    // Missing runtime library.
    let m = models_copy();
    std::fs::remove_file(m.path().join("onnxruntime/libonnxruntime.so.1.24.4")).unwrap();
    let out = search_with(m.path());
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("libonnxruntime.so.1.24.4") && err.contains("ivd models fetch") && !err.contains("panicked"),
        "{err}"
    );

    // Truncated tokenizer: the size no longer matches the manifest.
    let m = models_copy();
    let tok = m.path().join("multilingual-e5-small/tokenizer.json");
    let bytes = std::fs::read(&tok).unwrap();
    std::fs::remove_file(&tok).unwrap(); // a fresh inode: never write through a hard link
    std::fs::write(&tok, &bytes[..1000]).unwrap();
    let err = stderr(&search_with(m.path()));
    assert!(err.contains("tokenizer.json") && err.contains("truncated") && err.contains("ivd models fetch"), "{err}");

    // Checksum mismatch: same size, different content.
    let m = models_copy();
    let cfg = m.path().join("multilingual-e5-small/config.json");
    let mut bytes = std::fs::read(&cfg).unwrap();
    std::fs::remove_file(&cfg).unwrap();
    let last = bytes.len() - 2;
    bytes[last] = if bytes[last] == b' ' { b'\n' } else { b' ' };
    std::fs::write(&cfg, &bytes).unwrap();
    let err = stderr(&search_with(m.path()));
    assert!(err.contains("config.json") && err.contains("checksum") && err.contains("ivd models fetch"), "{err}");

    // A model file that is not a model, with a manifest that agrees: the runtime refuses it.
    let m = models_copy();
    let onnx = m.path().join("multilingual-e5-small/model_int8.onnx");
    std::fs::remove_file(&onnx).unwrap();
    std::fs::write(&onnx, b"not an onnx graph").unwrap();
    let mut manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(m.path().join("manifest.json")).unwrap()).unwrap();
    for f in manifest["files"].as_array_mut().unwrap() {
        if f["name"] == "e5-int8" {
            f["size"] = 17.into();
            f["sha256"] = interview_doctor::models::sha256_file(&onnx).unwrap().into();
        }
    }
    std::fs::write(m.path().join("manifest.json"), manifest.to_string()).unwrap();
    let out = search_with(m.path());
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("model_int8.onnx") && err.contains("ivd models fetch") && !err.contains("panicked"), "{err}");

    // A malformed manifest.
    let m = models_copy();
    std::fs::write(m.path().join("manifest.json"), "{ not json").unwrap();
    let err = stderr(&search_with(m.path()));
    assert!(err.contains("manifest.json") && err.contains("ivd models fetch"), "{err}");

    // `ivd models status` names the bad file and exits non-zero.
    let m = models_copy();
    std::fs::remove_file(m.path().join("multilingual-e5-small/special_tokens_map.json")).unwrap();
    let home = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ivd"))
        .env("IVD_HOME", home.path())
        .env("IVD_MODELS", m.path())
        .args(["models", "status"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("BAD   e5-special-tokens"), "{}", stdout(&out));
}

#[test]
fn without_models_search_degrades_and_says_so_once() {
    let ivd = Ivd::new();
    let out = ivd.run(&["kb", "search", "长期记忆", "--format", "json"]);
    assert!(out.status.success());
    let err = stderr(&out);
    assert_eq!(err.matches("ivd models fetch").count(), 1, "{err}");
    assert!(err.contains("BM25 only"), "{err}");
}

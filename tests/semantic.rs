//! Tests with the real embedding model (multilingual-e5-small through ONNX Runtime), provisioned by
//! `ivd models fetch` into IVD_MODELS. `.ci/run` provisions it; without it these tests fail with
//! the message that says how to provision, rather than passing vacuously.

use interview_doctor::eval;
use interview_doctor::kb::search::{KbSearch, SearchMode, SearchOptions, VECTOR_RELEVANCE_MIN};
use interview_doctor::kb::KnowledgeBase;
use interview_doctor::lang::Lang;
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
pub fn engine() -> &'static KbSearch {
    use std::sync::OnceLock;
    static S: OnceLock<(tempfile::TempDir, KbSearch)> = OnceLock::new();
    &S.get_or_init(|| {
        let home = tempfile::tempdir().unwrap();
        seed_embeddings(home.path());
        let s =
            KbSearch::open_with_models(KnowledgeBase::shipped().unwrap(), home.path(), &models(), &Default::default())
                .unwrap();
        assert!(s.vectors.is_some() && s.degraded.is_none());
        (home, s)
    })
    .1
}

#[test]
fn hybrid_recall_is_at_least_that_of_each_list_alone() {
    let s = engine();
    let r = eval::retrieval::run(s, &|_| true).unwrap();
    let at3 = |m: SearchMode| r.rows.iter().find(|row| row.mode == m && row.queries == "all").unwrap().recall_at_3;
    let (b, v, h) = (at3(SearchMode::Bm25), at3(SearchMode::Vector), at3(SearchMode::Hybrid));
    println!("recall@3 bm25 {b:.3} vector {v:.3} hybrid {h:.3}");
    assert!(h >= b && h >= v, "hybrid {h} must not be below bm25 {b} or vector {v}");
}

/// The ranking by meaning (`kb::dense`: the question's wordings and the expert answer) finds
/// held-out paraphrases that the wordings alone miss. Measured on all 704: recall@3 about 0.70
/// against 0.53; asked for at least five points more.
#[test]
fn the_ranking_by_meaning_finds_what_the_wordings_alone_miss() {
    let s = engine();
    let v = s.vectors.as_ref().unwrap();
    let opts = SearchOptions { top_k: 3, dimension: None, mode: SearchMode::Vector };
    let (mut by_meaning, mut by_wordings, mut n) = (0usize, 0usize, 0usize);
    for (at, e) in s.kb.entries.iter().enumerate() {
        for q in &e.eval_paraphrases {
            by_meaning += usize::from(s.search(q, &opts).unwrap().iter().any(|h| h.id == e.id));
            let qv = v.query_vector(q).unwrap();
            by_wordings += usize::from(v.rank(&qv, |_| true, 3).iter().any(|(i, _)| *i == at));
            n += 1;
        }
    }
    println!("recall@3 of {n}: by meaning {by_meaning}, by the wordings alone {by_wordings}");
    assert!(by_meaning >= by_wordings + n / 20, "{by_meaning} vs {by_wordings} of {n}");
    let hits = s.search("If you built an agent from scratch, which modules would it have?", &opts).unwrap();
    assert!(hits.iter().any(|h| h.id == "agent-basic-002"), "{hits:?}");
}

/// An interview question's references are found as they were when the same-question model was
/// fitted (the wordings alone): with the expert answers in the ranking, "biggest contribution"
/// met "why this job" (`behavioral-013`) and the model took it for the question asked.
#[test]
fn references_are_searched_as_the_same_question_model_was_fitted() {
    let s = engine();
    let hits = s.references_for("最后一个问题，你觉得自己在这个项目里最大的贡献是什么？").unwrap();
    assert!(hits.iter().all(|h| h.id != "behavioral-013"), "{hits:?}");
}

/// The verdicts issue's must-show points, on every 9th entry's built answers and the whole graded
/// set, with the real model. Bands have margins; no figure depends on a cosine's last decimals.
#[test]
fn verdicts_hold_on_answers_the_base_did_not_write() {
    let s = engine();
    let r = eval::run(s, &eval::EvalOptions { every: 9, skip_retrieval: true, cancel: Default::default() }).unwrap();
    let set = |name: &str| r.sets.iter().find(|x| x.set == name).unwrap().clone();
    for row in &r.sets {
        println!("{:<34} n {:>3} median {:>5.1} p10 {:>3.0} p90 {:>3.0}", row.set, row.n, row.median, row.p10, row.p90);
    }
    let c = &r.comparisons;
    println!("{c:?}");
    assert!(set("wrong-question-other-dimension").median <= 25.0);
    assert!(c.right_ahead_of_wrong_other_dimension >= 0.9, "{c:?}");
    assert!(set("other-language").median >= 70.0);
    assert!(c.partial_rising >= 0.9, "{c:?}");
    assert!(set("keyword-list").median <= 35.0);
    assert!(set("keywords-around-misconceptions").median <= 45.0);
    assert!(set("dont-know").p90 <= 15.0);
    let novice = set("novice");
    assert!((20.0..=49.0).contains(&novice.median), "novice answers are weak, not off-topic or solid: {novice:?}");
    let test = r.graded.iter().find(|g| g.part == "test").unwrap();
    println!("graded test part: {test:?}");
    assert!(test.n >= 100, "the graded test part has {} answers", test.n);
    assert!(test.spearman >= 0.8, "Spearman on the test part {}", test.spearman);
    let m = |l: &str| test.medians[l];
    assert!(m("excellent") >= 70.0 && m("good") >= 70.0, "{:?}", test.medians);
    assert!(m("off-topic") <= 25.0 && m("weak") <= 49.0, "{:?}", test.medians);
    assert!(m("excellent") > m("partial") && m("good") > m("weak"), "{:?}", test.medians);
}

fn score(q: &str, a: &str) -> interview_doctor::scoring::content::ContentScore {
    let s = engine();
    let r = s.references_for(q).unwrap().first().and_then(|h| s.position(&h.id));
    interview_doctor::scoring::assess(s, q, a, r, interview_doctor::lang::of_question(q, a), &Default::default())
        .unwrap()
}

#[test]
fn refuting_a_misconception_is_not_penalised_and_stating_it_is() {
    let q = "RAG 能解决大模型的幻觉问题吗？";
    let e = engine().references_for(q).unwrap();
    assert!(!e.is_empty());
    let refuted = "RAG does not eliminate hallucination: it grounds the answer in retrieved passages, but the model can still ignore or misread them, and retrieval can return the wrong chunk. So we measure faithfulness separately, require citations, and let the model say it does not know when nothing relevant comes back. In our support bot that cut unsupported claims from about 12% to 3%, not to zero.";
    let stated = "RAG eliminates hallucination completely. Once you retrieve documents the model cannot make things up, so you don't need to evaluate faithfulness. We just add a vector store and the problem is solved.";
    let (a, b) = (score(q, refuted), score(q, stated));
    println!("refuted {} {:?}; stated {} {:?}", a.overall, a.inaccuracies, b.overall, b.inaccuracies);
    assert!(a.overall >= b.overall + 20, "refuted {} vs stated {}", a.overall, b.overall);
}

#[test]
fn behavioral_answers_are_judged_on_star_and_name_what_is_missing() {
    let q = "Tell me about a time you had to deal with a production incident in an agent system.";
    let star = "Last year at my previous company our support agent started failing refunds: the failure rate jumped from 2% to 15% in a day. I was the on-call owner, so my task was to stop the bleeding and find the cause. I pulled the traces, saw that an upstream API had renamed a field, and I added schema validation on tool results so a missing field became a structured error that routes to a human. I also wrote a contract test for that API. As a result the failure rate was back under 2% within two days and we had no repeat in the next three months.";
    let we = "We had an incident once and the team worked hard on it. We looked at the logs and fixed the issue, and things were fine after that. We learned a lot about monitoring.";
    let (a, b) = (score(q, star), score(q, we));
    println!("star {} {:?}; we {} {:?}", a.overall, a.star_missing, b.overall, b.star_missing);
    assert!(a.overall >= 70 && a.overall >= b.overall + 20, "star {} vs we {}", a.overall, b.overall);
    assert!(b.star_missing.iter().any(|m| m.contains("own part")), "{:?}", b.star_missing);
    assert!(b.star_missing.iter().any(|m| m.contains("measurable")), "{:?}", b.star_missing);
    let zh = score("讲一次你处理线上事故的经历。", "我们团队遇到过一次故障，大家一起加班修好了，后来就没事了。");
    assert!(zh.star_missing.iter().any(|m| m.contains("结果") || m.contains("数字")), "{:?}", zh.star_missing);
    assert!(!zh.star_missing.iter().any(|m| m.is_ascii()), "Chinese feedback: {:?}", zh.star_missing);
}

#[test]
fn one_liners_and_non_answers_stay_low_and_correct_beats_wrong() {
    let q = "What is the difference between an agent and a fixed workflow?";
    let right =
        score(q, "In a workflow the code fixes the steps; in an agent the model decides the next step at run time.");
    let wrong = score(q, "There is no difference, an agent is just a workflow with a prompt.");
    let idk = score(q, "I don't know, sorry.");
    println!("right {} wrong {} idk {}", right.overall, wrong.overall, idk.overall);
    assert!(right.overall > wrong.overall, "right {} wrong {}", right.overall, wrong.overall);
    // One correct sentence is at most partial: it names the core, it does not develop it.
    assert!(right.overall <= 69 && idk.overall <= 15, "right {} idk {}", right.overall, idk.overall);
}

#[test]
fn numbers_in_words_count() {
    use interview_doctor::scoring::signals::{count_numbers, normalize_numbers};
    assert_eq!(count_numbers(&normalize_numbers("down from about five percent to under one percent")), 2);
    assert!(normalize_numbers("从百分之五降到百分之一，重试三次").contains("5%"));
    assert!(normalize_numbers("重试三次").contains("3次"));
    assert!(!normalize_numbers("一个工具").contains('1'), "the article 一 is not a number");
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
        // The second run is compared with the first in the history: the numbers must not differ.
        v["compared_to_last"] = serde_json::Value::Null;
        v.as_object_mut().unwrap().remove("trend");
        v.to_string()
    };
    assert_eq!(strip(&a), strip(&b), "vectors from the cache must give the same numbers as fresh ones");
    let v: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
    let with_refs =
        v["questions"].as_array().unwrap().iter().filter(|q| !q["references"].as_array().unwrap().is_empty()).count();
    // An entry is a reference only when it is the question asked: the follow-up on how success is
    // judged has none, and an answer that fits the asked wording better than the entry's closest
    // one may be scored against the question alone (`scoring::matching::LEAD_MAX`).
    assert!(with_refs >= 5, "{with_refs} of 7 questions found a reference");
    // Non-answers stay low with vectors too.
    assert!(v["questions"][6]["content"]["overall"].as_u64().unwrap() <= 20, "{}", v["questions"][6]["content"]);
}

/// Unrelated questions (salary, weekends, football) find no reference: the question-side gate of
/// `kb::search` (a close phrasing or enough shared terms).
#[test]
fn unrelated_questions_find_no_reference() {
    let s = engine();
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
    ];
    let found: Vec<&str> = unrelated.iter().copied().filter(|q| !s.references_for(q).unwrap().is_empty()).collect();
    assert!(found.len() <= 1, "unrelated questions found references: {found:?} (gate {VECTOR_RELEVANCE_MIN})");
}

/// A question from another field that shares one rare word with an entry ("LoRA" with the entry
/// on choosing between prompting, RAG and fine-tuning) is not that entry's question: the entry
/// stands far from it by vectors (`scoring::matching::SIMILARITY_MIN`), and another entry stands
/// closer than the hit (its lead over the whole base, not over the hits alone).
#[test]
fn a_shared_rare_word_is_not_the_same_question() {
    let s = engine();
    let cancel = tokio_util::sync::CancellationToken::new();
    for q in ["What is LoRA?", "LoRA 是什么？"] {
        let hits = interview_doctor::scoring::references(s, q, &cancel).unwrap();
        let same = interview_doctor::scoring::same_question(&hits).map(|h| h.id.clone());
        assert!(same.is_none(), "{q}: matched {same:?} among {hits:?}");
    }
    // The same engine still matches the base's question reworded.
    let q = "How would you choose between prompt engineering, RAG and fine-tuning when an agent underperforms?";
    let hits = interview_doctor::scoring::references(s, q, &cancel).unwrap();
    let same = interview_doctor::scoring::same_question(&hits).map(|h| h.id.clone());
    assert_eq!(same.as_deref(), Some("model-capability-007"), "{hits:?}");
}

/// A question from outside the base's field (`scoring::field`) is matched to no entry: before,
/// "TCP congestion control" was taken for "what is an AI agent?" and "what is a race condition?"
/// for a behavioral entry, and a poor answer was then told to answer those. The field's own
/// question, reworded, is still matched.
#[test]
fn a_question_from_outside_the_field_is_matched_to_no_entry() {
    let s = engine();
    let cancel = tokio_util::sync::CancellationToken::new();
    for (q, lang) in
        [("讲讲 TCP 的拥塞控制是怎么工作的？", Lang::Zh), ("What is a race condition? Give an example.", Lang::En)]
    {
        let hits = interview_doctor::scoring::references(s, q, &cancel).unwrap();
        let same = interview_doctor::scoring::same_question(&hits).map(|h| h.id.clone());
        assert!(same.is_none(), "{q}: matched {same:?} among {hits:?}");
        let (_, chosen, score) =
            interview_doctor::scoring::assess_question(s, q, "I would look at the logs and check it.", lang, &cancel)
                .unwrap();
        assert!(chosen.is_none(), "{q}: scored against {chosen:?} ({})", score.improvement);
    }
    let q = "How would you choose between prompt engineering, RAG and fine-tuning when an agent underperforms?";
    let hits = interview_doctor::scoring::references(s, q, &cancel).unwrap();
    let same = interview_doctor::scoring::same_question(&hits).map(|h| h.id.clone());
    assert_eq!(same.as_deref(), Some("model-capability-007"), "{hits:?}");
}

fn models_copy() -> tempfile::TempDir {
    let src = models().dir;
    let dst = tempfile::tempdir().unwrap();
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(src.join("manifest.json")).unwrap()).unwrap();
    for f in manifest["files"].as_array().unwrap() {
        let rel = f["path"].as_str().unwrap();
        std::fs::create_dir_all(dst.path().join(rel).parent().unwrap()).unwrap();
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

/// Padding a concise correct answer with filler does not raise it; a bare list of the right terms
/// stays below it.
#[test]
fn padding_and_keyword_lists_do_not_beat_a_concise_correct_answer() {
    let q = "How does LLM function calling work, end to end?";
    let concise = "The model never executes anything: you send tool definitions as JSON Schema in the request, the model returns a structured tool call with a name and JSON arguments, your application validates and runs the function, and you send the result back as a tool message with the matching tool_call_id so the model can continue or answer.";
    let padded = format!("{concise} Basically, as I said, it is really important, very important in general. You know, there are many things to consider and it depends on many factors. In general, things can be complicated, and so on and so forth, and it is what it is. Overall I think it is a good thing and it is useful in many cases, generally speaking, and people use it a lot these days.");
    let list = "json schema, tool_calls, tool_use, arguments, tool_call_id, role=tool, tool_result, chat template, fine-tuning, tool_choice, parser";
    let (c, p, l) = (score(q, concise), score(q, &padded), score(q, list));
    println!("concise {} padded {} list {}", c.overall, p.overall, l.overall);
    assert!(c.overall >= 70, "a concise correct answer is solid: {}", c.overall);
    assert!(p.overall <= c.overall, "padded {} vs concise {}", p.overall, c.overall);
    assert!(l.overall <= 35 && l.overall + 30 <= c.overall, "list {} vs concise {}", l.overall, c.overall);
}

/// Q2 of `en_agent_labeled.txt`: a sound, concrete answer with its numbers in words scored 23 before
/// relevance, other-words coverage and number words; it is solid. The vague Q3 stays low.
#[test]
fn the_english_samples_sound_answer_is_solid_and_the_vague_one_is_not() {
    let text = std::fs::read_to_string(samples().join("en_agent_labeled.expected.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let pair = |i: usize| {
        let p = &v["pairs"][i];
        (p["question"].as_str().unwrap().to_string(), p["answer"].as_str().unwrap().to_string())
    };
    let (q2, a2) = pair(1);
    let (q3, a3) = pair(2);
    let (s2, s3) = (score(&q2, &a2), score(&q3, &a3));
    println!("Q2 {} {:?}; Q3 {}", s2.overall, s2.key_missing, s3.overall);
    assert!(s2.overall >= 70, "Q2 is solid: {}", s2.overall);
    assert!(s3.overall <= 49, "Q3 is vague: {}", s3.overall);
}

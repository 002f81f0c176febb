//! The knowledge base and the rubric on real entries: validation, search, expert > novice.

use interview_doctor::kb::search::{KbSearch, SearchOptions, RELEVANCE_MIN};
use interview_doctor::kb::Entry;
use interview_doctor::kb::KnowledgeBase;
use interview_doctor::lang::of_question as lang_of;
use interview_doctor::scoring::assess;
use interview_doctor::scoring::content::ContentScore;

/// The analyzer as the tool runs it, words only (no model in these tests).
fn analyze(s: &KbSearch, question: &str, answer: &str, e: Option<&Entry>) -> ContentScore {
    let position = e.and_then(|e| s.position(&e.id));
    assess(s, question, answer, position, lang_of(question, answer), &Default::default()).unwrap()
}

/// `compare` on every entry's own question with its expert and its novice answer: the reference is
/// found by searching the question, as `ivd compare` does, not handed to the analyzer.
#[test]
fn expert_beats_novice_on_every_entry() {
    let home = tempfile::tempdir().unwrap();
    let s = KbSearch::open(KnowledgeBase::shipped().unwrap(), home.path()).unwrap();
    let (mut held, mut own_reference) = (0, 0);
    let mut failures = Vec::new();
    let mut margins = Vec::new();
    for e in &s.kb.entries {
        let refs = s.references_for(&e.question).unwrap();
        let reference = refs.first().and_then(|h| s.kb.get(&h.id));
        own_reference += usize::from(reference.is_some_and(|r| r.id == e.id));
        let ex = analyze(&s, &e.question, &e.expert_answer, reference);
        let nv = analyze(&s, &e.question, &e.novice_answer, reference);
        if ex.overall > nv.overall {
            held += 1;
        } else {
            failures.push(format!("{}: expert {} <= novice {}", e.id, ex.overall, nv.overall));
        }
        margins.push(ex.overall as i64 - nv.overall as i64);
    }
    let min = margins.iter().min().unwrap();
    let mean = margins.iter().sum::<i64>() as f64 / margins.len() as f64;
    println!(
        "compare: expert > novice on {held}/{} entries (margin min {min}, mean {mean:.1}); search chose the entry itself as reference for {own_reference}",
        s.kb.entries.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn relevance_separates_paraphrases_from_unrelated_questions() {
    let home = tempfile::tempdir().unwrap();
    let s = KbSearch::open(KnowledgeBase::shipped().unwrap(), home.path()).unwrap();
    let opts = SearchOptions { top_k: 3, dimension: None, mode: Default::default() };
    let mut paraphrase_rel = Vec::new();
    let mut top1 = 0;
    let mut n = 0;
    for e in &s.kb.entries {
        for q in &e.eval_paraphrases {
            n += 1;
            let hits = s.search(q, &opts).unwrap();
            if hits.first().is_some_and(|h| h.id == e.id) {
                top1 += 1;
            }
            paraphrase_rel.push(hits.first().map(|h| h.relevance).unwrap_or(0.0));
        }
    }
    let unrelated = [
        "你的期望薪资是多少？",
        "你周末一般做什么？",
        "你老家是哪里的？",
        "What is your favourite football team?",
        "Where do you see yourself living?",
        "你喜欢吃什么菜？",
        "How was your commute today?",
        "你有没有养宠物？",
        "Do you prefer coffee or tea?",
        "今天天气怎么样？",
    ];
    let unrelated_rel: Vec<f64> =
        unrelated.iter().map(|q| s.search(q, &opts).unwrap().first().map(|h| h.relevance).unwrap_or(0.0)).collect();
    paraphrase_rel.sort_by(f64::total_cmp);
    let pct = |p: f64| paraphrase_rel[((paraphrase_rel.len() - 1) as f64 * p) as usize];
    println!("paraphrase relevance p10 {:.2} p25 {:.2} p50 {:.2}", pct(0.1), pct(0.25), pct(0.5));
    let above = paraphrase_rel.iter().filter(|r| **r >= RELEVANCE_MIN).count();
    println!(
        "bm25 top-1 on held-out paraphrases: {top1}/{n}; relevance >= {RELEVANCE_MIN}: {above}/{n} paraphrases; unrelated: {:?}",
        unrelated_rel
    );
    assert!(unrelated_rel.iter().all(|r| *r < RELEVANCE_MIN), "{unrelated_rel:?}");
    assert!(above as f64 >= 0.7 * n as f64, "too many paraphrases judged irrelevant: {above}/{n}");
}

use crate::common::*;
use interview_doctor::kb::index::Bm25Index;
use serde_json::Value;

/// Answers written for these tests (not in the knowledge base): strong ones name mechanisms,
/// numbers and trade-offs; weak ones are vague.
const STRONG_WEAK: &[(&str, &str, &str)] = &[
    (
        "Agent 的长期记忆怎么设计？",
        "我们把记忆分层：工作记忆就是当前上下文窗口，情景记忆存每次会话的摘要，语义记忆存从对话里抽取出来的原子事实，比如“用户偏好靠窗座位”。写入时先让模型抽取事实、打重要性分，低于阈值的不存；和已有记忆做相似度去重，冲突时按时间戳更新而不是追加。检索时按相关性、时效性和重要性加权排序，只取 top 5，控制在 800 token 以内。上线后用户重复说明偏好的比例从 30% 降到 8%，代价是每轮多一次抽取调用，大约增加 300 ms。",
        "长期记忆就是把聊天记录都存到数据库里，用的时候查出来放进去就行。",
    ),
    (
        "工具调用失败了怎么处理？",
        "先区分错误类型：参数错误、超时和业务错误处理方式不同。参数不符合 schema 的，把带字段路径的校验错误作为 tool 结果回传给模型，让它自己修正，最多重试 2 次；超时用指数退避重试，但只对幂等的读操作重试，写操作要用 idempotency key 防止重复扣款。连续失败 3 次就熔断并降级，转人工或换备用工具。我们线上这样做之后，因工具错误导致的任务失败率从 9% 降到 2%，代价是延迟 p95 增加了大约 1 秒。",
        "失败了就让它重试呗，多试几次一般就好了。",
    ),
    (
        "How do you evaluate an agent before shipping a change?",
        "We keep an offline eval set of about 300 real tasks with expected outcomes, and run every prompt or model change against it in CI. Outcome metrics are task success rate and cost per task; we also score trajectories, for example whether the agent called the right tools in a sensible order, because a correct answer reached by a dangerous path is still a failure. For open-ended answers we use an LLM-as-judge, but we calibrated it against 100 human labels first and found 85% agreement, and we randomise answer order to reduce position bias. Online we run an A/B test on 5% of traffic before a full rollout.",
        "We just try a few examples by hand and if it looks good we ship it.",
    ),
    (
        "什么是 RAG？",
        "RAG 是检索增强生成：先把文档切块、做 embedding 建索引，查询时用混合检索（BM25 加向量，用 RRF 融合）召回 top 50，再用 cross-encoder 重排取 top 5 放进上下文，让模型基于检索到的内容回答并标注引用。它解决的是模型知识过时和幻觉的问题，但代价是多了一跳检索延迟，大约 100 到 300 ms；效果上要分别评估检索的 recall@k 和生成的 faithfulness，因为答错可能是没检索到，也可能是检索到了但没用上。",
        "RAG 就是让大模型去搜索一下再回答，这样就不会有幻觉了。",
    ),
    (
        "What is MCP and why would you use it?",
        "MCP, the Model Context Protocol, standardises how an LLM application connects to tools and data: instead of writing M times N integrations, each host implements an MCP client once and each system exposes an MCP server once, so it becomes M plus N. It runs on JSON-RPC 2.0; the client calls initialize to negotiate capabilities, then tools/list and tools/call, and servers can also expose resources and prompts. Transports are stdio for local servers and Streamable HTTP for remote ones, where OAuth 2.1 handles authorisation. The trade-off is another moving part and real security work: tool descriptions can be poisoned, so we pin server versions and review them.",
        "MCP is basically a newer version of function calling that lets the model connect directly to your systems.",
    ),
    (
        "讲一次你的 Agent 在线上出故障的经历。",
        "背景是我负责的客服 Agent 上线第二周，退款类请求的失败率突然从 2% 升到 15%。我先看 trace，发现是上游订单接口改了返回字段，工具结果里缺了 order_status，模型就开始编造状态。行动上我当天加了工具返回值的 schema 校验，缺字段直接报结构化错误让模型转人工，同时给接口加了契约测试。结果两天内失败率回到 2% 以下，之后三个月没有再出现同类问题。反思是：工具输出也要当不可信输入来校验，而且要有按工具拆分的监控告警。",
        "有一次系统出问题了，我们团队加班修好了，后来就没事了。",
    ),
];

#[test]
fn own_strong_answers_beat_own_weak_answers() {
    // With the model, as a provisioned machine runs it (words alone miss this English answer's
    // entry among the several evaluation entries: see the closing note of the verdicts issue).
    // The binary's one engine: its home starts from the warmed cache instead of embedding the base.
    let s = crate::semantic::engine();
    for (q, strong, weak) in STRONG_WEAK {
        let refs = s.references_for(q).unwrap();
        let entry = refs.first().and_then(|h| s.kb.get(&h.id));
        assert!(entry.is_some(), "{q}: no reference");
        let (a, b) = (analyze(s, q, strong, entry), analyze(s, q, weak, entry));
        println!("{q} -> {}: strong {} weak {}", refs[0].id, a.overall, b.overall);
        assert!(a.overall >= b.overall + 10, "{q}: strong {} vs weak {}", a.overall, b.overall);
        assert!(b.overall <= 49, "{q}: a vague answer must score weak at best, got {}", b.overall);
    }
}

#[test]
fn non_answers_score_twenty_or_less() {
    let home = tempfile::tempdir().unwrap();
    let s = KbSearch::open(KnowledgeBase::shipped().unwrap(), home.path()).unwrap();
    let kb = &s.kb;
    let entry = kb.get("memory-001");
    let q = &kb.get("memory-001").unwrap().question;
    for answer in [
        "I don't know.",
        "不太清楚。",
        "这个我不太清楚，没有用过。",
        "Sorry, I'm not sure, I have never used that.",
        "就是存起来。",
        "It depends.",
        "",
    ] {
        for e in [entry, None] {
            let c = analyze(&s, q, answer, e);
            assert!(c.overall <= 20, "{answer:?} scored {}", c.overall);
            if answer.contains("know") || answer.contains("清楚") {
                assert!(c.overall <= 15, "{answer:?} gives up: {}", c.overall);
            }
        }
    }
    // A long, good answer that admits one unknown is not a non-answer.
    let e = kb.get("memory-001").unwrap();
    let c = analyze(&s, q, &format!("{} 具体数字我不太清楚。", e.expert_answer), Some(e));
    assert!(c.overall > 60, "{}", c.overall);
}

#[test]
fn scoring_is_deterministic() {
    let home = tempfile::tempdir().unwrap();
    let s = KbSearch::open(KnowledgeBase::shipped().unwrap(), home.path()).unwrap();
    for e in s.kb.entries.iter().take(20) {
        let a = analyze(&s, &e.question, &e.novice_answer, Some(e));
        assert_eq!(a, analyze(&s, &e.question, &e.novice_answer, Some(e)));
    }
}

fn copy_kb(to: &std::path::Path) {
    let from = root().join("knowledge_base");
    std::fs::copy(from.join("manifest.toml"), to.join("manifest.toml")).unwrap();
    for d in ["memory", "rag"] {
        std::fs::create_dir_all(to.join(d)).unwrap();
        for f in std::fs::read_dir(from.join(d)).unwrap() {
            let f = f.unwrap().path();
            std::fs::copy(&f, to.join(d).join(f.file_name().unwrap())).unwrap();
        }
    }
}

#[test]
fn index_is_rebuilt_only_when_the_knowledge_base_changes() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    copy_kb(dir.path());
    let kb = KnowledgeBase::load_dir(dir.path()).unwrap();
    assert_eq!(kb.entries.len(), 32);
    let first = Bm25Index::open_or_build(&kb, home.path()).unwrap();
    assert!(first.built);
    let again = Bm25Index::open_or_build(&KnowledgeBase::load_dir(dir.path()).unwrap(), home.path()).unwrap();
    assert!(!again.built, "unchanged knowledge base must reuse the index");
    assert_eq!(first.path, again.path);
    // One edited entry: its document alone is replaced, in the same index, and search sees it.
    let f = dir.path().join("memory/memory-001.toml");
    let text = std::fs::read_to_string(&f).unwrap().replace("question_en = \"", "question_en = \"zanzibarish ");
    std::fs::write(&f, text).unwrap();
    let changed = Bm25Index::open_or_build(&KnowledgeBase::load_dir(dir.path()).unwrap(), home.path()).unwrap();
    assert!(changed.built, "a changed entry must update the index");
    assert_eq!((changed.added, changed.removed), (1, 1));
    assert_eq!(changed.path, first.path, "an edit updates the index in place");
    let hits = changed.search(&["zanzibarish".to_string()], None, 5).unwrap();
    assert_eq!(hits.iter().map(|h| h.0.as_str()).collect::<Vec<_>>(), ["memory-001"]);
    drop((first, again, changed));

    // A deleted entry disappears; an added one appears; the rest stay untouched.
    std::fs::remove_file(&f).unwrap();
    let src = dir.path().join("rag/rag-001.toml");
    let copy = std::fs::read_to_string(&src).unwrap().replace("id = \"rag-001\"", "id = \"rag-901\"");
    std::fs::write(dir.path().join("rag/rag-901.toml"), copy).unwrap();
    let kb = KnowledgeBase::load_dir(dir.path()).unwrap();
    let updated = Bm25Index::open_or_build(&kb, home.path()).unwrap();
    assert_eq!((updated.added, updated.removed), (1, 1));
    assert!(updated.search(&["zanzibarish".to_string()], None, 5).unwrap().is_empty());
    let rag = updated
        .search(&interview_doctor::kb::terms::terms(&kb.get("rag-001").unwrap().question), Some("rag"), 40)
        .unwrap();
    assert!(rag.iter().any(|h| h.0 == "rag-901") && rag.iter().any(|h| h.0 == "rag-001"));
    let ids: std::collections::HashSet<&str> = rag.iter().map(|h| h.0.as_str()).collect();
    assert_eq!(ids.len(), rag.len(), "each entry once: {rag:?}");
    assert_eq!(updated.documents(), 32);

    // The same best hit as a build from scratch, in another state folder, and scores within 2%:
    // tantivy keeps document lengths quantised, so a merged segment's length statistics are close to,
    // not equal to, a fresh build's, and near-ties further down may swap.
    let other = tempfile::tempdir().unwrap();
    let fresh = Bm25Index::open_or_build(&kb, other.path()).unwrap();
    assert_eq!(fresh.added, 32);
    for e in &kb.entries {
        let q = interview_doctor::kb::terms::terms(&e.question);
        let (a, b) = (updated.search(&q, None, 3).unwrap(), fresh.search(&q, None, 32).unwrap());
        assert_eq!(a[0].0, b[0].0, "{}", e.id);
        for (id, score) in &a {
            let f = b.iter().find(|h| &h.0 == id).map(|h| h.1).unwrap();
            assert!((score - f).abs() <= 0.02 * f, "{}: {id} {score} vs {f}", e.id);
        }
    }
}

#[test]
fn broken_knowledge_bases_are_reported_with_file_and_field() {
    let ivd = Ivd::new();
    let validate = |dir: &std::path::Path| ivd.run(&["kb", "validate", "--kb", dir.to_str().unwrap()]);

    let empty = tempfile::tempdir().unwrap();
    let out = validate(empty.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).contains("manifest.toml"), "{}", stdout(&out));

    let dir = tempfile::tempdir().unwrap();
    copy_kb(dir.path());
    let out = validate(dir.path());
    assert!(out.status.success(), "{}", stdout(&out));
    // Malformed TOML, a missing field, a duplicate id, a dimension not in the manifest.
    std::fs::write(dir.path().join("memory/memory-001.toml"), "id = \"memory-001\"\nquestion = \"unterminated\n")
        .unwrap();
    let m2 = std::fs::read_to_string(dir.path().join("memory/memory-002.toml")).unwrap();
    let without = m2.lines().filter(|l| !l.starts_with("gap_analysis")).collect::<Vec<_>>().join("\n");
    std::fs::write(dir.path().join("memory/memory-002.toml"), without).unwrap();
    let m3 = std::fs::read_to_string(dir.path().join("memory/memory-003.toml")).unwrap();
    std::fs::write(dir.path().join("memory/memory-099.toml"), m3.replace("id = \"memory-003\"", "id = \"memory-099\""))
        .unwrap();
    std::fs::write(
        dir.path().join("rag/rag-004.toml"),
        std::fs::read_to_string(dir.path().join("rag/rag-005.toml")).unwrap(),
    )
    .unwrap();
    let out = validate(dir.path());
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("memory/memory-001.toml"), "{text}");
    assert!(text.contains("memory/memory-002.toml: gap_analysis: missing field"), "{text}");
    assert!(text.contains("rag/rag-004.toml: id:") && text.contains("duplicate id"), "{text}");
    let json = ivd.run(&["kb", "validate", "--kb", dir.path().to_str().unwrap(), "--format", "json"]);
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(v["problems"].as_array().unwrap().iter().any(|p| p["field"] == "gap_analysis"));
    // Diagnose refuses a broken knowledge base rather than scoring against half of it.
    let out = ivd.run(&[
        "diagnose",
        samples().join("zh_agent_labeled.txt").to_str().unwrap(),
        "--kb",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("kb validate"), "{}", stderr(&out));
    let out = ivd.run(&["kb", "stats", "--kb", "/no/such/folder"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn kb_commands_print_what_scripts_need() {
    let ivd = Ivd::new();
    let out = ivd.run(&["kb", "stats", "--format", "json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["total"].as_u64().unwrap() >= 140);
    for (d, n) in v["dimensions"].as_object().unwrap() {
        assert!(n.as_u64().unwrap() >= 16, "{d}: {n}");
    }
    let out = ivd.run(&["kb", "search", "工具调用失败怎么处理", "--format", "json", "--top", "3"]);
    let hits: Value = serde_json::from_slice(&out.stdout).unwrap();
    let hits = hits.as_array().unwrap();
    assert_eq!(hits.len(), 3);
    for h in hits {
        for k in ["id", "dimension", "question", "score"] {
            assert!(!h[k].is_null(), "{h}");
        }
    }
    assert!(hits.iter().any(|h| h["dimension"] == "tool-calling"), "{hits:?}");
    let out = ivd.run(&["kb", "search", "memory", "--dimension", "memory", "--format", "json"]);
    let hits: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(hits.as_array().unwrap().iter().all(|h| h["dimension"] == "memory"));
    let out = ivd.run(&["kb", "search", "memory", "--dimension", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    let out = ivd.run(&["kb", "build"]);
    assert!(out.status.success(), "{}", stderr(&out));

    let out = ivd.run(&["compare", "--question", "什么是 MCP？", "--answer", "不知道。", "--format", "json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["content"]["overall"].as_u64().unwrap() <= 20);
    for k in ["completeness", "depth", "accuracy", "practicality"] {
        assert!(v["content"][k]["detail"].is_string());
    }
    assert!(v["references"].as_array().unwrap().iter().any(|r| r["dimension"] == "protocols"), "{v}");
}

/// The entry's text without its English side (a user's single-language entry).
fn chinese_only(text: &str) -> String {
    let start = text.find("expert_answer_en = ").unwrap();
    let end = text.find("[[key_points]]").unwrap();
    let mut out = format!("{}{}", &text[..start], &text[end..]);
    for key in ["point_en", "keywords_en", "mistake_en", "signals_en", "correction_en"] {
        out = out.lines().filter(|l| !l.starts_with(&format!("{key} ="))).collect::<Vec<_>>().join("\n") + "\n";
    }
    out
}

/// A user's base may be Chinese only (validate says so); an entry with half an English side is
/// named with the missing field.
#[test]
fn single_language_entries_validate_and_half_english_ones_are_named() {
    let ivd = Ivd::new();
    let dir = tempfile::tempdir().unwrap();
    copy_kb(dir.path());
    let f = dir.path().join("memory/memory-001.toml");
    let zh = chinese_only(&std::fs::read_to_string(&f).unwrap());
    std::fs::write(&f, &zh).unwrap();
    let out = ivd.run(&["kb", "validate", "--kb", dir.path().to_str().unwrap()]);
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(stdout(&out).contains("1 of them single-language"), "{}", stdout(&out));
    // Half English: one English field back, the others missing.
    std::fs::write(&f, zh.replacen("[[key_points]]", "gap_analysis_en = \"Only this.\"\n\n[[key_points]]", 1)).unwrap();
    let out = ivd.run(&["kb", "validate", "--kb", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("memory/memory-001.toml") && stdout(&out).contains("expert_answer_en"),
        "{}",
        stdout(&out)
    );
}

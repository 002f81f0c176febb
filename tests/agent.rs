//! The agent without a network: routing of requests in Chinese and English (a table), skills from
//! SKILL.md folders (valid and malformed), built-in skills from `ivd ask`, the help without a model,
//! prompt-only skills in the model loop with only their tools, and tool time limits that fire.

use std::sync::Arc;
use std::time::Duration;

use interview_doctor::agent::{Agent, StepSink};
use interview_doctor::config::Config;
use interview_doctor::skills::discovery::Route;
use interview_doctor::skills::registry::SkillSet;
use interview_doctor::tools::{ErrorCode, ToolContext, ToolRegistry};
use serde_json::{json, Value};

use crate::common::{samples, stderr, stdout, Ivd};
use crate::llm::{bodies, ivd, server, text, tool_calls};

fn agent_with_models(home: &std::path::Path, skills: SkillSet) -> Agent {
    let mut c = Config::with_home(home);
    c.models_dir = crate::semantic::models().dir;
    c.audit = false;
    let sink: StepSink = Arc::new(|_| {});
    Agent::new(ToolContext::new(Arc::new(c)), skills, sink)
}

/// (request, file named with it, expected skill or None for the free loop)
const TABLE: &[(&str, Option<&str>, Option<&str>)] = &[
    ("diagnose my interview", Some("interview.txt"), Some("diagnose-transcript")),
    ("please review my interview transcript", None, Some("diagnose-transcript")),
    ("score my interview", Some("notes.docx"), Some("diagnose-transcript")),
    ("how did I do?", Some("call.mp3"), Some("diagnose-audio")),
    ("analyze my interview", Some("rec.m4a"), Some("diagnose-audio")),
    ("check my speaking pace and filler words", None, Some("diagnose-audio")),
    ("mock interview on RAG", None, Some("mock-interview")),
    ("quiz me on tool calling", None, Some("mock-interview")),
    ("I want to practice for my agent engineering interview", None, Some("mock-interview")),
    ("interview me about multi-agent systems", None, Some("mock-interview")),
    ("compare my answer. Q: What is RAG? A: retrieval then generation", None, Some("compare-expert")),
    ("how would an expert answer: what is function calling?", None, Some("compare-expert")),
    ("is my answer good? Q: What is memory? A: a vector store", None, Some("compare-expert")),
    ("$compare-expert what is memory", None, Some("compare-expert")),
    ("/mock-interview", None, Some("mock-interview")),
    ("$diagnose-audio please", None, Some("diagnose-audio")),
    ("what files are in this folder?", None, None),
    ("list the dimensions in the knowledge base", None, None),
    ("search the knowledge base for vector databases", None, None),
    ("tell me how an expert would answer this question", None, Some("compare-expert")),
    ("hello", None, None),
    ("what time is it in Tokyo?", None, None),
    ("帮我诊断一下这次面试", Some("面试.txt"), Some("diagnose-transcript")),
    ("复盘我的面试记录", None, Some("diagnose-transcript")),
    ("分析这段录音", Some("a.wav"), Some("diagnose-audio")),
    ("我的语速怎么样", None, Some("diagnose-audio")),
    ("模拟面试 RAG", None, Some("mock-interview")),
    ("考考我多智能体", None, Some("mock-interview")),
    ("帮我练习一下面试", None, Some("mock-interview")),
    ("对比专家答案 问题：什么是RAG？回答：先检索再生成", None, Some("compare-expert")),
    ("我这样回答可以吗？问题：什么是记忆？回答：向量库", None, Some("compare-expert")),
    ("/compare-expert 问题：什么是工具调用？回答：模型输出JSON", None, Some("compare-expert")),
    ("知识库里有哪些关于规划的条目？", None, None),
    ("你好", None, None),
    ("今天天气怎么样", None, None),
];

#[test]
fn routing_table_in_both_languages() {
    assert!(TABLE.len() >= 30);
    let home = tempfile::tempdir().unwrap();
    let agent = agent_with_models(home.path(), SkillSet::load(&[], &[]));
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let mut wrong = Vec::new();
    for (request, file, expected) in TABLE {
        let got = match rt.block_on(agent.route(request, *file)) {
            Route::Skill { name, .. } => Some(name),
            Route::Candidates(c) => c.first().cloned(),
            Route::Free => None,
        };
        if got.as_deref() != *expected {
            wrong.push(format!("{request:?} -> {got:?}, expected {expected:?}"));
        }
    }
    assert!(wrong.is_empty(), "{} of {} routed wrong:\n{}", wrong.len(), TABLE.len(), wrong.join("\n"));
}

fn write_skill(dir: &std::path::Path, folder: &str, text: &str) {
    std::fs::create_dir_all(dir.join(folder)).unwrap();
    std::fs::write(dir.join(folder).join("SKILL.md"), text).unwrap();
}

const STAR: &str = "---\nname: star-coach\ndescription: Coach a behavioral answer into the STAR structure. Use when the user wants help with a STAR story.\nallowed-tools: analyze_content\nmetadata:\n  triggers-en: \"star story | coach my story\"\n  triggers-zh: \"STAR法则\"\n---\nCall analyze_content on the story, then say which STAR part is missing.\n";

fn user_skills(home: &std::path::Path) {
    let dir = home.join("skills");
    write_skill(&dir, "star-coach", STAR);
    write_skill(&dir, "Bad_Name", &STAR.replace("star-coach", "Bad_Name"));
    write_skill(&dir, "no-front", "Just instructions, no front matter.\n");
    write_skill(&dir, "wrong-tool", &STAR.replace("star-coach", "wrong-tool").replace("analyze_content", "run_shell"));
    write_skill(&dir, "mismatch", STAR);
    write_skill(&dir, "admin", &STAR.replace("star-coach", "admin"));
    write_skill(&dir, "diagnose-transcript", &STAR.replace("star-coach", "diagnose-transcript"));
    std::fs::create_dir_all(dir.join("empty-folder")).unwrap();
}

#[test]
fn user_skills_are_discovered_and_malformed_ones_reported() {
    let ivd = Ivd::new();
    user_skills(ivd.home.path());
    let out = ivd.run(&["skills", "list", "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let names: Vec<&str> = v["skills"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["diagnose-transcript", "diagnose-audio", "mock-interview", "compare-expert", "star-coach"]);
    let problems: Vec<String> =
        v["problems"].as_array().unwrap().iter().map(|p| format!("{} {}", p["path"], p["message"])).collect();
    let has = |folder: &str, why: &str| problems.iter().any(|p| p.contains(folder) && p.contains(why));
    assert!(has("Bad_Name", "lowercase"), "{problems:?}");
    assert!(has("no-front", "front matter"), "{problems:?}");
    assert!(has("wrong-tool", "run_shell"), "{problems:?}");
    assert!(has("mismatch", "folder"), "{problems:?}");
    assert!(has("admin", "reserved"), "{problems:?}");
    assert!(has("skills/diagnose-transcript", "already loaded"), "{problems:?}");
    assert!(has("empty-folder", "no SKILL.md"), "{problems:?}");

    let out = ivd.run(&["skills", "validate", ivd.home.path().join("skills").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).contains("ok       star-coach") && stdout(&out).contains("INVALID"), "{}", stdout(&out));
    let out = ivd.run(&["skills", "validate", &crate::common::root().join("skills").display().to_string()]);
    assert!(out.status.success(), "the shipped SKILL.md files are valid: {}", stdout(&out));
    let out = ivd.run(&["skills", "show", "star-coach"]);
    assert!(stdout(&out).contains("allowed-tools: analyze_content") && stdout(&out).contains("which STAR part"));

    // Routed by its trigger; without a model it says what it needs.
    let out = ivd.run(&["ask", "coach my story please"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("skill star-coach") && stderr(&out).contains("language model"), "{}", stderr(&out));
    // Disabled by configuration: gone from the list and from routing.
    let out =
        ivd.cmd().env("IVD_SKILLS_DISABLED", "star-coach,mock-interview").args(["skills", "list"]).output().unwrap();
    assert!(stdout(&out).contains("star-coach             disabled by configuration"), "{}", stdout(&out));
    let out =
        ivd.cmd().env("IVD_SKILLS_DISABLED", "mock-interview").args(["ask", "mock interview on RAG"]).output().unwrap();
    assert!(!stderr(&out).contains("skill mock-interview"), "{}", stderr(&out));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_prompt_skill_runs_in_the_loop_with_only_its_tools() {
    let s = server(vec![
        tool_calls(&[("a", "read_file", json!({"path": "x.txt"}))]),
        tool_calls(&[("b", "analyze_content", json!({"question": "Tell me about a conflict.", "answer": "We disagreed on the design, I wrote a doc comparing both, and we shipped the simpler one two weeks early."}))]),
        text("Your story lacks the situation."),
    ])
    .await;
    let home = Ivd::new();
    user_skills(home.home.path());
    let out = ivd(&home, &s, &[], &["ask", "coach my story: we disagreed on the design"]).await;
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("lacks the situation"));
    // analyze_content asks the model for its assessment too: the loop's own requests carry tools.
    let all = bodies(&s).await;
    let b: Vec<&Value> = all.iter().filter(|x| x.get("tools").is_some()).collect();
    assert_eq!(b.len(), 3);
    let names: Vec<&str> =
        b[0]["tools"].as_array().unwrap().iter().map(|t| t["function"]["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["analyze_content"], "only the tools the skill allows");
    assert!(
        b[0]["messages"][0]["content"].as_str().unwrap().contains("which STAR part is missing"),
        "the body is the instructions"
    );
    let denied: Value =
        serde_json::from_str(b[1]["messages"].as_array().unwrap().last().unwrap()["content"].as_str().unwrap())
            .unwrap();
    assert_eq!(denied["error"]["code"], "permission_denied");
    // A long result is cut to the budget, so it may no longer parse: its start says how it went.
    let ok = b[2]["messages"].as_array().unwrap().last().unwrap()["content"].as_str().unwrap();
    assert!(ok.starts_with("{\"ok\":true"), "{ok}");
    assert!(ok.chars().count() <= interview_doctor::agent::RESULT_BUDGET + 40);
}

#[test]
fn built_in_skills_run_from_a_request_without_a_model() {
    let ivd = Ivd::new();
    let file = samples().join("en_agent_labeled.txt");
    let out = ivd.run(&["ask", "diagnose my interview", "--file", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("skill diagnose-transcript (trigger match)"), "{}", stderr(&out));
    assert!(stdout(&out).contains("en_agent_labeled.txt") && stdout(&out).contains("/100"), "{}", stdout(&out));

    let out = ivd.run(&["ask", "compare my answer. Q: How do you stop an agent loop from running forever? A: I cap the steps at ten, detect repeated identical tool calls, and stop when the token budget runs out."]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("overall "), "{}", stdout(&out));

    let out = ivd.run(&["ask", "模拟面试 3 道题"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("# 模拟面试题") && stdout(&out).contains("3. ["), "{}", stdout(&out));

    // A diagnosis with no file: said, exit 2.
    let out = ivd.run(&["ask", "diagnose my interview"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("needs a file"), "{}", stderr(&out));
}

#[test]
fn without_a_model_an_unmatched_request_gets_help() {
    let ivd = Ivd::new();
    for (req, must) in [("what time is it?", "$diagnose-transcript"), ("你好", "没有技能匹配")] {
        let out = ivd.run(&["ask", req]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stdout(&out).contains(must) && stdout(&out).contains("ivd ask"), "{}", stdout(&out));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_time_limits_and_cancellation_really_fire() {
    let dir = tempfile::tempdir().unwrap();
    let mut ctx = ToolContext::new(Arc::new(Config::with_home(dir.path())));
    ctx.audit = None;
    let mut big = String::new();
    for i in 0..40_000 {
        big.push_str(&format!(
            "Interviewer: question {i} about agents?\n\nCandidate: an answer {i} with some words.\n\n"
        ));
    }
    let registry = ToolRegistry::builtin();
    // How long the parse takes with no limit (argument validation included): the input must be
    // large enough that a 5 ms limit has work to cut short.
    ctx.timeout = Duration::from_secs(600);
    let started = std::time::Instant::now();
    let env = registry.execute("parse_transcript", json!({"text": big}), &ctx).await;
    let whole = started.elapsed();
    assert!(env.ok, "{:?}", env.error);
    ctx.timeout = Duration::from_millis(5);
    let started = std::time::Instant::now();
    let env = registry.execute("parse_transcript", json!({"text": big}), &ctx).await;
    let limited = started.elapsed();
    assert_eq!(env.error.map(|e| e.code), Some(ErrorCode::Timeout));
    // The call ended well before the parse would have: the limit fired while it ran, not after.
    assert!(limited * 3 < whole, "a 5 ms limit returned after {limited:?}; the whole parse takes {whole:?}");
    ctx.timeout = Duration::from_secs(60);
    ctx.cancel.cancel();
    let env = registry.execute("parse_transcript", json!({"text": big}), &ctx).await;
    assert!(env.error.unwrap().message.contains("cancelled"));
}

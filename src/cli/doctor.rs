//! `ivd doctor`: what is configured and whether it works: home, models, knowledge base, skills,
//! and the language model (the key shown only as set / not set; whether the endpoint answers, and
//! the models it lists).

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Instant;

use anyhow::anyhow;
use serde_json::json;

use super::{write_stdout, CliError, ListFormat};
use crate::config::Config;
use crate::llm::LlmClient;
use crate::models::Models;
use crate::skills::registry::SkillSet;

pub(super) async fn run(config: Arc<Config>, format: ListFormat) -> Result<(), CliError> {
    let models = Models::new(&config);
    let model_files = models.verify_all().map(|f| (f.len(), f.iter().filter(|(_, r)| r.is_err()).count()));
    let kb = crate::kb::KnowledgeBase::load(config.kb_dir.as_deref());
    let cwd = std::env::current_dir().unwrap_or_else(|_| ".".into());
    let skills = SkillSet::load(&SkillSet::user_dirs(&config.home, &cwd), &config.skills_disabled);
    let s = &config.llm;
    let (endpoint, list, latency_ms) = match LlmClient::from_settings(s) {
        Err(e) => (Err(e.to_string()), Vec::new(), None),
        Ok(None) => (Ok(false), Vec::new(), None),
        Ok(Some(client)) => {
            let started = Instant::now();
            match client.probe().await {
                Ok(list) => (Ok(true), list, Some(started.elapsed().as_millis() as u64)),
                Err(e) => (Err(e), Vec::new(), None),
            }
        }
    };
    let v = json!({
        "home": config.home,
        "data_root": config.data_root,
        "models": match &model_files {
            Ok((n, bad)) => json!({"dir": models.dir, "files": n, "bad": bad}),
            Err(e) => json!({"dir": models.dir, "error": e.to_string()}),
        },
        "knowledge_base": match &kb {
            Ok(kb) => json!({"entries": kb.entries.len(), "dir": config.kb_dir}),
            Err(e) => json!({"error": e.to_string()}),
        },
        "skills": {
            "loaded": skills.skills.iter().map(|s| s.name()).collect::<Vec<_>>(),
            "disabled": skills.disabled,
            "problems": skills.problems.iter().map(|p| json!({"path": p.path, "message": p.message})).collect::<Vec<_>>(),
        },
        "llm": {
            "configured": s.configured(),
            "enabled": s.enabled,
            "base_url": s.base_url,
            "model": s.configured().then(|| s.model_name()),
            "api_key": if s.api_key.is_some() { "set" } else { "not set" },
            "timeout_s": s.timeout_s,
            "retries": s.retries,
            "concurrency": s.concurrency,
            "answers": endpoint.as_ref().ok().copied().filter(|a| *a),
            "error": endpoint.as_ref().err(),
            "latency_ms": latency_ms,
            "models": list,
        },
    });
    let out = match format {
        ListFormat::Json => serde_json::to_string_pretty(&v).map_err(|e| anyhow!(e))? + "\n",
        ListFormat::Text => text(&v),
    };
    write_stdout(out.as_bytes())?;
    match endpoint {
        Err(e) => Err(CliError::from(anyhow!("the language model is configured but does not answer: {e}"))),
        Ok(_) => Ok(()),
    }
}

fn text(v: &serde_json::Value) -> String {
    let mut s = String::new();
    let str_of = |x: &serde_json::Value| match x {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => "-".into(),
        other => other.to_string(),
    };
    let _ = writeln!(s, "home           {}", str_of(&v["home"]));
    let _ = writeln!(s, "data root      {}", str_of(&v["data_root"]));
    let m = &v["models"];
    match m.get("error") {
        Some(e) => {
            let _ = writeln!(s, "models         {} — {}", str_of(&m["dir"]), str_of(e));
        }
        None => {
            let _ =
                writeln!(s, "models         {} — {} files, {} need repair", str_of(&m["dir"]), m["files"], m["bad"]);
        }
    }
    let k = &v["knowledge_base"];
    let _ = match k.get("error") {
        Some(e) => writeln!(s, "knowledge base error: {}", str_of(e)),
        None => writeln!(s, "knowledge base {} entries", k["entries"]),
    };
    let sk = &v["skills"];
    let names: Vec<String> = sk["loaded"].as_array().map(|a| a.iter().map(str_of).collect()).unwrap_or_default();
    let _ = writeln!(s, "skills         {}", names.join(", "));
    for p in sk["problems"].as_array().into_iter().flatten() {
        let _ = writeln!(s, "  skipped      {}: {}", str_of(&p["path"]), str_of(&p["message"]));
    }
    let l = &v["llm"];
    if l["configured"] != true {
        let why = if l["enabled"] == false { "turned off (--no-llm)" } else { "not configured" };
        let _ = writeln!(
            s,
            "language model {why}: the rubric scores alone; set OPENAI_BASE_URL and IVD_LLM_MODEL to add one"
        );
        let _ = writeln!(s, "  api key      {}", str_of(&l["api_key"]));
        return s;
    }
    let _ = writeln!(s, "language model {} at {}", str_of(&l["model"]), str_of(&l["base_url"]));
    let _ = writeln!(s, "  api key      {}", str_of(&l["api_key"]));
    let _ = writeln!(
        s,
        "  limits       {} s per attempt, {} retries, {} at once",
        l["timeout_s"], l["retries"], l["concurrency"]
    );
    match l.get("error").filter(|e| !e.is_null()) {
        Some(e) => {
            let _ = writeln!(s, "  answers      no: {}", str_of(e));
        }
        None => {
            let list: Vec<String> = l["models"].as_array().map(|a| a.iter().map(str_of).collect()).unwrap_or_default();
            let _ = writeln!(s, "  answers      yes, in {} ms", l["latency_ms"]);
            if !list.is_empty() {
                let _ = writeln!(s, "  models       {}", list.join(", "));
            }
        }
    }
    s
}

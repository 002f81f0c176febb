//! The model's prompts: minijinja files in `prompts/` compiled in, overridden by a file of the
//! same name in `$IVD_HOME/templates/` (as the report templates are).

use std::path::Path;

use minijinja::Environment;
use serde::Serialize;

/// Every prompt, by file name.
pub const PROMPTS: &[(&str, &str)] = &[
    ("assess.system.j2", include_str!("../../prompts/assess.system.j2")),
    ("assess.user.j2", include_str!("../../prompts/assess.user.j2")),
    ("agent.system.j2", include_str!("../../prompts/agent.system.j2")),
    ("roles.user.j2", include_str!("../../prompts/roles.user.j2")),
    ("roles_raw.user.j2", include_str!("../../prompts/roles_raw.user.j2")),
    ("route.user.j2", include_str!("../../prompts/route.user.j2")),
];

#[derive(Debug, thiserror::Error)]
#[error("prompt {name} failed: {message}")]
pub struct PromptError {
    pub name: String,
    pub message: String,
}

/// Render one prompt with `ctx`; a user override in `home/templates/NAME` wins.
pub fn render(home: &Path, name: &str, ctx: impl Serialize) -> Result<String, PromptError> {
    let err = |message: String| PromptError { name: name.to_string(), message };
    let source = match std::fs::read_to_string(home.join("templates").join(name)) {
        Ok(s) => s,
        Err(_) => PROMPTS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, s)| s.to_string())
            .ok_or_else(|| err("no such prompt".into()))?,
    };
    let mut env = Environment::new();
    env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
    env.add_template_owned(name.to_string(), source).map_err(|e| err(e.to_string()))?;
    let t = env.get_template(name).map_err(|e| err(e.to_string()))?;
    t.render(ctx).map(|s| s.trim().to_string()).map_err(|e| err(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Every prompt renders with the context its caller gives, and says what it must.
    #[test]
    fn every_prompt_renders() {
        let home = std::path::Path::new("/nonexistent");
        let skills = json!([{"name": "diagnose-transcript", "description": "Diagnose."}]);
        let contexts = [
            ("assess.system.j2", json!({"language_name": "English"}), "JSON"),
            (
                "assess.user.j2",
                json!({"question": "What is RAG?", "answer": "Retrieval.", "reference": {"id": "rag-001", "key_points": ["retrieve"], "mistakes": ["x"], "expert": "E"}}),
                "rag-001",
            ),
            ("assess.user.j2", json!({"question": "Q?", "answer": "A.", "reference": null}), "No reference"),
            (
                "agent.system.j2",
                json!({"language_name": "English", "skills": skills, "skill": null}),
                "diagnose-transcript",
            ),
            (
                "agent.system.j2",
                json!({"language_name": "English", "skills": skills, "skill": {"name": "s", "body": "Do X."}}),
                "Do X.",
            ),
            ("roles.user.j2", json!({"turns": [{"speaker": "A", "text": "Why?"}], "speakers": ["A", "B"]}), "A, B"),
            ("roles_raw.user.j2", json!({"turns": ["Why?", "Because."]}), "[2] Because."),
            ("route.user.j2", json!({"request": "r", "candidates": skills}), "diagnose-transcript"),
        ];
        for (name, _) in PROMPTS {
            assert!(contexts.iter().any(|(n, _, _)| n == name), "{name} has no rendering test");
        }
        for (name, ctx, must) in contexts {
            let out = render(home, name, ctx).unwrap_or_else(|e| panic!("{e}"));
            assert!(out.contains(must), "{name}: {out}");
        }
    }
}

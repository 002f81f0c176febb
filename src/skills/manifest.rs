//! `SKILL.md`: the open Agent Skills format that codex and goose read. YAML front matter between
//! `---` lines (`name`, `description`, `allowed-tools`, `metadata`, optionally `license` and
//! `compatibility`), then the instructions in Markdown. Our triggers live in `metadata` as
//! `triggers-en` / `triggers-zh` (phrases separated by `|`), file extensions in `file-types`.

use std::collections::BTreeMap;

use serde::Deserialize;

/// Names a skill may not take: they read as parts of the system, not as skills.
pub const RESERVED: &[&str] = &["system", "default", "internal", "core", "base", "root", "admin"];
pub const MAX_NAME: usize = 64;
pub const MAX_DESCRIPTION: usize = 1024;
/// A SKILL.md larger than this is not instructions.
pub const MAX_FILE_BYTES: usize = 256 * 1024;

/// A parsed, validated SKILL.md.
#[derive(Debug, Clone, PartialEq)]
pub struct Manifest {
    pub name: String,
    pub description: String,
    pub allowed_tools: Vec<String>,
    pub metadata: BTreeMap<String, String>,
    /// The instructions (level 2), loaded into the model's context on demand.
    pub body: String,
}

impl Manifest {
    /// Trigger phrases in both languages, lowercased.
    pub fn triggers(&self) -> Vec<String> {
        ["triggers", "triggers-en", "triggers-zh"]
            .iter()
            .filter_map(|k| self.metadata.get(*k))
            .flat_map(|v| v.split('|'))
            .map(|t| t.trim().to_lowercase())
            .filter(|t| !t.is_empty())
            .collect()
    }

    /// File extensions (with the dot, lowercased) this skill takes.
    pub fn file_types(&self) -> Vec<String> {
        self.metadata
            .get("file-types")
            .map(|v| v.split_whitespace().map(|e| e.to_lowercase()).collect())
            .unwrap_or_default()
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Front {
    name: Option<String>,
    description: Option<String>,
    #[serde(rename = "allowed-tools")]
    allowed_tools: Option<Tools>,
    metadata: Option<BTreeMap<String, serde_yaml_ng::Value>>,
    #[allow(dead_code)]
    license: Option<String>,
    #[allow(dead_code)]
    compatibility: Option<String>,
}

/// The spec writes `allowed-tools` space-delimited; a YAML list is accepted too.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Tools {
    Spaced(String),
    List(Vec<String>),
}

/// Parse and validate `text`, the SKILL.md of folder `folder`. `known_tools` are the tools a skill
/// may allow. Every problem is reported at once, one per line.
pub fn parse(text: &str, folder: &str, known_tools: &[&str]) -> Result<Manifest, String> {
    if text.len() > MAX_FILE_BYTES {
        return Err(format!("SKILL.md is {} bytes; keep it under {MAX_FILE_BYTES}", text.len()));
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text).replace("\r\n", "\n");
    let rest = text
        .strip_prefix("---\n")
        .ok_or("SKILL.md must start with YAML front matter: a line `---`, the fields, then `---`")?;
    let (yaml, body) = match rest.find("\n---") {
        Some(at) => {
            let after = &rest[at + 4..];
            (&rest[..at], after.strip_prefix('\n').unwrap_or(after))
        }
        None => return Err("the front matter is not closed: add a line `---` after the fields".into()),
    };
    let front: Front = serde_yaml_ng::from_str(yaml).map_err(|e| format!("invalid front matter: {e}"))?;
    let mut problems = Vec::new();
    let name = front.name.unwrap_or_default();
    if let Some(p) = name_problem(&name, folder) {
        problems.push(p);
    }
    let description = front.description.unwrap_or_default().trim().to_string();
    if description.is_empty() {
        problems.push("`description` is missing: say what the skill does and when to use it".to_string());
    } else if description.chars().count() > MAX_DESCRIPTION {
        problems
            .push(format!("`description` has {} characters; at most {MAX_DESCRIPTION}", description.chars().count()));
    }
    let allowed_tools: Vec<String> = match front.allowed_tools {
        None => Vec::new(),
        Some(Tools::Spaced(s)) => s.split_whitespace().map(str::to_string).collect(),
        Some(Tools::List(l)) => l,
    };
    for t in &allowed_tools {
        if !known_tools.contains(&t.as_str()) {
            problems
                .push(format!("`allowed-tools` names {t:?}, which is no tool here (known: {})", known_tools.join(" ")));
        }
    }
    let mut metadata = BTreeMap::new();
    for (k, v) in front.metadata.unwrap_or_default() {
        match v {
            serde_yaml_ng::Value::String(s) => {
                metadata.insert(k, s);
            }
            serde_yaml_ng::Value::Number(n) => {
                metadata.insert(k, n.to_string());
            }
            serde_yaml_ng::Value::Bool(b) => {
                metadata.insert(k, b.to_string());
            }
            _ => problems.push(format!("`metadata.{k}` must be a string (the spec maps strings to strings)")),
        }
    }
    let body = body.trim().to_string();
    if body.is_empty() {
        problems.push("the instructions after the front matter are empty".to_string());
    }
    if problems.is_empty() {
        Ok(Manifest { name, description, allowed_tools, metadata, body })
    } else {
        Err(problems.join("; "))
    }
}

fn name_problem(name: &str, folder: &str) -> Option<String> {
    if name.is_empty() {
        return Some("`name` is missing".into());
    }
    if name.len() > MAX_NAME
        || !name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        || name.starts_with('-')
        || name.ends_with('-')
        || name.contains("--")
    {
        return Some(format!(
            "`name` {name:?} must be 1-{MAX_NAME} lowercase letters, digits and single hyphens, not at either end"
        ));
    }
    if RESERVED.contains(&name) {
        return Some(format!("`name` {name:?} is reserved; choose another"));
    }
    if name != folder {
        return Some(format!("`name` {name:?} must equal its folder's name {folder:?}"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOOLS: &[&str] = &["read_file", "query_knowledge_base"];

    #[test]
    fn valid_and_each_kind_of_invalid() {
        let ok = "---\nname: star-coach\ndescription: Coach STAR stories. Use for behavioral answers.\nallowed-tools: read_file query_knowledge_base\nmetadata:\n  triggers-en: \"star story | behavioral\"\n---\nCheck each part.\n";
        let m = parse(ok, "star-coach", TOOLS).unwrap();
        assert_eq!(m.allowed_tools, ["read_file", "query_knowledge_base"]);
        assert_eq!(m.triggers(), ["star story", "behavioral"]);
        let bad = |text: &str, folder: &str| parse(text, folder, TOOLS).unwrap_err();
        assert!(bad("no front matter", "x").contains("must start"));
        assert!(bad("---\nname: x\n", "x").contains("not closed"));
        assert!(bad(ok, "other").contains("folder"));
        assert!(bad(&ok.replace("star-coach", "Star_Coach"), "Star_Coach").contains("lowercase"));
        assert!(bad(&ok.replace("star-coach", "admin"), "admin").contains("reserved"));
        assert!(bad(&ok.replace("read_file ", "rm_rf "), "star-coach").contains("rm_rf"));
        assert!(bad(&ok.replace("Coach STAR", &"a".repeat(1100)), "star-coach").contains("1024"));
        assert!(bad(&ok.replace("metadata:", "scripts: run.sh\nmetadata:"), "star-coach").contains("front matter"));
        assert!(bad(&ok.replace("Check each part.", ""), "star-coach").contains("empty"));
        assert!(bad("---\nname: [unclosed\n---\nbody", "x").contains("invalid front matter"));
    }
}

//! Which skill a request is for, in layers, the cheapest and surest first:
//! 1. explicit: `$name` or `/name` in the request;
//! 2. triggers: the zh/en phrases in each skill's metadata, and the extension of the file given
//!    (a recording goes to `diagnose-audio`, a transcript to `diagnose-transcript`);
//! 3. meaning: embedding similarity between the request and each skill's description;
//! 4. (the agent's) the model chooses among several candidates, when one is configured.

use super::registry::SkillSet;

/// How a skill was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    Explicit,
    Trigger,
    Embedding,
    Model,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Route {
    Skill {
        name: String,
        via: Layer,
    },
    /// Several skills fit about as well; best first.
    Candidates(Vec<String>),
    /// No skill fits: the free loop (or, without a model, the help).
    Free,
}

/// A similarity at or above this, with [`EMBED_MARGIN`] over the next skill, picks a skill by
/// meaning. multilingual-e5-small compresses similarities: on the routing table in
/// `tests/agent.rs`, small talk scores 0.73-0.80 against every description, requests about the
/// knowledge base itself (for the free loop) up to 0.858, and requests that paraphrase a skill
/// 0.87-0.89. So meaning decides only above that gap; triggers carry the rest.
pub const EMBED_PICK: f32 = 0.87;
pub const EMBED_MARGIN: f32 = 0.01;
/// Above this, a skill stays a candidate for the model to choose among.
pub const EMBED_CANDIDATE: f32 = 0.865;

/// Layers 1 and 2. None when neither decides (go on to meaning).
pub fn by_name_or_trigger(set: &SkillSet, request: &str, file: Option<&str>) -> Option<Route> {
    if let Some(name) = explicit(request) {
        if set.get(&name).is_some() {
            return Some(Route::Skill { name, via: Layer::Explicit });
        }
    }
    let lower = request.to_lowercase();
    let ext = file.and_then(|f| f.rsplit_once('.').map(|(_, e)| format!(".{}", e.to_lowercase())));
    // Longest trigger matched per skill: a specific phrase beats a generic word.
    let mut scored: Vec<(usize, &str, bool)> = set
        .skills
        .iter()
        .filter_map(|s| {
            let best =
                s.manifest.triggers().iter().filter(|t| contains_phrase(&lower, t)).map(|t| t.chars().count()).max();
            let takes_file = ext.as_ref().is_some_and(|e| s.manifest.file_types().contains(e));
            best.map(|b| (b, s.name(), takes_file))
        })
        .collect();
    scored.sort_by_key(|s| std::cmp::Reverse(s.0));
    let file_skills: Vec<&str> = set
        .skills
        .iter()
        .filter(|s| ext.as_ref().is_some_and(|e| s.manifest.file_types().contains(e)))
        .map(|s| s.name())
        .collect();
    // A file settles which of the file-taking skills, whatever words were used ("how did I do"
    // with a recording is the recording's diagnosis), unless a skill that takes no file matched.
    if let [only] = file_skills.as_slice() {
        let any_fileless =
            scored.iter().any(|(_, name, _)| set.get(name).is_some_and(|s| s.manifest.file_types().is_empty()));
        if !any_fileless {
            return Some(Route::Skill { name: only.to_string(), via: Layer::Trigger });
        }
    }
    match scored.as_slice() {
        [] => None,
        [(_, name, _)] => Some(Route::Skill { name: name.to_string(), via: Layer::Trigger }),
        [(a, name, _), (b, _, _), ..] if a > b => Some(Route::Skill { name: name.to_string(), via: Layer::Trigger }),
        many => Some(Route::Candidates(many.iter().map(|(_, n, _)| n.to_string()).collect())),
    }
}

/// Layer 3, given the request's similarity to each skill's description (same order as `set`).
pub fn by_meaning(set: &SkillSet, similarities: &[f32]) -> Route {
    let mut ranked: Vec<(f32, &str)> = similarities.iter().copied().zip(set.skills.iter().map(|s| s.name())).collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    match ranked.as_slice() {
        [(best, name), rest @ ..]
            if *best >= EMBED_PICK && rest.first().is_none_or(|(next, _)| best - next >= EMBED_MARGIN) =>
        {
            Route::Skill { name: name.to_string(), via: Layer::Embedding }
        }
        _ => {
            let close: Vec<String> =
                ranked.iter().filter(|(s, _)| *s >= EMBED_CANDIDATE).map(|(_, n)| n.to_string()).collect();
            match close.len() {
                0 => Route::Free,
                1 => Route::Skill { name: close[0].clone(), via: Layer::Embedding },
                _ => Route::Candidates(close),
            }
        }
    }
}

/// `$name` or `/name` at a word start.
pub fn explicit(request: &str) -> Option<String> {
    request.split_whitespace().find_map(|w| {
        let rest = w.strip_prefix('$').or_else(|| w.strip_prefix('/'))?;
        let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
        // "/tmp/x.txt" is a path, not a skill: a name is followed by nothing or punctuation.
        let after = &rest[name.len()..];
        (!name.is_empty() && !after.starts_with('/') && !after.starts_with('.')).then(|| name.to_lowercase())
    })
}

/// Chinese phrases match anywhere; Latin ones at word boundaries ("practice" not in "practices"
/// is fine either way, but "rag" must not match "storage").
fn contains_phrase(hay: &str, phrase: &str) -> bool {
    if !phrase.is_ascii() {
        return hay.contains(phrase);
    }
    let mut from = 0;
    while let Some(at) = hay[from..].find(phrase) {
        let start = from + at;
        let end = start + phrase.len();
        let before_ok = hay[..start].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
        let after_ok = hay[end..].chars().next().is_none_or(|c| !c.is_ascii_alphanumeric());
        if before_ok && after_ok {
            return true;
        }
        from = start + 1;
        while !hay.is_char_boundary(from) {
            from += 1;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_names_and_paths() {
        assert_eq!(explicit("run $compare-expert on this").as_deref(), Some("compare-expert"));
        assert_eq!(explicit("/mock-interview please").as_deref(), Some("mock-interview"));
        assert_eq!(explicit("read /tmp/notes.txt"), None);
        assert_eq!(explicit("read /notes.txt"), None);
        assert!(contains_phrase("quiz me on rag", "quiz me"));
        assert!(!contains_phrase("object storage", "rag"));
        assert!(contains_phrase("帮我诊断一下", "诊断"));
    }
}

//! Inputs built for the benchmarks and the tests alike (the tests import this module, so the two
//! measure the same things): synthetic interviews and knowledge bases from the shipped base, and
//! a corpus of distinct transcripts in five formats.

use std::path::Path;

use crate::kb::KnowledgeBase;

/// The sample transcripts the corpus is built from (`data/transcripts`).
pub fn transcripts_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/transcripts")
}

/// A labeled interview of `n` questions from the knowledge base, alternating expert and novice answers.
pub fn synthetic_interview(kb: &KnowledgeBase, n: usize) -> String {
    let mut s = String::new();
    for (i, e) in kb.entries.iter().cycle().take(n).enumerate() {
        let answer = if i % 2 == 0 { &e.expert_answer } else { &e.novice_answer };
        s.push_str(&format!("面试官：{}\n候选人：{}\n\n", e.question, answer.replace('\n', " ")));
    }
    s
}

/// A knowledge base of `n` entries derived from the shipped one: each keeps its source's English
/// question and answers, and gets a question of its own.
pub fn synthetic_kb(kb: &KnowledgeBase, n: usize) -> KnowledgeBase {
    let entries = (0..n)
        .map(|j| {
            let mut e = kb.entries[j % kb.entries.len()].clone();
            e.id = format!("synthetic-{j:05}");
            e.question = format!("{}（场景 {}）", e.question, j / kb.entries.len() + 1);
            e.paraphrases.clear();
            e
        })
        .collect();
    KnowledgeBase::from_entries(kb.manifest.clone(), entries)
}

/// `n` distinct transcripts in five formats (each a sample with one more exchange appended),
/// written under `dir` as `interview_NNN.EXT`, spread over `groups` sub-folders `groupK` (all in
/// `dir` itself when `groups` is 1).
pub fn corpus(dir: &Path, n: usize, groups: usize) -> std::io::Result<()> {
    let bases = [
        ("en_agent_labeled.txt", "txt"),
        ("en_agent_qa.txt", "txt"),
        ("en_podcast.md", "md"),
        ("en_agent.srt", "srt"),
        ("en_agent_zoom.vtt", "vtt"),
    ];
    let samples = transcripts_dir();
    for i in 0..n {
        let (base, ext) = bases[i % bases.len()];
        let mut text = std::fs::read_to_string(samples.join(base))?;
        let extra = format!("One last thing, number {i}: how do you keep costs down?");
        match ext {
            "srt" => text.push_str(&format!("\n\n999\n01:59:00,000 --> 01:59:05,000\n{extra}\n")),
            "vtt" => text.push_str(&format!("\n\n01:59:00.000 --> 01:59:05.000\n{extra}\n")),
            _ => text.push_str(&format!("\n\nInterviewer: {extra}\n")),
        }
        let sub = if groups > 1 { dir.join(format!("group{}", i % groups)) } else { dir.to_path_buf() };
        std::fs::create_dir_all(&sub)?;
        std::fs::write(sub.join(format!("interview_{i:03}.{ext}")), text)?;
    }
    Ok(())
}

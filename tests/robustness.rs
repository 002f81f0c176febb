//! Bad input as a new user would try it, a 50 MB transcript, and property tests: never a panic.

use std::time::Instant;

use interview_doctor::transcript::{self, pairs, roles, Format};
use proptest::prelude::*;

use crate::common::*;

#[test]
fn bad_files_are_refused_with_exit_code_2_and_advice() {
    let ivd = Ivd::new();
    let bad = root().join("data/bad");
    let cases = [
        ("empty.txt", "empty"),
        ("whitespace.txt", "empty"),
        ("image.txt", "PNG image"),
        ("only_timestamps.srt", "only cue numbers and timestamps"),
        ("only_timestamps.txt", "only timestamps"),
        ("truncated.json", "truncated"),
    ];
    for (file, says) in cases {
        let out = ivd.run(&["split", bad.join(file).to_str().unwrap()]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{file}: {err}");
        assert!(err.contains(says), "{file}: {err}");
        assert!(err.contains("hint:"), "{file} says what to do: {err}");
        assert!(!err.contains("panicked"), "{file}: {err}");
    }
    // Missing file and a folder are usage errors too.
    let out = ivd.run(&["split", "/definitely/not/here.txt"]);
    assert_eq!(out.status.code(), Some(2));
    let out = ivd.run(&["split", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    // Latin-1 is read, not refused.
    let out = ivd.run(&["split", bad.join("latin1.txt").to_str().unwrap(), "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("résumé"));
    // Unknown flags are usage errors.
    assert_eq!(ivd.run(&["split", "--bogus"]).status.code(), Some(2));
}

#[test]
fn gbk_and_utf16_give_the_same_pairs_as_utf8() {
    let ivd = Ivd::new();
    for (a, b) in [
        ("zh_agent_gbk.txt", "zh_agent_labeled.txt"),
        ("en_agent_utf16.txt", "en_agent_labeled.txt"),
        ("zh_names_bom.txt", "zh_names_labeled.txt"),
    ] {
        let pa: serde_json::Value = serde_json::from_slice(
            &ivd.run(&["split", samples().join(a).to_str().unwrap(), "--format", "json"]).stdout,
        )
        .unwrap();
        let pb: serde_json::Value = serde_json::from_slice(
            &ivd.run(&["split", samples().join(b).to_str().unwrap(), "--format", "json"]).stdout,
        )
        .unwrap();
        assert_eq!(pa["pairs"], pb["pairs"], "{a} vs {b}");
    }
}

#[test]
fn fifty_megabytes_split_into_every_copy_s_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.txt");
    let one = std::fs::read_to_string(samples().join("en_agent_labeled.txt")).unwrap();
    let mut text = String::with_capacity(51 * 1024 * 1024);
    while text.len() < 50 * 1024 * 1024 {
        text.push_str(&one);
        text.push('\n');
    }
    std::fs::write(&path, &text).unwrap();
    let ivd = Ivd::new();
    let started = Instant::now();
    let out = ivd.run(&["--no-audit", "split", path.to_str().unwrap(), "--format", "json"]);
    let secs = started.elapsed().as_secs_f64();
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let copies = text.matches("Priya Raman:").count() / one.matches("Priya Raman:").count();
    // Every copy of the interview yields its 7 pairs (the first question of each copy follows
    // the previous copy's closing, so pairs never merge across copies).
    assert_eq!(v["pairs"].as_array().unwrap().len(), 7 * copies);
    // Measured, not asserted: see the benchmark for release figures.
    println!("split {:.1} MB in {secs:.2} s ({} pairs)", text.len() as f64 / 1048576.0, 7 * copies);
}

/// Every text format as a forced hint, and detection.
const HINTS: [Option<Format>; 11] = [
    None,
    Some(Format::Labeled),
    Some(Format::Raw),
    Some(Format::Webvtt),
    Some(Format::Srt),
    Some(Format::Otter),
    Some(Format::WhisperJson),
    Some(Format::Zoom),
    Some(Format::Markdown),
    Some(Format::PodcastJson),
    Some(Format::Docx),
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        for hint in HINTS {
            if let Ok(t) = transcript::parse_bytes(&bytes, hint) {
                let a = roles::detect(&t);
                prop_assert_eq!(a.turn_roles.len(), t.turns.len());
                let _ = pairs::split(&t, &a.turn_roles);
            }
        }
    }

    #[test]
    fn arbitrary_strings_never_panic(text in "\\PC{0,600}") {
        for hint in HINTS {
            if let Ok(t) = transcript::parse(&text, hint) {
                let a = roles::detect(&t);
                let p = pairs::split(&t, &a.turn_roles);
                for (i, pair) in p.iter().enumerate() {
                    prop_assert_eq!(pair.index, i + 1);
                    prop_assert!(pair.follow_up_of.is_none_or(|f| f < pair.index));
                }
            }
        }
    }

    #[test]
    fn transcript_shaped_strings_never_panic(lines in proptest::collection::vec(
        prop_oneof![
            "(面试官|候选人|Interviewer|Candidate|Q|A|Priya Raman|Speaker 1)[:：] ?\\PC{0,60}",
            "[0-9]{1,2}:[0-9]{2}(:[0-9]{2})?([.,][0-9]{1,3})? --> [0-9]{1,2}:[0-9]{2}(:[0-9]{2})?([.,][0-9]{1,3})?",
            "<v [A-Za-z ]{0,12}>\\PC{0,40}(</v>)?",
            "(Speaker [0-9]|张伟|\\[Priya Raman\\])  [0-9]{1,2}:[0-9]{2}",
            "(\\*\\*[A-Z][a-z]{1,8}( [A-Z][a-z]{1,8})?:\\*\\*|### [A-Z][a-z]{1,8}) ?(\\\\\\[[0-9]{2}:[0-9]{2}\\\\\\])?\\PC{0,40}",
            "(INTERVIEWEE|INTERVIEWERS|DATE|LOCATION|面试官|候选人|日期): ?\\PC{0,30}",
            "\\[(laughter|END OF TAPE 1, SIDE A|crosstalk|笑)\\]|\\(inaudible\\)|SESSION [0-9]|\u{feff}",
            "(WEBVTT|NOTE|STYLE|[0-9]{1,3})?",
            "\\PC{0,80}[?？。.]?",
        ], 0..40)) {
        let text = lines.join("\n");
        if let Ok(t) = transcript::parse(&text, None) {
            let a = roles::detect(&t);
            let _ = pairs::split(&t, &a.turn_roles);
        }
    }
}

/// One words-only search engine for the analyzer property test.
fn words_only() -> &'static interview_doctor::kb::search::KbSearch {
    use std::sync::OnceLock;
    static S: OnceLock<(tempfile::TempDir, interview_doctor::kb::search::KbSearch)> = OnceLock::new();
    &S.get_or_init(|| {
        let home = tempfile::tempdir().unwrap();
        let kb = interview_doctor::kb::KnowledgeBase::shipped().unwrap();
        let s = interview_doctor::kb::search::KbSearch::open(kb, home.path()).unwrap();
        (home, s)
    })
    .1
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// The analyzer takes any question and answer (numerals, lists, mixed scripts) without panic,
    /// with and without a reference, and keeps every score in 0..=100.
    #[test]
    fn the_analyzer_never_panics(
        question in "\\PC{0,80}",
        answer in prop_oneof!["\\PC{0,400}", "[一二三四五六七八九十百千万两零 ,、%]{0,80}", "([a-z]{2,9}[,、 ]){0,40}"],
        entry in 0usize..176,
    ) {
        let s = words_only();
        for reference in [None, Some(entry % s.kb.entries.len())] {
            let c = interview_doctor::scoring::assess(s, &question, &answer, reference, interview_doctor::lang::of_question(&question, &answer), &Default::default()).unwrap();
            for x in [c.overall, c.completeness.score, c.depth.score, c.accuracy.score, c.practicality.score] {
                prop_assert!(x <= 100);
            }
        }
    }
}

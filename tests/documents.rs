//! Word and PDF documents: bad ones as a new user would try them, a 200-page PDF, and arbitrary
//! or damaged bytes into both readers (never a panic, always a clear error).

use std::time::Instant;

use interview_doctor::transcript::{self, Format, TranscriptError};
use proptest::prelude::*;

use crate::common::*;

#[test]
fn bad_documents_are_refused_with_exit_code_2_and_advice() {
    let ivd = Ivd::new();
    let bad = root().join("data/bad");
    for (file, says) in [
        ("encrypted.docx", "password-protected"),
        ("corrupt.docx", "damaged or incomplete"),
        ("no_document.docx", "word/document.xml is missing"),
        ("scanned.pdf", "no text layer"),
    ] {
        let out = ivd.run(&["split", bad.join(file).to_str().unwrap()]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{file}: {err}");
        assert!(err.contains(says), "{file}: {err}");
        assert!(err.contains("hint:"), "{file} says what to do: {err}");
        assert!(!err.contains("panicked"), "{file}: {err}");
        // diagnose refuses the same way, before any knowledge-base work.
        let out = ivd.run(&["diagnose", bad.join(file).to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "diagnose {file}: {}", stderr(&out));
    }
    // A text transcript renamed to .docx is read as the text it is.
    let out = ivd.run(&["split", bad.join("renamed_text.docx").to_str().unwrap(), "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["format"], "labeled");
    assert_eq!(v["pairs"].as_array().unwrap().len(), 2);
}

#[test]
fn a_200_page_pdf_splits_into_its_pairs_without_page_footers() {
    let path = root().join("data/bad/long_200_pages.pdf");
    let want: usize = std::fs::read_to_string(root().join("data/bad/long_200_pages.expected_pairs.txt"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let ivd = Ivd::new();
    let started = Instant::now();
    let out = ivd.run(&["--no-audit", "split", path.to_str().unwrap(), "--format", "json"]);
    let secs = started.elapsed().as_secs_f64();
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["format"].as_str(), v["layout"].as_str()), (Some("pdf"), Some("labeled")));
    assert_eq!(v["pairs"].as_array().unwrap().len(), want);
    // No page footer leaks into the talk.
    assert!(!stdout(&out).contains("of 200"), "a page footer was kept");
    println!("200-page PDF: {want} pairs in {secs:.2} s");
}

#[test]
fn documents_carry_their_layout_and_header() {
    let ivd = Ivd::new();
    let json = |file: &str| -> serde_json::Value {
        let out = ivd.run(&["split", samples().join(file).to_str().unwrap(), "--format", "json"]);
        assert!(out.status.success(), "{file}: {}", stderr(&out));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let teams = json("en_teams.docx");
    assert_eq!((teams["format"].as_str(), teams["layout"].as_str()), (Some("docx"), Some("otter")));
    let tencent = json("zh_tencent.docx");
    assert_eq!(tencent["metadata"]["interviewers"], serde_json::json!(["王磊"]));
    assert_eq!(tencent["metadata"]["interviewees"], serde_json::json!(["陈晨"]));
    let oral = json("en_oral_history_chen.pdf");
    assert_eq!(oral["layout"], "labeled");
    assert!(oral["metadata"]["interviewees"].as_array().is_some_and(|a| !a.is_empty()));
    for s in oral["speakers"].as_array().unwrap() {
        assert_eq!(s["basis"], "header", "{s}");
    }
}

fn read_sample(name: &str) -> Vec<u8> {
    std::fs::read(samples().join(name)).unwrap()
}

/// Any outcome but a panic; an error must say something.
fn checked(bytes: &[u8], hint: Option<Format>) -> Result<(), TestCaseError> {
    match transcript::parse_bytes(bytes, hint) {
        Ok(t) => prop_assert!(!t.turns.is_empty()),
        Err(e) => prop_assert!(e.to_string().len() > 20, "unclear error: {e}"),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_into_the_document_readers(
        body in proptest::collection::vec(any::<u8>(), 0..4096),
        kind in 0usize..3,
    ) {
        let magic: &[u8] = [&b"PK\x03\x04"[..], b"%PDF-1.7\n", b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1"][kind];
        let bytes = [magic, &body].concat();
        checked(&bytes, None)?;
    }

    /// Real documents damaged the ways files get damaged: cut short, bytes overwritten.
    #[test]
    fn damaged_documents(
        which in 0usize..4,
        cut in 0.0f64..1.0,
        flips in proptest::collection::vec((0.0f64..1.0, any::<u8>()), 0..12),
    ) {
        let name = ["en_teams.docx", "zh_tencent.docx", "en_agent_print.pdf", "zh_interview.pdf"][which];
        let mut bytes = read_sample(name);
        for (at, b) in flips {
            let i = ((bytes.len() - 1) as f64 * at) as usize;
            bytes[i] = b;
        }
        let keep = 8 + ((bytes.len() - 8) as f64 * cut) as usize;
        bytes.truncate(keep);
        checked(&bytes, None)?;
    }
}

#[test]
fn errors_name_the_document_problem() {
    let err = transcript::parse_bytes(b"%PDF-1.4\n%%EOF\n", None).unwrap_err();
    assert!(matches!(err, TranscriptError::CorruptDocument { .. } | TranscriptError::NoTextLayer), "{err}");
    let err = transcript::parse_bytes(b"PK\x03\x04garbage", None).unwrap_err();
    assert!(matches!(err, TranscriptError::CorruptDocument { .. }), "{err}");
}

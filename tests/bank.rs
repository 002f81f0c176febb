//! A user's own question bank (issue 23): `ivd kb import` from CSV, TSV, JSONL and Markdown into a
//! folder that `--kb DIR` uses; bad rows named by line; re-import idempotent; `compare --input`
//! for many answers in one process; `eval --graded` agreement with human grades.

use std::collections::HashMap;
use std::path::Path;

use crate::common::*;

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn files(dir: &Path) -> Vec<(String, Vec<u8>, std::time::SystemTime)> {
    let mut out = Vec::new();
    for d in std::fs::read_dir(dir).unwrap() {
        let p = d.unwrap().path();
        if p.is_dir() {
            out.extend(files(&p));
        } else {
            let meta = std::fs::metadata(&p).unwrap();
            out.push((p.display().to_string(), std::fs::read(&p).unwrap(), meta.modified().unwrap()));
        }
    }
    out.sort();
    out
}

const CSV: &str = "id,question,answer,dimension,key_points\n\
q1,What is a deadlock?,\"Two transactions each wait for a lock the other holds, so neither can go on. The database detects the cycle and rolls one of them back.\",Databases,\n\
q2,What does a primary key guarantee?,Every row has a unique non-null value for it.,Databases,\"unique\nnot null\"\n\
q3,,An answer with no question.,Databases,\n\
q1,Duplicate?,Again.,Databases,\n";

#[test]
fn import_names_bad_rows_by_line_and_reimport_changes_nothing() {
    let ivd = Ivd::new();
    let dir = tempfile::tempdir().unwrap();
    let bank = write(dir.path(), "bank.csv", CSV);
    let out = dir.path().join("kb");
    let o = ivd.run(&["kb", "import", bank.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let text = stdout(&o);
    assert!(o.status.success(), "{text}{}", stderr(&o));
    // Line numbers are the file's: q2's key points cell spans lines 3-4.
    assert!(text.contains("bank.csv:5: skipped: no question"), "{text}");
    assert!(text.contains("bank.csv:6: skipped: duplicate id \"q1\""), "{text}");
    assert!(text.contains("imported 2 of 4 rows"), "{text}");
    let derived = |id: &str| -> Vec<String> {
        let text = std::fs::read_to_string(out.join(format!("databases/{id}.toml"))).unwrap();
        let v: toml::Value = toml::from_str(&text).unwrap();
        v["derived"].as_array().unwrap().iter().map(|d| d.as_str().unwrap().to_string()).collect()
    };
    assert!(derived("q1").contains(&"key_points".to_string()), "{:?}", derived("q1"));
    assert!(!derived("q2").contains(&"key_points".to_string()), "given key points are not derived");
    let v = ivd.run(&["--kb", out.to_str().unwrap(), "kb", "validate"]);
    assert!(v.status.success(), "{}{}", stdout(&v), stderr(&v));

    // The same file again: the same folder, not even rewritten. A file of the user's is left alone.
    write(&out, "notes.txt", "mine");
    let before = files(&out);
    std::thread::sleep(std::time::Duration::from_millis(20));
    let o = ivd.run(&["kb", "import", bank.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(o.status.success());
    assert_eq!(files(&out), before);

    // One changed row: only its entry changes.
    let changed = CSV.replace("Every row has a unique non-null value for it.", "Uniqueness and no nulls.");
    write(dir.path(), "bank.csv", &changed);
    let o = ivd.run(&["kb", "import", bank.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(stdout(&o).contains("(1 written, 1 unchanged"), "{}", stdout(&o));
    let after = files(&out);
    let differ: Vec<&String> = before.iter().zip(&after).filter(|(a, b)| a.1 != b.1).map(|(a, _)| &a.0).collect();
    assert_eq!(differ.len(), 1);
    assert!(differ[0].ends_with("q2.toml"));

    // --strict: any bad row fails the import and writes nothing.
    let strict_out = dir.path().join("strict");
    let o = ivd.run(&["kb", "import", bank.to_str().unwrap(), "--out", strict_out.to_str().unwrap(), "--strict"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("line 5: no question"), "{}", stderr(&o));
    assert!(!strict_out.exists());
}

#[test]
fn every_format_imports_and_validates() {
    let ivd = Ivd::new();
    let dir = tempfile::tempdir().unwrap();
    let tsv = write(
        dir.path(),
        "b.tsv",
        "question\tanswer\ttags\nWhat is TCP?\tA reliable, ordered byte stream over IP.\tnet, tcp\n",
    );
    let jsonl = write(
        dir.path(),
        "b.jsonl",
        "{\"question\":\"什么是死锁？\",\"answer\":\"两个事务互相等待对方持有的锁，谁都无法继续。\",\"key_points\":[\"互相等待锁\"]}\n{\"broken\n",
    );
    let md = root().join("data/banks/frontend_example.md");
    for (bank, want) in [(&tsv, 1), (&jsonl, 1), (&md, 6)] {
        let out = dir.path().join(format!("kb-{}", bank.file_name().unwrap().to_string_lossy()));
        let o = ivd.run(&["kb", "import", bank.to_str().unwrap(), "--out", out.to_str().unwrap(), "--format", "json"]);
        assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["entries"], want, "{v}");
        let check = ivd.run(&["--kb", out.to_str().unwrap(), "kb", "validate"]);
        assert!(check.status.success(), "{}", stdout(&check));
        let search = ivd.run(&["--kb", out.to_str().unwrap(), "kb", "stats"]);
        assert!(search.status.success());
    }
    let v: serde_json::Value = serde_json::from_str(&stdout(&ivd.run(&[
        "kb",
        "import",
        jsonl.to_str().unwrap(),
        "--out",
        dir.path().join("again").to_str().unwrap(),
        "--format",
        "json",
    ])))
    .unwrap();
    assert_eq!(v["problems"][0]["line"], 2, "{v}");
    // Not a bank at all.
    let img = write(dir.path(), "b.csv", "\u{0}\u{1}PNG");
    let o = ivd.run(&["kb", "import", img.to_str().unwrap(), "--out", dir.path().join("x").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("question"), "{}", stderr(&o));
}

/// Many answers in one process, against an imported bank, with the real model: output in input
/// order with ids, an error line for a bad row, the others scored; a right answer above a wrong one.
#[test]
fn compare_input_scores_many_rows_in_order() {
    let ivd = Ivd::with_models();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("kb");
    let bank = root().join("data/banks/frontend_example.md");
    assert!(ivd.run(&["kb", "import", bank.to_str().unwrap(), "--out", out.to_str().unwrap()]).status.success());
    let answers = root().join("data/banks/frontend_example_answers.jsonl");
    let mut rows = std::fs::read_to_string(&answers).unwrap();
    rows.push_str("{\"id\": \"bad\", \"question\": \"\"}\nnot json\n");
    let input = write(dir.path(), "in.jsonl", &rows);
    let o =
        ivd.run(&["--kb", out.to_str().unwrap(), "compare", "--input", input.to_str().unwrap(), "--format", "jsonl"]);
    assert_eq!(o.status.code(), Some(1), "bad rows make the exit non-zero: {}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let given: Vec<serde_json::Value> =
        std::fs::read_to_string(&answers).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), given.len() + 2);
    for (out, inp) in lines.iter().zip(&given) {
        assert_eq!(out["id"], inp["id"]);
        assert!(out["content"]["overall"].is_u64(), "{out}");
    }
    assert_eq!(lines[given.len()]["id"], "bad");
    assert!(lines[given.len() + 1]["error"].as_str().unwrap().contains("line"), "{}", lines[given.len() + 1]);
    let score = |id: &str| lines.iter().find(|l| l["id"] == id).unwrap()["content"]["overall"].as_u64().unwrap();
    // ex-1 is a sound let/const/var answer, ex-2 a vague box-model one.
    assert!(score("ex-1") >= score("ex-2") + 20, "{} vs {}", score("ex-1"), score("ex-2"));
}

/// Imports `bank` and scores the test half of `graded` (rows never fitted on): the JSON report,
/// the text report, and the median overall of each kind of answer the set's writer intended.
fn graded_test_half(ivd: &Ivd, bank: &str, graded: &str) -> (serde_json::Value, String, Kinds) {
    graded_half(ivd, bank, graded, "test")
}

fn graded_half(ivd: &Ivd, bank: &str, graded: &str, half: &str) -> (serde_json::Value, String, Kinds) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("kb");
    let bank = root().join(bank);
    assert!(ivd.run(&["kb", "import", bank.to_str().unwrap(), "--out", out.to_str().unwrap()]).status.success());
    let graded = root().join(graded);
    let args = ["--kb", out.to_str().unwrap(), "eval", "--graded", graded.to_str().unwrap(), "--half", half];
    let o = ivd.run(&[&args[..], &["--format", "json"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let kind = kinds_of(&graded);
    let mut by_kind: HashMap<String, Vec<f64>> = HashMap::new();
    for row in r["rows"].as_array().unwrap() {
        by_kind.entry(kind[row["id"].as_str().unwrap()].clone()).or_default().push(row["overall"].as_f64().unwrap());
    }
    let medians = by_kind
        .into_iter()
        .map(|(k, mut v)| {
            v.sort_by(f64::total_cmp);
            (k, v[v.len() / 2])
        })
        .collect();
    (r, stdout(&ivd.run(&args)), Kinds(medians))
}

/// Each graded answer's intended kind ("full", "parrot"...), by id.
fn kinds_of(graded: &Path) -> HashMap<String, String> {
    std::fs::read_to_string(graded)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|v| (v["id"].as_str().unwrap().to_string(), v["kind"].as_str().unwrap().to_string()))
        .collect()
}

struct Kinds(HashMap<String, f64>);

impl Kinds {
    fn median(&self, kind: &str) -> f64 {
        self.0[kind]
    }
}

fn agreement(r: &serde_json::Value) -> (f64, f64, f64) {
    let a = &r["overall"];
    println!("{a} wrong-question median {}", r["wrong_question_median"]);
    // A sound answer (graded 80% of the scale or more) is not told it scored under 25: at most one
    // in twenty, and one more (measured: 0 to 2 of 33 to 113 on these banks).
    let (squashed, sound) = (r["sound_squashed"].as_u64().unwrap(), r["sound_n"].as_u64().unwrap());
    println!("sound answers under 25: {squashed} of {sound}");
    assert!(sound >= 30 && squashed * 20 <= sound + 20, "{squashed} of {sound} sound answers under 25");
    assert!(a["n"].as_u64().unwrap() >= 60);
    assert!(r["wrong_question_median"].as_f64().unwrap() <= 25.0, "{}", r["wrong_question_median"]);
    (a["pearson"].as_f64().unwrap(), a["spearman"].as_f64().unwrap(), a["qwk"].as_f64().unwrap())
}

/// Agreement with human grades on the development bank's test half (its fitting half, with the
/// quiz banks' below, chose the constants of `scoring::reference_only`): a database and
/// networking bank, not our field, graded by hand in both languages. Measured 2026-12-04, with the
/// imported-bank relevance cut: Pearson 0.789, Spearman 0.846, QWK 0.784, wrong-question median
/// 12; medians by kind: full 100, short but right 81, paraphrase 71, restating the question 0.
#[test]
fn graded_bank_agrees_with_human_grades_on_its_test_half() {
    let ivd = Ivd::with_models();
    let (r, text, kinds) = graded_test_half(&ivd, "data/eval/dev_bank.jsonl", "data/eval/dev_bank_graded.jsonl");
    let (pearson, spearman, qwk) = agreement(&r);
    assert!(pearson >= 0.65 && spearman >= 0.65 && qwk >= 0.6, "{}", r["overall"]);
    // A paraphrase without the reference's words and a short answer that makes the point are
    // credited; restating the question is not.
    let (full, para, short, parrot) =
        (kinds.median("full"), kinds.median("paraphrase"), kinds.median("short"), kinds.median("parrot"));
    println!("full {full} paraphrase {para} short {short} parrot {parrot}");
    assert!(full >= 80.0 && para >= 55.0 && short >= 65.0, "full {full}, paraphrase {para}, short {short}");
    assert!(parrot <= 25.0, "restating the question scored {parrot}");
    // The text form says the same, for a person.
    assert!(text.contains("Pearson") && text.contains("wrong question") && text.contains("sound answers"), "{text}");
}

/// Quiz-style banks written apart from the scorer and from each other, in two more fields and
/// both languages (`data/eval/sag_*`: operating systems in English, software testing in Chinese;
/// short keys, student answers of every quality, two graders), test halves. Measured 2026-12-04:
/// English Pearson 0.619, QWK 0.578 (0.582 before the imported-bank relevance cut, 0.545 before
/// the model); Chinese 0.776, QWK 0.752 (0.765; 0.620).
#[test]
fn quiz_banks_from_other_fields_agree_with_their_graders() {
    let ivd = Ivd::with_models();
    for (lang, floor) in [("en", 0.5), ("zh", 0.65)] {
        let bank = format!("data/eval/sag_bank_{lang}.jsonl");
        let (r, _, kinds) = graded_test_half(&ivd, &bank, &format!("data/eval/sag_graded_{lang}.jsonl"));
        let (pearson, _, _) = agreement(&r);
        assert!(pearson >= floor, "{lang}: {}", r["overall"]);
        let (full, mostly, empty) = (kinds.median("full"), kinds.median("mostly"), kinds.median("empty"));
        println!("{lang}: full {full} mostly {mostly} empty {empty}");
        assert!(full >= 70.0 && full > mostly && mostly > empty && empty <= 25.0, "{lang}: {full} {mostly} {empty}");
    }
}

/// Two more quiz banks (`data/eval/sag_*_web`, `sag_*_arch`: web development and computer
/// architecture, English, a real class's spread of answers with typos and paraphrases), written
/// and graded after every constant of the imported-bank scoring was chosen: scored whole.
/// Measured 2026-12-04: web Pearson 0.796, QWK 0.772, wrong-question median 11; architecture
/// 0.719, QWK 0.707, median 5; medians by kind: full 100/96, mostly 77/73, partial 44/39,
/// restating the question 0.
#[test]
fn quiz_banks_written_after_the_fit_agree_with_their_graders() {
    let ivd = Ivd::with_models();
    for field in ["web", "arch"] {
        let bank = format!("data/eval/sag_bank_{field}.jsonl");
        let (r, _, kinds) = graded_half(&ivd, &bank, &format!("data/eval/sag_graded_{field}.jsonl"), "all");
        let (pearson, _, qwk) = agreement(&r);
        assert!(pearson >= 0.65 && qwk >= 0.6, "{field}: {}", r["overall"]);
        let [full, mostly, partial, restate] = ["full", "mostly", "partial", "restate"].map(|k| kinds.median(k));
        println!("{field}: full {full} mostly {mostly} partial {partial} restate {restate}");
        assert!(full >= 80.0 && full > mostly && mostly > partial && partial > restate, "{field}");
        assert!(restate <= 25.0, "{field}: restating the question scored {restate}");
    }
}

/// An imported bank is the base everywhere `--kb` reaches: a mock interview asks its questions
/// and scores against its references; the web console searches it and shows its entries.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_imported_bank_drives_mock_and_the_console() {
    let ivd = Ivd::with_models();
    let dir = tempfile::tempdir().unwrap();
    let kb = dir.path().join("kb");
    let bank = root().join("data/eval/sag_bank_en.jsonl");
    assert!(ivd.run(&["kb", "import", bank.to_str().unwrap(), "--out", kb.to_str().unwrap()]).status.success());
    let kb = kb.to_str().unwrap();
    let questions: Vec<String> = std::fs::read_to_string(&bank)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["question"].as_str().unwrap().to_string())
        .collect();
    let answers = write(dir.path(), "answers.txt", "/expert\n---\nI don't know.\n");
    let o = ivd.run(&["--kb", kb, "mock", "--count", "2", "--seed", "3", "--answers", answers.to_str().unwrap()]);
    // The conversation goes to stderr (stdout is for --format json).
    let out = stderr(&o);
    assert!(o.status.success(), "{out}");
    let asked: Vec<&String> = questions.iter().filter(|q| out.contains(q.as_str())).collect();
    assert_eq!(asked.len(), 2, "the bank's questions are asked: {out}");
    assert!(out.contains("/100"), "{out}");

    let s = crate::serve::Server::start(&ivd, &["--kb", kb]);
    let (status, page) = s.text("/kb?q=race+condition").await;
    assert_eq!(status, reqwest::StatusCode::OK);
    assert!(page.contains("What is a race condition?"), "{page}");
    let (_, page) = s.text("/kb/os-01").await;
    assert!(page.contains("unpredictable timing"), "the entry shows its reference: {page}");
}

/// The graded sets scored against the shipped base, where none of their questions has an entry:
/// a sound answer to a question the base lacks is scored on what it says, not told it is weak.
/// Test halves of all five sets (their fitting halves chose `scoring::unreferenced`). Measured
/// 2026-12-05: Pearson 0.399 (0.308 with the rubric alone), answers meant as full 53 (26),
/// partial 23, restating the question 25, and a good answer 25+ ahead of itself given to the
/// next question of its set 67 of 188 (15).
#[test]
fn answers_to_questions_the_base_lacks_are_scored_on_what_they_say() {
    let ivd = Ivd::with_models();
    let mut grades = Vec::new();
    let mut by_kind: HashMap<String, Vec<f64>> = HashMap::new();
    let mut ahead = (0, 0);
    for set in ["dev_bank_graded", "sag_graded_en", "sag_graded_zh", "sag_graded_web", "sag_graded_arch"] {
        let graded = root().join(format!("data/eval/{set}.jsonl"));
        let o = ivd.run(&["eval", "--graded", graded.to_str().unwrap(), "--half", "test", "--format", "json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let r: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        // A few match an entry of ours (software testing questions meet our evaluation entries).
        assert!(r["matched_share"].as_f64().unwrap() <= 0.25, "{set}: {}", r["matched_share"]);
        let kind = kinds_of(&graded);
        let rows = r["rows"].as_array().unwrap();
        for (row, moved) in rows.iter().zip(r["control_features"].as_array().unwrap()) {
            let (grade, overall) = (row["grade"].as_f64().unwrap(), row["overall"].as_f64().unwrap());
            grades.push((grade, overall));
            by_kind.entry(kind[row["id"].as_str().unwrap()].clone()).or_default().push(overall);
            if grade >= 4.5 {
                ahead.1 += 1;
                ahead.0 += usize::from(overall - moved["overall"].as_f64().unwrap() >= 25.0);
            }
        }
    }
    let median = |k: &str| {
        let mut v = by_kind[k].clone();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let pearson = pearson(&grades);
    let (full, partial, parrot, restate) = (median("full"), median("partial"), median("parrot"), median("restate"));
    println!(
        "Pearson {pearson:.3}, full {full}, partial {partial}, parrot {parrot}, restate {restate}, ahead {ahead:?}"
    );
    assert!(grades.len() >= 400, "{}", grades.len());
    assert!(pearson >= 0.34, "{pearson}");
    assert!(full >= 45.0 && full >= partial + 15.0, "full {full}, partial {partial}");
    assert!(parrot <= 25.0 && restate <= 25.0, "restating the question: {parrot} {restate}");
    assert!(ahead.0 * 4 >= ahead.1, "a good answer ahead of itself moved: {ahead:?}");
}

fn pearson(xy: &[(f64, f64)]) -> f64 {
    let n = xy.len() as f64;
    let (mx, my) = (xy.iter().map(|p| p.0).sum::<f64>() / n, xy.iter().map(|p| p.1).sum::<f64>() / n);
    let cov: f64 = xy.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    let (vx, vy): (f64, f64) =
        (xy.iter().map(|(x, _)| (x - mx).powi(2)).sum(), xy.iter().map(|(_, y)| (y - my).powi(2)).sum());
    cov / (vx * vy).sqrt()
}

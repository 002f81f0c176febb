//! Speakers told apart by their voices on real and neural recordings: the two women of pyannote's
//! telephone sample (no transcription needed), and the Chinese interview against its ground truth.

use serde_json::Value;

use crate::common::{root, stderr, stdout, Ivd};

fn rttm() -> Vec<(String, f64, f64)> {
    let text = std::fs::read_to_string(root().join("data/recordings/human/pyannote_sample.rttm")).unwrap();
    text.lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let (a, d): (f64, f64) = (f[3].parse().unwrap(), f[4].parse().unwrap());
            (f[7].to_string(), a, a + d)
        })
        .collect()
}

/// Share of the time where exactly one person speaks (10 ms steps) that the segments give to the
/// right voice, under the better of the two ways to name the voices; and the share covered at all.
fn agreement(truth: &[(String, f64, f64)], segs: &[(String, f64, f64)]) -> (f64, f64) {
    let who = |t: f64| truth.iter().filter(|x| x.1 <= t && t < x.2).map(|x| x.0.as_str()).collect::<Vec<_>>();
    let ours = |t: f64| segs.iter().find(|x| x.1 <= t && t < x.2).map(|x| x.0.as_str());
    let names: Vec<&str> = {
        let mut n: Vec<&str> = truth.iter().map(|x| x.0.as_str()).collect();
        n.dedup();
        n.sort();
        n.dedup();
        n
    };
    let (mut single, mut covered, mut same, mut swapped) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for k in 0..3000 {
        let t = k as f64 / 100.0;
        let w = who(t);
        if w.len() != 1 {
            continue;
        }
        single += 1.0;
        let Some(o) = ours(t) else { continue };
        covered += 1.0;
        let first = w[0] == names[0];
        let ours_first = o == "Speaker 1";
        if first == ours_first {
            same += 1.0;
        } else {
            swapped += 1.0;
        }
    }
    (f64::max(same, swapped) / covered.max(1.0), covered / single)
}

#[test]
fn a_real_phone_call_is_heard_without_transcribing() {
    let ivd = Ivd::with_models();
    let dir = root().join("data/recordings/human");
    let o = ivd.run_in(
        &dir,
        &["tools", "run", "detect_speakers", "--input", "-"],
        Some(r#"{"audio": "pyannote_sample.wav"}"#),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let out = &v["data"];
    let voices = &out["voices"];
    assert!((1..=4).contains(&voices["speakers"].as_u64().unwrap()), "{voices:#}");
    let segs: Vec<(String, f64, f64)> = voices["segments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (s["speaker"].as_str().unwrap().to_string(), s["start_s"].as_f64().unwrap(), s["end_s"].as_f64().unwrap())
        })
        .collect();
    // Voice activity on real telephone speech: nearly all of the talk is found, and two women of
    // overlapping pitch are two voices (CAM++; measured 87% of one-speaker time to the right one).
    let (right, covered) = agreement(&rttm(), &segs);
    eprintln!("pyannote sample: {:.0}% of one-speaker time to the right voice", right * 100.0);
    assert!(covered >= 0.9, "speech found in {:.0}% of the talk", covered * 100.0);
    assert_eq!(voices["speakers"], 2, "{voices:#}");
    assert!(right >= 0.75, "{:.0}% of one-speaker time to the right voice", right * 100.0);
    assert!(segs.iter().all(|s| s.1 >= 6.0), "speech invented in the leading silence: {segs:?}");
    // Every voice gets a role from talk alone, and the tool says it looked at voices.
    assert_eq!(out["speakers"].as_array().unwrap().len() as u64, voices["speakers"].as_u64().unwrap(), "{out:#}");
    assert_eq!(voices["basis"], "acoustic");
}

/// Both voices make one timeline: the stereo sides name the roles without any transcription.
#[test]
fn stereo_sides_name_the_roles_without_transcribing() {
    let ivd = Ivd::new();
    let dir = root().join("data/recordings");
    for (mode, first) in [("interviewer-left", "interviewer"), ("interviewer-right", "candidate")] {
        let input = format!(r#"{{"audio": "interview_en_stereo.ogg", "channels": "{mode}"}}"#);
        let o = ivd.run_in(&dir, &["tools", "run", "detect_speakers", "--input", "-"], Some(&input));
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
        let d = &v["data"];
        assert_eq!(d["voices"]["basis"], "channels");
        let first_speaker = d["voices"]["segments"][0]["speaker"].as_str().unwrap();
        let role =
            d["speakers"].as_array().unwrap().iter().find(|s| s["name"] == first_speaker).unwrap()["role"].clone();
        assert_eq!(role, first, "{mode}: {d:#}");
    }
}

fn zh_truth() -> Value {
    serde_json::from_str(&std::fs::read_to_string(root().join("data/recordings/interview_zh.truth.json")).unwrap())
        .unwrap()
}

/// The Chinese interview (a neural Mandarin voice): language, roles, pairs, characters per minute
/// within 10%, every pause of 2 s or more within 0.2 s, every filler counted, a Chinese report.
#[test]
fn the_chinese_interview_matches_its_ground_truth() {
    let _g = crate::audio::WHISPER.lock().unwrap_or_else(|e| e.into_inner());
    let t = zh_truth();
    let ivd = Ivd::with_models();
    let path = root().join("data/recordings/interview_zh.flac");
    let o = ivd.run(&["diagnose", path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(r["meta"]["lang"], "zh", "{:#}", r["meta"]);
    let roles: Vec<&str> = r["speakers"].as_array().unwrap().iter().map(|s| s["role"].as_str().unwrap()).collect();
    assert_eq!(roles, ["interviewer", "candidate"]);
    let answers: Vec<&Value> = t["turns"].as_array().unwrap().iter().filter(|x| x["speaker"] == "candidate").collect();
    let qs = r["questions"].as_array().unwrap();
    assert_eq!(qs.len(), answers.len(), "{r:#}");
    for (i, (q, a)) in qs.iter().zip(&answers).enumerate() {
        crate::audio::assert_reference_among_first(q, a["kb_id"].as_str().unwrap(), i);
        let s = &q["speech"];
        assert_eq!(s["rate_unit"], "cpm");
        let (rate, want) = (s["rate"].as_f64().unwrap(), a["chars_per_minute"].as_f64().unwrap());
        assert!((rate - want).abs() / want < 0.10, "Q{}: {rate} cpm vs {want}", i + 1);
    }
    // Fillers counted, each flagged inside its span: whisper writes the held 呃 and leaves out
    // the held 嗯, which the held-sound detector hears.
    crate::audio::assert_fillers_counted(qs, &answers);
    crate::audio::assert_long_pauses_match(&t, qs);
}

/// Who spoke when on real conversations never used to choose a constant (AMI meeting excerpts of
/// the dev and test sets, two to four people, and pyannote's telephone call; `human/SOURCE.md`),
/// against their reference turns: the frame error the issue asks to keep within 15%, with a
/// margin for other CPUs. Measured 2026-12-04: 13.5% pooled (the GE2E encoder before: 40.1%).
#[test]
fn real_meetings_and_a_phone_call_are_diarized_within_the_frame_error_target() {
    use interview_doctor::audio::{campplus::CamPlus, decode, features, speakers, vad, voices};
    use interview_doctor::bench::speakers::{agreement, read_rttm, Agreement};
    let models = crate::semantic::models();
    let model = CamPlus::load(&models).unwrap();
    let dir = root().join("data/recordings/human");
    let mut pooled = Agreement::default();
    for name in ["ami_dev00", "ami_dev01", "ami_tst00", "ami_tst01", "pyannote_sample"] {
        let wav = dir.join(format!("{name}.wav"));
        let audio = decode::decode(&wav, false).unwrap();
        let activity = vad::detect(&audio.mono, vad::VadKind::Earshot, &models).unwrap();
        let frames = features::frames(&audio.mono);
        let d = voices::diarize(&frames, &speakers::split_at_dips(&frames, &activity), &audio.mono, &model).unwrap();
        let a = agreement(&read_rttm(&wav.with_extension("rttm")).unwrap(), &d);
        eprintln!("{name}: {} voices, frame error {:.1}%", d.speakers, 100.0 * a.frame_error());
        pooled.single_s += a.single_s;
        pooled.heard_s += a.heard_s;
        pooled.right_s += a.right_s;
    }
    eprintln!("pooled frame error {:.1}%", 100.0 * pooled.frame_error());
    assert!(pooled.frame_error() <= 0.2, "frame error {:.1}%", 100.0 * pooled.frame_error());
}

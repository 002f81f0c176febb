//! Recordings: decoding every format, bad audio, and (with the real whisper model, one
//! transcription at a time) the espeak-ng interview against its ground truth, the stereo channel
//! mode, WAV vs FLAC, and a real human recording.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use interview_doctor::audio::decode::decode;
use serde_json::Value;

use crate::common::{root, stderr, stdout, Ivd};

/// Transcriptions take both cores: two at once take five times as long (MODELS.md).
pub static WHISPER: Mutex<()> = Mutex::new(());

fn rec(name: &str) -> PathBuf {
    root().join("data/recordings").join(name)
}

fn truth() -> Value {
    serde_json::from_str(&std::fs::read_to_string(rec("interview_en.truth.json")).unwrap()).unwrap()
}

/// The truth's turns with consecutive utterances of one speaker merged, as a transcript shows them.
fn merged_turns(t: &Value) -> Vec<(String, f64, f64)> {
    let mut out: Vec<(String, f64, f64)> = Vec::new();
    for x in t["turns"].as_array().unwrap() {
        let (sp, a, b) =
            (x["speaker"].as_str().unwrap().to_string(), x["start_s"].as_f64().unwrap(), x["end_s"].as_f64().unwrap());
        match out.last_mut() {
            Some(last) if last.0 == sp => last.2 = b,
            _ => out.push((sp, a, b)),
        }
    }
    out
}

fn rms_diff(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    (a[..n].iter().zip(&b[..n]).map(|(x, y)| (x - y).powi(2)).sum::<f32>() / n as f32).sqrt()
}

#[test]
fn every_format_decodes_to_the_same_16k_timeline() {
    let master = decode(&rec("interview_en.flac"), false).unwrap();
    let dur = truth()["duration_s"].as_f64().unwrap();
    assert!((master.duration_s() - dur).abs() < 0.01, "{} vs {dur}", master.duration_s());
    let level = (master.mono.iter().map(|v| v * v).sum::<f32>() / master.mono.len() as f32).sqrt();
    // The master written as 16-bit WAV (hound's path, not symphonia's) reads back sample for sample.
    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("interview_en.wav");
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: 16_000,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::create(&wav, spec).unwrap();
    for v in &master.mono {
        w.write_sample((v * 32768.0).round().clamp(-32768.0, 32767.0) as i16).unwrap();
    }
    w.finalize().unwrap();
    let back = decode(&wav, false).unwrap();
    assert_eq!(back.mono.len(), master.mono.len());
    assert!(back.mono.iter().zip(&master.mono).all(|(a, b)| (a - b).abs() <= 1.0 / 32768.0 + 1e-6));
    for name in ["interview_en.mp3", "interview_en.m4a", "interview_en.webm", "interview_en_stereo.ogg"] {
        let mut a = decode(&rec(name), false).unwrap_or_else(|e| panic!("{name}: {e}"));
        if a.source.channels == 2 {
            // One voice per side: the mix of a side with silence is half as loud.
            a.mono.iter_mut().for_each(|v| *v *= 2.0);
        }
        // Lossy codecs pad a few ms; the timeline must still line up.
        assert!((a.duration_s() - dur).abs() < 0.12, "{name}: {} s", a.duration_s());
        // Lossy at 32-40 kbit/s: the difference stays well under the signal itself. MP3 and AAC
        // can shift the start by their encoder delay, so compare envelopes over 100 ms blocks.
        let env = |x: &[f32]| {
            x.chunks(1600).map(|c| (c.iter().map(|v| v * v).sum::<f32>() / c.len() as f32).sqrt()).collect::<Vec<_>>()
        };
        // AAC in MP4 keeps its 1024-sample priming unless the edit list is honoured: allow up to
        // 0.1 s of offset, found by the best alignment.
        let e1 = env(&master.mono);
        let d = (0..=1600)
            .step_by(160)
            .map(|lag| rms_diff(&e1, &env(&a.mono[lag.min(a.mono.len())..])))
            .fold(f32::MAX, f32::min);
        assert!(d < level * 0.35, "{name}: envelope differs by {d} (signal {level})");
    }
    // The head WAV is the master's first 12 s, sample for sample.
    let head = decode(&rec("interview_en_head.wav"), false).unwrap();
    assert_eq!(head.mono.len(), 12 * 16_000);
    assert!(rms_diff(&head.mono, &master.mono) < 1e-4);
    // 96 kHz 24-bit stereo: resampled, not decimated, to the same 1.5 s of the master.
    let hi = decode(&rec("hires_96k24_stereo.wav"), false).unwrap();
    assert_eq!(hi.source.sample_rate, 96_000);
    assert_eq!(hi.source.channels, 2);
    assert!((hi.duration_s() - 1.5).abs() < 0.01);
    let off = 8_000;
    assert!(rms_diff(&hi.mono, &master.mono[off..]) < level * 0.2);
    // Channel mode keeps left and right apart: left is the interviewer, silent while the candidate speaks.
    let st = decode(&rec("interview_en_stereo.ogg"), true).unwrap();
    assert_eq!(st.channels.len(), 2);
    let at = |ch: &[f32], t0: f64, t1: f64| {
        let s = &ch[(t0 * 16000.0) as usize..(t1 * 16000.0) as usize];
        (s.iter().map(|v| v * v).sum::<f32>() / s.len() as f32).sqrt()
    };
    assert!(at(&st.channels[0], 1.0, 2.5) > 10.0 * at(&st.channels[1], 1.0, 2.5));
    assert!(at(&st.channels[1], 20.0, 22.0) > 10.0 * at(&st.channels[0], 20.0, 22.0));
}

/// Each bad file a new user might try, with what must happen: exit 2 and a message that names the
/// problem and says what to do, or (for audio without speech) exit 0 with a note. Never a panic.
#[test]
fn bad_audio_is_refused_with_a_hint_never_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let put = |name: &str, bytes: &[u8]| {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    };
    let head = std::fs::read(rec("interview_en_head.wav")).unwrap();
    let mut claims_more = head[..head.len() / 2].to_vec();
    claims_more.truncate(claims_more.len() - 1); // an odd byte count too
    let cases: Vec<(PathBuf, &str)> = vec![
        (put("empty.wav", b""), "empty (0 bytes)"),
        (put("notes.wav", b"Interviewer: hello\nCandidate: hi\n"), "it is text, not audio"),
        (put("cut_header.wav", &head[..30]), "WAV header"),
        (put("garbage.mp3", &[0x13u8; 5000]), "not audio that ivd can decode"),
    ];
    let ivd = Ivd::new();
    for (path, expect) in &cases {
        let o = ivd.run(&["transcribe", path.to_str().unwrap()]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{}: {err}", path.display());
        assert!(err.contains(expect), "{}: {err}", path.display());
        assert!(err.contains("hint:") || err.contains("convert") || err.contains("give"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // A WAV whose header promises more than the file holds: decoded as far as it goes, with a warning.
    let p = put("claims_more.wav", &claims_more);
    let a = decode(&p, false).unwrap();
    assert!((a.duration_s() - 6.0).abs() < 0.05, "{}", a.duration_s());
    assert!(a.warnings.iter().any(|w| w.contains("promises 12.0 s")), "{:?}", a.warnings);
}

#[test]
fn silence_noise_and_hires_audio_are_handled() {
    let _g = WHISPER.lock().unwrap_or_else(|e| e.into_inner());
    let ivd = Ivd::with_models();
    for name in ["silence_1s.wav", "noise_1s.wav"] {
        let o = ivd.run(&["transcribe", rec(name).to_str().unwrap(), "--format", "json"]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert!(v["segments"].as_array().unwrap().is_empty(), "{name}: {v}");
        assert!(stderr(&o).contains("no speech found"), "{name}");
    }
    // 96 kHz 24-bit stereo: resampled and transcribed (the greeting's first words).
    let o = ivd.run(&["transcribe", rec("hires_96k24_stereo.wav").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).to_lowercase().contains("thanks for coming"), "{}", stdout(&o));
    let o = ivd.run(&["diagnose", rec("silence_1s.wav").to_str().unwrap(), "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("no question/answer pairs"));
}

fn diagnose(ivd: &Ivd, path: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["diagnose", path.to_str().unwrap(), "--format", "json"];
    args.extend_from_slice(extra);
    let o = ivd.run(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

/// Speakers and roles, pairs, rate within 10%, every pause of 2 s or more within 0.2 s and none
/// invented, fillers as spoken.
#[test]
fn the_espeak_interview_matches_its_ground_truth_as_flac() {
    let _g = WHISPER.lock().unwrap_or_else(|e| e.into_inner());
    let t = truth();
    let ivd = Ivd::with_models();
    let r = diagnose(&ivd, &rec("interview_en.flac"), &[]);
    let roles: Vec<&str> = r["speakers"].as_array().unwrap().iter().map(|s| s["role"].as_str().unwrap()).collect();
    assert_eq!(roles, ["interviewer", "candidate"]);
    let answers: Vec<&Value> = t["turns"].as_array().unwrap().iter().filter(|x| x["speaker"] == "candidate").collect();
    let qs = r["questions"].as_array().unwrap();
    assert_eq!(qs.len(), answers.len(), "{r:#}");
    let ids: Vec<&str> = answers.iter().map(|a| a["kb_id"].as_str().unwrap()).collect();
    for (i, (q, a)) in qs.iter().zip(&answers).enumerate() {
        assert_reference_among_first(q, ids[i], i);
        let s = &q["speech"];
        let rate = s["rate"].as_f64().unwrap();
        let want = a["words_per_minute"].as_f64().unwrap();
        assert!((rate - want).abs() / want < 0.10, "Q{}: {rate} wpm vs {want}", i + 1);
    }
    // Fillers counted as spoken, each flagged at its time: the held ones inside their own
    // utterance's span, "you know" after them.
    assert_fillers_counted(qs, &answers);
    assert_long_pauses_match(&t, qs);
    // The report speaks of delivery and the timeline holds every turn.
    assert!(r["summary"]["speech_avg"].as_u64().unwrap() > 0);
    assert_eq!(r["timeline"]["turns"].as_array().unwrap().len(), merged_turns(&t).len());
    assert_eq!(r["source"]["kind"], "audio");
    // A WAV copy decodes to the same samples (every_format_decodes_to_the_same_16k_timeline): a
    // second whisper run on it (half a minute of CI) would only repeat this one.
}

/// Every held filler of the truth (`filler_spans`) has a filler flag inside its span (give or take
/// 0.4 s: whisper's word times and the held-sound detector both blur the edges).
/// The entry the question was read from is among the first three references: whisper's words
/// (which move a little between CPUs) can bring a neighbouring entry level with it.
pub fn assert_reference_among_first(q: &Value, id: &str, i: usize) {
    let first: Vec<&str> =
        q["references"].as_array().unwrap().iter().take(3).filter_map(|r| r["id"].as_str()).collect();
    assert!(first.contains(&id), "Q{}: {id} not among {first:?}: {}", i + 1, q["question"]);
}

/// How many of the answer's spoken fillers are flagged inside their own span (±0.4 s): whisper's
/// and the held-sound detector's output moves a little between CPUs, so callers allow a margin.
pub fn fillers_flagged_in_their_spans(truth_answer: &Value, speech: &Value) -> usize {
    let flags: Vec<f64> = speech["flags"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == "filler")
        .filter_map(|f| f["t_s"].as_f64())
        .collect();
    truth_answer["filler_spans"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|span| {
            let (a, b) = (span["start_s"].as_f64().unwrap(), span["end_s"].as_f64().unwrap());
            flags.iter().any(|t| *t >= a - 0.4 && *t <= b + 0.4)
        })
        .count()
}

/// Fillers over a whole interview: each answer's count within one of what was spoken, and at most
/// one spoken filler in the interview left unflagged (or flagged outside its span).
pub fn assert_fillers_counted(qs: &[Value], answers: &[&Value]) {
    let (mut spoken, mut flagged) = (0, 0);
    for (i, (q, a)) in qs.iter().zip(answers).enumerate() {
        let s = &q["speech"];
        let n = a["fillers"].as_array().unwrap().len() as i64;
        let counted = s["filler_count"].as_i64().unwrap();
        assert!((counted - n).abs() <= 1, "Q{}: {counted} fillers counted, {n} spoken: {s:#}", i + 1);
        spoken += a["filler_spans"].as_array().unwrap().len();
        flagged += fillers_flagged_in_their_spans(a, s);
    }
    assert!(flagged + 1 >= spoken, "{flagged} of {spoken} spoken fillers flagged in their spans");
}

/// Every true pause of 2 s or more (the truth's `long_pauses`) is found within 0.2 s at both ends,
/// and no pause of 2 s is found that is not there.
pub fn assert_long_pauses_match(truth: &Value, qs: &[Value]) {
    let want: Vec<(f64, f64)> = truth["long_pauses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["start_s"].as_f64().unwrap(), p["end_s"].as_f64().unwrap()))
        .collect();
    let found: Vec<(f64, f64)> = qs
        .iter()
        .flat_map(|q| q["speech"]["long_pauses"].as_array().unwrap().clone())
        .map(|p| {
            let s = p["start_s"].as_f64().unwrap();
            (s, s + p["duration_s"].as_f64().unwrap())
        })
        .filter(|(a, b)| b - a >= 2.0)
        .collect();
    assert_eq!(found.len(), want.len(), "{found:?} vs {want:?}");
    for ((a, b), (ta, tb)) in found.iter().zip(&want) {
        assert!((a - ta).abs() <= 0.2 && (b - tb).abs() <= 0.2, "pause {a:.2}-{b:.2} vs {ta:.2}-{tb:.2}");
    }
}

#[test]
fn stereo_channel_mode_assigns_sides() {
    let _g = WHISPER.lock().unwrap_or_else(|e| e.into_inner());
    let ivd = Ivd::with_models();
    let path = rec("interview_en_stereo.ogg");
    let o = ivd.run(&["transcribe", path.to_str().unwrap(), "--channels", "interviewer-left", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let t = truth();
    let segs = v["segments"].as_array().unwrap();
    let turns = merged_turns(&t);
    assert_eq!(segs.len(), turns.len(), "{v:#}");
    for (s, (sp, start, _)) in segs.iter().zip(&turns) {
        let want = if sp == "interviewer" { "Interviewer" } else { "Candidate" };
        assert_eq!(s["speaker"], want);
        assert!((s["start_s"].as_f64().unwrap() - start).abs() < 1.0);
    }
    // Swapped sides swap the roles: voices::stereo_sides_name_the_roles_without_transcribing.
    // A mono file cannot be split by channel.
    let o = ivd.run(&["transcribe", rec("interview_en_head.wav").to_str().unwrap(), "--channels", "interviewer-left"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("needs a stereo recording"));
}

#[test]
fn a_lossy_m4a_transcribes_like_the_master() {
    let _g = WHISPER.lock().unwrap_or_else(|e| e.into_inner());
    let ivd = Ivd::with_models();
    // AAC at 32 kb/s, the phone recorders' format; the MP3 copy decodes to the same timeline
    // (every_format_decodes_to_the_same_16k_timeline), and transcribing it too cost CI 50 s.
    let name = "interview_en.m4a";
    let o = ivd.run(&["transcribe", rec(name).to_str().unwrap(), "--format", "srt"]);
    assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
    let srt = stdout(&o);
    assert_eq!(srt.matches(" --> ").count(), merged_turns(&truth()).len(), "{name}: {srt}");
    // Word error rate against the script: whisper base reads the lossless master at about 9%;
    // a 32 kb/s copy may cost a few points more, never the content.
    let said: String = srt.lines().filter_map(|l| l.split_once(": ").map(|(_, t)| t.to_string() + " ")).collect();
    let script: String =
        truth()["turns"].as_array().unwrap().iter().map(|t| t["text"].as_str().unwrap().to_string() + " ").collect();
    let wer = word_error_rate(&script, &said);
    println!("{name}: word error rate {wer:.3}");
    assert!(wer <= 0.2, "{name}: word error rate {wer:.3}: {srt}");
}

/// Word-level edit distance over the reference's length, on lower-case words (hyphens split).
fn word_error_rate(reference: &str, hypothesis: &str) -> f64 {
    let words = |s: &str| -> Vec<String> {
        s.to_lowercase()
            .replace('-', " ")
            .split_whitespace()
            .map(|w| w.chars().filter(|c| c.is_alphanumeric() || *c == '\'').collect::<String>())
            .filter(|w| !w.is_empty())
            .collect()
    };
    let (r, h) = (words(reference), words(hypothesis));
    edit_distance(&r, &h) as f64 / r.len().max(1) as f64
}

fn edit_distance<T: PartialEq>(r: &[T], h: &[T]) -> usize {
    let mut row: Vec<usize> = (0..=h.len()).collect();
    for (i, rw) in r.iter().enumerate() {
        let prev = row.clone();
        row[0] = i + 1;
        for (j, hw) in h.iter().enumerate() {
            row[j + 1] = (prev[j + 1] + 1).min(row[j] + 1).min(prev[j] + usize::from(rw != hw));
        }
    }
    row[h.len()]
}

/// Real Mandarin (AISHELL-1 read sentences, a FunASR sample, a read classical passage recorded on a
/// phone; `human/SOURCE.md`) in simplified characters with Chinese punctuation, at a character
/// error rate (punctuation left out) within the 0.15 plus a margin for other CPUs.
/// Measured 2026-12-04: 10 errors in 75 characters (0.133), no traditional character left.
#[test]
fn real_mandarin_is_written_in_simplified_characters() {
    let _g = WHISPER.lock().unwrap_or_else(|e| e.into_inner());
    let ivd = Ivd::with_models();
    let chars = |s: &str| -> Vec<char> { s.chars().filter(|c| c.is_alphanumeric()).collect() };
    let (mut errors, mut total) = (0, 0);
    for name in ["aishell_BAC009S0764W0121", "aishell_BAC009S0764W0122", "funasr_asr_example", "daobidao_zh"] {
        let wav = rec(&format!("human/{name}.wav"));
        let o = ivd.run(&["transcribe", wav.to_str().unwrap(), "--format", "json", "--lang", "zh"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
        let text: String = v["segments"].as_array().unwrap().iter().map(|s| s["text"].as_str().unwrap()).collect();
        let want = std::fs::read_to_string(rec(&format!("human/{name}.txt"))).unwrap();
        let (r, h) = (chars(want.trim()), chars(&text));
        println!("{name}: {text}");
        errors += edit_distance(&r, &h);
        total += r.len();
        assert!(!text.contains(','), "ASCII commas in Chinese: {text}");
        for t in ['廣', '們', '這', '說', '時', '國', '過', '來', '對', '會'] {
            assert!(!text.contains(t), "traditional {t} in {text}");
        }
    }
    let cer = errors as f64 / total as f64;
    println!("character error rate {cer:.3} ({errors} of {total})");
    assert!(cer <= 0.2, "character error rate {cer:.3}");
}

#[test]
fn a_real_human_recording_is_transcribed_word_for_word() {
    let _g = WHISPER.lock().unwrap_or_else(|e| e.into_inner());
    let ivd = Ivd::with_models();
    let o = ivd.run(&["transcribe", rec("human/jfk.wav").to_str().unwrap(), "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["language"], "en");
    assert_eq!(v["speakers"].as_array().unwrap().len(), 1, "{v:#}");
    let text: String =
        v["segments"].as_array().unwrap().iter().map(|s| s["text"].as_str().unwrap().to_string() + " ").collect();
    let norm = |s: &str| s.to_lowercase().chars().filter(|c| c.is_alphanumeric() || *c == ' ').collect::<String>();
    let want =
        "and so my fellow americans ask not what your country can do for you ask what you can do for your country";
    assert_eq!(norm(&text).split_whitespace().collect::<Vec<_>>().join(" "), want);
}

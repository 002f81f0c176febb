//! `ivd serve` on loopback, driven by a real HTTP client: every route, the security rules, bad
//! uploads, two diagnoses at once, redo with corrected roles, and a kill and restart.

use std::io::BufRead;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use reqwest::header::{ACCEPT_LANGUAGE, HOST, ORIGIN};
use reqwest::multipart::{Form, Part};
use reqwest::StatusCode;
use serde_json::Value;

use crate::common::{samples, Ivd};

pub struct Server {
    child: Child,
    pub base: String,
    pub token: String,
    pub http: reqwest::Client,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    pub fn start(ivd: &Ivd, extra: &[&str]) -> Server {
        Server::start_env(ivd, extra, &[])
    }

    pub fn start_env(ivd: &Ivd, extra: &[&str], env: &[(&str, String)]) -> Server {
        let mut child = ivd
            .cmd()
            .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let url = line.trim();
        let (base, token) = url.split_once("/?token=").unwrap_or_else(|| panic!("no URL printed: {url:?}"));
        let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        Server { child, base: base.to_string(), token: token.to_string(), http }
    }

    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub fn get(&self, path: &str) -> reqwest::RequestBuilder {
        self.http.get(format!("{}{path}", self.base)).header("x-ivd-token", &self.token)
    }

    pub async fn text(&self, path: &str) -> (StatusCode, String) {
        let r = self.get(path).send().await.unwrap();
        (r.status(), r.text().await.unwrap())
    }

    /// Upload a file; the status and the job's path (from the redirect) or the page's text.
    pub async fn upload(&self, name: &str, bytes: Vec<u8>, fields: &[(&str, &str)]) -> (StatusCode, String) {
        let mut form = Form::new().part("file", Part::bytes(bytes).file_name(name.to_string()));
        for (k, v) in fields {
            form = form.text(k.to_string(), v.to_string());
        }
        let r = self
            .http
            .post(format!("{}/diagnose?token={}", self.base, self.token))
            .multipart(form)
            .send()
            .await
            .unwrap();
        let status = r.status();
        match r.headers().get("location") {
            Some(l) => (status, l.to_str().unwrap().to_string()),
            None => (status, r.text().await.unwrap()),
        }
    }

    /// Follow a job's events to its end; its final state.
    pub async fn wait(&self, job: &str, limit: Duration) -> Value {
        let started = Instant::now();
        loop {
            let body = tokio::time::timeout(limit, self.get(&format!("{job}/events")).send())
                .await
                .expect("events answered")
                .unwrap()
                .text()
                .await
                .unwrap();
            let last = body
                .lines()
                .filter_map(|l| l.strip_prefix("data: "))
                .next_back()
                .map(|d| serde_json::from_str::<Value>(d).unwrap());
            if let Some(s) = last.filter(|s| s["status"] != "running") {
                return s;
            }
            assert!(started.elapsed() < limit, "{job} still running after {limit:?}");
        }
    }
}

fn sample(name: &str) -> Vec<u8> {
    std::fs::read(samples().join(name)).unwrap()
}

fn jobs_left(ivd: &Ivd) -> usize {
    std::fs::read_dir(ivd.home.path().join("serve/jobs")).map(|d| d.count()).unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strangers_other_sites_and_rebound_names_are_refused() {
    let ivd = Ivd::new();
    let s = Server::start(&ivd, &[]);
    let plain = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    // No token: nothing, not even the home page.
    assert_eq!(plain.get(format!("{}/", s.base)).send().await.unwrap().status(), StatusCode::FORBIDDEN);
    // The token once in the URL sets a same-site cookie; with it the pages open.
    let r = plain.get(format!("{}/?token={}", s.base, s.token)).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let cookie = r.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "{cookie}");
    let pair = cookie.split(';').next().unwrap().to_string();
    let r = plain.get(format!("{}/history", s.base)).header("cookie", &pair).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert!(r.headers().get("access-control-allow-origin").is_none(), "no CORS");
    assert!(r.headers()["content-security-policy"].to_str().unwrap().contains("default-src 'self'"));
    // DNS rebinding: the right token under another name is refused.
    let r = s.get("/").header(HOST, "attacker.example:80").send().await.unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    // A change with the cookie alone (what a forged cross-site form would carry) is refused, and
    // so is one from another origin even with the token.
    let form = || Form::new().part("file", Part::bytes(sample("en_agent_labeled.txt")).file_name("a.txt"));
    let r = plain.post(format!("{}/diagnose", s.base)).header("cookie", &pair).multipart(form()).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    let r = s
        .http
        .post(format!("{}/diagnose?token={}", s.base, s.token))
        .header(ORIGIN, "http://evil.example")
        .multipart(form())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    let r = plain.post(format!("{}/sessions/1/delete", s.base)).header("cookie", &pair).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    assert_eq!(jobs_left(&ivd), 0, "a refused request started nothing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_answers_in_the_browser_s_language() {
    let ivd = Ivd::new();
    let s = Server::start(&ivd, &[]);
    for (path, en) in [
        ("/", "Diagnose an interview"),
        ("/history", "No sessions yet"),
        ("/kb", "Knowledge base"),
        ("/status", "Language model"),
    ] {
        let (status, body) = s.text(path).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(body.contains(en), "{path}: {body}");
        let zh =
            s.get(path).header(ACCEPT_LANGUAGE, "zh-CN,zh;q=0.9,en;q=0.5").send().await.unwrap().text().await.unwrap();
        assert!(zh.contains("lang=\"zh-CN\"") && zh.contains("知识库"), "{path}: {zh}");
        // The switch wins over the browser.
        let en_again = s
            .get(&format!("{path}?lang=en"))
            .header(ACCEPT_LANGUAGE, "zh-CN")
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(en_again.contains(en), "{path}");
    }
    // Search, then open the first hit with its expert answer and key points.
    let (_, hits) = s.text("/kb?q=what%20is%20function%20calling").await;
    let first = hits.split("href=\"/kb/").nth(1).and_then(|h| h.split('"').next()).expect("a hit").to_string();
    let (status, entry) = s.text(&format!("/kb/{first}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(entry.contains("Expert answer") && entry.contains("Key points"), "{entry}");
    assert_eq!(s.text("/kb/no-such-entry").await.0, StatusCode::NOT_FOUND);
    assert_eq!(s.text("/nowhere").await.0, StatusCode::NOT_FOUND);
    let (status, status_page) = s.text("/status").await;
    assert_eq!(status, StatusCode::OK);
    assert!(status_page.contains("Not configured"), "no model is configured here: {status_page}");
    assert!(status_page.contains("diagnose-transcript") && status_page.contains("mock-interview"), "{status_page}");
    for asset in ["/assets/app.css", "/assets/app.js"] {
        let r = s.get(asset).send().await.unwrap();
        assert_eq!(r.status(), StatusCode::OK, "{asset}");
        assert!(r.text().await.unwrap().len() > 500);
    }
    assert_eq!(s.text("/assets/../Cargo.toml").await.0, StatusCode::NOT_FOUND);
}

/// The first half of a sample recording's bytes.
fn half_of(name: &str) -> Vec<u8> {
    let mut b = std::fs::read(crate::common::root().join("data/recordings").join(name)).unwrap();
    b.truncate(b.len() / 2);
    b
}

/// A WAV whose header promises 4 s of which only 1 s arrived.
fn truncated_wav() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.wav");
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: 16_000,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::create(&path, spec).unwrap();
    for i in 0..64_000 {
        w.write_sample(((i as f32 * 0.05).sin() * 8000.0) as i16).unwrap();
    }
    w.finalize().unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.truncate(44 + 32_000);
    bytes
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_uploads_get_a_4xx_and_a_reason_and_leave_nothing() {
    let ivd = Ivd::new();
    let s = Server::start(&ivd, &["--max-text-mib", "1"]);
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".repeat(50);
    let cases: Vec<(&str, Vec<u8>, StatusCode, &str)> = vec![
        ("empty.txt", Vec::new(), StatusCode::BAD_REQUEST, "is empty"),
        ("photo.wav", png.clone(), StatusCode::UNPROCESSABLE_ENTITY, "PNG image"),
        ("notes.txt", png, StatusCode::UNPROCESSABLE_ENTITY, "PNG image"),
        ("cut.wav", truncated_wav(), StatusCode::UNPROCESSABLE_ENTITY, "truncated"),
        // Compressed recordings cut in half (an interrupted copy): their headers promise more.
        ("cut.flac", half_of("interview_en.flac"), StatusCode::UNPROCESSABLE_ENTITY, "cannot be used"),
        ("cut.m4a", half_of("interview_en.m4a"), StatusCode::UNPROCESSABLE_ENTITY, "cannot be used"),
        ("cut.mp3", half_of("interview_en.mp3"), StatusCode::UNPROCESSABLE_ENTITY, "cannot be used"),
        ("../../escape.txt", b"Interviewer: hi".to_vec(), StatusCode::BAD_REQUEST, "is a path"),
        ("tool.exe", b"MZ".to_vec(), StatusCode::UNSUPPORTED_MEDIA_TYPE, "neither a transcript"),
        (
            "huge.txt",
            "Interviewer: hello?\n".repeat(60_000).into_bytes(),
            StatusCode::PAYLOAD_TOO_LARGE,
            "larger than the limit",
        ),
    ];
    for (name, bytes, want, says) in cases {
        let (status, page) = s.upload(name, bytes, &[]).await;
        assert_eq!(status, want, "{name}: {page}");
        assert!(page.contains(says), "{name}: {page}");
    }
    // A name with a control character, sent raw (a client library would escape it).
    let body = "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"bell\u{7}.txt\"\r\nContent-Type: text/plain\r\n\r\nInterviewer: hi\r\n--XyZ--\r\n";
    let r = s
        .http
        .post(format!("{}/diagnose?token={}", s.base, s.token))
        .header("content-type", "multipart/form-data; boundary=XyZ")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    let why = r.text().await.unwrap();
    assert!(why.contains("control characters"), "{why}");
    assert_eq!(jobs_left(&ivd), 0, "refused uploads leave no folder behind");
    assert!(!ivd.home.path().join("escape.txt").exists() && !ivd.home.path().join("serve/escape.txt").exists());
    // And the server is still there.
    assert_eq!(s.text("/").await.0, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_diagnoses_at_once_finish_with_reports_downloads_and_history() {
    let ivd = Ivd::new();
    let s = Server::start(&ivd, &[]);
    let (a, b) = tokio::join!(
        s.upload("en_agent_labeled.txt", sample("en_agent_labeled.txt"), &[]),
        s.upload("zh_agent_labeled.txt", sample("zh_agent_labeled.txt"), &[("profile", "lin")])
    );
    assert_eq!(a.0, StatusCode::SEE_OTHER, "{a:?}");
    assert_eq!(b.0, StatusCode::SEE_OTHER, "{b:?}");
    let (sa, sb) = tokio::join!(s.wait(&a.1, Duration::from_secs(120)), s.wait(&b.1, Duration::from_secs(120)));
    assert_eq!(sa["status"], "done", "{sa}");
    assert_eq!(sb["status"], "done", "{sb}");
    // The job's page is the HTML report, with the console's bar and the downloads.
    let (_, page) = s.text(&a.1).await;
    assert!(page.contains("ivd-bar") && page.contains("report.json") && page.contains("Daniel Kim"), "{page}");
    let (_, zh_page) = s.text(&b.1).await;
    assert!(zh_page.contains("lang=\"zh"), "a Chinese interview keeps a Chinese report");
    let json: Value = serde_json::from_str(&s.text(&format!("{}/report.json", a.1)).await.1).unwrap();
    assert_eq!(json["summary"]["overall_score"], sa["overall"]);
    let md = s.get(&format!("{}/report.md", a.1)).send().await.unwrap();
    assert!(md.headers()["content-disposition"].to_str().unwrap().contains("attachment"));
    assert!(md.text().await.unwrap().starts_with('#'));
    // Both are in the history, each under its profile; a session opens and is deleted.
    let (_, hist) = s.text("/history").await;
    assert!(hist.contains("en_agent_labeled.txt") && !hist.contains("zh_agent_labeled.txt"), "{hist}");
    let (_, lin) = s.text("/history?profile=lin").await;
    assert!(lin.contains("zh_agent_labeled.txt"), "{lin}");
    let id = sa["session"].as_i64().expect("the session id");
    assert_eq!(s.text(&format!("/sessions/{id}")).await.0, StatusCode::OK);
    assert!(s.text(&format!("/sessions/{id}/report.json")).await.1.contains("\"questions\""));
    let del = s.http.post(format!("{}/sessions/{id}/delete?token={}", s.base, s.token)).send().await.unwrap();
    assert_eq!(del.status(), StatusCode::SEE_OTHER);
    assert_eq!(s.text(&format!("/sessions/{id}")).await.0, StatusCode::NOT_FOUND);
    // Roles corrected on the page: the two speakers swapped, diagnosed again.
    let speakers = sa["speakers"].as_array().unwrap();
    let mut form = Vec::new();
    for (i, sp) in speakers.iter().enumerate() {
        let swapped = if sp[1] == "interviewer" { "candidate" } else { "interviewer" };
        form.push((format!("label_{i}"), sp[0].as_str().unwrap().to_string()));
        form.push((format!("role_{i}"), swapped.to_string()));
    }
    let r = s.http.post(format!("{}{}/redo?token={}", s.base, a.1, s.token)).form(&form).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let redo = r.headers()["location"].to_str().unwrap().to_string();
    let sr = s.wait(&redo, Duration::from_secs(120)).await;
    assert_eq!(sr["status"], "done", "{sr}");
    for (before, after) in speakers.iter().zip(sr["speakers"].as_array().unwrap()) {
        assert_eq!(before[0], after[0]);
        assert_ne!(before[1], after[1], "{sr}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_restarts_with_every_finished_session_and_says_what_was_cut() {
    // With the models, a 90-minute interview takes long enough to be killed in the middle.
    let ivd = Ivd::with_models();
    let mut s = Server::start(&ivd, &[]);
    let (_, done) = s.upload("en_agent_labeled.txt", sample("en_agent_labeled.txt"), &[]).await;
    assert_eq!(s.wait(&done, Duration::from_secs(120)).await["status"], "done");
    // A long interview, killed while it is being diagnosed.
    let (_, cut) = s.upload("en_long_90min.vtt", sample("en_long_90min.vtt"), &[]).await;
    assert!(s.text(&cut).await.1.contains("id=\"job\""), "still running");
    s.kill();
    let s = Server::start(&ivd, &[]);
    let (_, hist) = s.text("/history").await;
    assert!(hist.contains("en_agent_labeled.txt"), "{hist}");
    let (status, page) = s.text(&done).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("ivd-bar"), "the finished job still shows its report");
    let (_, page) = s.text(&cut).await;
    assert!(page.contains("server stopped before this diagnosis finished"), "{page}");
    // Run it again from the page.
    let r = s.http.post(format!("{}{cut}/redo?token={}", s.base, s.token)).form(&[("x", "")]).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
}

/// Debian's chromium, driven by Playwright (scripts/browser_check.py): every page in both
/// languages and themes with no console error or failed request, and a transcript and a recording
/// diagnosed through the upload form. Transcribes, so it runs with the recordings (scripts/test.sh).
#[test]
fn a_real_browser_loads_every_page_and_diagnoses_by_upload() {
    let ivd = Ivd::with_models();
    let s = Server::start(&ivd, &[]);
    let out = crate::common::root().join("target/screenshots");
    let (spoken, seconds) = spoken_answer(ivd.home.path());
    let python = std::env::var("IVD_BROWSER_PYTHON").unwrap_or_else(|_| "python3".into());
    let o = std::process::Command::new(&python)
        .arg(crate::common::root().join("scripts/browser_check.py"))
        .arg(format!("{}/?token={}", s.base, s.token))
        .arg(&out)
        .arg(samples().join("en_agent_labeled.txt"))
        .arg(crate::common::root().join("data/recordings/interview_en.m4a"))
        .arg(&spoken)
        .env("IVD_SPOKEN_SECONDS", format!("{seconds:.1}"))
        .output()
        .unwrap_or_else(|e| panic!("{python}: {e}; scripts/test.sh installs Playwright"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let seen: Value = serde_json::from_str(String::from_utf8_lossy(&o.stdout).lines().last().unwrap()).unwrap();
    assert_eq!(seen["problems"], serde_json::json!([]), "{seen:#}");
    let pages = seen["pages"].as_array().unwrap();
    assert_eq!(pages.len(), 24);
    for p in pages {
        assert_eq!(p["html_lang"], if p["lang"] == "zh" { "zh-CN" } else { "en" }, "{p}");
    }
    let reports = seen["reports"].as_array().unwrap();
    assert_eq!(reports.len(), 2, "{seen:#}");
    assert!(reports.iter().all(|r| r["questions"].as_u64().unwrap() >= 3), "{seen:#}");
    // Two diagnoses and the mock interview; the four mocks ended unanswered left no report.
    assert_eq!(seen["history_rows"], 3, "{seen:#}");
    assert!(out.join("home-zh-dark.png").exists() && out.join("report-interview_en_m4a.png").exists());
    mock_in_the_browser(&seen["mock"], ivd.home.path());
}

/// An answer about reranking, spoken by espeak-ng: the fake microphone's capture. Its length.
fn spoken_answer(dir: &std::path::Path) -> (std::path::PathBuf, f64) {
    let wav = dir.join("spoken-answer.wav");
    let text = "For reranking we first retrieve about fifty candidates with hybrid search. \
                Then a cross encoder scores each pair of query and passage, and we keep the best five for the prompt.";
    let o = std::process::Command::new("espeak-ng")
        .args(["-v", "en-us", "-s", "150", "-w"])
        .arg(&wav)
        .arg(text)
        .output()
        .expect("espeak-ng (scripts/deps.sh installs it)");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r = hound::WavReader::open(&wav).unwrap();
    let seconds = r.duration() as f64 / r.spec().sample_rate as f64;
    (wav, seconds)
}

/// What the browser saw of the mock interview, and what the server kept of it.
fn mock_in_the_browser(m: &Value, home: &std::path::Path) {
    let text = |k: &str| m[k].as_str().unwrap_or_else(|| panic!("{k}: {m:#}")).to_string();
    assert!(text("timer_3min").contains("amber") && text("timer_5min").contains("red"), "{m:#}");
    assert!(text("hint").len() > "Hint: ".len() + 3, "{m:#}");
    assert_eq!(text("retaken"), text("first"), "a retake asks the same question: {m:#}");
    for k in ["verdict_1", "verdict_retake", "verdict_spoken"] {
        assert!(!text(k).trim().is_empty(), "{k}: {m:#}");
    }
    assert_eq!(m["expert_shown"], true, "{m:#}");
    let heard = text("heard").to_lowercase();
    assert!(!heard.is_empty(), "nothing was heard: {}", text("mic_status"));
    let words = ["retrieve", "candidates", "hybrid", "search", "passage", "prompt"];
    let found = words.iter().filter(|w| heard.contains(*w)).count();
    assert!(found >= 4, "the spoken answer, transcribed: {heard:?}");
    assert!(text("playback").starts_with("blob:"), "{m:#}");
    assert!(text("report_url").contains("/sessions/"), "{m:#}");
    // Kept: both attempts at the first question, the spoken answer as corrected, with its
    // recording and its delivery.
    let db = rusqlite::Connection::open(home.join("ivd.sqlite")).unwrap();
    let state: String = db
        .query_row("SELECT state FROM mock_sessions WHERE finished = 1 ORDER BY length(state) DESC LIMIT 1", [], |r| {
            r.get(0)
        })
        .unwrap();
    let state: Value = serde_json::from_str(&state).unwrap();
    let answered = state["answered"].as_array().unwrap();
    assert_eq!(answered.iter().filter(|a| a["retaken"] == true).count(), 1, "{state:#}");
    let spoken = answered.iter().find(|a| a["recording"].is_string()).expect("a spoken answer");
    assert!(spoken["answer"].as_str().unwrap().ends_with("We also cache frequent queries."), "{spoken:#}");
    assert!(spoken["speech"].is_object(), "delivery analysed: {spoken:#}");
}

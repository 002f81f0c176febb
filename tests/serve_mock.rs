//! Mock interviews through `ivd serve`, by a real HTTP client on loopback: setup, a typed answer
//! and its verdict, hint, expert answer, retake (both attempts kept), skip, bad input, a kill -9
//! and restart that loses no saved answer and offers to resume, and the final report in the
//! history. (The spoken answer is driven through a real browser's fake microphone in
//! `serve::a_real_browser_…`.)

use reqwest::multipart::{Form, Part};
use reqwest::StatusCode;
use serde_json::Value;

use crate::common::Ivd;
use crate::serve::Server;

impl Server {
    /// A form post with the token; the status and where it sends the browser (or the page).
    async fn post(&self, path: &str, form: &[(&str, &str)]) -> (StatusCode, String) {
        let r = self.http.post(format!("{}{path}?token={}", self.base, self.token)).form(form).send().await.unwrap();
        let status = r.status();
        match r.headers().get("location") {
            Some(l) => (status, l.to_str().unwrap().to_string()),
            None => (status, r.text().await.unwrap()),
        }
    }
}

fn prompt(page: &str) -> String {
    let at = page.find("id=\"prompt\"").unwrap_or_else(|| panic!("no question on the page: {page}"));
    let rest = &page[at..];
    rest[rest.find('>').unwrap() + 1..rest.find("</h2>").unwrap()].to_string()
}

fn saved(ivd: &Ivd, id: &str) -> Value {
    let db = rusqlite::Connection::open(ivd.home.path().join("ivd.sqlite")).unwrap();
    let state: String = db.query_row("SELECT state FROM mock_sessions WHERE id = ?1", [id], |r| r.get(0)).unwrap();
    serde_json::from_str(&state).unwrap()
}

const GOOD: &str = "Documents are parsed and cleaned, split into overlapping chunks of a few hundred tokens, embedded \
                    and indexed with BM25 and vectors together with their metadata. At query time the question is \
                    rewritten, hybrid retrieval returns candidates, a cross-encoder reranks them, the best few go into \
                    the prompt and the model answers from them with citations; retrieval recall and faithfulness are \
                    evaluated on a golden set.";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mock_interview_is_answered_retaken_skipped_and_survives_a_kill() {
    let ivd = Ivd::new();
    let mut s = Server::start(&ivd, &[]);
    let (status, setup) = s.text("/mock").await;
    assert_eq!(status, StatusCode::OK);
    assert!(setup.contains("name=\"dimension\" value=\"rag\""), "{setup}");
    // Bad settings: a clear page and a 4xx, nothing stored.
    let (status, page) = s.post("/mock", &[("count", "0")]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{page}");
    let (status, page) = s.post("/mock", &[("count", "3"), ("dimension", "astrology")]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(page.contains("astrology") && page.contains("rag"), "names the dimensions there are: {page}");
    // Without the token a post is refused.
    let r = s.http.post(format!("{}/mock", s.base)).form(&[("count", "3")]).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);

    let (status, at) = s.post("/mock", &[("count", "3"), ("dimension", "rag"), ("difficulty", "mid")]).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{at}");
    let id = at.trim_start_matches("/mock/").to_string();
    let (_, page) = s.text(&at).await;
    let first = prompt(&page);
    assert!(page.contains("id=\"timer\"") && page.contains("id=\"record\""), "timer and microphone: {page}");
    let (_, hinted) = s.text(&format!("{at}?hint=1")).await;
    assert!(hinted.contains("id=\"hint\""), "{hinted}");

    // A weak answer, its verdict, then a retake: the same question again, both attempts kept.
    let (status, _) =
        s.post(&format!("{at}/answer"), &[("text", "You search the documents."), ("elapsed_s", "20")]).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let (_, page) = s.text(&at).await;
    assert!(page.contains("id=\"verdict\"") && page.contains("id=\"score\""), "{page}");
    s.post(&format!("{at}/retake"), &[]).await;
    let (_, page) = s.text(&at).await;
    assert_eq!(prompt(&page), first, "a retake asks the same question");
    s.post(&format!("{at}/answer"), &[("text", GOOD), ("elapsed_s", "95")]).await;
    let state = saved(&ivd, &id);
    let answered = state["answered"].as_array().unwrap();
    assert_eq!(answered.len(), 2);
    assert_eq!(answered[0]["retaken"], true);
    let (weak, good) =
        (answered[0]["content"]["overall"].as_u64().unwrap(), answered[1]["content"]["overall"].as_u64().unwrap());
    assert!(good >= weak + 20, "the full answer scores well above the weak one: {weak} vs {good}");
    let (_, page) = s.text(&format!("{at}?expert=1")).await;
    assert!(page.contains("id=\"expert\""), "the expert answer once answered");

    // Killed mid-interview: the answers are kept, and the setup page offers to resume.
    let asked = prompt(&s.text(&at).await.1);
    s.kill();
    let s = Server::start(&ivd, &[]);
    let (_, setup) = s.text("/mock").await;
    assert!(setup.contains("id=\"resume\"") && setup.contains(&format!("href=\"/mock/{id}\"")), "{setup}");
    let (_, page) = s.text(&at).await;
    assert_eq!(prompt(&page), asked, "resumed where it stopped");

    // Skipping the rest ends it: the report goes to the history as a mock session.
    let mut end = String::new();
    for _ in 0..6 {
        let (status, to) = s.post(&format!("{at}/skip"), &[("elapsed_s", "3")]).await;
        assert_eq!(status, StatusCode::SEE_OTHER);
        let r = s.get(&to).send().await.unwrap();
        if let Some(l) = r.headers().get("location") {
            end = l.to_str().unwrap().to_string();
            break;
        }
    }
    assert!(end.starts_with("/sessions/"), "the finished interview opens its report: {end:?}");
    let (status, report) = s.text(&end).await;
    assert_eq!(status, StatusCode::OK);
    assert!(report.contains("ivd-bar"), "{report}");
    let (_, hist) = s.text("/history").await;
    assert!(hist.contains("mock interview (mid, 3 questions)"), "{hist}");
    // A finished interview takes no more answers.
    let kept = saved(&ivd, &id)["answered"].as_array().unwrap().len();
    let (status, to) = s.post(&format!("{at}/answer"), &[("text", GOOD)]).await;
    assert_eq!((status, to.as_str()), (StatusCode::SEE_OTHER, at.as_str()));
    assert_eq!(saved(&ivd, &id)["answered"].as_array().unwrap().len(), kept);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mock_recording_that_is_not_audio_is_refused_and_leaves_nothing() {
    let ivd = Ivd::new();
    let s = Server::start(&ivd, &[]);
    let (_, at) = s.post("/mock", &[("count", "1")]).await;
    let send = |name: &'static str, bytes: Vec<u8>| {
        let form = Form::new().part("file", Part::bytes(bytes).file_name(name));
        s.http.post(format!("{}{at}/recording", s.base)).header("x-ivd-token", &s.token).multipart(form).send()
    };
    for (name, bytes, want) in [
        ("answer.webm", b"\x89PNG\r\n\x1a\n0000".to_vec(), StatusCode::UNPROCESSABLE_ENTITY),
        ("answer.webm", Vec::new(), StatusCode::BAD_REQUEST),
        ("answer.txt", b"hello".to_vec(), StatusCode::UNSUPPORTED_MEDIA_TYPE),
        ("../answer.wav", b"RIFF".to_vec(), StatusCode::BAD_REQUEST),
    ] {
        let r = send(name, bytes).await.unwrap();
        assert_eq!(r.status(), want, "{name}");
        let j: Value = r.json().await.unwrap();
        assert!(j["error"].as_str().is_some_and(|e| !e.is_empty()), "{j}");
    }
    let id = at.trim_start_matches("/mock/");
    let left = std::fs::read_dir(ivd.home.path().join("serve/mock").join(id)).map(|d| d.count()).unwrap_or(0);
    assert_eq!(left, 0, "refused recordings are removed");
    // An answer naming a recording that is not there is refused with a page, not a crash.
    let (status, page) = s.post(&format!("{at}/answer"), &[("text", "x"), ("recording", "abc123")]).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{page}");
    let (status, _) = s.post(&format!("{at}/answer"), &[("text", "x"), ("recording", "../../etc")]).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
}

/// The status page says what `ivd doctor` says of the language model: it answers (a fake
/// OpenAI-compatible server on loopback lists its models), or it is configured and silent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_status_page_probes_the_configured_language_model() {
    use wiremock::matchers::{method, path};
    use wiremock::{Mock, MockServer, ResponseTemplate};
    let fake = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(
                serde_json::json!({"object": "list", "data": [{"id": "fake-model", "object": "model"}]}),
            ),
        )
        .expect(1..)
        .mount(&fake)
        .await;
    let ivd = Ivd::new();
    let env = |url: String| {
        vec![("OPENAI_BASE_URL", url), ("IVD_LLM_MODEL", "fake-model".to_string()), ("OPENAI_API_KEY", "k".to_string())]
    };
    let s = Server::start_env(&ivd, &[], &env(format!("{}/v1", fake.uri())));
    let (_, page) = s.text("/status").await;
    let llm = &page[page.find("id=\"llm\"").unwrap()..];
    assert!(llm.contains("fake-model") && llm.contains("answers ("), "{llm}");
    drop(s);
    // Nothing listens there.
    let dead = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let s = Server::start_env(
        &ivd,
        &[],
        &[
            env(format!("http://{dead}/v1")),
            vec![("IVD_LLM_RETRIES", "0".to_string()), ("IVD_LLM_TIMEOUT_S", "2".to_string())],
        ]
        .concat(),
    );
    let (status, page) = s.text("/status").await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("configured but does not answer"), "{page}");
}

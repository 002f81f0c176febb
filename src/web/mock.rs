//! Mock interviews in the browser: the same session as `ivd mock` (`skills::mock_session`), kept
//! in the same table and saved after every answer, so closing the tab or killing the server loses
//! nothing and the setup page offers to resume. An answer is typed, or spoken: the page records it
//! (MediaRecorder), the server transcribes it at once and the page shows the transcript for
//! correction before the answer is scored, its delivery from the recording.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use axum::extract::{Form, Multipart, Path as UrlPath, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use minijinja::{context, Value};

use super::pages::{self, LangQuery};
use super::upload::{self, Refusal};
use super::{i18n, Shared};
use crate::lang::Lang;
use crate::report::ReportFormat;
use crate::skills::mock_session::{self, MockState};
use crate::skills::mock_voice;
use crate::tools::transcribe_audio::TranscribeAudioOutput;

/// Mock sessions' shared state: one change at a time (a double click must not score an answer
/// twice), and what was heard in each recording until its answer is submitted.
#[derive(Default)]
pub struct Runtime {
    lock: tokio::sync::Mutex<()>,
    heard: Mutex<HashMap<String, Arc<TranscribeAudioOutput>>>,
}

type Fields = Vec<(String, String)>;

fn field<'a>(form: &'a Fields, key: &str) -> Option<&'a str> {
    form.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

fn error_page(
    app: &Shared,
    headers: &HeaderMap,
    q: &Query<LangQuery>,
    status: StatusCode,
    message: String,
) -> Response {
    pages::page(app, headers, q, "error.html.j2", status, context! { message => message })
}

/// `GET /mock`: choose dimensions, count, difficulty and calm mode; resume an unfinished session.
pub async fn setup(State(app): State<Shared>, headers: HeaderMap, q: Query<LangQuery>) -> Response {
    let lang = i18n::pick(q.lang.as_deref(), &headers);
    let kb = match app.ctx.load_kb().await {
        Ok(kb) => kb,
        Err(e) => return error_page(&app, &headers, &q, StatusCode::SERVICE_UNAVAILABLE, e.message),
    };
    let dims: Vec<Value> = kb
        .kb
        .manifest
        .dimensions
        .iter()
        .map(|d| {
            let n = kb.kb.entries.iter().filter(|e| e.dimension == d.id).count();
            context! { id => d.id, name => if lang.is_zh() { &d.name_zh } else { &d.name_en }, entries => n }
        })
        .filter(|d| d.get_attr("entries").is_ok_and(|n| n.is_true()))
        .collect();
    let profile = profile_of(q.profile.as_deref(), &app.config.profile);
    let p = profile.clone();
    let unfinished = pages::with_store(&app, move |s| s.mock_unfinished(&p)).await.ok().flatten();
    let resume = unfinished.and_then(|(id, json)| {
        let s: MockState = serde_json::from_str(&json).ok()?;
        Some(context! { id => id, answered => s.kept().count(), total => s.questions.len() })
    });
    let ctx = context! { nav => "mock", dims => dims, profile => profile, resume => resume, levels => ["junior", "mid", "senior"] };
    pages::page(&app, &headers, &q, "mock_setup.html.j2", StatusCode::OK, ctx)
}

/// A profile name from a form or query: letters, digits and `-_.`, else the default.
fn profile_of(asked: Option<&str>, default: &str) -> String {
    let p: String =
        asked.unwrap_or("").chars().filter(|c| c.is_alphanumeric() || "-_.".contains(*c)).take(64).collect();
    if p.is_empty() {
        default.to_string()
    } else {
        p
    }
}

/// `POST /mock`: draw the questions (none the profile saw lately, weak dimensions favoured) and
/// store the session before its first question.
pub async fn start(
    State(app): State<Shared>,
    headers: HeaderMap,
    q: Query<LangQuery>,
    Form(form): Form<Fields>,
) -> Response {
    let page_lang = i18n::pick(q.lang.as_deref(), &headers);
    let lang = match field(&form, "lang") {
        Some("zh") => Lang::Zh,
        Some("en") => Lang::En,
        _ => page_lang,
    };
    let dimensions: Vec<String> = form.iter().filter(|(k, _)| k == "dimension").map(|(_, v)| v.clone()).collect();
    let count = match field(&form, "count").unwrap_or("5").trim().parse::<usize>() {
        Ok(n) if (1..=30).contains(&n) => n,
        _ => {
            let why = "the number of questions must be between 1 and 30".to_string();
            return error_page(&app, &headers, &q, StatusCode::BAD_REQUEST, why);
        }
    };
    let level = field(&form, "difficulty").unwrap_or("mid").to_string();
    let calm = field(&form, "calm").is_some();
    let profile = profile_of(field(&form, "profile"), &app.config.profile);
    let kb = match app.ctx.load_kb().await {
        Ok(kb) => kb,
        Err(e) => return error_page(&app, &headers, &q, StatusCode::SERVICE_UNAVAILABLE, e.message),
    };
    let p = profile.clone();
    let seen = pages::with_store(&app, move |s| {
        Ok((s.recent_entries(&p, mock_session::NO_REPEAT_SESSIONS)?, s.dimension_means(&p)?))
    })
    .await;
    let (recent, weak) = match seen {
        Ok(v) => v,
        Err(r) => return r,
    };
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
    let draw =
        mock_session::Draw { dimensions: &dimensions, level: &level, count, recent: &recent, weak: &weak, seed, lang };
    let questions = match mock_session::pick(&kb.kb, &draw) {
        Ok(qs) => qs,
        Err(e) => {
            let why = format!("{}; {}", e.message, e.suggestion);
            return error_page(&app, &headers, &q, StatusCode::BAD_REQUEST, why);
        }
    };
    let state = MockState::new(questions, lang, &level, calm);
    let json = serde_json::to_string(&state).unwrap_or_default();
    match pages::with_store(&app, move |s| s.mock_create(&profile, &json, &crate::audit::now_rfc3339())).await {
        Ok(id) => Redirect::to(&format!("/mock/{id}")).into_response(),
        Err(r) => r,
    }
}

/// A stored session: (profile, state, finished).
async fn load(app: &Shared, id: i64) -> Result<Option<(String, MockState, bool)>, Response> {
    let Some((profile, json, finished)) = pages::with_store(app, move |s| s.mock_get(id)).await? else {
        return Ok(None);
    };
    match serde_json::from_str::<MockState>(&json) {
        Ok(state) => Ok(Some((profile, state, finished))),
        Err(e) => Err((
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("mock interview {id} was saved by another version and cannot be continued: {e}"),
        )
            .into_response()),
    }
}

async fn save(app: &Shared, id: i64, state: &MockState, finished: bool) -> Result<(), Response> {
    let json = serde_json::to_string(state).unwrap_or_default();
    pages::with_store(app, move |s| s.mock_save(id, &json, finished, &crate::audit::now_rfc3339())).await
}

fn folder(app: &Shared, id: i64) -> PathBuf {
    app.work.join("mock").join(id.to_string())
}

/// `GET /mock/{id}`: the question being asked with its timer, the verdict on the last answer, a
/// hint or the last expert answer when asked for (`?hint=1`, `?expert=1`); once finished, its
/// report in the history.
pub async fn page(
    State(app): State<Shared>,
    headers: HeaderMap,
    q: Query<HashMap<String, String>>,
    UrlPath(id): UrlPath<i64>,
) -> Response {
    let lq = Query(LangQuery { lang: q.get("lang").cloned(), ..Default::default() });
    let (_, state, finished) = match load(&app, id).await {
        Ok(Some(s)) => s,
        Ok(None) => return pages::not_found_page(&app, &headers, &lq),
        Err(r) => return r,
    };
    if finished || state.done() {
        if let Ok(sid) = tokio::fs::read_to_string(folder(&app, id).join("session")).await {
            return Redirect::to(&format!("/sessions/{}", sid.trim())).into_response();
        }
    }
    let kb = app.ctx.load_kb().await.ok();
    let lang = state.lang;
    let last = state.kept().last();
    let verdict = last.map(|a| {
        let c = a.content.as_ref();
        context! {
            question => a.question,
            skipped => a.skipped,
            band => c.map(|c| c.band.clone()),
            score => if state.calm { None } else { c.map(|c| c.overall) },
            missing => c.and_then(|c| c.key_missing.first().cloned()),
            recording => a.recording,
        }
    });
    let hint = q.contains_key("hint").then(|| kb.as_ref().and_then(|k| state.hint(&k.kb))).flatten();
    let expert = q.contains_key("expert").then(|| kb.as_ref().and_then(|k| state.expert(&k.kb))).flatten();
    let planned = state.questions.get(state.current);
    let page_lang = i18n::pick(lq.lang.as_deref(), &headers);
    let dimension = planned.map(|p| {
        let d = kb.as_ref().and_then(|k| k.kb.dimension(&p.dimension).cloned());
        d.map_or(p.dimension.clone(), |d| if page_lang.is_zh() { d.name_zh } else { d.name_en })
    });
    let ctx = context! {
        nav => "mock",
        id => id,
        over => state.done() || finished,
        number => state.current + 1,
        total => state.questions.len(),
        prompt => state.prompt(),
        follow_up => state.follow_up.is_some(),
        dimension => dimension,
        difficulty => planned.map(|p| i18n::strings(page_lang).get(format!("diff_{}", p.difficulty).as_str()).map_or(p.difficulty.clone(), |s| s.to_string())),
        interview_lang => lang.as_str(),
        verdict => verdict,
        hint => hint,
        hint_asked => q.contains_key("hint"),
        expert => expert,
        can_retake => state.kept().next().is_some(),
        answered => state.kept().filter(|a| !a.skipped).count(),
    };
    pages::page(&app, &headers, &lq, "mock.html.j2", StatusCode::OK, ctx)
}

/// `POST /mock/{id}/answer`: score a typed answer, or a spoken one (`recording` names it; `text`
/// is its transcript as the candidate left it), then save.
pub async fn answer(
    State(app): State<Shared>,
    headers: HeaderMap,
    q: Query<LangQuery>,
    UrlPath(id): UrlPath<i64>,
    Form(form): Form<Fields>,
) -> Response {
    let _one = app.mock.lock.lock().await;
    let (profile, mut state, finished) = match load(&app, id).await {
        Ok(Some(s)) => s,
        Ok(None) => return pages::not_found_page(&app, &headers, &q),
        Err(r) => return r,
    };
    if finished || state.done() {
        return Redirect::to(&format!("/mock/{id}")).into_response();
    }
    let text = field(&form, "text").unwrap_or("").trim().to_string();
    let elapsed = elapsed_of(&form);
    let ctx = app.ctx.clone().with_profile(&profile);
    let scored = match field(&form, "recording").filter(|r| !r.is_empty()) {
        Some(rid) => match heard(&app, id, rid, state.lang).await {
            Ok((dir, rec)) => state.answer_heard(&ctx.with_data_root(dir), &text, &rec, rid, elapsed).await,
            Err(e) => Err(e),
        },
        None => state.answer(&ctx, &text, elapsed).await,
    };
    if let Err(e) = scored {
        let why = format!("{}; {}", e.message, e.suggestion);
        return error_page(&app, &headers, &q, StatusCode::UNPROCESSABLE_ENTITY, why);
    }
    if let Some(rid) = field(&form, "recording") {
        // Scored: what was heard is in the session now (the file stays for playback).
        app.mock.heard.lock().unwrap_or_else(|p| p.into_inner()).remove(&format!("{id}/{rid}"));
    }
    after_change(&app, id, &profile, &state).await
}

fn elapsed_of(form: &Fields) -> f64 {
    field(form, "elapsed_s")
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite())
        .unwrap_or(0.0)
        .clamp(0.0, 86_400.0)
}

/// Save, finish when the plan is done, and show the session again.
async fn after_change(app: &Shared, id: i64, profile: &str, state: &MockState) -> Response {
    if let Err(r) = save(app, id, state, false).await {
        return r;
    }
    if state.done() {
        if let Err(r) = finish_session(app, id, profile, state).await {
            return r;
        }
    }
    Redirect::to(&format!("/mock/{id}")).into_response()
}

/// `POST /mock/{id}/skip`, `/retake`, `/finish`: skip the prompt, ask the last one again (both
/// attempts kept), or end now with a report of what was answered.
pub async fn act(
    State(app): State<Shared>,
    headers: HeaderMap,
    q: Query<LangQuery>,
    UrlPath((id, action)): UrlPath<(i64, String)>,
    Form(form): Form<Fields>,
) -> Response {
    let _one = app.mock.lock.lock().await;
    let (profile, mut state, finished) = match load(&app, id).await {
        Ok(Some(s)) => s,
        Ok(None) => return pages::not_found_page(&app, &headers, &q),
        Err(r) => return r,
    };
    if finished {
        return Redirect::to(&format!("/mock/{id}")).into_response();
    }
    match action.as_str() {
        "skip" => state.skip(elapsed_of(&form)),
        "retake" => {
            state.retake();
        }
        "finish" => {
            return match finish_session(&app, id, &profile, &state).await {
                Ok(()) => Redirect::to(&format!("/mock/{id}")).into_response(),
                Err(r) => r,
            }
        }
        _ => return pages::not_found_page(&app, &headers, &q),
    }
    after_change(&app, id, &profile, &state).await
}

/// The final report into the history (as from the terminal); the session is then finished.
async fn finish_session(app: &Shared, id: i64, profile: &str, state: &MockState) -> Result<(), Response> {
    if state.kept().any(|a| !a.skipped) {
        let ctx = app.ctx.clone().with_profile(profile);
        let (report, _) = state.report(&ctx, ReportFormat::Html).await.map_err(|e| {
            (StatusCode::INTERNAL_SERVER_ERROR, format!("the report failed: {}; {}", e.message, e.suggestion))
                .into_response()
        })?;
        if let Some(sid) = super::jobs::session_of(app, profile, &report).await {
            let dir = folder(app, id);
            let written = async {
                tokio::fs::create_dir_all(&dir).await?;
                tokio::fs::write(dir.join("session"), sid.to_string()).await
            }
            .await;
            if let Err(e) = written {
                tracing::warn!("mock {id}: cannot note its session: {e}");
            }
        }
    }
    save(app, id, state, true).await
}

/// `POST /mock/{id}/recording`: a spoken answer (multipart `file`), stored and transcribed at once;
/// JSON `{name, text, duration_s, warnings}` for the page to show and correct.
pub async fn recording(State(app): State<Shared>, UrlPath(id): UrlPath<i64>, form: Multipart) -> Response {
    let fail = |status: StatusCode, message: String| {
        (status, axum::Json(serde_json::json!({ "error": message }))).into_response()
    };
    let state = match load(&app, id).await {
        Ok(Some((_, s, false))) => s,
        Ok(_) => return fail(StatusCode::NOT_FOUND, format!("no mock interview {id} in progress")),
        Err(r) => return r,
    };
    let rid = super::jobs::new_id();
    let dir = folder(&app, id).join(&rid);
    let up = match upload::receive(form, &dir, &app.opts).await {
        Ok(up) if up.recording => up,
        Ok(up) => {
            let _ = tokio::fs::remove_dir_all(&dir).await;
            let why = format!("{} is not a recording; record the answer, or type it", up.name);
            return fail(StatusCode::UNSUPPORTED_MEDIA_TYPE, why);
        }
        Err(Refusal { status, message }) => {
            let _ = tokio::fs::remove_dir_all(&dir).await;
            return fail(status, message);
        }
    };
    let ctx = app.ctx.clone().with_data_root(dir.clone());
    match mock_voice::hear(&ctx, &up.name, state.lang).await {
        Ok(rec) => {
            let body = serde_json::json!({
                "name": rid,
                "text": mock_voice::heard_text(&rec),
                "duration_s": rec.duration_s,
                "warnings": rec.warnings,
            });
            app.mock.heard.lock().unwrap_or_else(|p| p.into_inner()).insert(format!("{id}/{rid}"), Arc::new(rec));
            axum::Json(body).into_response()
        }
        Err(e) => fail(StatusCode::UNPROCESSABLE_ENTITY, format!("{}; {}", e.message, e.suggestion)),
    }
}

/// The recording `rid` of session `id`: its folder and what was heard in it (transcribed again
/// when the server was restarted since).
async fn heard(
    app: &Shared,
    id: i64,
    rid: &str,
    lang: Lang,
) -> Result<(PathBuf, Arc<TranscribeAudioOutput>), crate::tools::ToolError> {
    let missing = || crate::tools::ToolError::input("that recording is gone", "record the answer again, or type it");
    if !rid.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(missing());
    }
    let dir = folder(app, id).join(rid);
    let cached = app.mock.heard.lock().unwrap_or_else(|p| p.into_inner()).get(&format!("{id}/{rid}")).cloned();
    if let Some(rec) = cached {
        return Ok((dir, rec));
    }
    let name = first_file(&dir).ok_or_else(missing)?;
    let rec = mock_voice::hear(&app.ctx.clone().with_data_root(dir.clone()), &name, lang).await?;
    Ok((dir, Arc::new(rec)))
}

fn first_file(dir: &Path) -> Option<String> {
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .find(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
}

/// `GET /mock/{id}/recordings/{rid}`: a stored answer, to play back.
pub async fn audio(State(app): State<Shared>, UrlPath((id, rid)): UrlPath<(i64, String)>) -> Response {
    if !rid.chars().all(|c| c.is_ascii_hexdigit()) {
        return (StatusCode::NOT_FOUND, "no such recording").into_response();
    }
    let dir = folder(&app, id).join(&rid);
    let Some(name) = first_file(&dir) else {
        return (StatusCode::NOT_FOUND, "no such recording").into_response();
    };
    let mime = match Path::new(&name).extension().and_then(|e| e.to_str()).unwrap_or("") {
        "webm" => "audio/webm",
        "ogg" | "oga" | "opus" => "audio/ogg",
        "m4a" | "mp4" | "aac" => "audio/mp4",
        "wav" => "audio/wav",
        "mp3" => "audio/mpeg",
        "flac" => "audio/flac",
        _ => "application/octet-stream",
    };
    match tokio::fs::read(dir.join(&name)).await {
        Ok(bytes) => (StatusCode::OK, [(header::CONTENT_TYPE, mime)], bytes).into_response(),
        Err(_) => (StatusCode::NOT_FOUND, "no such recording").into_response(),
    }
}

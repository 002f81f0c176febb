//! Diagnoses started from the page: the upload, the work (the same skills as `ivd diagnose`, their
//! heavy steps on the blocking pool), progress as Server-Sent Events, the report with its downloads,
//! and a redo with corrected roles. Each job is a folder under the server's work folder with its
//! input, its settings and, once finished, its state and reports: a restart finds them all again.

use std::collections::HashMap;
use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::extract::{Form, Multipart, Path as UrlPath, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Redirect, Response};
use serde::{Deserialize, Serialize};
use tokio::sync::watch;

use super::pages::LangQuery;
use super::upload::{self, Refusal};
use super::Shared;
use crate::report::{Report, ReportFormat};
use crate::skills::{diagnose_audio, diagnose_transcript};
use crate::tools::{Progress, ToolError};
use crate::transcript::roles::RoleHints;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Running,
    Done,
    Failed,
    /// The server stopped while it ran.
    Interrupted,
}

/// How far a job is; sent to the page as it changes.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct JobState {
    pub status: Status,
    pub step: String,
    pub percent: u32,
    #[serde(default)]
    pub message: Option<String>,
    #[serde(default)]
    pub warnings: Vec<String>,
    #[serde(default)]
    pub overall: Option<u32>,
    /// (label, role) per speaker, for the role correction form.
    #[serde(default)]
    pub speakers: Vec<(String, String)>,
    #[serde(default)]
    pub session: Option<i64>,
}

/// What a job was asked to do, kept in its folder as `job.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Spec {
    pub name: String,
    pub recording: bool,
    pub profile: String,
    pub hints: RoleHints,
}

pub struct Job {
    pub dir: PathBuf,
    pub spec: Spec,
    pub state: watch::Sender<JobState>,
}

impl Job {
    fn input_dir(&self) -> PathBuf {
        self.dir.join("input")
    }
}

/// The jobs a previous run left: finished ones as they were, unfinished ones interrupted.
pub fn recover(jobs_dir: &Path) -> HashMap<String, Arc<Job>> {
    let mut found = HashMap::new();
    let Ok(entries) = std::fs::read_dir(jobs_dir) else { return found };
    for e in entries.flatten() {
        let dir = e.path();
        let id = e.file_name().to_string_lossy().into_owned();
        let Some(spec) = read_json::<Spec>(&dir.join("job.json")) else { continue };
        let state = read_json::<JobState>(&dir.join("state.json"))
            .unwrap_or_else(|| JobState { status: Status::Interrupted, ..running("") });
        found.insert(id.clone(), Arc::new(Job { dir, spec, state: watch::Sender::new(state) }));
    }
    found
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Option<T> {
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

fn running(step: &str) -> JobState {
    JobState {
        status: Status::Running,
        step: step.into(),
        percent: 0,
        message: None,
        warnings: Vec::new(),
        overall: None,
        speakers: Vec::new(),
        session: None,
    }
}

pub(super) fn new_id() -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    format!("{:x}{:04x}", nanos, fastrand::u16(..))
}

/// A job id from a URL: only what [`new_id`] makes, so it can never name another folder.
fn job(app: &Shared, id: &str) -> Option<Arc<Job>> {
    if !id.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    app.jobs.lock().unwrap_or_else(|p| p.into_inner()).get(id).cloned()
}

/// `POST /diagnose`: receive the file, start the work, send the browser to the job's page.
pub async fn upload(State(app): State<Shared>, headers: HeaderMap, q: Query<LangQuery>, form: Multipart) -> Response {
    let id = new_id();
    let dir = app.work.join("jobs").join(&id);
    let received = upload::receive(form, &dir.join("input"), &app.opts).await;
    let up = match received {
        Ok(up) => up,
        Err(Refusal { status, message }) => {
            let _ = tokio::fs::remove_dir_all(&dir).await;
            return super::pages::page(
                &app,
                &headers,
                &q,
                "error.html.j2",
                status,
                minijinja::context! { message => message },
            );
        }
    };
    let names = |key: &str| -> Vec<String> {
        up.fields
            .get(key)
            .map(|v| v.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect())
            .unwrap_or_default()
    };
    let profile = up.fields.get("profile").map(|p| p.trim()).filter(|p| !p.is_empty()).unwrap_or(&app.config.profile);
    let spec = Spec {
        name: up.name.clone(),
        recording: up.recording,
        profile: profile.chars().filter(|c| c.is_alphanumeric() || "-_.".contains(*c)).take(64).collect(),
        hints: RoleHints { interviewers: names("interviewer"), candidates: names("candidate") },
    };
    start(&app, id, dir, spec).await
}

async fn start(app: &Shared, id: String, dir: PathBuf, spec: Spec) -> Response {
    let meta = serde_json::to_vec_pretty(&spec).unwrap_or_default();
    if let Err(e) = tokio::fs::write(dir.join("job.json"), meta).await {
        return (StatusCode::INTERNAL_SERVER_ERROR, format!("cannot store the job: {e}")).into_response();
    }
    let job = Arc::new(Job { dir, spec, state: watch::Sender::new(running("")) });
    app.jobs.lock().unwrap_or_else(|p| p.into_inner()).insert(id.clone(), job.clone());
    let app = app.clone();
    tokio::spawn(async move {
        let outcome = run(&app, &job).await;
        finish(&app, &job, outcome).await;
    });
    Redirect::to(&format!("/jobs/{id}")).into_response()
}

type Outcome = Result<(Report, Vec<String>), ToolError>;

async fn run(app: &Shared, job: &Job) -> Outcome {
    let mut ctx = app.ctx.clone().with_data_root(job.input_dir()).with_profile(&job.spec.profile);
    ctx.cancel = tokio_util::sync::CancellationToken::new();
    let tx = job.state.clone();
    ctx.progress = Some(Progress(Arc::new(move |step: &str, f: f64| {
        tx.send_modify(|s| {
            s.step = step.to_string();
            s.percent = (f.clamp(0.0, 1.0) * 100.0).round() as u32;
        });
    })));
    let name = job.spec.name.as_str();
    let html = ReportFormat::Html;
    if job.spec.recording {
        let audio = diagnose_audio::AudioOptions::default();
        let (report, _, warnings) = diagnose_audio::run(&ctx, name, name, html, None, &job.spec.hints, &audio).await?;
        Ok((report, warnings))
    } else {
        job.state.send_modify(|s| s.step = "scoring".into());
        let (report, _) = diagnose_transcript::run(&ctx, name, name, html, None, &job.spec.hints).await?;
        Ok((report, Vec::new()))
    }
}

/// Write the reports and the final state into the job's folder, then tell the page.
async fn finish(app: &Shared, job: &Job, outcome: Outcome) {
    let mut state = job.state.borrow().clone();
    match outcome {
        Ok((report, warnings)) => {
            let ctx = app.ctx.clone();
            let saved = render_all(&ctx, &report, &job.dir).await;
            state.status = if saved.is_ok() { Status::Done } else { Status::Failed };
            state.message = saved.err();
            state.percent = 100;
            state.warnings = warnings;
            state.overall = Some(report.summary.overall_score);
            state.speakers =
                report.speakers.iter().map(|s| (s.name.clone().unwrap_or(s.id.clone()), role_name(s.role))).collect();
            state.session = session_of(app, &job.spec.profile, &report).await;
        }
        Err(e) => {
            state.status = Status::Failed;
            state.message = Some(format!("{}. {}", e.message, e.suggestion));
        }
    }
    let _ = tokio::fs::write(job.dir.join("state.json"), serde_json::to_vec_pretty(&state).unwrap_or_default()).await;
    job.state.send_replace(state);
}

fn role_name(r: crate::transcript::roles::Role) -> String {
    serde_json::to_value(r).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

async fn render_all(ctx: &crate::tools::ToolContext, report: &Report, dir: &Path) -> Result<(), String> {
    for format in [ReportFormat::Html, ReportFormat::Md, ReportFormat::Json] {
        let c = ctx.clone();
        let r = report.clone();
        let text = ctx
            .blocking(move || crate::tools::render_report::render(&c, &r, format))
            .await
            .map_err(|e| format!("cannot render the report: {}", e.message))?;
        let path = dir.join(format!("report.{}", format.extension()));
        crate::skills::batch::write_atomic(&path, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// The history row a report was stored as: the newest of its profile with its source.
pub(super) async fn session_of(app: &Shared, profile: &str, report: &Report) -> Option<i64> {
    let home = app.config.home.clone();
    let (profile, source) = (profile.to_string(), report.source.path.clone());
    let at = report.meta.generated_at.clone();
    tokio::task::spawn_blocking(move || {
        let store = crate::store::Store::open(&home).ok()?;
        let rows = store.sessions(Some(&profile)).ok()?;
        rows.into_iter().find(|r| r.source == source && *r.created_at >= *at.get(..19).unwrap_or("")).map(|r| r.id)
    })
    .await
    .ok()
    .flatten()
}

/// `GET /jobs/{id}`: progress while it runs, the report once done, the reason if it failed.
pub async fn page(
    State(app): State<Shared>,
    headers: HeaderMap,
    q: Query<LangQuery>,
    UrlPath(id): UrlPath<String>,
) -> Response {
    let Some(job) = job(&app, &id) else {
        return super::pages::not_found_page(&app, &headers, &q);
    };
    let state = job.state.borrow().clone();
    if state.status == Status::Done {
        if let Ok(html) = tokio::fs::read_to_string(job.dir.join("report.html")).await {
            let bar = super::pages::render_fragment(
                &app,
                &headers,
                &q,
                "job_bar.html.j2",
                minijinja::context! { id => id, state => state, token => app.token },
            );
            return super::pages::html(StatusCode::OK, super::pages::with_bar(&html, &bar));
        }
    }
    page_of(&app, &headers, &q, "job.html.j2", minijinja::context! { id => id, state => state, name => job.spec.name })
}

fn page_of(app: &Shared, headers: &HeaderMap, q: &Query<LangQuery>, name: &str, ctx: minijinja::Value) -> Response {
    super::pages::page(app, headers, q, name, StatusCode::OK, ctx)
}

/// `GET /jobs/{id}/events`: the job's state each time it changes, until it ends.
pub async fn events(State(app): State<Shared>, UrlPath(id): UrlPath<String>) -> Response {
    let Some(job) = job(&app, &id) else {
        return (StatusCode::NOT_FOUND, "no such job").into_response();
    };
    let rx = job.state.subscribe();
    let stream = futures::stream::unfold((rx, false), |(mut rx, ended)| async move {
        if ended {
            return None;
        }
        let state = rx.borrow_and_update().clone();
        let last = state.status != Status::Running;
        let event = Event::default().event("state").json_data(&state).unwrap_or_default();
        if !last {
            // The job ends by sending a final state; a dropped sender ends the stream too.
            if rx.changed().await.is_err() {
                return Some((Ok::<Event, Infallible>(event), (rx, true)));
            }
        }
        Some((Ok(event), (rx, last)))
    });
    Sse::new(stream).keep_alive(KeepAlive::default()).into_response()
}

/// `GET /jobs/{id}/report.{md,html,json}`: the report as a download.
pub async fn report(State(app): State<Shared>, UrlPath((id, ext)): UrlPath<(String, String)>) -> Response {
    let Some(job) = job(&app, &id) else {
        return (StatusCode::NOT_FOUND, "no such job").into_response();
    };
    let Some((format, mime)) = super::pages::format_of(&ext) else {
        return (StatusCode::NOT_FOUND, "reports come as .md, .html or .json").into_response();
    };
    match tokio::fs::read(job.dir.join(format!("report.{}", format.extension()))).await {
        Ok(bytes) => {
            let stem =
                Path::new(&job.spec.name).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            super::pages::download(bytes, mime, &format!("{stem}.report.{}", format.extension()))
        }
        Err(_) => (StatusCode::NOT_FOUND, "this job has no report (yet)").into_response(),
    }
}

/// `POST /jobs/{id}/redo`: the same input again, with the roles the user set (`label_N` names a
/// speaker, `role_N` its role).
pub async fn redo(
    State(app): State<Shared>,
    UrlPath(id): UrlPath<String>,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let Some(old) = job(&app, &id) else {
        return (StatusCode::NOT_FOUND, "no such job").into_response();
    };
    let mut hints = RoleHints::default();
    for (key, label) in &form {
        let Some(n) = key.strip_prefix("label_") else { continue };
        match form.get(&format!("role_{n}")).map(String::as_str) {
            Some("interviewer") => hints.interviewers.push(label.trim().to_string()),
            Some("candidate") => hints.candidates.push(label.trim().to_string()),
            _ => {}
        }
    }
    let new = new_id();
    let dir = app.work.join("jobs").join(&new);
    let input = dir.join("input");
    let copied = async {
        tokio::fs::create_dir_all(&input).await?;
        tokio::fs::copy(old.input_dir().join(&old.spec.name), input.join(&old.spec.name)).await
    }
    .await;
    if let Err(e) = copied {
        return (StatusCode::INTERNAL_SERVER_ERROR, format!("cannot copy the input: {e}")).into_response();
    }
    start(&app, new, dir, Spec { hints, ..old.spec.clone() }).await
}

/// Header for a download.
pub fn disposition(name: &str) -> String {
    let safe: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || ".-_".contains(c) { c } else { '_' }).collect();
    format!("attachment; filename=\"{safe}\"")
}

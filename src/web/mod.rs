//! `ivd serve`: the local web console. A front end beside the CLI, under the same rules: it calls
//! skills and tools for the work, the store for the history, and renders pages through minijinja
//! templates compiled into the binary (`prompts/web/`). Nothing is fetched from the internet.
//!
//! Why axum: it runs on the tokio runtime the CLI already starts and on the hyper/tower stack that
//! reqwest already brings, so the console costs one small crate; pages are rendered on the server
//! and the little JavaScript there is (progress, theme, timer) is plain and vendored.

mod guard;
mod i18n;
mod jobs;
mod mock;
mod pages;
mod upload;

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;

use crate::config::Config;
use crate::tools::ToolContext;

/// Largest recording an upload may carry by default (a long panel interview in WAV fits).
pub const DEFAULT_MAX_RECORDING: u64 = 1 << 30;
/// Largest transcript or document by default.
pub const DEFAULT_MAX_TEXT: u64 = 20 << 20;

#[derive(Debug, Clone)]
pub struct ServeOptions {
    pub host: IpAddr,
    /// 0 picks a free port.
    pub port: u16,
    pub max_recording: u64,
    pub max_text: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum WebError {
    #[error("cannot listen on {addr}: {message}; pick another port with --port")]
    Bind { addr: String, message: String },
    #[error("cannot prepare the server's folder {dir}: {message}")]
    Folder { dir: String, message: String },
    #[error("the server stopped: {0}")]
    Serve(String),
}

/// What every request can reach: the settings, one tool context (so the knowledge base and the
/// models load once), the launch token and the running diagnoses.
pub(crate) struct App {
    pub config: Arc<Config>,
    pub ctx: ToolContext,
    pub token: String,
    /// `Host` values this server answers to (DNS rebinding is refused).
    pub hosts: Vec<String>,
    pub opts: ServeOptions,
    /// Uploads and job results live here, under the home: nothing is written elsewhere.
    pub work: PathBuf,
    pub jobs: Mutex<HashMap<String, Arc<jobs::Job>>>,
    pub mock: mock::Runtime,
}

pub(crate) type Shared = Arc<App>;

/// The server, bound and ready: its address and the URL to open (with the launch token).
pub struct Bound {
    pub addr: SocketAddr,
    pub url: String,
    listener: tokio::net::TcpListener,
    app: Shared,
}

/// Bind the address and prepare the folder; the caller prints the URL, then calls [`Bound::run`].
pub async fn bind(config: Arc<Config>, opts: ServeOptions) -> Result<Bound, WebError> {
    let want = SocketAddr::new(opts.host, opts.port);
    let listener = tokio::net::TcpListener::bind(want)
        .await
        .map_err(|e| WebError::Bind { addr: want.to_string(), message: e.to_string() })?;
    let addr = listener.local_addr().map_err(|e| WebError::Bind { addr: want.to_string(), message: e.to_string() })?;
    let work = config.home.join("serve");
    let folder = |e: std::io::Error| WebError::Folder { dir: work.display().to_string(), message: e.to_string() };
    std::fs::create_dir_all(work.join("jobs")).map_err(folder)?;
    let token = guard::new_token();
    let hosts = guard::allowed_hosts(&addr);
    let jobs = jobs::recover(&work.join("jobs"));
    let ctx = ToolContext::new(config.clone());
    let app = Arc::new(App {
        config,
        ctx,
        token: token.clone(),
        hosts,
        opts,
        work,
        jobs: Mutex::new(jobs),
        mock: Default::default(),
    });
    let shown = if addr.ip().is_unspecified() { SocketAddr::new([127, 0, 0, 1].into(), addr.port()) } else { addr };
    let url = format!("http://{shown}/?token={token}");
    Ok(Bound { addr, url, listener, app })
}

impl Bound {
    /// Serve until Ctrl-C (or the process is killed: every finished session is already stored).
    pub async fn run(self) -> Result<(), WebError> {
        let app = self.app.clone();
        // Warm the knowledge base in the background so the first diagnosis does not wait for it.
        let ctx = app.ctx.clone();
        tokio::spawn(async move {
            let _ = ctx.load_kb().await;
        });
        let router = router(app);
        axum::serve(self.listener, router.into_make_service_with_connect_info::<SocketAddr>())
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(|e| WebError::Serve(e.to_string()))
    }
}

/// Forms without a file (an answer, roles, settings) are read whole: they get a small limit.
fn small() -> DefaultBodyLimit {
    DefaultBodyLimit::max(1 << 20)
}

fn router(app: Shared) -> Router {
    // Uploads are streamed to disk and counted there; this limit only has to let the largest through.
    let body_limit = app.opts.max_recording.max(app.opts.max_text).saturating_add(1 << 20);
    Router::new()
        .route("/", get(pages::home))
        .route("/diagnose", post(jobs::upload))
        .route("/jobs/{id}", get(jobs::page))
        .route("/jobs/{id}/events", get(jobs::events))
        .route("/jobs/{id}/redo", post(jobs::redo).layer(small()))
        .route("/jobs/{id}/report.{ext}", get(jobs::report))
        .route("/history", get(pages::history))
        .route("/sessions/{id}", get(pages::session))
        .route("/sessions/{id}/report.{ext}", get(pages::session_download))
        .route("/sessions/{id}/delete", post(pages::delete_session))
        .route("/mock", get(mock::setup).post(mock::start).layer(small()))
        .route("/mock/{id}", get(mock::page))
        .route("/mock/{id}/answer", post(mock::answer).layer(small()))
        .route("/mock/{id}/recording", post(mock::recording))
        .route("/mock/{id}/recordings/{rid}", get(mock::audio))
        .route("/mock/{id}/{action}", post(mock::act).layer(small()))
        .route("/kb", get(pages::kb_search))
        .route("/kb/{id}", get(pages::kb_entry))
        .route("/status", get(pages::status))
        .route("/assets/{name}", get(pages::asset))
        .route("/favicon.ico", get(pages::favicon))
        .fallback(pages::not_found)
        .layer(axum::middleware::from_fn_with_state(app.clone(), guard::check))
        .layer(DefaultBodyLimit::max(usize::try_from(body_limit).unwrap_or(usize::MAX)))
        .with_state(app)
}

//! The pages: home (the upload form), history (sessions, trend, delete), a stored session's report
//! and its downloads, the knowledge base (search, entry) and status; plus the shared rendering.

use std::sync::OnceLock;

use axum::extract::{Path as UrlPath, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use minijinja::{context, AutoEscape, Environment, Value};
use serde::Deserialize;

use super::{i18n, Shared};
use crate::kb::search::{SearchMode, SearchOptions};
use crate::lang::Lang;
use crate::report::{Report, ReportFormat};

const TEMPLATES: &[(&str, &str)] = &[
    ("base.html.j2", include_str!("../../prompts/web/base.html.j2")),
    ("home.html.j2", include_str!("../../prompts/web/home.html.j2")),
    ("job.html.j2", include_str!("../../prompts/web/job.html.j2")),
    ("job_bar.html.j2", include_str!("../../prompts/web/job_bar.html.j2")),
    ("error.html.j2", include_str!("../../prompts/web/error.html.j2")),
    ("history.html.j2", include_str!("../../prompts/web/history.html.j2")),
    ("kb.html.j2", include_str!("../../prompts/web/kb.html.j2")),
    ("entry.html.j2", include_str!("../../prompts/web/entry.html.j2")),
    ("status.html.j2", include_str!("../../prompts/web/status.html.j2")),
    ("mock_setup.html.j2", include_str!("../../prompts/web/mock_setup.html.j2")),
    ("mock.html.j2", include_str!("../../prompts/web/mock.html.j2")),
];

const ASSETS: &[(&str, &str, &str)] = &[
    ("app.css", "text/css; charset=utf-8", include_str!("../../prompts/web/app.css")),
    ("app.js", "text/javascript; charset=utf-8", include_str!("../../prompts/web/app.js")),
    ("mock.js", "text/javascript; charset=utf-8", include_str!("../../prompts/web/mock.js")),
    ("icon.svg", "image/svg+xml", include_str!("../../prompts/web/icon.svg")),
];

#[derive(Debug, Default, Deserialize)]
pub struct LangQuery {
    pub lang: Option<String>,
    pub q: Option<String>,
    pub profile: Option<String>,
}

fn env() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        env.set_auto_escape_callback(|_| AutoEscape::Html);
        env.set_trim_blocks(true);
        env.set_lstrip_blocks(true);
        for (name, source) in TEMPLATES {
            // The templates are compiled in and rendered by a test: a broken one fails there.
            if let Err(e) = env.add_template(name, source) {
                tracing::error!("web template {name}: {e}");
            }
        }
        env
    })
}

/// A page in the request's language, with the layout's context (strings, token, language).
pub fn page(
    app: &Shared,
    headers: &HeaderMap,
    q: &Query<LangQuery>,
    name: &str,
    status: StatusCode,
    ctx: Value,
) -> Response {
    let lang = i18n::pick(q.lang.as_deref(), headers);
    let body = render(app, lang, name, ctx);
    let mut resp = html(status, body);
    if let Some(l) = q.lang.as_deref().filter(|l| matches!(*l, "zh" | "en")) {
        if let Ok(v) = HeaderValue::from_str(&format!("{}={l}; SameSite=Strict; Path=/", i18n::COOKIE)) {
            resp.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    resp
}

fn render(app: &Shared, lang: Lang, name: &str, ctx: Value) -> String {
    let base = context! { t => i18n::strings(lang), lang => lang.as_str(), token => app.token };
    let merged = context! { ..ctx, ..base };
    match env().get_template(name).and_then(|t| t.render(merged)) {
        Ok(s) => s,
        Err(e) => format!("<!doctype html><title>error</title><p>template {name} failed: {e}</p>"),
    }
}

/// A piece of a page (no layout).
pub fn render_fragment(app: &Shared, headers: &HeaderMap, q: &Query<LangQuery>, name: &str, ctx: Value) -> String {
    render(app, i18n::pick(q.lang.as_deref(), headers), name, ctx)
}

pub fn html(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response()
}

/// The report's own HTML with the console's bar put in at the top of its body.
pub fn with_bar(report_html: &str, bar: &str) -> String {
    match report_html.find("<body>") {
        Some(i) => format!("{}{bar}{}", &report_html[..i + 6], &report_html[i + 6..]),
        None => format!("{bar}{report_html}"),
    }
}

pub fn format_of(ext: &str) -> Option<(ReportFormat, &'static str)> {
    match ext {
        "md" => Some((ReportFormat::Md, "text/markdown; charset=utf-8")),
        "html" => Some((ReportFormat::Html, "text/html; charset=utf-8")),
        "json" => Some((ReportFormat::Json, "application/json")),
        _ => None,
    }
}

pub fn download(bytes: Vec<u8>, mime: &'static str, name: &str) -> Response {
    let disposition = super::jobs::disposition(name);
    let mut resp = (StatusCode::OK, [(header::CONTENT_TYPE, mime)], bytes).into_response();
    if let Ok(v) = HeaderValue::from_str(&disposition) {
        resp.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    resp
}

pub fn not_found_page(app: &Shared, headers: &HeaderMap, q: &Query<LangQuery>) -> Response {
    page(app, headers, q, "error.html.j2", StatusCode::NOT_FOUND, context! { message => Value::from(()) })
}

pub async fn not_found(State(app): State<Shared>, headers: HeaderMap, q: Query<LangQuery>) -> Response {
    not_found_page(&app, &headers, &q)
}

pub async fn asset(UrlPath(name): UrlPath<String>) -> Response {
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        Some((_, mime, body)) => {
            (StatusCode::OK, [(header::CONTENT_TYPE, *mime), (header::CACHE_CONTROL, "no-cache")], *body)
                .into_response()
        }
        None => (StatusCode::NOT_FOUND, "no such asset").into_response(),
    }
}

/// Browsers ask for `/favicon.ico` on every page, the reports' too.
pub async fn favicon() -> Response {
    asset(UrlPath("icon.svg".to_string())).await
}

pub async fn home(State(app): State<Shared>, headers: HeaderMap, q: Query<LangQuery>) -> Response {
    let ctx = context! {
        nav => "diagnose",
        profile => app.config.profile,
        max_recording_mib => app.opts.max_recording >> 20,
        max_text_mib => app.opts.max_text >> 20,
    };
    page(&app, &headers, &q, "home.html.j2", StatusCode::OK, ctx)
}

/// Blocking store work off the async workers, its error as a 500 page.
pub(super) async fn with_store<T: Send + 'static>(
    app: &Shared,
    work: impl FnOnce(&mut crate::store::Store) -> Result<T, crate::store::StoreError> + Send + 'static,
) -> Result<T, Response> {
    let home = app.config.home.clone();
    let r = tokio::task::spawn_blocking(move || crate::store::Store::open(&home).and_then(|mut s| work(&mut s))).await;
    match r {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => {
            Err((StatusCode::INTERNAL_SERVER_ERROR, format!("the history cannot be read: {e}")).into_response())
        }
        Err(e) => Err((StatusCode::INTERNAL_SERVER_ERROR, format!("the history cannot be read: {e}")).into_response()),
    }
}

pub async fn history(State(app): State<Shared>, headers: HeaderMap, q: Query<LangQuery>) -> Response {
    let lang = i18n::pick(q.lang.as_deref(), &headers);
    let profile = q.profile.clone().filter(|p| !p.is_empty()).unwrap_or_else(|| app.config.profile.clone());
    let p = profile.clone();
    let data = with_store(&app, move |s| {
        let all = s.sessions(None)?;
        let trend = s.trend(&p)?;
        Ok((all, trend))
    })
    .await;
    let (all, trend) = match data {
        Ok(d) => d,
        Err(r) => return r,
    };
    let mut profiles: Vec<String> = all.iter().map(|r| r.profile.clone()).collect();
    profiles.push(profile.clone());
    profiles.sort();
    profiles.dedup();
    let rows: Vec<Value> = all
        .iter()
        .filter(|r| r.profile == profile)
        .map(|r| {
            context! { id => r.id, at => r.created_at.get(..16).unwrap_or(&r.created_at).replace('T', " "), kind => r.kind,
            source => r.source, overall => r.overall, band => crate::scoring::text::band(r.overall, lang), questions => r.questions }
        })
        .collect();
    let t = i18n::strings(lang);
    let trend_svg = (trend.len() >= 2).then(|| {
        crate::report::charts::trend(
            &trend,
            [t["overall"], t["completeness"], t["depth"], t["accuracy"], t["practicality"]],
        )
    });
    let ctx = context! { nav => "history", rows => rows, profiles => profiles, profile => profile, trend_svg => trend_svg.map(Value::from_safe_string) };
    page(&app, &headers, &q, "history.html.j2", StatusCode::OK, ctx)
}

async fn stored_report(app: &Shared, id: i64) -> Result<Report, Response> {
    let json = with_store(app, move |s| s.session_report(id)).await?;
    let Some(json) = json else {
        return Err((StatusCode::NOT_FOUND, format!("no session {id}")).into_response());
    };
    serde_json::from_str::<Report>(&json).map_err(|e| {
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("session {id} was stored by another version and cannot be shown: {e}"),
        )
            .into_response()
    })
}

async fn rendered(app: &Shared, report: Report, format: ReportFormat) -> Result<String, Response> {
    let ctx = app.ctx.clone();
    app.ctx
        .blocking(move || crate::tools::render_report::render(&ctx, &report, format))
        .await
        .map_err(|e| (StatusCode::INTERNAL_SERVER_ERROR, format!("{}; {}", e.message, e.suggestion)).into_response())
}

pub async fn session(
    State(app): State<Shared>,
    headers: HeaderMap,
    q: Query<LangQuery>,
    UrlPath(id): UrlPath<i64>,
) -> Response {
    let report = match stored_report(&app, id).await {
        Ok(r) => r,
        Err(_) => return not_found_page(&app, &headers, &q),
    };
    match rendered(&app, report, ReportFormat::Html).await {
        Ok(body) => {
            let bar = render_fragment(&app, &headers, &q, "job_bar.html.j2", context! { session => id });
            html(StatusCode::OK, with_bar(&body, &bar))
        }
        Err(r) => r,
    }
}

pub async fn session_download(State(app): State<Shared>, UrlPath((id, ext)): UrlPath<(i64, String)>) -> Response {
    let Some((format, mime)) = format_of(&ext) else {
        return (StatusCode::NOT_FOUND, "reports come as .md, .html or .json").into_response();
    };
    let report = match stored_report(&app, id).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    match rendered(&app, report, format).await {
        Ok(body) => download(body.into_bytes(), mime, &format!("session-{id}.report.{ext}")),
        Err(r) => r,
    }
}

pub async fn delete_session(State(app): State<Shared>, UrlPath(id): UrlPath<i64>) -> Response {
    match with_store(&app, move |s| s.delete_session(id)).await {
        Ok(true) => Redirect::to("/history").into_response(),
        Ok(false) => (StatusCode::NOT_FOUND, format!("no session {id}")).into_response(),
        Err(r) => r,
    }
}

pub async fn kb_search(State(app): State<Shared>, headers: HeaderMap, q: Query<LangQuery>) -> Response {
    let query = q.q.clone().unwrap_or_default();
    let hits = if query.trim().is_empty() {
        Ok(Vec::new())
    } else {
        let ctx = app.ctx.clone();
        let qq = query.clone();
        app.ctx
            .blocking(move || {
                let kb = ctx.kb()?;
                let opts = SearchOptions { top_k: 10, dimension: None, mode: SearchMode::Hybrid };
                kb.search(&qq, &opts).map_err(crate::tools::ToolError::from)
            })
            .await
    };
    let hits = match hits {
        Ok(h) => h,
        Err(e) => {
            return page(
                &app,
                &headers,
                &q,
                "error.html.j2",
                StatusCode::SERVICE_UNAVAILABLE,
                context! { message => format!("{}; {}", e.message, e.suggestion) },
            )
        }
    };
    // Each hit's question in the page's language.
    let lang = i18n::pick(q.lang.as_deref(), &headers);
    let kb = app.ctx.load_kb().await.ok();
    let hits: Vec<Value> = hits
        .iter()
        .map(|h| {
            let question =
                kb.as_ref().and_then(|k| k.kb.get(&h.id)).map_or(h.question.as_str(), |e| e.question_in(lang));
            context! { id => h.id, dimension => h.dimension, question => question }
        })
        .collect();
    let ctx = context! { nav => "kb", query => query, hits => hits, searched => !query.trim().is_empty() };
    page(&app, &headers, &q, "kb.html.j2", StatusCode::OK, ctx)
}

pub async fn kb_entry(
    State(app): State<Shared>,
    headers: HeaderMap,
    q: Query<LangQuery>,
    UrlPath(id): UrlPath<String>,
) -> Response {
    let lang = i18n::pick(q.lang.as_deref(), &headers);
    let kb = match app.ctx.load_kb().await {
        Ok(kb) => kb,
        Err(e) => {
            return page(
                &app,
                &headers,
                &q,
                "error.html.j2",
                StatusCode::SERVICE_UNAVAILABLE,
                context! { message => e.message },
            )
        }
    };
    let Some(e) = kb.kb.get(&id) else {
        return not_found_page(&app, &headers, &q);
    };
    let ctx = context! {
        nav => "kb",
        id => e.id,
        dimension => e.dimension,
        difficulty => e.difficulty,
        question => e.question_in(lang),
        expert => e.expert_in(lang),
        novice => e.novice_in(lang),
        gap => e.gap_in(lang),
        follow_ups => e.follow_ups_in(lang),
        key_points => e.key_points.iter().map(|k| k.point_in(lang).to_string()).collect::<Vec<_>>(),
    };
    page(&app, &headers, &q, "entry.html.j2", StatusCode::OK, ctx)
}

pub async fn status(State(app): State<Shared>, headers: HeaderMap, q: Query<LangQuery>) -> Response {
    let config = app.config.clone();
    let facts = tokio::task::spawn_blocking(move || {
        let models = crate::models::Models::new(&config);
        let files = models.verify_all().map(|f| (f.len(), f.iter().filter(|(_, r)| r.is_err()).count()));
        let kb = crate::kb::KnowledgeBase::load(config.kb_dir.as_deref()).map(|kb| kb.entries.len());
        (models.dir.display().to_string(), files.map_err(|e| e.to_string()), kb.map_err(|e| e.to_string()))
    })
    .await;
    let Ok((models_dir, files, kb)) = facts else {
        return (StatusCode::INTERNAL_SERVER_ERROR, "the status check failed").into_response();
    };
    let llm = &app.config.llm;
    let skills = crate::skills::registry::SkillSet::load(
        &crate::skills::registry::SkillSet::user_dirs(&app.config.home, &app.config.data_root),
        &app.config.skills_disabled,
    );
    let (answers, llm_error, latency_ms) = probe_llm(llm).await;
    let ctx = context! {
        nav => "status",
        skills => skills.skills.iter().map(|s| s.name().to_string()).collect::<Vec<_>>(),
        skills_disabled => skills.disabled,
        skill_problems => skills.problems.iter().map(|p| format!("{}: {}", p.path.display(), p.message)).collect::<Vec<_>>(),
        llm_answers => answers,
        llm_error => llm_error,
        llm_latency_ms => latency_ms,
        home => app.config.home.display().to_string(),
        models_dir => models_dir,
        model_files => files.as_ref().ok().map(|f| f.0),
        model_bad => files.as_ref().ok().map(|f| f.1),
        model_error => files.err(),
        kb_entries => kb.as_ref().ok(),
        kb_error => kb.err(),
        kb_dir => app.config.kb_dir.as_ref().map(|d| d.display().to_string()),
        llm_configured => llm.configured(),
        llm_model => llm.configured().then(|| llm.model_name()),
        llm_url => llm.base_url,
    };
    page(&app, &headers, &q, "status.html.j2", StatusCode::OK, ctx)
}

/// Whether the configured endpoint answers, as `ivd doctor` asks it: (answers, error, latency).
async fn probe_llm(settings: &crate::config::LlmSettings) -> (bool, Option<String>, Option<u64>) {
    match crate::llm::LlmClient::from_settings(settings) {
        Err(e) => (false, Some(e.to_string()), None),
        Ok(None) => (false, None, None),
        Ok(Some(client)) => {
            let started = std::time::Instant::now();
            match client.probe().await {
                Ok(_) => (true, None, Some(started.elapsed().as_millis() as u64)),
                Err(e) => (false, Some(e), None),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_compiles() {
        for (name, _) in TEMPLATES {
            assert!(env().get_template(name).is_ok(), "{name}");
        }
        assert_eq!(with_bar("<html><body><p>x</p></body>", "<nav/>"), "<html><body><nav/><p>x</p></body>");
    }
}

//! What every request passes before a handler sees it: the `Host` must be this server's (a page
//! elsewhere cannot rebind a name to 127.0.0.1 and read our answers), the launch token must come
//! with it (once in the URL, then as a same-site cookie), and a request that changes anything must
//! also carry the token itself and come from our own origin. No CORS headers are ever sent.

use std::net::SocketAddr;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::Shared;

pub const COOKIE: &str = "ivd_token";
/// Header a script sends the token in; forms carry it as the `token` query parameter.
pub const TOKEN_HEADER: &str = "x-ivd-token";

/// A fresh token per launch, from the kernel's random source.
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut f| std::io::Read::read_exact(&mut f, &mut bytes));
    if read.is_err() {
        // No /dev/urandom (not Linux): the time and the process, hashed, are still unguessable enough
        // for a server that only answers on loopback.
        let seed = format!("{:?}{}{}", std::time::SystemTime::now(), std::process::id(), fastrand::u64(..));
        let h = crate::digest::bytes(seed.as_bytes());
        return h[..32].to_string();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The `Host` values a browser sends for this address.
pub fn allowed_hosts(addr: &SocketAddr) -> Vec<String> {
    let port = addr.port();
    let mut hosts = vec![format!("127.0.0.1:{port}"), format!("localhost:{port}"), format!("[::1]:{port}")];
    if !addr.ip().is_loopback() && !addr.ip().is_unspecified() {
        hosts.push(match addr {
            SocketAddr::V4(a) => format!("{}:{port}", a.ip()),
            SocketAddr::V6(a) => format!("[{}]:{port}", a.ip()),
        });
    }
    hosts
}

pub async fn check(State(app): State<Shared>, req: Request, next: Next) -> Response {
    let headers = req.headers();
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    if !app.hosts.iter().any(|h| h.eq_ignore_ascii_case(host)) {
        return refuse(StatusCode::FORBIDDEN, "this server answers only to its own address");
    }
    let in_query = query_token(req.uri().query()).is_some_and(|t| same(&t, &app.token));
    let in_header = headers.get(TOKEN_HEADER).and_then(|v| v.to_str().ok()).is_some_and(|t| same(t, &app.token));
    let in_cookie = cookie_token(headers).is_some_and(|t| same(&t, &app.token));
    let changes = !matches!(*req.method(), Method::GET | Method::HEAD);
    if changes {
        if !(in_query || in_header) {
            return refuse(StatusCode::FORBIDDEN, "this request needs the session token; reload the page");
        }
        if let Some(origin) = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) {
            let ours = app.hosts.iter().any(|h| origin.eq_ignore_ascii_case(&format!("http://{h}")));
            if !ours {
                return refuse(StatusCode::FORBIDDEN, "requests from other sites are refused");
            }
        }
    } else if !(in_query || in_header || in_cookie) {
        return refuse(
            StatusCode::FORBIDDEN,
            "open the address `ivd serve` printed (it carries this launch's token); a new launch needs a new address",
        );
    }
    let mut resp = next.run(req).await;
    let h = resp.headers_mut();
    if in_query && !in_cookie {
        let cookie = format!("{COOKIE}={}; HttpOnly; SameSite=Strict; Path=/", app.token);
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            h.append(header::SET_COOKIE, v);
        }
    }
    secure_headers(h);
    resp
}

/// Our pages load nothing from elsewhere and are never framed by another site.
fn secure_headers(h: &mut HeaderMap) {
    let csp = "default-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'; form-action 'self'";
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(csp));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    // Not "no-referrer": with it a browser sends `Origin: null` on our own form posts.
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("same-origin"));
}

fn refuse(status: StatusCode, why: &str) -> Response {
    let mut resp = (status, format!("{why}\n")).into_response();
    secure_headers(resp.headers_mut());
    resp
}

fn query_token(query: Option<&str>) -> Option<String> {
    query?.split('&').find_map(|kv| kv.strip_prefix("token=").map(str::to_string))
}

fn cookie_token(headers: &HeaderMap) -> Option<String> {
    headers.get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok()).find_map(|v| {
        v.split(';').map(str::trim).find_map(|kv| kv.strip_prefix(&format!("{COOKIE}=")).map(str::to_string))
    })
}

/// Compared in constant time: the token is a secret.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_fresh_and_read_back() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        assert_eq!(query_token(Some(&format!("x=1&token={a}"))).as_deref(), Some(a.as_str()));
        let mut h = HeaderMap::new();
        h.insert(header::COOKIE, HeaderValue::from_str(&format!("theme=dark; {COOKIE}={a}")).unwrap());
        assert_eq!(cookie_token(&h).as_deref(), Some(a.as_str()));
        assert!(same(&a, &a) && !same(&a, &b) && !same(&a, "short"));
    }
}

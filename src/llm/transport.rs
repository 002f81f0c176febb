//! The HTTP layer under async-openai: one attempt at a time with its own time limit, retries on
//! 429, 5xx, time-outs and refused connections with exponential backoff and jitter (or the server's
//! `Retry-After`), and at most `concurrency` requests in flight. async-openai's own retry layer
//! has no jitter and does not retry time-outs, hence this one.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use async_openai::error::OpenAIError;
use async_openai::middleware::HttpRequestFactory;
use reqwest::header::{HeaderMap, RETRY_AFTER};
use reqwest::Response;
use tokio::sync::Semaphore;

/// First backoff step; doubled per retry (0.5, 1, 2, 4 s ...), half of it jittered.
const BACKOFF_BASE: Duration = Duration::from_millis(500);
const BACKOFF_CAP: Duration = Duration::from_secs(20);
/// A `Retry-After` longer than this is not waited for: the request fails and the caller falls back.
const RETRY_AFTER_CAP: Duration = Duration::from_secs(60);

#[derive(Clone)]
pub(crate) struct Transport {
    http: reqwest::Client,
    retries: u32,
    limit: Arc<Semaphore>,
    /// HTTP attempts made, retries included (for `doctor`, tests and the benchmark).
    pub(crate) attempts: Arc<AtomicU64>,
}

impl Transport {
    pub(crate) fn new(timeout: Duration, retries: u32, concurrency: usize) -> Result<Transport, String> {
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout.min(Duration::from_secs(10)))
            .build()
            .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
        Ok(Transport {
            http,
            retries,
            limit: Arc::new(Semaphore::new(concurrency.max(1))),
            attempts: Arc::new(AtomicU64::new(0)),
        })
    }

    /// Send one request, retrying what is worth retrying. The last answer (or error) is returned
    /// as it is; async-openai turns a non-2xx answer into an error with its status.
    pub(crate) async fn send(&self, factory: HttpRequestFactory) -> Result<Response, OpenAIError> {
        // Held across retries: a rate-limited server is not sent more while it is asking for less.
        let _permit = self.limit.acquire().await.map_err(|_| OpenAIError::InvalidArgument("closed".into()))?;
        let mut attempt = 0u32;
        loop {
            let request = factory.build().await?;
            self.attempts.fetch_add(1, Ordering::Relaxed);
            let result = self.http.execute(request).await;
            let wait = match &result {
                Ok(r) if r.status().as_u16() == 429 || r.status().is_server_error() => {
                    Some(retry_after(r.headers()).unwrap_or_else(|| backoff(attempt)))
                }
                Ok(_) => None,
                Err(e) if e.is_timeout() || e.is_connect() => Some(backoff(attempt)),
                Err(_) => None,
            };
            match wait {
                Some(delay) if attempt < self.retries && delay <= RETRY_AFTER_CAP => {
                    let why = match &result {
                        Ok(r) => format!("HTTP {}", r.status().as_u16()),
                        Err(e) if e.is_timeout() => "a time-out".to_string(),
                        Err(_) => "a refused connection".to_string(),
                    };
                    attempt += 1;
                    tracing::warn!(
                        "model endpoint: {why}; retry {attempt}/{} in {} ms",
                        self.retries,
                        delay.as_millis()
                    );
                    tokio::time::sleep(delay).await;
                }
                _ => return result.map_err(OpenAIError::Reqwest),
            }
        }
    }
}

/// Exponential backoff with equal jitter: half the step fixed, half random, so clients that failed
/// together do not retry together.
fn backoff(attempt: u32) -> Duration {
    let step = BACKOFF_BASE.saturating_mul(2u32.saturating_pow(attempt)).min(BACKOFF_CAP);
    let half = step / 2;
    half + half.mul_f64(fastrand::f64())
}

/// `Retry-After` as seconds or as an HTTP date.
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let v = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(secs) = v.parse::<f64>() {
        return (secs >= 0.0 && secs.is_finite()).then(|| Duration::from_secs_f64(secs));
    }
    let at = humantime::parse_rfc3339_weak(v).ok().or_else(|| httpdate(v))?;
    Some(at.duration_since(std::time::SystemTime::now()).unwrap_or(Duration::ZERO))
}

/// `Sun, 06 Nov 1994 08:49:37 GMT`, the only date form servers send in `Retry-After`.
fn httpdate(v: &str) -> Option<std::time::SystemTime> {
    let parts: Vec<&str> = v.split_whitespace().collect();
    if parts.len() != 6 || parts[5] != "GMT" {
        return None;
    }
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let month = MONTHS.iter().position(|m| *m == parts[2])? + 1;
    let iso = format!("{}-{:02}-{:02}T{}Z", parts[3], month, parts[1].parse::<u32>().ok()?, parts[4]);
    humantime::parse_rfc3339(&iso).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_forms() {
        let mut h = HeaderMap::new();
        h.insert(RETRY_AFTER, "2".parse().unwrap());
        assert_eq!(retry_after(&h), Some(Duration::from_secs(2)));
        h.insert(RETRY_AFTER, "Sun, 06 Nov 1994 08:49:37 GMT".parse().unwrap());
        assert_eq!(retry_after(&h), Some(Duration::ZERO));
        h.insert(RETRY_AFTER, "soon".parse().unwrap());
        assert_eq!(retry_after(&h), None);
    }

    #[test]
    fn backoff_grows_with_jitter_inside_its_step() {
        for attempt in 0..6 {
            let step = BACKOFF_BASE.saturating_mul(2u32.pow(attempt)).min(BACKOFF_CAP);
            let d = backoff(attempt);
            assert!(d >= step / 2 && d <= step, "{attempt}: {d:?}");
        }
    }
}

//! `ivd bench --llm`: what concurrency buys a model-assisted diagnosis. A fake OpenAI-compatible
//! endpoint on 127.0.0.1 answers every completion after a fixed delay (a hosted model's typical
//! latency for a short JSON answer); a 20-question interview is diagnosed with the model's
//! concurrency at 1 and at 8, and without a model for the floor.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use super::{fail, BenchError};
use crate::config::Config;
use crate::report::ReportFormat;
use crate::skills::diagnose_transcript;
use crate::tools::ToolContext;
use crate::transcript::roles::RoleHints;

const DELAY: Duration = Duration::from_millis(300);
const QUESTIONS: usize = 20;

pub async fn run(config: Arc<Config>, _runs: usize) -> Result<(), BenchError> {
    let served = Arc::new(AtomicUsize::new(0));
    let url = fake_endpoint(served.clone()).await.map_err(|e| fail!("cannot start the fake endpoint: {e}"))?;
    let dir = tempfile_dir(&config)?;
    let kb = crate::kb::KnowledgeBase::load(config.kb_dir.as_deref())?;
    let mut text = String::new();
    for e in kb.entries.iter().filter(|e| e.has_english()).take(QUESTIONS) {
        text.push_str(&format!("Interviewer: {}\n\nCandidate: {}\n\n", e.question_en, e.novice_answer_en));
    }
    std::fs::write(dir.join("bench.txt"), &text).map_err(|e| fail!("cannot write the sample: {e}"))?;

    let mut rows = Vec::new();
    for (label, llm, width) in
        [("rubric only", false, 1), ("model, 1 at a time", true, 1), ("model, 8 at once", true, 8)]
    {
        let mut c = (*config).clone();
        c.audit = false;
        c.llm.enabled = llm;
        c.llm.base_url = llm.then(|| url.clone());
        c.llm.model = llm.then(|| "fake".to_string());
        c.llm.concurrency = width;
        let ctx = ToolContext::new(Arc::new(c)).with_data_root(dir.clone());
        // The first diagnosis loads the knowledge base; measure warm runs only.
        let _ =
            diagnose_transcript::run(&ctx, "bench.txt", "bench.txt", ReportFormat::Json, None, &RoleHints::default())
                .await;
        let before = served.load(Ordering::Relaxed);
        let started = Instant::now();
        let (report, _) =
            diagnose_transcript::run(&ctx, "bench.txt", "bench.txt", ReportFormat::Json, None, &RoleHints::default())
                .await?;
        let secs = started.elapsed().as_secs_f64();
        rows.push((label, secs, report.questions.len(), served.load(Ordering::Relaxed) - before, report.meta.analyzer));
    }
    println!("model-assisted diagnosis, {QUESTIONS} questions, fake endpoint answering after {} ms", DELAY.as_millis());
    println!("{:<22} {:>9} {:>10} {:>9}  analyzer", "", "seconds", "questions", "requests");
    for (label, secs, n, req, analyzer) in &rows {
        println!("{label:<22} {secs:>9.2} {n:>10} {req:>9}  {analyzer}");
    }
    if let [_, (_, seq, ..), (_, conc, ..)] = rows.as_slice() {
        println!("concurrent (8) vs sequential: {:.1}x faster", seq / conc.max(1e-9));
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

fn tempfile_dir(config: &Config) -> Result<std::path::PathBuf, BenchError> {
    let dir = config.home.join(format!("bench-llm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| fail!("cannot create {}: {e}", dir.display()))?;
    Ok(dir)
}

/// A minimal HTTP/1.1 server on loopback: every request, after [`DELAY`], gets a chat completion
/// whose content is a valid assessment. Keep-alive is honoured so the client's pool is exercised.
async fn fake_endpoint(served: Arc<AtomicUsize>) -> std::io::Result<String> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            let served = served.clone();
            tokio::spawn(async move {
                let mut buf = Vec::new();
                loop {
                    let Some(len) = read_request(&mut sock, &mut buf).await else { return };
                    buf.drain(..len);
                    tokio::time::sleep(DELAY).await;
                    served.fetch_add(1, Ordering::Relaxed);
                    let content = r#"{"evidence": [], "feedback": "A fair start; name the mechanism and give one number from practice.", "scores": {"completeness": 60, "depth": 55, "accuracy": 70, "practicality": 40}}"#;
                    let body = serde_json::json!({"id": "b", "object": "chat.completion", "created": 0, "model": "fake",
                        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}]})
                    .to_string();
                    let head = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
                        body.len()
                    );
                    if sock.write_all(head.as_bytes()).await.is_err() || sock.write_all(body.as_bytes()).await.is_err()
                    {
                        return;
                    }
                }
            });
        }
    });
    Ok(format!("http://{addr}/v1"))
}

/// Read until one whole request (headers and `content-length` body) is in `buf`; its length.
async fn read_request(sock: &mut tokio::net::TcpStream, buf: &mut Vec<u8>) -> Option<usize> {
    let mut chunk = [0u8; 8192];
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_lowercase();
            let len = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:").and_then(|v| v.trim().parse::<usize>().ok()))
                .unwrap_or(0);
            if buf.len() >= end + 4 + len {
                return Some(end + 4 + len);
            }
        }
        let n = sock.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

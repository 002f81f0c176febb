//! `ivd kb build|search|stats|validate`.

use std::sync::Arc;
use std::time::Instant;

use anyhow::{anyhow, Context};
use clap::Subcommand;

use super::{write_stdout, CliError, ListFormat};
use crate::config::Config;
use crate::kb::index::Bm25Index;
use crate::kb::search::SearchMode;
use crate::kb::KnowledgeBase;
use crate::tools::query_knowledge_base::{QueryKnowledgeBase, QueryKnowledgeBaseArgs};
use crate::tools::{call, ToolContext};

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum ModeArg {
    Bm25,
    Vector,
    Hybrid,
}

#[derive(Debug, Subcommand)]
pub enum KbAction {
    /// (Re)build the search index under IVD_HOME.
    Build,
    /// Search the knowledge base.
    Search {
        query: String,
        #[arg(long)]
        dimension: Option<String>,
        #[arg(long, default_value_t = 5)]
        top: usize,
        /// bm25, vector or hybrid (hybrid falls back to bm25 without models).
        #[arg(long, value_enum, default_value = "hybrid")]
        mode: ModeArg,
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
    },
    /// Entry counts per dimension.
    Stats {
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
    },
    /// Import a question bank (CSV/TSV with a header row, JSONL, or Markdown `## question` + answer)
    /// into a knowledge-base folder that `--kb DIR` uses everywhere.
    Import {
        file: std::path::PathBuf,
        #[arg(long)]
        out: std::path::PathBuf,
        /// The dimension of rows that name none (default: the file's name).
        #[arg(long)]
        dimension: Option<String>,
        /// Fail, writing nothing, when any row is bad.
        #[arg(long)]
        strict: bool,
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
    },
    /// Check every entry; names the file and field of each problem.
    Validate {
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
    },
}

pub async fn run(config: Arc<Config>, action: KbAction) -> Result<(), CliError> {
    let load = || KnowledgeBase::load(config.kb_dir.as_deref()).map_err(|e| CliError::input(e.into()));
    match action {
        KbAction::Build => {
            let kb = load()?;
            build(config, kb).await
        }
        KbAction::Search { query, dimension, top, mode, format } => {
            let mode = match mode {
                ModeArg::Bm25 => SearchMode::Bm25,
                ModeArg::Vector => SearchMode::Vector,
                ModeArg::Hybrid => SearchMode::Hybrid,
            };
            let ctx = ToolContext::new(config);
            let out = call(
                &QueryKnowledgeBase,
                QueryKnowledgeBaseArgs { query, dimension, top_k: Some(top), mode: Some(mode) },
                &ctx,
            )
            .await?;
            let text = match format {
                ListFormat::Json => {
                    let rows: Vec<serde_json::Value> = out
                        .hits
                        .iter()
                        .map(|h| serde_json::json!({"id": h.id, "dimension": h.dimension, "question": h.question, "score": h.score, "relevance": h.relevance, "precision": h.precision, "similarity": h.similarity}))
                        .collect();
                    serde_json::to_string_pretty(&rows).context("cannot encode the hits")? + "\n"
                }
                ListFormat::Text => {
                    out.hits.iter().map(|h| format!("{:>7.3}  {:<24} {}\n", h.score, h.id, h.question)).collect()
                }
            };
            write_stdout(text.as_bytes())
        }
        KbAction::Stats { format } => {
            let kb = load()?;
            let stats = kb.stats();
            let text = match format {
                ListFormat::Json => serde_json::to_string_pretty(
                    &serde_json::json!({"source": kb.source_label(), "total": kb.entries.len(), "dimensions": stats}),
                )
                .context("cannot encode the stats")?
                    + "\n",
                ListFormat::Text => {
                    let mut s: String = stats.iter().map(|(d, n)| format!("{d:<22} {n:>4}\n")).collect();
                    s.push_str(&format!("{:<22} {:>4}\n", "total", kb.entries.len()));
                    s
                }
            };
            write_stdout(text.as_bytes())
        }
        KbAction::Validate { format } => validate(&config, format),
        KbAction::Import { file, out, dimension, strict, format } => {
            import(&file, &out, dimension.as_deref(), strict, format)
        }
    }
}

/// `ivd kb import`: the summary on stdout, the rows left out named by line.
fn import(
    file: &std::path::Path,
    out: &std::path::Path,
    dimension: Option<&str>,
    strict: bool,
    format: ListFormat,
) -> Result<(), CliError> {
    use crate::kb::bank::{self, BankError};
    let imported = bank::import(file, out, dimension, strict).map_err(|e| match e {
        BankError::Write(_) | BankError::Read { .. } => CliError::from(anyhow!(e)),
        e => CliError::input(anyhow!(e)),
    })?;
    let text = match format {
        ListFormat::Json => serde_json::to_string_pretty(&imported).context("cannot encode")? + "\n",
        ListFormat::Text => {
            let mut s: String = imported
                .problems
                .iter()
                .map(|p| format!("{}:{}: skipped: {}\n", imported.file, p.line, p.message))
                .collect();
            s.push_str(&format!(
                "imported {} of {} rows into {} ({} written, {} unchanged; key points derived for {}); use it with --kb {}\n",
                imported.entries,
                imported.rows,
                out.display(),
                imported.written.written.len(),
                imported.written.unchanged,
                imported.derived_key_points,
                out.display()
            ));
            s
        }
    };
    write_stdout(text.as_bytes())
}

/// `ivd kb validate`: every problem with its file and field; exit 2 when there is any.
fn validate(config: &Config, format: ListFormat) -> Result<(), CliError> {
    let v = KnowledgeBase::validate(config.kb_dir.as_deref()).map_err(|e| CliError::input(e.into()))?;
    let problems = &v.problems;
    let text = match format {
        ListFormat::Json => {
            serde_json::to_string_pretty(&serde_json::json!({
                "valid_entries": v.entries, "chinese_only": v.chinese_only, "problems": problems
            }))
            .context("cannot encode")?
                + "\n"
        }
        ListFormat::Text => {
            let mut s: String = problems.iter().map(|p| format!("{p}\n")).collect();
            s.push_str(&format!("{} valid entries, {} problem(s)\n", v.entries, problems.len()));
            if v.chinese_only > 0 {
                s.push_str(&format!(
                    "{} of them single-language (Chinese only): English questions still find them, but their reports quote Chinese\n",
                    v.chinese_only
                ));
            }
            s
        }
    };
    write_stdout(text.as_bytes())?;
    if problems.is_empty() {
        Ok(())
    } else {
        Err(CliError::input(anyhow!("the knowledge base has {} problem(s)", problems.len())))
    }
}

/// `ivd kb build`: the BM25 index from scratch, then every phrasing and answer embedded into the
/// cache (with models). On the blocking pool; Ctrl-C stops it between entries or batches, and the
/// old index and the cached vectors stay as they were.
async fn build(config: Arc<Config>, kb: KnowledgeBase) -> Result<(), CliError> {
    let cancel = super::interrupt::token();
    let c = cancel.clone();
    let work = move || -> Result<String, crate::kb::KbError> {
        let started = Instant::now();
        let idx = Bm25Index::rebuild(&kb, &config.home, &c)?;
        let mut said = format!(
            "indexed {} entries from {} in {} ms into {}",
            kb.entries.len(),
            kb.source_label(),
            started.elapsed().as_millis(),
            idx.path.display()
        );
        drop(idx);
        let models = crate::models::Models::new(&config);
        if models.is_provisioned() {
            let started = Instant::now();
            let search = crate::kb::search::KbSearch::open_with_models(kb, &config.home, &models, &c)?;
            if search.vectors.is_some() {
                search.warm(&c)?;
                said.push_str(&format!("; embedded in {} ms", started.elapsed().as_millis()));
            }
        }
        Ok(said)
    };
    let said = tokio::task::spawn_blocking(work).await.map_err(|e| anyhow!("the build failed: {e}"))?;
    match said {
        Ok(s) => {
            eprintln!("{s}");
            Ok(())
        }
        Err(e) if cancel.is_cancelled() => {
            let _ = e;
            Err(super::interrupt::stopped("the previous index and cached vectors are unchanged"))
        }
        Err(e) => Err(CliError::from(anyhow!(e))),
    }
}

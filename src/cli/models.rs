//! `ivd models fetch|status`.

use anyhow::anyhow;

use super::{write_stdout, CliError, ModelsAction};
use crate::config::Config;
use crate::models::Models;

/// Embed everything scoring asks of the knowledge base (phrasings, answers, key points, sentences)
/// once, at provisioning, into `$IVD_HOME`'s cache: the first diagnosis then costs what any other
/// does. A second `models fetch` finds it all cached.
fn warm_knowledge_base(config: &Config, models: &Models) -> Result<(), CliError> {
    let started = std::time::Instant::now();
    let kb = crate::kb::KnowledgeBase::load(config.kb_dir.as_deref()).map_err(|e| CliError::from(anyhow!(e)))?;
    // Ctrl-C stops it between batches; what was embedded stays cached for the next run.
    let cancel = super::interrupt::token();
    let stopped =
        |e: crate::kb::KbError| super::interrupt::or_stopped(anyhow!(e), &cancel, "what was embedded is cached");
    let search = crate::kb::search::KbSearch::open_with_models(kb, &config.home, models, &cancel).map_err(stopped)?;
    if search.vectors.is_some() {
        search.warm(&cancel).map_err(stopped)?;
        eprintln!(
            "knowledge base embedded into {} in {:.1}s",
            config.home.join("ivd.sqlite").display(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

pub(super) fn run(config: &Config, action: ModelsAction) -> Result<(), CliError> {
    let m = Models::new(config);
    match action {
        ModelsAction::Fetch { source, skip_whisper } => {
            m.fetch(&source, skip_whisper).map_err(|e| CliError::from(anyhow!(e)))?;
            warm_knowledge_base(config, &m)
        }
        ModelsAction::Status => {
            let files = m.verify_all().map_err(|e| CliError::from(anyhow!(e)))?;
            let mut bad = 0;
            let mut out = format!("models in {}\n", m.dir.display());
            for (f, r) in &files {
                match r {
                    Ok(()) => out.push_str(&format!("  ok    {:<20} {:>12} bytes  {}\n", f.name, f.size, f.source)),
                    Err(e) => {
                        bad += 1;
                        out.push_str(&format!("  BAD   {:<20} {e}\n", f.name));
                    }
                }
            }
            write_stdout(out.as_bytes())?;
            if bad == 0 {
                Ok(())
            } else {
                Err(anyhow!("{bad} model file(s) need repair: run `ivd models fetch`").into())
            }
        }
    }
}

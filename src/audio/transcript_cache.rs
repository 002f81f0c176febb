//! Transcriptions kept by what they depend on: the decoded samples, the speech regions that cut
//! the windows, the language asked for and the Whisper model file. Diagnosing a recording after
//! transcribing it, or again with another knowledge base, then costs seconds instead of a whisper
//! pass; a WAV and a FLAC of one recording decode to the same samples and share one entry.

use crate::lang::Lang;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::vad::Activity;
use super::whisper::Transcription;

/// Bumped when the transcription itself changes (windows, prompts, recovery), so that old
/// entries are not read back.
const VERSION: &str = "3";

/// The cache key of transcribing `samples` (16 kHz mono) with `model` in `language`.
pub fn key(samples: &[f32], activity: &Activity, language: Option<Lang>, model: &Path) -> String {
    let mut h = Sha256::new();
    h.update(VERSION.as_bytes());
    // The model by path, size and time: a re-provisioned model is a new one.
    h.update(model.to_string_lossy().as_bytes());
    if let Ok(meta) = std::fs::metadata(model) {
        h.update(meta.len().to_le_bytes());
        if let Ok(t) =
            meta.modified().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).map_err(std::io::Error::other))
        {
            h.update(t.as_nanos().to_le_bytes());
        }
    }
    h.update(language.map_or("auto", Lang::as_str).as_bytes());
    for r in &activity.regions {
        h.update(r.start_s.to_le_bytes());
        h.update(r.end_s.to_le_bytes());
    }
    for s in samples {
        h.update(s.to_le_bytes());
    }
    format!("{:x}", h.finalize())
}

fn path(dir: &Path, key: &str) -> PathBuf {
    dir.join(format!("{key}.json"))
}

/// The stored transcription, when there is a readable one.
pub fn load(dir: &Path, key: &str) -> Option<Transcription> {
    let text = std::fs::read_to_string(path(dir, key)).ok()?;
    serde_json::from_str(&text).ok()
}

/// Store `t`; a cache that cannot be written only costs the next run its time, so failures are
/// logged, not returned.
pub fn store(dir: &Path, key: &str, t: &Transcription) {
    let write = || -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        let tmp = dir.join(format!(".{key}.tmp"));
        std::fs::write(&tmp, serde_json::to_vec(t).map_err(std::io::Error::other)?)?;
        // Renamed into place: a killed run never leaves a half-written entry.
        std::fs::rename(&tmp, path(dir, key))
    };
    if let Err(e) = write() {
        tracing::warn!("cannot keep the transcription in {}: {e}", dir.display());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audio::vad::Span;
    use crate::audio::whisper::Segment;

    #[test]
    fn a_stored_transcription_is_found_by_the_same_inputs_only() {
        let dir = tempfile::tempdir().unwrap();
        let model = dir.path().join("model.bin");
        std::fs::write(&model, b"weights").unwrap();
        let activity = Activity { regions: vec![Span { start_s: 0.1, end_s: 0.9 }], duration_s: 1.0 };
        let samples = vec![0.25f32; 16_000];
        let k = key(&samples, &activity, Some(Lang::En), &model);
        let t = Transcription {
            language: Lang::En,
            segments: vec![Segment { start_s: 0.1, end_s: 0.9, text: "hello".into(), words: Vec::new() }],
        };
        store(dir.path(), &k, &t);
        assert_eq!(load(dir.path(), &k).map(|t| t.segments[0].text.clone()), Some("hello".into()));
        let mut other = samples.clone();
        other[8000] = 0.5;
        assert_ne!(key(&other, &activity, Some(Lang::En), &model), k);
        assert_ne!(key(&samples, &activity, Some(Lang::Zh), &model), k);
        assert_ne!(key(&samples, &activity, None, &model), k);
    }
}

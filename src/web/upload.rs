//! An upload, streamed to disk in the job's folder and counted as it comes: never held whole in
//! memory, refused with a 4xx and a message when it is empty, too large, misnamed or not what its
//! extension says, and removed again when refused.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use axum::extract::multipart::{Field, Multipart};
use axum::http::StatusCode;
use tokio::io::AsyncWriteExt;

use super::ServeOptions;

/// Transcript and document extensions the diagnosis reads (recordings: [`crate::audio::AUDIO_EXTENSIONS`]).
const TEXT_EXTENSIONS: &[&str] = &["txt", "md", "markdown", "srt", "vtt", "json", "docx", "pdf", "text", "log"];

/// Why an upload was refused: the status and what to tell the user.
#[derive(Debug)]
pub struct Refusal {
    pub status: StatusCode,
    pub message: String,
}

impl Refusal {
    fn new(status: StatusCode, message: impl Into<String>) -> Refusal {
        Refusal { status, message: message.into() }
    }
}

/// A file received, and the form's other fields.
#[derive(Debug)]
pub struct Uploaded {
    pub name: String,
    pub recording: bool,
    pub fields: HashMap<String, String>,
}

/// Receive the form into `dir` (created here); the file part is named `file`.
pub async fn receive(mut form: Multipart, dir: &Path, opts: &ServeOptions) -> Result<Uploaded, Refusal> {
    let bad = unreadable;
    let mut fields = HashMap::new();
    let mut file: Option<(PathBuf, String, bool)> = None;
    while let Some(field) = form.next_field().await.map_err(bad)? {
        let key = field.name().unwrap_or("").to_string();
        if key == "file" && file.is_none() {
            file = Some(save(field, dir, opts).await?);
        } else if key != "file" {
            let value = small_text(field).await?;
            fields.insert(key, value.chars().take(1000).collect());
        }
    }
    let (_, name, recording) =
        file.ok_or_else(|| Refusal::new(StatusCode::BAD_REQUEST, "no file in the form: choose a file to diagnose"))?;
    Ok(Uploaded { name, recording, fields })
}

/// A form field beside the file: a name or a setting, read only as far as [`FIELD_MAX`] bytes.
async fn small_text(mut field: Field<'_>) -> Result<String, Refusal> {
    let mut bytes = Vec::new();
    while let Some(chunk) = field.chunk().await.map_err(unreadable)? {
        if bytes.len() + chunk.len() > FIELD_MAX {
            return Err(Refusal::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the form field {:?} is longer than {} KiB; shorten it",
                    field.name().unwrap_or(""),
                    FIELD_MAX >> 10
                ),
            ));
        }
        bytes.extend_from_slice(&chunk);
    }
    String::from_utf8(bytes).map_err(|_| Refusal::new(StatusCode::BAD_REQUEST, "a form field is not UTF-8 text"))
}

/// Largest form field beside the file.
const FIELD_MAX: usize = 64 << 10;

fn unreadable(e: axum::extract::multipart::MultipartError) -> Refusal {
    Refusal::new(
        StatusCode::BAD_REQUEST,
        format!("the upload could not be read ({e}): it broke off, or the form is malformed (a file name with control characters is refused here); rename the file if so, and try again"),
    )
}

/// A file name as the browser sent it, checked: a bare name, no path, no control characters.
pub fn checked_name(raw: &str) -> Result<String, Refusal> {
    let name = raw.trim();
    let refuse = |why: &str| {
        Refusal::new(
            StatusCode::BAD_REQUEST,
            format!("the file name {name:?} {why}; rename the file and upload it again"),
        )
    };
    if name.is_empty() {
        return Err(refuse("is empty"));
    }
    if name.chars().any(char::is_control) {
        return Err(refuse("holds control characters"));
    }
    if name.contains('/') || name.contains('\\') || name.starts_with('.') || name.contains("..") {
        return Err(refuse("is a path, not a file name"));
    }
    if name.chars().count() > 200 {
        return Err(refuse("is too long"));
    }
    Ok(name.to_string())
}

async fn save(mut field: Field<'_>, dir: &Path, opts: &ServeOptions) -> Result<(PathBuf, String, bool), Refusal> {
    let name = checked_name(field.file_name().unwrap_or(""))?;
    let ext = Path::new(&name).extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    let recording = crate::audio::AUDIO_EXTENSIONS.contains(&ext.as_str());
    if !recording && !TEXT_EXTENSIONS.contains(&ext.as_str()) {
        return Err(Refusal::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!("{name}: .{ext} is neither a transcript, a document nor a recording; give TXT, MD, SRT, VTT, JSON, DOCX, PDF, WAV, MP3, M4A, FLAC, OGG or WebM"),
        ));
    }
    let limit = if recording { opts.max_recording } else { opts.max_text };
    let internal =
        |e: std::io::Error| Refusal::new(StatusCode::INTERNAL_SERVER_ERROR, format!("cannot store the upload: {e}"));
    tokio::fs::create_dir_all(dir).await.map_err(internal)?;
    let path = dir.join(&name);
    let mut out = tokio::fs::File::create(&path).await.map_err(internal)?;
    let mut written: u64 = 0;
    let result = async {
        while let Some(chunk) = field
            .chunk()
            .await
            .map_err(unreadable)?
        {
            written += chunk.len() as u64;
            if written > limit {
                return Err(Refusal::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!("{name} is larger than the limit of {} MiB for {}; start `ivd serve` with a larger --max-{}-mib", limit >> 20, if recording { "recordings" } else { "transcripts and documents" }, if recording { "recording" } else { "text" }),
                ));
            }
            out.write_all(&chunk).await.map_err(internal)?;
        }
        out.flush().await.map_err(internal)?;
        Ok(())
    }
    .await;
    let checked = match result {
        Ok(()) => sniff(&path, &name, &ext, written).await,
        Err(e) => Err(e),
    };
    match checked {
        Ok(()) => Ok((path, name, recording)),
        Err(e) => {
            let _ = tokio::fs::remove_file(&path).await;
            Err(e)
        }
    }
}

/// The file is what its extension says: an empty file, an image renamed `.wav`, a binary renamed
/// `.txt` or a WAV cut short are refused before any work starts.
async fn sniff(path: &Path, name: &str, ext: &str, len: u64) -> Result<(), Refusal> {
    let media = |why: String| Refusal::new(StatusCode::UNPROCESSABLE_ENTITY, why);
    if len == 0 {
        return Err(Refusal::new(
            StatusCode::BAD_REQUEST,
            format!("{name} is empty (0 bytes); choose the file itself"),
        ));
    }
    let mut head = vec![0u8; 8192.min(len as usize)];
    let mut f = tokio::fs::File::open(path)
        .await
        .map_err(|e| Refusal::new(StatusCode::INTERNAL_SERVER_ERROR, format!("cannot read the upload back: {e}")))?;
    tokio::io::AsyncReadExt::read_exact(&mut f, &mut head)
        .await
        .map_err(|e| Refusal::new(StatusCode::INTERNAL_SERVER_ERROR, format!("cannot read the upload back: {e}")))?;
    let looks = looks_like(&head);
    let fits = match ext {
        "wav" | "wave" => looks == Some("WAV"),
        "mp3" => looks == Some("MP3") || (head.len() > 1 && head[0] == 0xFF && head[1] & 0xE0 == 0xE0),
        "m4a" | "mp4" | "aac" => looks == Some("MP4") || (head.len() > 1 && head[0] == 0xFF && head[1] & 0xF0 == 0xF0),
        "flac" => looks == Some("FLAC"),
        "ogg" | "oga" | "opus" => looks == Some("Ogg"),
        "webm" | "mka" | "mkv" => looks == Some("WebM/Matroska"),
        "docx" => looks == Some("ZIP"),
        "pdf" => looks == Some("PDF"),
        // Text: anything but a known binary, and no NUL bytes unless it is UTF-16 (a BOM says so).
        _ => {
            looks.is_none()
                && (head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]) || !head.contains(&0))
        }
    };
    if !fits {
        let what = looks.map_or("something else".to_string(), |l| format!("a {l} file"));
        return Err(media(format!(
            "{name} is not what its name says: its content is {what}; upload the original file"
        )));
    }
    if looks == Some("WAV") {
        wav_complete(path, name, len).map_err(media)?;
    } else if crate::audio::AUDIO_EXTENSIONS.contains(&ext) {
        let p = path.to_path_buf();
        let checked = tokio::task::spawn_blocking(move || crate::audio::decode::check_complete(&p)).await;
        if let Ok(Err(e)) = checked {
            let why = match e {
                crate::audio::AudioError::Corrupt { detail, .. }
                | crate::audio::AudioError::Unsupported { detail, .. } => detail,
                other => other.to_string(),
            };
            return Err(media(format!("{name} cannot be used: {why}")));
        }
    }
    Ok(())
}

fn looks_like(head: &[u8]) -> Option<&'static str> {
    let at = |i: usize, m: &[u8]| head.get(i..i + m.len()) == Some(m);
    Some(match () {
        _ if at(0, b"RIFF") && at(8, b"WAVE") => "WAV",
        _ if at(0, b"ID3") => "MP3",
        _ if at(4, b"ftyp") => "MP4",
        _ if at(0, b"fLaC") => "FLAC",
        _ if at(0, b"OggS") => "Ogg",
        _ if at(0, &[0x1A, 0x45, 0xDF, 0xA3]) => "WebM/Matroska",
        _ if at(0, b"PK\x03\x04") => "ZIP",
        _ if at(0, b"%PDF") => "PDF",
        _ if at(0, &[0x89, b'P', b'N', b'G']) => "PNG image",
        _ if at(0, &[0xFF, 0xD8, 0xFF]) => "JPEG image",
        _ if at(0, b"GIF8") => "GIF image",
        _ if at(0, b"\x7FELF") => "program",
        _ => return None,
    })
}

/// A WAV whose data chunk claims more bytes than the file holds was cut short (an interrupted
/// copy or recorder): say so rather than diagnose half an interview silently.
fn wav_complete(path: &Path, name: &str, len: u64) -> Result<(), String> {
    let reader = hound::WavReader::open(path)
        .map_err(|e| format!("{name} is a damaged WAV file ({e}); re-export the recording"))?;
    let spec = reader.spec();
    let frame = u64::from(spec.channels) * u64::from(spec.bits_per_sample.div_ceil(8));
    let claimed = u64::from(reader.duration()) * frame;
    // The header, at least 44 bytes, precedes the samples.
    if claimed + 44 > len + frame {
        let secs = |b: u64| b as f64 / (frame.max(1) * u64::from(spec.sample_rate.max(1))) as f64;
        return Err(format!(
            "{name} is truncated: its header promises {:.1} s of audio but the file holds about {:.1} s; upload the complete recording (or convert what survives with `ffmpeg -i IN OUT.wav`)",
            secs(claimed),
            secs(len.saturating_sub(44))
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_are_paths_or_hold_control_characters_are_refused() {
        for bad in ["../x.txt", "a/b.txt", "a\\b.txt", ".hidden", "x\u{7}.txt", "", "   ", "a\nb.wav"] {
            assert!(checked_name(bad).is_err(), "{bad:?} was accepted");
        }
        assert_eq!(checked_name("面试 记录.docx").unwrap(), "面试 记录.docx");
        assert_eq!(looks_like(b"\x89PNG\r\n\x1a\n"), Some("PNG image"));
        assert_eq!(looks_like(b"RIFF\0\0\0\0WAVEfmt "), Some("WAV"));
        assert_eq!(looks_like(b"Interviewer: hello"), None);
    }
}

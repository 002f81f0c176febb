//! Bytes -> text: UTF-8 (with or without BOM), UTF-16 (with BOM, or without when it is obvious),
//! GB18030/GBK as Chinese Windows tools export; Word (.docx) and PDF documents through their
//! readers. Other binary files are recognised and refused.

use super::{docx, pdf, Format, TranscriptError};

/// Decoded text and the encoding it came in.
#[derive(Debug, Clone)]
pub struct Decoded {
    pub text: String,
    pub encoding: &'static str,
    /// The document the text was read from (docx, pdf); None for a text file.
    pub container: Option<Format>,
}

/// Magic numbers of the files people mistake for transcripts.
const MAGIC: &[(&[u8], &str)] = &[
    (b"\x89PNG", "a PNG image"),
    (b"\xFF\xD8\xFF", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"RIFF", "a RIFF file (WAV audio or similar)"),
    (b"ID3", "an MP3 recording"),
    (b"OggS", "an Ogg recording"),
    (b"fLaC", "a FLAC recording"),
    (b"\x1A\x45\xDF\xA3", "a Matroska/WebM video"),
    (b"\x7FELF", "an executable"),
    (b"\x1F\x8B", "a gzip archive"),
    (b"SQLite format 3", "an SQLite database"),
];

/// Decode bytes into text, or say why not.
pub fn decode(bytes: &[u8]) -> Result<Decoded, TranscriptError> {
    if bytes.is_empty() {
        return Err(TranscriptError::Empty);
    }
    if bytes.starts_with(b"PK\x03\x04") {
        return document(docx::extract(bytes)?, "docx", Format::Docx);
    }
    if looks_pdf(bytes) {
        return document(pdf::extract(bytes)?, "pdf", Format::Pdf);
    }
    if bytes.starts_with(b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1") {
        return Err(ole_document(bytes));
    }
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return utf8(rest, "utf-8-bom");
    }
    if bytes.starts_with(b"\xFF\xFE") {
        return utf16(&bytes[2..], true, "utf-16le");
    }
    if bytes.starts_with(b"\xFE\xFF") {
        return utf16(&bytes[2..], false, "utf-16be");
    }
    if bytes.len() >= 4 && bytes[4..].starts_with(b"ftyp") {
        return Err(TranscriptError::Binary("an MP4/M4A recording"));
    }
    for (magic, what) in MAGIC {
        if bytes.starts_with(magic) {
            return Err(TranscriptError::Binary(what));
        }
    }
    if let Some(little) = bomless_utf16(bytes) {
        return utf16(bytes, little, if little { "utf-16le" } else { "utf-16be" });
    }
    if bytes.contains(&0) {
        return Err(TranscriptError::Binary("binary data (it contains NUL bytes)"));
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => checked(s.to_string(), "utf-8"),
        // A file cut off inside its last character (a truncated copy) keeps everything before it.
        Err(e) if e.error_len().is_none() && e.valid_up_to() + 4 > bytes.len() => {
            checked(String::from_utf8_lossy(&bytes[..e.valid_up_to()]).into_owned(), "utf-8")
        }
        Err(_) if looks_single_byte(bytes) => {
            let (text, _, _) = encoding_rs::WINDOWS_1252.decode(bytes);
            checked(text.into_owned(), "windows-1252")
        }
        Err(e) => {
            let (text, had_errors) = encoding_rs::GB18030.decode_without_bom_handling(bytes);
            if had_errors {
                Err(TranscriptError::Undecodable { offset: e.valid_up_to() })
            } else {
                checked(text.into_owned(), "gb18030")
            }
        }
    }
}

/// `%PDF-` first, or (after junk, which readers accept) within the first kilobyte of a file that
/// ends with `%%EOF`; a text file that merely mentions `%PDF-` stays text.
fn looks_pdf(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(1024)];
    let tail = &bytes[bytes.len().saturating_sub(2048)..];
    bytes.starts_with(b"%PDF-") || head.windows(5).any(|w| w == b"%PDF-") && tail.windows(5).any(|w| w == b"%%EOF")
}

fn document(text: String, encoding: &'static str, container: Format) -> Result<Decoded, TranscriptError> {
    if !super::text::has_words(&text) {
        return Err(match container {
            Format::Pdf => TranscriptError::NoTextLayer,
            _ => TranscriptError::NoText("empty paragraphs"),
        });
    }
    Ok(Decoded { text: text.replace('\r', ""), encoding, container: Some(container) })
}

/// An OLE compound file: a password-protected Office document (its streams are named
/// `EncryptionInfo` and `EncryptedPackage`), or a Word 97-2003 `.doc`.
fn ole_document(bytes: &[u8]) -> TranscriptError {
    let utf16 = |name: &str| name.encode_utf16().flat_map(u16::to_le_bytes).collect::<Vec<u8>>();
    let package = utf16("EncryptedPackage");
    if bytes.windows(package.len()).any(|w| w == package.as_slice()) {
        TranscriptError::Encrypted("Word (.docx)")
    } else {
        TranscriptError::Binary("an Office 97-2003 document (.doc); save it as .docx or .txt")
    }
}

fn utf8(bytes: &[u8], encoding: &'static str) -> Result<Decoded, TranscriptError> {
    match std::str::from_utf8(bytes) {
        Ok(s) => checked(s.to_string(), encoding),
        Err(e) => Err(TranscriptError::Undecodable { offset: e.valid_up_to() + 3 }),
    }
}

fn utf16(bytes: &[u8], little: bool, encoding: &'static str) -> Result<Decoded, TranscriptError> {
    let enc = if little { encoding_rs::UTF_16LE } else { encoding_rs::UTF_16BE };
    let (text, had_errors) = enc.decode_without_bom_handling(bytes);
    if had_errors {
        return Err(TranscriptError::Undecodable { offset: 0 });
    }
    checked(text.into_owned(), encoding)
}

/// Latin-1/Windows-1252 text has lone high bytes between ASCII letters ("r\xE9sum\xE9"); GBK's
/// Chinese characters are pairs of high bytes, usually in runs.
fn looks_single_byte(bytes: &[u8]) -> bool {
    let (mut runs, mut lone, mut len) = (0usize, 0usize, 0usize);
    for &b in bytes.iter().chain(std::iter::once(&0u8)) {
        if b >= 0x80 {
            len += 1;
        } else if len > 0 {
            runs += 1;
            lone += usize::from(len == 1);
            len = 0;
        }
    }
    runs > 0 && lone * 2 > runs
}

/// UTF-16 without a BOM shows as NUL bytes in every other position for Latin text.
fn bomless_utf16(bytes: &[u8]) -> Option<bool> {
    let n = bytes.len().min(4096) & !1;
    if n < 8 {
        return None;
    }
    let pairs = n / 2;
    let even_nul = bytes[..n].iter().step_by(2).filter(|&&b| b == 0).count();
    let odd_nul = bytes[1..n].iter().step_by(2).filter(|&&b| b == 0).count();
    if odd_nul * 10 >= pairs * 6 && even_nul * 10 <= pairs {
        Some(true)
    } else if even_nul * 10 >= pairs * 6 && odd_nul * 10 <= pairs {
        Some(false)
    } else {
        None
    }
}

/// Text full of control characters is binary data that happened to decode.
fn checked(text: String, encoding: &'static str) -> Result<Decoded, TranscriptError> {
    let mut total = 0usize;
    let mut control = 0usize;
    for c in text.chars().take(8192) {
        total += 1;
        if c.is_control() && !matches!(c, '\n' | '\r' | '\t' | '\u{c}') {
            control += 1;
        }
    }
    if total > 0 && control * 20 > total {
        return Err(TranscriptError::Binary("binary data (many control characters)"));
    }
    let text = if text.contains('\r') { text.replace("\r\n", "\n").replace('\r', "\n") } else { text };
    Ok(Decoded { text, encoding, container: None })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings() {
        let zh = "面试官：请介绍一下你自己。";
        let (gbk, _, _) = encoding_rs::GBK.encode(zh);
        assert!(std::str::from_utf8(&gbk).is_err());
        let d = decode(&gbk).unwrap();
        assert_eq!(d.text, zh);
        assert_eq!(d.encoding, "gb18030");

        let mut u16 = vec![0xFF, 0xFE];
        for unit in "Q: hi\r\nA: hello".encode_utf16() {
            u16.extend_from_slice(&unit.to_le_bytes());
        }
        assert_eq!(decode(&u16).unwrap().text, "Q: hi\nA: hello");
        assert_eq!(decode(&u16[2..]).unwrap().text, "Q: hi\nA: hello");

        assert_eq!(decode(b"\xEF\xBB\xBFhello").unwrap().text, "hello");
        let latin = decode(b"Candidate: my r\xe9sum\xe9 says caf\xe9").unwrap();
        assert_eq!((latin.text.as_str(), latin.encoding), ("Candidate: my résumé says café", "windows-1252"));
        assert!(matches!(decode(b"\x89PNG\r\n\x1a\n\0\0"), Err(TranscriptError::Binary(_))));
        assert!(matches!(decode(b""), Err(TranscriptError::Empty)));
    }
}

//! Word documents (.docx): a zip of OOXML parts; the talk is in `word/document.xml`.
//!
//! Teams, Feishu/Lark and Tencent Meeting transcript downloads and hand-written Word files all keep
//! one utterance (or one speaker line) per paragraph, so paragraphs become lines and the text then
//! goes through the same format detection as a plain transcript. Table rows become one line each,
//! their cells separated by tabs; deleted (tracked) text and field codes are skipped.

use std::io::{Cursor, Read};

use quick_xml::events::Event;
use quick_xml::Reader;

use super::TranscriptError;

/// Largest `document.xml` we inflate: a 90-minute transcript is well under 2 MB; this guards
/// against zip bombs.
const MAX_XML_BYTES: u64 = 256 * 1024 * 1024;

/// Extract the text of a .docx as lines.
pub(crate) fn extract(bytes: &[u8]) -> Result<String, TranscriptError> {
    let corrupt = |why: String| TranscriptError::CorruptDocument { kind: "Word (.docx)", why };
    let mut zip =
        zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| corrupt(format!("it is not a readable zip ({e})")))?;
    if zip.index_for_name("word/document.xml").is_none() {
        return Err(other_zip(&zip));
    }
    let mut xml = Vec::new();
    {
        let part = zip.by_name("word/document.xml").map_err(|e| {
            // A zip with a password on its entries (rare for Word, which uses an OLE container).
            if e.to_string().to_lowercase().contains("password") {
                TranscriptError::Encrypted("Word (.docx)")
            } else {
                corrupt(format!("word/document.xml: {e}"))
            }
        })?;
        part.take(MAX_XML_BYTES).read_to_end(&mut xml).map_err(|e| corrupt(format!("word/document.xml: {e}")))?;
    }
    document_text(&xml).map_err(corrupt)
}

/// What a zip without `word/document.xml` is, for the refusal.
fn other_zip(zip: &zip::ZipArchive<Cursor<&[u8]>>) -> TranscriptError {
    let has = |name: &str| zip.index_for_name(name).is_some();
    let what = if has("xl/workbook.xml") {
        "an Excel workbook (.xlsx)"
    } else if has("ppt/presentation.xml") {
        "a PowerPoint deck (.pptx)"
    } else if has("content.xml") {
        "an OpenDocument file (save it as .docx or .txt)"
    } else if has("[Content_Types].xml") {
        "an Office file without a document body (word/document.xml is missing; save it again from Word)"
    } else {
        "a ZIP archive, not a Word document"
    };
    TranscriptError::Binary(what)
}

/// Paragraph and table-row text of `document.xml`.
fn document_text(xml: &[u8]) -> Result<String, String> {
    let mut reader = Reader::from_reader(xml);
    let mut buf = Vec::new();
    let mut out = String::with_capacity(xml.len() / 4);
    let mut line = String::new();
    // Inside <w:t> (text we keep); depth of what we drop (deleted or moved-away text, field
    // codes); inside a run (tab stops in paragraph properties are not tabs); table depth.
    let (mut in_text, mut skipping, mut in_run, mut table_depth) = (false, 0usize, 0usize, 0usize);
    loop {
        let event =
            reader.read_event_into(&mut buf).map_err(|e| format!("word/document.xml is not valid XML ({e})"))?;
        match event {
            Event::Start(e) => match e.local_name().as_ref() {
                b"t" => in_text = true,
                b"r" => in_run += 1,
                b"delText" | b"instrText" | b"moveFrom" => skipping += 1,
                b"tbl" => table_depth += 1,
                _ => {}
            },
            Event::Empty(e) => match e.local_name().as_ref() {
                b"tab" if skipping == 0 && in_run > 0 => line.push('\t'),
                b"br" | b"cr" if skipping == 0 && in_run > 0 => flush(&mut out, &mut line),
                _ => {}
            },
            Event::End(e) => match e.local_name().as_ref() {
                b"t" => in_text = false,
                b"r" => in_run = in_run.saturating_sub(1),
                b"delText" | b"instrText" | b"moveFrom" => skipping = skipping.saturating_sub(1),
                // In a table a cell's paragraphs stay on the row's line.
                b"p" if table_depth == 0 => flush(&mut out, &mut line),
                b"p" if !line.is_empty() && !line.ends_with('\t') => line.push(' '),
                b"tc" => {
                    let kept = line.trim_end().len();
                    line.truncate(kept);
                    line.push('\t');
                }
                b"tr" => flush(&mut out, &mut line),
                b"tbl" => table_depth = table_depth.saturating_sub(1),
                _ => {}
            },
            Event::Text(t) if in_text && skipping == 0 => {
                line.push_str(&t.decode().map_err(|e| format!("bad text encoding ({e})"))?);
            }
            Event::CData(t) if in_text && skipping == 0 => {
                line.push_str(&t.decode().map_err(|e| format!("bad text encoding ({e})"))?);
            }
            Event::GeneralRef(r) if in_text && skipping == 0 => {
                if let Ok(Some(c)) = r.resolve_char_ref() {
                    line.push(c);
                } else {
                    let name = r.decode().map_err(|e| format!("bad entity ({e})"))?;
                    line.push_str(match name.as_ref() {
                        "amp" => "&",
                        "lt" => "<",
                        "gt" => ">",
                        "quot" => "\"",
                        "apos" => "'",
                        _ => "",
                    });
                }
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    if !line.is_empty() {
        flush(&mut out, &mut line);
    }
    Ok(out)
}

fn flush(out: &mut String, line: &mut String) {
    out.push_str(line.trim_end());
    out.push('\n');
    line.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_runs_tables_and_tracked_changes() {
        let xml = br#"<?xml version="1.0"?><w:document xmlns:w="x"><w:body>
<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr><w:r><w:t>Priya </w:t></w:r><w:r><w:t xml:space="preserve">Raman   0:03</w:t></w:r></w:p>
<w:p><w:r><w:t>Hello &amp; welcome</w:t><w:br/><w:t>second line</w:t></w:r><w:del><w:r><w:delText>gone</w:delText></w:r></w:del></w:p>
<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Role</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Engineer</w:t></w:r></w:p></w:tc></w:tr></w:tbl>
<w:p><w:r><w:t>&#20320;&#22909;</w:t></w:r></w:p>
</w:body></w:document>"#;
        let text = document_text(xml).unwrap();
        assert_eq!(text, "Priya Raman   0:03\nHello & welcome\nsecond line\nRole\tEngineer\n你好\n");
    }
}

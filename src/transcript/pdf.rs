//! PDF documents: the text layer through `pdf-extract` (on `lopdf`), page by page, without
//! running heads, page-number footers and other lines repeated on every page.
//!
//! `pdf-extract` panics on some malformed files instead of returning an error; a damaged PDF must
//! be refused with a message, never crash the tool, so extraction runs under `catch_unwind` with
//! the panic message kept off the terminal.

use std::cell::Cell;
use std::collections::HashMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

use super::TranscriptError;

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
}
static HOOK: Once = Once::new();

/// Extract the text of a PDF, pages joined by blank lines.
pub(crate) fn extract(bytes: &[u8]) -> Result<String, TranscriptError> {
    let pages = pages(bytes)?;
    let pages = strip_furniture(pages);
    let text = pages.join("\n\n");
    if !super::text::has_words(&text) {
        return Err(TranscriptError::NoTextLayer);
    }
    Ok(text)
}

fn pages(bytes: &[u8]) -> Result<Vec<String>, TranscriptError> {
    HOOK.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                default(info);
            }
        }));
    });
    QUIET.with(|q| q.set(true));
    let result = panic::catch_unwind(AssertUnwindSafe(|| read_pages(bytes)));
    QUIET.with(|q| q.set(false));
    result.unwrap_or_else(|_| {
        Err(TranscriptError::CorruptDocument { kind: "PDF", why: "its content could not be decoded".into() })
    })
}

fn read_pages(bytes: &[u8]) -> Result<Vec<String>, TranscriptError> {
    let corrupt = |why: String| TranscriptError::CorruptDocument { kind: "PDF", why };
    let mut doc = pdf_extract::Document::load_mem(bytes).map_err(|e| corrupt(e.to_string()))?;
    // Many PDFs are "encrypted" with an empty user password only to stop editing: those open.
    if doc.is_encrypted() && doc.decrypt("").is_err() {
        return Err(TranscriptError::Encrypted("PDF"));
    }
    spell_out_quote_operators(&mut doc);
    let numbers: Vec<u32> = doc.get_pages().keys().copied().collect();
    let mut pages = Vec::with_capacity(numbers.len());
    for n in numbers {
        let mut out = PageText::default();
        pdf_extract::output_doc_page(&doc, &mut out, n).map_err(|e| corrupt(format!("page {n}: {e}")))?;
        pages.push(out.text);
    }
    Ok(pages)
}

/// `pdf-extract` ignores the `'` and `"` text operators (next line, then show text), which some
/// PDF writers use for every line after the first; rewrite them as the `T*` and `Tj` they stand
/// for. Pages without them are left untouched.
fn spell_out_quote_operators(doc: &mut pdf_extract::Document) {
    use pdf_extract::content::Operation;
    let ids: Vec<_> = doc.get_pages().values().copied().collect();
    for id in ids {
        let Ok(content) = doc.get_and_decode_page_content(id) else { continue };
        if !content.operations.iter().any(|op| op.operator == "'" || op.operator == "\"") {
            continue;
        }
        let mut ops = Vec::with_capacity(content.operations.len() * 2);
        for op in content.operations {
            match (op.operator.as_str(), op.operands.as_slice()) {
                ("'", [text]) => {
                    ops.push(Operation::new("T*", vec![]));
                    ops.push(Operation::new("Tj", vec![text.clone()]));
                }
                ("\"", [word, chars, text]) => {
                    ops.push(Operation::new("Tw", vec![word.clone()]));
                    ops.push(Operation::new("Tc", vec![chars.clone()]));
                    ops.push(Operation::new("T*", vec![]));
                    ops.push(Operation::new("Tj", vec![text.clone()]));
                }
                _ => ops.push(op),
            }
        }
        let rewritten = pdf_extract::content::Content { operations: ops };
        if let Ok(bytes) = rewritten.encode() {
            let _ = doc.change_page_content(id, bytes);
        }
    }
}

/// Plain text of one page. Like `pdf-extract`'s own plain-text output, but a gap becomes a space
/// only when it is as wide as a space (a quarter em), not at every kerning adjustment: browsers'
/// PDFs kern inside words ("A lvarez" otherwise). Kangxi radicals, which CJK fonts' ToUnicode
/// maps often give for ordinary ideographs (⾯ for 面), are mapped back.
#[derive(Default)]
struct PageText {
    text: String,
    last_end: f64,
    last_y: f64,
    first_char: bool,
    started: bool,
}

/// Share of the font size a gap must reach to be a word space.
const SPACE_GAP: f64 = 0.25;

impl pdf_extract::OutputDev for PageText {
    fn begin_page(
        &mut self,
        _page: u32,
        _media: &pdf_extract::MediaBox,
        _art: Option<(f64, f64, f64, f64)>,
    ) -> Result<(), pdf_extract::OutputError> {
        Ok(())
    }
    fn end_page(&mut self) -> Result<(), pdf_extract::OutputError> {
        Ok(())
    }
    fn output_character(
        &mut self,
        trm: &pdf_extract::Transform,
        width: f64,
        _spacing: f64,
        font_size: f64,
        ch: &str,
    ) -> Result<(), pdf_extract::OutputError> {
        // The text matrix scales the font: its size on the page is the geometric mean of the axes.
        let sx = (trm.m11 * font_size).hypot(trm.m12 * font_size);
        let sy = (trm.m21 * font_size).hypot(trm.m22 * font_size);
        let size = (sx * sy).sqrt().max(1e-6);
        let (x, y) = (trm.m31, trm.m32);
        if self.started && self.first_char {
            let dy = (y - self.last_y).abs();
            if dy > size * 0.5 {
                self.text.push('\n');
            } else if x > self.last_end + size * SPACE_GAP && !self.text.ends_with([' ', '\n']) {
                self.text.push(' ');
            }
        }
        for c in ch.chars() {
            self.text.push(unradical(c));
        }
        self.first_char = false;
        self.started = true;
        self.last_y = y;
        self.last_end = x + width * size;
        Ok(())
    }
    fn begin_word(&mut self) -> Result<(), pdf_extract::OutputError> {
        self.first_char = true;
        Ok(())
    }
    fn end_word(&mut self) -> Result<(), pdf_extract::OutputError> {
        Ok(())
    }
    fn end_line(&mut self) -> Result<(), pdf_extract::OutputError> {
        Ok(())
    }
}

/// Radicals of the CJK Radicals Supplement that fonts use for simplified ideographs; Unicode has
/// no decomposition for them.
const SUPPLEMENT: &[(char, char)] = &[
    ('\u{2EA0}', '民'),
    ('\u{2EC5}', '见'),
    ('\u{2EC6}', '角'),
    ('\u{2EC9}', '贝'),
    ('\u{2ECB}', '车'),
    ('\u{2ED1}', '長'),
    ('\u{2ED3}', '长'),
    ('\u{2ED4}', '门'),
    ('\u{2ED8}', '青'),
    ('\u{2EDA}', '页'),
    ('\u{2EDB}', '风'),
    ('\u{2EDC}', '飞'),
    ('\u{2EDD}', '食'),
    ('\u{2EE2}', '马'),
    ('\u{2EE3}', '骨'),
    ('\u{2EE4}', '鬼'),
    ('\u{2EE5}', '鱼'),
    ('\u{2EE6}', '鸟'),
    ('\u{2EE8}', '麦'),
    ('\u{2EE9}', '黄'),
    ('\u{2EEC}', '齐'),
    ('\u{2EEE}', '齿'),
    ('\u{2EF0}', '龙'),
    // Radicals that decompose to the traditional form of a character simplified fonts draw.
    ('戶', '户'),
    ('內', '内'),
];

/// A Kangxi or supplement radical as the ideograph it stands for; anything else unchanged (a
/// Traditional-Chinese 內 or 戶 in the text stays as written).
fn unradical(c: char) -> char {
    use unicode_normalization::UnicodeNormalization;
    if !('\u{2E80}'..='\u{2FDF}').contains(&c) {
        return c;
    }
    // The Kangxi radical "door" decomposes to 戶, which then needs the simplified form.
    let c = std::iter::once(c).nfkc().next().unwrap_or(c);
    SUPPLEMENT.iter().find(|(from, _)| *from == c).map_or(c, |&(_, to)| to)
}

/// Drop page furniture: bare page numbers ("3", "- 3 -", "Page 3 of 12", "第 3 页 共 12 页") and
/// the first/last lines that recur, digits aside, on at least half of the pages.
fn strip_furniture(pages: Vec<String>) -> Vec<String> {
    let split: Vec<Vec<&str>> = pages.iter().map(|p| p.lines().collect()).collect();
    // Where furniture sits: a running head or foot is a page's first or last non-empty line; a
    // page number may sit one line further in (a head above it, a date below it).
    let edge_lines = |lines: &[&str], depth: usize| -> Vec<usize> {
        let nonempty: Vec<usize> = (0..lines.len()).filter(|&i| !lines[i].trim().is_empty()).collect();
        let mut v: Vec<usize> = nonempty.iter().take(depth).chain(nonempty.iter().rev().take(depth)).copied().collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let edges: Vec<Vec<usize>> = split.iter().map(|lines| edge_lines(lines, 1)).collect();
    let number_edges: Vec<Vec<usize>> = split.iter().map(|lines| edge_lines(lines, 2)).collect();
    let mut counts: HashMap<String, usize> = HashMap::new();
    for (lines, at) in split.iter().zip(&edges) {
        let mut shapes: Vec<String> = at.iter().map(|&i| shape(lines[i])).collect();
        shapes.sort();
        shapes.dedup();
        for s in shapes {
            *counts.entry(s).or_insert(0) += 1;
        }
    }
    let n = split.len();
    let repeated = |s: &str| n >= 2 && counts.get(s).is_some_and(|&c| c * 2 >= n && c >= 2);
    // A speaker line (`CHEN:`, `Speaker 1  0:02`) repeats its shape on every page too: it is talk.
    let talk = |l: &str| super::labeled::split_label(l).is_some() || super::otter::header(l).is_some();
    split
        .iter()
        .zip(edges.iter().zip(&number_edges))
        .map(|(lines, (at, near))| {
            lines
                .iter()
                .enumerate()
                .filter(|&(i, l)| {
                    let furniture =
                        (at.contains(&i) && repeated(&shape(l)) || near.contains(&i) && is_page_number(l)) && !talk(l);
                    !furniture
                })
                .map(|(_, l)| *l)
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect()
}

/// A line with its digits blurred, so "Page 2" and "Page 3" share a shape.
fn shape(line: &str) -> String {
    line.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .map(|c| if c.is_ascii_digit() { '#' } else { c })
        .collect()
}

fn is_page_number(line: &str) -> bool {
    let t = line.trim().trim_matches(|c: char| c == '-' || c == '–' || c == '—' || c.is_whitespace());
    if t.is_empty() {
        return false;
    }
    if t.chars().all(|c| c.is_ascii_digit()) {
        return t.len() <= 4;
    }
    let lower = t.to_lowercase();
    let words: Vec<&str> = lower.split(|c: char| c.is_whitespace() || c == '/').filter(|w| !w.is_empty()).collect();
    let en = matches!(words.as_slice(), ["page", n] if is_num(n))
        || matches!(words.as_slice(), ["page", n, "of", m] if is_num(n) && is_num(m))
        || matches!(words.as_slice(), [n, "of", m] if is_num(n) && is_num(m))
        || matches!(words.as_slice(), [n, m] if is_num(n) && is_num(m));
    let zh: String = t.chars().filter(|c| !c.is_whitespace()).collect();
    en || zh_page(&zh)
}

fn is_num(s: &str) -> bool {
    !s.is_empty() && s.len() <= 4 && s.chars().all(|c| c.is_ascii_digit())
}

/// `第3页`, `第3页共12页`, `第3页/共12页`, `共12页第3页`.
fn zh_page(s: &str) -> bool {
    let rest: String = s.chars().filter(|c| !c.is_ascii_digit() && !matches!(c, ',' | '，' | '/')).collect();
    s.chars().any(|c| c.is_ascii_digit()) && matches!(rest.as_str(), "第页" | "第页共页" | "共页第页")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn furniture() {
        assert!(is_page_number("Page 3 of 12"));
        assert!(is_page_number("- 4 -"));
        assert!(is_page_number("第 3 页 共 12 页"));
        assert!(is_page_number("12"));
        assert!(!is_page_number("2019: we moved."));
        let pages = vec![
            "Chen Oral History\nCHEN: We moved in 1962.\nChen Oral History — Page 1".to_string(),
            "Chen Oral History\nDOE: Why?\nChen Oral History — Page 2".to_string(),
            "Chen Oral History\nCHEN: Work.\nChen Oral History — Page 3".to_string(),
        ];
        let out = strip_furniture(pages);
        assert_eq!(out, vec!["CHEN: We moved in 1962.", "DOE: Why?", "CHEN: Work."]);
        // Speaker headers repeat their shape on every page's edge, and a year inside a page is
        // talk: both stay.
        let pages: Vec<String> =
            (1..=3).map(|p| format!("Speaker 1  0:0{p}\nWhy?\n1962\nSpeaker 2  0:1{p}\nBecause.\n- {p} -")).collect();
        let out = strip_furniture(pages);
        assert_eq!(out[1], "Speaker 1  0:02\nWhy?\n1962\nSpeaker 2  0:12\nBecause.");
    }
}

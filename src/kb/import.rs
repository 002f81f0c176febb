//! Reading a user's question bank: CSV or TSV with a header row, JSON Lines, or Markdown (a
//! `## question` heading followed by its reference answer). Each row keeps the line it started on,
//! so every problem names it; a bad row is listed and the others go on.

use std::collections::HashMap;

use serde_json::Value;

/// One question of a bank, as the file gave it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Row {
    /// The line the row starts on (1-based).
    pub line: usize,
    pub id: Option<String>,
    pub question: String,
    pub answer: String,
    /// The same question in the other language, where the file gives both (`question_zh`/`answer_zh`
    /// or `question_en`/`answer_en` beside `question`/`answer`).
    pub question_other: String,
    pub answer_other: String,
    pub dimension: Option<String>,
    pub difficulty: Option<String>,
    pub key_points: Vec<String>,
    pub follow_ups: Vec<String>,
    pub novice_answer: String,
    pub tags: Vec<String>,
}

/// A row that could not be imported.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RowProblem {
    pub line: usize,
    pub message: String,
}

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("{0}: unknown bank format; use .csv, .tsv, .jsonl (or .ndjson) or .md")]
    Format(String),
    #[error("the header row names no `{0}` column; the bank needs `question` and `answer` columns (found: {1})")]
    Header(&'static str, String),
    #[error("the file is empty: give a header row and one row per question")]
    Empty,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Csv,
    Tsv,
    Jsonl,
    Markdown,
}

impl Format {
    pub fn of(path: &str) -> Result<Format, ImportError> {
        let lower = path.to_lowercase();
        let ext = lower.rsplit('.').next().unwrap_or("");
        match ext {
            "csv" => Ok(Format::Csv),
            "tsv" | "tab" => Ok(Format::Tsv),
            "jsonl" | "ndjson" => Ok(Format::Jsonl),
            "md" | "markdown" => Ok(Format::Markdown),
            _ => Err(ImportError::Format(path.to_string())),
        }
    }
}

/// The text of a bank file: UTF-8 (a BOM dropped) or UTF-16 with its BOM. Lines that are not valid
/// UTF-8 are blanked and reported, so one badly saved row does not lose the file.
pub fn decode(bytes: &[u8]) -> (String, Vec<RowProblem>) {
    if let Some((enc, _)) = encoding_rs::Encoding::for_bom(bytes) {
        let (text, _, _) = enc.decode(bytes);
        return (text.trim_start_matches('\u{feff}').to_string(), Vec::new());
    }
    let mut text = String::with_capacity(bytes.len());
    let mut problems = Vec::new();
    for (i, line) in bytes.split(|b| *b == b'\n').enumerate() {
        if i > 0 {
            text.push('\n');
        }
        match std::str::from_utf8(line) {
            Ok(s) => text.push_str(s),
            Err(_) => problems.push(RowProblem {
                line: i + 1,
                message: "not UTF-8 text (an unreadable encoding); save the file as UTF-8".into(),
            }),
        }
    }
    (text, problems)
}

/// Rows of a bank and the problems of the rows that could not be read.
pub fn parse(format: Format, text: &str) -> Result<(Vec<Row>, Vec<RowProblem>), ImportError> {
    if text.trim().is_empty() {
        return Err(ImportError::Empty);
    }
    match format {
        Format::Csv => delimited(text, b','),
        Format::Tsv => delimited(text, b'\t'),
        Format::Jsonl => Ok(jsonl(text)),
        Format::Markdown => Ok(markdown(text)),
    }
}

/// The field a column or key names, by its usual spellings.
fn field_of(name: &str) -> Option<&'static str> {
    let n = name.trim().to_lowercase().replace([' ', '-'], "_");
    Some(match n.as_str() {
        "id" | "qid" | "question_id" => "id",
        "question" | "q" | "prompt" => "question",
        "answer" | "a" | "reference" | "reference_answer" | "expert_answer" | "model_answer" | "desired_answer" => {
            "answer"
        }
        "question_zh" | "question_en" | "question_other" => "question_other",
        "answer_zh" | "answer_en" | "answer_other" | "reference_zh" | "reference_en" => "answer_other",
        "dimension" | "topic" | "category" | "section" => "dimension",
        "difficulty" | "level" => "difficulty",
        "key_points" | "keypoints" | "points" | "rubric" => "key_points",
        "follow_ups" | "followups" | "follow_up" => "follow_ups",
        "novice_answer" | "novice" | "weak_answer" => "novice_answer",
        "tags" | "tag" | "keywords" => "tags",
        _ => return None,
    })
}

/// A list given as one cell: one item per line, or, for tags, separated by commas or semicolons.
fn list(cell: &str, separators: &[char]) -> Vec<String> {
    cell.split(|c: char| c == '\n' || separators.contains(&c))
        .map(|s| s.trim().trim_start_matches(['-', '*', '•']).trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

fn set(row: &mut Row, field: &str, value: String) {
    let text = value.trim().to_string();
    match field {
        "id" => row.id = (!text.is_empty()).then_some(text),
        "question" => row.question = text,
        "answer" => row.answer = text,
        "question_other" => row.question_other = text,
        "answer_other" => row.answer_other = text,
        "dimension" => row.dimension = (!text.is_empty()).then_some(text),
        "difficulty" => row.difficulty = (!text.is_empty()).then_some(text.to_lowercase()),
        "key_points" => row.key_points = list(&text, &[]),
        "follow_ups" => row.follow_ups = list(&text, &[]),
        "novice_answer" => row.novice_answer = text,
        "tags" => row.tags = list(&text, &[',', ';', '，', '；']),
        _ => {}
    }
}

fn delimited(text: &str, delimiter: u8) -> Result<(Vec<Row>, Vec<RowProblem>), ImportError> {
    let mut reader = csv::ReaderBuilder::new().delimiter(delimiter).flexible(true).from_reader(text.as_bytes());
    let headers = reader.headers().map_err(|_| ImportError::Empty)?.clone();
    let fields: Vec<Option<&'static str>> = headers.iter().map(field_of).collect();
    for need in ["question", "answer"] {
        if !fields.contains(&Some(need)) {
            return Err(ImportError::Header(need, headers.iter().collect::<Vec<_>>().join(", ")));
        }
    }
    let (mut rows, mut problems) = (Vec::new(), Vec::new());
    for record in reader.records() {
        match record {
            Ok(r) => {
                let line = r.position().map_or(0, |p| p.line() as usize);
                let mut row = Row { line, ..Row::default() };
                for (cell, field) in r.iter().zip(&fields) {
                    if let Some(f) = field {
                        set(&mut row, f, cell.to_string());
                    }
                }
                rows.push(row);
            }
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line() as usize);
                problems.push(RowProblem { line, message: format!("cannot read the row: {e}") });
            }
        }
    }
    Ok((rows, problems))
}

fn jsonl(text: &str) -> (Vec<Row>, Vec<RowProblem>) {
    let (mut rows, mut problems) = (Vec::new(), Vec::new());
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let obj: HashMap<String, Value> = match serde_json::from_str(line) {
            Ok(o) => o,
            Err(e) => {
                problems.push(RowProblem { line: i + 1, message: format!("not a JSON object: {e}") });
                continue;
            }
        };
        let mut row = Row { line: i + 1, ..Row::default() };
        // Sorted keys: when a row has both `question_zh` and `question_en`, the choice is stable.
        let mut keys: Vec<&String> = obj.keys().collect();
        keys.sort();
        for key in keys {
            let Some(field) = field_of(key) else { continue };
            let value = match &obj[key] {
                Value::String(s) => s.clone(),
                Value::Array(items) => items
                    .iter()
                    .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                    .collect::<Vec<_>>()
                    .join("\n"),
                Value::Null => String::new(),
                other => other.to_string(),
            };
            set(&mut row, field, value);
        }
        rows.push(row);
    }
    (rows, problems)
}

/// `## question` then its answer; within it, a `Key points:` (or `Follow-ups:`, `Novice answer:`,
/// `要点：`, `追问：`) line starts that part. A `# title` line sets the dimension of what follows.
fn markdown(text: &str) -> (Vec<Row>, Vec<RowProblem>) {
    let mut rows: Vec<Row> = Vec::new();
    let mut part = "answer";
    let mut dimension: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if let Some(q) = t.strip_prefix("## ") {
            rows.push(Row {
                line: i + 1,
                question: q.trim().to_string(),
                dimension: dimension.clone(),
                ..Row::default()
            });
            part = "answer";
            continue;
        }
        if let Some(title) = t.strip_prefix("# ") {
            dimension = title.split([':', '：']).nth(1).map(|s| s.trim().to_string());
            continue;
        }
        let Some(row) = rows.last_mut() else { continue };
        if let Some((label, rest)) = t.split_once([':', '：']) {
            if let Some(p) = section(label) {
                part = p;
                append(row, part, rest);
                continue;
            }
        }
        append(row, part, line);
    }
    for r in &mut rows {
        r.answer = r.answer.trim().to_string();
        r.novice_answer = r.novice_answer.trim().to_string();
    }
    (rows, Vec::new())
}

fn section(label: &str) -> Option<&'static str> {
    match label.trim().trim_matches('*').trim().to_lowercase().as_str() {
        "key points" | "keypoints" | "要点" | "关键点" => Some("key_points"),
        "follow-ups" | "follow ups" | "followups" | "追问" => Some("follow_ups"),
        "novice answer" | "weak answer" | "新手回答" => Some("novice_answer"),
        "tags" | "标签" => Some("tags"),
        "id" => Some("id"),
        "difficulty" | "难度" => Some("difficulty"),
        _ => None,
    }
}

fn append(row: &mut Row, part: &str, line: &str) {
    let item = line.trim().trim_start_matches(['-', '*', '•']).trim();
    match part {
        "key_points" if !item.is_empty() => row.key_points.push(item.to_string()),
        "follow_ups" if !item.is_empty() => row.follow_ups.push(item.to_string()),
        "tags" => row.tags.extend(list(item, &[',', ';', '，'])),
        "id" if !item.is_empty() => row.id = Some(item.to_string()),
        "difficulty" if !item.is_empty() => row.difficulty = Some(item.to_lowercase()),
        "novice_answer" => {
            row.novice_answer.push_str(line);
            row.novice_answer.push('\n');
        }
        "answer" => {
            row.answer.push_str(line);
            row.answer.push('\n');
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_with_quoted_multiline_cells_keeps_line_numbers() {
        let text = "id,question,answer,key_points\nq1,What is X?,\"X is a thing.\nIt does Y.\",\"a thing\ndoes Y\"\nq2,What is Z?,Z.,\n";
        let (rows, problems) = parse(Format::Csv, text).unwrap();
        assert!(problems.is_empty());
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].key_points, vec!["a thing", "does Y"]);
        assert_eq!(rows[0].line, 2);
        assert_eq!(rows[1].line, 5, "q1 spans lines 2-4");
    }

    #[test]
    fn a_header_without_answer_is_refused() {
        let err = parse(Format::Tsv, "question\tnotes\nWhat?\tx\n").unwrap_err();
        assert!(err.to_string().contains("answer"), "{err}");
    }

    #[test]
    fn markdown_sections() {
        let text = "# Bank: web\n\n## What is CORS?\n\nA browser rule.\nIt relaxes SOP.\n\nKey points:\n- relaxes same-origin\n- preflight\n\n## 什么是 DOM？\n\n文档对象模型。\n";
        let (rows, _) = parse(Format::Markdown, text).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].answer, "A browser rule.\nIt relaxes SOP.");
        assert_eq!(rows[0].key_points, vec!["relaxes same-origin", "preflight"]);
        assert_eq!(rows[0].dimension.as_deref(), Some("web"));
        assert_eq!(rows[1].line, 12);
    }

    #[test]
    fn bad_utf8_lines_are_reported_not_fatal() {
        let mut bytes = b"{\"question\":\"a?\",\"answer\":\"b\"}\n".to_vec();
        bytes.extend_from_slice(b"{\"question\":\"\xff\xfe?\",\"answer\":\"c\"}\n");
        let (text, problems) = decode(&bytes);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].line, 2);
        let (rows, _) = parse(Format::Jsonl, &text).unwrap();
        assert_eq!(rows.len(), 1);
    }
}

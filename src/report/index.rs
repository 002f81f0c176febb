//! `index.html` of a batch: every file with its scores and a link to its report, sortable by any
//! column (a few lines of inline script; the page works offline and without it).

use serde::Serialize;

/// One row of the index.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub file: String,
    pub ok: bool,
    pub overall: Option<u32>,
    pub questions: Option<usize>,
    pub language: Option<String>,
    /// The HTML (else first) report, relative to the index.
    pub link: Option<String>,
    pub error: Option<String>,
}

pub fn html(rows: &[Row], title: &str) -> String {
    let esc = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;");
    let ok = rows.iter().filter(|r| r.ok).count();
    let mut body = String::new();
    for r in rows {
        let name = match &r.link {
            Some(l) => format!(r#"<a href="{}">{}</a>"#, esc(l), esc(&r.file)),
            None => esc(&r.file),
        };
        let num = |v: Option<String>| v.unwrap_or_default();
        body.push_str(&format!(
            "<tr class=\"{}\"><td>{name}</td><td data-v=\"{}\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            if r.ok { "ok" } else { "failed" },
            r.overall.map(|v| v as i64).unwrap_or(-1),
            num(r.overall.map(|v| v.to_string())),
            num(r.questions.map(|v| v.to_string())),
            esc(r.language.as_deref().unwrap_or("")),
            esc(r.error.as_deref().unwrap_or(if r.ok { "ok" } else { "failed" })),
        ));
    }
    format!(
        r#"<!doctype html>
<html><head><meta charset="utf-8"><title>{t}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 24px; color: #222; }}
table {{ border-collapse: collapse; width: 100%; }} th, td {{ padding: 6px 10px; border-bottom: 1px solid #ddd; text-align: left; }}
th {{ cursor: pointer; background: #f4f6f8; }} tr.failed td {{ color: #b71c1c; }}
</style></head><body>
<h1>{t}</h1>
<p>{ok} of {n} files diagnosed; {failed} failed. Click a column to sort.</p>
<table id="t"><thead><tr><th>file</th><th>overall</th><th>questions</th><th>language</th><th>status</th></tr></thead>
<tbody>
{body}</tbody></table>
<script>
document.querySelectorAll('#t th').forEach((th, i) => th.addEventListener('click', () => {{
  const tb = document.querySelector('#t tbody'); const rows = [...tb.rows];
  const key = r => r.cells[i].dataset.v !== undefined ? Number(r.cells[i].dataset.v) : (isNaN(parseFloat(r.cells[i].innerText)) ? r.cells[i].innerText : parseFloat(r.cells[i].innerText));
  const dir = th.dataset.dir === 'asc' ? -1 : 1; th.dataset.dir = dir === 1 ? 'asc' : 'desc';
  rows.sort((a, b) => (key(a) > key(b) ? 1 : key(a) < key(b) ? -1 : 0) * dir).forEach(r => tb.appendChild(r));
}}));
</script>
</body></html>
"#,
        t = esc(title),
        n = rows.len(),
        failed = rows.len() - ok,
    )
}

//! The layout DESIGN.md promises, read off the source: data flows one way (cli -> agent ->
//! skills -> tools -> domain), no two modules import each other through any path, no domain
//! module reaches for the language model's types, skills never call the model or the store, and
//! no function grows past what a reader follows in one sitting.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::common::root;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level module a file of `src/` belongs to.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel.components().next().unwrap().as_os_str().to_string_lossy().to_string();
    first.trim_end_matches(".rs").to_string()
}

/// Code lines only: comments (doc links name modules too) and the test modules at the end of a
/// file (tests may reach anywhere) are left out.
fn code(text: &str) -> String {
    let body = text.split("#[cfg(test)]").next().unwrap_or("");
    body.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// Module -> the modules it imports (`crate::X` anywhere in its code).
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let re = regex::Regex::new(r"crate::([a-z_]+)").unwrap();
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let m = module_of(&src, &f);
        if m == "lib" || m == "main" {
            continue;
        }
        let text = code(&std::fs::read_to_string(&f).unwrap());
        let deps = g.entry(m.clone()).or_default();
        for c in re.captures_iter(&text) {
            if c[1] != m {
                deps.insert(c[1].to_string());
            }
        }
    }
    g
}

/// A cycle through `start`, if any (depth-first search over the graph).
fn cycle_from(g: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    fn walk(
        g: &BTreeMap<String, BTreeSet<String>>,
        at: &str,
        start: &str,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        for next in g.get(at).into_iter().flatten() {
            if next == start {
                path.push(next.clone());
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(g, next, start, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![start.to_string()];
    let mut seen = BTreeSet::new();
    walk(g, start, start, &mut path, &mut seen).then_some(path)
}

#[test]
fn modules_import_each_other_in_one_direction_only() {
    let g = graph();
    assert!(g.len() >= 15, "modules found: {:?}", g.keys().collect::<Vec<_>>());
    for m in g.keys() {
        if let Some(c) = cycle_from(&g, m) {
            panic!("import circle: {}", c.join(" -> "));
        }
    }
}

#[test]
fn the_layers_hold() {
    let g = graph();
    let imports = |m: &str| g.get(m).cloned().unwrap_or_default();
    let upper = ["cli", "web", "agent", "skills", "tools", "eval", "bench"];
    let domain = ["transcript", "audio", "kb", "llm", "report", "store", "scoring", "models", "config", "audit"];
    for d in domain {
        let bad: Vec<_> = imports(d).into_iter().filter(|i| upper.contains(&i.as_str())).collect();
        assert!(bad.is_empty(), "domain module {d} imports {bad:?}");
    }
    // The leaves.
    for leaf in ["lang", "digest"] {
        assert!(imports(leaf).is_empty(), "{leaf} is a leaf but imports {:?}", imports(leaf));
    }
    // Only the agent, the tools and the CLI talk to the model; scoring owns the numbers it adds.
    for m in ["transcript", "audio", "kb", "report", "store", "scoring", "skills", "eval"] {
        assert!(!imports(m).contains("llm"), "{m} imports llm");
    }
    // Skills call tools: never the model or the store directly.
    for m in ["llm", "store", "audio"] {
        assert!(!imports("skills").contains(m), "skills import {m}");
    }
    // The store keeps rows, not reports.
    assert!(!imports("store").contains("report"), "store imports report");
    // The web console is a front end beside the CLI: only the CLI starts it, and it never reaches
    // into the CLI (both call skills, tools and the store).
    for (m, deps) in &g {
        assert!(m == "cli" || m == "web" || !deps.contains("web"), "{m} imports web");
    }
    assert!(!imports("web").contains("cli"), "web imports cli");
    // Benchmarks are out of the product's paths: only the CLI reaches them.
    for (m, deps) in &g {
        assert!(m == "cli" || !deps.contains("bench"), "{m} imports bench");
    }
}

/// Function lengths by brace matching over code lines: the longest in `src/`.
fn longest_functions(limit: usize) -> Vec<(usize, String)> {
    let src = root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let start =
        regex::Regex::new(r"^\s*(pub(\([a-z]+\))?\s+)?(async\s+)?(unsafe\s+)?(extern .C.\s+)?fn\s+(\w+)").unwrap();
    let strings = regex::Regex::new(r#""(\\.|[^"\\])*"|'(\\.|[^'\\])'"#).unwrap();
    let mut long = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let mut i = 0;
        while i < lines.len() {
            if let Some(c) = start.captures(lines[i]) {
                let (mut depth, mut opened, mut j) = (0i64, false, i);
                while j < lines.len() {
                    let l = strings.replace_all(lines[j], "\"\"");
                    let l = l.split("//").next().unwrap_or("");
                    for ch in l.chars() {
                        match ch {
                            '{' => {
                                depth += 1;
                                opened = true
                            }
                            '}' => depth -= 1,
                            _ => {}
                        }
                    }
                    if (opened && depth <= 0) || (!opened && l.trim_end().ends_with(';')) {
                        break;
                    }
                    j += 1;
                }
                let n = j - i + 1;
                if n > limit {
                    long.push((n, format!("{}:{} {}", f.strip_prefix(&src).unwrap().display(), i + 1, &c[6])));
                }
            }
            i += 1;
        }
    }
    long.sort_by(|a, b| b.cmp(a));
    long
}

#[test]
fn no_function_is_longer_than_a_reader_follows() {
    let long = longest_functions(80);
    assert!(long.is_empty(), "functions over 80 lines: {long:?}");
}

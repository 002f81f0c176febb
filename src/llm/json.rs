//! Getting one JSON object out of what a model wrote: as it is, inside a ```json fence, or the
//! first balanced `{...}` in prose ("Sure! Here is the JSON: {...}").

use serde_json::Value;

/// The first JSON object in `text`, or None.
pub fn extract_object(text: &str) -> Option<Value> {
    let t = text.trim();
    if let Ok(v @ Value::Object(_)) = serde_json::from_str::<Value>(t) {
        return Some(v);
    }
    if let Some(inner) = fenced(t) {
        if let Ok(v @ Value::Object(_)) = serde_json::from_str::<Value>(inner.trim()) {
            return Some(v);
        }
    }
    // Every `{` is a possible start; the first that closes into valid JSON wins.
    let bytes = t.as_bytes();
    for (start, _) in t.char_indices().filter(|(_, c)| *c == '{') {
        if let Some(end) = balanced_end(&bytes[start..]) {
            if let Ok(v @ Value::Object(_)) = serde_json::from_str::<Value>(&t[start..start + end]) {
                return Some(v);
            }
        }
    }
    None
}

fn fenced(t: &str) -> Option<&str> {
    let open = t.find("```")?;
    let rest = &t[open + 3..];
    let body_start = rest.find('\n')? + 1;
    let body = &rest[body_start..];
    let close = body.find("```")?;
    Some(&body[..close])
}

/// Length of the balanced `{...}` at the start of `b`, strings and escapes respected.
fn balanced_end(b: &[u8]) -> Option<usize> {
    let (mut depth, mut in_str, mut escaped) = (0i32, false, false);
    for (i, &c) in b.iter().enumerate() {
        if in_str {
            match c {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => in_str = true,
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_fenced_and_in_prose() {
        assert_eq!(extract_object(r#"{"a": 1}"#).unwrap()["a"], 1);
        assert_eq!(extract_object("Here:\n```json\n{\"a\": 2}\n```\nDone.").unwrap()["a"], 2);
        let v = extract_object(r#"Sure! {"note": "a } inside", "b": {"c": 3}} and more {"#).unwrap();
        assert_eq!(v["b"]["c"], 3);
        assert_eq!(extract_object("no json {here").map(|_| ()), None);
        assert_eq!(extract_object("[1, 2]"), None);
        // A broken first object does not hide a good later one.
        assert_eq!(extract_object(r#"{"a": } then {"b": 4}"#).unwrap()["b"], 4);
    }
}

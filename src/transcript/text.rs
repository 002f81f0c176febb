//! Small text helpers shared by the parsers, role detection and the pair splitter.

use crate::lang::is_cjk_or_punct;

/// Whether a text holds at least one letter or ideograph (not only digits, times and punctuation).
pub fn has_words(text: &str) -> bool {
    text.chars().any(|c| c.is_alphabetic())
}

/// Append `next` to `acc` the way a wrapped line continues: no space between Chinese text, one
/// space between Latin words.
pub fn join_into(acc: &mut String, next: &str) {
    let next = next.trim();
    if next.is_empty() {
        return;
    }
    let need_space = match (acc.chars().last(), next.chars().next()) {
        (None, _) => false,
        (Some(a), Some(b)) => !(is_cjk_or_punct(a) || is_cjk_or_punct(b)),
        _ => false,
    };
    if need_space {
        acc.push(' ');
    }
    acc.push_str(next);
}

/// Join whole turns: a newline between them keeps their boundaries visible.
pub fn join_turn(acc: &mut String, next: &str) {
    let next = next.trim();
    if next.is_empty() {
        return;
    }
    if !acc.is_empty() {
        acc.push('\n');
    }
    acc.push_str(next);
}

/// Lowercase text with punctuation turned into spaces and whitespace collapsed: the form the
/// lexicon checks compare against.
pub fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = true;
    for c in text.chars() {
        if c.is_alphanumeric() || c == '\'' || c == '-' {
            for l in c.to_lowercase() {
                out.push(l);
            }
            space = false;
        } else if !space {
            out.push(' ');
            space = true;
        }
    }
    if out.ends_with(' ') {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins() {
        let mut s = String::from("hello");
        join_into(&mut s, "world");
        assert_eq!(s, "hello world");
        let mut z = String::from("你好，");
        join_into(&mut z, "世界");
        assert_eq!(z, "你好，世界");
    }
}

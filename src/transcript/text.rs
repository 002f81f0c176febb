//! Small text helpers shared by the parsers, role detection and the pair splitter.

use super::lang::is_cjk;

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

pub fn is_cjk_or_punct(c: char) -> bool {
    is_cjk(c) || matches!(c, '\u{3000}'..='\u{303F}' | '\u{FF00}'..='\u{FFEF}')
}

/// Split into sentences after 。！？!? and after '.' followed by whitespace; the terminator stays
/// with its sentence, and closing quotes or brackets follow it.
pub fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut iter = text.char_indices().peekable();
    while let Some((i, c)) = iter.next() {
        let terminal = match c {
            '。' | '！' | '？' | '!' | '?' | '…' => true,
            '.' | ';' | '；' => iter.peek().is_none_or(|&(_, n)| n.is_whitespace()),
            '\n' => true,
            _ => false,
        };
        if terminal {
            let mut end = i + c.len_utf8();
            while let Some(&(j, n)) = iter.peek() {
                if matches!(n, '"' | '\'' | '”' | '’' | '）' | ')' | '」' | '』' | '!' | '?' | '！' | '？' | '。')
                {
                    end = j + n.len_utf8();
                    iter.next();
                } else {
                    break;
                }
            }
            let s = text[start..end].trim();
            if !s.is_empty() {
                out.push(s);
            }
            start = end;
        }
    }
    let s = text[start..].trim();
    if !s.is_empty() {
        out.push(s);
    }
    out
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
    fn splits_sentences() {
        assert_eq!(sentences("好的。那我们聊聊记忆？你怎么设计"), vec!["好的。", "那我们聊聊记忆？", "你怎么设计"]);
        assert_eq!(
            sentences("Okay, great. What is MCP? It is v1.2 now."),
            vec!["Okay, great.", "What is MCP?", "It is v1.2 now."]
        );
        assert_eq!(sentences("“真的吗？”他问。"), vec!["“真的吗？”", "他问。"]);
    }

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

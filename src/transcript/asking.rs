//! Whether an interviewer's turn asks anything. Speech-to-text drops most question marks ("so what
//! happens when the tool times out", "那工具超时的时候你们怎么处理"), and a question mark does not
//! always ask ("Who hasn't been burned by a flaky tool, right?"). Used where a turn either becomes
//! a scored question or stays a remark inside the answer it interrupts; role detection keeps the
//! narrower [`is_question_sentence`], since candidates ask themselves questions too ("为什么呢？").

use super::asking_words::*;
use super::phrases::is_question_sentence;
use crate::lang::{is_cjk, sentences};

/// Whether the turn asks something in any of its sentences.
pub fn asks(text: &str) -> bool {
    let all = sentences(text);
    all.iter().enumerate().any(|(i, s)| sentence_asks(s) && !all.get(i + 1).is_some_and(|n| answers_itself(s, n)))
}

/// "Why would anyone write their own tokenizer? Nobody, that's why." / "什么叫生产环境？就是…" /
/// "Oh really? Interesting." / "能听到吗？好，你回来了。": the next sentence answers the question or
/// reacts to it and moves on, so the question asks nothing of the candidate.
fn answers_itself(question: &str, next: &str) -> bool {
    let next = next.trim_start().to_lowercase().replace('’', "'");
    // "Can you hear me okay? Great, you're back.": an acknowledgement closes even a question put
    // to the candidate (a reaction only the interviewer's own, below), unless it only encourages them to answer ("Okay, take your time.").
    if opens_with(&next, ACKNOWLEDGEMENTS) && !ENCOURAGEMENTS.iter().any(|e| next.contains(e)) {
        return true;
    }
    // A question put to the candidate is not answered by whatever follows it ("你们的 QPS 大概多少？
    // 就是峰值的时候。" narrows it; "How would you do it? Nothing fancy, walk me through it.").
    let lower_q = question.to_lowercase();
    let to_you = question.contains(['你', '您'])
        || lower_q.split(|c: char| !c.is_alphanumeric() && c != '\'').any(|w| matches!(w, "you" | "your" | "you're"));
    if to_you {
        return false;
    }
    if opens_with(&next, REACTIONS) {
        return true;
    }
    // An English answer to oneself is short ("Nobody, that's why."); a Chinese one opens with it.
    let short = next.split_whitespace().count() <= 5;
    let opens = |p: &&str| {
        next.starts_with(p) && !next[p.len()..].starts_with(char::is_alphanumeric) && short
            || p.chars().any(is_cjk) && next.starts_with(p)
    };
    // "Why does this matter? Because latency compounds.": answered at once with "because".
    let why = question.contains("为什么") || lower_q.trim_start().starts_with("why");
    SELF_ANSWERS.iter().any(opens)
        || next.contains("that's why")
        || why && (next.starts_with("因为") || next.starts_with("because"))
        || echoes(question) && !opens_with(&next, CLARIFIERS)
}

/// A question mark on words that ask nothing by themselves ("Three retries with no backoff?",
/// "幻觉？", "pgvector 扛这个量？"): an echo of what was said, asking only when nothing follows.
fn echoes(question: &str) -> bool {
    let t = question.trim().trim_end_matches(['?', '？', ' ']);
    if t.chars().any(is_cjk) {
        // "是吗？" asks by its particle (`chinese_asks`); a reaction after it closes it instead.
        return !chinese_asks(t);
    }
    let lower = t.to_lowercase();
    let words: Vec<&str> =
        lower.split(|c: char| !(c.is_alphanumeric() || c == '\'')).filter(|w| !w.is_empty()).collect();
    let w: Vec<&str> = words.iter().skip_while(|w| LEAD_IN.contains(w) || INTERJECTIONS.contains(w)).copied().collect();
    !w.is_empty() && !w.iter().take(2).any(|x| WH.contains(x) || AUX.contains(x)) && !english_asks(&lower, &words)
}

/// Whether `text` (lower case) opens with one of `phrases` as a whole word.
fn opens_with(text: &str, phrases: &[&str]) -> bool {
    phrases.iter().any(|p| {
        text.strip_prefix(p).is_some_and(|rest| p.chars().any(is_cjk) || !rest.starts_with(char::is_alphanumeric))
    })
}

/// The text from its first asking sentence on (trimmed); None when no sentence asks.
pub fn from_first_asking(text: &str) -> Option<&str> {
    let all = crate::lang::sentences(text);
    let i = all.iter().position(|s| sentence_asks(s))?;
    let at = all[i].as_ptr() as usize - text.as_ptr() as usize;
    text.get(at..).map(str::trim)
}

/// Whether one sentence asks.
pub fn sentence_asks(s: &str) -> bool {
    let t = s.trim().trim_end_matches(['"', '\'', '”', '’', ')', '）', '」', ' ', '.', '。', '!', '！', '…']);
    if t.is_empty() {
        return false;
    }
    let marked = t.ends_with('?') || t.ends_with('？');
    let body = t.trim_end_matches(['?', '？', ' ']).to_lowercase();
    if marked && BARE_TAGS.contains(&body.as_str()) {
        return false;
    }
    if t.chars().any(is_cjk) {
        let bare = t.trim_start_matches(|c: char| "那就其实说实话，, ".contains(c));
        // "凌晨三点被叫起来，谁不爱呢？": the rhetorical turn may come after a clause.
        let last = t.rsplit(['，', ',']).next().unwrap_or(t).trim();
        let rhetorical = |s: &str| RHETORICAL_ZH.iter().any(|p| s.starts_with(p));
        if rhetorical(t) || rhetorical(bare) || rhetorical(last) || rhetorical_which_zh(bare) {
            return false;
        }
        return if marked { !is_tag_remark_zh(t) } else { chinese_asks(t) };
    }
    let lower = t.to_lowercase().replace('’', "'");
    let words: Vec<&str> =
        lower.split(|c: char| !(c.is_alphanumeric() || c == '\'')).filter(|w| !w.is_empty()).collect();
    let opening = words.iter().skip_while(|w| LEAD_IN.contains(w)).copied().collect::<Vec<_>>().join(" ");
    if RHETORICAL_EN.iter().any(|p| opening.starts_with(p)) {
        return false;
    }
    if marked {
        return !is_tag_remark(&lower, &words);
    }
    let padded = format!(" {} ", words.join(" "));
    is_question_sentence(t)
        || english_asks(&lower, &words)
        || REQUESTS_EN.iter().any(|p| padded.contains(&format!(" {p} ")))
}

/// "哪个团队没被 flaky test 折磨过呢？": "which one hasn't" expects the answer "none".
fn rhetorical_which_zh(t: &str) -> bool {
    // "哪个方案不会丢数据？" asks; "哪个…没…过呢" expects "none".
    let end = t.trim_end_matches(['？', '?', '。', ' ']);
    ["哪个", "哪家", "哪一个", "哪位"].iter().any(|p| t.starts_with(p))
        && t.chars().take(12).any(|c| c == '没')
        && (end.ends_with("过呢") || end.ends_with('过'))
}

/// "谁都踩过这个坑，对吧？": a statement with a tag asks for a nod, unless it is about the
/// candidate ("你们用的是 Postgres，对吧？" asks them to confirm) or asks by itself.
fn is_tag_remark_zh(t: &str) -> bool {
    let body = t.trim_end_matches(['?', '？', ' ']);
    let Some((head, tag)) = body.rsplit_once(['，', ',']) else { return false };
    let tag = tag.trim().trim_end_matches(['呢', '啊', '呀']);
    TAGS_ZH.contains(&tag) && !head.trim().is_empty() && !head.contains('你') && !chinese_asks(head)
}

/// "That's the classic trade-off, isn't it?" — a statement with a tag: it asks for a nod.
fn is_tag_remark(lower: &str, words: &[&str]) -> bool {
    let body = lower.trim_end_matches(['?', ' ']);
    let Some((head, tag)) = body.rsplit_once(',') else { return false };
    let tag = tag.trim();
    let mut w = words.iter().skip_while(|w| LEAD_IN.contains(w)).copied();
    let (first, second) = (w.next().unwrap_or(""), w.next().unwrap_or(""));
    // "What did you pick, right?" still asks; "Who hasn't been burned…, right?" does not.
    let asks_itself = AUX.contains(&first) || WH.contains(&first) && AUX.contains(&second);
    // "You used Postgres for the checkpoints, right?" asks the candidate to confirm.
    let about_you = head
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .any(|w| matches!(w, "you" | "your" | "you're" | "you've"))
        && !head.contains("you know");
    TAGS.contains(&tag) && !head.trim().is_empty() && !asks_itself && !about_you
}

fn english_asks(lower: &str, words: &[&str]) -> bool {
    let skip = words.iter().take_while(|w| LEAD_IN.contains(w)).count();
    let w = &words[skip..];
    let Some(&first) = w.first() else { return false };
    let second = w.get(1).copied().unwrap_or("");
    let rest = w.iter().skip(1).copied().collect::<Vec<_>>().join(" ");
    if ASKING_EN.iter().any(|p| format!("{} ", w.join(" ")).starts_with(p)) || rest.is_empty() && first == "why" {
        return true;
    }
    // "Say the provider goes down for an hour" is a hypothetical; "say" alone is not.
    if lower.trim_start().starts_with("say ") && w.len() >= 4 {
        return true;
    }
    match first {
        "how" => AUX.contains(&second) || HOW_DEGREE.contains(&second) || second == "you" || second == "would",
        "why" => !matches!(second, "we" | "i" | "it's" | "this"),
        f if WH.contains(&f) => AUX.contains(&second) || second == "happens" || second == "happened" || second == "if",
        // "Do you…", "Have you…", "Is there…": inversion asks.
        // "Have a look at this." is an instruction.
        f if AUX.contains(&f) => SUBJECTS.contains(&second) && !(f == "have" && matches!(second, "a" | "an")),
        _ => false,
    }
}

fn chinese_asks(t: &str) -> bool {
    let end = t.trim_end_matches(['。', '，', ',', ' ']);
    // "吗" asks wherever it stands ("你用过 LangChain 吗还是都是自己写的"); "嘛" at the end
    // mostly states ("这就是经典的 trade-off 嘛").
    if t.contains('吗') || ["呢", "么"].iter().any(|p| end.ends_with(p)) && !end.ends_with("怎么说呢") {
        return true;
    }
    // "先简单介绍一下…", "进程和线程的区别，你简单说一下": a prompt opening a clause, after a
    // leading adverb or two.
    let prompt = |clause: &str| {
        let bare = clause.trim_start_matches(|c: char| "那先再就你请简单稍微可以来然后好的 ".contains(c));
        PROMPTS_ZH.iter().any(|p| clause.starts_with(p) || bare.starts_with(p))
    };
    // A later clause asks only when it turns to the candidate ("…，你简单说一下"); "那我们进入
    // 下一个环节，聊聊系统设计" announces the next part.
    let mut clauses = t.split(['，', ',', '；']).map(str::trim);
    let to_you = |c: &str| c.trim_start_matches(|c: char| "那再就".contains(c)).starts_with(['你', '请']);
    if clauses.next().is_some_and(prompt) || clauses.any(|c| to_you(c) && prompt(c)) {
        return true;
    }
    ASKING_ZH.iter().any(|w| {
        t.match_indices(w).any(|(at, _)| {
            let (before, upto, from) = (&t[..at], &t[..at + w.len()], &t[at..]);
            !NOT_ASKING_ZH.iter().any(|n| upto.ends_with(n) || before.contains(n))
                && !inside_quantity(t, at)
                && !STATEMENT_TAILS_ZH.iter().any(|n| from.starts_with(n))
        })
    })
}

/// Whether the byte `at` of `t` lies inside a quantity that states ("好几个候选人").
fn inside_quantity(t: &str, at: usize) -> bool {
    QUANTITIES_ZH.iter().any(|n| t.match_indices(n).any(|(start, m)| (start..start + m.len()).contains(&at)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unmarked_questions_ask() {
        for q in [
            "So what happens when the tool times out",
            "I'm curious how you handled rate limits there.",
            "Say the provider goes down for an hour. What does your system do",
            "how many requests per second did it take",
            "那工具超时的时候你们怎么处理",
            "讲一下你们 RAG 的整体链路",
            "效果怎么样",
            "那后来呢",
            "Talk about the first protein structure you worked on.",
            "先简单介绍一下你最近做的一个Agent项目。",
            "and did the team keep using it after you left",
            "We run forty services on Kafka, so I want to understand how you'd design idempotent consumers",
            "You used Postgres for the checkpoints, right?",
            "进程和线程的区别，你简单说一下",
            "你用过 LangChain 吗还是都是自己写的",
            "写一下 LRU cache 吧，用你熟悉的语言就行",
            "你们的 QPS 大概多少？就是峰值的时候。",
            "How would you roll it out? Nothing fancy, just walk me through it.",
            "哪个方案不会丢数据？",
            "Please go over how you'd shard that table once it hits a billion rows.",
            "那你们这个限流是在哪一层做的",
        ] {
            assert!(asks(q), "{q}");
        }
    }

    #[test]
    fn remarks_do_not_ask() {
        for s in [
            "That's the code I write.",
            "It does, it does.",
            "Who hasn't been burned by a flaky tool, right?",
            "That's the classic trade-off, isn't it?",
            "What we do here is mostly RAG.",
            "我也不知道为什么大家都这么做。",
            "好，这个挺有意思。",
            "这个没什么问题。",
            "Why would anyone write their own tokenizer? Nobody, that's why.",
            "Isn't that always the way? You fix one flaky test and two more show up.",
            "Share your screen when you're ready.",
            "谁不喜欢写 YAML 呢，对吧？",
            "这就是经典的 trade-off 嘛，是不是？",
            "哪个团队没被 flaky test 折磨过呢？",
            "这个问题我问过好几个候选人，每个人答得都不一样，挺正常的。",
            "什么叫生产环境？就是出了问题半夜会有人给你打电话的地方。",
            "好，那我们进入下一个环节，聊聊系统设计。",
            "Have a look at the diagram first.",
            "那可不吗，大家都踩过这个坑。",
            "对，RAG 里面 chunk 切得不好，后面 rerank 再怎么调也救不回来。",
        ] {
            assert!(!asks(s), "{s}");
        }
    }

    #[test]
    fn a_question_the_interviewer_closes_asks_nothing() {
        for s in [
            "Five vector stores in one project? Wow.",
            "降级也没做？行吧，挺常见的。",
            "Is my audio coming through? Okay, good, we're fine.",
            "你那边网络还好吗？嗯，现在清楚了。",
            "Why is caching hard? Because invalidation never ends.",
            "Right?",
            "对吧？",
            "Sharding is mostly bookkeeping, you know?",
            "改了一周的 prompt，谁能想到问题在数据上呢？",
        ] {
            assert!(!asks(s), "{s}");
        }
        for q in [
            "Five vector stores in one project?",
            "And the latency? I mean end to end, from the user's click.",
            "How would you shard it? Okay, take your time.",
            "降级也没做？那线上挂了怎么办？",
            "Right? So how did you convince the team?",
            "你觉得为什么会慢？好像跟索引有关。",
            "What would you change first? Interesting problem, this one.",
        ] {
            assert!(asks(q), "{q}");
        }
    }
}

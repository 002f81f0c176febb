//! The part of an interviewer's turn that asks: what is matched against the base, and the set-up
//! a thin asking part is judged with.

/// An asking part with fewer distinctive terms than this leans on what was said before it ("Say
/// your p95 latency is nine seconds and product wants three. What would you do?", "线上出了一次
/// 事故，用户投诉答案错了。你怎么排查？"): the lead-in is then the question, not a segue, and the
/// whole turn is kept. Seen in an interview written outside the project, where "What would you
/// do?" alone matched nothing and its sound answer was called off-topic (11/100). Of the
/// interviewer turns of `data/eval/turns*.jsonl` and `question_kinds.jsonl` that ask after a
/// lead-in, it keeps two whole: a set-up ("So the agent decides when to stop on its own, right?
/// How does it know it's done?") and a rhetorical remark; at 3 it kept "Okay, cool." before "How
/// did you evaluate the retriever, then?" and cut "How did you chunk your documents, and why?".
const SELF_CONTAINED_TERMS: usize = 2;

/// The question from its first asking sentence on: an opening greeting or segue ("你好，今天主要
/// 聊聊 Agent 相关的工程问题。先说说…") would blur its meaning in the vectors that match it. An
/// asking part too thin to stand alone ([`SELF_CONTAINED_TERMS`]) is not cut from its lead-in.
pub fn asking_part(question: &str) -> &str {
    match crate::transcript::asking::from_first_asking(question) {
        // Cut only when something comes before the asking sentence and what is left stands alone.
        Some(q) if q.len() < question.trim().len() && crate::kb::terms::term_set(q).len() >= SELF_CONTAINED_TERMS => q,
        _ => question,
    }
}

/// An asking part with fewer distinctive terms than this, though it stands alone, is judged with
/// the set-up just before it ([`with_set_up`]) when the base holds no entry for it. One with more
/// carries its own topic: "LLMs don't know today's date. How do you handle dates and relative
/// time expressions in an agent?".
const STANDS_ALONE_TERMS: usize = 4;
/// A sentence before the asking one with this many distinctive terms or more sets the question
/// up ("Users can upload PDFs, some thousands of pages, and we need to parse, chunk and embed
/// them. How would you architect the ingestion?"): judged against the asking part alone, the
/// sound answer of an interview written outside the project read as off-topic (11/100). A segue
/// ("Okay, nice.", "Alright, a little design one.") has fewer.
const SET_UP_TERMS: usize = 5;
/// Words that make a sentence before the question a segue, however many terms it has: it
/// announces the topic ("Let's start with that RAG system then.", "好，那我们聊聊记忆。").
const SEGUE_WORDS: &[&str] = &[
    "let's",
    "let us",
    "moving on",
    "move on",
    "switch",
    "talk about",
    "turn to",
    "聊聊",
    "聊一聊",
    "聊一下",
    "换个",
    "接下来",
    "问几个",
    "问一些",
    "问点",
];

/// `asked` (the asking part of `question`) with the set-up sentences just before it, the run of
/// sentences of [`SET_UP_TERMS`] or more that are no segue; None when it stands alone
/// ([`STANDS_ALONE_TERMS`]) or is not a tail of `question`.
pub(super) fn with_set_up<'a>(question: &'a str, asked: &'a str) -> Option<&'a str> {
    let at = (asked.as_ptr() as usize).checked_sub(question.as_ptr() as usize)?;
    let lead = question.get(..at)?;
    if crate::kb::terms::term_set(asked).len() >= STANDS_ALONE_TERMS {
        return None;
    }
    let set_up = |s: &str| {
        let lower = s.to_lowercase().replace('’', "'");
        crate::kb::terms::term_set(s).len() >= SET_UP_TERMS && !SEGUE_WORDS.iter().any(|w| lower.contains(w))
    };
    let start = crate::lang::sentences(lead)
        .into_iter()
        .rev()
        .take_while(|s| set_up(s))
        .last()
        .map_or(at, |s| (s.as_ptr() as usize).saturating_sub(question.as_ptr() as usize));
    question.get(start..).map(str::trim)
}

#[cfg(test)]
mod tests {
    use super::{asking_part, with_set_up};

    #[test]
    fn a_segue_is_cut_but_a_set_up_the_question_leans_on_is_kept() {
        assert_eq!(asking_part("好，那我们聊聊记忆。长期记忆你们是怎么写入的？"), "长期记忆你们是怎么写入的？");
        assert_eq!(
            asking_part(
                "Okay, nice. Let's start with that RAG system then. How did you chunk your documents, and why?"
            ),
            "How did you chunk your documents, and why?"
        );
        // "What would you do?" alone asks nothing a base can match: the scenario is the question.
        let scenario =
            "Related question: say your p95 latency is nine seconds and product wants three. What would you do?";
        assert_eq!(asking_part(scenario), scenario);
        assert_eq!(
            asking_part("线上出了一次事故，用户投诉答案错了。你怎么排查？"),
            "线上出了一次事故，用户投诉答案错了。你怎么排查？"
        );
        // A set-up the question leans on is kept for the judgement, the segue before it is not.
        let set_up = |q| with_set_up(q, asking_part(q));
        assert_eq!(
            set_up(
                "Alright, a little design one. Users can upload PDFs, some are thousands of pages, and we need \
                 to parse them, chunk, embed, and make them searchable. How would you architect the ingestion?"
            ),
            Some(
                "Users can upload PDFs, some are thousands of pages, and we need to parse them, chunk, embed, \
                 and make them searchable. How would you architect the ingestion?"
            )
        );
        assert_eq!(
            set_up("好，换个方向。我们有个客服机器人，最近老是答非所问，用户投诉挺多的。你会先从哪儿查起？"),
            Some("我们有个客服机器人，最近老是答非所问，用户投诉挺多的。你会先从哪儿查起？")
        );
        // A segue names a topic, however long it is; an asking part with terms enough stands alone.
        let segue = "Okay, let's talk about retrieval quality in production systems today. How do you measure recall?";
        assert_eq!(set_up(segue), Some("How do you measure recall?"));
        assert_eq!(
            set_up("LLMs don't know today's date. How do you handle dates and relative time expressions in an agent?"),
            None
        );
    }
}

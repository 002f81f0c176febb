//! What an answer states that is wrong: the reference's known misconceptions, and, with or
//! without a reference, claims that a hard problem is simply gone ("basically solved, we never had
//! an issue", "no real trade-off", "基本就不会瞎编了", "这个方案是强一致的"). Sound answers in this
//! field name the conditions and what can still go wrong; the confident wrong answers of the blind
//! interviews say the problem disappears (temperature 0 ends hallucination, a system-prompt line
//! stops injection, deleting the cache first is strongly consistent). With no reference to check
//! such a claim against, its certainty is what betrays it.
//!
//! The phrases were written on the read part of the blind interviews (`interviews_blind`,
//! `interviews_blind2`); the held-out pair's wrong answers had been read by then too (see
//! `data/eval/README.md`). Each was kept only where no sound answer of `data/eval` uses it (one of
//! about 1,100 does: "不会出现不一致" of a normal-forms answer) and no answer of the sample
//! transcripts does ("格式类的错误基本就没有了" is a narrow problem gone, and "基本就没有了" was dropped).

use regex::Regex;
use std::sync::LazyLock;

use super::signals::{normalize_numbers, refutes};
use crate::kb::Entry;
use crate::lang::Lang;

/// Each pattern names a problem gone, a trade-off denied or a practice dismissed as useless, and
/// whether it is a claim in a story too: a story may end "we never had an incident again" or
/// "问题彻底解决了", which is its result.
const PATTERNS: &[(&str, bool)] = &[
    (
        r"\b(basically|pretty much|completely|totally|fully|entirely) (solved|solves|fixed|fixes|eliminated|eliminates|prevents|prevented|safe|gone)\b",
        true,
    ),
    (r"\bnever (had|have|has|saw|seen|see) (an? |any )?(issue|problem|incident|failure)s?\b", false),
    (r"\bno (real )?trade-?offs?\b", true),
    (r"\bnot really an? (\w+ )?trade-?off", true),
    (r"\b(mostly|totally|completely|basically|pretty much) (redundant|useless|pointless|unnecessary)\b", true),
    (r"\bget (that|it|this|all of that) for free\b", true),
    (r"(基本上?就|根本)(防住|解决|杜绝|消除|避免)", true),
    (r"(完全|彻底)(防住|解决|杜绝|消除|避免)", false),
    (r"就不会再?(瞎编|编造|幻觉|被注入|有问题|出问题)", true),
    (r"不会(有|出现)(任何)?的?(问题|不一致|脏数据|风险)", true),
    (r"是强一致", true),
    (r"(完全|基本)没有?用", true),
    // "The more the better": the field's trade-offs denied (more dimensions, finer steps, more
    // examples, a bigger index).
    (r"越(多|大|高|细|长|详细|深|强|复杂)\S{0,3}越好", true),
    (r"\bthe (bigger|more|larger|longer|higher|finer|smaller) the better\b", true),
    (r"\b(more|bigger|larger|longer|higher) (\w+ )?(is|are) always better\b", true),
];

/// A sentence with one of these before the claim reports it to reject it ("people think it's
/// basically solved, but…", "这不是完全没用"). Not `signals::REFUTATION`: its "不会" and "never" are
/// words of the claims themselves.
const DISTANCING: &[&str] = &[
    "not ",
    "n't",
    "but ",
    "myth",
    "people think",
    "assume",
    "misconception",
    "不是",
    "并不",
    "并非",
    "但",
    "其实不",
    "误区",
    "以为",
    "没那么",
];
/// Words that deny the claim after them ("目前没有能彻底解决的办法", "it is hard to get it fully
/// fixed"): the sound view. Only within the claim's own clause: "我们没有用 rerank，…这样基本就不会
/// 瞎编了" denies something else and makes the claim all the same.
const DENIALS: &[&str] = &["没有", "没法", "不能", "无法", "不可能", "很难", "难以", "no way", "impossible", "hard to"];
const CLAUSE_BREAKS: &[char] = &['，', ',', '、', '：', ':', ';', '；'];

static COMPILED: LazyLock<Vec<(Regex, bool)>> = LazyLock::new(|| {
    PATTERNS.iter().filter_map(|(p, in_stories)| Some((Regex::new(&format!("(?i){p}")).ok()?, *in_stories))).collect()
});

/// The absolute claims the answer makes (the phrases as said), at most one per sentence; `story`
/// when the answer tells one.
pub fn absolute_claims(answer: &str, story: bool) -> Vec<String> {
    crate::kb::vectors::analysis_sentences(answer)
        .into_iter()
        .filter_map(|s| {
            let claim =
                COMPILED.iter().filter(|(_, in_stories)| *in_stories || !story).find_map(|(re, _)| re.find(s))?;
            let before = s[..claim.start()].to_lowercase();
            let clause = before.rsplit(CLAUSE_BREAKS).next().unwrap_or("");
            let distanced = DISTANCING.iter().any(|d| before.contains(d)) || DENIALS.iter().any(|d| clause.contains(d));
            (!distanced).then(|| claim.as_str().to_string())
        })
        .collect()
}

/// The reference's misconceptions the answer states: a signal phrase in a sentence that does not
/// refute it.
pub fn misconceptions(answer: &str, e: &Entry, lang: Lang) -> Vec<String> {
    let sentences: Vec<String> =
        crate::kb::vectors::analysis_sentences(answer).into_iter().map(normalize_numbers).collect();
    e.common_mistakes
        .iter()
        .filter(|m| {
            m.all_signals().filter(|s| !s.trim().is_empty()).any(|sig| {
                let sig = sig.to_lowercase();
                sentences.iter().any(|s| s.contains(&sig) && !refutes(&s.replace(&sig, " ")))
            })
        })
        .map(|m| {
            let (mi, c) = (m.mistake_in(lang), m.correction_in(lang));
            if c.is_empty() {
                mi.to_string()
            } else {
                format!("{mi} — {c}")
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_said_to_be_gone_is_an_absolute_claim() {
        let en = "We put a strong instruction in the system prompt and set temperature to zero. With those two \
                  it's basically solved, we never had an issue.";
        assert_eq!(absolute_claims(en, false), vec!["basically solved".to_string()]);
        let zh = "我们把 temperature 设成 0，所以基本就不会瞎编了。这个方案是强一致的，不会出现脏数据。";
        assert_eq!(absolute_claims(zh, false).len(), 2, "{:?}", absolute_claims(zh, false));
        assert_eq!(absolute_claims("维度越高效果越好，所以选 4096 维的。", false), vec!["越高效果越好".to_string()]);
        assert!(absolute_claims("chunk 并不是越大越好，太大了检索会不准。", false).is_empty());
    }

    #[test]
    fn conditions_and_rejected_claims_are_not() {
        // A sound answer names what can still go wrong; a claim reported to be rejected is not made.
        let sound = "Temperature 0 makes decoding greedy, but the model can still state a wrong fact with full \
                     confidence. We ground answers in retrieved passages and check citations.";
        assert!(absolute_claims(sound, false).is_empty());
        assert!(absolute_claims("People think a system prompt line gets it basically solved, but it does not.", false)
            .is_empty());
        assert!(absolute_claims("先删缓存再更新数据库并不是强一致的，并发读会把旧值写回缓存。", false).is_empty());
        assert!(absolute_claims("归一化以后内积和余弦是一样的，排序不会变。", false).is_empty());
        // A narrow problem gone, with what remains: a result, not a claim that a hard one is.
        assert!(absolute_claims("开了 strict 之后格式类的错误基本就没有了，剩下的主要是语义错误。", false).is_empty());
        // Denied: the sound view that nothing removes the risk.
        assert!(absolute_claims("根本原因是模型分不清指令和数据，目前没有能彻底解决的办法。", false).is_empty());
        assert!(absolute_claims("Injection is hard to get fully fixed, so limit what a fooled model can do.", false)
            .is_empty());
        // A denial of something else, in another clause, leaves the claim standing.
        assert!(!absolute_claims("我们没有用 rerank，只加了一句提示，这样基本就不会瞎编了。", false).is_empty());
        assert!(!absolute_claims(
            "It was impossible to label everything, so hallucination is pretty much gone.",
            false
        )
        .is_empty());
        // A story's result.
        let result = "We added the idempotency key on retries, and we never had a double charge incident again.";
        assert!(!absolute_claims("Since then we never had an incident.", false).is_empty());
        assert!(
            absolute_claims(result, true).is_empty() && absolute_claims("上线后这个问题彻底解决了。", true).is_empty()
        );
    }
}

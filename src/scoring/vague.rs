//! Generic talk: phrases that stand in for content ("it's super important to monitor everything",
//! "做了全链路监控，持续迭代优化"). A vague answer is fluent, on-topic and full of the field's
//! words, so relevance and the terms it says beyond the question rate it like a sound one; what
//! gives it away is how much of it is praise of the topic, sweeping scope and promises of process
//! instead of a mechanism, a number or a named tool.
//!
//! The lists were written from how generic answers sound in both languages before the graded set
//! the cap was chosen on (`data/eval/interview_graded_*.jsonl`) was written, then widened with
//! phrases of its fitting half's vague answers (marked). Spoken fillers ("you know", "kind of",
//! "就是", "然后") are not in them: a sound answer spoken aloud has as many. Nor are list trailers
//! ("etc", "之类的", "等等"): they follow specifics as often as they stand in for them ("MCP
//! Inspector 之类的工具"), and "等等" is in "幂等等".

/// Phrases matched on the lowercased answer, each occurrence counted.
const VAGUE_EN: &[&str] = &[
    "super important",
    "really important",
    "very important",
    "extremely important",
    "crucial",
    "critical to",
    "the key thing",
    "best practice",
    "all the things",
    "all kinds of",
    "various",
    "a lot of things",
    "holistic",
    "keep an eye",
    "leverage",
    "properly",
    "the right way",
    "some kind of",
    "some sort of",
    "data-driven",
    "state of the art",
    "state-of-the-art",
    "seamless",
    "look into it",
    "figure it out",
    // Added from the fitting half's vague answers (`interview_graded_en.jsonl`).
    "across the board",
    "the main thing",
    "thorough",
    "thoroughly",
    "pretty much",
    "best of both worlds",
    "table stakes",
    "intelligently",
    "iterative process",
    "pays off",
    "is all about",
    "lots of",
    "really powerful",
    "smarter",
    "being smart",
    "game changer",
    "at the end of the day",
    "a one-time thing",
    "from day one",
    "the right metrics",
];

const VAGUE_ZH: &[&str] = &[
    "很重要",
    "非常重要",
    "至关重要",
    "比较关键",
    "非常关键",
    "全方位",
    "体系化",
    "持续迭代",
    "持续优化",
    "不断优化",
    "不断迭代",
    "各种",
    "方方面面",
    "把控",
    "重视",
    "保障",
    "赋能",
    "抓手",
    "最佳实践",
    "大家觉得",
    "有问题再",
    "效果还不错",
    "效果挺好",
    "效果很好",
    "多维度",
    "一整套",
    // Added from the fitting half's vague answers (`interview_graded_zh.jsonl`).
    "完善的",
    "比较成熟",
    "成熟的",
    "沉淀",
    "多个维度",
    "多个层面",
    "多层次",
    "显著提升",
    "明显提升",
    "提升很明显",
    "业界",
    "第一时间",
    "降本增效",
    "精细化",
    "方法论",
    "说到底",
    "长效机制",
    "各司其职",
    "优势互补",
    "有机地",
    "打通",
    "持续关注",
    "持续完善",
    "持续探索",
    "不断完善",
];

/// Phrases that are generic in a vague answer and ordinary in a sound spoken one ("make sure every
/// entry has a TTL", "the partition key here", "continuous batching", "全链路追踪", "数据闭环",
/// "单机用 RateLimiter 没什么问题"): they count toward the density, but an answer needs at least
/// one phrase of the lists above as well. Found by a review that wrote sound spoken answers to hit
/// the lists (18 of 20 were capped before this tier, 1 after).
const AMBIGUOUS: &[&str] = &[
    "the key is",
    "key here",
    "on top of it",
    "continuously",
    "robust",
    "make sure",
    "it depends",
    "in general",
    "everything",
    "high quality",
    "as needed",
    "out of the box",
    "optimize it",
    "monitor it",
    "tune it",
    "fine-tune it",
    "depends on the use case",
    "the way to go",
    "具体情况具体分析",
    "看看",
    "全链路",
    "闭环",
    "高质量",
    "一系列",
    "看情况",
    "没什么问题",
    "总的来说",
    "整体来说",
    "很关键",
    "针对性",
];

/// Occurrences of generic phrases in the answer, none counted inside a longer one ("fine-tune it"
/// is one, not also "tune it"); zero unless one is of the unambiguous lists.
pub fn phrases(answer: &str) -> usize {
    let lower = answer.to_lowercase();
    let clear = VAGUE_EN.iter().chain(VAGUE_ZH).map(|p| (*p, true));
    let mut found: Vec<(usize, usize, bool)> = clear
        .chain(AMBIGUOUS.iter().map(|p| (*p, false)))
        .flat_map(|(p, clear)| occurrences(&lower, p).into_iter().map(move |at| (at, at + p.len(), clear)))
        .collect();
    // Longest first; a match overlapping one already taken is part of it.
    found.sort_by_key(|&(start, end, _)| (std::cmp::Reverse(end - start), start));
    let mut taken: Vec<(usize, usize, bool)> = Vec::new();
    for m in found {
        if !taken.iter().any(|t| m.0 < t.1 && t.0 < m.1) {
            taken.push(m);
        }
    }
    if taken.iter().any(|t| t.2) {
        taken.len()
    } else {
        0
    }
}

/// Occurrences of generic phrases per 100 units of the answer (`signals::units`).
pub fn density(answer: &str) -> f64 {
    let units = super::signals::units(answer);
    if units <= 0.0 {
        return 0.0;
    }
    phrases(answer) as f64 * 100.0 / units
}

/// Where `phrase` occurs in `lower`; an English phrase only as whole words ("stuff" not in
/// "stuffing").
fn occurrences(lower: &str, phrase: &str) -> Vec<usize> {
    let latin = phrase.is_ascii();
    lower
        .match_indices(phrase)
        .map(|(at, _)| at)
        .filter(|&at| {
            !latin || {
                let before = lower[..at].chars().next_back();
                let after = lower[at + phrase.len()..].chars().next();
                !before.is_some_and(|c| c.is_ascii_alphanumeric()) && !after.is_some_and(|c| c.is_ascii_alphanumeric())
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generic_talk_is_dense_in_vague_phrases_and_a_mechanism_is_not() {
        let vague = "Observability is super important, so we log everything and have dashboards for all \
                     the key metrics, and alerts and stuff, and we iterate on it continuously.";
        let sound = "We log the prompt version, the model, input and output tokens, latency to first token \
                     and the tool calls with their arguments, keyed by a trace id, and sample 2% of full \
                     transcripts for review.";
        assert!(density(vague) > 3.0 * density(sound).max(0.5), "{} vs {}", density(vague), density(sound));
        let zh_vague = "这个我们很重视，做了全链路的监控，各种指标都有看板，有问题再持续优化。";
        let zh_sound =
            "我们在网关记录每次调用的 prompt 版本、模型、输入输出 token 和首 token 延迟，用 trace id 串起工具调用。";
        assert!(density(zh_vague) > 3.0 * density(zh_sound).max(0.5), "{} vs {}", density(zh_vague), density(zh_sound));
    }

    #[test]
    fn a_phrase_inside_a_longer_one_counts_once_and_ordinary_ones_need_a_clear_one() {
        assert_eq!(phrases("We fine-tune it on high quality pairs, and the key is a held-out set."), 0);
        assert_eq!(phrases("It's crucial, so we fine-tune it and make sure it holds."), 3);
        // Spoken, sound: ordinary phrases only.
        let sound =
            "我一般先看全链路追踪，用 trace id 把调用串起来，看看时间花在哪一段；单机没什么问题，多实例再加 Redis。";
        assert_eq!(phrases(sound), 0);
    }

    #[test]
    fn english_phrases_match_whole_words_only() {
        assert!(occurrences("we fetch the stuffing", "etc").is_empty());
        assert!(occurrences("we fetch the stuffing", "stuff").is_empty());
        assert_eq!(occurrences("logs, traces, etc.", "etc").len(), 1);
    }
}

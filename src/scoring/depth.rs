//! Depth without or with a reference: explanation in the sentences that say something.

use super::signals::{count_numbers, count_phrases, normalize_numbers, ratio, REASONING};
use crate::kb::terms::term_set;

/// Share of depth lost when every sentence is filler (proportionally less for fewer).
const FILLER_COST: f64 = 0.6;

/// Which sentences of an answer carry substance: a term of the expert's vocabulary (or, without a
/// reference, a number or a term of three or more characters) against filler ("it depends on many
/// factors", "in general it is very important").
pub(crate) struct Substance {
    /// Sentences with substance, and reasoning markers counted in those sentences only.
    pub content: usize,
    pub reasoning: usize,
    /// Share of the sentences that carry nothing.
    pub filler_share: f64,
}

impl Substance {
    pub fn read(answer: &str, expert_terms: Option<&std::collections::HashSet<String>>) -> Substance {
        let sentences = crate::kb::vectors::analysis_sentences(answer);
        let (mut content, mut reasoning) = (0, 0);
        for s in &sentences {
            let terms = term_set(s);
            let substantive = match expert_terms {
                Some(ex) => terms.iter().any(|t| t.chars().count() >= 2 && ex.contains(t)),
                None => count_numbers(s) > 0 || terms.iter().any(|t| t.chars().count() >= 3),
            };
            if substantive {
                content += 1;
                reasoning += count_phrases(&normalize_numbers(s), REASONING);
            }
        }
        let n = sentences.len().max(1);
        Substance { content, reasoning, filler_share: (n - content.min(n)) as f64 / n as f64 }
    }
}

/// Depth is explanation: reasoning markers (because, so that, which means) in sentences that say
/// something, the expert's vocabulary, trade-offs weighed and enough substantive sentences to
/// develop a thought. Length earns nothing, and filler sentences take away (padding an answer
/// must not raise it).
pub(crate) fn depth(sub: &Substance, expert_terms: usize, trade_offs: usize) -> f64 {
    let d = 0.35 * ratio(sub.reasoning as f64, 3.0)
        + 0.30 * ratio(expert_terms as f64, 10.0)
        + 0.15 * ratio(trade_offs as f64, 1.0)
        + 0.20 * ratio(sub.content as f64, 4.0);
    d * (1.0 - FILLER_COST * sub.filler_share)
}

//! Whole interviews through the product's path: the long sample interviews (questions phrased as
//! interviewers phrase them, answers written without the base), every question searched and
//! scored as `ivd diagnose` does, against the same answers moved to other questions of the same
//! interview. The English one chose `scoring::OWN_FIT_MIN`; the Chinese one is held out.

use serde::Serialize;

use crate::kb::search::KbSearch;
use crate::kb::KbError;
use crate::scoring::{assess, assess_among};
use crate::transcript::{self, pairs, roles};

const INTERVIEWS: &[(&str, &str, &[u8])] = &[
    ("en_long_90min.vtt", "fit", include_bytes!("../../data/transcripts/en_long_90min.vtt")),
    ("zh_long_70min.txt", "held out", include_bytes!("../../data/transcripts/zh_long_70min.txt")),
];
/// Where a moved answer comes from: the answer this many questions later (wrapping around).
const MOVES: [usize; 2] = [7, 19];

/// Scores of one interview, by the product's reference choice and by the first reference alone.
#[derive(Debug, Clone, Serialize)]
pub struct InterviewRow {
    pub file: String,
    pub part: String,
    pub questions: usize,
    /// Own answers: median, and share under 25 (told off-topic).
    pub own_median: f64,
    pub own_off_topic: f64,
    pub own_off_topic_first_only: f64,
    /// Answers moved to another question: median, and share at 50 or more.
    pub moved_median: f64,
    pub moved_50: f64,
    pub moved_50_first_only: f64,
}

pub fn run(s: &KbSearch, cancel: &tokio_util::sync::CancellationToken) -> Result<Vec<InterviewRow>, KbError> {
    let mut rows = Vec::new();
    for (file, part, bytes) in INTERVIEWS {
        let Ok(t) = transcript::parse_bytes(bytes, None) else { continue };
        let a = roles::detect(&t);
        let qa = pairs::split(&t, &a.turn_roles);
        let n = qa.len();
        if n == 0 {
            continue;
        }
        let score = |q: &str, ans: &str| -> Result<(f64, f64), KbError> {
            let hits = crate::scoring::references(s, q, cancel)?;
            let lang = crate::lang::of_question(q, ans);
            let (_, chosen) = assess_among(s, q, ans, &hits, lang, cancel)?;
            let first = hits.first().and_then(|h| s.position(&h.id));
            let plain = assess(s, q, ans, first, lang, cancel)?;
            Ok((chosen.overall as f64, plain.overall as f64))
        };
        let (mut own, mut own_first, mut moved, mut moved_first) = (vec![], vec![], vec![], vec![]);
        for (i, p) in qa.iter().enumerate() {
            let (c, f) = score(&p.question, &p.answer)?;
            own.push(c);
            own_first.push(f);
            for m in MOVES {
                let other = &qa[(i + m) % n];
                let (c, f) = score(&p.question, &other.answer)?;
                moved.push(c);
                moved_first.push(f);
            }
        }
        let share =
            |v: &[f64], pred: &dyn Fn(f64) -> bool| v.iter().filter(|x| pred(**x)).count() as f64 / v.len() as f64;
        rows.push(InterviewRow {
            file: file.to_string(),
            part: part.to_string(),
            questions: n,
            own_median: median(&own),
            own_off_topic: share(&own, &|x| x < 25.0),
            own_off_topic_first_only: share(&own_first, &|x| x < 25.0),
            moved_median: median(&moved),
            moved_50: share(&moved, &|x| x >= 50.0),
            moved_50_first_only: share(&moved_first, &|x| x >= 50.0),
        });
    }
    Ok(rows)
}

fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    super::quantile(&s, 0.5)
}

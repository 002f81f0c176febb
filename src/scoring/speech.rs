//! Delivery of one answer from a recording: speaking rate excluding long pauses, fillers, long
//! pauses from voice activity, pitch variation and volume variation, each 0-100 with a one-line
//! detail, and an overall. Every flag carries its time. The bands are named constants with their
//! sources.

use serde::{Deserialize, Serialize};

use super::habits::{Count, Habits, Occurrence};
use crate::lang::Lang;

/// Read.ai counts 130-175 words per minute as clear delivery (MODELS.md); research puts
/// conversation at 110-150 and 140-160 as best for perceived competence.
pub const EN_CLEAR_WPM: (f64, f64) = (130.0, 175.0);
/// Mandarin read speech runs about 250-310 characters a minute, news broadcasting 250-270
/// (MODELS.md); spontaneous answers run slower, so the clear band opens 30 below read speech.
pub const ZH_CLEAR_CPM: (f64, f64) = (220.0, 310.0);
/// Outside the clear band the rate score falls to 0 at this fraction away from the band's edge.
const RATE_FALLOFF: f64 = 0.45;
/// Read.ai counts fillers under 4% of words as clear.
pub const EN_CLEAR_FILLER_SHARE: f64 = 0.04;
/// Spontaneous Mandarin has about 3.9 filled pauses per 100 characters (MODELS.md): typical,
/// not clear; half of that is taken as clear.
pub const ZH_TYPICAL_FILLERS_PER_100: f64 = 3.9;
/// A silence this long inside an answer is a long pause: conversation analysis finds about one
/// second to be the "standard maximum" silence before it is heard as trouble (Jefferson 1989).
pub const LONG_PAUSE_S: f64 = 1.0;
/// Pitch variation quotient (F0 standard deviation / mean; Hincks 2005): speakers heard as lively
/// sat near 0.2, the least lively near 0.1.
pub const MONOTONE_PVQ: f64 = 0.10;
pub const LIVELY_PVQ: f64 = 0.18;
/// Loudness variation (standard deviation of frame level over speech, dB): a heuristic band, with
/// no published norm found; under 3 dB sounds flat, over 12 dB uneven.
pub const FLAT_DB: f64 = 3.0;
pub const UNEVEN_DB: f64 = 12.0;
/// Weights of the overall: pace and fillers are what listeners notice first.
const WEIGHTS: [f64; 5] = [0.3, 0.3, 0.2, 0.1, 0.1];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Part {
    pub score: u32,
    pub detail: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Pause {
    pub start_s: f64,
    pub duration_s: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Flag {
    pub t_s: Option<f64>,
    /// "filler", "pause", "rate", "monotone", "volume", "hedge", "repeat".
    pub kind: String,
    pub detail: String,
}

/// The report's `speech` object (../shared/contracts/report.schema.json) plus the parts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SpeechScore {
    pub overall: u32,
    pub rate: f64,
    pub rate_unit: String,
    pub filler_count: usize,
    pub fillers: Vec<Count>,
    pub long_pauses: Vec<Pause>,
    pub speech_s: f64,
    pub pace: Part,
    pub filler: Part,
    pub pauses: Part,
    pub pitch: Part,
    pub volume: Part,
    pub hedges: Vec<Count>,
    pub repeats: Vec<Count>,
    pub flags: Vec<Flag>,
}

/// What the recording says about one answer.
pub struct Delivery<'a> {
    pub lang: Lang,
    /// The answer's span and the silences inside it (from voice activity).
    pub span_s: (f64, f64),
    pub pauses: &'a [(f64, f64)],
    pub habits: &'a Habits,
    /// F0 (Hz, 0 unvoiced) and level (dB) of the answer's 10 ms frames.
    pub f0: &'a [f32],
    pub db: &'a [f32],
}

fn band_score(x: f64, (lo, hi): (f64, f64)) -> u32 {
    let off = if x < lo {
        (lo - x) / lo
    } else if x > hi {
        (x - hi) / hi
    } else {
        0.0
    };
    (100.0 * (1.0 - off / RATE_FALLOFF).clamp(0.0, 1.0)).round() as u32
}

fn std_dev(v: &[f64]) -> Option<(f64, f64)> {
    if v.len() < 10 {
        return None;
    }
    let m = v.iter().sum::<f64>() / v.len() as f64;
    Some((m, (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / v.len() as f64).sqrt()))
}

pub fn score(d: &Delivery) -> SpeechScore {
    let zh = d.lang.is_zh();
    let (start, end) = d.span_s;
    let long: Vec<Pause> = d
        .pauses
        .iter()
        .filter(|(a, b)| b - a >= LONG_PAUSE_S)
        .map(|(a, b)| Pause { start_s: round2(*a), duration_s: round2(b - a) })
        .collect();
    let speech_s = ((end - start) - long.iter().map(|p| p.duration_s).sum::<f64>()).max(0.0);
    let rate = if speech_s > 0.0 { d.habits.units as f64 * 60.0 / speech_s } else { 0.0 };
    let (unit, band) = if zh { ("cpm", ZH_CLEAR_CPM) } else { ("wpm", EN_CLEAR_WPM) };
    let pace = pace_part(rate, band, d.lang);
    let filler = filler_part(d.habits.fillers.len(), d.habits.units, d.lang);
    let pauses = pauses_part(&long, (end - start) / 60.0, d.lang);
    let pitch = pitch_part(d.f0, d.lang);
    let volume = volume_part(d.db, d.lang);
    let parts = [pace.score, filler.score, pauses.score, pitch.score, volume.score];
    let overall = parts.iter().zip(WEIGHTS).map(|(s, w)| *s as f64 * w).sum::<f64>().round() as u32;
    let flags = flags(d, &long, &pace, rate, band, &pitch, zh);
    SpeechScore {
        overall,
        rate: round1(rate),
        rate_unit: unit.into(),
        filler_count: d.habits.fillers.len(),
        fillers: Habits::counts(&d.habits.fillers),
        long_pauses: long,
        speech_s: round2(speech_s),
        pace,
        filler,
        pauses,
        pitch,
        volume,
        hedges: Habits::counts(&d.habits.hedges),
        repeats: Habits::counts(&d.habits.repeats),
        flags,
    }
}

fn part(score: f64, detail: String) -> Part {
    Part { score: score.clamp(0.0, 100.0).round() as u32, detail }
}

fn pace_part(rate: f64, band: (f64, f64), lang: Lang) -> Part {
    let (lo, hi) = band;
    let detail = match (lang, rate < lo, rate > hi) {
        (Lang::En, true, _) => format!("{rate:.0} words a minute: slower than the clear {lo:.0}-{hi:.0}"),
        (Lang::En, _, true) => format!("{rate:.0} words a minute: faster than the clear {lo:.0}-{hi:.0}"),
        (Lang::En, ..) => format!("{rate:.0} words a minute, inside the clear {lo:.0}-{hi:.0}"),
        (Lang::Zh, true, _) => format!("每分钟 {rate:.0} 字，慢于清晰区间 {lo:.0}-{hi:.0}"),
        (Lang::Zh, _, true) => format!("每分钟 {rate:.0} 字，快于清晰区间 {lo:.0}-{hi:.0}"),
        (Lang::Zh, ..) => format!("每分钟 {rate:.0} 字，在清晰区间 {lo:.0}-{hi:.0} 内"),
    };
    Part { score: band_score(rate, band), detail }
}

fn filler_part(n_fill: usize, units: usize, lang: Lang) -> Part {
    let units = units.max(1) as f64;
    match lang {
        Lang::Zh => {
            let per100 = n_fill as f64 * 100.0 / units;
            // 100 with none, 70 at the typical spontaneous rate, 0 at three times it.
            let s = if per100 <= ZH_TYPICAL_FILLERS_PER_100 {
                100.0 - 30.0 * per100 / ZH_TYPICAL_FILLERS_PER_100
            } else {
                70.0 * (1.0 - (per100 - ZH_TYPICAL_FILLERS_PER_100) / (2.0 * ZH_TYPICAL_FILLERS_PER_100))
            };
            part(s, format!("{n_fill} 个填充词，每百字 {per100:.1} 个（自然口语约 3.9）"))
        }
        Lang::En => {
            let share = n_fill as f64 / units;
            // 100 with none, 75 at the 4% edge of clear, 0 at three times it.
            let s = if share <= EN_CLEAR_FILLER_SHARE {
                100.0 - 25.0 * share / EN_CLEAR_FILLER_SHARE
            } else {
                75.0 * (1.0 - (share - EN_CLEAR_FILLER_SHARE) / (2.0 * EN_CLEAR_FILLER_SHARE))
            };
            part(s, format!("{n_fill} fillers, {:.1}% of words (clear is under 4%)", share * 100.0))
        }
    }
}

fn pauses_part(long: &[Pause], minutes: f64, lang: Lang) -> Part {
    let minutes = minutes.max(0.25);
    let longest = long.iter().map(|p| p.duration_s).fold(0.0, f64::max);
    // One long pause a minute is thinking time; more, and any over 3 s, cost.
    let s = 100.0 - 20.0 * (long.len() as f64 / minutes - 1.0).max(0.0) - 10.0 * (longest - 3.0).max(0.0);
    let n = long.len();
    part(
        s,
        match lang {
            Lang::Zh => format!("{n} 次 1 秒以上的停顿，最长 {longest:.1} 秒"),
            Lang::En => format!("{n} pauses of 1 s or more, the longest {longest:.1} s"),
        },
    )
}

fn pitch_part(f0: &[f32], lang: Lang) -> Part {
    let f0: Vec<f64> = f0.iter().filter(|&&p| p > 0.0).map(|&p| p as f64).collect();
    let Some((m, sd)) = std_dev(&f0) else {
        return Part {
            score: 50,
            detail: lang.pick("发声太少，无法判断音高", "too little voicing to judge pitch").into(),
        };
    };
    let pvq = sd / m;
    let s = 100.0 * ((pvq - MONOTONE_PVQ * 0.5) / (LIVELY_PVQ - MONOTONE_PVQ * 0.5)).clamp(0.0, 1.0);
    part(
        s,
        match lang {
            Lang::Zh => format!("音高变化 {pvq:.2}（低于 0.10 显得单调）"),
            Lang::En => format!("pitch variation {pvq:.2} (under 0.10 sounds monotone)"),
        },
    )
}

fn volume_part(db: &[f32], lang: Lang) -> Part {
    let db: Vec<f64> = db.iter().filter(|&&x| x > -50.0).map(|&x| x as f64).collect();
    let Some((_, sd)) = std_dev(&db) else {
        return Part {
            score: 50,
            detail: lang.pick("语音太少，无法判断音量", "too little speech to judge volume").into(),
        };
    };
    let s = if sd < FLAT_DB {
        100.0 * sd / FLAT_DB
    } else if sd > UNEVEN_DB {
        100.0 - 10.0 * (sd - UNEVEN_DB)
    } else {
        100.0
    };
    part(
        s,
        match lang {
            Lang::Zh => format!("音量变化 {sd:.1} dB"),
            Lang::En => format!("volume varies by {sd:.1} dB"),
        },
    )
}

fn flags(d: &Delivery, long: &[Pause], pace: &Part, rate: f64, band: (f64, f64), pitch: &Part, zh: bool) -> Vec<Flag> {
    let mut out = Vec::new();
    let at = |o: &Occurrence, kind: &str| Flag { t_s: o.t_s.map(round2), kind: kind.into(), detail: o.word.clone() };
    out.extend(d.habits.fillers.iter().map(|o| at(o, "filler")));
    out.extend(d.habits.hedges.iter().map(|o| at(o, "hedge")));
    out.extend(d.habits.repeats.iter().map(|o| at(o, "repeat")));
    out.extend(long.iter().map(|p| Flag {
        t_s: Some(p.start_s),
        kind: "pause".into(),
        detail: if zh { format!("停顿 {:.1} 秒", p.duration_s) } else { format!("{:.1} s silence", p.duration_s) },
    }));
    if rate < band.0 || rate > band.1 {
        out.push(Flag { t_s: Some(round2(d.span_s.0)), kind: "rate".into(), detail: pace.detail.clone() });
    }
    if pitch.score < 50 {
        out.push(Flag { t_s: Some(round2(d.span_s.0)), kind: "monotone".into(), detail: pitch.detail.clone() });
    }
    out.sort_by(|a, b| a.t_s.unwrap_or(f64::MAX).total_cmp(&b.t_s.unwrap_or(f64::MAX)));
    out
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::habits::{analyze, words_of};

    #[test]
    fn rate_excludes_long_pauses_and_bands_score() {
        let text = "word ".repeat(150);
        let h = analyze(&words_of(&text, Lang::En), Lang::En);
        // 150 words over 63 s with a 3 s pause: 150 wpm, clear.
        let d = Delivery {
            lang: Lang::En,
            span_s: (10.0, 73.0),
            pauses: &[(30.0, 33.0), (40.0, 40.4)],
            habits: &h,
            f0: &[],
            db: &[],
        };
        let s = score(&d);
        assert!((s.rate - 150.0).abs() < 0.5, "{}", s.rate);
        assert_eq!(s.pace.score, 100);
        assert_eq!(s.long_pauses, vec![Pause { start_s: 30.0, duration_s: 3.0 }]);
        assert!(s.flags.iter().any(|f| f.kind == "pause" && f.t_s == Some(30.0)));
        assert_eq!(band_score(90.0, EN_CLEAR_WPM), 32);
    }
}

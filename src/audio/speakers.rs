//! Who spoke when, from the audio, when the CAM++ speaker encoder is not provisioned (with it:
//! `voices`): speech regions are cut into pieces of at most [`PIECE_S`], each piece gets a voice
//! print of MFCC means and pitch, the prints are clustered agglomeratively
//! with the number of speakers (1 to [`MAX_SPEAKERS`]) chosen by silhouette, and a region keeps one
//! speaker unless it is long. In the channel mode each side of a stereo file is one speaker.

use serde::{Deserialize, Serialize};

use super::features::{self, frame_at, Frames};
use super::vad::{rms, Activity, Span};
use super::{sample_at, Audio};

/// Longest piece given one voice print: long enough for stable statistics (2 s is the usual
/// segment length of diarization front ends such as pyannote's), short enough to catch turns.
pub const PIECE_S: f64 = 2.0;
pub const MAX_SPEAKERS: usize = 4;
/// Pieces shorter than this ("um", "right") give prints too noisy to cluster: they take the
/// speaker of their region or their nearest neighbour instead.
const MIN_PRINT_S: f64 = 0.6;
/// Below this mean silhouette, a split into two or more speakers is not better than one voice.
/// Rousseeuw's bands: 0.26-0.50 "weak structure, could be artificial", 0.51-0.70 "reasonable".
/// Measured: one real speaker (jfk.wav) splits at 0.26, the two espeak-ng voices at about 0.5.
pub const MIN_SILHOUETTE: f64 = 0.35;
/// Agglomerative clustering is cubic in the pieces: beyond this many, cluster an even sample and
/// give the rest the nearest centroid.
const MAX_CLUSTERED: usize = 400;
/// How much worse than the best a split with fewer speakers may score and still be preferred.
const SILHOUETTE_SLACK: f64 = 0.05;
/// A region up to this long is one speaker (turn changes come with a gap).
const ONE_SPEAKER_REGION_S: f64 = 8.0;

/// Stereo recordings where each side was recorded on its own channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ChannelMode {
    InterviewerLeft,
    InterviewerRight,
}

/// Speech pieces with a speaker number (0-based, in order of first appearance).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Diarization {
    pub speakers: usize,
    pub pieces: Vec<(Span, usize)>,
    /// "acoustic" or "channels".
    pub basis: String,
    /// Silhouette of the chosen clustering (acoustic mode with 2+ speakers).
    pub silhouette: Option<f64>,
}

impl Diarization {
    /// Speaker of the piece holding time `t`, if one does.
    pub fn speaker_in(&self, t: f64) -> Option<usize> {
        self.pieces.iter().find(|p| p.0.start_s <= t && t <= p.0.end_s).map(|p| p.1)
    }

    /// Speaker at time `t`: the piece holding it, else the nearest piece.
    pub fn speaker_at(&self, t: f64) -> usize {
        self.pieces.iter().min_by(|a, b| distance(&a.0, t).total_cmp(&distance(&b.0, t))).map(|p| p.1).unwrap_or(0)
    }

    /// Who spoke when: consecutive pieces of one speaker joined across gaps up to `max_gap_s`.
    pub fn runs(&self, max_gap_s: f64) -> Vec<(Span, usize)> {
        let mut out: Vec<(Span, usize)> = Vec::new();
        for (span, who) in &self.pieces {
            match out.last_mut() {
                Some((last, w)) if w == who && span.start_s - last.end_s <= max_gap_s => last.end_s = span.end_s,
                _ => out.push((*span, *who)),
            }
        }
        out
    }
}

fn distance(s: &Span, t: f64) -> f64 {
    if t < s.start_s {
        s.start_s - t
    } else if t > s.end_s {
        t - s.end_s
    } else {
        0.0
    }
}

fn pieces(activity: &Activity) -> Vec<(Span, usize)> {
    let mut out = Vec::new();
    for (ri, r) in activity.regions.iter().enumerate() {
        let n = (r.len() / PIECE_S).ceil().max(1.0) as usize;
        let step = r.len() / n as f64;
        for i in 0..n {
            out.push((Span { start_s: r.start_s + step * i as f64, end_s: r.start_s + step * (i + 1) as f64 }, ri));
        }
    }
    out
}

/// A dip inside a speech region: this many dB under the region's loud frames (its 90th
/// percentile), for at least [`MIN_DIP_S`]. Voice activity bridges such dips (a turn handed over
/// with no real gap, a vocoder's noise floor), but a change of speaker almost always falls in one.
const DIP_DB: f32 = 20.0;
const MIN_DIP_S: f64 = 0.15;

/// The speech regions cut again at their quiet dips, so that pieces line up with turn changes.
pub fn split_at_dips(frames: &Frames, activity: &Activity) -> Activity {
    let mut regions = Vec::new();
    let min_run = (MIN_DIP_S / features::frame_time(1)).ceil() as usize;
    for r in &activity.regions {
        let (a, b) = (frame_at(r.start_s), frame_at(r.end_s).min(frames.db.len()));
        if b <= a + 2 * min_run {
            regions.push(*r);
            continue;
        }
        let mut db: Vec<f32> = frames.db[a..b].to_vec();
        db.sort_by(|x, y| x.total_cmp(y));
        let quiet = db[(db.len() * 9 / 10).min(db.len() - 1)] - DIP_DB;
        let mut start = r.start_s;
        let mut run_from: Option<usize> = None;
        for i in a..=b {
            let is_quiet = i < b && frames.db[i] < quiet;
            match (is_quiet, run_from) {
                (true, None) => run_from = Some(i),
                (false, Some(f)) => {
                    let (ts, te) = (features::frame_time(f), features::frame_time(i));
                    if i - f >= min_run && ts > start && te < r.end_s {
                        regions.push(Span { start_s: start, end_s: ts });
                        start = te;
                    }
                    run_from = None;
                }
                _ => {}
            }
        }
        regions.push(Span { start_s: start, end_s: r.end_s });
    }
    Activity { regions, duration_s: activity.duration_s }
}

/// Each piece's voice print: pitch and cepstral means (none for a piece too short).
fn prints_of(pieces: &[(Span, usize)], frames: &Frames) -> Vec<Option<Vec<f32>>> {
    pieces
        .iter()
        .map(|(s, _)| {
            (s.len() >= MIN_PRINT_S)
                .then(|| features::voice_print(frames, frame_at(s.start_s), frame_at(s.end_s)))
                .flatten()
        })
        .collect()
}

/// Acoustic diarization of the mono mix by pitch and cepstra.
pub fn diarize(frames: &Frames, activity: &Activity) -> Diarization {
    let activity = &split_at_dips(frames, activity);
    let pieces = pieces(activity);
    let prints = prints_of(&pieces, frames);
    let usable: Vec<usize> = (0..pieces.len()).filter(|&i| prints[i].is_some()).collect();
    let mut labels = vec![usize::MAX; pieces.len()];
    let mut silhouette = None;
    if usable.len() >= 2 {
        let raw: Vec<Vec<f32>> = usable.iter().filter_map(|&i| prints[i].clone()).collect();
        let (lab, sil) = cluster(&standardise(raw), MIN_SILHOUETTE);
        silhouette = sil;
        for (k, &i) in usable.iter().enumerate() {
            labels[i] = lab[k];
        }
    } else {
        for &i in &usable {
            labels[i] = 0;
        }
    }
    // Pieces without a print take their region's label, else the nearest labelled piece's.
    for i in 0..pieces.len() {
        if labels[i] == usize::MAX {
            let near = (0..pieces.len()).filter(|&j| labels[j] != usize::MAX).min_by_key(|&j| {
                (pieces[j].1 != pieces[i].1, (pieces[j].0.start_s - pieces[i].0.start_s).abs() as i64)
            });
            labels[i] = near.map(|j| labels[j]).unwrap_or(0);
        }
    }
    one_speaker_per_short_region(&pieces, &mut labels, activity);
    finish(pieces, labels, "acoustic", silhouette)
}

/// A short region is one speaker: its pieces take the label that holds most of its time.
fn one_speaker_per_short_region(pieces: &[(Span, usize)], labels: &mut [usize], activity: &Activity) {
    for (ri, r) in activity.regions.iter().enumerate() {
        if r.len() > ONE_SPEAKER_REGION_S {
            continue;
        }
        let idx: Vec<usize> = (0..pieces.len()).filter(|&i| pieces[i].1 == ri).collect();
        let mut time = [0.0f64; MAX_SPEAKERS];
        for &i in &idx {
            time[labels[i].min(MAX_SPEAKERS - 1)] += pieces[i].0.len();
        }
        let best = (0..MAX_SPEAKERS).max_by(|&a, &b| time[a].total_cmp(&time[b])).unwrap_or(0);
        for &i in &idx {
            labels[i] = best;
        }
    }
}

/// Renumber speakers by first appearance.
fn finish(pieces: Vec<(Span, usize)>, labels: Vec<usize>, basis: &str, silhouette: Option<f64>) -> Diarization {
    let mut order: Vec<usize> = Vec::new();
    for &l in &labels {
        if !order.contains(&l) {
            order.push(l);
        }
    }
    let pieces = pieces
        .into_iter()
        .zip(labels)
        .map(|((s, _), l)| (s, order.iter().position(|&o| o == l).unwrap_or(0)))
        .collect();
    Diarization { speakers: order.len().max(1), pieces, basis: basis.into(), silhouette }
}

/// Channel mode: each piece belongs to the side that is louder during it. Speaker 0 is the
/// interviewer's side, 1 the candidate's.
pub fn by_channels(audio: &Audio, activity: &Activity, mode: ChannelMode) -> Diarization {
    let (iv, cand) = match mode {
        ChannelMode::InterviewerLeft => (0, 1),
        ChannelMode::InterviewerRight => (1, 0),
    };
    let pieces = pieces(activity);
    let labels = pieces
        .iter()
        .map(|(s, _)| {
            let e = |c: usize| {
                let ch = &audio.channels[c];
                let slice = &ch[sample_at(s.start_s, ch.len())..sample_at(s.end_s, ch.len())];
                rms(slice)
            };
            if audio.channels.len() < 2 || e(iv) >= e(cand) {
                0
            } else {
                1
            }
        })
        .collect::<Vec<_>>();
    let pieces = pieces.into_iter().zip(labels).map(|((s, _), l)| (s, l)).collect();
    Diarization { speakers: 2, pieces, basis: "channels".into(), silhouette: None }
}

/// After standardising, pitch (the print's last value) counts this many times a cepstral
/// coefficient: F0 differs by up to an octave between voices and is the single strongest cue.
const PITCH_WEIGHT: f32 = 3.0;

fn standardise(x: Vec<Vec<f32>>) -> Vec<Vec<f32>> {
    let d = x.first().map(|v| v.len()).unwrap_or(0);
    let n = x.len() as f32;
    let mean: Vec<f32> = (0..d).map(|k| x.iter().map(|v| v[k]).sum::<f32>() / n).collect();
    let sd: Vec<f32> =
        (0..d).map(|k| (x.iter().map(|v| (v[k] - mean[k]).powi(2)).sum::<f32>() / n).sqrt().max(1e-3)).collect();
    x.into_iter()
        .map(|v| {
            v.iter()
                .enumerate()
                .map(|(k, a)| (a - mean[k]) / sd[k] * if k + 1 == d { PITCH_WEIGHT } else { 1.0 })
                .collect()
        })
        .collect()
}

fn dist(a: &[f32], b: &[f32]) -> f64 {
    a.iter().zip(b).map(|(x, y)| ((x - y) as f64).powi(2)).sum::<f64>().sqrt()
}

/// Labels for each row, with the number of clusters picked by silhouette (1 when no split reaches
/// [`MIN_SILHOUETTE`]).
fn cluster(x: &[Vec<f32>], min_silhouette: f64) -> (Vec<usize>, Option<f64>) {
    let sample: Vec<usize> = if x.len() > MAX_CLUSTERED {
        (0..MAX_CLUSTERED).map(|i| i * x.len() / MAX_CLUSTERED).collect()
    } else {
        (0..x.len()).collect()
    };
    let xs: Vec<&Vec<f32>> = sample.iter().map(|&i| &x[i]).collect();
    let n = xs.len();
    let dm: Vec<Vec<f64>> = (0..n).map(|i| (0..n).map(|j| dist(xs[i], xs[j])).collect()).collect();
    let merges = average_linkage(&dm);
    let mut tried: Vec<(Vec<usize>, f64)> = Vec::new();
    for k in 2..=MAX_SPEAKERS {
        if k >= n {
            break;
        }
        let lab = cut(&merges, n, k);
        let s = silhouette(&dm, &lab);
        tracing::debug!(k, silhouette = s, "speaker clustering");
        tried.push((lab, s));
    }
    // The fewest speakers whose split is about as good as the best: an extra cluster that splits
    // one voice in two scores nearly as well and would invent a speaker.
    let top = tried.iter().map(|t| t.1).fold(f64::MIN, f64::max);
    let best = tried.into_iter().find(|t| t.1 >= top - SILHOUETTE_SLACK).unwrap_or((vec![0; n], f64::MIN));
    let (lab_sample, sil) = if best.1 >= min_silhouette { (best.0, Some(best.1)) } else { (vec![0; n], None) };
    if sample.len() == x.len() {
        return (lab_sample, sil);
    }
    // Centroids of the sample's clusters; every row takes the nearest.
    let k = lab_sample.iter().max().map(|m| m + 1).unwrap_or(1);
    let d = x[0].len();
    let mut cent = vec![vec![0.0f32; d]; k];
    let mut count = vec![0usize; k];
    for (i, &l) in lab_sample.iter().enumerate() {
        for (c, v) in cent[l].iter_mut().zip(xs[i]) {
            *c += v;
        }
        count[l] += 1;
    }
    for (c, n) in cent.iter_mut().zip(&count) {
        c.iter_mut().for_each(|v| *v /= (*n).max(1) as f32);
    }
    let labels = x
        .iter()
        .map(|v| (0..k).min_by(|&a, &b| dist(v, &cent[a]).total_cmp(&dist(v, &cent[b]))).unwrap_or(0))
        .collect();
    (labels, sil)
}

/// Merge order of average-linkage clustering: (a, b) cluster ids, new id = n + step.
pub(super) fn average_linkage(dm: &[Vec<f64>]) -> Vec<(usize, usize)> {
    let n = dm.len();
    let mut active: Vec<(usize, Vec<usize>)> = (0..n).map(|i| (i, vec![i])).collect();
    let mut d: Vec<Vec<f64>> = dm.to_vec();
    let mut merges = Vec::with_capacity(n.saturating_sub(1));
    // Index loops: rows and columns of the shrinking matrix move together.
    #[allow(clippy::needless_range_loop)]
    while active.len() > 1 {
        let (mut bi, mut bj, mut bd) = (0, 1, f64::MAX);
        for i in 0..active.len() {
            for j in i + 1..active.len() {
                if d[i][j] < bd {
                    (bi, bj, bd) = (i, j, d[i][j]);
                }
            }
        }
        let (ni, nj) = (active[bi].1.len() as f64, active[bj].1.len() as f64);
        for k in 0..active.len() {
            let v = (d[bi][k] * ni + d[bj][k] * nj) / (ni + nj);
            d[bi][k] = v;
            d[k][bi] = v;
        }
        merges.push((active[bi].0, active[bj].0));
        let moved = active[bj].1.clone();
        active[bi].1.extend(moved);
        active[bi].0 = n + merges.len() - 1;
        active.remove(bj);
        d.remove(bj);
        for row in d.iter_mut() {
            row.remove(bj);
        }
    }
    merges
}

/// Labels after undoing the last k-1 merges.
pub(super) fn cut(merges: &[(usize, usize)], n: usize, k: usize) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..2 * n).collect();
    fn root(p: &mut [usize], mut x: usize) -> usize {
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    for (step, &(a, b)) in merges.iter().take(n.saturating_sub(k)).enumerate() {
        let id = n + step;
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        parent[ra] = id;
        parent[rb] = id;
    }
    let mut ids: Vec<usize> = Vec::new();
    (0..n)
        .map(|i| {
            let r = root(&mut parent, i);
            match ids.iter().position(|&x| x == r) {
                Some(p) => p,
                None => {
                    ids.push(r);
                    ids.len() - 1
                }
            }
        })
        .collect()
}

pub(super) fn silhouette(dm: &[Vec<f64>], lab: &[usize]) -> f64 {
    let k = lab.iter().max().map(|m| m + 1).unwrap_or(1);
    let n = lab.len();
    let mut total = 0.0;
    for i in 0..n {
        let mut sum = vec![0.0; k];
        let mut cnt = vec![0usize; k];
        for j in 0..n {
            if i != j {
                sum[lab[j]] += dm[i][j];
                cnt[lab[j]] += 1;
            }
        }
        if cnt[lab[i]] == 0 {
            continue; // a singleton scores 0
        }
        let a = sum[lab[i]] / cnt[lab[i]] as f64;
        let b = (0..k).filter(|&c| c != lab[i] && cnt[c] > 0).map(|c| sum[c] / cnt[c] as f64).fold(f64::MAX, f64::min);
        if b < f64::MAX {
            total += (b - a) / a.max(b);
        }
    }
    total / n as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_region_is_cut_at_a_quiet_dip_but_not_at_a_short_one() {
        // 1 s loud, 0.3 s quiet, 1 s loud, 0.05 s quiet, 0.5 s loud: one region to voice activity.
        let mut db = vec![-20.0f32; 100];
        db.extend(vec![-70.0; 30]);
        db.extend(vec![-20.0; 100]);
        db.extend(vec![-70.0; 5]);
        db.extend(vec![-20.0; 50]);
        let frames = Frames { f0: vec![0.0; db.len()], db, ..Frames::default() };
        let region = Span { start_s: 0.0, end_s: 2.85 };
        let a = split_at_dips(&frames, &Activity { regions: vec![region], duration_s: 2.85 });
        assert_eq!(a.regions.len(), 2, "{:?}", a.regions);
        assert!((a.regions[0].end_s - 1.0).abs() < 0.02 && (a.regions[1].start_s - 1.3).abs() < 0.02);
    }

    #[test]
    fn two_separated_groups_are_two_speakers_and_one_blob_is_one() {
        let mut x: Vec<Vec<f32>> = (0..12).map(|i| vec![0.0 + (i % 3) as f32 * 0.1, 1.0]).collect();
        x.extend((0..8).map(|i| vec![5.0 + (i % 2) as f32 * 0.1, -1.0]));
        let (lab, sil) = cluster(&standardise(x), MIN_SILHOUETTE);
        assert_eq!(lab.iter().max(), Some(&1));
        assert!(lab[..12].iter().all(|&l| l == lab[0]) && lab[12..].iter().all(|&l| l != lab[0]));
        assert!(sil.unwrap() > 0.8);
        // One voice: 40 prints scattered normally in 13 dimensions (a fixed-seed generator).
        let mut seed = 7u64;
        let mut normal = || {
            let mut u = || {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                ((seed >> 11) as f64 / (1u64 << 53) as f64).max(1e-12)
            };
            ((-2.0 * u().ln()).sqrt() * (std::f64::consts::TAU * u()).cos()) as f32
        };
        let blob: Vec<Vec<f32>> = (0..40).map(|_| (0..13).map(|_| normal()).collect()).collect();
        let (lab, _) = cluster(&standardise(blob), MIN_SILHOUETTE);
        assert!(lab.iter().all(|&l| l == 0), "{lab:?}");
    }
}

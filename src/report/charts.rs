//! Inline SVG charts: no scripts, no external URLs, so the HTML report is self-contained.

use std::fmt::Write;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Colour band of a score on the calibrated scale.
pub fn band(score: u32) -> &'static str {
    // The calibrated scale: solid and above green, partial amber, weak orange, off-topic red.
    match score {
        70.. => "#2e7d32",
        50..=69 => "#f9a825",
        25..=49 => "#ef6c00",
        _ => "#c62828",
    }
}

/// Widest the bar chart gets: a 90-minute interview's 60 questions share it with thinner bars.
const BARS_MAX_WIDTH: f64 = 760.0;

/// A vertical bar per question, 0-100. Many questions get thinner bars, scores only in the
/// tooltip, and a label on every few bars, so the chart always fits the page.
pub fn bars(items: &[(String, u32)]) -> String {
    let h = 160.0;
    let left = 30.0;
    let n = items.len().max(1) as f64;
    let slot = ((BARS_MAX_WIDTH - left) / n).min(40.0);
    let (bar_w, gap) = (slot * 0.7, slot * 0.3);
    let width = left + n * slot + gap;
    // A label such as "Q60" needs about 28 px.
    let label_every = (28.0 / slot).ceil().max(1.0) as usize;
    let show_scores = slot >= 22.0;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg role="img" aria-label="score per question" width="{width:.0}" height="200" viewBox="0 0 {width:.0} 200">"#
    );
    for g in [0, 50, 100] {
        let y = 10.0 + h - h * g as f64 / 100.0;
        let _ = write!(
            s,
            r##"<line x1="{left}" y1="{y:.1}" x2="{width:.0}" y2="{y:.1}" stroke="#ddd"/><text x="2" y="{:.1}" font-size="10" fill="#666">{g}</text>"##,
            y + 3.0
        );
    }
    for (i, (label, score)) in items.iter().enumerate() {
        let x = left + gap + i as f64 * slot;
        let bh = h * (*score).min(100) as f64 / 100.0;
        let y = 10.0 + h - bh;
        let mid = x + bar_w / 2.0;
        let _ = write!(
            s,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{bar_w:.1}" height="{bh:.1}" fill="{}"><title>{} {score}</title></rect>"#,
            band(*score),
            esc(label),
        );
        if show_scores {
            let _ = write!(
                s,
                r#"<text x="{mid:.1}" y="{:.1}" font-size="10" text-anchor="middle">{score}</text>"#,
                y - 3.0
            );
        }
        if i % label_every == 0 {
            let _ =
                write!(s, r#"<text x="{mid:.1}" y="190" font-size="11" text-anchor="middle">{}</text>"#, esc(label));
        }
    }
    s.push_str("</svg>");
    s
}

/// A radar (spider) chart of a few 0-100 facets.
pub fn radar(items: &[(String, u32)]) -> String {
    let (cx, cy, r) = (150.0, 130.0, 90.0);
    let n = items.len().max(3) as f64;
    let point = |i: usize, v: f64| {
        let a = -std::f64::consts::FRAC_PI_2 + 2.0 * std::f64::consts::PI * i as f64 / n;
        (cx + r * v * a.cos(), cy + r * v * a.sin())
    };
    let mut s =
        String::from(r#"<svg role="img" aria-label="content facets" width="300" height="260" viewBox="0 0 300 260">"#);
    for ring in [0.25, 0.5, 0.75, 1.0] {
        let pts: Vec<String> =
            (0..items.len()).map(|i| point(i, ring)).map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let _ = write!(s, r##"<polygon points="{}" fill="none" stroke="#ddd"/>"##, pts.join(" "));
    }
    for (i, (label, score)) in items.iter().enumerate() {
        let (x, y) = point(i, 1.0);
        let (lx, ly) = point(i, 1.22);
        let _ = write!(
            s,
            r##"<line x1="{cx}" y1="{cy}" x2="{x:.1}" y2="{y:.1}" stroke="#ccc"/><text x="{lx:.1}" y="{ly:.1}" font-size="11" text-anchor="middle">{} {score}</text>"##,
            esc(label)
        );
    }
    let pts: Vec<String> = items
        .iter()
        .enumerate()
        .map(|(i, (_, v))| point(i, (*v).min(100) as f64 / 100.0))
        .map(|(x, y)| format!("{x:.1},{y:.1}"))
        .collect();
    let _ = write!(
        s,
        r##"<polygon points="{}" fill="rgba(25,118,210,0.25)" stroke="#1976d2" stroke-width="2"/></svg>"##,
        pts.join(" ")
    );
    s
}

/// Who spoke when: one lane per role, pauses of a second or more marked in red, a tick a minute.
pub fn timeline(t: &super::model::Timeline, interviewer: &str, candidate: &str, pause: &str) -> String {
    let (w, left) = (760.0, 90.0);
    let span = t.duration_s.max(1.0);
    let x = |s: f64| left + (s / span).clamp(0.0, 1.0) * (w - left - 10.0);
    let mut s = String::new();
    let _ = write!(s, r#"<svg role="img" aria-label="timeline" width="{w:.0}" height="92" viewBox="0 0 {w:.0} 92">"#);
    for (i, (label, role, colour)) in
        [(interviewer, "interviewer", "#1565c0"), (candidate, "candidate", "#2e7d32")].iter().enumerate()
    {
        let y = 8.0 + i as f64 * 26.0;
        let _ = write!(s, r#"<text x="0" y="{:.0}" font-size="12">{}</text>"#, y + 14.0, esc(label));
        for turn in t.turns.iter().filter(|x| x.role == *role) {
            let (a, b) = (x(turn.start_s), x(turn.end_s));
            let _ = write!(
                s,
                r#"<rect x="{a:.1}" y="{y:.0}" width="{:.1}" height="20" fill="{colour}"><title>{} {:.1}-{:.1} s</title></rect>"#,
                (b - a).max(1.0),
                esc(&turn.speaker),
                turn.start_s,
                turn.end_s
            );
        }
    }
    for p in &t.pauses {
        let a = x(p.start_s);
        let _ = write!(
            s,
            r##"<rect x="{a:.1}" y="4" width="{:.1}" height="56" fill="#c62828" opacity="0.35"><title>{} {:.1} s @ {:.1} s</title></rect>"##,
            (x(p.start_s + p.duration_s) - a).max(1.5),
            esc(pause),
            p.duration_s,
            p.start_s
        );
    }
    let minutes = (span / 60.0).floor() as usize;
    let step = (minutes / 10).max(1);
    for m in (0..=minutes).step_by(step) {
        let tx = x(m as f64 * 60.0);
        let _ = write!(
            s,
            r##"<line x1="{tx:.1}" y1="62" x2="{tx:.1}" y2="68" stroke="#888"/><text x="{tx:.1}" y="82" font-size="11" text-anchor="middle">{m}:00</text>"##
        );
    }
    s.push_str("</svg>");
    s
}

/// Reads one dimension of a session.
type Series = fn(&super::model::TrendPoint) -> Option<u32>;

/// Each dimension over a profile's sessions: one polyline per dimension, oldest session left.
pub fn trend(points: &[super::model::TrendPoint], names: [&str; 5]) -> String {
    use std::fmt::Write as _;
    let (w, h, left, top) = (560.0, 200.0, 36.0, 12.0);
    let n = points.len().max(2) as f64 - 1.0;
    let x = |i: usize| left + (w - left - 110.0) * i as f64 / n;
    let y = |v: u32| top + (h - top - 24.0) * (1.0 - v as f64 / 100.0);
    let mut s = format!(r#"<svg width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img">"#);
    for v in [0u32, 50, 100] {
        let (y0, right, label_y) = (y(v), w - 110.0, y(v) + 3.0);
        let _ = write!(
            s,
            r##"<line x1="{left}" x2="{right}" y1="{y0:.1}" y2="{y0:.1}" stroke="#ddd"/><text x="4" y="{label_y:.1}" font-size="10" fill="#666">{v}</text>"##
        );
    }
    let series: [(Series, &str); 5] = [
        (|p| Some(p.overall), "#222"),
        (|p| p.completeness, "#1976d2"),
        (|p| p.depth, "#2e7d32"),
        (|p| p.accuracy, "#f9a825"),
        (|p| p.practicality, "#c62828"),
    ];
    for (k, (get, color)) in series.iter().enumerate() {
        let pts: Vec<String> =
            points.iter().enumerate().filter_map(|(i, p)| get(p).map(|v| format!("{:.1},{:.1}", x(i), y(v)))).collect();
        if pts.is_empty() {
            continue;
        }
        let _ = write!(s, r#"<polyline fill="none" stroke="{color}" stroke-width="2" points="{}"/>"#, pts.join(" "));
        for p in &pts {
            let (px, py) = p.split_once(',').unwrap_or(("0", "0"));
            let _ = write!(s, r#"<circle cx="{px}" cy="{py}" r="3" fill="{color}"/>"#);
        }
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{:.1}" font-size="11" fill="{color}">{}</text>"#,
            w - 100.0,
            top + 14.0 * k as f64 + 8.0,
            names[k]
        );
    }
    for (i, p) in points.iter().enumerate() {
        let _ = write!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="10" fill="#666" text-anchor="middle">#{}</text>"##,
            x(i),
            h - 6.0,
            p.id
        );
    }
    s.push_str("</svg>");
    s
}

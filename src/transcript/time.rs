//! Timestamps as transcripts write them: `1:02:03.500`, `00:01:02,500`, `0:02`.

/// Parse `[h:]mm:ss[.,fff]` or `m:ss` into seconds. Returns `None` for anything else.
pub fn parse_clock(s: &str) -> Option<f64> {
    let s = s.trim();
    if s.is_empty() || s.len() > 16 {
        return None;
    }
    let (clock, frac) = match s.find(['.', ',']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let parts: Vec<&str> = clock.split(':').collect();
    if !(2..=3).contains(&parts.len()) {
        return None;
    }
    let mut secs = 0.0;
    for (i, p) in parts.iter().enumerate() {
        if p.is_empty() || p.len() > 3 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let v: f64 = p.parse().ok()?;
        // Minutes and seconds after the first field must be below 60.
        if i > 0 && v >= 60.0 {
            return None;
        }
        secs = secs * 60.0 + v;
    }
    if let Some(f) = frac {
        if f.is_empty() || f.len() > 6 || !f.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let v: f64 = f.parse().ok()?;
        secs += v / 10f64.powi(f.len() as i32);
    }
    Some(secs)
}

/// Round to milliseconds, so times print the same way on every platform.
pub fn round_ms(s: f64) -> f64 {
    (s * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks() {
        assert_eq!(parse_clock("0:02"), Some(2.0));
        assert_eq!(parse_clock("1:02:03"), Some(3723.0));
        assert_eq!(parse_clock("00:01:02,500"), Some(62.5));
        assert_eq!(parse_clock("00:00:01.250"), Some(1.25));
        assert_eq!(parse_clock("12:75"), None);
        assert_eq!(parse_clock("abc"), None);
        assert_eq!(parse_clock("1:2:3:4"), None);
    }
}

//! Whisper's JSON (`{"segments": [{start, end, text}]}`), whisperX's (segments with `speaker`),
//! whisper.cpp's (`{"transcription": [{offsets: {from, to}, text}]}`), a bare segment array, or a
//! Podcasting 2.0 transcript (`{"segments": [{speaker, startTime, endTime, body}]}`).

use serde_json::Value;

use super::{Segment, TranscriptError};

pub(crate) fn parse(text: &str) -> Result<Vec<Segment>, TranscriptError> {
    let v: Value = serde_json::from_str(text).map_err(|e| TranscriptError::Json {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
        hint: if e.is_eof() {
            "the file looks truncated: export or copy it again"
        } else {
            "fix the JSON or export the transcript again"
        },
    })?;
    let segments = match &v {
        Value::Array(a) => a,
        Value::Object(o) => match (o.get("segments"), o.get("transcription")) {
            (Some(Value::Array(a)), _) => a,
            (_, Some(Value::Array(a))) => a,
            _ => {
                return match o.get("text") {
                    Some(Value::String(t)) => {
                        Ok(vec![Segment { speaker: None, text: t.trim().to_string(), start_s: None, end_s: None }])
                    }
                    _ => Err(TranscriptError::NotTranscriptJson(
                        "no \"segments\", \"transcription\" or \"text\" field".into(),
                    )),
                };
            }
        },
        _ => return Err(TranscriptError::NotTranscriptJson("the top level is neither an object nor an array".into())),
    };
    let mut out = Vec::with_capacity(segments.len());
    for (i, s) in segments.iter().enumerate() {
        let Some(obj) = s.as_object() else {
            return Err(TranscriptError::NotTranscriptJson(format!("segment {i} is not an object")));
        };
        // Podcasting 2.0 writes `body`, `startTime`, `endTime`.
        let text = obj.get("text").or_else(|| obj.get("body")).and_then(Value::as_str).unwrap_or("").trim().to_string();
        let (start_s, end_s) = match obj.get("offsets") {
            // whisper.cpp writes milliseconds.
            Some(off) => (
                off.get("from").and_then(Value::as_f64).map(|v| v / 1000.0),
                off.get("to").and_then(Value::as_f64).map(|v| v / 1000.0),
            ),
            None => (
                num(obj.get("start").or_else(|| obj.get("startTime"))),
                num(obj.get("end").or_else(|| obj.get("endTime"))),
            ),
        };
        let speaker =
            obj.get("speaker").and_then(Value::as_str).map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
        out.push(Segment { speaker, text, start_s, end_s });
    }
    Ok(out)
}

fn num(v: Option<&Value>) -> Option<f64> {
    v.and_then(Value::as_f64).filter(|x| x.is_finite() && *x >= 0.0)
}

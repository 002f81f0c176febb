#!/usr/bin/env python3
"""Synthetic hour-long PANEL interview recording for `ivd`: two interviewers, one candidate.

For performance (an hour of audio) and diarization (three voices, exact turn times) tests.

    python3 data/recordings/generate_panel.py [--out DIR] [--assign question|transcript]

Needs espeak-ng and sox (with FLAC) on PATH (Debian: `apt-get install espeak-ng sox
libsox-fmt-all`). Python stdlib only.

Content: the turns of ../transcripts/en_long_90min.vtt, a 90-minute Zoom-style WebVTT panel interview
(Maria Gonzalez and Sam Okafor interview Lena Fischer). A turn is a run of consecutive cues by one
speaker, its text the cue texts joined with spaces; the speakers' roles and the 60 question/answer
pairs (with `follow_up_of`) come from ../transcripts/en_long_90min.expected.json. Turns are taken
from the start until the audio reaches 60 minutes: the last turn is the first one that ends at or
after 60:00, so the recording is a little longer than an hour (the truth gives its exact length).

Speakers (espeak-ng, measured median F0 about 90 / 210 / 150 Hz):
  interviewer_a  en-us+m3            -s 165 -p 25
  interviewer_b  en-gb-scotland+f2   -s 180 -p 55
  candidate      en-gb+f3            -s 150 -p 85
The candidate's turns go to `candidate`. The interviewers' turns go to the two interviewer voices:
  --assign question    (default) by question: interviewer_a speaks everything from the start up to
                       the second main question (small talk and the first main question with its
                       follow-ups and back-channels), interviewer_b everything from the second main
                       question up to the third, and so on, alternating at each main question
                       (a pair whose follow_up_of is null); the transcript's own names are ignored.
  --assign transcript  by the transcript's speaker: Maria Gonzalez -> interviewer_a,
                       Sam Okafor -> interviewer_b.

Timeline: 0.5 s digital silence, the turns, 0.5 s digital silence. Between turns 0.8 s of digital
silence, 1.0 s between a question (the interviewer turn(s) that open a pair) and its answer. Each
turn is one espeak-ng utterance (22050 Hz WAV), converted with
`sox -R -D utt.wav -r 16000 -c 1 -b 16 -e signed-integer utt16.wav gain -1` (1 dB of headroom:
without it resampling clips a few samples); espeak-ng's own leading and
trailing silence (about 0-0.05 s / 0.35 s) belongs to the turn. The pieces are joined with
`sox -R -D a.wav b.wav ... master.wav` and the timeline is built from exact sample counts.

Deterministic: espeak-ng is deterministic, sox runs with -R (repeatable) and -D (no dither).
Utterances are rendered by at most 2 worker processes at a time and cached in the work dir
(RECGEN_WORK, default /tmp/recgen/panel), keyed by voice, rate, pitch, text and tool versions, so a
rerun only joins and encodes.

Writes, to --out DIR (default /tmp/panel):
  panel_en_60min.flac        16 kHz mono 16-bit master
  panel_en_60min.truth.json  ground truth: duration_s, speakers {id: {voice, role, ...}},
                             turns [{speaker, role, start_s, end_s, text, ...}]
  panel_en_60min.rttm        one SPEAKER line per turn, from the turn's speech onset to its speech
                             offset (first / last sample with |amplitude| > 1% of full scale)
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import sys
import threading
import time
import wave
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import run, samples as read_samples  # noqa: E402  (a checked command; a 16 kHz WAV as array("h"))

HERE = Path(__file__).resolve().parent
VTT = HERE.parent / "transcripts" / "en_long_90min.vtt"
EXPECTED = HERE.parent / "transcripts" / "en_long_90min.expected.json"
WORK = Path(os.environ.get("RECGEN_WORK", "/tmp/recgen/panel"))

STEM = "panel_en_60min"
SR = 16000
THRESH = 0.01 * 32768  # "speech" = a sample with |amplitude| > 1% of full scale
TARGET_S = 3600.0      # stop at the first turn boundary at or after this
LEAD_S = 0.5           # silence before the first turn
TAIL_S = 0.5           # silence after the last turn
TURN_GAP_S = 0.8       # between turns
QA_GAP_S = 1.0         # between a question and its answer
# espeak-ng peaks near full scale and resampling overshoots (sox reported clipped samples), so
# every utterance is lowered by 1 dB on its way to 16 kHz.
GAIN_DB = -1
JOBS = 2               # at most this many utterances rendered at once (each: espeak-ng, then sox)
LOOKAHEAD = 4          # turns queued ahead of the timeline

VOICES = {
    # -p sets the pitch; the +variants barely move it. Measured median F0: 89, 210, 151 Hz.
    "interviewer_a": {"voice": "en-us+m3", "rate": 165, "pitch": 25, "role": "interviewer"},
    "interviewer_b": {"voice": "en-gb-scotland+f2", "rate": 180, "pitch": 55, "role": "interviewer"},
    "candidate": {"voice": "en-gb+f3", "rate": 150, "pitch": 85, "role": "candidate"},
}
BY_NAME = {"Maria Gonzalez": "interviewer_a", "Sam Okafor": "interviewer_b"}  # --assign transcript


def t(n):
    return round(n / SR, 6)


def ns(sec):
    n = round(sec * SR)
    assert abs(n - sec * SR) < 1e-6
    return n


def hms(sec):
    return f"{int(sec // 3600)}:{int(sec // 60 % 60):02d}:{sec % 60:06.3f}"


def vtt_time(s):
    h, m, rest = s.split(":")
    return round(int(h) * 3600 + int(m) * 60 + float(rest), 3)


# ---------------------------------------------------------------------------------------------
# The transcript
# ---------------------------------------------------------------------------------------------

def load_turns():
    """Turns of the VTT (consecutive cues of one speaker merged), with role, kind and pair."""
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    roles = {s["name"]: s["role"] for s in expected["speakers"]}
    turns = []
    blocks = re.split(r"\n\s*\n", VTT.read_text(encoding="utf-8").replace("\r\n", "\n"))
    for block in blocks:
        lines = [ln.strip() for ln in block.strip().split("\n") if ln.strip()]
        timing = [i for i, ln in enumerate(lines) if "-->" in ln]
        if not timing:
            continue  # WEBVTT header
        i = timing[0]
        start, end = (vtt_time(x.strip().split()[0]) for x in lines[i].split("-->"))
        m = re.match(r"([^:]+):\s*(.*)", " ".join(lines[i + 1:]), re.S)
        assert m and m.group(1) in roles, block
        name, text = m.group(1), m.group(2).strip()
        if turns and turns[-1]["name"] == name:
            turns[-1]["texts"].append(text)
            turns[-1]["vtt_end"] = end
        else:
            turns.append({"name": name, "role": roles[name], "texts": [text],
                          "vtt_start": start, "vtt_end": end})
    for i, tr in enumerate(turns):
        tr["index"] = i
        tr["text"] = " ".join(tr.pop("texts"))
        tr["kind"], tr["pair"] = "social", None
    counts = {s["name"]: s["turns"] for s in expected["speakers"]}
    for name, n in counts.items():
        assert sum(tr["name"] == name for tr in turns) == n, (name, n)

    # Pairs: the question opens at the pair's start_s; every interviewer turn from there up to the
    # first candidate turn is the question; candidate turns up to end_s are the answer, interviewer
    # turns between them back-channels.
    for k, p in enumerate(expected["pairs"], 1):
        first = [tr for tr in turns if abs(tr["vtt_start"] - p["start_s"]) < 0.0005]
        assert len(first) == 1 and first[0]["role"] == "interviewer", p
        i = first[0]["index"]
        while turns[i]["role"] == "interviewer":
            assert turns[i]["kind"] == "social", turns[i]
            turns[i].update(kind="question", pair=k, main=p["follow_up_of"] is None)
            i += 1
        while i < len(turns) and turns[i]["vtt_start"] < p["end_s"]:
            assert turns[i]["kind"] == "social", turns[i]
            turns[i].update(kind="answer" if turns[i]["role"] == "candidate" else "backchannel", pair=k)
            i += 1
        assert turns[i - 1]["role"] == "candidate" and abs(turns[i - 1]["vtt_end"] - p["end_s"]) < 0.0005, p
    return turns, len(expected["pairs"])


def assign(turns, mode):
    cur, seen_main = "interviewer_a", False
    for tr in turns:
        if tr["role"] == "candidate":
            tr["speaker"] = "candidate"
            continue
        if mode == "transcript":
            tr["speaker"] = BY_NAME[tr["name"]]
            continue
        opens_main = tr["kind"] == "question" and tr["main"] and \
            (tr["index"] == 0 or turns[tr["index"] - 1]["pair"] != tr["pair"])
        if opens_main:
            if seen_main:
                cur = "interviewer_b" if cur == "interviewer_a" else "interviewer_a"
            seen_main = True
        tr["speaker"] = cur


# ---------------------------------------------------------------------------------------------
# Rendering (cached)
# ---------------------------------------------------------------------------------------------

def tool_versions():
    espeak = re.search(r"\d+(\.\d+)+\S*", run(["espeak-ng", "--version"]))
    sox = re.search(r"v\d+(\.\d+)+\S*", run(["sox", "--version"]))
    return f"espeak-ng {espeak.group(0) if espeak else '?'}, SoX {sox.group(0) if sox else '?'}"


def onset_offset(a):
    on = next((i for i in range(len(a)) if abs(a[i]) > THRESH), None)
    off = next((i for i in range(len(a) - 1, -1, -1) if abs(a[i]) > THRESH), None)
    return on, off


def render(v, text, versions):
    """One utterance -> (path of the 16 kHz WAV, {n, on, off, cached}); cached by content."""
    key = hashlib.sha256(json.dumps([versions, SR, GAIN_DB, v["voice"], v["rate"], v["pitch"], text],
                                    ensure_ascii=False).encode("utf-8")).hexdigest()[:24]
    wav, meta = WORK / "utt" / f"{key}.wav", WORK / "utt" / f"{key}.json"
    if wav.exists() and meta.exists():
        return wav, dict(json.loads(meta.read_text()), cached=True)
    tmp = WORK / "tmp" / f"{key}.{threading.get_ident()}"
    tmp.with_suffix(".txt").write_text(text + "\n", encoding="utf-8")
    run(["espeak-ng", "-v", v["voice"], "-s", str(v["rate"]), "-p", str(v["pitch"]),
         "-w", str(tmp.with_suffix(".raw.wav")), "-f", str(tmp.with_suffix(".txt"))])
    run(["sox", "-R", "-D", str(tmp.with_suffix(".raw.wav")), "-r", str(SR), "-c", "1", "-b", "16",
         "-e", "signed-integer", str(tmp.with_suffix(".wav")), "gain", str(GAIN_DB)])
    a = read_samples(tmp.with_suffix(".wav"))
    on, off = onset_offset(a)
    assert on is not None, f"no speech rendered for {text!r}"
    info = {"n": len(a), "on": on, "off": off}
    os.replace(tmp.with_suffix(".wav"), wav)
    meta.write_text(json.dumps(info) + "\n")
    for suffix in (".txt", ".raw.wav"):
        tmp.with_suffix(suffix).unlink()
    return wav, dict(info, cached=False)


def silence(n_samples):
    """A sox-generated digital-silence WAV of exactly n samples (cached by length)."""
    p = WORK / f"sil_{n_samples}.wav"
    if not p.exists():
        tmp = p.with_suffix(f".{os.getpid()}.wav")
        run(["sox", "-R", "-D", "-r", str(SR), "-c", "1", "-n", "-b", "16", "-e", "signed-integer",
             str(tmp), "trim", "0", f"{n_samples}s"])
        os.replace(tmp, p)
    return p


# ---------------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="/tmp/panel", help="output directory (default /tmp/panel)")
    ap.add_argument("--assign", choices=("question", "transcript"), default="question",
                    help="how interviewer turns map to the two interviewer voices (default: question)")
    args = ap.parse_args()
    t0 = time.monotonic()
    for tool in ("espeak-ng", "sox"):
        if not shutil.which(tool):
            sys.exit(f"{tool} not found on PATH (Debian: apt-get install espeak-ng sox libsox-fmt-all)")
    if not re.search(r"FILE FORMATS:.*\bflac\b", run(["sox", "-h"])):
        sys.exit("sox has no FLAC support (Debian: apt-get install libsox-fmt-all)")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for d in ("utt", "tmp"):
        (WORK / d).mkdir(parents=True, exist_ok=True)
    for f in (WORK / "tmp").iterdir():  # leftovers of an interrupted run
        f.unlink()
    versions = tool_versions()

    turns, n_pairs = load_turns()
    assign(turns, args.assign)
    print(f"{len(turns)} turns in {VTT.name}; assignment by {args.assign}; "
          f"work dir {WORK}; {JOBS} render jobs", flush=True)

    # 1. Render in timeline order (JOBS at a time, a few turns ahead) until 60:00 is reached.
    pos = ns(LEAD_S)
    seq = [silence(ns(LEAD_S))]
    used, rendered, cached = [], 0, 0
    with ThreadPoolExecutor(max_workers=JOBS) as pool:
        futures = {}

        def submit(i):
            if i < len(turns) and i not in futures:
                futures[i] = pool.submit(render, VOICES[turns[i]["speaker"]], turns[i]["text"], versions)

        for i in range(len(turns)):
            for j in range(i, i + LOOKAHEAD):
                submit(j)
            tr = turns[i]
            path, info = futures.pop(i).result()
            if i > 0:
                prev = turns[i - 1]
                gap = QA_GAP_S if prev["kind"] == "question" and tr["kind"] == "answer" else TURN_GAP_S
                seq.append(silence(ns(gap)))
                pos += ns(gap)
            tr.update(start=pos, end=pos + info["n"], on=pos + info["on"], off=pos + info["off"])
            seq.append(path)
            pos += info["n"]
            used.append(tr)
            cached += info["cached"]
            rendered += not info["cached"]
            print(f"  [{i + 1:3d}/{len(turns)}] {hms(t(tr['start']))} +{t(info['n']):7.2f} s  "
                  f"{tr['speaker']:<13} {tr['kind']:<11} {'cached' if info['cached'] else 'rendered'}"
                  f"  ({time.monotonic() - t0:.0f} s)", flush=True)
            if pos >= ns(TARGET_S):
                break
        for f in futures.values():
            f.cancel()
    seq.append(silence(ns(TAIL_S)))
    total = pos + ns(TAIL_S)
    if t(pos) < TARGET_S:
        print(f"warning: the transcript ran out at {hms(t(pos))}, before {hms(TARGET_S)}", file=sys.stderr)

    # 2. Join and encode.
    print(f"joining {len(seq)} pieces ({hms(t(total))}) ...", flush=True)
    master = WORK / "master.wav"
    run(["sox", "-R", "-D", *map(str, seq), str(master)])
    with wave.open(str(master), "rb") as w:
        assert (w.getnframes(), w.getframerate(), w.getnchannels(), w.getsampwidth()) == (total, SR, 1, 2), \
            (w.getnframes(), total)
    files = {k: out / f"{STEM}{k}" for k in (".flac", ".truth.json", ".rttm")}
    for f in files.values():
        if f.exists():
            f.unlink()
    print("encoding FLAC ...", flush=True)
    run(["sox", "-R", "-D", str(master), str(files[".flac"])])
    master.unlink()

    # 3. Ground truth and RTTM.
    speakers = {}
    for sid, v in VOICES.items():
        mine = [tr for tr in used if tr["speaker"] == sid]
        speakers[sid] = {
            "voice": v["voice"], "role": v["role"], "engine": "espeak-ng", "rate_wpm": v["rate"], "pitch": v["pitch"],
            "command": f"espeak-ng -v {v['voice']} -s {v['rate']} -p {v['pitch']} -w utt.wav -f text.txt",
            "transcript_speakers": sorted({tr["name"] for tr in mine}),
            "turns": len(mine),
            "speech_s": round(sum(t(tr["off"] + 1 - tr["on"]) for tr in mine), 3),
        }
    turns_json = [{
        "index": tr["index"], "speaker": tr["speaker"], "role": tr["role"],
        "start_s": t(tr["start"]), "end_s": t(tr["end"]),
        "speech_onset_s": t(tr["on"]), "speech_offset_s": t(tr["off"] + 1),
        "kind": tr["kind"], "pair": tr["pair"], "transcript_speaker": tr["name"],
        "transcript_start_s": tr["vtt_start"], "transcript_end_s": tr["vtt_end"],
        "words": len(tr["text"].split()), "text": tr["text"],
    } for tr in used]
    complete = sorted({tr["pair"] for tr in used if tr["kind"] == "answer"})
    truth = {
        "file": files[".flac"].name,
        "rttm": files[".rttm"].name,
        "source": "data/transcripts/en_long_90min.vtt (turns 0.." + str(len(used) - 1) + " of " + str(len(turns)) + ")",
        "language": "en",
        "sample_rate": SR,
        "channels": 1,
        "duration_s": t(total),
        "samples": total,
        "target_s": TARGET_S,
        "assignment": args.assign,
        "assignment_rule": (
            "interviewer turns alternate between interviewer_a and interviewer_b at each main question "
            "(a pair whose follow_up_of is null): everything up to the second main question is interviewer_a"
            if args.assign == "question" else
            "interviewer turns keep the transcript's speaker: Maria Gonzalez = interviewer_a, "
            "Sam Okafor = interviewer_b"),
        "speakers": speakers,
        "layout": {"lead_silence_s": LEAD_S, "tail_silence_s": TAIL_S, "turn_gap_s": TURN_GAP_S,
                   "question_answer_gap_s": QA_GAP_S},
        "pairs_answered": len(complete),
        "pairs_in_transcript": n_pairs,
        "tools": versions,
        "conversion": f"sox -R -D utt.wav -r {SR} -c 1 -b 16 -e signed-integer utt16.wav gain {GAIN_DB}",
        "speech_threshold": "first/last sample with |amplitude| > 1% of full scale (> 327.68)",
        "definitions": {
            "start_s/end_s": "the turn's audio span (one espeak-ng utterance, its own leading/trailing "
                             "silence included); turns do not overlap",
            "speech_onset_s/speech_offset_s": "first sample above the threshold / just after the last one; "
                                              "the RTTM lines use this span",
            "kind": "question (interviewer turns opening a pair), answer (candidate turns of a pair), "
                    "backchannel (interviewer turns inside an answer), social (small talk and closing)",
            "pair": "1-based index of the question/answer pair in en_long_90min.expected.json, or null",
            "words": "whitespace-separated tokens of text",
            "speech_s": "sum of the speaker's turns' speech_offset_s - speech_onset_s",
        },
        "turns": turns_json,
    }
    files[".truth.json"].write_text(json.dumps(truth, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    files[".rttm"].write_text("".join(
        f"SPEAKER {STEM} 1 {tj['speech_onset_s']:.3f} {tj['speech_offset_s'] - tj['speech_onset_s']:.3f} "
        f"<NA> <NA> {tj['speaker']} <NA> <NA>\n" for tj in turns_json))

    print(f"duration {t(total)} s ({hms(t(total))}), {len(used)} turns, {len(complete)} answered pairs; "
          f"{rendered} utterances rendered, {cached} cached")
    for sid, s in speakers.items():
        print(f"  {sid:<13} {s['voice']:<18} -s {s['rate_wpm']} -p {s['pitch']:<3} {s['turns']:3d} turns, "
              f"speech {s['speech_s']:8.1f} s  ({', '.join(s['transcript_speakers'])})")
    for f in files.values():
        print(f"  {f.stat().st_size:>10}  {f}")
    print(f"total time {time.monotonic() - t0:.1f} s")


if __name__ == "__main__":
    main()

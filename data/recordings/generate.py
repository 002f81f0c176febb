#!/usr/bin/env python3
"""Synthetic test recordings for `ivd`: a two-voice English mock interview plus derived files.

Run from anywhere:

    python3 data/recordings/generate.py

Needs espeak-ng, sox (with FLAC) and ffmpeg (libmp3lame, aac, libopus) on PATH. Python stdlib only.
Deterministic: espeak-ng is deterministic, sox runs with -R (repeatable) and -D (no dither), ffmpeg
runs with bitexact flags and no metadata, and the timeline is built from exact sample counts.

Writes, next to this script:
  interview_en.flac            16 kHz mono master
  interview_en_head.wav        first 12 s of the master, 16-bit 16 kHz WAV
  interview_en.mp3 / .m4a      48 kb/s MP3 / AAC from the master
  interview_en.ogg / .webm     24 kb/s Opus from the master (only when ffmpeg has libopus)
  interview_en_stereo.ogg     left = interviewer only, right = candidate only, same timeline
  silence_1s.wav, noise_1s.wav 1 s digital silence / 1 s low white noise, 16 kHz
  hires_96k24_stereo.wav       4 s of the master at 96 kHz, 24-bit, stereo (both channels equal)
  interview_en.truth.json      ground truth: turns, times, words, rates, fillers, pauses
"""

import array
import json
import os
import re
import shutil
import subprocess
import sys
import wave
from pathlib import Path

OUT = Path(__file__).resolve().parent
WORK = Path(os.environ.get("RECGEN_WORK", "/tmp/recgen/work"))

SR = 16000
THRESH = 0.01 * 32768  # "speech" = a sample with |amplitude| > 1% of full scale
LONG_PAUSE_S = 2.0

VOICES = {
    # The +m3/+f3 variants barely move espeak-ng's pitch (both measured near 100 Hz); -p does:
    # about 80 Hz for the interviewer, 140 Hz for the candidate.
    "interviewer": {"voice": "en-us+m3", "rate": 165, "pitch": 25},
    "candidate": {"voice": "en-gb+f3", "rate": 150, "pitch": 85},
}

LEAD_S = 0.5          # silence before the first utterance
TAIL_S = 0.5          # silence after the last utterance
TURN_GAP_S = 0.8      # between turns
QA_GAP_S = 1.0        # between a question and its answer
HEAD_S = 12.0         # length of interview_en_head.wav
HIRES_START_S = 0.5   # hires_96k24_stereo.wav: which 4 s of the master
HIRES_LEN_S = 1.5

# The conversation. A turn's "parts" are separate utterances; a number between two parts is an
# inserted long pause (seconds of digital silence) in the middle of the turn.
TURNS = [
    {"speaker": "interviewer", "kind": "greeting",
     "parts": ["Hi, thanks for coming in today. Let's get started."]},
    {"speaker": "interviewer", "kind": "question", "kb_id": "agent-basic-008",
     "parts": ["How does an agent know when to stop, and how do you design termination "
               "conditions to prevent infinite loops?"]},
    {"speaker": "candidate", "kind": "answer", "kb_id": "agent-basic-008",
     "parts": [{"filler": "Um,"},
               "the normal stop is when the model replies without calling any tool, or calls "
               "a dedicated final answer tool. But I never trust that alone. I add hard caps on "
               "turns, tokens, wall clock time and cost, and I detect loops, such as the same tool "
               "call repeated three times.",
               {"filler": "Uh,"},
               "when a cap is hit, the agent returns its partial result instead of just failing."]},
    {"speaker": "interviewer", "kind": "question", "kb_id": "memory-001",
     "parts": ["What is the difference between short-term and long-term memory in an LLM agent, "
               "and how is each implemented?"]},
    {"speaker": "candidate", "kind": "answer", "kb_id": "memory-001",
     "parts": ["The model is stateless, so short-term memory is just the context window we "
               "rebuild on every request. We keep it small with a sliding window, or",
               {"filler": "uh,"},
               "a summary of older turns.",
               2.5,
               "Long-term memory is a persistent store outside the model that survives across "
               "sessions.",
               {"filler": "Um,"},
               "a write path extracts facts, and a read path retrieves the relevant "
               "ones, you know, within a token budget."]},
    {"speaker": "interviewer", "kind": "question", "kb_id": "behavioral-002",
     "parts": ["Tell me about a time your agent failed in production. What did you do?"]},
    {"speaker": "candidate", "kind": "answer", "kb_id": "behavioral-002",
     "parts": [{"filler": "Um,"},
               "last year our support agent started approving refunds that it should have "
               "escalated. I owned the incident, so first I switched it off with a feature flag "
               "and sent those cases to human review.",
               3.0,
               "Then I,",
               {"filler": "uh,"},
               "traced the failing runs and found a prompt change that skipped the "
               "policy check. We fixed it, added a regression test set and an alert, and wrote a "
               "blameless postmortem."]},
    {"speaker": "interviewer", "kind": "closing",
     "parts": ["Thank you, that's all from me."]},
]


# A filled pause is its own utterance, held as people hold it (about 0.3-0.6 s of voicing) rather
# than clipped inside a sentence at speaking rate: espeak-ng's slowest rate, 80 wpm, gives 0.42 s
# of voicing for "uh" and 0.58 s for "um".
FILLER_RATE = 80
# What this script writes (and deletes before writing); other files here are left alone.
OUTPUTS = ("interview_en.flac", "interview_en_head.wav", "interview_en_stereo.ogg", "interview_en.mp3",
           "interview_en.m4a", "interview_en.webm", "silence_1s.wav", "noise_1s.wav",
           "hires_96k24_stereo.wav", "interview_en.truth.json")


def text_of(part):
    return part["filler"] if isinstance(part, dict) else part


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"command failed ({r.returncode}): {' '.join(map(str, cmd))}\n{r.stderr}")
    if "clip" in r.stderr.lower():
        sys.exit(f"clipping reported by: {' '.join(map(str, cmd))}\n{r.stderr}")
    return r.stdout


FF = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error"]
FF_EXACT = ["-map_metadata", "-1", "-fflags", "+bitexact", "-flags:a", "+bitexact"]


def samples(path):
    with wave.open(str(path), "rb") as w:
        assert w.getnchannels() == 1 and w.getsampwidth() == 2 and w.getframerate() == SR, path
        a = array.array("h")
        a.frombytes(w.readframes(w.getnframes()))
    if sys.byteorder == "big":
        a.byteswap()
    return a


def onset_offset(a):
    """Index of the first and last sample above the threshold (None if none)."""
    idx = [i for i, s in enumerate(a) if abs(s) > THRESH]
    return (idx[0], idx[-1]) if idx else (None, None)


def t(n):
    return round(n / SR, 6)


def silence(n_samples):
    """A sox-generated digital-silence WAV of exactly n samples (cached by length)."""
    p = WORK / f"sil_{n_samples}.wav"
    if not p.exists():
        run(["sox", "-R", "-D", "-r", str(SR), "-c", "1", "-n", "-b", "16", "-e", "signed-integer",
             str(p), "trim", "0", f"{n_samples}s"])
    return p


def words(text):
    return text.split()


def fillers(text):
    toks = [re.sub(r"[^a-z']", "", w.lower()) for w in words(text)]
    out, i = [], 0
    while i < len(toks):
        if toks[i] in ("um", "uh"):
            out.append(toks[i])
        elif toks[i] == "you" and i + 1 < len(toks) and toks[i + 1] == "know" \
                and words(text)[i + 1].endswith(","):
            out.append("you know")
            i += 1
        i += 1
    return out


def main():
    for tool in ("espeak-ng", "sox", "ffmpeg"):
        if not shutil.which(tool):
            sys.exit(f"{tool} not found on PATH")
    if WORK.exists():
        shutil.rmtree(WORK)
    WORK.mkdir(parents=True)
    encoders = run(["ffmpeg", "-hide_banner", "-encoders"])
    has_opus = re.search(r"^\s*A\S*\s+libopus\b", encoders, re.M) is not None

    # 1. Render every utterance: espeak-ng -> WAV (22050 Hz) -> sox -> 16 kHz mono 16-bit.
    n_utt = 0
    for turn in TURNS:
        v = VOICES[turn["speaker"]]
        turn["utts"] = []
        for part in turn["parts"]:
            if isinstance(part, (int, float)):
                continue
            n_utt += 1
            raw = WORK / f"utt{n_utt:02d}_raw.wav"
            wav = WORK / f"utt{n_utt:02d}.wav"
            say, rate = (part["filler"], FILLER_RATE) if isinstance(part, dict) else (part, v["rate"])
            run(["espeak-ng", "-v", v["voice"], "-s", str(rate), "-p", str(v["pitch"]), "-w", str(raw), say])
            run(["sox", "-R", "-D", str(raw), "-r", str(SR), "-c", "1", "-b", "16",
                 "-e", "signed-integer", str(wav)])
            a = samples(wav)
            on, off = onset_offset(a)
            assert on is not None, f"no speech in {wav}"
            turn["utts"].append({"text": text_of(part), "path": wav, "n": len(a), "on": on, "off": off,
                                 "filler": isinstance(part, dict)})

    # 2. Lay out the timeline (in samples) and the sox concatenation lists.
    def ns(sec):
        n = round(sec * SR)
        assert abs(n - sec * SR) < 1e-6
        return n

    master_seq, left_seq, right_seq = [], [], []

    def add_silence(n):
        p = silence(n)
        master_seq.append(p)
        left_seq.append(p)
        right_seq.append(p)

    pos = 0
    add_silence(ns(LEAD_S))
    pos += ns(LEAD_S)
    for k, turn in enumerate(TURNS):
        if k > 0:
            gap = QA_GAP_S if TURNS[k - 1].get("kind") == "question" else TURN_GAP_S
            add_silence(ns(gap))
            pos += ns(gap)
        turn["start"] = pos
        turn["pauses"] = []
        ui = 0
        for part in turn["parts"]:
            if isinstance(part, (int, float)):
                n = ns(part)
                add_silence(n)
                turn["pauses"].append((pos, pos + n))
                pos += n
                continue
            u = turn["utts"][ui]
            ui += 1
            u["start"] = pos
            master_seq.append(u["path"])
            mute = silence(u["n"])
            left_seq.append(u["path"] if turn["speaker"] == "interviewer" else mute)
            right_seq.append(u["path"] if turn["speaker"] == "candidate" else mute)
            pos += u["n"]
        turn["end"] = pos
    add_silence(ns(TAIL_S))
    pos += ns(TAIL_S)
    total = pos

    master_wav = WORK / "master.wav"
    left_wav = WORK / "left.wav"
    right_wav = WORK / "right.wav"
    run(["sox", "-R", "-D", *map(str, master_seq), str(master_wav)])
    run(["sox", "-R", "-D", *map(str, left_seq), str(left_wav)])
    run(["sox", "-R", "-D", *map(str, right_seq), str(right_wav)])
    m = samples(master_wav)
    assert len(m) == total, (len(m), total)
    assert len(samples(left_wav)) == total and len(samples(right_wav)) == total

    # 3. Speech segments (absolute) and every silence >= 2 s between them.
    segs = [(u["start"] + u["on"], u["start"] + u["off"]) for tr in TURNS for u in tr["utts"]]
    long_pauses = []
    for (a_on, a_off), (b_on, b_off) in zip(segs, segs[1:]):
        gap = b_on - a_off - 1
        if gap >= LONG_PAUSE_S * SR:
            long_pauses.append({"start_s": t(a_off + 1), "end_s": t(b_on),
                                "duration_s": t(gap)})
    # Cross-check by scanning the whole master (also catches gaps inside an utterance).
    scan, last = [], None
    for i, s in enumerate(m):
        if abs(s) > THRESH:
            if last is not None and i - last - 1 >= LONG_PAUSE_S * SR:
                scan.append((last + 1, i))
            last = i
    assert [(round(p["start_s"] * SR), round(p["end_s"] * SR)) for p in long_pauses] == scan, \
        (long_pauses, scan)
    inserted = [p for tr in TURNS for p in tr["pauses"]]
    assert len(long_pauses) == len(inserted), "turn gaps + espeak silence reached the long-pause length"
    for lp, (ps, pe) in zip(long_pauses, inserted):
        assert lp["start_s"] <= t(ps) and lp["end_s"] >= t(pe)
    # The largest non-inserted gap between speech must stay clearly below 2 s.
    other_gaps = [b_on - a_off - 1 for (a_on, a_off), (b_on, b_off) in zip(segs, segs[1:])
                  if b_on - a_off - 1 < LONG_PAUSE_S * SR]
    max_other_gap = max(other_gaps)
    assert max_other_gap < 1.8 * SR, max_other_gap

    # 4. Derived files.
    def out(name):
        return str(OUT / name)

    for f in OUT.iterdir():
        if f.is_file() and f.name in OUTPUTS:
            f.unlink()
    run(["sox", "-R", "-D", str(master_wav), out("interview_en.flac")])
    run(["sox", "-R", "-D", str(master_wav), out("interview_en_head.wav"), "trim", "0", f"{ns(HEAD_S)}s"])
    # Stereo as Opus: a third of FLAC's size, and the channels stay apart (no joint-stereo mixing
    # at this rate matters for a channel that is silent while the other speaks).
    stereo_wav = OUT / ".stereo.wav"
    run(["sox", "-R", "-D", "-M", str(left_wav), str(right_wav), str(stereo_wav)])
    run(FF + ["-i", str(stereo_wav), *FF_EXACT, "-c:a", "libopus", "-b:a", "40k", out("interview_en_stereo.ogg")])
    stereo_wav.unlink()
    master_flac = out("interview_en.flac")
    run(FF + ["-i", master_flac, *FF_EXACT, "-ac", "1", "-codec:a", "libmp3lame", "-b:a", "32k",
              out("interview_en.mp3")])
    run(FF + ["-i", master_flac, *FF_EXACT, "-ac", "1", "-c:a", "aac", "-b:a", "32k",
              out("interview_en.m4a")])
    if has_opus:
        run(FF + ["-i", master_flac, *FF_EXACT, "-ac", "1", "-c:a", "libopus", "-b:a", "24k",
                  out("interview_en.webm")])
    run(["sox", "-R", "-D", "-r", str(SR), "-c", "1", "-n", "-b", "16", "-e", "signed-integer",
         out("silence_1s.wav"), "trim", "0", f"{SR}s"])
    run(["sox", "-R", "-D", "-r", str(SR), "-c", "1", "-n", "-b", "16", "-e", "signed-integer",
         out("noise_1s.wav"), "synth", f"{SR}s", "whitenoise", "vol", "0.02"])
    run(["sox", "-R", "-D", str(master_wav), "-b", "24", out("hires_96k24_stereo.wav"),
         "trim", f"{ns(HIRES_START_S)}s", f"{ns(HIRES_LEN_S)}s", "rate", "-v", "96000",
         "channels", "2"])

    # 5. Ground truth.
    turns_json = []
    for i, tr in enumerate(TURNS):
        text = " ".join(text_of(p) for p in tr["parts"] if not isinstance(p, (int, float)))
        j = {"index": i, "speaker": tr["speaker"], "kind": tr["kind"]}
        if "kb_id" in tr:
            j["kb_id"] = tr["kb_id"]
        j.update({"start_s": t(tr["start"]), "end_s": t(tr["end"]), "text": text,
                  "words": len(words(text))})
        j["speech_onset_s"] = t(tr["utts"][0]["start"] + tr["utts"][0]["on"])
        j["speech_offset_s"] = t(tr["utts"][-1]["start"] + tr["utts"][-1]["off"])
        if tr["speaker"] == "candidate":
            pause_n = sum(e - s for s, e in tr["pauses"])
            speech_n = tr["end"] - tr["start"] - pause_n
            j["speech_s"] = t(speech_n)
            j["words_per_minute"] = round(len(words(text)) * 60 * SR / speech_n, 2)
            j["fillers"] = fillers(text)
            j["filler_spans"] = [{"word": fillers(u["text"])[0], "start_s": t(u["start"] + u["on"]),
                                  "end_s": t(u["start"] + u["off"])} for u in tr["utts"] if u["filler"]]
            j["pauses"] = [{"start_s": t(s), "end_s": t(e)} for s, e in tr["pauses"]]
        j["utterances"] = [{
            "text": u["text"],
            "start_s": t(u["start"]), "end_s": t(u["start"] + u["n"]),
            "duration_s": t(u["n"]),
            "speech_onset_s": t(u["start"] + u["on"]),
            "speech_offset_s": t(u["start"] + u["off"]),
            "speech_onset_rel_s": t(u["on"]), "speech_offset_rel_s": t(u["off"]),
        } for u in tr["utts"]]
        turns_json.append(j)

    files = sorted(f.name for f in OUT.iterdir() if f.name not in ("generate.py", "README.md"))
    truth = {
        "file": "interview_en.flac",
        "language": "en",
        "sample_rate": SR,
        "channels": 1,
        "duration_s": t(total),
        "samples": total,
        "voices": {k: {"engine": "espeak-ng", "voice": v["voice"], "rate_wpm": v["rate"]}
                   for k, v in VOICES.items()},
        "layout": {"lead_silence_s": LEAD_S, "tail_silence_s": TAIL_S, "turn_gap_s": TURN_GAP_S,
                   "question_answer_gap_s": QA_GAP_S},
        "speech_threshold": "first/last sample with |amplitude| > 1% of full scale (> 327.68)",
        "definitions": {
            "start_s/end_s": "turn or utterance audio span, including espeak-ng's own leading/trailing "
                             "silence and any inserted long pause",
            "words": "whitespace-separated tokens of text, fillers included ('you know' = 2)",
            "speech_s": "end_s - start_s minus the inserted long pauses",
            "words_per_minute": "words * 60 / speech_s",
            "pauses": "the inserted digital-silence spans (absolute); the silence between speech is "
                      "wider by espeak's trailing/leading silence, see long_pauses",
            "long_pauses": "every gap >= 2.0 s between speech_offset and the next speech_onset, absolute",
            "filler_spans": f"each filled pause's own utterance (espeak-ng at {FILLER_RATE} wpm), onset to "
                            "offset, absolute",
        },
        "long_pauses": long_pauses,
        "max_other_gap_between_speech_s": t(max_other_gap),
        "filler_counts": {
            "um": sum(tj.get("fillers", []).count("um") for tj in turns_json),
            "uh": sum(tj.get("fillers", []).count("uh") for tj in turns_json),
            "you know": sum(tj.get("fillers", []).count("you know") for tj in turns_json),
        },
        "opus": "interview_en.ogg and interview_en.webm made with libopus" if has_opus
                else "ffmpeg has no libopus here: interview_en.ogg / interview_en.webm not made",
        "derived": {
            "interview_en_head.wav": f"first {HEAD_S} s of the master, 16-bit 16 kHz mono",
            "interview_en.mp3": "libmp3lame 48 kb/s mono from the master",
            "interview_en.m4a": "aac 48 kb/s mono from the master",
            "interview_en.ogg": "libopus 24 kb/s in Ogg from the master",
            "interview_en.webm": "libopus 24 kb/s in WebM from the master",
            "interview_en_stereo.ogg": "16 kHz stereo, left = interviewer only, right = candidate only",
            "hires_96k24_stereo.wav": f"master {HIRES_START_S}..{HIRES_START_S + HIRES_LEN_S} s, "
                                      "96 kHz 24-bit, both channels equal",
            "silence_1s.wav": "1 s digital silence, 16 kHz mono 16-bit",
            "noise_1s.wav": "1 s white noise (sox synth whitenoise vol 0.02), 16 kHz mono 16-bit",
        },
        "turns": turns_json,
    }
    files.append("interview_en.truth.json")
    (OUT / "interview_en.truth.json").write_text(
        json.dumps(truth, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

    for f in sorted(OUT.iterdir()):
        print(f"{f.stat().st_size:>9}  {f.name}")
    print(f"duration {t(total)} s; long pauses {long_pauses}")
    for tj in turns_json:
        if tj["speaker"] == "candidate":
            print(f"  {tj['kb_id']}: {tj['words']} words, speech {tj['speech_s']} s, "
                  f"{tj['words_per_minute']} wpm, fillers {tj['fillers']}")


if __name__ == "__main__":
    main()

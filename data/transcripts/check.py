#!/usr/bin/env python3
"""Sanity checks on the generated corpus (stdlib only):

    python3 data/transcripts/check.py

Every rendering has an expected file, every JSON parses (except bad/truncated.json,
which must not), encodings are what their names say, timed files have increasing
times, and the expected files are well formed.
"""

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BAD = HERE.parent / "bad"
RENDER_EXT = (".txt", ".vtt", ".srt", ".json", ".md", ".docx", ".pdf")
FORMATS = {"labeled", "raw", "webvtt", "srt", "otter", "whisper-json", "markdown", "zoom", "podcast-json", "docx", "pdf"}
errors = []


def err(msg):
    errors.append(msg)


renderings = sorted(p for p in HERE.iterdir()
                    if p.suffix in RENDER_EXT and not p.name.endswith(".expected.json") and p.name != "README.md")
expected = sorted(HERE.glob("*.expected.json"))
stems = {p.name.rsplit(".", 1)[0] for p in renderings}
if len(stems) != len(renderings):
    err("two renderings share a stem")
for p in renderings:
    if not (HERE / (p.name.rsplit(".", 1)[0] + ".expected.json")).exists():
        err(f"{p.name}: no expected file")
for e in expected:
    if e.name[: -len(".expected.json")] not in stems:
        err(f"{e.name}: no rendering")

for e in expected:
    d = json.loads(e.read_text(encoding="utf-8"))
    if list(d) != ["format", "language", "speakers", "pairs"]:
        err(f"{e.name}: keys {list(d)}")
    if d["format"] not in FORMATS or d["language"] not in {"zh", "en", "mixed"}:
        err(f"{e.name}: format/language")
    for s in d["speakers"]:
        if s["role"] not in {"interviewer", "candidate"} or s["turns"] < 1:
            err(f"{e.name}: speaker {s}")
    prev = None
    for i, p in enumerate(d["pairs"], 1):
        if [k for k in p if k != "behavioral"] != ["question", "answer", "follow_up_of", "start_s", "end_s"]:
            err(f"{e.name}: pair keys")
        if not p["question"] or not p["answer"]:
            err(f"{e.name}: empty text in pair {i}")
        if p["follow_up_of"] is not None and p["follow_up_of"] != i - 1:
            err(f"{e.name}: follow_up_of in pair {i}")
        if p["start_s"] is not None:
            if p["end_s"] is not None and not p["start_s"] < p["end_s"]:
                err(f"{e.name}: start >= end in pair {i}")
            if prev is not None and not p["start_s"] > prev:
                err(f"{e.name}: times not increasing at pair {i}")
            prev = p["start_s"]
        if d["format"] in {"raw"} and (p["start_s"] is not None or p["end_s"] is not None):
            err(f"{e.name}: untimed format with times")

for p in renderings:
    raw = p.read_bytes()
    if p.suffix in (".docx", ".pdf"):
        continue
    if p.suffix == ".json":
        json.loads(raw.decode("utf-8"))
    if p.name == "zh_agent_gbk.txt":
        try:
            raw.decode("utf-8")
            err("zh_agent_gbk.txt decodes as UTF-8")
        except UnicodeDecodeError:
            pass
        raw.decode("gbk")
        raw.decode("gb18030")
    elif p.name == "en_agent_utf16.txt":
        if raw[:2] != b"\xff\xfe":
            err("en_agent_utf16.txt: no FF FE BOM")
        raw[2:].decode("utf-16-le")
    elif p.name == "zh_names_bom.txt":
        if raw[:3] != b"\xef\xbb\xbf":
            err("zh_names_bom.txt: no UTF-8 BOM")
        raw.decode("utf-8")
    else:
        if raw[:3] == b"\xef\xbb\xbf":
            err(f"{p.name}: unexpected BOM")
        raw.decode("utf-8")
    if p.suffix in (".vtt", ".srt"):
        text = raw.decode("utf-8")
        times = re.findall(r"(\d\d):(\d\d):(\d\d)[.,](\d{3}) --> (\d\d):(\d\d):(\d\d)[.,](\d{3})", text)
        last = -1
        for t in times:
            a = ((int(t[0]) * 60 + int(t[1])) * 60 + int(t[2])) * 1000 + int(t[3])
            b = ((int(t[4]) * 60 + int(t[5])) * 60 + int(t[6])) * 1000 + int(t[7])
            if not (a < b and a >= last):
                err(f"{p.name}: bad cue time {t}")
            last = b
        if p.suffix == ".vtt" and not text.startswith("WEBVTT"):
            err(f"{p.name}: no WEBVTT header")
    if p.name.endswith("_raw.txt"):
        paras = [x.strip() for x in raw.decode("utf-8").split("\n\n") if x.strip()]
        for x in paras:
            if not x.endswith(("?", "？")) and ("?" in x or "？" in x):
                err(f"{p.name}: question mark inside an answer paragraph")

# bad inputs
try:
    json.loads((BAD / "truncated.json").read_text(encoding="utf-8"))
    err("bad/truncated.json parses")
except json.JSONDecodeError:
    pass
if (BAD / "empty.txt").read_bytes() != b"":
    err("bad/empty.txt not empty")
if set((BAD / "whitespace.txt").read_bytes()) - set(b" \n"):
    err("bad/whitespace.txt has non-space bytes")
if not (BAD / "image.txt").read_bytes().startswith(b"\x89PNG\r\n\x1a\n"):
    err("bad/image.txt is not a PNG")
try:
    (BAD / "latin1.txt").read_bytes().decode("utf-8")
    err("bad/latin1.txt is valid UTF-8")
except UnicodeDecodeError:
    pass

print(f"{len(renderings)} renderings, {len(expected)} expected files")
if errors:
    print("\n".join(errors))
    sys.exit(1)
print("ok")

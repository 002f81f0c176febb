#!/usr/bin/env python3
"""Authoring aid for knowledge-base writers: checks entries the way the offline rubric reads them.

Usage: python3 scripts/kb_check.py [--zh-only] [DIMENSION ...]
For each entry: required fields present, key points covered by the expert answer (>= 80%) and not by
the novice answer (<= 50%), no common-mistake signal in the expert answer, eval paraphrases distinct
from the indexed question/paraphrases; and the English side (`*_en` fields): present, no CJK,
the English expert answer covering the key points by `keywords_en`, the English novice not. `ivd kb validate` is the authoritative validator.
"""
import pathlib, re, sys, tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent / "knowledge_base"
REQ = ["id", "dimension", "difficulty", "tags", "question", "question_en", "paraphrases",
       "eval_paraphrases", "novice_answer", "expert_answer", "gap_analysis", "follow_ups",
       "key_points", "common_mistakes"]
CJK = re.compile(r"[\u4e00-\u9fff]")

def covered(kp, text, field="keywords"):
    t = text.lower()
    kws = kp.get(field) or []
    hits = sum(1 for k in kws if k.lower() in t)
    return bool(kws) and hits >= min(2, len(kws))

EN_TOP = ["expert_answer_en", "novice_answer_en", "gap_analysis_en", "follow_ups_en"]

def check_english(e):
    """The English side of an entry: every field present, no CJK, the rubric readable in English."""
    errs = []
    for k in EN_TOP:
        if not e.get(k): errs.append(f"missing field {k}")
    for i, kp in enumerate(e["key_points"]):
        for k in ("point_en", "keywords_en"):
            if not kp.get(k): errs.append(f"key_points[{i}]: missing {k}")
    for i, m in enumerate(e["common_mistakes"]):
        for k in ("mistake_en", "signals_en", "correction_en"):
            if not m.get(k): errs.append(f"common_mistakes[{i}]: missing {k}")
    if errs: return errs
    texts = [e[k] for k in EN_TOP[:3]] + e["follow_ups_en"]
    texts += [kp["point_en"] for kp in e["key_points"]] + [k for kp in e["key_points"] for k in kp["keywords_en"]]
    texts += [m[k] for m in e["common_mistakes"] for k in ("mistake_en", "correction_en")]
    texts += [s for m in e["common_mistakes"] for s in m["signals_en"]]
    if any(CJK.search(t) for t in texts): errs.append("an English field contains CJK characters")
    kps = e["key_points"]
    ex = sum(covered(k, e["expert_answer_en"], "keywords_en") for k in kps)
    nv = sum(covered(k, e["novice_answer_en"], "keywords_en") for k in kps)
    if ex < 0.8 * len(kps): errs.append(f"expert_answer_en covers {ex}/{len(kps)} key points by keywords_en: " +
        ", ".join(k["point_en"][:30] for k in kps if not covered(k, e["expert_answer_en"], "keywords_en")))
    if nv > 0.5 * len(kps): errs.append(f"novice_answer_en covers {nv}/{len(kps)} key points by keywords_en")
    for m in e["common_mistakes"]:
        for s in m["signals_en"]:
            if s.lower() in e["expert_answer_en"].lower(): errs.append(f"expert_answer_en triggers signal '{s}'")
    if len(e["follow_ups_en"]) != len(e["follow_ups"]): errs.append("follow_ups_en: not one per follow_up")
    if len(e["expert_answer_en"].split()) < 150: errs.append("expert_answer_en under 150 words")
    if not re.search(r"\d", e["expert_answer_en"]): errs.append("expert_answer_en has no numbers")
    return errs

def main():
    args = sys.argv[1:]
    zh_only = "--zh-only" in args
    args = [a for a in args if a != "--zh-only"]
    dims = args or [p.name for p in ROOT.iterdir() if p.is_dir()]
    bad = 0; n = 0; ids = set()
    for d in dims:
        for f in sorted((ROOT / d).glob("*.toml")):
            n += 1
            errs = []
            try:
                e = tomllib.loads(f.read_text("utf-8"))
            except Exception as ex:
                print(f"{f}: TOML error: {ex}"); bad += 1; continue
            for k in REQ:
                if k not in e: errs.append(f"missing field {k}")
            if errs:
                print(f"{f}: " + "; ".join(errs)); bad += 1; continue
            if e["id"] in ids: errs.append("duplicate id")
            ids.add(e["id"])
            if f.stem != e["id"]: errs.append("file name != id")
            if e["dimension"] != d: errs.append("dimension != folder")
            if e["difficulty"] not in ("easy", "medium", "hard"): errs.append("bad difficulty")
            kps = e["key_points"]
            if not 3 <= len(kps) <= 6: errs.append(f"{len(kps)} key points (want 3-6)")
            ex_cov = sum(covered(k, e["expert_answer"]) for k in kps)
            nv_cov = sum(covered(k, e["novice_answer"]) for k in kps)
            if ex_cov < 0.8 * len(kps): errs.append(f"expert covers {ex_cov}/{len(kps)} key points: " +
                ", ".join(k["point"][:20] for k in kps if not covered(k, e["expert_answer"])))
            if nv_cov > 0.5 * len(kps): errs.append(f"novice covers {nv_cov}/{len(kps)} key points")
            for m in e["common_mistakes"]:
                for s in m["signals"]:
                    if s.lower() in e["expert_answer"].lower(): errs.append(f"expert answer triggers mistake signal '{s}'")
            if not 2 <= len(e["common_mistakes"]) <= 4: errs.append("want 2-4 common mistakes")
            zh_p = [p for p in e["paraphrases"] if CJK.search(p)]
            if len(zh_p) < 1 or len(e["paraphrases"]) - len(zh_p) < 2: errs.append("paraphrases: want >=1 zh and >=2 en")
            zh_e = [p for p in e["eval_paraphrases"] if CJK.search(p)]
            if len(zh_e) < 2 or len(e["eval_paraphrases"]) - len(zh_e) < 2: errs.append("eval_paraphrases: want >=2 zh and >=2 en")
            indexed = {e["question"], e["question_en"], *e["paraphrases"]}
            if any(p in indexed for p in e["eval_paraphrases"]): errs.append("an eval paraphrase repeats an indexed one")
            if len(CJK.findall(e["expert_answer"])) < 250: errs.append("expert answer under 250 CJK chars")
            if not re.search(r"\d", e["expert_answer"]): errs.append("expert answer has no numbers")
            if not zh_only: errs += check_english(e)
            if errs:
                print(f"{f}: " + "; ".join(errs)); bad += 1
    print(f"{n} entries checked, {bad} with problems")
    sys.exit(1 if bad else 0)

main()

#!/usr/bin/env python3
# Fit the "in the base's field" question model (src/scoring/field.rs): logistic regression on the
# e5 query vector of a question, written to data/models/field.json. In the field: the base's
# technical questions (every wording) and, from the fitting halves of data/eval, the near-miss
# questions and paraphrases, the out-of-base agent-engineering questions and in_field_halves.jsonl.
# Outside it: data/eval/out_of_field_fit.jsonl (no question of it within a cosine of 0.95 of one
# of out_of_field_halves.jsonl), the fitting half of out_of_field_halves.jsonl, and the fitting
# halves of the database, networking, operating systems, testing, web and architecture banks.
# Behavioral questions are left out (a story question is matched whatever its field). The test
# halves of the two *_halves files are read only to report.
# Usage: python scripts/fit_field.py MODELS_DIR [--cv]
import glob, hashlib, json, sys, tomllib
import numpy as np
from e5 import E5, fit_question_model

L2, SCALE = 1e-3, 10.0


def rows(name): return [json.loads(l) for l in open(f"data/eval/{name}")]
def fitting(key): return hashlib.sha256(key.encode()).digest()[0] % 2 == 0


pos, neg = [], [r["question"] for r in rows("out_of_field_fit.jsonl")]
behavioral = set()
for f in sorted(glob.glob("knowledge_base/*/*.toml")):
    d = tomllib.load(open(f, "rb"))
    if d.get("dimension") == "behavioral":
        behavioral.add(d["id"])
        continue
    pos += [d[k] for k in ("question", "question_en") if k in d] + d.get("paraphrases", [])
for r in rows("nearmiss.jsonl"):
    if r["entry"] not in behavioral and fitting(r["entry"]): pos += [r["paraphrase"], r["near_miss"]]
pos += [r["question"] for r in rows("out_of_base.jsonl") if fitting(r["id"])]
pos += [r["question"] for r in rows("in_field_halves.jsonl") if fitting(r["id"])]
neg += [r["question"] for r in rows("out_of_field_halves.jsonl") if fitting(r["id"])]
for name in ("dev_bank.jsonl", "sag_bank_arch.jsonl", "sag_bank_en.jsonl", "sag_bank_web.jsonl", "sag_bank_zh.jsonl"):
    neg += [r["question"] for r in rows(name) if fitting(r["id"])]
pos, neg = sorted(set(pos)), sorted(set(neg) - set(pos))
if __name__ == "__main__":
    e5 = E5(sys.argv[1])
    w, b = fit_question_model(e5, pos, neg, L2, SCALE, "data/models/field.json", (0.1, 0.15, 0.2, 0.3, 0.5),
                              ("in the field", "outside"))
    for name in ("out_of_field_halves.jsonl", "in_field_halves.jsonl"):
        held = [r["question"] for r in rows(name) if not fitting(r["id"])]
        ph = 1 / (1 + np.exp(-(np.array([e5.vector(q) for q in held]) * SCALE @ w + b)))
        print(f"{name}, test half: in the field at 0.1/0.2/0.3/0.5: "
              + " ".join(str(int((ph >= c).sum())) for c in (0.1, 0.2, 0.3, 0.5)) + f" of {len(held)}")

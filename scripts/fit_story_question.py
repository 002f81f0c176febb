#!/usr/bin/env python3
# Fit the "asks for a story" question model (src/scoring/asks_story.rs): logistic regression on the
# e5 query vector of the question, written to data/models/story_question.json.
# Positives: data/eval/behavioral.jsonl, the story questions of data/eval/story_questions_fit.jsonl,
# the base's behavioral entries (questions and paraphrases) and their near misses. Negatives: the
# technical questions of story_questions_fit.jsonl, every other entry's questions and paraphrases,
# and the questions of the technical sets of data/eval. story_questions_heldout.jsonl is not read.
# Usage (the Python of scripts/browser_check.py's venv has what it needs):
#   python scripts/fit_story_question.py MODELS_DIR [--cv]
import glob, json, sys, tomllib
from e5 import E5, fit_question_model

L2, SCALE = 1e-3, 10.0
e5 = E5(sys.argv[1])


def rows(name): return [json.loads(l) for l in open(f"data/eval/{name}")]


pos = [r["question"] for r in rows("behavioral.jsonl")]
fit = rows("story_questions_fit.jsonl")
pos += [r["question"] for r in fit if r["label"] == "story"]
neg = [r["question"] for r in fit if r["label"] == "technical"]
behavioral = set()
for f in sorted(glob.glob("knowledge_base/*/*.toml")):
    d = tomllib.load(open(f, "rb"))
    qs = [d[k] for k in ("question", "question_en") if k in d] + d.get("paraphrases", [])
    (pos if d.get("dimension") == "behavioral" else neg).extend(qs)
    if d.get("dimension") == "behavioral": behavioral.add(d["id"])
for name in ("choice.jsonl", "choice_outside.jsonl", "choice_short.jsonl", "choice_third.jsonl", "dev_bank.jsonl",
             "out_of_base.jsonl", "sag_bank_arch.jsonl", "sag_bank_en.jsonl", "sag_bank_web.jsonl", "sag_bank_zh.jsonl"):
    neg += [r["question"] for r in rows(name)]
# A behavioral entry's reworded and near-miss questions ask for stories too.
for r in rows("nearmiss.jsonl"): (pos if r["entry"] in behavioral else neg).extend([r["paraphrase"], r["near_miss"]])
pos, neg = sorted(set(pos)), sorted(set(neg) - set(pos))
fit_question_model(e5, pos, neg, L2, SCALE, "data/models/story_question.json", (0.5, 0.6, 0.7, 0.8, 0.9),
                   ("story questions", "others"))

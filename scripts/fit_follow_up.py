#!/usr/bin/env python3
# Fit the follow-up model (src/transcript/follow_up_model.rs): logistic regression on the question's
# e5 query vector and its cosines to the previous question (query) and answer (passage), written
# to data/models/follow_up.json. Fitted on the fitting halves of data/eval/followups.jsonl and
# followups2.jsonl only (the split of `ivd eval`: sha256 of the id), less the first set's items
# whose mirror is in its test half; the test halves are reported by `ivd eval`.
# Usage: python scripts/fit_follow_up.py MODELS_DIR [--cv]
import hashlib, json, sys
import numpy as np
from e5 import E5, train, cross_validated

L2, SCALE, COS_SCALE = 1e-2, 10.0, 20.0
e5 = E5(sys.argv[1])


def is_test(key): return hashlib.sha256(key.encode()).digest()[0] % 2 == 1


items = [json.loads(l) for f in ("followups.jsonl", "followups2.jsonl") for l in open(f"data/eval/{f}")]
# The first set's Chinese items mirror its English ones (fu-en-NNN, fu-zh-NNN): an item whose
# mirror is in the test half is left out too, or the test half would be read in translation.
mirror = lambda i: i.replace("-en-", "-zh-") if "-en-" in i else i.replace("-zh-", "-en-")
items = [it for it in items if not is_test(it["id"]) and not (it["id"].startswith("fu-") and is_test(mirror(it["id"])))]
X, y = [], []
for it in items:
    q = e5.vector(it["question"])
    to_answer = float(q @ e5.vector(it["prev_answer"], "passage: "))
    to_question = float(q @ e5.vector(it["prev_question"]))
    X.append(list(q * SCALE) + [to_answer * COS_SCALE, to_question * COS_SCALE])
    y.append(float(it["follow_up"]))
X, y = np.array(X), np.array(y)
print(f"{int(y.sum())} follow-ups, {int(len(y) - y.sum())} new questions (fitting halves)", file=sys.stderr)
if "--cv" in sys.argv:
    p = cross_validated(X, y, L2)
    for cut in (0.5, 0.7, 0.8, 0.9):
        print(f"5-fold, cut {cut}: follow-ups {int((p[y == 1] >= cut).sum())} of {int(y.sum())}, "
              f"new questions taken {int((p[y == 0] >= cut).sum())} of {int(len(y) - y.sum())}")
w, b = train(X, y, L2)
json.dump({"scale": SCALE, "cos_scale": COS_SCALE, "bias": round(float(b), 5),
           "weights": [round(float(x), 5) for x in w[:-2]],
           "to_answer": round(float(w[-2]), 5), "to_question": round(float(w[-1]), 5)},
          open("data/models/follow_up.json", "w"))

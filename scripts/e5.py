# multilingual-e5-small vectors from the models folder (the int8 ONNX file ivd uses), mean pooled
# and normalised as `kb::embed` does; and the logistic regression the fit_*.py scripts share.
import json, sys
import numpy as np, onnxruntime as ort
from tokenizers import Tokenizer


class E5:
    def __init__(self, models):
        self.tok = Tokenizer.from_file(f"{models}/multilingual-e5-small/tokenizer.json")
        self.tok.enable_truncation(512)
        self.sess = ort.InferenceSession(f"{models}/multilingual-e5-small/model_int8.onnx")
        self.inputs = [i.name for i in self.sess.get_inputs()]

    def vector(self, text, prefix="query: "):
        ids = np.array([self.tok.encode(prefix + text).ids])
        feed = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
        if "token_type_ids" in self.inputs: feed["token_type_ids"] = np.zeros_like(ids)
        v = self.sess.run(None, feed)[0][0].mean(0)
        return v / np.linalg.norm(v)


def train(X, y, l2, steps=3000, rate=0.5):
    """Logistic regression by gradient descent, classes weighted equally; returns (w, b) for the
    uncentred features (the centring is folded into the bias)."""
    mu = X.mean(0); Xc = X - mu
    w, b = np.zeros(X.shape[1]), 0.0
    sw = np.where(y == 1, 0.5 / y.mean(), 0.5 / (1 - y.mean()))
    for _ in range(steps):
        g = (1 / (1 + np.exp(-(Xc @ w + b))) - y) * sw
        w -= rate * (Xc.T @ g / len(y) + l2 * w); b -= rate * g.mean()
    return w, b - float(w @ mu)


def cross_validated(X, y, l2, folds=5):
    """Each row's probability from a model fitted without its fold."""
    p = np.zeros(len(y))
    for f in np.array_split(np.random.default_rng(0).permutation(len(y)), folds):
        m = np.ones(len(y), bool); m[f] = False
        w, b = train(X[m], y[m], l2); p[f] = 1 / (1 + np.exp(-(X[f] @ w + b)))
    return p


def fit_question_model(e5, pos, neg, l2, scale, path, cuts, names):
    """Fit a logistic model on the query vectors of `pos` (1) and `neg` (0); with --cv, print a
    5-fold cross-validation at each cut (names: what each class is called); write the model as
    the Rust side reads it (`scoring::vector_model`) to `path`. Returns (w, b)."""
    X = np.array([e5.vector(q) for q in pos + neg]) * scale
    y = np.array([1.0] * len(pos) + [0.0] * len(neg))
    print(f"{len(pos)} {names[0]}, {len(neg)} {names[1]}", file=sys.stderr)
    if "--cv" in sys.argv:
        p = cross_validated(X, y, l2)
        for cut in cuts:
            print(f"5-fold, cut {cut}: {names[0]} {(p[y == 1] >= cut).mean():.3f}, "
                  f"{names[1]} taken {int((p[y == 0] >= cut).sum())} of {int((y == 0).sum())}")
    w, b = train(X, y, l2)
    json.dump({"scale": scale, "bias": round(float(b), 5), "weights": [round(float(x), 5) for x in w]}, open(path, "w"))
    return w, b

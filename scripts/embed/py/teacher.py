"""Embeds texts with a sentence-transformer teacher exported to ONNX, on the onnxruntime CPU wheel.

    python teacher.py --model DIR --texts IN.json --out OUT.f32 [--pool mean|cls] [--batch 64]

IN.json is a JSON list of strings; OUT.f32 gets len(texts) x dim little-endian float32 rows in the
same order, unit-normalised (both teachers used here normalise their sentence vectors). DIR holds
model.onnx and tokenizer.json. Deterministic: one fixed thread count, texts sorted by token
length into batches (padding does not change a row: attention masks exclude it).
"""
import argparse
import json
import sys
import time

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--texts", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--pool", default="mean", choices=["mean", "cls"])
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--max-len", type=int, default=256)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()

    with open(a.texts, encoding="utf-8") as f:
        texts = json.load(f)
    tok = Tokenizer.from_file(f"{a.model}/tokenizer.json")
    tok.no_padding()
    tok.enable_truncation(max_length=a.max_len)
    so = ort.SessionOptions()
    so.intra_op_num_threads = a.threads
    so.inter_op_num_threads = 1
    sess = ort.InferenceSession(f"{a.model}/model.onnx", so, providers=["CPUExecutionProvider"])
    names = {i.name for i in sess.get_inputs()}

    enc = tok.encode_batch(texts)
    ids = [e.ids for e in enc]
    order = sorted(range(len(texts)), key=lambda i: (len(ids[i]), i))
    dim = sess.get_outputs()[0].shape[-1]
    out = np.zeros((len(texts), dim), dtype=np.float32)
    t0 = time.time()
    for k in range(0, len(order), a.batch):
        chunk = order[k : k + a.batch]
        L = max(len(ids[i]) for i in chunk)
        x = np.zeros((len(chunk), L), dtype=np.int64)
        m = np.zeros((len(chunk), L), dtype=np.int64)
        for r, i in enumerate(chunk):
            x[r, : len(ids[i])] = ids[i]
            m[r, : len(ids[i])] = 1
        feed = {"input_ids": x, "attention_mask": m}
        if "token_type_ids" in names:
            feed["token_type_ids"] = np.zeros_like(x)
        h = sess.run(None, feed)[0].astype(np.float64)
        if a.pool == "cls":
            v = h[:, 0, :]
        else:
            mf = m[:, :, None].astype(np.float64)
            v = (h * mf).sum(1) / np.maximum(mf.sum(1), 1e-9)
        v /= np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
        out[chunk] = v.astype(np.float32)
        if (k // a.batch) % 100 == 0:
            print(f"teacher: {k}/{len(texts)} {time.time() - t0:.0f}s", file=sys.stderr, flush=True)
    out.astype("<f4").tofile(a.out)
    print(f"teacher: {len(texts)} texts, dim {dim}, {time.time() - t0:.0f}s", file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Runs a Bones model folder's model.onnx in onnxruntime on observations recorded
from self-play and compares its outputs with burn's (recorded beside them).

    python scripts/ci/onnx_parity.py DIR [--tolerance 1e-4]

DIR holds model.onnx, model.json and the parity.json + parity.bin written by
`bones export --parity-samples N`. Exits 1 (and says why) when the graph's names
or shapes are not the documented ones, when fewer than 1,000 samples were given,
or when any logit or value differs by more than the tolerance.
"""
import argparse
import json
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort


def fail(msg):
    print(f"onnx parity: FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--tolerance", type=float, default=1e-4)
    ap.add_argument("--min-samples", type=int, default=1000)
    args = ap.parse_args()

    path = os.path.join(args.dir, "model.onnx")
    onnx.checker.check_model(onnx.load(path))
    meta = json.load(open(os.path.join(args.dir, "model.json")))
    header = json.load(open(os.path.join(args.dir, "parity.json")))
    n, ol, na = header["rows"], header["obs_len"], header["num_actions"]
    if n < args.min_samples:
        fail(f"{n} samples; at least {args.min_samples} expected")
    if (ol, na) != (meta["observation"]["length"], len(meta["actions"])):
        fail(f"parity samples are {ol}x{na}, model.json says {meta['observation']['length']}x{len(meta['actions'])}")
    rows = np.fromfile(os.path.join(args.dir, "parity.bin"), dtype="<f4")
    if rows.size != n * (ol + na + 1):
        fail(f"parity.bin holds {rows.size} floats, expected {n * (ol + na + 1)}")
    rows = rows.reshape(n, ol + na + 1)
    obs, logits, value = rows[:, :ol], rows[:, ol : ol + na], rows[:, ol + na :]

    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    ins = [(i.name, i.shape) for i in sess.get_inputs()]
    outs = [(o.name, o.shape) for o in sess.get_outputs()]
    if [i[0] for i in ins] != ["obs"] or sorted(o[0] for o in outs) != ["logits", "value"]:
        fail(f"graph inputs {ins} and outputs {outs}; expected obs -> logits, value")
    if isinstance(ins[0][1][0], int) or ins[0][1][1] != ol:
        fail(f"input shape {ins[0][1]}; expected [batch (dynamic), {ol}]")

    worst = {"logits": 0.0, "value": 0.0}
    # The whole batch at once, then single rows and an odd batch: the batch axis is dynamic.
    for batch in (n, 1, 7):
        for start in range(0, n if batch == n else min(n, 70), batch):
            x = obs[start : start + batch]
            got = dict(zip([o.name for o in sess.get_outputs()], sess.run(None, {"obs": x})))
            for name, want in (("logits", logits), ("value", value)):
                w = want[start : start + batch]
                if got[name].shape != w.shape:
                    fail(f"{name} has shape {got[name].shape} for a batch of {len(x)}; expected {w.shape}")
                worst[name] = max(worst[name], float(np.max(np.abs(got[name] - w))))
    print(
        f"onnx parity: {n} observations from self-play, {meta['game']} obs v{meta['observation']['version']}; "
        f"max |logits diff| {worst['logits']:.2e}, max |value diff| {worst['value']:.2e} (tolerance {args.tolerance:g})"
    )
    if max(worst.values()) > args.tolerance:
        fail("onnxruntime and burn disagree beyond the tolerance")
    print("onnx parity: OK")


if __name__ == "__main__":
    main()

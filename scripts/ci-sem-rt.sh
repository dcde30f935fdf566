#!/usr/bin/env bash
# The local embedder's committed data files match what the pinned packages give: the packed
# model's checksum, and ONNX Runtime's wasm inflating to the installed onnxruntime-web's (the
# worker bundles that package's JavaScript, which must meet the same wasm). Runs after npm ci.
set -euo pipefail
node scripts/embed/fetch-model.mjs --check

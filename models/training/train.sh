#!/usr/bin/env bash
# The detector's training recipe, end to end: render the data, train, export.
#   npm run train                       (defaults below)
#   FRAMES=3000 STEPS=6000 SEED=1 npm run train
# Needs Debian's PyTorch: apt-get install python3-torch python3-onnx (PyPI is not used).
set -euo pipefail
cd "$(dirname "$0")/../.."
FRAMES=${FRAMES:-1200}
VAL_FRAMES=${VAL_FRAMES:-160}
STEPS=${STEPS:-3000}
SEED=${SEED:-1}
DATA=${DATA:-/tmp/cueref-train}
OUT=${OUT:-models/detector}
PY=${PYTHON:-/usr/bin/python3}
"$PY" -c 'import torch, onnx' 2>/dev/null || { echo "PyTorch missing: apt-get install python3-torch python3-onnx" >&2; exit 2; }
# Training and held-out data differ in seed, so their layouts, looks and camera poses differ.
[ -f "$DATA/train/meta.json" ] || npx tsx models/training/dataset.ts --out "$DATA/train" --frames "$FRAMES" --seed "$SEED"
[ -f "$DATA/val/meta.json" ] || npx tsx models/training/dataset.ts --out "$DATA/val" --frames "$VAL_FRAMES" --seed $((SEED + 1000))
"$PY" models/training/train.py --data "$DATA/train" --val "$DATA/val" --out "$OUT" --steps "$STEPS" --seed "$SEED"

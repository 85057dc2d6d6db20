#!/usr/bin/env python3
"""The detector's int8 form: static QDQ quantization of a trained .onnx, calibrated on rendered frames.

NOT SHIPPED: models/README.md ("int8 quantisation: tried, not kept") says why — on video the int8
centres of small far balls flicker enough to be read as a ball placed. Kept so the experiment can be
repeated (and for a quantisation-aware model, which would need it too).

Why: on the 2-core machine (AVX-512 VNNI) the int8 network runs the 640x384 input in about half
the time of the float one (whole 720p detection 11.4 -> 7.7 ms median), with the same rendered
held-out figures within 0.4 points (models/README.md, "int8"). Weights per output channel (int8),
activations per tensor (uint8), each range the 99.999th percentile of what the calibration frames
put through it (onnxruntime's Percentile): a few outlying activations do not stretch a range and
cost every other value its precision.

The calibration frames are rendered by dataset.ts (never the real sets, never the held-out seed 99)
and fed exactly as the detector's pre-processing feeds the network: letterboxed RGB, (x/255 - mean)
/ std from the model's sidecar.

Usage: python3 models/training/quantize.py --onnx models/detector.onnx --data DIR --out /tmp/detector-int8.onnx
Needs onnxruntime's Python package (its quantization tools) and onnx; Debian packages neither, so
it comes from a wheel (here: python3 -m venv V && V/bin/pip install --no-index --find-links
/opt/pypi/files onnx onnxruntime sympy). Deterministic: same model and frames, same bytes.
"""
import argparse
import json
import os
import tempfile

import numpy as np
from onnxruntime.quantization import CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType, quantize_static
from onnxruntime.quantization.shape_inference import quant_pre_process


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument('--onnx', required=True, help='the float model (its .json sidecar beside it gives the normalisation)')
    ap.add_argument('--data', required=True, help='a dataset.ts folder: meta.json and images.u8 at the network input size')
    ap.add_argument('--out', required=True)
    ap.add_argument('--frames', type=int, default=96)
    a = ap.parse_args()
    meta = json.load(open(os.path.join(a.data, 'meta.json')))
    w, h, n = meta['width'], meta['height'], min(a.frames, meta['count'])
    images = np.fromfile(os.path.join(a.data, 'images.u8'), dtype=np.uint8, count=n * h * w * 3).reshape(n, h, w, 3)
    side = json.load(open(a.onnx[: -len('.onnx')] + '.json'))['input']
    mean = np.array(side['mean'], np.float32)[:, None, None]
    std = np.array(side['std'], np.float32)[:, None, None]

    class Frames(CalibrationDataReader):
        def __init__(self) -> None:
            self.k = 0

        def get_next(self):
            if self.k >= n:
                return None
            x = (images[self.k].transpose(2, 0, 1).astype(np.float32) / 255 - mean) / std
            self.k += 1
            return {'image': x[None]}

    with tempfile.TemporaryDirectory() as tmp:
        # Shape inference first (the graph's input is h × w dynamic): quantize_static wants it.
        pre = os.path.join(tmp, 'pre.onnx')
        quant_pre_process(a.onnx, pre)
        quantize_static(pre, a.out, Frames(), quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        calibrate_method=CalibrationMethod.Percentile)
    print(f'wrote {a.out} ({os.path.getsize(a.out)} bytes) from {a.onnx}, calibrated on {n} frames of {a.data}')


if __name__ == '__main__':
    main()

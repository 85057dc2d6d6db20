#!/usr/bin/env python3
"""Weights of a shipped detector (.onnx) back into train.py's network (.pt), to fine-tune it.

The shipped models are exported with their batch norms folded into the convolutions, and the .pt
each run wrote beside its .onnx was not kept. This rebuilds a `BallUNet` that computes exactly
what the .onnx computes: each folded convolution's weights go into the convolution, and its batch
norm is set so that in eval mode it adds the folded bias. So that training mode (batch statistics)
starts from the same function too, each batch norm's running mean and variance are measured on
frames from --data, and its scale and shift set to undo them: BN(z) = (z - mean) / sd * sd + mean + b.

Usage: python3 models/training/from_onnx.py --onnx models/detector-cloths.onnx --data DIR[,DIR] --out X.pt
Then:  python3 models/training/train.py ... --init X.pt
"""
import argparse
import os
import sys

import numpy as np
import onnx
import torch
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train import BallUNet, load  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--onnx', required=True)
    ap.add_argument('--data', required=True, help='dataset folder(s) whose frames measure the batch-norm statistics')
    ap.add_argument('--out', required=True)
    ap.add_argument('--width', type=int, default=32)
    ap.add_argument('--frames', type=int, default=64)
    args = ap.parse_args()

    graph = onnx.load(args.onnx).graph
    inits = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    # The convolutions in the order the forward pass runs them, with their (folded) weight and bias.
    convs = [(inits[n.input[1]], inits[n.input[2]] if len(n.input) > 2 else None) for n in graph.node if n.op_type == 'Conv']
    classes = convs[-3][0].shape[0]
    model = BallUNet(classes, args.width)
    order = [model.stem[0], model.stem[1], model.s4[0].conv, model.s4[1].conv, model.down,
             *[r.conv for r in model.s8], model.lateral, model.fuse.conv, model.hm, model.off, model.rad]
    assert len(order) == len(convs), f'{len(convs)} convolutions in the .onnx, {len(order)} in BallUNet'
    bns = []
    with torch.no_grad():
        for mod, (w, b) in zip(order, convs):
            if isinstance(mod, torch.nn.Sequential):  # conv_bn: conv without bias, batch norm, ReLU
                conv, bn = mod[0], mod[1]
                assert tuple(conv.weight.shape) == w.shape, (conv.weight.shape, w.shape)
                conv.weight.copy_(torch.from_numpy(w))
                bn.running_mean.zero_(); bn.running_var.fill_(1 - bn.eps); bn.weight.fill_(1); bn.bias.copy_(torch.from_numpy(b))
                bns.append(bn)
            else:
                assert tuple(mod.weight.shape) == w.shape, (mod.weight.shape, w.shape)
                mod.weight.copy_(torch.from_numpy(w)); mod.bias.copy_(torch.from_numpy(b))
    model.eval()

    # Measure each batch norm's input statistics on real training frames (eval mode: the model is
    # now exactly the .onnx, so one pass sees every layer's true inputs).
    images = np.concatenate([load(d)[1][: args.frames] for d in args.data.split(',')])
    mean = np.array([0.485, 0.456, 0.406], np.float32)
    std = np.array([0.229, 0.224, 0.225], np.float32)
    stats = {}
    hooks = [bn.register_forward_hook(lambda m, inp, out, k=k: stats.setdefault(k, []).append(inp[0].detach())) for k, bn in enumerate(bns)]
    with torch.no_grad():
        ref = []
        for i in range(0, len(images), 8):
            x = torch.from_numpy(((images[i:i + 8].astype(np.float32) / 255 - mean) / std).transpose(0, 3, 1, 2).copy())
            ref.append(model(x)[0])
    for h in hooks:
        h.remove()
    with torch.no_grad():
        for k, bn in enumerate(bns):
            z = torch.cat(stats[k]).transpose(0, 1).reshape(bn.num_features, -1)
            mu, var = z.mean(1), z.var(1)
            b = bn.bias.clone()
            bn.running_mean.copy_(mu); bn.running_var.copy_(var)
            bn.weight.copy_(torch.sqrt(var + bn.eps)); bn.bias.copy_(mu + b)
        # The same function as before, in eval mode (to float rounding).
        out = []
        for i in range(0, len(images), 8):
            x = torch.from_numpy(((images[i:i + 8].astype(np.float32) / 255 - mean) / std).transpose(0, 3, 1, 2).copy())
            out.append(model(x)[0])
        diff = (torch.cat(out) - torch.cat(ref)).abs().max().item()
    assert diff < 1e-3, f'rebuilt network differs from the .onnx by {diff}'
    torch.save(model.state_dict(), args.out)
    print(f'wrote {args.out}: {len(convs)} convolutions, {len(bns)} batch norms measured on {len(images)} frames; heatmap max difference {diff:.2e}')


if __name__ == '__main__':
    main()

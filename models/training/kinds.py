#!/usr/bin/env python3
"""Train cueref's ball-kind classifier on rendered ball patches and export it to ONNX.

The detector finds balls at a quarter of its input's resolution, where a pool ball is ~5 input px in
radius: its heatmaps place them well but confuse a stripe's white caps with a solid's number disc
(Padova: 41 of 230 boxes solid<->stripe). This network looks again at each found ball at the frame's
own resolution, resampled so the ball is 8 px in radius in a 32x32 patch (src/detection/patch.ts,
the same sampler that cut the training patches), and says its kind.

Data: folders written by `npx tsx models/training/dataset.ts --patches` (meta.json, patches.u8,
patches.jsonl). Logits of other games' classes are masked out: a patch is classified among its own
game's kinds, as at run time.
Usage:  python3 models/training/kinds.py --data DIR[,DIR] --val DIR --out models/kinds [--steps N] [--seed S]
Reproducible from --seed (data order, augmentation, initialisation); torch runs deterministically on CPU.
"""
import argparse
import json
import os
import random
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

PATCH = 32
MEAN = np.array([0.485, 0.456, 0.406], np.float32)
STD = np.array([0.229, 0.224, 0.225], np.float32)


def load(dirs):
    xs, ys, games, meta = [], [], [], None
    for d in dirs.split(','):
        meta = json.load(open(os.path.join(d, 'meta.json')))
        n = meta['count']
        xs.append(np.fromfile(os.path.join(d, 'patches.u8'), dtype=np.uint8).reshape(n, PATCH, PATCH, 3))
        labels = [json.loads(line) for line in open(os.path.join(d, 'patches.jsonl'))]
        assert len(labels) == n, f'{d}: patches.jsonl and patches.u8 disagree'
        ys += [meta['classes'].index(l['class']) for l in labels]
        games += [l['game'] for l in labels]
    return meta, np.concatenate(xs), np.array(ys, np.int64), games


def conv_bn(cin, cout, s=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, s, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class KindNet(nn.Module):
    """32x32 -> 4x4 by three stride-2 stages, flattened (where the white lies on the ball — a
    stripe's caps at its edge, a solid's disc at its middle — is what tells them apart, so the
    layout is kept rather than pooled away), one linear layer to the classes' logits."""

    def __init__(self, n_classes, width=32):
        super().__init__()
        w = width
        self.body = nn.Sequential(conv_bn(3, w // 2), conv_bn(w // 2, w, 2), conv_bn(w, w), conv_bn(w, 2 * w, 2), conv_bn(2 * w, 2 * w),
                                  conv_bn(2 * w, 3 * w, 2), conv_bn(3 * w, 3 * w))
        self.drop = nn.Dropout(0.2)
        self.head = nn.Linear(3 * w * 16, n_classes)

    def forward(self, x):
        return self.head(self.drop(torch.flatten(self.body(x), 1)))


def game_masks(meta, games):
    classes = meta['classes']
    per_game = {g: torch.tensor([0.0 if c in meta['games'][g] else -1e4 for c in classes]) for g in meta['games']}
    return torch.stack([per_game[g] for g in games])


def augment(x, rng):
    """x: N x 32 x 32 x 3 float 0-1. Flips and quarter turns (a ball has no up), brightness and
    contrast, a white-balance cast, sensor noise — on top of the renderer's own randomisation."""
    out = np.empty_like(x)
    for i in range(len(x)):
        p = x[i]
        if rng.random() < 0.5: p = p[:, ::-1]
        if rng.random() < 0.5: p = p[::-1]
        p = np.rot90(p, rng.randrange(4))
        if rng.random() < 0.6:
            p = (p - 0.5) * rng.uniform(0.75, 1.25) + 0.5 + rng.uniform(-0.1, 0.1)
        if rng.random() < 0.5:
            p = p * np.array([rng.uniform(0.8, 1.2) for _ in range(3)], np.float32)
        if rng.random() < 0.3:
            p = p + np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(0.01, 0.04), p.shape).astype(np.float32)
        out[i] = np.clip(p, 0, 1)
    return out


def to_tensor(x):
    return torch.from_numpy(((x - MEAN) / STD).transpose(0, 3, 1, 2).copy())


def evaluate(model, x, y, masks, classes, games):
    model.eval()
    preds = []
    with torch.no_grad():
        for i in range(0, len(x), 1024):
            logits = model(to_tensor(x[i:i + 1024].astype(np.float32) / 255.0)) + masks[i:i + 1024]
            preds.append(logits.argmax(1).numpy())
    model.train()
    p = np.concatenate(preds)
    out = {'patches': int(len(y)), 'accuracy': round(float((p == y).mean()), 4)}
    for g in sorted(set(games)):
        sel = np.array([gg == g for gg in games])
        out[g] = round(float((p[sel] == y[sel]).mean()), 4)
    conf = {}
    for t, q in zip(y, p):
        if t != q:
            k = f'{classes[t]}->{classes[q]}'
            conf[k] = conf.get(k, 0) + 1
    out['confusions'] = dict(sorted(conf.items(), key=lambda kv: -kv[1])[:12])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', required=True, help='patch folder(s), comma-separated')
    ap.add_argument('--val', help='held-out patch folder (other seeds and camera poses)')
    ap.add_argument('--out', required=True, help='output path without extension: writes .onnx and .json')
    ap.add_argument('--steps', type=int, default=4000)
    ap.add_argument('--batch', type=int, default=128)
    ap.add_argument('--lr', type=float, default=3e-3)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--threads', type=int, default=1)
    ap.add_argument('--width', type=int, default=32)
    args = ap.parse_args()
    random.seed(args.seed); np.random.seed(args.seed); torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    t0 = time.time()
    meta, x, y, games = load(args.data)
    classes = meta['classes']
    masks = game_masks(meta, games)
    print(f'{len(y)} patches; per class', {c: int((y == i).sum()) for i, c in enumerate(classes)}, flush=True)
    model = KindNet(len(classes), args.width)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.steps, pct_start=0.15)
    rng = random.Random(args.seed)
    order = list(range(len(y)))
    pos = len(order)
    for step in range(args.steps):
        if pos + args.batch > len(order):
            rng.shuffle(order); pos = 0
        idx = order[pos:pos + args.batch]; pos += args.batch
        xb = to_tensor(augment(x[idx].astype(np.float32) / 255.0, rng))
        logits = model(xb) + masks[idx]
        loss = F.cross_entropy(logits, torch.from_numpy(y[idx]))
        opt.zero_grad(); loss.backward(); opt.step(); sched.step()
        if step % 200 == 0 or step == args.steps - 1:
            print(f'step {step} loss {loss.item():.4f} {time.time() - t0:.0f} s', flush=True)
    metrics = {'trainedOn': evaluate(model, x[:20000], y[:20000], masks[:20000], classes, games[:20000])}
    if args.val:
        vmeta, vx, vy, vgames = load(args.val)
        metrics['renderedHeldOut'] = evaluate(model, vx, vy, game_masks(vmeta, vgames), classes, vgames)
        print('held-out:', json.dumps(metrics['renderedHeldOut']), flush=True)
    torch.save(model.state_dict(), args.out + '.pt')
    model.eval()
    torch.onnx.export(model, torch.zeros(1, 3, PATCH, PATCH), args.out + '.onnx', input_names=['patch'], output_names=['logits'],
                      dynamic_axes={'patch': {0: 'n'}, 'logits': {0: 'n'}}, opset_version=13)
    sidecar = {
        'format': 'cueref.kindmodel/1', 'name': os.path.basename(args.out), 'classes': classes, 'games': meta['games'],
        'input': {'patchPx': PATCH, 'ballRadiusPx': 8, 'mean': MEAN.tolist(), 'std': STD.tolist()},
        'outputs': {'logits': 'logits'},
        'training': {'data': [json.load(open(os.path.join(d, 'meta.json'))).get('seed') for d in args.data.split(',')], 'patches': int(len(y)),
                     'steps': args.steps, 'batch': args.batch, 'lr': args.lr, 'seed': args.seed, 'width': args.width,
                     'seconds': round(time.time() - t0), 'torch': torch.__version__},
        'metrics': metrics,
    }
    json.dump(sidecar, open(args.out + '.json', 'w'), indent=2)
    print('wrote', args.out + '.onnx', args.out + '.json')


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""Train cueref's ball detector on rendered frames and export it to ONNX.

The network is CenterNet-like and small enough for 2 CPU cores: a stride-4 heatmap per ball class,
a sub-cell offset and a radius per cell, from depthwise-separable blocks. It is fully convolutional,
so it trains on crops and runs on whole letterboxed frames (640x384 for 16:9 video).

Data: a folder written by `npx tsx models/training/dataset.ts` (meta.json, images.u8, labels.jsonl).
Usage:  python3 models/training/train.py --data DIR --out models/detector [--steps N] [--seed S]
Reproducible from --seed (data order, crops, initialisation); torch runs deterministically on CPU.
"""
import argparse
import json
import math
import os
import random
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

STRIDE = 4


def load(data_dir):
    meta = json.load(open(os.path.join(data_dir, 'meta.json')))
    n, h, w = meta['count'], meta['height'], meta['width']
    # Mapped, not read: several folders are concatenated into one array, and reading them first
    # held every frame twice (two runs side by side on 24 GB went out of memory).
    images = np.memmap(os.path.join(data_dir, 'images.u8'), dtype=np.uint8, mode='r', shape=(n, h, w, 3))
    labels = [json.loads(line) for line in open(os.path.join(data_dir, 'labels.jsonl'))]
    assert len(labels) == n, 'labels.jsonl and images.u8 disagree'
    return meta, images, labels


# Cloth normalisation ("white balance by the cloth"): each frame's channels are scaled so the median
# colour of its centre region (the bed, in every camera we serve) becomes the training data's typical
# cloth. A light's colour cast scales cloth and balls alike, so this removes it; the detector applies
# the same map at inference (src/detection/detector.ts reads it from the sidecar).
CLOTH_REGION = (220, 130, 420, 250)  # x0, y0, x1, y1 in network-input pixels (640x384)
CLOTH_TARGET = (18.0, 139.0, 30.0)  # median centre colour of the rendered snooker frames
CLOTH_GAIN_RANGE = (0.25, 4.0)


def cloth_medians(images, labels, classes):
    """The cloth region's median colour (every second pixel) of each frame showing a ball of `classes`, as an (n, 3) array."""
    x0, y0, x1, y1 = CLOTH_REGION
    return np.array([np.median(im[y0:y1:2, x0:x1:2].reshape(-1, 3), axis=0) for im, lab in zip(images, labels)
                     if any(b['class'] in classes for b in lab)])


def cloth_stats(images, labels, classes_of_games):
    """
    The cloth-normalisation section of the sidecar for a model trained WITHOUT normalisation that
    applies it at inference only to frames whose cloth lies outside the training cloths (the shipped
    model: normalising every frame helped the Bern overhead clip and broke the broadcast footage).
    Over the training frames of the given games: the median of the centre-region medians is the
    target; a frame is normalised when a channel is above the 99th percentile, or green below the
    1st (a cloth darker in red or blue is still a green cloth).
    """
    meds = cloth_medians(images, labels, classes_of_games)
    p1, p99 = np.percentile(meds, 1, axis=0), np.percentile(meds, 99, axis=0)
    return {'target': [int(v) for v in np.median(meds, axis=0)], 'min': [0, int(p1[1]), 0], 'max': [int(v) for v in p99]}


def cloth_ranges(images, labels, classes_by_game):
    """
    Per game, the 1st and 99th percentiles of the training frames' cloth (the centre region's
    median, every channel): the cloths this model has seen. The sidecar's otherCloths.outside
    sends a frame whose cloth lies outside them to the partner trained on other cloths.
    """
    out = {}
    for game, classes in classes_by_game.items():
        meds = cloth_medians(images, labels, classes)
        if len(meds):
            out[game] = {'min': [int(v) for v in np.percentile(meds, 1, axis=0)], 'max': [int(v) for v in np.percentile(meds, 99, axis=0)]}
    return out


def cloth_gains(img_u8):
    x0, y0, x1, y1 = CLOTH_REGION
    med = np.median(img_u8[y0:y1:2, x0:x1:2].reshape(-1, 3), axis=0).astype(np.float32)
    return np.clip(np.array(CLOTH_TARGET, np.float32) / np.maximum(med, 1.0), *CLOTH_GAIN_RANGE)


def conv_bn(cin, cout, k=3, s=1, groups=1, dilation=1):
    pad = dilation * (k // 2)
    return nn.Sequential(nn.Conv2d(cin, cout, k, s, pad, dilation=dilation, groups=groups, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Residual(nn.Module):
    def __init__(self, c, dilation=1):
        super().__init__()
        self.conv = conv_bn(c, c, 3, 1, dilation=dilation)

    def forward(self, x):
        return x + self.conv(x)


class BallNet(nn.Module):
    """Plain 3x3 convolutions: on CPU they run on optimised kernels, where depthwise ones (fewer
    FLOPs) measured 3x slower to train and 2.6x slower to infer with this torch build."""

    def __init__(self, classes, width=24):
        super().__init__()
        self.stem = nn.Sequential(conv_bn(3, 16, 3, 2), conv_bn(16, width, 3, 2))
        self.body = nn.Sequential(Residual(width), Residual(width, 2), Residual(width), Residual(width, 2))
        self.hm = nn.Conv2d(width, classes, 1)
        self.off = nn.Conv2d(width, 2, 1)
        self.rad = nn.Conv2d(width, 1, 1)
        # Start the heatmap near "no ball everywhere" (CenterNet's prior), so training is stable.
        nn.init.constant_(self.hm.bias, -4.0)

    def forward(self, x):
        f = self.body(self.stem(x))
        return torch.sigmoid(self.hm(f)), torch.sigmoid(self.off(f)), F.softplus(self.rad(f)) * 4.0


class BallUNet(nn.Module):
    """Stride-4 output fed by a stride-8 branch of twice the width: colours under a cast light and
    small blurred balls need more capacity and context than `BallNet` has, and a 3x3 conv at stride 8
    costs a quarter of one at stride 4, so the extra width is cheap (~2.5x BallNet's compute)."""

    def __init__(self, classes, width=32):
        super().__init__()
        w2 = width * 2
        self.stem = nn.Sequential(conv_bn(3, 16, 3, 2), conv_bn(16, width, 3, 2))
        self.s4 = nn.Sequential(Residual(width), Residual(width, 2))
        self.down = conv_bn(width, w2, 3, 2)
        self.s8 = nn.Sequential(Residual(w2), Residual(w2, 2), Residual(w2), Residual(w2, 3))
        self.lateral = nn.Conv2d(w2, width, 1)
        self.fuse = Residual(width)
        self.hm = nn.Conv2d(width, classes, 1)
        self.off = nn.Conv2d(width, 2, 1)
        self.rad = nn.Conv2d(width, 1, 1)
        nn.init.constant_(self.hm.bias, -4.0)

    def forward(self, x):
        f4 = self.s4(self.stem(x))
        f8 = self.s8(self.down(f4))
        f = self.fuse(f4 + F.interpolate(self.lateral(f8), size=f4.shape[2:], mode='nearest'))
        return torch.sigmoid(self.hm(f)), torch.sigmoid(self.off(f)), F.softplus(self.rad(f)) * 4.0


# Where a heatmap cell sits on the input (`--offset-origin`). The stem's two stride-2 3x3 convolutions
# (padding 1) centre output cell x on input pixel 4x (pixel centres at whole numbers). 'corner' (the
# models up to v10) gave a ball to the cell whose span [4x, 4x+4) holds its centre, offset 0..1 from
# that corner: the boundary between two cells then falls where a cell's receptive field is centred
# on the ball, where its features barely change with the ball's side (they are even in the shift), and
# the offset targets 0 and 1 sit in the sigmoid's flat ends. (v8's median error by phase: -0.5 to +0.9
# frame px on 1280x720 video frames; within +-0.1 input px on the rendered held-out set, where the
# tails are wider at phases 0 and 3: 90th percentile 0.79 and 0.75 px against 0.59.) 'centre' gives a ball to the cell centred nearest it, offset -0.5..0.5 stored
# as sigmoid - 0.5: boundaries fall halfway between cell centres and the targets in the sigmoid's
# linear middle. Measured (models/README.md, v11 against its control v11c, same data and seeds): no
# better on the rendered held-out set, worse on the Bern overhead clip; the recipe keeps 'corner'.
OFFSET_ORIGIN = 'corner'


def cell_of(u):
    """Heatmap cell, stored offset target (0..1) and the cell's centre, all in cells, for a ball at u cells."""
    if OFFSET_ORIGIN == 'centre':
        c = int(math.floor(u + 0.5))
        return c, u - c + 0.5, c
    c = int(math.floor(u))
    return c, u - c, c + 0.5


def decode_offset(cell, off):
    """A cell's stored offset (0..1) back to a position in cells: the inverse of cell_of."""
    return cell + off - 0.5 if OFFSET_ORIGIN == 'centre' else cell + off


def targets(labels, classes, h, w, crop):
    """Heatmap, offset, radius targets and masks for one crop (x0, y0, size)."""
    x0, y0, size = crop
    hc, wc = size // STRIDE, size // STRIDE
    hm = np.zeros((len(classes), hc, wc), np.float32)
    off = np.zeros((2, hc, wc), np.float32)
    rad = np.zeros((1, hc, wc), np.float32)
    mask = np.zeros((1, hc, wc), np.float32)
    ys, xs = np.mgrid[0:hc, 0:wc]
    for b in labels:
        if not b.get('visible', True):
            continue
        u, v = (b['u'] - x0) / STRIDE, (b['v'] - y0) / STRIDE
        cx, ox, ux = cell_of(u)
        cy, oy, uy = cell_of(v)
        if not (0 <= cx < wc and 0 <= cy < hc):
            continue
        c = classes.index(b['class'])
        sigma = max(0.6, b['r'] / STRIDE / 2.0)
        # The Gaussian over cell centres (xs + ux - cx is cell xs's centre in cells).
        g = np.exp(-((xs + (ux - cx) - u) ** 2 + (ys + (uy - cy) - v) ** 2) / (2 * sigma * sigma))
        hm[c] = np.maximum(hm[c], g)
        hm[c, cy, cx] = 1.0
        off[0, cy, cx], off[1, cy, cx] = ox, oy
        rad[0, cy, cx] = b['r']
        mask[0, cy, cx] = 1.0
    return hm, off, rad, mask


def focal(pred, gt):
    """CenterNet's penalty-reduced focal loss."""
    pos = gt.eq(1).float()
    neg = 1 - pos
    pred = pred.clamp(1e-4, 1 - 1e-4)
    pl = torch.log(pred) * (1 - pred) ** 2 * pos
    nl = torch.log(1 - pred) * pred ** 2 * (1 - gt) ** 4 * neg
    npos = pos.sum().clamp(min=1)
    return -(pl.sum() + nl.sum()) / npos


def batch(images, labels, classes, idx, size, rng, mean, std, gains=None, zoom_max=1.8):
    xs, hms, offs, rads, masks = [], [], [], [], []
    n, h, w, _ = images.shape
    for i in idx:
        balls = labels[i]
        # Crops centred on a random ball half of the time: balls are sparse on a big cloth.
        if balls and rng.random() < 0.5:
            b = balls[rng.randrange(len(balls))]
            x0 = int(min(max(b['u'] - rng.uniform(0.2, 0.8) * size, 0), w - size))
            y0 = int(min(max(b['v'] - rng.uniform(0.2, 0.8) * size, 0), h - size))
        else:
            x0, y0 = rng.randrange(0, w - size + 1), rng.randrange(0, h - size + 1)
        # Scale augmentation: balls range from ~4 px (broadcast) to ~8 px (a club overhead camera)
        # in the network input; a zoomed crop teaches the sizes the renders have fewer of.
        # zoom_max above 2 also teaches the detector's second, enlarged look at clusters (src/detection/clusters.ts).
        zoom = math.exp(rng.uniform(math.log(0.75), math.log(zoom_max))) if rng.random() < 0.6 else 1.0
        src = max(16, min(int(round(size / zoom)), w, h))
        x0 = min(x0, w - src); y0 = min(y0, h - src)
        img = images[i, y0:y0 + src, x0:x0 + src].astype(np.float32) / 255.0
        if gains is not None:
            img = np.clip(img * gains[i], 0, 1)
        if src != size:
            img = F.interpolate(torch.from_numpy(img.transpose(2, 0, 1))[None], size=(size, size), mode='bilinear', align_corners=False)[0].numpy().transpose(1, 2, 0)
        k = size / src
        balls = [{**b, 'u': (b['u'] - x0) * k + 0.5 * (k - 1), 'v': (b['v'] - y0) * k + 0.5 * (k - 1), 'r': b['r'] * k} for b in balls]
        x0 = y0 = 0
        if rng.random() < 0.5:  # brightness/contrast jitter on top of the renderer's randomisation
            img = np.clip((img - 0.5) * rng.uniform(0.8, 1.2) + 0.5 + rng.uniform(-0.08, 0.08), 0, 1)
        if gains is None and rng.random() < 0.4:  # a white-balance cast (the cloth normalisation removes casts instead)
            img = np.clip(img * np.array([rng.uniform(0.82, 1.18) for _ in range(3)], np.float32), 0, 1)
        img = (img - mean) / std
        xs.append(img.transpose(2, 0, 1))
        t = targets(balls, classes, h, w, (x0, y0, size))
        hms.append(t[0]); offs.append(t[1]); rads.append(t[2]); masks.append(t[3])
    f = lambda a: torch.from_numpy(np.stack(a))
    return f(xs), f(hms), f(offs), f(rads), f(masks)


def evaluate(model, images, labels, classes, mean, std, match_px=None, normalise=False):
    """Recall, precision, class accuracy and median centre error (network-input px) on full frames."""
    model.eval()
    tp = fp = fn = cls_ok = 0
    errs = []
    with torch.no_grad():
        for i in range(len(images)):
            f = images[i].astype(np.float32) / 255.0
            if normalise:
                f = np.clip(f * cloth_gains(images[i]), 0, 1)
            x = torch.from_numpy(((f - mean) / std).transpose(2, 0, 1)[None])
            hm, off, rad = model(x)
            hm = hm[0].numpy(); off = off[0].numpy(); rad = rad[0].numpy()
            pool = F.max_pool2d(torch.from_numpy(hm)[None], 3, 1, 1)[0].numpy()
            peaks = np.argwhere((hm == pool) & (hm > 0.3))
            dets = []
            for c, y, x_ in peaks:
                dets.append((hm[c, y, x_], decode_offset(x_, off[0, y, x_]) * STRIDE, decode_offset(y, off[1, y, x_]) * STRIDE, rad[0, y, x_], classes[c]))
            dets.sort(key=lambda d: -d[0])
            kept = []
            for d in dets:
                if all(math.hypot(d[1] - k[1], d[2] - k[2]) > 0.9 * max(d[3], k[3]) for k in kept):
                    kept.append(d)
            gts = [b for b in labels[i] if b.get('visible', True)]
            used = set()
            for g in gts:
                best, bd = None, 1e9
                for j, d in enumerate(kept):
                    dd = math.hypot(d[1] - g['u'], d[2] - g['v'])
                    if j not in used and dd < bd:
                        best, bd = j, dd
                if best is not None and bd < max(2.0, (match_px or 0.5 * g['r'])):
                    used.add(best); tp += 1; errs.append(bd)
                    cls_ok += kept[best][4] == g['class']
                else:
                    fn += 1
            fp += len(kept) - len(used)
    model.train()
    return {
        'recall': tp / max(1, tp + fn), 'precision': tp / max(1, tp + fp), 'classAccuracy': cls_ok / max(1, tp),
        'medianCentreErrorInputPx': float(np.median(errs)) if errs else None, 'balls': tp + fn,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', required=True, help='dataset folder(s), comma-separated')
    ap.add_argument('--val', help='held-out dataset folder (other seeds and camera poses)')
    ap.add_argument('--out', required=True, help='output path without extension: writes .onnx and .json')
    ap.add_argument('--steps', type=int, default=3000)
    ap.add_argument('--batch', type=int, default=16)
    ap.add_argument('--crop', type=int, default=128)
    ap.add_argument('--lr', type=float, default=3e-3)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--threads', type=int, default=2)
    ap.add_argument('--width', type=int, default=24)
    ap.add_argument('--arch', choices=['plain', 'unet'], default='plain')
    ap.add_argument('--cloth-norm', action='store_true', help='normalise each frame by its cloth colour (see CLOTH_TARGET)')
    ap.add_argument('--cloth-norm-outside', help='train without normalisation; at inference normalise only frames of these games (comma-separated) whose cloth is outside the training cloths (see cloth_stats)')
    ap.add_argument('--cloth-ranges', help='record the training cloths of these games (comma-separated) in the sidecar (training.clothRanges; see cloth_ranges)')
    ap.add_argument('--init', help='start from these weights (a .pt an earlier run wrote beside its .onnx)')
    ap.add_argument('--zoom-max', type=float, default=1.8, help='largest crop zoom of the scale augmentation')
    ap.add_argument('--offset-origin', choices=['corner', 'centre'], default='corner', help="how a ball's centre is given to a heatmap cell (see OFFSET_ORIGIN); 'centre' measured no better (models/README.md, v11)")
    ap.add_argument('--eval-every', type=int, default=0, help='evaluate on --val every N steps (0: only at the end)')
    args = ap.parse_args()
    global OFFSET_ORIGIN
    OFFSET_ORIGIN = args.offset_origin

    torch.manual_seed(args.seed); np.random.seed(args.seed)
    rng = random.Random(args.seed)
    torch.set_num_threads(args.threads)
    # --data may list several folders (comma-separated), e.g. renders from different seeds.
    parts = [load(d) for d in args.data.split(',')]
    meta = parts[0][0]
    for m, _, _ in parts[1:]:
        assert m['classes'] == meta['classes'] and (m['width'], m['height']) == (meta['width'], meta['height']), 'datasets disagree'
    images = np.concatenate([p[1] for p in parts]) if len(parts) > 1 else parts[0][1]
    labels = [l for p in parts for l in p[2]]
    meta = {**meta, 'seed': [p[0].get('seed') for p in parts], 'count': len(images)}
    classes = meta['classes']
    mean = np.array([0.485, 0.456, 0.406], np.float32)
    std = np.array([0.229, 0.224, 0.225], np.float32)
    gains = np.stack([cloth_gains(im) for im in images]) if args.cloth_norm else None
    model = (BallUNet if args.arch == 'unet' else BallNet)(len(classes), args.width)
    if args.init:
        # Warm start from an earlier run's weights (same --arch and --width).
        model.load_state_dict(torch.load(args.init))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.steps, pct_start=0.1)
    t0 = time.time()
    for step in range(args.steps):
        idx = [rng.randrange(len(images)) for _ in range(args.batch)]
        x, hm, off, rad, mask = batch(images, labels, classes, idx, args.crop, rng, mean, std, gains, args.zoom_max)
        phm, poff, prad = model(x)
        l_hm = focal(phm, hm)
        npos = mask.sum().clamp(min=1)
        l_off = (F.l1_loss(poff, off, reduction='none') * mask).sum() / npos
        l_rad = (F.l1_loss(prad, rad, reduction='none') * mask).sum() / npos
        loss = l_hm + l_off + 0.1 * l_rad
        opt.zero_grad(); loss.backward(); opt.step(); sched.step()
        if step % 100 == 0 or step == args.steps - 1:
            print(f'step {step} loss {loss.item():.3f} (hm {l_hm.item():.3f} off {l_off.item():.3f} rad {l_rad.item():.3f}) {time.time() - t0:.0f}s', flush=True)
        if args.val and args.eval_every and step and step % args.eval_every == 0:
            if 'vdata' not in locals():
                vdata = load(args.val)
            print(f'step {step} held-out:', json.dumps(evaluate(model, vdata[1][:60], vdata[2][:60], classes, mean, std, normalise=args.cloth_norm)), flush=True)
            torch.save(model.state_dict(), args.out + '.pt')

    metrics = {}
    if args.val:
        vmeta, vimages, vlabels = load(args.val)
        metrics['renderedHeldOut'] = evaluate(model, vimages, vlabels, classes, mean, std, normalise=args.cloth_norm)
        metrics['renderedHeldOut']['frames'] = len(vimages)
        metrics['renderedHeldOut']['scale'] = vmeta.get('scale')
        print('held-out:', json.dumps(metrics['renderedHeldOut']), flush=True)

    def outside_norm(games):
        st = cloth_stats(images, labels, {c for g in games for c in meta['games'][g]})
        return {'region': list(CLOTH_REGION), 'target': st['target'], 'gainRange': list(CLOTH_GAIN_RANGE),
                'onlyOutside': {'games': games, 'min': st['min'], 'max': st['max'], 'marginLevels': 10}}

    torch.save(model.state_dict(), args.out + '.pt')
    model.eval()
    h, w = meta['height'], meta['width']
    dummy = torch.zeros(1, 3, h, w)
    torch.onnx.export(model, dummy, args.out + '.onnx', input_names=['image'], output_names=['hm', 'off', 'rad'],
                      dynamic_axes={'image': {2: 'h', 3: 'w'}, 'hm': {2: 'hh', 3: 'ww'}, 'off': {2: 'hh', 3: 'ww'}, 'rad': {2: 'hh', 3: 'ww'}},
                      opset_version=13)
    sidecar = {
        'format': 'cueref.model/1', 'name': os.path.basename(args.out), 'classes': classes, 'games': meta['games'],
        'input': {'width': w, 'height': h, 'mean': mean.tolist(), 'std': std.tolist(),
                  **({'clothNormalise': {'region': list(CLOTH_REGION), 'target': list(CLOTH_TARGET), 'gainRange': list(CLOTH_GAIN_RANGE)}} if args.cloth_norm else {}),
                  **({'clothNormalise': outside_norm(args.cloth_norm_outside.split(','))} if args.cloth_norm_outside and not args.cloth_norm else {})},
        'stride': STRIDE, 'offsetOrigin': OFFSET_ORIGIN, 'outputs': {'heatmap': 'hm', 'offset': 'off', 'radius': 'rad'},
        'training': {'data': meta.get('version'), 'dataSeed': meta.get('seed'), 'frames': int(len(images)), 'steps': args.steps,
                     'batch': args.batch, 'crop': args.crop, 'lr': args.lr, 'seed': args.seed, 'width': args.width, 'arch': args.arch,
                     'zoomMax': args.zoom_max, 'init': args.init,
                     'seconds': round(time.time() - t0), 'torch': torch.__version__,
                     **({'clothRanges': cloth_ranges(images, labels, {g: set(meta['games'][g]) for g in args.cloth_ranges.split(',')})} if args.cloth_ranges else {})},
        'metrics': metrics,
    }
    json.dump(sidecar, open(args.out + '.json', 'w'), indent=2)
    print('wrote', args.out + '.onnx', args.out + '.json')


if __name__ == '__main__':
    main()

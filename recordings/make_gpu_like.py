#!/usr/bin/env python3
"""Writes gemm_like_synthetic.json, conv_like_synthetic.json and pnpoly_like_synthetic.json:
synthetic spaces shaped like the published brute-force GPU recordings (a CLBlast-style GEMM, a
tiled 2D convolution and a point-in-polygon test), which are too large to keep here. Each is a
Kernel Tuner cache file, and deterministic.

What they copy from real GPU spaces, as the literature describes them:
- Validity comes from divisibility and resource limits, not at random: a tile must split evenly
  over its threads and vector width, a workgroup holds 64 to 1,024 threads, shared memory is
  capped. Whole regions of the grid are missing, so one-level neighbours often do not exist.
- Times come from interacting effects (a register tile that spills, occupancy that falls with
  shared memory and thread count, vector loads that only pay with the right strides), with
  seeded roughness of a few per cent on every point and a few cliffs.
- Parameters of very different lengths: on/off flags beside a block size of 32 values.
- Readings are GPU-quiet: five per point, about 1% apart.

Neither model is a real device. They are stand-ins that a strategy tuned on the smooth bowl or
on lavapipe's noisy spaces has not seen, so the replay benchmark has rugged, sparse, quiet
spaces of thousands of points to run on (17,956, 6,656 and 8,448 configurations).

Usage: recordings/make_gpu_like.py   (writes both files next to this script)
"""
import itertools
import json
import math
import pathlib
import random

HERE = pathlib.Path(__file__).resolve().parent


def readings(draw, ms):
    return [round(ms * (1 + 0.01 * draw.gauss(0, 1)), 5) for _ in range(5)]


def gemm_like(draw):
    names = ["MWG", "NWG", "KWG", "MDIMC", "NDIMC", "MDIMA", "NDIMB", "VWM", "VWN", "SA", "SB"]
    values = [[16, 32, 64, 128], [16, 32, 64, 128], [32], [8, 16, 32], [8, 16, 32], [8, 16, 32],
              [8, 16, 32], [1, 2, 4, 8], [1, 2, 4, 8], [0, 1], [0, 1]]
    cache = {}
    for combo in itertools.product(*values):
        mwg, nwg, kwg, mdimc, ndimc, mdima, ndimb, vwm, vwn, sa, sb = combo
        threads = mdimc * ndimc
        valid = (threads >= 64 and mwg % (mdimc * vwm) == 0 and nwg % (ndimc * vwn) == 0
                 and mwg % (mdima * vwm) == 0 and nwg % (ndimb * vwn) == 0
                 and kwg % (threads // mdima) == 0 and kwg % (threads // ndimb) == 0)
        if not valid:
            continue
        key = ",".join(map(str, combo))
        entry = dict(zip(names, combo))
        tile = (mwg // mdimc) * (nwg // ndimc)  # accumulators per thread
        shared = (sa * mwg + sb * nwg) * kwg * 4
        if shared > 16384:
            entry["time"] = "RuntimeFailedConfig"
            cache[key] = entry
            continue
        # Reuse grows with the register tile until it spills past 64 accumulators.
        compute = 1.0 / math.sqrt(tile) + (0.02 * (tile - 64) if tile > 64 else 0.0)
        occupancy = 1.0 + 0.5 * (threads / 256) ** 2 + shared / 49152
        caching = 1.0 - 0.12 * sa * (mwg >= 64) - 0.12 * sb * (nwg >= 64)
        vectors = 1.0 - 0.06 * math.log2(vwm) * (mdima == mdimc) - 0.06 * math.log2(vwn) * (
            ndimb == ndimc)
        ms = 4.0 * compute * occupancy * caching * vectors * (1 + 0.08 * draw.random())
        if (mwg * nwg) // threads == 8 and vwm * vwn >= 8:  # a register-bank cliff
            ms *= 2.5
        entry["time"] = ms
        entry["times"] = readings(draw, ms)
        cache[key] = entry
    return {"kernel_name": "gemm_like", "tune_params_keys": names,
            "tune_params": dict(zip(names, values)), "cache": cache}


def conv_like(draw):
    names = ["block_size_x", "block_size_y", "tile_size_x", "tile_size_y", "use_padding",
             "read_only"]
    values = [[16, 32, 48, 64, 96, 128], [1, 2, 4, 8, 16, 32], list(range(1, 9)),
              list(range(1, 9)), [0, 1], [0, 1]]
    cache = {}
    filter_size = 17
    for combo in itertools.product(*values):
        bx, by, tx, ty, pad, ro = combo
        threads = bx * by
        if threads < 64 or threads > 1024:
            continue
        key = ",".join(map(str, combo))
        entry = dict(zip(names, combo))
        halo_x, halo_y = bx * tx + filter_size - 1, by * ty + filter_size - 1
        shared = halo_x * halo_y * 4
        if shared > 49152:
            entry["time"] = "CompilationFailedConfig"
            cache[key] = entry
            continue
        # Shared-memory reuse per output against the halo's overhead and occupancy.
        reuse = (bx * tx * by * ty) / (halo_x * halo_y)
        occupancy = max(1, (49152 // shared)) * threads
        occupancy_loss = 1.0 + 0.6 * max(0.0, 1 - occupancy / 1536)
        registers = 1.0 + 0.04 * max(0, tx * ty - 16)
        banks = 1.0 + (0.25 if (bx % 32 != 0 and pad == 0) else 0.0)
        ms = 1.5 / (0.2 + reuse) * occupancy_loss * registers * banks * (
            0.95 if ro else 1.0) * (1 + 0.06 * draw.random())
        entry["time"] = ms
        entry["times"] = readings(draw, ms)
        cache[key] = entry
    return {"kernel_name": "conv_like", "tune_params_keys": names,
            "tune_params": dict(zip(names, values)), "cache": cache}


def pnpoly_like(draw):
    names = ["block_size_x", "tile_size", "between_method", "use_precomputed_slopes",
             "use_method"]
    values = [[32 * i for i in range(1, 33)], [1] + [2 * i for i in range(1, 11)], [0, 1, 2, 3],
              [0, 1], [0, 1, 2]]
    cache = {}
    for combo in itertools.product(*values):
        bs, ts, bm, sl, um = combo
        key = ",".join(map(str, combo))
        entry = dict(zip(names, combo))
        registers = 20 + 3 * ts + 6 * (um == 2) + 4 * sl
        if registers * bs > 65536:
            entry["time"] = "InvalidConfig"
            cache[key] = entry
            continue
        # Occupancy from registers and block size, work per thread from the tile, and a tail
        # when the tile of points does not divide the polygon's work evenly.
        blocks = min(16, 2048 // bs, 65536 // (registers * bs))
        occupancy = 1 + 1.2 * max(0.0, 0.5 - blocks * bs / 2048)
        tile = 1 / (1 + 0.35 * math.log2(ts)) + 0.015 * ts
        tail = 1.15 if (1024 * 20) % (bs * ts) != 0 else 1.0
        method = [1.0, 0.93, 1.05, 0.97][bm] * [1.0, 0.9, 1.1][um] * (0.95 if sl else 1.0)
        ms = 3.0 * occupancy * tile * tail * method * (1 + 0.05 * draw.random())
        entry["time"] = ms
        entry["times"] = readings(draw, ms)
        cache[key] = entry
    return {"kernel_name": "pnpoly_like", "tune_params_keys": names,
            "tune_params": dict(zip(names, values)), "cache": cache}


def main():
    for name, build, seed in (("gemm_like_synthetic.json", gemm_like, 11),
                              ("conv_like_synthetic.json", conv_like, 12),
                              ("pnpoly_like_synthetic.json", pnpoly_like, 5)):
        space = build(random.Random(seed))
        ran = sum(1 for e in space["cache"].values() if isinstance(e["time"], float))
        times = [e["time"] for e in space["cache"].values() if isinstance(e["time"], float)]
        print(f"{name}: {len(space['cache'])} points, {ran} ran, "
              f"{max(times) / min(times):.1f}x between the best and worst modelled times")
        (HERE / name).write_text(json.dumps(space, separators=(",", ":")))


if __name__ == "__main__":
    main()

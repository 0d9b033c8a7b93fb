#!/usr/bin/env python3
"""Writes six synthetic spaces shaped like the published brute-force GPU recordings, which are too
large to keep here: a CLBlast-style GEMM, a tiled 2D convolution and a point-in-polygon test
(gemm_like_synthetic.json, conv_like_synthetic.json, pnpoly_like_synthetic.json), and three with
8 or 9 parameters and 50,000 to 86,000 configurations, shaped like the benchmark hub's larger
kernels (dedisp_like_synthetic.json, hotspot_like_synthetic.json, expdist_like_synthetic.json).
Each is a Kernel Tuner cache file, and deterministic.

What they copy from real GPU spaces, as the literature describes them:
- Validity comes from divisibility and resource limits, not at random: a tile must split evenly
  over its threads and vector width, a workgroup holds 32 or 64 to 1,024 threads, shared memory is
  capped. Whole regions of the grid are missing, so one-level neighbours often do not exist.
- Times come from interacting effects (a register tile that spills, occupancy that falls with
  shared memory and thread count, vector loads that only pay with the right strides), with
  seeded roughness of a few per cent on every point and a few cliffs.
- Parameters of very different lengths: on/off flags beside a block size of 32 values.
- Readings are GPU-quiet: five per point, about 1% apart (3% in the dedispersion-like space).
- Some have traps: in the dedispersion-like space, loads coalesce only with a block at least 32
  wide and unit strides, two or more levels away from where a small random sample tends to find
  its best, so a search that only refines its best point stays on a plateau near 0.6 of the optimum.

No model is a real device. They are stand-ins that a strategy tuned on the smooth bowl or
on lavapipe's noisy spaces has not seen, so the replay benchmark has rugged, sparse, mostly
quiet spaces of thousands of points to run on (17,956, 6,656, 8,448, 86,016, 68,040 and 50,400
configurations).

Usage: recordings/make_gpu_like.py   (writes the six files next to this script)
"""
import itertools
import json
import math
import pathlib
import random

HERE = pathlib.Path(__file__).resolve().parent


def readings(draw, ms, spread):
    return [round(ms * (1 + spread * draw.gauss(0, 1)), 5) for _ in range(5)]


def space(kernel_name, names, values, model, draw, spread=0.01):
    """A Kernel Tuner cache of every configuration of the grid that `model(combo, draw)` puts in
    the space: its time in ms (drawn roughness included), or a failure's name; None: outside.
    Five readings of each, `spread` apart (their coefficient of variation)."""
    cache = {}
    for combo in itertools.product(*values):
        time = model(combo, draw)
        if time is None:
            continue
        entry = dict(zip(names, combo))
        entry["time"] = time
        if isinstance(time, float):
            entry["times"] = readings(draw, time, spread)
        cache[",".join(map(str, combo))] = entry
    return {"kernel_name": kernel_name, "tune_params_keys": names,
            "tune_params": dict(zip(names, values)), "cache": cache}


def gemm_time(combo, draw):
    mwg, nwg, kwg, mdimc, ndimc, mdima, ndimb, vwm, vwn, sa, sb = combo
    threads = mdimc * ndimc
    valid = (threads >= 64 and mwg % (mdimc * vwm) == 0 and nwg % (ndimc * vwn) == 0
             and mwg % (mdima * vwm) == 0 and nwg % (ndimb * vwn) == 0
             and kwg % (threads // mdima) == 0 and kwg % (threads // ndimb) == 0)
    if not valid:
        return None
    tile = (mwg // mdimc) * (nwg // ndimc)  # accumulators per thread
    shared = (sa * mwg + sb * nwg) * kwg * 4
    if shared > 16384:
        return "RuntimeFailedConfig"
    # Reuse grows with the register tile until it spills past 64 accumulators.
    compute = 1.0 / math.sqrt(tile) + (0.02 * (tile - 64) if tile > 64 else 0.0)
    occupancy = 1.0 + 0.5 * (threads / 256) ** 2 + shared / 49152
    caching = 1.0 - 0.12 * sa * (mwg >= 64) - 0.12 * sb * (nwg >= 64)
    vectors = 1.0 - 0.06 * math.log2(vwm) * (mdima == mdimc) - 0.06 * math.log2(vwn) * (
        ndimb == ndimc)
    ms = 4.0 * compute * occupancy * caching * vectors * (1 + 0.08 * draw.random())
    if (mwg * nwg) // threads == 8 and vwm * vwn >= 8:  # a register-bank cliff
        ms *= 2.5
    return ms


def gemm_like(draw):
    names = ["MWG", "NWG", "KWG", "MDIMC", "NDIMC", "MDIMA", "NDIMB", "VWM", "VWN", "SA", "SB"]
    values = [[16, 32, 64, 128], [16, 32, 64, 128], [32], [8, 16, 32], [8, 16, 32], [8, 16, 32],
              [8, 16, 32], [1, 2, 4, 8], [1, 2, 4, 8], [0, 1], [0, 1]]
    return space("gemm_like", names, values, gemm_time, draw)


def conv_time(combo, draw):
    bx, by, tx, ty, pad, ro = combo
    threads = bx * by
    if threads < 64 or threads > 1024:
        return None
    filter_size = 17
    halo_x, halo_y = bx * tx + filter_size - 1, by * ty + filter_size - 1
    shared = halo_x * halo_y * 4
    if shared > 49152:
        return "CompilationFailedConfig"
    # Shared-memory reuse per output against the halo's overhead and occupancy.
    reuse = (bx * tx * by * ty) / (halo_x * halo_y)
    occupancy = max(1, (49152 // shared)) * threads
    occupancy_loss = 1.0 + 0.6 * max(0.0, 1 - occupancy / 1536)
    registers = 1.0 + 0.04 * max(0, tx * ty - 16)
    banks = 1.0 + (0.25 if (bx % 32 != 0 and pad == 0) else 0.0)
    return 1.5 / (0.2 + reuse) * occupancy_loss * registers * banks * (
        0.95 if ro else 1.0) * (1 + 0.06 * draw.random())


def conv_like(draw):
    names = ["block_size_x", "block_size_y", "tile_size_x", "tile_size_y", "use_padding",
             "read_only"]
    values = [[16, 32, 48, 64, 96, 128], [1, 2, 4, 8, 16, 32], list(range(1, 9)),
              list(range(1, 9)), [0, 1], [0, 1]]
    return space("conv_like", names, values, conv_time, draw)


def pnpoly_time(combo, draw):
    bs, ts, bm, sl, um = combo
    registers = 20 + 3 * ts + 6 * (um == 2) + 4 * sl
    if registers * bs > 65536:
        return "InvalidConfig"
    # Occupancy from registers and block size, work per thread from the tile, and a tail when
    # the tile of points does not divide the polygon's work evenly.
    blocks = min(16, 2048 // bs, 65536 // (registers * bs))
    occupancy = 1 + 1.2 * max(0.0, 0.5 - blocks * bs / 2048)
    tile = 1 / (1 + 0.35 * math.log2(ts)) + 0.015 * ts
    tail = 1.15 if (1024 * 20) % (bs * ts) != 0 else 1.0
    method = [1.0, 0.93, 1.05, 0.97][bm] * [1.0, 0.9, 1.1][um] * (0.95 if sl else 1.0)
    return 3.0 * occupancy * tile * tail * method * (1 + 0.05 * draw.random())


def pnpoly_like(draw):
    names = ["block_size_x", "tile_size", "between_method", "use_precomputed_slopes",
             "use_method"]
    values = [[32 * i for i in range(1, 33)], [1] + [2 * i for i in range(1, 11)], [0, 1, 2, 3],
              [0, 1], [0, 1, 2]]
    return space("pnpoly_like", names, values, pnpoly_time, draw)


def dedisp_time(combo, draw):
    bx, by, tx, ty, sx, sy, unroll, per_sm = combo
    threads = bx * by
    if threads < 32 or threads > 1024:
        return None
    registers = 20 + 3 * tx * ty + unroll
    if registers * threads * per_sm > 65536:
        return "InvalidConfig"
    # Loads coalesce only across a warp-wide block reading unit strides; a tile of outputs per
    # thread reuses each sample until it spills; occupancy from blocks per multiprocessor.
    coalescing = 1.0 if (bx >= 32 and sx == 1) else 1.6
    reuse = 1 / (1 + 0.25 * math.log2(tx * ty)) + 0.01 * tx * ty
    strides = 1.2 if (sy == 0 and ty > 1) else 1.0
    occupancy = 1 + 0.9 * (1 - min(1.0, threads * per_sm / 768))
    unrolling = {0: 1.0, 1: 0.97, 2: 0.95, 4: 0.94, 8: 0.99, 16: 1.05}[unroll]
    return 3.0 * coalescing * reuse * strides * occupancy * unrolling * (1 + 0.1 * draw.random())


def dedisp_like(draw):
    names = ["block_size_x", "block_size_y", "tile_size_x", "tile_size_y", "tile_stride_x",
             "tile_stride_y", "loop_unroll_factor_channel", "blocks_per_sm"]
    values = [[1, 2, 4, 8, 16, 32, 64, 128], [4, 8, 16, 32, 64], list(range(1, 9)), [1, 2, 4, 8],
              [0, 1], [0, 1], [0, 1, 2, 4, 8, 16], [1, 2, 3, 4]]
    # Readings 3% apart: noisier than the others.
    return space("dedisp_like", names, values, dedisp_time, draw, spread=0.03)


def hotspot_time(combo, draw):
    bx, by, tx, ty, steps, unroll, shared_power, per_sm = combo
    threads = bx * by
    if threads < 32 or threads > 1024 or unroll > steps or steps % unroll:
        return None
    # Temporal tiling: several time steps per launch save memory traffic but recompute a halo
    # that grows with them.
    width, height = bx * tx + 2 * steps, by * ty + 2 * steps
    if width * height * 4 * (2 if shared_power else 1) > 49152:
        return "CompilationFailedConfig"
    if (24 + 4 * tx * ty + 2 * unroll) * threads * per_sm > 65536:
        return "InvalidConfig"
    useful = (bx * tx * by * ty) / (width * height)
    memory = 1.0 / steps + 0.15
    compute = 0.09 * steps / useful
    occupancy = 1 + 0.8 * (1 - min(1.0, threads * per_sm / 1024))
    ms = 5.0 * (memory + compute) * occupancy * (0.92 if shared_power else 1.0) * (
        1 - 0.03 * math.log2(unroll)) * (1 + 0.06 * draw.random())
    return ms * 1.3 if bx % 32 else ms


def hotspot_like(draw):
    names = ["block_size_x", "block_size_y", "tile_size_x", "tile_size_y",
             "temporal_tiling_factor", "loop_unroll_factor_t", "sh_power", "blocks_per_sm"]
    values = [[16, 32, 64, 128, 256], [1, 2, 4, 8, 16], [1, 2, 3, 4, 6, 8], [1, 2, 3, 4, 6, 8],
              [1, 2, 3, 4, 5, 6, 8, 10], [1, 2, 4], [0, 1], [1, 2, 4]]
    return space("hotspot_like", names, values, hotspot_time, draw)


def expdist_time(combo, draw):
    bx, by, tx, ty, shared, ux, uy, column, y_blocks = combo
    threads = bx * by
    if threads < 32 or threads > 1024 or tx % ux or ty % uy:
        return None
    if (bx * tx + by * ty) * 8 * shared > 49152:
        return "CompilationFailedConfig"
    # Flags that pay together (shared memory with column-wise reads), a reduction over blocks
    # that costs with too few rows, and unrolling that helps until the code outgrows its cache.
    work = 1 / (tx * ty) ** 0.35 + 0.004 * tx * ty
    memory = 1.0 if shared else 1.5 + (0.0 if column else 0.3)
    reduction = 1 + 0.04 * y_blocks + (0.3 if (y_blocks == 1 and by < 4) else 0.0)
    unrolling = 1 - 0.04 * math.log2(ux * uy) + (0.15 if ux * uy > 8 else 0.0)
    occupancy = 1 + 0.5 * max(0.0, 1 - threads / 256)
    ms = 4.0 * work * memory * reduction * unrolling * occupancy * (1 + 0.05 * draw.random())
    return ms * 0.85 if shared and column else ms


def expdist_like(draw):
    names = ["block_size_x", "block_size_y", "tile_size_x", "tile_size_y", "use_shared_mem",
             "loop_unroll_factor_x", "loop_unroll_factor_y", "use_column", "n_y_blocks"]
    values = [[32, 64, 128, 256, 512, 1024], [1, 2, 4, 8, 16, 32], [1, 2, 4, 8], [1, 2, 4, 8],
              [0, 1], [1, 2, 4, 8], [1, 2, 4, 8], [0, 1], [1, 2, 4, 8, 16, 32]]
    return space("expdist_like", names, values, expdist_time, draw)


def main():
    for name, build, seed in (("gemm_like_synthetic.json", gemm_like, 11),
                              ("conv_like_synthetic.json", conv_like, 12),
                              ("pnpoly_like_synthetic.json", pnpoly_like, 5),
                              ("dedisp_like_synthetic.json", dedisp_like, 2),
                              ("hotspot_like_synthetic.json", hotspot_like, 1),
                              ("expdist_like_synthetic.json", expdist_like, 3)):
        written = build(random.Random(seed))
        times = [e["time"] for e in written["cache"].values() if isinstance(e["time"], float)]
        print(f"{name}: {len(written['cache'])} points, {len(times)} ran, "
              f"{max(times) / min(times):.1f}x between the best and worst modelled times")
        (HERE / name).write_text(json.dumps(written, separators=(",", ":")))


if __name__ == "__main__":
    main()

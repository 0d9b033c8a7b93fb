#!/usr/bin/env python3
"""Writes rugged5_synthetic.json: a synthetic space shaped like the published GPU ones.

Five parameters (8x5x4x6x2 = 1,920 configurations), of which about a third are in the space
(670: thread-count limits, one excluded tiling, and a seeded 45% left out at random); about
half of those with more than 16 elements per thread fail to compile (59); times grow away from 256 threads and 6 elements per
thread, with seeded roughness of up to 25% and a slow band (x-tiles of a multiple of 96).
Deterministic: the same file every run.
"""
import itertools
import json
import pathlib
import random


def main():
    draw = random.Random(3)
    names = ["bx", "by", "tx", "ty", "u"]
    values = [[16, 32, 48, 64, 96, 128, 192, 256], [1, 2, 4, 8, 16], [1, 2, 3, 4],
              [1, 2, 3, 4, 6, 8], [0, 1]]
    cache = {}
    for combo in itertools.product(*[range(len(v)) for v in values]):
        bx, by, tx, ty, u = [values[i][c] for i, c in enumerate(combo)]
        threads = bx * by
        if threads > 512 or threads < 32 or (bx * tx) % 64 == 48 or draw.random() < 0.45:
            continue
        entry = dict(zip(names, [bx, by, tx, ty, u]))
        if tx * ty > 16 and draw.random() < 0.5:
            entry["time"] = "CompilationFailedConfig"
        else:
            occupancy = 1.0 + abs(threads - 256) / 256
            work = 1.0 + 0.8 * abs(tx * ty - 6) / 6 + (0.3 if u == 0 else 0)
            ms = 2.0 * occupancy * work * (1 + 0.25 * draw.random()) * (
                3.0 if (bx * tx) % 96 == 0 else 1)
            entry["time"] = ms
            entry["times"] = [ms * (1 + 0.01 * draw.random()) for _ in range(3)]
        cache[",".join(str(values[i][c]) for i, c in enumerate(combo))] = entry
    space = {"kernel_name": "rugged5", "tune_params_keys": names,
             "tune_params": dict(zip(names, values)), "cache": cache}
    out = pathlib.Path(__file__).resolve().parent / "rugged5_synthetic.json"
    out.write_text(json.dumps(space, separators=(",", ":")))


if __name__ == "__main__":
    main()

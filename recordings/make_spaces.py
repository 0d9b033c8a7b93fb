#!/usr/bin/env python3
"""Writes the problem files whose exhaustive lavapipe runs are this folder's *_lavapipe.json
recordings: wider grids over the shipped kernels, one key each, so that a space has several
parameters, constraints that leave holes in it, and real timings.

- matmul_split_k: the split-K matmul's two steps (configs/matmul.json), 4 parameters: the
  partial product's workgroup TX x TY, the SPLIT of K, and the reduction's workgroup RWG.
- matmul_split_k_wide: the same two steps over 1,080 points (30 workgroups x 6 splits x 6
  reduction sizes), the largest space recorded here on a device.
- stencil_rows: the 3x3 stencil that walks ROWS rows per invocation (configs/stencil.json), 3
  parameters: a WX x WY workgroup and ROWS.
- transpose_tiled: the shared-memory transpose (configs/transpose.json), 3 parameters: the tile
  T, the workgroup's ROWS (T % ROWS == 0) and the tile row's PAD.

Usage: recordings/make_spaces.py   (writes recordings/spaces/*.json; then see README.md)
"""
import copy
import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
CONFIGS = HERE.parent / "configs"


def base(config, name, key):
    problem = json.loads((CONFIGS / config).read_text())
    problem.pop("$schema", None)
    problem["name"] = name
    problem["keys"] = {"list": [key]}
    problem["settings"] = {"warmup": 1, "samples": 5}
    return problem


def family(problem, name):
    return copy.deepcopy(next(c for c in problem["candidates"] if c["name"] == name))


def with_space(problem, naive_workgroups, searched):
    """The problem's candidates: the config's naive kernel at one 16 x 16 workgroup (the
    reference, no grid), then the family whose grid is the space."""
    naive = family(problem, "naive")
    naive.pop("grid", None)
    naive.pop("variants", None)
    naive["name"] = "naive"
    naive["specialization"] = {"0": 16, "1": 16}
    naive["workgroups"] = naive_workgroups
    problem["candidates"] = [naive, searched]
    problem["reference"]["candidate"] = "naive"
    return problem


def matmul_split_k():
    problem = base("matmul.json", "matmul-split-k-space", {"M": 256, "N": 256, "K": 256})
    split = family(problem, "split_k")
    split.pop("variants")
    split["grid"] = {"TX": [4, 8, 16, 32, 64], "TY": [1, 2, 4, 8, 16, 32],
                     "SPLIT": [1, 2, 4, 8], "RWG": [32, 64, 128, 256]}
    split["constraints"] = ["TX * TY >= 16", "TX * TY <= 512"]
    split["steps"][1]["specialization"] = {"0": "RWG"}
    split["steps"][1]["workgroups"] = ["ceil_div(M * N, RWG)", 1, 1]
    return with_space(problem, ["ceil_div(N, 16)", "ceil_div(M, 16)", 1], split)


def matmul_split_k_wide():
    """The split-K space widened past 1,000 points: K split up to 32 ways (its partial sums'
    buffer sized for that), a narrower and a taller workgroup, and reductions of 16 to 512."""
    problem = matmul_split_k()
    problem["name"] = "matmul-split-k-wide-space"
    problem["buffers"]["split_partials"]["count"] = "32 * M * N"
    problem["candidates"][1]["grid"] = {
        "TX": [2, 4, 8, 16, 32, 64], "TY": [1, 2, 4, 8, 16, 32, 64],
        "SPLIT": [1, 2, 4, 8, 16, 32], "RWG": [16, 32, 64, 128, 256, 512]}
    return problem


def stencil_rows():
    problem = base("stencil.json", "stencil-rows-space", {"width": 1024, "height": 768})
    rows = family(problem, "rows")
    rows["grid"] = {"WX": [8, 16, 32, 64, 128, 256], "WY": [1, 2, 4, 8],
                    "ROWS": [1, 2, 4, 8, 16, 32]}
    rows["constraints"] = ["WX * WY >= 16", "WX * WY <= 512"]
    rows["specialization"] = {"0": "WX", "1": "WY", "2": "ROWS"}
    rows["workgroups"] = ["ceil_div(width, WX)", "ceil_div(height, WY * ROWS)", 1]
    return with_space(problem, ["ceil_div(width, 16)", "ceil_div(height, 16)", 1], rows)


def transpose_tiled():
    problem = base("transpose.json", "transpose-tiled-space", {"rows": 1024, "cols": 1024})
    tiled = family(problem, "tiled")
    tiled["grid"] = {"T": [4, 8, 16, 32, 64], "ROWS": [1, 2, 4, 8, 16, 32], "PAD": [0, 1, 2, 4]}
    tiled["constraints"] = ["T % ROWS == 0", "T * ROWS <= 1024"]
    tiled["specialization"] = {"0": "T", "1": "ROWS", "2": "PAD"}
    return with_space(problem, ["ceil_div(cols, 16)", "ceil_div(rows, 16)", 1], tiled)


def main():
    out = HERE / "spaces"
    out.mkdir(exist_ok=True)
    for make in (matmul_split_k, matmul_split_k_wide, stencil_rows, transpose_tiled):
        path = out / (make.__name__ + ".json")
        path.write_text(json.dumps(make(), indent=2) + "\n")
        print(path.relative_to(HERE.parent))


if __name__ == "__main__":
    main()

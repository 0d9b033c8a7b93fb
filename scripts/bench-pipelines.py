#!/usr/bin/env python3
"""Measures what the on-disk pipeline cache and the build threads save on pipeline builds.

Builds a problem of about 1,000 small pipelines from a shipped element-wise kernel
(configs/elementwise.json's `multi`, saxpy_multi.spv, over a grid of its two specialization
constants: 4 workgroup sizes x 250 elements per invocation, each point its own pipeline) and
times `spvtune tune --compile-only` on it, which creates every candidate's pipeline and measures
nothing, so pipeline creation is what it isolates. A one-point problem run the same way gives the
fixed cost of a run (process start, the Vulkan instance, the worker process), which is
subtracted, so the ratios are of build time. Mesa's own shader cache is disabled for these runs
(MESA_SHADER_CACHE_DISABLE), so that only spvtune's pipeline cache differs. Prints, each a median
of --repeats runs:
- cold vs warm pipeline cache: a run with an empty cache directory, then one with the pipeline
  cache file the first left (target: warm builds >= 3x faster);
- two build threads vs one, without a pipeline cache (target: >= 1.7x).

Then, for context on lavapipe, where vkCreateComputePipelines only translates the shader and the
LLVM compilation happens at a pipeline's first dispatch (and lands in Mesa's disk shader cache,
not in the VkPipelineCache): a tune of --jit-points points with one sample each, Mesa's shader
cache cold (a fresh MESA_SHADER_CACHE_DIR) then warm, and where its time went (output_runs_s
holds the first dispatches).

lavapipe builds on the CPU: two build threads need two idle cores, so the load average (printed
with every figure) matters; run it on a quiet machine.

Usage: scripts/bench-pipelines.py [--spvtune build/default/app/spvtune] [--repeats 5]
       [--points 1000] [--jit-points 200]
"""
import argparse
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def grid_problem(points):
    problem = json.loads((ROOT / "configs" / "elementwise.json").read_text())
    multi = next(c for c in problem["candidates"] if c["name"] == "multi")
    sizes = [32, 64, 128, 256]
    elems = max(1, points // len(sizes))
    multi["grid"] = {"WG": sizes, "ELEMS": list(range(1, elems + 1))}
    problem["candidates"] = [multi]
    problem["name"] = f"elementwise-{len(sizes) * elems}-pipelines"
    problem["keys"] = {"list": [{"n": 4096}]}
    problem["reference"] = {"candidate": "multi[WG=32,ELEMS=1]",
                            "compare": {"y": {"rtol": 1e-5, "atol": 1e-6}}}
    return problem


def one_point_problem():
    problem = grid_problem(4)
    problem["candidates"][0]["grid"] = {"WG": [32], "ELEMS": [1]}
    problem["name"] = "elementwise-1-pipeline"
    return problem


def compile_all(spvtune, problem_file, cache, extra):
    """Wall time of one `tune --compile-only` run, and the load average before it."""
    load = os.getloadavg()[0]
    start = time.monotonic()
    subprocess.run([spvtune, "tune", str(problem_file), "--cache-dir", str(cache),
                    "--compile-only", "-q"] + extra, check=True,
                   env=dict(os.environ, MESA_SHADER_CACHE_DISABLE="true"))
    return time.monotonic() - start, load


def first_dispatches(spvtune, problem_file, work, mesa_cache):
    """One-sample tune with Mesa's shader cache in `mesa_cache`: its `time` and load average."""
    load = os.getloadavg()[0]
    report = work / "jit-report.json"
    shutil.rmtree(work / "jit-cache", ignore_errors=True)
    subprocess.run([spvtune, "tune", str(problem_file), "--cache-dir", str(work / "jit-cache"),
                    "--fixed", "--warmup", "0", "--samples", "1", "--json", str(report), "-q"],
                   check=True, env=dict(os.environ, MESA_SHADER_CACHE_DIR=str(mesa_cache)))
    return json.loads(report.read_text())["problems"][0]["keys"][0]["time"], load


def median_run(spvtune, problem_file, work, extra, repeats, keep_cache=None):
    """Median wall time over fresh cache directories (or `keep_cache`, reused), and loads."""
    times, loads = [], []
    for i in range(repeats):
        cache = keep_cache if keep_cache else work / f"cache-{time.monotonic_ns()}"
        seconds, load = compile_all(spvtune, problem_file, cache, extra)
        times.append(seconds)
        loads.append(load)
        if not keep_cache:
            shutil.rmtree(cache, ignore_errors=True)
    return statistics.median(times), loads


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spvtune", default=str(ROOT / "build" / "default" / "app" / "spvtune"))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--points", type=int, default=1000)
    parser.add_argument("--jit-points", type=int, default=200)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="spvtune-bench-pipelines-") as scratch:
        work = pathlib.Path(scratch)
        big = work / "grid.json"
        big.write_text(json.dumps(grid_problem(args.points)))
        one = work / "one.json"
        one.write_text(json.dumps(one_point_problem()))
        points = len(grid_problem(args.points)["candidates"][0]["grid"]["ELEMS"]) * 4

        fixed, fixed_loads = median_run(args.spvtune, one, work, ["--build-threads", "1"],
                                        args.repeats)
        print(f"fixed cost of a run (one pipeline): {fixed:.2f} s "
              f"(load average {', '.join(f'{l:.1f}' for l in fixed_loads)})")

        # Cold then warm, alternating, each pair on a fresh cache directory.
        colds, warms, loads = [], [], []
        for i in range(args.repeats):
            cache = work / f"pair-{i}"
            cold, cold_load = compile_all(args.spvtune, big, cache, ["--build-threads", "1"])
            warm, warm_load = compile_all(args.spvtune, big, cache, ["--build-threads", "1"])
            colds.append(cold)
            warms.append(warm)
            loads += [cold_load, warm_load]
            shutil.rmtree(cache, ignore_errors=True)
        cold, warm = statistics.median(colds), statistics.median(warms)
        print(f"{points} pipelines, one build thread: cold pipeline cache {cold:.2f} s, "
              f"warm {warm:.2f} s (load average {', '.join(f'{l:.1f}' for l in loads)})")
        print(f"  builds cold / warm: {(cold - fixed) / max(warm - fixed, 1e-3):.2f}x "
              f"(target >= 3); whole runs: {cold / warm:.2f}x")

        one_thread, loads1 = median_run(args.spvtune, big, work,
                                        ["--build-threads", "1", "--no-pipeline-cache"],
                                        args.repeats)
        two_threads, loads2 = median_run(args.spvtune, big, work,
                                         ["--build-threads", "2", "--no-pipeline-cache"],
                                         args.repeats)
        print(f"{points} pipelines, no pipeline cache: one build thread {one_thread:.2f} s, "
              f"two {two_threads:.2f} s (load average "
              f"{', '.join(f'{l:.1f}' for l in loads1 + loads2)}; {os.cpu_count()} cores)")
        print(f"  builds one thread / two: "
              f"{(one_thread - fixed) / max(two_threads - fixed, 1e-3):.2f}x (target >= 1.7); "
              f"whole runs: {one_thread / two_threads:.2f}x")

        if args.jit_points > 0:
            small = work / "jit.json"
            small.write_text(json.dumps(grid_problem(args.jit_points)))
            mesa = work / "mesa-shader-cache"
            for label in ("cold", "warm"):
                spent, load = first_dispatches(args.spvtune, small, work, mesa)
                print(f"{args.jit_points} points, one sample each, Mesa shader cache {label}: "
                      f"wall {spent['wall_s']:.2f} s, output runs (first dispatches) "
                      f"{spent['output_runs_s']:.2f} s, pipeline builds "
                      f"{spent['pipeline_builds_s']:.2f} s (load average {load:.1f})")


if __name__ == "__main__":
    main()

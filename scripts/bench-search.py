#!/usr/bin/env python3
"""Measures what the search strategies save against exhaustive tuning, side by side in one run.

Tunes configs/synthetic_search.json (1,296 points whose run time is a bowl around one known best
point, A=4,B=2,C=5,D=3) exhaustively and with each strategy (random, halving, local, or default:
what tune picks with no --search; the same seed), and prints for each: wall time, candidates
measured, the winner, its regret (winner's true time / the true best's time) and its wall time
over exhaustive's. The true times come from one dedicated fixed measurement of every winner and
of the known best point, taken together in one run at the end (the same conditions for all), not
from the strategies' own few samples. Targets (issues 17 and 31): local and the default within 5%
of the true best in <= 15% of exhaustive's wall time; halving within 5% in <= 50%.

With --replay RECORDING... it runs no device: each strategy is replayed (spvtune replay) over
--seeds seeds per recorded space (a Kernel Tuner cache file or a tune --json report), and the
table of bench_search_replay.py is printed: evaluations to within 5% and 10% of the optimum and
the best-so-far fraction after 10/20/50/100/200 evaluations, next to random's exact expectation;
under the default strategy's row, whether it meets issue 31's targets (never below random after
20 or more points, within 5% of the optimum in at least 90% of the seeds). The GPU-shaped
spaces are generated first: recordings/make_gpu_like.py.

Usage: scripts/bench-search.py [--spvtune build/default/app/spvtune] [--seed 0]
                               [--strategies default,random,halving,local] [--samples 20]
       scripts/bench-search.py --replay recordings/*.json [--seeds 20] [--noise CV]
                               [--strategies default,random,halving,local,genetic,bayes]
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
CONFIG = ROOT / "configs" / "synthetic_search.json"
BEST = "bowl[A=4,B=2,C=5,D=3]"


def tune(spvtune, problem_file, work, extra):
    """One tuning run from an empty cache: (wall s, key report)."""
    report = work / "report.json"
    cache = work / "cache"
    start = time.monotonic()
    subprocess.run([spvtune, "tune", str(problem_file), "--cache-dir", str(cache), "--retune",
                    "--json", str(report), "-q"] + extra, check=True)
    elapsed = time.monotonic() - start
    return elapsed, json.loads(report.read_text())["problems"][0]["keys"][0]


def true_times(spvtune, work, names, samples):
    """Medians of `names` from one fixed-sampling run of those candidates only."""
    problem = json.loads(CONFIG.read_text())
    family = problem["candidates"][0]
    del family["grid"]
    variants = []
    for name in sorted(set(names)):
        point = dict(part.split("=") for part in name[name.index("[") + 1:-1].split(","))
        variants.append({"name": name.replace("[", "_").replace("]", "").replace(",", "_")
                         .replace("=", ""),
                         "specialization": {str(i + 1): int(point[p])
                                            for i, p in enumerate("ABCD")}})
    family["variants"] = variants
    del family["specialization"]
    problem["name"] = "synthetic_search_truth"
    problem["reference"]["candidate"] = f"bowl[{variants[0]['name']}]"
    problem_file = work / "truth.json"
    problem_file.write_text(json.dumps(problem))
    _, key = tune(spvtune, problem_file, work,
                  ["--kernel-dir", str(ROOT / "build" / "default" / "kernels"), "--fixed",
                   "--warmup", "3", "--samples", str(samples), "--search", "exhaustive"])
    by_variant = {c["name"]: c["statistics"]["median_ns"] for c in key["candidates"]}
    return {name: by_variant[f"bowl[{v['name']}]"] for name, v in
            zip(sorted(set(names)), variants)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--spvtune", default=str(ROOT / "build" / "default" / "app" / "spvtune"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--strategies", default="random,halving,local")
    parser.add_argument("--samples", type=int, default=20,
                        help="samples of the fixed measurement of the winners and the best point")
    parser.add_argument("--replay", nargs="+", metavar="RECORDING",
                        help="replay the strategies over these recorded spaces instead")
    parser.add_argument("--seeds", type=int, default=20, help="seeds per space with --replay")
    parser.add_argument("--noise", type=float, default=None,
                        help="with --replay: readings under log-normal noise of this cv")
    args = parser.parse_args()
    if args.replay:
        sys.path.insert(0, str(ROOT / "scripts"))
        from bench_search_replay import bench_replay
        strategies = args.strategies.split(",")
        if "default" not in strategies:
            strategies.insert(0, "default")
        bench_replay(args.spvtune, args.replay, strategies, args.seeds, args.noise)
        return 0

    with tempfile.TemporaryDirectory() as scratch:
        work = pathlib.Path(scratch)
        kernels = ["--kernel-dir", str(ROOT / "build" / "default" / "kernels")]
        results = []
        for strategy in ["exhaustive"] + args.strategies.split(","):
            # "default" is what tune picks with no --search for a space this size.
            chosen = [] if strategy == "default" else ["--search", strategy]
            wall, key = tune(args.spvtune, CONFIG, work,
                             kernels + chosen + ["--seed", str(args.seed)])
            search = key["search"]
            if strategy == "default":
                strategy = f"default={search['strategy']}"
            results.append((strategy, wall, search["measured"], search["runnable"], key["winner"]))
            print(f"{strategy:>18}: {wall:6.2f} s, measured {search['measured']:4d} of "
                  f"{search['runnable']}, winner {key['winner']}", flush=True)
        truth = true_times(args.spvtune, work, [r[4] for r in results] + [BEST], args.samples)
        exhaustive_wall = results[0][1]
        print(f"\ntrue best {BEST}: {truth[BEST] / 1e3:.1f} us (fixed, {args.samples} samples)")
        print(f"{'strategy':>18}  {'wall s':>7}  {'measured':>9}  {'regret':>6}  {'wall/exh':>8}"
              f"  winner")
        for strategy, wall, measured, runnable, winner in results:
            regret = truth[winner] / truth[BEST]
            print(f"{strategy:>18}  {wall:7.2f}  {measured:4d}/{runnable:<4d}  {regret:6.3f}"
                  f"  {wall / exhaustive_wall:8.2f}  {winner}")
        print("targets: the default and local regret <= 1.05 at wall/exh <= 0.15; halving "
              "regret <= 1.05 at wall/exh <= 0.50")


if __name__ == "__main__":
    sys.exit(main())

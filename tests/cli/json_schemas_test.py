"""Validates the --json reports the built spvtune writes (tune, compare, cache diff) against
their JSON Schemas in configs/schemas, and checks that each schema refuses the same reports
with a member missing, of the wrong type or out of its set of values: the schemas are the
stable interface scripts rely on, so they must describe what is written and be strict.
"""

import argparse
import copy
import json
import os
import pathlib
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    # A missing validator must not pass silently as "nothing to validate".
    sys.exit("FAIL: the Python module 'jsonschema' is missing; install the Debian package "
             "python3-jsonschema (scripts/install-deps.sh does)")


class Runner:
    """Runs spvtune on the CLI test problems with a scratch cache directory per name."""

    def __init__(self, spvtune, kernel_dir, problems, scratch):
        self.spvtune = spvtune
        self.kernel_dir = kernel_dir
        self.problems = problems
        self.scratch = scratch

    def run(self, args, expected_exit=(0,)):
        environment = dict(os.environ, SPVTUNE_CACHE_DIR=str(self.scratch / "home-cache"))
        run = subprocess.run([self.spvtune] + args, capture_output=True, text=True, timeout=240,
                             env=environment)
        if run.returncode not in expected_exit:
            raise RuntimeError(f"spvtune {' '.join(args)} exited {run.returncode}:\n"
                               f"{run.stdout}\n{run.stderr}")

    def tune(self, problems, cache, report, *extra):
        self.run(["tune"] + [str(self.problems / p) for p in problems]
                 + ["--cache-dir", str(self.scratch / cache), "--kernel-dir", self.kernel_dir,
                    "--json", str(report), "-q"] + list(extra))
        return json.loads(report.read_text())


def validator(schemas, name):
    schema = json.loads((schemas / name).read_text())
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    return validator_class(schema)


def errors_of(check, document):
    return [f"{error.json_path}: {error.message}" for error in check.iter_errors(document)]


def mutated(document, path, change):
    """A copy of `document` with the member at `path` deleted (change None) or replaced."""
    copied = copy.deepcopy(document)
    parent = copied
    for step in path[:-1]:
        parent = parent[step]
    if change is None:
        del parent[path[-1]]
    else:
        parent[path[-1]] = change
    return copied


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("--spvtune", required=True)
    arguments.add_argument("--kernel-dir", required=True)
    arguments.add_argument("--problems", required=True, type=pathlib.Path)
    arguments.add_argument("--schemas", required=True, type=pathlib.Path)
    options = arguments.parse_args()

    tune_schema = validator(options.schemas, "tune-report.schema.json")
    compare_schema = validator(options.schemas, "compare-report.schema.json")
    diff_schema = validator(options.schemas, "cache-diff.schema.json")
    failures = []

    def expect_valid(name, check, document):
        failures.extend(f"{name}: {error}" for error in errors_of(check, document))

    with tempfile.TemporaryDirectory() as directory:
        scratch = pathlib.Path(directory)
        runner = Runner(options.spvtune, options.kernel_dir, options.problems, scratch)

        # tune: measured keys with a winner, wrong outputs and skipped candidates; then the
        # same keys answered from the cache.
        tuned = runner.tune(["scale.json"], "old", scratch / "tuned.json", "--key", "n=16384")
        skipped = runner.tune(["skipped.json"], "old", scratch / "skipped.json")
        cached = runner.tune(["scale.json"], "old", scratch / "cached.json", "--key", "n=16384")
        retuned = runner.tune(["scale.json"], "new", scratch / "retuned.json", "--key",
                              "n=16384")
        reports = [("tune", tuned), ("tune (skipped candidates)", skipped),
                   ("tune (cached)", cached), ("tune (retuned)", retuned)]
        keys = [key for _, report in reports for problem in report["problems"]
                for key in problem["keys"]]
        statuses = {key["status"] for key in keys}
        candidate_statuses = {candidate["status"] for key in keys
                              for candidate in key["candidates"]}
        if not {"tuned", "cached"} <= statuses or not {
                "winner", "wrong output", "skipped"} <= candidate_statuses:
            failures.append(f"the tune reports lack the statuses to check: {statuses}, "
                            f"{candidate_statuses}")
        for name, report in reports:
            expect_valid(name, tune_schema, report)

        # compare: measured side by side (a contender and a wrong output), and saved results.
        # The report's shape is checked, not a verdict: a few rounds do, where an identical
        # copy would otherwise sample to compare's whole budget.
        runner.run(["compare", str(options.problems / "compare.json"), "--baseline", "base",
                    "--contender", "copy", "--contender", "wrong", "--key", "n=65536",
                    "--samples", "8",
                    "--kernel-dir", options.kernel_dir, "--cache-dir", str(scratch / "old"),
                    "--json", str(scratch / "compare.json")], expected_exit=(0, 1))
        compared = json.loads((scratch / "compare.json").read_text())
        expect_valid("compare", compare_schema, compared)
        runner.run(["compare", "--results", str(scratch / "tuned.json"),
                    str(scratch / "retuned.json"), "--json", str(scratch / "results.json")],
                   expected_exit=(0, 1))
        results = json.loads((scratch / "results.json").read_text())
        expect_valid("compare --results", compare_schema, results)

        # cache diff: the directory with both problems against the one with scale alone.
        runner.run(["cache", "diff", str(scratch / "new"), str(scratch / "old"), "--json",
                    str(scratch / "diff.json")])
        diff = json.loads((scratch / "diff.json").read_text())
        if not any(entry["change"] == "added" for hardware in diff["hardware"]
                   for entry in hardware["entries"]):
            failures.append(f"the cache diff has no added entry to check: {diff}")
        expect_valid("cache diff", diff_schema, diff)

    # Each schema refuses a real report with one thing wrong.
    first_key = ["problems", 0, "keys", 0]
    first_contender = ["comparisons", 0, "keys", 0, "contenders", 0]
    first_entry = ["hardware", 0, "entries", 0]
    negatives = [
        ("tune without schema_version", tune_schema, tuned, ["schema_version"], None),
        ("tune from a newer schema", tune_schema, tuned, ["schema_version"], 2),
        ("tune with faulted_candidates a string", tune_schema, tuned, ["faulted_candidates"],
         "0"),
        ("tune key without status", tune_schema, tuned, first_key + ["status"], None),
        ("tune key status unknown", tune_schema, tuned, first_key + ["status"], "done"),
        ("tune candidate index a string", tune_schema, tuned,
         first_key + ["candidates", 0, "index"], "0"),
        ("tune candidate without statistics' median", tune_schema, tuned,
         first_key + ["candidates", 0, "statistics", "median_ns"], None),
        ("tune sample a string", tune_schema, tuned,
         first_key + ["candidates", 0, "samples_ns", 0], "fast"),
        ("tune with an undocumented member", tune_schema, tuned, ["elapsed"], 1.0),
        ("tune with a family listed twice", tune_schema, tuned, ["problems", 0, "families"],
         tuned["problems"][0]["families"] * 2),
        ("compare without summary", compare_schema, compared, ["summary"], None),
        ("compare verdict unknown", compare_schema, compared, first_contender + ["verdict"],
         "better"),
        ("compare ratio a string", compare_schema, compared, first_contender + ["ratio"], "1"),
        ("compare contender without regression", compare_schema, compared,
         first_contender + ["regression"], None),
        ("compare exit code 2", compare_schema, compared, ["summary", "exit_code"], 2),
        ("cache diff without hardware", diff_schema, diff, ["hardware"], None),
        ("cache diff change unknown", diff_schema, diff, first_entry + ["change"], "moved"),
        ("cache diff new_ns a string", diff_schema, diff, first_entry + ["new_ns"], "1 ms"),
    ]
    for name, check, document, path, change in negatives:
        try:
            wrong = mutated(document, path, change)
        except (KeyError, IndexError) as error:
            failures.append(f"{name}: the real report has no {path} ({error!r})")
            continue
        if check.is_valid(wrong):
            failures.append(f"{name}: the schema accepts it")

    for failure in failures:
        print("FAIL:", failure)
    print(f"7 reports validated, {len(negatives)} wrong ones refused; {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

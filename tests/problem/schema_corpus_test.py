"""Runs every document of tests/problem/schema_corpus through the JSON Schema and the parser
(`spvtune check` for problems, `spvtune cache show` for cache files) and fails where they
disagree on a verdict the schema can decide.

A document's name starts with its verdict:
  valid-      both accept it;
  invalid-    both refuse it (the schema can express the rule);
  checkonly-  the parser refuses it but JSON Schema cannot say why (2.0 is an integer there, a
              key value's type depends on its parameter...), so the schema must accept it: each
              such rule is listed in docs/problem-format.md or docs/cache-format.md.
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    # A missing validator must not pass silently as "nothing to compare".
    sys.exit("FAIL: the Python module 'jsonschema' is missing; install the Debian package "
             "python3-jsonschema (scripts/install-deps.sh does)")

VERDICTS = ("valid", "invalid", "checkonly")


def schema_accepts(validator, path):
    return validator.is_valid(json.loads(path.read_text()))


def parser_accepts(command, path, cache_dir):
    # check keeps compiled GLSL candidates in the cache directory: a scratch one, not $HOME's.
    environment = dict(os.environ, SPVTUNE_CACHE_DIR=cache_dir)
    run = subprocess.run(command + [str(path)], capture_output=True, text=True, timeout=60,
                         env=environment)
    if run.returncode not in (0, 2):
        raise RuntimeError(f"{' '.join(command)} {path} exited {run.returncode}:\n{run.stderr}")
    return run.returncode == 0, run.stderr.strip()


def check_corpus(directory, schema_file, command, minimum):
    validator_class = jsonschema.validators.validator_for(json.loads(schema_file.read_text()))
    schema = json.loads(schema_file.read_text())
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    documents = sorted(directory.glob("*.json"))
    failures = []
    if len(documents) < minimum:
        failures.append(f"{directory}: {len(documents)} documents, expected at least {minimum}")
    for path in documents:
        verdict = path.name.split("-", 1)[0]
        if verdict not in VERDICTS:
            failures.append(f"{path.name}: the name must start with one of {VERDICTS}")
            continue
        by_schema = schema_accepts(validator, path)
        with tempfile.TemporaryDirectory() as cache_dir:
            by_parser, message = parser_accepts(command, path, cache_dir)
        want_schema = verdict != "invalid"
        want_parser = verdict == "valid"
        if by_schema != want_schema or by_parser != want_parser:
            failures.append(
                f"{path.name}: schema {'accepts' if by_schema else 'refuses'}, parser "
                f"{'accepts' if by_parser else 'refuses'}; expected schema "
                f"{'accepts' if want_schema else 'refuses'}, parser "
                f"{'accepts' if want_parser else 'refuses'}"
                + (f"\n    parser: {message}" if message else ""))
    return len(documents), failures


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("--spvtune", required=True)
    arguments.add_argument("--corpus", required=True, type=pathlib.Path)
    arguments.add_argument("--schemas", required=True, type=pathlib.Path)
    options = arguments.parse_args()
    problems, problem_failures = check_corpus(
        options.corpus / "problem", options.schemas / "problem.schema.json",
        [options.spvtune, "check"], 25)
    caches, cache_failures = check_corpus(
        options.corpus / "cache", options.schemas / "cache.schema.json",
        [options.spvtune, "cache", "show"], 5)
    failures = problem_failures + cache_failures
    for failure in failures:
        print("FAIL:", failure)
    print(f"{problems} problem and {caches} cache documents, {len(failures)} disagreements")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

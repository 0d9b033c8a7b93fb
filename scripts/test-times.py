#!/usr/bin/env python3
"""Where a ctest run's time went: wall seconds per label and the slowest tests.

Usage: scripts/test-times.py BUILD_DIR JUNIT_XML [--top N]

Joins the JUnit report of `ctest --output-junit` (each test's time) with
`ctest --show-only=json-v1` (each test's labels). A test with several labels counts in each.
"""
import argparse
import json
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from collections import defaultdict


def labels_by_test(build_dir):
    shown = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build_dir, check=True,
                           capture_output=True, text=True).stdout
    labels = {}
    for test in json.loads(shown).get("tests", []):
        names = []
        for prop in test.get("properties", []):
            if prop.get("name") == "LABELS":
                names = prop.get("value", [])
        labels[test["name"]] = names or ["(none)"]
    return labels


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir")
    parser.add_argument("junit")
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()

    labels = labels_by_test(args.build_dir)
    times = []
    for case in ElementTree.parse(args.junit).getroot().iter("testcase"):
        times.append((float(case.get("time", "0")), case.get("name", "?")))
    per_label = defaultdict(lambda: [0.0, 0])
    for seconds, name in times:
        for label in labels.get(name, ["(none)"]):
            per_label[label][0] += seconds
            per_label[label][1] += 1
    print(f"== test time per label ({len(times)} tests, {sum(t for t, _ in times):.0f} s of test time)")
    for label, (seconds, count) in sorted(per_label.items(), key=lambda item: -item[1][0]):
        print(f"{label:<24} {count:5d} tests {seconds:9.1f} s")
    print(f"== the {args.top} slowest tests")
    for seconds, name in sorted(times, reverse=True)[:args.top]:
        print(f"{seconds:8.1f} s  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Checks a JUnit XML report the way the common JUnit consumers read it.

Parses the file with an XML parser and checks the elements and attributes the widely used
JUnit schema (the Jenkins/Ant junit.xsd) requires: a <testsuites> root of <testsuite>
elements with name, tests, failures and errors; <testcase> elements with name and classname
and a numeric time; at most one of <failure>, <error> or <skipped> per test case, failures
and errors with a message; and counts that add up. Prints what is wrong and exits 1, or
prints the number of test cases and failures and exits 0.

Usage: junit_schema_check.py REPORT.xml
"""
import sys
import xml.etree.ElementTree as ElementTree


def main():
    problems = []
    root = ElementTree.parse(sys.argv[1]).getroot()
    if root.tag != "testsuites":
        problems.append(f"root element is <{root.tag}>, expected <testsuites>")
    cases = failures = 0
    for suite in root:
        if suite.tag != "testsuite":
            problems.append(f"<testsuites> holds <{suite.tag}>")
            continue
        for attribute in ("name", "tests", "failures", "errors"):
            if attribute not in suite.attrib:
                problems.append(f"<testsuite> without {attribute}")
        counted = {"tests": 0, "failures": 0, "errors": 0}
        for case in suite.findall("testcase"):
            counted["tests"] += 1
            for attribute in ("name", "classname"):
                if not case.get(attribute):
                    problems.append(f"<testcase> without {attribute}")
            float(case.get("time", "0"))
            outcomes = [child for child in case if child.tag in ("failure", "error", "skipped")]
            if len(outcomes) > 1:
                problems.append(f"<testcase {case.get('name')}> has {len(outcomes)} outcomes")
            for outcome in outcomes:
                if outcome.tag in ("failure", "error"):
                    counted[outcome.tag + "s"] += 1
                    if not outcome.get("message"):
                        problems.append(f"<{outcome.tag}> without a message")
        for attribute, count in counted.items():
            if int(suite.get(attribute, "-1")) != count:
                problems.append(f"<testsuite {suite.get('name')}> says {attribute}="
                                f"{suite.get(attribute)}, holds {count}")
        cases += counted["tests"]
        failures += counted["failures"]
    if problems:
        print("\n".join(problems))
        return 1
    print(f"{cases} test cases, {failures} failures")
    return 0


if __name__ == "__main__":
    sys.exit(main())

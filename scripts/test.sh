#!/usr/bin/env bash
# Installs what is missing, then builds and runs the tests under each preset: the default build,
# ThreadSanitizer (the tuner library's concurrency tests) and ASan+UBSan (everything).
# Each phase's time goes to build/phase-times.tsv (scripts/phase-times.sh), and each preset's
# test times per label and slowest tests are printed after its tests (scripts/test-times.py).
# Usage: scripts/test.sh [preset...]   (default: default tsan asan)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/phase-times.sh
scripts/install-deps.sh

presets=("$@")
if ((${#presets[@]} == 0)); then
    presets=(default tsan asan)
fi

for preset in "${presets[@]}"; do
    echo "== preset ${preset}"
    timed "${preset}: configure" cmake --preset "${preset}" >/dev/null
    timed "${preset}: build" cmake --build --preset "${preset}"
    junit="build/${preset}/test-times.xml"
    timed "${preset}: tests" ctest --preset "${preset}" --output-junit "${PWD}/${junit}"
    scripts/test-times.py "build/${preset}" "${junit}" || true
done

#!/usr/bin/env bash
# Installs what is missing, then builds and runs the tests under each preset: the default build,
# ThreadSanitizer (the tuner library's concurrency tests) and ASan+UBSan (everything).
# Usage: scripts/test.sh [preset...]   (default: default tsan asan)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

presets=("$@")
if ((${#presets[@]} == 0)); then
    presets=(default tsan asan)
fi

for preset in "${presets[@]}"; do
    echo "== preset ${preset}"
    cmake --preset "${preset}" >/dev/null
    cmake --build --preset "${preset}"
    ctest --preset "${preset}"
done

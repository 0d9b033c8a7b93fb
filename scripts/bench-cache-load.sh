#!/usr/bin/env bash
# Measures loading and saving a cache file of 10,000 entries (Release build of the library),
# next to a plain nlohmann parse of the same bytes.
# Usage: scripts/bench-cache-load.sh [ENTRIES] [REPEATS]
set -euo pipefail
cd "$(dirname "$0")/.."
build=build/bench-cache
cmake -S . -B "${build}" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPVTUNE_WITH_VULKAN=OFF >/dev/null
cmake --build "${build}" --target spvtune_cache_bench >/dev/null
"${build}/tests/cache/spvtune_cache_bench" "${1:-10000}" "${2:-5}"

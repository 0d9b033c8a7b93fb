#!/usr/bin/env bash
# Measures copies of megabytes of buffer contents (base::LargeBytes) against an element-by-element
# copy, a std::vector's memmove and a copy into fresh memory, in the default preset's build type
# (RelWithDebInfo, -O2: there the element-by-element loop is not vectorised).
# Usage: scripts/bench-large-bytes.sh [MIB] [REPEATS]
set -euo pipefail
cd "$(dirname "$0")/.."
build=build/bench-large-bytes
cmake -S . -B "${build}" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSPVTUNE_WITH_VULKAN=OFF >/dev/null
cmake --build "${build}" --target spvtune_large_bytes_bench >/dev/null
"${build}/tests/tune/spvtune_large_bytes_bench" "${1:-4}" "${2:-21}"

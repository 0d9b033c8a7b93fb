#!/usr/bin/env bash
# Installs the built tree into a temporary prefix, builds tests/package/consumer against it
# with find_package(spvtune CONFIG REQUIRED), tunes one key with the spvtune binary of the build
# and runs the consumer against that cache: it must hit and run the cached winner.
# usage: package_test.sh BUILD_DIR SOURCE_DIR [CXX_FLAGS [LINKER_FLAGS]]  (the build's, so that
# a sanitizer build's instrumented libraries link)
set -euo pipefail
build=$1
source=$2
cxx_flags=${3:-}
linker_flags=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >/dev/null
for header in spvtune/tune/local_tuner.hpp spvtune/cache/cache_file_store.hpp \
              spvtune/vulkan/device.hpp spvtune/problem/problem.hpp; do
    [[ -f "$work/prefix/include/$header" ]] || { echo "not installed: include/$header"; exit 1; }
done
kernels=$(find "$work/prefix" -name saxpy.spv -path '*spvtune/kernels*')
[[ -n "$kernels" ]] || { echo "not installed: the kernels (saxpy.spv)"; exit 1; }

launcher=()
if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$source/tests/package/consumer" -B "$work/consumer" -G Ninja \
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_CXX_FLAGS="$cxx_flags" -DCMAKE_EXE_LINKER_FLAGS="$linker_flags" "${launcher[@]}" \
      >/dev/null
if ! cmake --build "$work/consumer" >"$work/consumer-build.log" 2>&1; then
    echo "the consumer does not build against the installed package:"
    tail -n 40 "$work/consumer-build.log"
    exit 1
fi

"$build/app/spvtune" tune "$source/configs/saxpy.json" --key n=65536 --cache-dir "$work/cache" \
    --samples 3 --min-samples 2 --warmup 1 -q
"$work/consumer/spvtune_package_consumer" "$source/configs/saxpy.json" "$work/cache" 65536

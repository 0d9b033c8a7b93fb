#!/usr/bin/env bash
# The installed package, used from outside and moved: installs the built tree into a temporary
# prefix, moves the prefix, builds the README's application (tests/package/consumer, whose
# CMakeLists.txt must be the README's) against the moved install with find_package(spvtune CONFIG
# REQUIRED) and nothing else set, tunes one key with the moved install's spvtune and runs the
# application against that cache: an exact key runs the cached winner, a size next to it runs
# that winner as the nearest tuned key's, a key far from it runs a candidate that can run it.
# Moved once more, the application still finds the kernels through SPVTUNE_KERNEL_PATH. Nothing
# installed may name the build tree's kernels.
# usage: package_test.sh BUILD_DIR SOURCE_DIR [CXX_FLAGS [LINKER_FLAGS]]  (the build's, so that
# a sanitizer build's instrumented libraries link)
set -euo pipefail
build=$(cd "$1" && pwd)
source=$2
cxx_flags=${3:-}
linker_flags=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset SPVTUNE_KERNEL_PATH

fail() {
    echo "$@"
    exit 1
}

cmake --install "$build" --prefix "$work/installed" >/dev/null
for header in spvtune/tune/local_tuner.hpp spvtune/cache/cache_file_store.hpp \
              spvtune/vulkan/device.hpp spvtune/problem/problem.hpp; do
    [[ -f "$work/installed/include/$header" ]] || fail "not installed: include/$header"
done
[[ -f "$work/installed/share/spvtune/kernels/saxpy.spv" ]] ||
    fail "not installed: share/spvtune/kernels/saxpy.spv"
# The build's kernel directory compiled into the program or a library would be found on this
# machine only.
for installed in "$work/installed/bin/spvtune" "$work/installed"/lib*/libspvtune_problem.a; do
    if grep -qF "$build/kernels" "$installed"; then
        fail "$installed names the build tree's kernels ($build/kernels)"
    fi
done

# Relocated: everything below uses only the moved prefix.
prefix="$work/moved"
mv "$work/installed" "$prefix"

# The README's application section is the consumer's CMakeLists.txt, line for line.
readme_block=$(awk '/^```cmake$/ {inside = 1; next} /^```$/ {inside = 0} inside' "$source/README.md")
if ! diff <(printf '%s\n' "$readme_block") "$source/tests/package/consumer/CMakeLists.txt" >"$work/readme.diff"; then
    echo "README's cmake block differs from tests/package/consumer/CMakeLists.txt:"
    cat "$work/readme.diff"
    exit 1
fi

launcher=()
if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$source/tests/package/consumer" -B "$work/app" -G Ninja \
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_CXX_FLAGS="$cxx_flags" -DCMAKE_EXE_LINKER_FLAGS="$linker_flags" "${launcher[@]}" \
      >/dev/null
if ! cmake --build "$work/app" >"$work/app-build.log" 2>&1; then
    echo "the README's application does not build against the installed package:"
    tail -n 40 "$work/app-build.log"
    exit 1
fi

# The moved spvtune finds its kernels under its own prefix, and looks nowhere in the build.
cp "$source/configs/saxpy.json" "$work/saxpy.json"
sed 's/"saxpy.spv"/"absent.spv"/' "$work/saxpy.json" >"$work/absent.json"
if "$prefix/bin/spvtune" check "$work/absent.json" >"$work/absent.out" 2>&1; then
    fail "check passed a problem whose SPIR-V file does not exist"
fi
grep -qF "$prefix/share/spvtune/kernels/absent.spv" "$work/absent.out" ||
    { cat "$work/absent.out"; fail "the moved spvtune did not look in $prefix/share/spvtune/kernels"; }
if grep -qF "$build" "$work/absent.out"; then
    cat "$work/absent.out"
    fail "the moved spvtune looked in the build tree"
fi
"$prefix/bin/spvtune" tune "$work/saxpy.json" --key n=65536 --cache-dir "$work/cache" \
    --samples 3 --min-samples 2 --warmup 1 -q

# Tuned: the cache's winner runs.
"$work/app/my_app" "$work/saxpy.json" "$work/cache" 65536 | tee "$work/hit.out"
grep -q '^answer: exact$' "$work/hit.out" || fail "the tuned key was no exact answer"
grep -q '^cache hit: ran saxpy\[WG=[0-9]*\]' "$work/hit.out" || fail "the tuned key was no hit"
# Not tuned, but next to a tuned size (n=100000 shares the bucket n=131072): the tuned
# neighbour's winner runs, and the application knows it.
"$work/app/my_app" "$work/saxpy.json" "$work/cache" 100000 | tee "$work/near.out"
grep -q '^answer: nearest (from n=65536)$' "$work/near.out" ||
    fail "the untuned size next to a tuned one did not run the nearest tuned winner"
# Never tuned, and too large for some candidates on small devices (lavapipe: the reference
# saxpy[WG=64] needs more than 65535 workgroups): the neighbour's winner if it can run it, else
# the most preferred candidate that can.
"$work/app/my_app" "$work/saxpy.json" "$work/cache" 12345678 | tee "$work/miss.out"
grep -qE '^answer: (default|nearest \(from n=65536\))$' "$work/miss.out" ||
    fail "the untuned key did not run a candidate"
grep -q '^not tuned: ran saxpy\[WG=[0-9]*\]' "$work/miss.out" ||
    fail "the untuned key did not run a candidate"

# Moved again after the application was built: the kernels it was built with are gone, and
# SPVTUNE_KERNEL_PATH names where they are now.
mv "$prefix" "$work/moved-again"
SPVTUNE_KERNEL_PATH="$work/moved-again/share/spvtune/kernels" \
    "$work/app/my_app" "$work/saxpy.json" "$work/cache" 65536 >/dev/null ||
    fail "the application did not find the kernels through SPVTUNE_KERNEL_PATH"

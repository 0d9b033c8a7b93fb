#!/usr/bin/env bash
# Builds the fuzz preset (clang, libFuzzer, ASan+UBSan; only the targets of tests/fuzz) and runs
# each target for SECONDS (default 60), two at a time, seeded from the repository's inputs
# (scripts/fuzz-seeds.py). Exits non-zero when any target finds a crash, a hang (a run over
# FUZZ_TIMEOUT seconds, default 30), a leak, undefined behaviour or memory over FUZZ_RSS_MB
# (default 2048); the input that did it is left in build/fuzz/run/findings/ and the log beside it.
# FUZZ_NICE (default 0) is the fuzzers' niceness, for a long run on a shared machine.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (targets: expression cache cache_readers spirv
# problem journal glsl_cache recording)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then
    targets=(expression cache cache_readers spirv problem journal glsl_cache recording)
fi

source scripts/phase-times.sh
scripts/install-deps.sh
start=$(date +%s)
timed "fuzz: configure" cmake --preset fuzz >/dev/null
timed "fuzz: build" cmake --build --preset fuzz
echo "== fuzz build: $(($(date +%s) - start)) s"
runs_start=$(date +%s)

build=build/fuzz
run=${build}/run
rm -rf "${run}/seeds" "${run}/findings"
mkdir -p "${run}/findings"
scripts/fuzz-seeds.py "${run}/seeds" "${build}"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export LSAN_OPTIONS=suppressions=${PWD}/tests/sanitizers/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# One target: new inputs go to its working corpus (kept between runs, so coverage grows), the
# seeds are read too. Prints the log's last lines and fails on a finding.
fuzz_one() {
    local target=$1
    local corpus=${run}/corpus/${target}
    mkdir -p "${corpus}" "${run}/seeds/${target}"
    local log=${run}/findings/${target}.log
    # A target's dictionary is tests/fuzz/TARGET.dict, or that of the input it shares
    # (cache_readers reads what cache reads).
    local dict=()
    for name in "${target}" "${target%%_*}"; do
        if [[ -f tests/fuzz/${name}.dict ]]; then
            dict=(-dict="tests/fuzz/${name}.dict")
            break
        fi
    done
    if nice -n "${FUZZ_NICE:-0}" "${build}/tests/fuzz/fuzz_${target}" -max_total_time="${seconds}" \
        -timeout="${FUZZ_TIMEOUT:-30}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
        -artifact_prefix="${run}/findings/${target}-" -print_final_stats=1 \
        "${dict[@]}" "${corpus}" "${run}/seeds/${target}" >"${log}" 2>&1; then
        echo "== fuzz ${target}: nothing found in ${seconds} s ($(grep -m1 '^stat::number_of_executed_units' "${log}" | awk '{print $2}') runs)"
        rm -f "${log}"
    else
        echo "== fuzz ${target}: FOUND something; log ${log}, input ${run}/findings/${target}-*"
        tail -n 40 "${log}"
        return 1
    fi
}

failed=()
pids=()
names=()
for target in "${targets[@]}"; do
    fuzz_one "${target}" &
    pids+=($!)
    names+=("${target}")
    # Two at a time: the CI machine has two cores, and fuzzing is CPU-bound.
    if ((${#pids[@]} == 2)); then
        wait "${pids[0]}" || failed+=("${names[0]}")
        pids=("${pids[@]:1}")
        names=("${names[@]:1}")
    fi
done
for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || failed+=("${names[$i]}")
done

echo "== fuzz: $(($(date +%s) - start)) s in all"
printf '%s\t%s\n' "fuzz: runs (${#targets[@]} targets, ${seconds} s each)" "$(($(date +%s) - runs_start))" >>"${SPVTUNE_TIMES}"
if ((${#failed[@]} > 0)); then
    echo "fuzz: findings in ${failed[*]}" >&2
    exit 1
fi

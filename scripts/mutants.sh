#!/usr/bin/env bash
# Plants each known bug (tests/mutants/*.mutant) in a scratch copy of the working tree, builds
# only the test targets the mutant names and runs their tests: a mutant the tests do not fail
# SURVIVED, and means a test lost the power to catch the bug it was written for.
#
# Usage: scripts/mutants.sh [NAME...]     (default: every tests/mutants/*.mutant)
#
# A .mutant file:
#   file: lib/tune/src/sampling.cpp            the file to change
#   targets: spvtune_tune_tests                 what to build (space-separated)
#   ctest: -L tune                              ctest arguments selecting the tests to run
#   @@@ find                                    the exact text, which must occur exactly once
#   ...
#   @@@ replace                                 what it becomes
#   ...
#
# The scratch copy and its build live in build/mutants/ and are reused between runs, so only the
# mutated file recompiles. Exit 0 when every mutant was killed, 1 when one survived, 2 when a
# mutant no longer applies, the unmutated build fails, or its tests fail.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
scratch="${repo}/build/mutants"
src="${scratch}/src"
bin="${scratch}/build"
logs="${scratch}/logs"
mkdir -p "${src}" "${bin}" "${logs}"

die() {
    echo "mutants: $*" >&2
    exit 2
}

mutant_files=()
if (($# == 0)); then
    mutant_files=(tests/mutants/*.mutant)
else
    for name in "$@"; do
        mutant_files+=("tests/mutants/${name%.mutant}.mutant")
    done
fi

# Fields of a mutant file: header values, and the find/replace blocks verbatim.
header() { sed -n "s/^$2: //p" "$1" | head -n 1; }
block() { awk -v want="$2" '/^@@@ /{in_block = ($2 == want); next} in_block' "$1"; }

# Copies the tracked and untracked-but-not-ignored files; a file is only rewritten when its
# content differs, with a fresh time stamp, so Ninja rebuilds exactly what changed (a copy
# keeping the repository's older time stamp could leave a mutated object looking up to date).
# Files the tree no longer has are removed from the copy: a moved file left behind would still
# be globbed by CMake and by tests that list a directory.
sync_sources() {
    local listed="${scratch}/listed"
    : > "${listed}"
    while IFS= read -r -d '' path; do
        [[ -f "${path}" ]] || continue
        printf '%s\n' "${path}" >> "${listed}"
        if ! cmp -s "${path}" "${src}/${path}"; then
            mkdir -p "$(dirname "${src}/${path}")"
            cp "${path}" "${src}/${path}"
        fi
    done < <(git ls-files -z --cached --others --exclude-standard)
    if [[ -d "${src}" ]]; then
        (cd "${src}" && find . -type f -printf '%P\n') | sort | comm -23 - <(sort "${listed}") |
            while IFS= read -r gone; do
                rm -f "${src}/${gone}"
            done
    fi
}

# Writes `in` with the one occurrence of `find` replaced by `replace` to `out`; returns 1 when
# `find` does not occur and 2 when it occurs more than once (then nothing is written).
mutate() {
    local in=$1 find=$2 replace=$3 out=$4
    local content rest
    content=$(
        cat "${in}"
        printf x
    )
    content=${content%x}
    rest=${content#*"${find}"}
    if [[ "${rest}" == "${content}" ]]; then
        return 1
    fi
    if [[ "${rest}" == *"${find}"* ]]; then
        return 2
    fi
    printf '%s' "${content%%"${find}"*}${replace}${rest}" >"${out}"
}

# Validates every mutant before building anything, so a rotten rule fails at once.
declare -A targets_of ctest_of file_of
for mutant in "${mutant_files[@]}"; do
    [[ -f "${mutant}" ]] || die "no such mutant: ${mutant}"
    name=$(basename "${mutant}" .mutant)
    file_of[${name}]=$(header "${mutant}" file)
    targets_of[${name}]=$(header "${mutant}" targets)
    ctest_of[${name}]=$(header "${mutant}" ctest)
    [[ -n "${file_of[${name}]}" && -n "${targets_of[${name}]}" && -n "${ctest_of[${name}]}" ]] ||
        die "${mutant}: needs file:, targets: and ctest: lines"
    [[ -f "${file_of[${name}]}" ]] || die "${mutant}: ${file_of[${name}]} does not exist"
    find_text=$(block "${mutant}" find)
    [[ -n "${find_text}" ]] || die "${mutant}: empty @@@ find block"
    status=0
    mutate "${file_of[${name}]}" "${find_text}" "" /dev/null || status=$?
    case ${status} in
        1) die "${mutant}: the find text no longer occurs in ${file_of[${name}]}" ;;
        2) die "${mutant}: the find text occurs more than once in ${file_of[${name}]}" ;;
    esac
done

echo "mutants: syncing the scratch copy in ${scratch}"
sync_sources
if [[ ! -f "${bin}/build.ninja" ]]; then
    cmake -S "${src}" -B "${bin}" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >"${logs}/configure.log" ||
        die "configure failed (${logs}/configure.log)"
fi

# The unmutated code must build and pass the selected tests, or a "kill" proves nothing.
declare -A baseline_done
for mutant in "${mutant_files[@]}"; do
    name=$(basename "${mutant}" .mutant)
    selection="${targets_of[${name}]} | ${ctest_of[${name}]}"
    [[ -z "${baseline_done[${selection}]:-}" ]] || continue
    baseline_done[${selection}]=1
    echo "mutants: baseline ${selection}"
    # shellcheck disable=SC2086  # targets and ctest arguments are word lists
    cmake --build "${bin}" --target ${targets_of[${name}]} >"${logs}/baseline.log" 2>&1 ||
        die "the unmutated build fails (${logs}/baseline.log)"
    # shellcheck disable=SC2086
    ctest --test-dir "${bin}" ${ctest_of[${name}]} --no-tests=error >>"${logs}/baseline.log" 2>&1 ||
        die "the unmutated tests fail (${logs}/baseline.log)"
done

survived=()
results=()
for mutant in "${mutant_files[@]}"; do
    name=$(basename "${mutant}" .mutant)
    file=${file_of[${name}]}
    cp "${src}/${file}" "${scratch}/original"
    mutate "${scratch}/original" "$(block "${mutant}" find)" "$(block "${mutant}" replace)" \
        "${src}/${file}"
    log="${logs}/${name}.log"
    verdict="killed"
    # shellcheck disable=SC2086
    if ! cmake --build "${bin}" --target ${targets_of[${name}]} >"${log}" 2>&1; then
        verdict="BUILD FAILED"
    elif ctest --test-dir "${bin}" ${ctest_of[${name}]} --no-tests=error >>"${log}" 2>&1; then
        verdict="SURVIVED"
        survived+=("${name}")
    fi
    # Copied, not moved back, so the restored file is newer than the mutated object.
    cp "${scratch}/original" "${src}/${file}"
    results+=("$(printf '%-28s %s' "${name}" "${verdict}")")
    echo "${results[-1]}"
    if [[ "${verdict}" == "BUILD FAILED" ]]; then
        die "${name}: the mutated code does not build (${log}); a mutant must compile"
    fi
done

echo "mutants: ${#results[@]} planted, $((${#results[@]} - ${#survived[@]})) killed, ${#survived[@]} survived"
if ((${#survived[@]} > 0)); then
    echo "mutants: SURVIVED: ${survived[*]} (logs in ${logs})"
    exit 1
fi

#!/usr/bin/env bash
# Shared by scripts/test.sh, scripts/fuzz.sh and .ci/run: `timed PHASE COMMAND...` runs the
# command and appends "PHASE<TAB>seconds" to $SPVTUNE_TIMES (build/phase-times.tsv by default),
# so CI can print where its time went; `print_phase_times` prints that table.
: "${SPVTUNE_TIMES:=${PWD}/build/phase-times.tsv}"
export SPVTUNE_TIMES

timed() {
    local phase=$1
    shift
    local start status=0
    start=$(date +%s)
    "$@" || status=$?
    mkdir -p "$(dirname "${SPVTUNE_TIMES}")"
    printf '%s\t%s\n' "${phase}" "$(($(date +%s) - start))" >>"${SPVTUNE_TIMES}"
    return "${status}"
}

print_phase_times() {
    [[ -f "${SPVTUNE_TIMES}" ]] || return 0
    echo "== where the time went (seconds)"
    awk -F'\t' '{ printf "%-40s %6d\n", $1, $2; total += $2 } END { printf "%-40s %6d\n", "total of the phases", total }' \
        "${SPVTUNE_TIMES}"
}

#!/usr/bin/env bash
# Runs CI's job the way CI sees a submission: a fresh clone of the committed HEAD (nothing
# uncommitted, no build folder), an empty HOME and XDG_CACHE_HOME, CI=true and no standard input.
# Usage: scripts/fresh-check.sh [preset...]   (default: the presets of scripts/test.sh)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "${work}"' EXIT
git clone --quiet "${repo}" "${work}/clone"
mkdir "${work}/home"
cd "${work}/clone"
if (($# == 0)); then
    HOME="${work}/home" XDG_CACHE_HOME="${work}/home/.cache" CI=true bash .ci/run </dev/null
else
    scripts/install-deps.sh
    HOME="${work}/home" XDG_CACHE_HOME="${work}/home/.cache" CI=true scripts/test.sh "$@" </dev/null
fi

#!/usr/bin/env bash
# Installs what is missing, builds spvtune and runs the main job: tune the demo problem on the
# default device. Extra arguments go to `spvtune tune` (e.g. --retune, --device 1).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default --target spvtune spvtune_kernels >/dev/null
exec build/default/app/spvtune tune configs/demo.json "$@"

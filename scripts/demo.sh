#!/usr/bin/env bash
# Installs what is missing, builds spvtune (with all that `cmake --install` installs, the manual
# page included) and runs the main job: tune the demo problem on the default device. Extra
# arguments go to `spvtune tune` (e.g. --retune, --device 1).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default --target spvtune spvtune_kernels spvtune_manual_page >/dev/null
exec build/default/app/spvtune tune configs/demo.json "$@"

#!/usr/bin/env bash
# Installs what is missing, builds spvtune and runs the main job on the default device.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default --target spvtune >/dev/null
exec build/default/app/spvtune devices "$@"

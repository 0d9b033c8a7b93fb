#!/usr/bin/env bash
# Installs the Debian packages spvtune builds, runs and tests with; does nothing when all are present.
set -euo pipefail

packages=(
    build-essential cmake ninja-build git
    libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers vulkan-tools
    glslang-tools glslang-dev spirv-tools libspirv-cross-c-shared-dev
    libcli11-dev nlohmann-json3-dev libsimdjson-dev doctest-dev zlib1g-dev
    clang-format
    clang libclang-rt-14-dev
    python3 python3-jsonschema
    zsh fish groff-base  # the completion scripts and the manual page are checked in them
    chromium  # the browser test renders spvtune report's HTML headless (about 20 s to install)
)

missing=()
for package in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$package")
done

if ((${#missing[@]} == 0)); then
    exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
    sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

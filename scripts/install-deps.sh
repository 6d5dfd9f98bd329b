#!/usr/bin/env bash
# Installs everything ghostpost needs to build, run and test, from Debian's packages only.
# Safe to run again: apt-get is skipped when every package is already there.
set -euo pipefail

packages=(
    build-essential cmake ninja-build pkg-config git
    libcurl4-openssl-dev nlohmann-json3-dev libsqlite3-dev libssl-dev
    libcairo2-dev libpng-dev libfreetype-dev libtomlplusplus-dev libcli11-dev catch2 fonts-dejavu-core
    nodejs npm python3 sqlite3
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}"
fi

#!/usr/bin/env bash
# The whole test suite: install, build with ASan and UBSan (the debug preset), run every test,
# then build and run the libFuzzer targets briefly (the fuzz preset).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
if [ -f tests/telegram/package-lock.json ]; then
    npm ci --prefix tests/telegram --no-audit --no-fund --loglevel=error
fi
cmake --preset debug
cmake --build --preset debug -j "$(nproc)"
ctest --preset debug -j "$(nproc)"
# The fuzz targets (clang, a build of their own): a short fixed number of executions each.
cmake --preset fuzz
cmake --build --preset fuzz -j "$(nproc)"
ctest --preset fuzz -j "$(nproc)"

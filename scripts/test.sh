#!/usr/bin/env bash
# The whole test suite: install, build with ASan and UBSan (the debug preset), run every test,
# then build and run the libFuzzer targets briefly (the fuzz preset).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test
# The npm packages some tests drive: the Telegram emulator, chess.js for PGN, and ws and ajv
# for the fake Discord, playwright-core for the web pages in chromium.
for dir in tests/telegram tests/pgn tests/discord tests/slack tests/web/browser; do
    npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
done
cmake --preset debug
cmake --build --preset debug -j "$(nproc)"
ctest --preset debug -j "$(nproc)"
# The fuzz targets (clang, a build of their own): a short fixed number of executions each.
cmake --preset fuzz
cmake --build --preset fuzz -j "$(nproc)"
ctest --preset fuzz -j "$(nproc)"

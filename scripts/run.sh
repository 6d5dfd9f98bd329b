#!/usr/bin/env bash
# The main job: build ghostpost and start it on its embedded default, the console platform with
# a local SQLite file (./data/ghostpost.db). Type posts as "#channel user: text".
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh run
cmake --preset release >/dev/null
cmake --build --preset release --target ghostpost
mkdir -p data
echo "ghostpost console on data/ghostpost.db: type '#lobby alice: !help' to start, Ctrl-D to leave."
exec build/release/ghostpost console --db data/ghostpost.db "$@"

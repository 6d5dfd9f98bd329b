#!/usr/bin/env bash
# Issue #34's load simulation (bench/load_sim.cpp) against a throw-away PostgreSQL cluster with
# PostgreSQL's durable defaults, on this machine's disk. Options go to load_sim (its header says
# which); the issue's run is the default: 5,000 guilds over 8 shards, 5,000 groups, 250 posts/s
# for 300 s, a daemon killed about every 10 s.
# Usage: bench/load_sim.sh [load_sim options]   (a Release build: cmake --preset release, with
# the test tools installed: scripts/install-deps.sh test)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=build/release/bench/load_sim
[[ -x "$binary" ]] || { echo "build it first: cmake --build --preset release --target load_sim" >&2; exit 2; }
state=$(mktemp /tmp/ghostpost-bench-pg.XXXXXX)
trap 'tests/storage/pg_cluster.sh stop "$state" >/dev/null' EXIT
PG_DURABLE=1 tests/storage/pg_cluster.sh start "$state" >/dev/null
url=$(sed -n 's/^url=//p' "$state")
"$binary" "$url" "$@"

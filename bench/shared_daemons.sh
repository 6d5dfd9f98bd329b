#!/usr/bin/env bash
# Posts per second with 1, 2 and 3 daemons on PostgreSQL and one on SQLite (bench/
# shared_daemons.cpp), against a throw-away PostgreSQL cluster with PostgreSQL's durable
# defaults (every commit flushed, as SQLite's synchronous=FULL), on this machine's disk.
# Usage: bench/shared_daemons.sh [games per daemon]   (a Release build: cmake --preset release)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=build/release/bench/shared_daemons
[[ -x "$binary" ]] || { echo "build it first: cmake --build --preset release --target shared_daemons" >&2; exit 2; }
state=$(mktemp /tmp/ghostpost-bench-pg.XXXXXX)
trap 'tests/storage/pg_cluster.sh stop "$state" >/dev/null' EXIT
PG_DURABLE=1 tests/storage/pg_cluster.sh start "$state" >/dev/null
url=$(sed -n 's/^url=//p' "$state")
dir=$(mktemp -d /tmp/ghostpost-bench-sqlite.XXXXXX)
nice -n 19 "$binary" "$url" "$dir" "${1:-30}"
rm -rf "$dir"

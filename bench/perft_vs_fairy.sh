#!/usr/bin/env bash
# Times `ghostpost perft` against Debian's Fairy-Stockfish on the same machine in the same run,
# single thread, from the chess start position. Usage: bench/perft_vs_fairy.sh [depth] [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
depth=${1:-6}
runs=${2:-3}
fsf=/usr/games/fairy-stockfish
[ -x "$fsf" ] || { apt-get install -y -qq fairy-stockfish >/dev/null; }
cmake --preset release >/dev/null && cmake --build --preset release --target ghostpost >/dev/null
TIMEFORMAT=%R
best() { sort -n | head -1; }
run_ours() { build/release/bot/ghostpost perft --variant chess --depth "$depth" >/dev/null 2>&1; }
run_theirs() {
    printf 'uci\nsetoption name Threads value 1\nposition startpos\ngo perft %s\nquit\n' "$depth" | "$fsf" >/dev/null
}
ours=$(for _ in $(seq "$runs"); do { time run_ours; } 2>&1; done | best)
theirs=$(for _ in $(seq "$runs"); do { time run_theirs; } 2>&1; done | best)
nodes=$(build/release/bot/ghostpost perft --variant chess --depth "$depth" 2>/dev/null | tail -1)
echo "perft $depth from the start: $nodes"
echo "ghostpost:       ${ours} s (best of $runs)"
echo "Fairy-Stockfish: ${theirs} s (best of $runs)"
awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "ratio: ghostpost is %.1fx as fast\n", b / a }'

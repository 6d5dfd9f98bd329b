#!/usr/bin/env bash
# Times `ghostpost perft` against Debian's Stockfish and Fairy-Stockfish on the same machine in
# the same run, single thread, from the chess start position, the three taking turns. Each
# figure is the median over the runs of the process's CPU time (user + system, as
# /usr/bin/time reports it), which other work on a busy machine inflates less than wall time.
# Stockfish loads its neural network at start-up, which perft does not use: the CPU time of a
# start-up alone ("uci", "quit") is measured too and taken off its figure.
# Usage: bench/perft_vs.sh [depth] [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
depth=${1:-6}
runs=${2:-5}
sf=/usr/games/stockfish
fsf=/usr/games/fairy-stockfish
[ -x "$sf" ] && [ -x "$fsf" ] && [ -x /usr/bin/time ] ||
    apt-get install -y -qq stockfish fairy-stockfish time >/dev/null
cmake --preset release >/dev/null && cmake --build --preset release --target ghostpost >/dev/null
ours=build/release/ghostpost

cpu() { /usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -1 | awk '{ print $1 + $2 }'; }
uci() { printf 'uci\nsetoption name Threads value 1\nposition startpos\ngo perft %s\nquit\n' "$depth" | "$1"; }
start_only() { printf 'uci\nquit\n' | "$1"; }
export -f uci start_only
export depth
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

: >/tmp/perft_vs.ours
: >/tmp/perft_vs.sf
: >/tmp/perft_vs.fsf
: >/tmp/perft_vs.sf0
for _ in $(seq "$runs"); do
    cpu "$ours" perft --variant chess --depth "$depth" >>/tmp/perft_vs.ours
    cpu bash -c "uci $sf" >>/tmp/perft_vs.sf
    cpu bash -c "uci $fsf" >>/tmp/perft_vs.fsf
    cpu bash -c "start_only $sf" >>/tmp/perft_vs.sf0
done
a=$(median </tmp/perft_vs.ours)
b=$(median </tmp/perft_vs.sf)
c=$(median </tmp/perft_vs.fsf)
b0=$(median </tmp/perft_vs.sf0)
echo "perft $depth from the start: $("$ours" perft --variant chess --depth "$depth" 2>/dev/null | tail -1)"
echo "CPU seconds, median of $runs:"
echo "  ghostpost:        $a"
echo "  Stockfish:        $b, of which $b0 its start-up   ($("$sf" </dev/null | head -1))"
echo "  Fairy-Stockfish:  $c"
awk -v a="$a" -v b="$b" -v b0="$b0" -v c="$c" 'BEGIN {
    printf "ghostpost / Stockfish without its start-up: %.2f (target <= 1.0)\n", a / (b - b0)
    printf "ghostpost / Fairy-Stockfish: %.2f\n", a / c }'

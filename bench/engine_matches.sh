#!/bin/sh
# The engine's strength matches of issue #23, on a release build, in two queues at once under
# nice -n 19 (the machine is shared). Installs Stockfish (Debian's stockfish package, 15.1 on
# bookworm) when it is missing. Each level searches its budget of positions with no wall-clock
# cap, so the same seeds give the same games on any run.
#
#   bench/engine_matches.sh [OUT]     (OUT, default engine-matches.txt: one line per match)
#
# GAMES sets the games against the random and greedy players (the issue: 100), LADDER_GAMES the
# games of each ladder pair and of the Stockfish match (the issue: 50). The most informative
# matches run first: the ladders and Stockfish (Skill Level 0, 3 and 5; issue #40), then the
# random and greedy players.
set -eu
cd "$(dirname "$0")/.."
OUT=${1:-engine-matches.txt}
GAMES=${GAMES:-100}
LADDER_GAMES=${LADDER_GAMES:-50}
if ! command -v stockfish >/dev/null 2>&1 && [ ! -x /usr/games/stockfish ]; then
    if [ "$(id -u)" -eq 0 ]; then apt-get install -y stockfish; else sudo apt-get install -y stockfish; fi
fi
cmake --preset release >/dev/null
nice -n 19 cmake --build --preset release -j2 --target engine_match >/dev/null
bin=build/release/bench/engine_match
run() { nice -n 19 "$bin" "$@" >>"$OUT"; }
echo "# engine matches, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(uname -m)" >>"$OUT"
(
    for pair in 7 6 5 4 3 2 1; do run --match ladder --variant ghost --pair "$pair" --games "$LADDER_GAMES"; done
    for v in chess giveaway ghostarelay phantom gnostic ghost haunted; do
        run --match random --variant "$v" --games "$GAMES"
    done
) &
(
    for skill in 0 3 5; do run --match stockfish --variant chess --skill "$skill" --games "$LADDER_GAMES"; done
    for pair in 7 6 5 4 3 2 1; do run --match ladder --variant chess --pair "$pair" --games "$LADDER_GAMES"; done
    for v in chess giveaway ghostarelay phantom gnostic ghost haunted; do
        run --match greedy --variant "$v" --games "$GAMES"
    done
) &
wait

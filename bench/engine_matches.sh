#!/bin/sh
# The engine's strength matches of issue #23, on a release build. Installs Stockfish (Debian's
# stockfish package, 15.1 on bookworm) when it is missing. GAMES sets the games per match (the
# issue's figures: 100 against the random and greedy players, 50 for the ladder and Stockfish).
set -eu
cd "$(dirname "$0")/.."
GAMES=${GAMES:-100}
LADDER_GAMES=${LADDER_GAMES:-50}
if ! command -v stockfish >/dev/null 2>&1 && [ ! -x /usr/games/stockfish ]; then
    sudo apt-get install -y stockfish
fi
cmake --preset release >/dev/null
cmake --build --preset release -j2 --target engine_match >/dev/null
bin=build/release/bench/engine_match
"$bin" --match random --games "$GAMES"
"$bin" --match greedy --games "$GAMES"
"$bin" --match ladder --variant chess --games "$LADDER_GAMES"
"$bin" --match ladder --variant ghost --games "$LADDER_GAMES"
"$bin" --match stockfish --variant chess --games "$LADDER_GAMES"

#!/usr/bin/env bash
# The web view under load: `ghostpost web` serves a game page to wrk (Debian's HTTP benchmark) on
# loopback for a bounded time while the bot, in the same database, answers a steady stream of
# posts (games created, played and resigned through `ghostpost console`). Prints wrk's figures,
# then how many posts the bot answered while the pages were served and how long it took.
# Usage: bench/web_load.sh [seconds] [connections]      (release build; installs wrk if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
connections=${2:-16}
command -v wrk >/dev/null || apt-get install -y -qq wrk >/dev/null
cmake --preset release >/dev/null && cmake --build --preset release -j2 --target ghostpost >/dev/null
bin=$PWD/build/release/ghostpost
dir=$(mktemp -d)
trap 'kill $web_pid 2>/dev/null || true; rm -rf "$dir"' EXIT

# The page under test: game #1 after 20 plies (a Ruy Lopez).
moves=(e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7)
{
    echo '#lobby alice: !new chess @bob'
    echo '#lobby bob: !accept'
    for i in "${!moves[@]}"; do
        if ((i % 2 == 0)); then echo "#lobby alice: ${moves[$i]}"; else echo "#lobby bob: ${moves[$i]}"; fi
    done
} | "$bin" console --db "$dir/games.db" >/dev/null

"$bin" web --db "$dir/games.db" --listen 127.0.0.1:0 --threads 8 >"$dir/web.out" &
web_pid=$!
for _ in $(seq 50); do grep -q serving "$dir/web.out" && break; sleep 0.1; done
url=$(sed -n 's/.* on \(http:[^ ]*\)$/\1/p' "$dir/web.out")game/1
curl -sf -o /dev/null "$url" # the page is rendered once before the clock starts

# The bot's work meanwhile: 11 posts per game (challenge, acceptance, eight moves, resignation),
# one post every 20 ms, each game in a channel of its own.
posts() {
    local g=0
    while :; do
        g=$((g + 1))
        for line in "!new chess @bob" "bob: !accept" e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 "!resign"; do
            case $line in
            bob:*) echo "#bench$g $line" ;;
            e5 | Nc6 | a6 | Nf6) echo "#bench$g bob: $line" ;;
            *) echo "#bench$g alice: $line" ;;
            esac
            sleep 0.02
        done
    done
}
start=$(date +%s.%N)
timeout "$seconds" bash -c "$(declare -f posts); posts" | tee "$dir/posts.txt" |
    "$bin" console --db "$dir/games.db" >"$dir/console.out" &
console_pid=$!
wrk -t2 -c"$connections" -d"${seconds}s" --latency "$url"
wait $console_pid || true
end=$(date +%s.%N)
echo "bot: $(wc -l <"$dir/posts.txt") posts sent over ${seconds} s, $(grep -c '^>> #bench' "$dir/console.out") replies in their channels, the last $(awk -v a="$start" -v b="$end" -v s="$seconds" 'BEGIN { printf "%.2f", b - a - s }') s after the posts stopped"

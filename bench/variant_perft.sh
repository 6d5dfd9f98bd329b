#!/usr/bin/env bash
# Perft speed of every variant against chess on the same machine in the same run (issue #40:
# each variant at least half as fast as chess). Each run times `ghostpost perft` once per
# variant, the variants taking turns, so a machine that slows down slows all of them alike. The
# figure is the Mnodes/s the command reports itself (start-up excluded); the ratio is taken run
# by run, against the chess figure of the same run, and the median of the runs is printed.
# With several binaries (an old build against a new one), they take turns too, one column each.
# Usage: bench/variant_perft.sh [runs] [binary ...]   (default: 5 runs of build/release/ghostpost)
# The depth of each variant is chosen for a second or a few in a release build; override one
# with DEPTH_<variant>=N in the environment (DEPTH_ghost=5).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
shift || true
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=(build/release/ghostpost)
variants=(chess giveaway ghostarelay ghost haunted phantom gnostic)
declare -A depth=([chess]=6 [giveaway]=6 [ghostarelay]=4 [ghost]=6 [haunted]=6 [phantom]=5
    [gnostic]=3)
for v in "${variants[@]}"; do
    override="DEPTH_$v"
    depth[$v]=${!override:-${depth[$v]}}
done

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for run in $(seq "$runs"); do
    for b in "${!bins[@]}"; do
        for v in "${variants[@]}"; do
            # "time 0.4 s, 297.5 Mnodes/s" on stderr, "nodes N" on stdout.
            res=$("${bins[$b]}" perft --variant "$v" --depth "${depth[$v]}" 2>&1)
            rate=$(sed -n 's/.* s, \([0-9.e+-]*\) Mnodes\/s.*/\1/p' <<<"$res")
            nodes=$(sed -n 's/^nodes //p' <<<"$res")
            echo "$rate" >>"$out/rate.$b.$v"
            echo "$nodes" >"$out/nodes.$b.$v"
        done
        chess=$(tail -1 "$out/rate.$b.chess")
        for v in "${variants[@]}"; do
            awk -v a="$(tail -1 "$out/rate.$b.$v")" -v c="$chess" 'BEGIN { print a / c }' \
                >>"$out/ratio.$b.$v"
        done
    done
    echo "run $run of $runs done" >&2
done

median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
printf 'median of %s runs; Mnodes/s and ratio to chess in the same run\n' "$runs"
printf '%-12s %5s %12s' variant depth nodes
for b in "${!bins[@]}"; do
    label=${bins[$b]}
    [ ${#label} -le 22 ] || label=...${label: -19}
    printf ' | %-22s' "$label"
done
echo
for v in "${variants[@]}"; do
    printf '%-12s %5s %12s' "$v" "${depth[$v]}" "$(cat "$out/nodes.0.$v")"
    for b in "${!bins[@]}"; do
        [ "$(cat "$out/nodes.$b.$v")" = "$(cat "$out/nodes.0.$v")" ] || echo "nodes differ: $v" >&2
        printf ' | %8.1f Mn/s  %5.2f  ' "$(median "$out/rate.$b.$v")" "$(median "$out/ratio.$b.$v")"
    done
    echo
done

#!/usr/bin/env bash
# Checks that scripts/run.sh (the README's run command) starts the binary the build makes: the
# path it runs, taken relative to its build folder, must be where this build put the binary
# relative to this build folder. Then the binary must answer a console post from that path.
# Usage: run_script_test.sh RUN_SCRIPT BUILD_DIR BINARY
set -euo pipefail
script=$1 build_dir=$2 binary=$3
line=$(grep -E '^exec build/[^/]+/' "$script") || { echo "run.sh has no 'exec build/<preset>/...' line"; exit 1; }
ran=$(echo "$line" | sed -E 's#^exec build/[^/]+/([^ ]+).*#\1#')
made=${binary#"$build_dir"/}
if [ "$ran" != "$made" ]; then
    echo "run.sh starts build/<preset>/$ran but the build makes build/<preset>/$made"
    exit 1
fi
db=$(mktemp -d)
trap 'rm -rf "$db"' EXIT
out=$(printf '#lobby alice: !new chess @bob\n' | "$build_dir/$ran" console --db "$db/g.db")
case "$out" in
*"@alice challenges @bob to FIDE chess, game #1."*) ;;
*) echo "unexpected console reply: $out"; exit 1 ;;
esac

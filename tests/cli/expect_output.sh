#!/usr/bin/env bash
# Runs a ghostpost command line and compares its standard output, standard error and exit
# status with expected files. Usage:
#   expect_output.sh BINARY CASE_DIR
# CASE_DIR holds: args (one argument per line), optionally stdin, expected.out, optionally
# expected.err, and expected.status (default 0).
set -uo pipefail
bin=$1
dir=$2
mapfile -t args < "$dir/args"
input=/dev/null
[ -f "$dir/stdin" ] && input="$dir/stdin"
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$bin" "${args[@]}" < "$input" > "$out" 2> "$err"
status=$?
want_status=0
[ -f "$dir/expected.status" ] && want_status=$(cat "$dir/expected.status")
fail=0
if [ "$status" != "$want_status" ]; then
    echo "exit status $status, expected $want_status"; fail=1
fi
if ! diff -u "$dir/expected.out" "$out"; then fail=1; fi
if [ -f "$dir/expected.err" ] && ! diff -u "$dir/expected.err" <(grep -v '^time ' "$err"); then fail=1; fi
exit $fail

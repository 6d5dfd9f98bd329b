#!/usr/bin/env bash
# The house style is .clang-format, as Debian's clang-format 14 reads it: every C++ file the
# repository tracks must already be in it. Prints each file that is not, and fails.
#   scripts/check-format.sh          check
#   scripts/check-format.sh --fix    rewrite the files in place
set -euo pipefail
cd "$(dirname "$0")/.."
formatter=$(command -v clang-format-14 || command -v clang-format || true)
if [[ -z $formatter ]]; then
    echo "check-format: clang-format is not installed (scripts/install-deps.sh test installs it)" >&2
    exit 1
fi
mapfile -t files < <(git ls-files -- '*.cpp' '*.h' '*.hpp' '*.cc')
if [[ ${1:-} == --fix ]]; then
    "$formatter" -i "${files[@]}"
    exit 0
fi
# One run over every file; each warning names its file first.
mapfile -t unformatted < <("$formatter" --dry-run "${files[@]}" 2>&1 |
    sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: warning: code should be clang-formatted.*/\1/p' | sort -u)
if ((${#unformatted[@]})); then
    printf 'not in the house style (scripts/check-format.sh --fix rewrites them):\n' >&2
    printf '  %s\n' "${unformatted[@]}" >&2
    exit 1
fi
echo "check-format: ${#files[@]} files in the house style"

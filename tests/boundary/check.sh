#!/usr/bin/env bash
# A platform cannot include storage (nor the service, rules or games): for each platform target,
# a file that includes the store is built with the platform's own include paths and must fail
# on that header, while the control that includes the platform boundary builds.
# Usage: check.sh <build dir> <platform>...
set -u
build=$1
shift
failed=0
for p in "$@"; do
    if ! cmake --build "$build" --target "boundary_ok_$p" >/tmp/boundary.$$ 2>&1; then
        echo "FAIL $p: the control probe did not build"
        cat /tmp/boundary.$$
        failed=1
        continue
    fi
    if cmake --build "$build" --target "boundary_storage_$p" >/tmp/boundary.$$ 2>&1; then
        echo "FAIL $p: a source of the platform can include ghostpost/storage/store.h"
        failed=1
    elif grep -q "ghostpost/storage/store.h: No such file or directory" /tmp/boundary.$$; then
        echo "ok   $p: ghostpost/storage/store.h is out of its reach"
    else
        echo "FAIL $p: the probe failed for another reason"
        cat /tmp/boundary.$$
        failed=1
    fi
done
rm -f /tmp/boundary.$$
exit $failed

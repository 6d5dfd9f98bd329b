#!/usr/bin/env bash
# Checks what `cmake --install` puts on a machine, then follows the service set-up steps of
# docs/operators.md (section 4) as written, in a temporary root: the daemon's own user, not
# root, must be able to read its configuration and open its database (`run --check`).
# Usage: install_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
fail() { echo "FAIL: $*"; exit 1; }

tmp=$(mktemp -d)
user=gp-install-test
cleanup() {
    if id "$user" >/dev/null 2>&1; then userdel "$user" >/dev/null 2>&1 || true; fi
    rm -rf "$tmp"
}
trap cleanup EXIT
chmod 0755 "$tmp" # the service's user walks through it to its files, as through / and /etc
prefix=$tmp/usr/local

# --- the installation
# A build without its man page (scripts/run.sh builds the binary alone) installs all the same.
man_built=$build/deploy/ghostpost.1
[ -f "$man_built" ] || fail "the build has no man page at $man_built"
mv "$man_built" "$tmp/ghostpost.1.aside"
cmake --install "$build" --prefix "$tmp/without-man" >/dev/null ||
    { mv "$tmp/ghostpost.1.aside" "$man_built"; fail "cmake --install failed without the man page"; }
mv "$tmp/ghostpost.1.aside" "$man_built"
[ -x "$tmp/without-man/bin/ghostpost" ] || fail "no executable installed without the man page"
[ ! -e "$tmp/without-man/share/man/man1/ghostpost.1" ] || fail "a man page came from nowhere"
cmake --install "$build" --prefix "$prefix" >/dev/null
bin=$prefix/bin/ghostpost
[ -x "$bin" ] || fail "no executable $bin"
version=$("$bin" --version)
[[ $version == "ghostpost "* ]] || fail "--version said: $version"
unit=$prefix/lib/systemd/system/ghostpost.service
[ -f "$unit" ] || fail "no unit at $unit"
exec_start=$(sed -n 's/^ExecStart=\([^ ]*\) .*/\1/p' "$unit")
[ "$exec_start" = "$bin" ] || fail "the unit starts '$exec_start', the binary is at $bin"
docs=$(sed -n 's/^Documentation=.* file:\/\/\(.*\)$/\1/p' "$unit")
[ -f "$docs" ] || fail "the unit's documentation '$docs' is not installed"
docdir=$prefix/share/doc/ghostpost
for f in ghostpost.example.toml README.md CHANGELOG.md docs/operators.md docs/architecture.md \
         docs/tournaments.md docs/variants/ghost.md docs/variants/phantom.md \
         docs/variants/gnostic.md; do
    [ -f "$docdir/$f" ] || fail "$docdir/$f is not installed"
done
# Every relative link of the installed README leads to an installed document.
while IFS= read -r link; do
    [ -e "$docdir/$link" ] || fail "the installed README links $link, which is not installed"
done < <(grep -o '](\([^)#:]*\))' "$docdir/README.md" | sed 's/^](\(.*\))$/\1/' | sort -u)
man=$prefix/share/man/man1/ghostpost.1
[ -f "$man" ] || fail "no man page at $man"
grep -q '^\.TH GHOSTPOST "1"' "$man" || fail "the man page has no .TH GHOSTPOST 1 header"
grep -q '^\.SH "GHOSTPOST RUN"' "$man" || fail "the man page has no section for ghostpost run"
grep -q -- '--check' "$man" || fail "the man page does not describe run --check"
grep -q '^\.SH ENVIRONMENT' "$man" || fail "the man page has no ENVIRONMENT section"
grep -q '^\.SH "EXIT STATUS"' "$man" || fail "the man page has no EXIT STATUS section"
grep -q '^Type=notify' "$unit" || fail "the unit is not Type=notify"
grep -q '^WatchdogSec=' "$unit" || fail "the unit has no watchdog"

# --- the operators' steps, as docs/operators.md writes them
if [ "$(id -u)" != 0 ] || ! command -v useradd >/dev/null || ! command -v runuser >/dev/null; then
    echo "the set-up steps need root, useradd and runuser: skipped"
    exit 77
fi
# The shell block of section 4, its continued lines joined.
steps=$(awk '/^## 4\. /{in4=1; next} /^## /{in4=0} in4 && /^    /{print substr($0, 5)}' \
            "$src/docs/operators.md" | sed -e ':a' -e '/\\$/N; s/\\\n *//; ta')
[ -n "$steps" ] || fail "no shell block in section 4 of docs/operators.md"
script=$tmp/steps.sh
{
    echo "set -euo pipefail"
    echo "export PATH='$prefix/bin':\$PATH"
    while IFS= read -r line; do
        case $line in
        scripts/install-deps.sh* | "cmake --preset release"* | *systemctl*) continue ;;
        "sudo cmake --install build/release"*)
            echo "true # installed above"; continue ;;
        esac
        # The docs' placeholder token becomes one of the right shape.
        line=${line//123456789:AA.../123456789:AAinstalltestinstalltest}
        # The machine's paths become the temporary root's, the user a throw-away one.
        line=${line//\/usr\/local/$prefix}
        line=${line//\/etc\/ghostpost/$tmp\/etc\/ghostpost}
        line=${line//\/var\/lib\/ghostpost/$tmp\/var\/lib\/ghostpost}
        line=${line//-g ghostpost/-g $user}
        line=${line//-o ghostpost/-o $user}
        line=${line//nologin ghostpost/nologin $user}
        line=${line//sudo -u ghostpost/runuser -u $user --}
        line=${line//sudo /}
        echo "$line"
    done <<<"$steps"
} >"$script"
mkdir -p "$tmp/etc" "$tmp/var/lib"
chmod 0755 "$tmp/etc" "$tmp/var" "$tmp/var/lib" "$tmp/usr" "$prefix" "$prefix/bin"
out=$(bash "$script" 2>&1) || fail "the documented steps failed: $out"
[[ $out == *"configuration ok: $tmp/etc/ghostpost/ghostpost.toml"* ]] ||
    fail "run --check as the service's user said: $out"
[ -f "$tmp/var/lib/ghostpost/ghostpost.sqlite" ] || fail "the check made no database"
[ "$(stat -c %U "$tmp/var/lib/ghostpost/ghostpost.sqlite")" = "$user" ] ||
    fail "the database does not belong to the service's user"

# The check fails as it should where the user cannot read the configuration: the folder as
# root alone may enter it.
chgrp root "$tmp/etc/ghostpost"
status=0
out=$(runuser -u "$user" -- env GHOSTPOST_TELEGRAM_TOKEN=123456789:AAtest "$bin" run \
          --config "$tmp/etc/ghostpost/ghostpost.toml" --check 2>&1) || status=$?
[ "$status" = 2 ] || fail "an unreadable configuration gave status $status: $out"
echo "installed and set up as documented: $bin, $unit, $man"

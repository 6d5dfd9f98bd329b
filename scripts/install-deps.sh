#!/usr/bin/env bash
# Installs what ghostpost needs, from Debian's packages only.
#   scripts/install-deps.sh run    what building and running the daemon need (scripts/run.sh)
#   scripts/install-deps.sh test   that, and what the test suite starts and drives (scripts/test.sh)
# Safe to run again: apt-get is skipped when every package is already there.
set -euo pipefail
purpose=${1:-test}

run_packages=(
    build-essential cmake ninja-build pkg-config git
    libcurl4-openssl-dev nlohmann-json3-dev libsqlite3-dev libssl-dev
    # GMime reads the mail of play by e-mail.
    libgmime-3.0-dev
    # Boost.Beast (headers only): the Discord Gateway's WebSocket, over OpenSSL, and the web
    # view's HTTP server, which gzips with zlib.
    libboost-dev zlib1g-dev
    libcairo2-dev libpng-dev libfreetype-dev libtomlplusplus-dev libcli11-dev fonts-dejavu-core
    # The PostgreSQL backend's client library (libpq).
    libpq-dev
    # sd_notify: ready and watchdog pings for the Type=notify systemd unit.
    libsystemd-dev
    # The man page is written from the binary's --help at build time.
    help2man
    # Replies in the players' languages: ICU formats the messages (plurals, numbers) and
    # libgettextpo reads the translators' .po catalogs.
    libicu-dev libgettextpo-dev
)
test_packages=(
    catch2 python3 sqlite3
    # An HTTP client for the web view's tests, and the browser its page tests drive headless.
    libcpp-httplib-dev chromium
    # The fake Discourse and the fake Matrix homeserver validate every request against the API
    # descriptions (JSON, and YAML for Matrix).
    python3-yaml python3-jsonschema
    # The fuzz targets (tests/fuzz): clang and its libFuzzer and sanitizer runtimes; clang-format
    # checks the house style (scripts/check-format.sh).
    clang libclang-rt-14-dev clang-format
    # The server the tests start a throw-away cluster of.
    postgresql-15
    # Play by e-mail is tested against real mail servers: Dovecot (IMAP, LMTP) and Postfix, which
    # the tests start on loopback ports with their own configuration (tests/email); openssl
    # makes the CA and certificate of the test that requires TLS.
    dovecot-imapd dovecot-lmtpd postfix openssl
    # promtool checks the daemon's /metrics.
    prometheus
    # msgfmt and xgettext check that the catalogs are well formed and the template up to date.
    gettext
    # A ccache makes rebuilds of the suite cheap; the build uses it when it is there.
    ccache
)
case $purpose in
run) packages=("${run_packages[@]}") ;;
test) packages=("${run_packages[@]}" "${test_packages[@]}")
    # Node.js and npm run the Telegram emulator in the tests. A machine may already carry a
    # Node.js of its own (NodeSource's package ships npm inside it and conflicts with Debian's
    # npm), so Debian's packages are only asked for when the commands are missing.
    command -v node >/dev/null 2>&1 || packages+=(nodejs)
    command -v npm >/dev/null 2>&1 || packages+=(npm)
    ;;
*) echo "usage: $0 run|test" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    # Postfix is only for the tests, which run their own instance on a loopback port: the
    # system's needs no configuration, and so holds no port.
    echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}"
fi

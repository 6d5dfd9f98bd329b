#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the tests: `pg_cluster.sh start STATE` makes one in a new
# temporary folder (initdb), serves it on a Unix socket there and nowhere else (pg_ctl), and
# writes to the file STATE its connection URL and its folder; `pg_cluster.sh stop STATE` stops
# it and removes the folder. The server never runs as root: as root, the folder is given to the
# `postgres` user that Debian's server package creates, and the programs run as that user.
# Durability is off (fsync, full pages): nothing here is kept. PG_DURABLE=1 keeps PostgreSQL's
# defaults instead (every commit flushed to disk), for benchmarks.
set -euo pipefail
command=${1:?usage: pg_cluster.sh start|stop STATE}
state=${2:?usage: pg_cluster.sh start|stop STATE}
bindir=$(pg_config --bindir)
if [[ ! -x "$bindir/initdb" ]]; then
    bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
fi

as_server() {
    if [[ $(id -u) -eq 0 ]]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

stop() {
    [[ -f "$state" ]] || return 0
    local dir
    dir=$(sed -n 's/^dir=//p' "$state")
    if [[ -n "$dir" && -d "$dir/data" ]]; then
        as_server "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    [[ -n "$dir" ]] && rm -rf "$dir"
    rm -f "$state"
}

case "$command" in
start)
    stop # a cluster left over by a run that was killed
    dir=$(mktemp -d /tmp/ghostpost-pg.XXXXXX)
    mkdir "$dir/socket"
    [[ $(id -u) -eq 0 ]] && chown -R postgres: "$dir"
    as_server "$bindir/initdb" -D "$dir/data" -U ghostpost --auth=trust -E UTF8 --no-locale \
        >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log"; exit 1; }
    settings="-c listen_addresses='' -k $dir/socket -c max_connections=200"
    if [[ "${PG_DURABLE:-0}" != 1 ]]; then
        settings+=" -c fsync=off -c full_page_writes=off -c synchronous_commit=off"
    fi
    if ! as_server "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o "$settings" \
        start >/dev/null; then
        cat "$dir/server.log"
        exit 1
    fi
    as_server "$bindir/createdb" -h "$dir/socket" -U ghostpost ghostpost_test
    printf 'url=postgresql:///ghostpost_test?host=%s/socket&user=ghostpost\ndir=%s\n' "$dir" "$dir" >"$state"
    echo "PostgreSQL test cluster on $dir/socket"
    ;;
stop)
    stop
    echo "PostgreSQL test cluster stopped"
    ;;
*)
    echo "usage: pg_cluster.sh start|stop STATE" >&2
    exit 2
    ;;
esac

#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on loopback, for the tests and the benchmark.
#   scripts/postgres.sh start DIR [PID] → starts it (data and socket under DIR), prints its URL;
#                                         with PID, stops it and removes DIR once that process is gone
#   scripts/postgres.sh stop DIR    → stops it
# Uses Debian's postgresql package (scripts/setup.sh installs it). The server runs as
# the 'postgres' user when started by root (PostgreSQL refuses to run as root).
set -euo pipefail
action=${1:?usage: postgres.sh start|stop DIR}
dir=${2:?usage: postgres.sh start|stop DIR}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/pg_ctl" ] || { echo "postgres.sh: PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
case $action in
start)
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync >"$dir/initdb.log" 2>&1 \
            || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    # fsync off by default: a test cluster that is thrown away (PG_FSYNC=on for the benchmark).
# Its output goes to files: a server holding the caller's pipe would keep it open for good.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=${PG_FSYNC:-off} -c max_connections=200" start \
        >"$dir/pg_ctl.log" 2>&1 </dev/null \
        || { cat "$dir/pg_ctl.log" "$dir/server.log" >&2; exit 1; }
    if [ -n "${3:-}" ]; then
        watched=$3
        nohup bash -c "while kill -0 $watched 2>/dev/null; do sleep 1; done; bash '$0' stop '$dir'; rm -rf '$dir'" \
            >/dev/null 2>&1 </dev/null &
    fi
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
stop)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    ;;
*) echo "usage: postgres.sh start|stop DIR" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on loopback, for the tests and the benchmark.
#   scripts/postgres.sh start DIR [PID] → starts it (data and socket under DIR), prints its URL;
#                                         with PID, stops it and removes DIR once that process is gone
#   scripts/postgres.sh stop DIR    → stops it
# Uses Debian's postgresql package (scripts/setup.sh installs it). The server runs as
# the 'postgres' user when started by root (PostgreSQL refuses to run as root).
# TLS is on, with a certificate for 127.0.0.1 and localhost from a CA of its own, DIR/tls/ca.pem
# (also the directory of `SHOW ssl_cert_file`, how tests find it from the URL alone). The role
# 'tlsonly' may connect over TLS only, so a test can prove TLS is used; 'postgres', in the
# URL printed, connects with or without.
set -euo pipefail
action=${1:?usage: postgres.sh start|stop DIR}
dir=${2:?usage: postgres.sh start|stop DIR}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/pg_ctl" ] || { echo "postgres.sh: PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
# A CA and the server's certificate and key, made once per DIR. The CA's key is deleted once
# it has signed: nothing else is ever signed by it. (Called in an || list, where set -e is off:
# each step says its failure itself.)
make_tls() {
    local tls=$1
    [ -f "$tls/server.pem" ] && return 0
    mkdir -p "$tls"
    chmod 755 "$tls"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 30 \
        -subj "/CN=fpbridge test PostgreSQL CA" -keyout "$tls/ca.key" -out "$tls/ca.pem" \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>"$tls/openssl.log" || return 1
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=localhost" \
        -keyout "$tls/server.key" -out "$tls/server.csr" 2>>"$tls/openssl.log" || return 1
    printf '%s\n' "subjectAltName=IP:127.0.0.1,DNS:localhost" "basicConstraints=critical,CA:FALSE" \
        "keyUsage=critical,digitalSignature" "extendedKeyUsage=serverAuth" >"$tls/server.ext"
    openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -set_serial "0x$(openssl rand -hex 8)" \
        -days 30 -extfile "$tls/server.ext" -out "$tls/server.pem" 2>>"$tls/openssl.log" || return 1
    rm -f "$tls/ca.key" "$tls/server.csr" "$tls/server.ext"
    chmod 644 "$tls/ca.pem" "$tls/server.pem"
    # PostgreSQL refuses a key that its group or others may read.
    chmod 600 "$tls/server.key"
    [ "$(id -u)" = 0 ] && chown postgres "$tls/server.key" "$tls/server.pem"
    return 0
}
case $action in
start)
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync >"$dir/initdb.log" 2>&1 \
            || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    make_tls "$dir/tls" || { cat "$dir/tls/openssl.log" >&2; exit 1; }
    # First match wins: 'tlsonly' is refused without TLS before any rule could let it in.
    cat >"$dir/pg_hba.conf" <<'HBA'
local     all  tlsonly                 reject
hostnossl all  tlsonly  all            reject
hostssl   all  tlsonly  127.0.0.1/32   trust
local     all  all                     trust
host      all  all      127.0.0.1/32   trust
host      all  all      ::1/128        trust
HBA
    chmod 644 "$dir/pg_hba.conf"
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    # fsync off by default: a test cluster that is thrown away (PG_FSYNC=on for the benchmark).
# Its output goes to files: a server holding the caller's pipe would keep it open for good.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=${PG_FSYNC:-off} -c max_connections=200 \
        -c ssl=on -c ssl_cert_file=$dir/tls/server.pem -c ssl_key_file=$dir/tls/server.key -c hba_file=$dir/pg_hba.conf" start \
        >"$dir/pg_ctl.log" 2>&1 </dev/null \
        || { cat "$dir/pg_ctl.log" "$dir/server.log" >&2; exit 1; }
    url="postgres://postgres@127.0.0.1:$port/postgres"
    psql "$url" -v ON_ERROR_STOP=1 -qc \
        "DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'tlsonly') THEN CREATE ROLE tlsonly LOGIN; END IF; END \$\$" \
        >"$dir/roles.log" 2>&1 || { cat "$dir/roles.log" >&2; exit 1; }
    if [ -n "${3:-}" ]; then
        watched=$3
        nohup bash -c "while kill -0 $watched 2>/dev/null; do sleep 1; done; bash '$0' stop '$dir'; rm -rf '$dir'" \
            >/dev/null 2>&1 </dev/null &
    fi
    echo "$url"
    ;;
stop)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    ;;
*) echo "usage: postgres.sh start|stop DIR" >&2; exit 2 ;;
esac

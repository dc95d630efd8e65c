#!/bin/sh
# Writes PgBouncer's configuration from the environment, then runs it in the foreground.
#   POSTGRES_HOST, POSTGRES_PORT   the server (postgres, 5432)
#   POSTGRES_DB                    the one database served, under the same name (crv)
#   POSTGRES_USER, POSTGRES_PASSWORD
#                                  the one role: clients sign in with it (SCRAM), and so does
#                                  PgBouncer at the server
#   PGBOUNCER_POOL_SIZE            server connections (20)
#   PGBOUNCER_MAX_CLIENT_CONN      client connections (1000)
#   PGBOUNCER_SERVER_TLS_SSLMODE   TLS to the server: prefer, or require for a managed one (prefer)
set -eu
: "${POSTGRES_HOST:=postgres}" "${POSTGRES_PORT:=5432}" "${POSTGRES_USER:=crv}"
: "${POSTGRES_DB:=$POSTGRES_USER}" "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}"
: "${PGBOUNCER_POOL_SIZE:=20}" "${PGBOUNCER_MAX_CLIENT_CONN:=1000}"
: "${PGBOUNCER_SERVER_TLS_SSLMODE:=prefer}"
dir=$(mktemp -d /tmp/pgbouncer.XXXXXX)
# userlist.txt: "name" "password", a double quote doubled.
quote() { printf '"%s"' "$(printf '%s' "$1" | sed 's/"/""/g')"; }
umask 077
printf '%s %s\n' "$(quote "$POSTGRES_USER")" "$(quote "$POSTGRES_PASSWORD")" >"$dir/userlist.txt"
cat >"$dir/pgbouncer.ini" <<INI
[databases]
$POSTGRES_DB = host=$POSTGRES_HOST port=$POSTGRES_PORT dbname=$POSTGRES_DB

[pgbouncer]
listen_addr = *
listen_port = 6432
unix_socket_dir =
auth_type = scram-sha-256
auth_file = $dir/userlist.txt
; A server connection serves one transaction at a time, then the next client's: the services
; keep no session state (kit/db.ts), and their advisory locks are per transaction.
pool_mode = transaction
default_pool_size = $PGBOUNCER_POOL_SIZE
max_client_conn = $PGBOUNCER_MAX_CLIENT_CONN
; A client waits this long for a server connection before it is refused.
query_wait_timeout = 30
server_idle_timeout = 300
server_tls_sslmode = $PGBOUNCER_SERVER_TLS_SSLMODE
ignore_startup_parameters = extra_float_digits
application_name_add_host = 1
INI
exec pgbouncer "$dir/pgbouncer.ini"

#!/usr/bin/env bash
# Measures the example server's memory under the loads of docs/memory.md:
# builds the server (or uses $SERVER) and memload, then for SQLite and, when
# MEMLOAD_PG is set, PostgreSQL: seeds 100 published articles of ~1 MiB and
# 50 posts of 19 KB through the API, and runs each load against a freshly
# started server, printing memload's lines. A third load asks for answers
# just under MaxResponseBytes (15 aliases: 14 MB each), which are whole.
#
#   tools/memload/run.sh
#   MEMLOAD_PG=postgres://postgres@127.0.0.1:5432 tools/memload/run.sh
#   SERVER=/tmp/srv-before GOMEMLIMIT=300MiB tools/memload/run.sh
#
# The PostgreSQL database memtest is dropped and created again (psql).
# REST_CONCURRENCY (10), PER_PAGE (100), GRAPHQL_CONCURRENCY (40), ROUNDS (3) and
# IDLE (90s) tune the loads; the server's own environment (GOMEMLIMIT, GOGC…) passes
# through.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/gqlkit-memload.XXXXXX")
server_pid=""
cleanup() {
	if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then
		kill -TERM "$server_pid" 2>/dev/null || true
		wait "$server_pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

(cd "$root/tools" && go build -o "$work/memload" ./memload)
server=${SERVER:-}
if [[ -z $server ]]; then
	(cd "$root/examples" && go build -o "$work/server" ./server)
	server=$work/server
fi
export JWT_SECRET
JWT_SECRET=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')

# start runs the server on DATABASE_URL and sets server_pid and addr.
start() {
	(exec env ADDR=127.0.0.1:0 "$server" serve 2>"$work/server.log") &
	server_pid=$!
	addr=""
	for _ in $(seq 100); do
		addr=$(grep -o '"addr":"[^"]*"' "$work/server.log" 2>/dev/null | head -1 | cut -d'"' -f4 || true)
		[[ -n $addr ]] && return 0
		kill -0 "$server_pid" 2>/dev/null || break
		sleep 0.2
	done
	echo "the server did not start; its log:" >&2
	cat "$work/server.log" >&2
	return 1
}

stop() {
	kill -TERM "$server_pid"
	wait "$server_pid" || true
	server_pid=""
}

# measure_one LABEL runs every step against the database in DATABASE_URL.
measure_one() {
	echo "== $1 (server $server, GOMEMLIMIT=${GOMEMLIMIT:-unset}, MEMORY_LIMIT=${MEMORY_LIMIT:-unset}, MEMORY_IDLE_RELEASE=${MEMORY_IDLE_RELEASE:-unset})"
	"$server" users add --name Ada --email ada@example.com --password 'correct horse' >/dev/null
	local token
	token=$("$server" token --user 1)
	start
	"$work/memload" seed-articles -url "http://$addr" -token "$token" -n 100 -size 1048000
	"$work/memload" seed-posts -url "http://$addr" -token "$token" -n 50 -size 19000
	stop
	start
	"$work/memload" rest -url "http://$addr" -pid "$server_pid" -concurrency "${REST_CONCURRENCY:-10}" -rounds "${ROUNDS:-3}" -per-page "${PER_PAGE:-100}"
	stop
	start
	"$work/memload" graphql -url "http://$addr" -pid "$server_pid" -concurrency "${GRAPHQL_CONCURRENCY:-40}" \
		-rounds "${ROUNDS:-3}" -aliases 160 -first 50 -idle "${IDLE:-90s}"
	stop
	# Answers just under MaxResponseBytes: 15 aliases of 50 posts of 19 KB.
	start
	echo "(whole answers: 15 aliases)"
	"$work/memload" graphql -url "http://$addr" -pid "$server_pid" -concurrency "${GRAPHQL_CONCURRENCY:-40}" \
		-rounds "${ROUNDS:-3}" -aliases 15 -first 50
	stop
}

mkdir -p "$work/sqlite"
DATABASE_URL="sqlite:$work/sqlite/app.db" measure_one SQLite
if [[ -n ${MEMLOAD_PG:-} ]]; then
	psql "$MEMLOAD_PG/postgres" -qXc 'DROP DATABASE IF EXISTS memtest' -c 'CREATE DATABASE memtest' >/dev/null
	DATABASE_URL="$MEMLOAD_PG/memtest?sslmode=disable" measure_one PostgreSQL
fi

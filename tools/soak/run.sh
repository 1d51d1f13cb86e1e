#!/usr/bin/env bash
# Soaks the example server: builds it and the soak program, starts the
# server on a fresh SQLite file and, when TEST_DATABASE_URL is set, once more
# on a fresh PostgreSQL schema (psql creates and drops it), adds two users,
# runs the mixed soak against each twice, without and then with slow and
# non-reading clients (soak -compare), then on the same database two crash
# runs (soak -crash starts the server itself and kills it with SIGKILL again
# and again under creates: with an Idempotency-Key on each, then without,
# for contrast), and prints the summaries in Markdown.
#
#   tools/soak/run.sh
#   TEST_DATABASE_URL='postgres://postgres@127.0.0.1:5432/test?sslmode=disable' tools/soak/run.sh
#
# SOAK_DURATION (60s, each phase), SOAK_WARMUP (5s), SOAK_SETTLE (5s) and
# SOAK_CONCURRENCY (8) tune the load; SOAK_NONREADERS (8), SOAK_SLOWREADERS
# (6) and SOAK_TRICKLE (4096 bytes/s) the slow clients, and SOAK_COMPARE=0
# runs the load once, without them; SOAK_KILLS (20), SOAK_KILL_MIN (1s) and
# SOAK_KILL_MAX (3s) tune the crash runs, and SOAK_CONTRAST=0 leaves out the
# run without keys. The exit status is 0 when every soak passed (the
# duplicates of the run without keys are informative, not a failure).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
duration=${SOAK_DURATION:-60s}
warmup=${SOAK_WARMUP:-5s}
settle=${SOAK_SETTLE:-5s}
concurrency=${SOAK_CONCURRENCY:-8}
kills=${SOAK_KILLS:-20}
kill_min=${SOAK_KILL_MIN:-1s}
kill_max=${SOAK_KILL_MAX:-3s}
contrast=${SOAK_CONTRAST:-1}
compare=${SOAK_COMPARE:-1}
nonreaders=${SOAK_NONREADERS:-8}
slowreaders=${SOAK_SLOWREADERS:-6}
trickle=${SOAK_TRICKLE:-4096}

work=$(mktemp -d "${TMPDIR:-/tmp}/gqlkit-soak.XXXXXX")
server_pid=""
schema=""
cleanup() {
	if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then
		kill -TERM "$server_pid" 2>/dev/null || true
		wait "$server_pid" 2>/dev/null || true
	fi
	if [[ -n $schema ]]; then
		psql "$TEST_DATABASE_URL" -qXc "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null 2>&1 || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

echo "building the server and the soak program" >&2
(cd "$root/examples" && go build -o "$work/server" ./server)
(cd "$root/tools" && go build -o "$work/soak" ./soak)

# random prints n random bytes in hex.
random() { od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'; }

# soak_one LABEL DATABASE_URL runs one server and one soak against it.
soak_one() {
	local label=$1 database_url=$2
	local dir="$work/$(echo "$label" | tr -c 'a-zA-Z0-9\n' '_')"
	mkdir -p "$dir"
	local pw_ada pw_bob
	pw_ada=$(random 12)
	pw_bob=$(random 12)
	# The server keeps its generated JWT secret beside the SQLite file, or in
	# a table of the PostgreSQL database, so that the tokens of the users
	# stay valid across its restarts. It runs in dir.
	(cd "$dir" && DATABASE_URL=$database_url "$work/server" users add --name Ada --email ada@example.com --password "$pw_ada" >/dev/null)
	(cd "$dir" && DATABASE_URL=$database_url "$work/server" users add --name Bob --email bob@example.com --password "$pw_bob" >/dev/null)

	(cd "$dir" && exec env DATABASE_URL="$database_url" ADDR=127.0.0.1:0 "$work/server" serve 2>"$dir/server.log") &
	server_pid=$!
	local addr="" i
	for i in $(seq 100); do
		addr=$(grep -o '"addr":"[^"]*"' "$dir/server.log" 2>/dev/null | head -1 | cut -d'"' -f4 || true)
		[[ -n $addr ]] && break
		kill -0 "$server_pid" 2>/dev/null || break
		sleep 0.2
	done
	if [[ -z $addr ]]; then
		echo "the server did not start; its log:" >&2
		cat "$dir/server.log" >&2
		return 1
	fi
	echo "$label: server $server_pid listening on $addr" >&2

	local status=0 users="ada@example.com:$pw_ada,bob@example.com:$pw_bob" slow=()
	if [[ $compare != 0 ]]; then
		slow=(-compare -nonreaders "$nonreaders" -slowreaders "$slowreaders" -trickle "$trickle")
	fi
	"$work/soak" -url "http://$addr" -duration "$duration" -warmup "$warmup" -settle "$settle" \
		-concurrency "$concurrency" -users "$users" "${slow[@]}" \
		-pid "$server_pid" -label "$label" >"$dir/summary.md" || status=$?

	kill -TERM "$server_pid"
	wait "$server_pid" || status=1
	server_pid=""
	{
		echo
		# The access line of a 503 (the response budgets' refusals of the
		# slow clients) is a warning; other 5xx are errors (the normal
		# clients' 5xx are counted by soak).
		echo "Server log: $(grep -c . "$dir/server.log") lines, $(grep -c '"level":"error"' "$dir/server.log" || true) at error level, $(grep -c '"status":503,.*"message":"request"' "$dir/server.log" || true) access lines of 503 answers; it stopped cleanly on SIGTERM."
	} >>"$dir/summary.md"
	summaries+=("$dir/summary.md")

	crash_one "$label, with Idempotency-Key" "$database_url" "$dir" "$users" true || status=1
	if [[ $contrast != 0 ]]; then
		crash_one "$label, without Idempotency-Key" "$database_url" "$dir" "$users" false || status=1
	fi
	return "$status"
}

# crash_one LABEL DATABASE_URL DIR USERS KEYS runs soak in crash mode on the
# database of the mixed soak: soak starts the server in DIR on a free port,
# kills it with SIGKILL at random moments and starts it again, under creates
# with an Idempotency-Key each (KEYS true) or without (false).
crash_one() {
	local label=$1 database_url=$2 dir=$3 users=$4 keys=$5
	local summary="$dir/crash-keys-$keys.md" status=0
	echo "$label: crash run, $kills kills" >&2
	(cd "$dir" && DATABASE_URL=$database_url exec "$work/soak" -crash -server "$work/server" -keys="$keys" \
		-kills "$kills" -kill-min "$kill_min" -kill-max "$kill_max" -concurrency "$concurrency" \
		-users "$users" -server-log "$dir/crash-server-$keys.log" -label "$label") >"$summary" || status=$?
	summaries+=("$summary")
	return "$status"
}

summaries=()
failed=0
soak_one "SQLite" "sqlite:$work/sqlite-db/app.db" || failed=1

if [[ -n ${TEST_DATABASE_URL:-} ]]; then
	command -v psql >/dev/null || { echo "TEST_DATABASE_URL is set but psql is not installed" >&2; exit 1; }
	schema="gqlkit_soak_$(random 6)"
	psql "$TEST_DATABASE_URL" -qXc "CREATE SCHEMA $schema" >/dev/null
	sep='?'
	[[ $TEST_DATABASE_URL == *\?* ]] && sep='&'
	soak_one "PostgreSQL" "$TEST_DATABASE_URL${sep}search_path=$schema" || failed=1
fi

echo "## Soak of the example server"
echo
echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "- machine: $(uname -srm), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM"
echo "- $(go version)"
if [[ -n ${TEST_DATABASE_URL:-} ]]; then
	echo "- PostgreSQL $(psql "$TEST_DATABASE_URL" -XAtc 'SHOW server_version' 2>/dev/null || echo '(version unknown)')"
fi
if [[ $compare != 0 ]]; then
	echo "- load: ${warmup} warm-up, then ${duration} without and ${duration} with ${nonreaders} non-reading and ${slowreaders} slow-reading clients (${trickle} bytes/s), ${concurrency} clients, settle ${settle}"
else
	echo "- load: ${warmup} warm-up + ${duration}, ${concurrency} clients, settle ${settle}"
fi
echo "- crash runs: ${kills} kills, ${kill_min} to ${kill_max} after each start, ${concurrency} clients"
for s in "${summaries[@]}"; do
	echo
	cat "$s"
done
exit "$failed"

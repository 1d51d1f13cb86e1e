#!/usr/bin/env bash
# run.sh: GET /api/articles?per_page=15 over HTTP, gqlkit's articles handler
# against the bare hand-written one (package rest), on SQLite and PostgreSQL.
# Loopback only (127.0.0.1).
#
# For each database: seed the workload (cmd/rest-bench -seed), then for each
# round, each handler in turn (kit first in odd rounds, bare first in even):
#   start cmd/rest-bench -> check the body against the first one served ->
#   wrk warm-up (discarded) -> wrk measured run -> VmRSS -> stop.
# wrk's own report of every measured run is printed as it comes; the rows
# and the summary (median req/s over the rounds, min-max, kit/bare ratio of
# the medians) are printed at the end.
#
# Settings (environment):
#   DBS       databases             (default: "sqlite postgres")
#   PG_URL    PostgreSQL database   (default: $TEST_DATABASE_URL, else
#             postgres://postgres@127.0.0.1:5432/test?sslmode=disable); the
#             tables go into schema rest_bench, created afresh and dropped
#             at the end
#   ROUNDS    interleaved rounds    (default: 3)
#   DURATION  measured wrk run      (default: 10s)
#   WARMUP    discarded wrk run     (default: 3s)
#   THREADS   wrk -t                (default: 2)
#   CONNS     wrk -c                (default: 32)
#   PORT      loopback port         (default: 18090)
#
# Needs Go, curl and wrk (apt-get update && apt-get install -y wrk).
#
#   ./rest/run.sh | tee /tmp/rest.txt
#   DBS=sqlite ROUNDS=5 ./rest/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bench=$(dirname "$here")

DBS=${DBS:-"sqlite postgres"}
PG_URL=${PG_URL:-${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test?sslmode=disable}}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-3s}
THREADS=${THREADS:-2}
CONNS=${CONNS:-32}
PORT=${PORT:-18090}
URL="http://127.0.0.1:${PORT}/api/articles?per_page=15"

die() { echo "run.sh: $*" >&2; exit 1; }
log() { echo "[$(date -u +%H:%M:%S)] $*"; }

command -v wrk >/dev/null || die "wrk not found (apt-get update && apt-get install -y wrk)"
command -v curl >/dev/null || die "curl not found"

tmp=$(mktemp -d)
BIN="$bench/bin/rest-bench"
(cd "$bench" && go build -o "$BIN" ./cmd/rest-bench)

case $PG_URL in *\?*) PG_SPEC="$PG_URL&search_path=rest_bench" ;; *) PG_SPEC="$PG_URL?search_path=rest_bench" ;; esac
spec() { if [[ $1 == sqlite ]]; then echo "sqlite:$tmp/rest.db"; else echo "$PG_SPEC"; fi; }

SERVER_PID=
stop_server() {
  if [[ -n $SERVER_PID ]]; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
  fi
}
cleanup() {
  stop_server
  if [[ " $DBS " == *" postgres "* ]]; then "$BIN" -db "$PG_SPEC" -drop || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

start_server() { # start_server IMPL DB
  if curl -s --max-time 1 -o /dev/null "$URL"; then die "port $PORT is already in use"; fi
  "$BIN" -impl "$1" -db "$(spec "$2")" -port "$PORT" >"$tmp/server.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 100); do
    if curl -sf --max-time 2 -o /dev/null "$URL"; then return 0; fi
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$tmp/server.log" >&2; die "$1 on $2 exited at start"; }
    sleep 0.1
  done
  die "$1 on $2 did not answer within 10 s"
}

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$SERVER_PID/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$SERVER_PID/stat"; } # user + system time of the server
HZ=$(getconf CLK_TCK)

echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "# machine: $(nproc) cores, $(awk -F: '/model name/ {gsub(/^ +/, "", $2); print $2; exit}' /proc/cpuinfo), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
echo "# go: $(go version | awk '{print $3}'), wrk: $(wrk -v 2>&1 | head -1 | awk '{print $2}')"
echo "# request: GET $URL"
echo "# wrk: -t$THREADS -c$CONNS -d$DURATION (warm-up $WARMUP), rounds: $ROUNDS, load before: $(cut -d' ' -f1-3 /proc/loadavg)"

rows="$tmp/rows.tsv"
printf 'db\tround\timpl\trps\tp50_us\tp99_us\tmax_us\tnon2xx\tsock_errors\trss_kb\tbytes\tload1\tcpu_us_per_req\n' >"$rows"
for db in $DBS; do
  log "$db: seeding"
  "$BIN" -db "$(spec "$db")" -seed
  rm -f "$tmp/reference.json"
  for ((round = 1; round <= ROUNDS; round++)); do
    order="kit bare"
    if ((round % 2 == 0)); then order="bare kit"; fi
    for impl in $order; do
      start_server "$impl" "$db"
      curl -sS --max-time 5 "$URL" >"$tmp/body.json"
      if [[ ! -e $tmp/reference.json ]]; then
        cp "$tmp/body.json" "$tmp/reference.json"
        log "$db: reference body from $impl: $(wc -c <"$tmp/reference.json") bytes"
      elif ! cmp -s "$tmp/body.json" "$tmp/reference.json"; then
        die "$impl on $db: the body differs from the reference (see $tmp/body.json)"
      fi
      wrk -t"$THREADS" -c"$CONNS" -d"$WARMUP" -s "$here/result.lua" "$URL" >/dev/null
      load=$(cut -d' ' -f1 /proc/loadavg)
      log "$db round $round/$ROUNDS: $impl (body identical; load $load)"
      cpu0=$(cpu_ticks)
      wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -s "$here/result.lua" "$URL" | tee "$tmp/wrk.txt"
      cpu1=$(cpu_ticks)
      rss=$(rss_kb)
      stop_server
      line=$(grep '^RESULT ' "$tmp/wrk.txt")
      # RESULT requests=.. duration_us=.. rps=.. p50_us=.. p99_us=.. max_us=.. non2xx=.. connect=.. read=.. write=.. timeout=.. bytes=..
      eval "$(echo "${line#RESULT }" | tr ' ' '\n' | sed 's/^/r_/')"
      cpu=$(awk -v t="$((cpu1 - cpu0))" -v hz="$HZ" -v n="$r_requests" 'BEGIN { printf "%.1f", n ? t * 1e6 / hz / n : 0 }')
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$db" "$round" "$impl" "$r_rps" "$r_p50_us" "$r_p99_us" \
        "$r_max_us" "$r_non2xx" "$((r_connect + r_read + r_write + r_timeout))" "$rss" "$r_bytes" "$load" "$cpu" >>"$rows"
    done
  done
done

echo
echo "## Rows"
echo
cat "$rows"
echo
echo "## Summary"
echo
echo "Medians of $ROUNDS rounds (req/s: min-max beside it). kit/bare: kit's median req/s over bare's."
echo "Server CPU: user + system time of the rest-bench process per request served (PostgreSQL's own"
echo "processes not counted); bare/kit CPU: bare's median over kit's, the same ratio measured by CPU"
echo "instead of by throughput, which other jobs on the machine disturb less."
echo
echo "| db | impl | req/s | min-max | kit/bare | server CPU µs/req | bare/kit CPU | p50 ms | p99 ms | RSS MiB |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
awk -F'\t' 'NR > 1 { k = $1 SUBSEP $3; m = ++n[k]; rps[k, m] = $4; p50[k, m] = $5; p99[k, m] = $6; rss[k, m] = $10; cpu[k, m] = $13
                     if (!($1 in seen)) { seen[$1] = 1; dbs[++ndb] = $1 }
                     if ($8 + $9 > 0) bad[k] += $8 + $9 }
function median(a, k, m,    i, j, t, v) {
  for (i = 1; i <= m; i++) v[i] = a[k, i]
  for (i = 2; i <= m; i++) for (j = i; j > 1 && v[j-1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
  lo = v[1]; hi = v[m]
  return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
}
END {
  for (d = 1; d <= ndb; d++) {
    db = dbs[d]
    bare = median(rps, db SUBSEP "bare", n[db, "bare"]); barecpu = median(cpu, db SUBSEP "bare", n[db, "bare"])
    for (i = 1; i <= 2; i++) {
      impl = i == 1 ? "kit" : "bare"; k = db SUBSEP impl; m = n[k]
      if (!m) continue
      med = median(rps, k, m); rlo = lo; rhi = hi; c = median(cpu, k, m)
      ratio = "-"; if (bare > 0) ratio = sprintf("%.2f×", med / bare)
      cratio = "-"; if (c > 0) cratio = sprintf("%.2f×", barecpu / c)
      note = ""; if (bad[k]) note = " (" bad[k] " non-2xx or socket errors)"
      printf "| %s | %s | %.0f | %.0f–%.0f | %s | %.0f | %s | %.2f | %.2f | %.1f |%s\n", db, impl, med, rlo, rhi, ratio,
        c, cratio, median(p50, k, m) / 1000, median(p99, k, m) / 1000, median(rss, k, m) / 1024, note
    }
  }
}' "$rows"

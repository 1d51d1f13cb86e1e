#!/usr/bin/env bash
# run.sh: measure gqlkit beside the peer servers with the shared HTTP harness
# (bench-anchors/run.sh, kept outside this repository). It builds cmd/gqlkit-bench and
# runs the harness with it as the server "gqlkit"; every other setting is the
# harness's own (see its README): ROUNDS, QUERIES, DURATION, WARMUP, THREADS,
# CONNS, PORT, PIN, BUILD.
#
#   ./run.sh                                   # limit graphql-jit graph-gophers graphql-go gqlkit, 3 rounds, A and B
#   SERVERS="limit gqlkit" ROUNDS=2 ./run.sh
#   ANCHORS=/path/to/bench-anchors ./run.sh
#
# Needs Go, Node 20, wrk and curl (apt-get update && apt-get install -y wrk).
# Raw rows and the summary go to results/http-<UTC time>.tsv and .md here
# (set OUT to choose the file; a relative OUT is taken from this folder).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# The harness lives in shared/, beside the repository: ../shared/bench-anchors
# from the repository's root.
ANCHORS=${ANCHORS:-$(cd "$here/../.." && pwd)/shared/bench-anchors}
[[ -x $ANCHORS/run.sh ]] || { echo "run.sh: no harness at $ANCHORS (set ANCHORS)" >&2; exit 1; }

mkdir -p "$here/bin" "$here/results"
(cd "$here" && go build -o bin/gqlkit-bench ./cmd/gqlkit-bench)

OUT=${OUT:-results/http-$(date -u +%Y-%m-%dT%H%MZ).tsv}
[[ $OUT == /* ]] || OUT="$here/$OUT"
export OUT
export SERVERS=${SERVERS:-"limit graphql-jit graph-gophers graphql-go gqlkit"}
export CMD_gqlkit="$here/bin/gqlkit-bench -port {port}"
exec "$ANCHORS/run.sh"

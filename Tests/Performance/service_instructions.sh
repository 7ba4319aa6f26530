#!/usr/bin/env bash
# Instructions one W1 `POST /v1/plan` request costs the service, on all its threads:
# callgrind counts a static release build of remindc-server (stripped of debug
# information, which valgrind cannot read in Swift's static builds) answering FEW and
# then MANY requests on one kept-alive connection; the difference over MANY - FEW is one
# request, start-up and shutdown taken out. The same job each time, so its config's check
# is kept, as for an app that re-plans.
# Usage: Tests/Performance/service_instructions.sh [FEW MANY]   (default 50 250)
# Needs valgrind, and GNU strip and sed (Linux, where valgrind runs). Builds in $SCRATCH
# when it is set (a --scratch-path), else .build-static.
set -euo pipefail
cd "$(dirname "$0")/../.."
FEW=${1:-50}
MANY=${2:-250}
SCRATCH=${SCRATCH:-.build-static}
swift build -c release --traits Service --static-swift-stdlib --scratch-path "$SCRATCH" --product remindc-server >/dev/null
swift build -c release --traits Service --static-swift-stdlib --scratch-path "$SCRATCH" --product remindc-benchmark >/dev/null
BIN="$(swift build -c release --traits Service --static-swift-stdlib --scratch-path "$SCRATCH" --show-bin-path)"
WORK=$(mktemp -d)
SERVER=""
trap 'if [ -n "$SERVER" ]; then kill -TERM "$SERVER" 2>/dev/null || true; fi; rm -rf "$WORK"' EXIT
strip --strip-debug "$BIN/remindc-server" -o "$WORK/remindc-server"
mkdir "$WORK/workloads"
"$BIN/remindc-benchmark" --write-workloads "$WORK/workloads" >/dev/null
python3 -c 'import json, sys; print(json.dumps({"config": open(sys.argv[1]).read(), "now": "2026-11-22T08:00:00Z"}))' \
  "$WORK/workloads/w1.plist" > "$WORK/job.json"

# The instructions of a run of the service that answers $1 requests, in $COUNTED. Called
# directly, not in a command substitution: there a failure would not stop the script, and
# the exit trap would not see the server to stop.
count() {
  rm -f "$WORK"/callgrind.out "$WORK/serve.out"
  valgrind --tool=callgrind --callgrind-out-file="$WORK/callgrind.out" "$WORK/remindc-server" --port 0 \
    > "$WORK/serve.out" 2> "$WORK/valgrind.err" &
  SERVER=$!
  for _ in $(seq 300); do grep -q serving "$WORK/serve.out" 2>/dev/null && break; sleep 0.2; done
  local port
  port=$(sed -n 's/.*:\([0-9]*\)$/\1/p' "$WORK/serve.out")
  if [ -z "$port" ]; then echo "the service did not start: $(tail -3 "$WORK/valgrind.err")" >&2; exit 1; fi
  python3 - "$port" "$1" "$WORK/job.json" <<'PY'
import http.client, sys
port, count, job = int(sys.argv[1]), int(sys.argv[2]), open(sys.argv[3], "rb").read()
connection = http.client.HTTPConnection("127.0.0.1", port)
for _ in range(count):
    connection.request("POST", "/v1/plan", body=job, headers={"Content-Type": "application/json"})
    answer = connection.getresponse()
    body = answer.read()
    if answer.status != 200:
        sys.exit(f"status {answer.status}: {body[:300]!r}")
connection.close()
PY
  kill -TERM "$SERVER"; wait "$SERVER" || true; SERVER=""
  COUNTED=$(sed -n 's/^\(summary\|totals\): *\([0-9]*\).*/\2/p' "$WORK/callgrind.out" | head -1)
  if [ -z "$COUNTED" ]; then echo "callgrind wrote no total" >&2; exit 1; fi
}
count "$FEW"
few=$COUNTED
count "$MANY"
many=$COUNTED
python3 -c 'import sys; a, b, n, m = map(int, sys.argv[1:]); print(f"{a} instructions for {n} requests, {b} for {m}: {(b - a) / (m - n):,.0f} a request")' \
  "$few" "$many" "$FEW" "$MANY"

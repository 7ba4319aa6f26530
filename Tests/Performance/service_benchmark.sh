#!/usr/bin/env bash
# The service and batch measured on this machine, for the README's figures:
#   remindc serve on 127.0.0.1 under wrk with W1-sized POST /v1/plan requests, on 1
#   connection and on 16 (2 threads): requests per second and p50/p90/p99 latency; and on
#   16 with an id of its own for each request, whose config the service checks afresh;
#   remindc batch over 2 000 W1 jobs with --jobs 1 and --jobs 2: plans per second.
# Usage: Tests/Performance/service_benchmark.sh [SECONDS]   (wrk's duration, default 20)
# Needs wrk (Debian's wrk). Builds remindc and remindc-benchmark in release mode, in
# $SCRATCH when it is set (a --scratch-path).
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION=${1:-20}
SCRATCH_FLAGS=()
if [ -n "${SCRATCH:-}" ]; then SCRATCH_FLAGS=(--scratch-path "$SCRATCH"); fi
swift build -c release "${SCRATCH_FLAGS[@]}" --traits Service --product remindc >/dev/null
swift build -c release "${SCRATCH_FLAGS[@]}" --traits Service --product remindc-server >/dev/null
swift build -c release "${SCRATCH_FLAGS[@]}" --traits Service --product remindc-benchmark >/dev/null
BIN="$(swift build -c release "${SCRATCH_FLAGS[@]}" --traits Service --show-bin-path)"
WORK=$(mktemp -d)
SERVER=""
trap 'if [ -n "$SERVER" ]; then kill -TERM "$SERVER" 2>/dev/null || true; fi; rm -rf "$WORK"' EXIT
"$BIN/remindc-benchmark" --write-workloads "$WORK" >/dev/null
python3 - "$WORK" <<'PY'
import json, sys
work = sys.argv[1]
config = open(f"{work}/w1.plist").read()
job = {"config": config, "now": "2026-11-22T08:00:00Z"}
open(f"{work}/job.json", "w").write(json.dumps(job))
with open(f"{work}/jobs.ndjson", "w") as jobs:
    for index in range(2000):
        jobs.write(json.dumps(dict(job, id=f"user-{index}")) + "\n")
PY
cat > "$WORK/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local file = io.open("$WORK/job.json", "rb")
wrk.body = file:read("*a")
file:close()
LUA
# The same job with an id of its own each time: its config's diagnostics name it after the
# id, so the service checks the config afresh for every request (see CheckedConfigs).
cat > "$WORK/post-new-ids.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local file = io.open("$WORK/job.json", "rb")
local job = file:read("*a")
file:close()
local counter = 0
request = function()
  counter = counter + 1
  return wrk.format(nil, nil, nil, '{"id":"user-' .. counter .. '",' .. string.sub(job, 2))
end
LUA
"$BIN/remindc" serve --port 0 > "$WORK/serve.out" &
SERVER=$!
for _ in $(seq 50); do grep -q serving "$WORK/serve.out" 2>/dev/null && break; sleep 0.1; done
PORT=$(sed -n 's/.*:\([0-9]*\)$/\1/p' "$WORK/serve.out")
curl -sf -o /dev/null -H "Content-Type: application/json" --data-binary @"$WORK/job.json" "http://127.0.0.1:$PORT/v1/plan"
for connections in 1 16; do
  threads=$((connections < 2 ? 1 : 2))
  echo "== remindc serve: POST /v1/plan, W1 ($(wc -c < "$WORK/job.json") bytes), wrk -t$threads -c$connections -d${DURATION}s"
  wrk -t"$threads" -c"$connections" -d"${DURATION}s" --latency -s "$WORK/post.lua" "http://127.0.0.1:$PORT/v1/plan" \
    | grep -E "Requests/sec|Non-2xx|Socket errors| 50%| 90%| 99%|requests in"
done
echo "== the same, every request with an id of its own (its config checked afresh), wrk -t2 -c16 -d${DURATION}s"
wrk -t2 -c16 -d"${DURATION}s" --latency -s "$WORK/post-new-ids.lua" "http://127.0.0.1:$PORT/v1/plan" \
  | grep -E "Requests/sec|Non-2xx|Socket errors| 50%| 90%| 99%|requests in"
kill -TERM "$SERVER"; wait "$SERVER" || true; SERVER=""
for jobs in 1 2; do
  seconds=$( { /usr/bin/time -f "%e" "$BIN/remindc" batch "$WORK/jobs.ndjson" --jobs "$jobs" -o "$WORK/results.ndjson"; } 2>&1 | tail -1)
  python3 -c "import sys; s=float(sys.argv[1]); print(f'== remindc batch --jobs {sys.argv[2]}: 2000 W1 plans in {s:.2f} s = {2000/s:.0f} plans/s ({2000/s/int(sys.argv[2]):.0f} per core)')" "$seconds" "$jobs"
done

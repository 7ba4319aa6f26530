#!/usr/bin/env bash
# Builds the reader fuzzer with libFuzzer and AddressSanitizer and runs one reader:
#   Tests/Fuzz/fuzz.sh config|events|pending|plan|batch SECONDS [libFuzzer options…]
# Its seeds are the examples and the test fixtures. The build, the corpus and what it finds
# (findings/READER) live in REMINDC_FUZZ_DIR, by default remindc-fuzz in the temporary
# folder: outside the source tree, so that no package checkout lands under Tests/.
set -euo pipefail
cd "$(dirname "$0")"
reader="${1:?reader: config, events, pending, plan or batch}"
seconds="${2:?seconds}"
shift 2
work="${REMINDC_FUZZ_DIR:-${TMPDIR:-/tmp}/remindc-fuzz}"
swift build -c release --scratch-path "$work/build" --product ReaderFuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >&2
binary="$(swift build -c release --scratch-path "$work/build" --show-bin-path)/ReaderFuzz"

corpus="$work/corpus/$reader"
findings="$work/findings/$reader"
mkdir -p "$corpus" "$findings"
root=../..
case "$reader" in
  config) seeds=("$root"/examples/*.plist "$root"/examples/embedding/*.json "$root"/Tests/ReminderCompilerTests/Fixtures/*.plist) ;;
  events) seeds=("$root"/examples/*.events.*) ;;
  pending | batch) seeds=() ;;
  plan) seeds=("$root"/Tests/ReminderCompilerTests/Golden/plans/*.json) ;;
  *) echo "unknown reader $reader" >&2; exit 2 ;;
esac
for seed in "${seeds[@]}"; do [ -f "$seed" ] && cp "$seed" "$corpus/" || true; done
# Pending lists and batch lines are made from the golden plans and the examples.
python3 make_seeds.py "$reader" "$root" "$corpus"

REMINDC_FUZZ_READER="$reader" "$binary" "$corpus" -artifact_prefix="$findings/" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 "$@"
